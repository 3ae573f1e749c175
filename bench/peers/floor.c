/* bench/peers/floor.c: the floor, plain C written here, timed on the levels
 * that bench/peers/fov_map.lua exports (bench/peers/README.md, "The floor").
 *
 *   floor DIR NSMALL NBIG [BUDGET_S]
 *
 * DIR holds small-<seed>.txt (80x50) and big-<seed>.txt (1000x1000), each a
 * level's `map.render` text: '#' blocks walking (`distances`' default) and
 * '#' and '+' block sight (`fov`'s default); the origin is the '@'.
 *
 * Four workloads, each the least a C program must do for the same answer:
 * - bfs: a breadth-first search over 4 neighbours from the sources into an
 *   int array of distances kept with the map (-1 = not reached; the map
 *   has a border of blocked cells, so no bounds checks), stopping
 *   past `max` when one is given; then the cells it reached are set back to
 *   -1 (part of the time: the next call finds the array clean, so a call
 *   costs the cells it reaches, never the map). Sources: the '@', or
 *   (`far`) ten open cells far apart on the map (floor_sources below, the
 *   rule floor_map.lua uses).
 * - fov: Albert Ford's symmetric shadowcasting (the algorithm family of
 *   `lvl:fov`), rows in an explicit stack, integer slopes, radius rule
 *   dx^2 + dy^2 <= r(r + 1), marking a memory (a byte a cell kept with the
 *   map, never cleared: what `lvl:fov(p, r, {into = memory})` does) and
 *   counting the marks.
 * - path: the bfs from the '@' stopping when it reaches the '>', then the
 *   way back by decreasing distance into an array of cells; its length in
 *   cells is the count. (As in bfs, the cells reached are set back.)
 * - explore: the bfs from the '@' over the cells the unlimited fov from it
 *   sees (worked out once per level, as a game keeps its memory) that may
 *   be entered, stopping at the first frontier cell it takes from the
 *   queue (one that has a neighbour inside the map not seen), then the
 *   way back as in path; the count is its length (0: none).
 * CPU time (CLOCK_PROCESS_CPUTIME_ID), a warm-up of a quarter of the budget,
 * then passes over the maps of one size until BUDGET_S (default 0.3) is
 * spent. Output, one line each:
 *   time <impl> <size> <variant> <µs per call> <calls>
 *   count <impl> <size> <seed> <variant> <cells>      (with FOV_COUNTS set)
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct {
  int width, height, x, y; /* origin, 0-based */
  int goal;                /* the '>', a padded index */
  unsigned char *walk;     /* 1 = may be entered; with a border of 0 */
  unsigned char *opaque;   /* 1 = blocks sight */
  int32_t *dist;           /* -1 = not reached; bordered as walk */
  int32_t *queue;
  unsigned char *memory;
  unsigned char *known;    /* explore's: seen from the origin; bordered as walk */
  unsigned char *explored; /* explore's: seen and may be entered; the same */
  int32_t *way;            /* a path's cells */
  int sources[10];
} Level;

static double cpu_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Ten open cells far apart: for k = 0..9 the first cell that may be entered,
 * in row-major order (wrapping from the last cell to the first), from
 * (w * (2k + 1) / 20, h * (2k + 1) / 20), 0-based:
 * ten points along the diagonal (floor_map.lua reads the same). */
static int padded(const Level *lv, int i) { return (i / lv->width + 1) * (lv->width + 2) + i % lv->width + 1; }

static void floor_sources(Level *lv) {
  int n = lv->width * lv->height;
  for (int k = 0; k < 10; k++) {
    int i = lv->height * (2 * k + 1) / 20 * lv->width + lv->width * (2 * k + 1) / 20;
    int tried = 0;
    while (tried < n && !lv->walk[padded(lv, i)]) i = (i + 1) % n, tried++;
    if (tried == n) {
      fprintf(stderr, "floor: no open cell for source %d\n", k);
      exit(1);
    }
    lv->sources[k] = padded(lv, i);
  }
}

static Level load_level(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    perror(path);
    exit(1);
  }
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *text = malloc((size_t)n + 1);
  if (!text || fread(text, 1, (size_t)n, f) != (size_t)n) {
    fprintf(stderr, "floor: cannot read %s\n", path);
    exit(1);
  }
  fclose(f);
  text[n] = '\0';
  Level lv = {0};
  lv.x = lv.y = -1;
  for (char *p = text; *p && *p != '\n'; p++) lv.width++;
  for (char *p = text; *p; p++) lv.height += *p == '\n';
  if (n > 0 && text[n - 1] != '\n') lv.height++;
  size_t cells = (size_t)lv.width * (size_t)lv.height;
  size_t padded = ((size_t)lv.width + 2) * ((size_t)lv.height + 2);
  lv.walk = calloc(padded, 1);
  lv.opaque = malloc(cells);
  lv.memory = calloc(cells, 1);
  lv.known = calloc(padded, 1);
  lv.explored = calloc(padded, 1);
  lv.way = malloc(padded * sizeof *lv.way);
  lv.dist = malloc(padded * sizeof *lv.dist);
  lv.queue = malloc(padded * sizeof *lv.queue);
  for (size_t i = 0; i < padded; i++) lv.dist[i] = -1;
  int x = 0, y = 0;
  for (char *p = text; *p; p++) {
    if (*p == '\n') {
      x = 0, y++;
      continue;
    }
    size_t i = (size_t)y * (size_t)lv.width + (size_t)x;
    lv.walk[((size_t)y + 1) * ((size_t)lv.width + 2) + (size_t)x + 1] = *p != '#';
    lv.opaque[i] = *p == '#' || *p == '+';
    if (*p == '@') lv.x = x, lv.y = y;
    if (*p == '>') lv.goal = ((int)y + 1) * (lv.width + 2) + x + 1;
    x++;
  }
  free(text);
  if (lv.x < 0) {
    fprintf(stderr, "floor: %s has no '@'\n", path);
    exit(1);
  }
  floor_sources(&lv);
  return lv;
}

/* The search: returns the cells reached; `max` < 0 is no limit. Leaves
 * lv->dist as it found it (every cell -1). */
static int bfs(Level *lv, const int *sources, int nsources, int max, int keep) {
  int32_t *dist = lv->dist, *queue = lv->queue;
  const unsigned char *walk = lv->walk;
  int w = lv->width + 2, head = 0, tail = 0;
  for (int s = 0; s < nsources; s++)
    if (dist[sources[s]] < 0) dist[sources[s]] = 0, queue[tail++] = sources[s];
  while (head < tail) {
    int i = queue[head++], d = dist[i] + 1;
    if (max >= 0 && d > max) break;
    if (walk[i - 1] && dist[i - 1] < 0) dist[i - 1] = d, queue[tail++] = i - 1;
    if (walk[i + 1] && dist[i + 1] < 0) dist[i + 1] = d, queue[tail++] = i + 1;
    if (walk[i - w] && dist[i - w] < 0) dist[i - w] = d, queue[tail++] = i - w;
    if (walk[i + w] && dist[i + w] < 0) dist[i + w] = d, queue[tail++] = i + w;
  }
  if (!keep)
    for (int k = 0; k < tail; k++) dist[queue[k]] = -1;
  return tail;
}

/* Ford's shadowcasting, as src/toolkit/fov.rs describes it (this is a
 * separate, plain C writing of the published algorithm). */
typedef struct {
  int depth;
  int64_t sn, sd, en, ed; /* start and end slopes */
} Row;

static int64_t floor_div(int64_t a, int64_t b) { /* b > 0 */
  int64_t q = a / b;
  return (a % b != 0 && a < 0) ? q - 1 : q;
}

/* The way back from `to` (reached) to a source by decreasing distance,
 * into lv->way; then every cell reached set back to -1. Returns its
 * length in cells. */
static int way_back(Level *lv, int to, int tail) {
  int32_t *dist = lv->dist;
  int w = lv->width + 2, n = 0, i = to;
  lv->way[n++] = i;
  while (dist[i] > 0) {
    int d = dist[i] - 1;
    if (dist[i - w] == d) i -= w;
    else if (dist[i + 1] == d) i += 1;
    else if (dist[i + w] == d) i += w;
    else i -= 1;
    lv->way[n++] = i;
  }
  for (int k = 0; k < tail; k++) dist[lv->queue[k]] = -1;
  return n;
}

/* The bfs from the origin over the cells `open` allows until it takes from
 * the queue (the origin first) the cell `goal`, or with `goal` < 0 a
 * frontier cell: the way to it, or 0. */
static int search_to(Level *lv, const unsigned char *open, int goal) {
  int32_t *dist = lv->dist, *queue = lv->queue;
  const unsigned char *known = lv->known;
  int w = lv->width + 2, head = 0, tail = 0;
  int origin = (lv->y + 1) * w + lv->x + 1;
  dist[origin] = 0, queue[tail++] = origin;
  while (head < tail) {
    int i = queue[head++], d = dist[i] + 1;
    if (goal >= 0 ? i == goal
                  : (!known[i - 1] && i % w != 1) || (!known[i + 1] && i % w != w - 2) ||
                        (!known[i - w] && i / w != 1) || (!known[i + w] && i / w != lv->height))
      return way_back(lv, i, tail);
    if (open[i - 1] && dist[i - 1] < 0) dist[i - 1] = d, queue[tail++] = i - 1;
    if (open[i + 1] && dist[i + 1] < 0) dist[i + 1] = d, queue[tail++] = i + 1;
    if (open[i - w] && dist[i - w] < 0) dist[i - w] = d, queue[tail++] = i - w;
    if (open[i + w] && dist[i + w] < 0) dist[i + w] = d, queue[tail++] = i + w;
  }
  for (int k = 0; k < tail; k++) dist[queue[k]] = -1;
  return 0;
}

static Row *rows_stack;
static size_t rows_cap;

static long quadrant(Level *lv, int qd, int radius) {
  int w = lv->width, h = lv->height, x = lv->x, y = lv->y;
  long along, across, lo_col, hi_col, max_depth;
  switch (qd) {
  case 0: along = -w, across = 1, lo_col = -x, hi_col = w - 1 - x, max_depth = y; break;
  case 1: along = 1, across = w, lo_col = -y, hi_col = h - 1 - y, max_depth = w - 1 - x; break;
  case 2: along = w, across = 1, lo_col = -x, hi_col = w - 1 - x, max_depth = h - 1 - y; break;
  default: along = -1, across = w, lo_col = -y, hi_col = h - 1 - y, max_depth = x; break;
  }
  if (radius >= 0 && radius < max_depth) max_depth = radius;
  int64_t limit = radius >= 0 ? (int64_t)radius * (radius + 1) : INT64_MAX;
  long origin = (long)y * w + x, marks = 0;
  size_t top = 0;
  const unsigned char *opaque = lv->opaque;
  unsigned char *memory = lv->memory;
  rows_stack[top++] = (Row){1, -1, 1, 1, 1};
  while (top) {
    Row r = rows_stack[--top];
    if (r.depth > max_depth) continue;
    int64_t d = r.depth;
    int64_t lo = floor_div(2 * d * r.sn + r.sd, 2 * r.sd);
    int64_t hi = -floor_div(r.ed - 2 * d * r.en, 2 * r.ed);
    if (lo < lo_col) lo = lo_col;
    if (hi > hi_col) hi = hi_col;
    if (lo > hi) continue;
    long base = origin + (long)d * along;
    int prev = -1;
    for (int64_t c = lo; c <= hi; c++) {
      long i = base + (long)c * across;
      int wall = opaque[i];
      if ((wall || (c * r.sd >= d * r.sn && c * r.ed <= d * r.en)) && d * d + c * c <= limit)
        memory[i] = 1, marks++;
      if (prev == 1 && !wall) r.sn = 2 * c - 1, r.sd = 2 * d;
      if (prev == 0 && wall) {
        if (top + 2 > rows_cap) rows_stack = realloc(rows_stack, (rows_cap *= 2) * sizeof *rows_stack);
        rows_stack[top++] = (Row){r.depth + 1, r.sn, r.sd, 2 * c - 1, 2 * d};
      }
      prev = wall;
    }
    if (prev == 0) {
      if (top + 2 > rows_cap) rows_stack = realloc(rows_stack, (rows_cap *= 2) * sizeof *rows_stack);
      rows_stack[top++] = (Row){r.depth + 1, r.sn, r.sd, r.en, r.ed};
    }
  }
  return marks;
}

static long fov(Level *lv, int radius) {
  lv->memory[(size_t)lv->y * lv->width + lv->x] = 1;
  long marks = 1;
  for (int q = 0; q < 4; q++) marks += quadrant(lv, q, radius);
  return marks;
}

/* explore's cells: those the unlimited fov from the origin sees and that
 * may be entered (the memory is cleared again). */
static void explore_cells(Level *lv) {
  fov(lv, -1);
  for (int y = 0; y < lv->height; y++)
    for (int x = 0; x < lv->width; x++) {
      int i = (y + 1) * (lv->width + 2) + x + 1;
      lv->known[i] = lv->memory[y * lv->width + x];
      lv->explored[i] = lv->known[i] && lv->walk[i];
    }
  memset(lv->memory, 0, (size_t)lv->width * lv->height);
}

typedef enum { W_BFS, W_BFS_MAX, W_BFS_FAR, W_FOV8, W_FOV, W_PATH, W_EXPLORE } Work;
static const char *VARIANT[] = {"all", "max10", "far10max10", "8", "unlimited", "stairs", "seen"};
static const char *IMPL[] = {"c_bfs", "c_bfs", "c_bfs", "c_fov", "c_fov", "c_path", "c_explore"};

static volatile long sink;

static long call(Level *l, Work wk) {
  int origin = (l->y + 1) * (l->width + 2) + l->x + 1;
  switch (wk) {
  case W_BFS: return bfs(l, &origin, 1, -1, 0);
  case W_BFS_MAX: return bfs(l, &origin, 1, 10, 0);
  case W_BFS_FAR: return bfs(l, l->sources, 10, 10, 0);
  case W_FOV8: return fov(l, 8);
  case W_FOV: return fov(l, -1);
  case W_PATH: return search_to(l, l->walk, l->goal);
  default: return search_to(l, l->explored, -1);
  }
}

static long run(Level *lv, int n, long first, long calls, Work wk) {
  for (long i = first; i < first + calls; i++) sink += call(&lv[i % n], wk);
  return first + calls;
}

static void time_workload(const char *size, Level *lv, int n, Work wk, double budget) {
  long i = 0, batch = n;
  double t0 = cpu_now();
  while (cpu_now() - t0 < budget / 4) i = run(lv, n, i, batch, wk);
  long calls = 0;
  double spent = 0;
  while (spent < budget || calls < n) {
    double s = cpu_now();
    i = run(lv, n, i, batch, wk);
    spent += cpu_now() - s;
    calls += batch;
  }
  printf("time %s %s %s %.4f %ld\n", IMPL[wk], size, VARIANT[wk],
         spent / (double)calls * 1e6, calls);
  fflush(stdout);
}

/* Cells reached within distance (bfs) and cells seen (fov, marked into a
 * cleared memory), for a loose check against the module's. */
static void counts(const char *size, Level *lv, int n, Work wk) {
  for (int s = 0; s < n; s++) {
    Level *l = &lv[s];
    long c = 0;
    if (wk == W_FOV8 || wk == W_FOV) {
      memset(l->memory, 0, (size_t)l->width * l->height);
      call(l, wk);
      for (long i = 0; i < (long)l->width * l->height; i++) c += l->memory[i];
    } else {
      c = call(l, wk);
    }
    printf("count %s %s %d %s %ld\n", IMPL[wk], size, s + 1, VARIANT[wk], c);
  }
}

int main(int argc, char **argv) {
  if (argc < 4) {
    fprintf(stderr, "usage: floor DIR NSMALL NBIG [BUDGET_S]\n");
    return 2;
  }
  const char *dir = argv[1];
  int nsmall = atoi(argv[2]), nbig = atoi(argv[3]);
  double budget = argc > 4 ? atof(argv[4]) : 0.3;
  rows_cap = 1024;
  rows_stack = malloc(rows_cap * sizeof *rows_stack);
  struct {
    const char *size, *prefix;
    int n;
    Level *lv;
  } sets[2] = {{"80x50", "small", nsmall, NULL}, {"1000x1000", "big", nbig, NULL}};
  char path[4096];
  for (int k = 0; k < 2; k++) {
    sets[k].lv = calloc((size_t)sets[k].n, sizeof(Level));
    for (int s = 0; s < sets[k].n; s++) {
      snprintf(path, sizeof path, "%s/%s-%d.txt", dir, sets[k].prefix, s + 1);
      sets[k].lv[s] = load_level(path);
      explore_cells(&sets[k].lv[s]);
    }
  }
  for (int k = 0; k < 2; k++)
    for (Work wk = W_BFS; wk <= W_EXPLORE; wk++)
      if (wk != W_BFS_FAR || k == 1) time_workload(sets[k].size, sets[k].lv, sets[k].n, wk, budget);
  if (getenv("FOV_COUNTS"))
    for (int k = 0; k < 2; k++)
      for (Work wk = W_BFS; wk <= W_EXPLORE; wk++)
        if (wk != W_BFS_FAR || k == 1) counts(sets[k].size, sets[k].lv, sets[k].n, wk);
  return 0;
}
