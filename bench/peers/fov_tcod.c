/* bench/peers/fov_tcod.c: libtcod's C field of view, timed from C on the
 * levels that bench/peers/fov_map.lua exports (bench/peers/README.md).
 *
 *   fov_tcod LIBTCOD_SO DIR NSMALL NBIG [BUDGET_S]
 *
 * LIBTCOD_SO is the shared object that holds libtcod's C (in python-tcod's
 * wheel, tcod/_libtcod.abi3.so); it is opened with dlopen, so nothing of
 * libtcod is compiled here and none of its headers are needed: the five
 * functions used are declared below as libtcod 2.x defines them. DIR holds
 * small-<seed>.txt (80x50, seeds 1..NSMALL) and big-<seed>.txt (1000x1000,
 * seeds 1..NBIG), each `map.render` text of a level: '#' and '+' are opaque
 * (map.fov's default), '#' is not walkable, the origin is the '@'.
 *
 * For each map: TCOD_map_new and TCOD_map_set_properties on every cell,
 * outside the timing. Timed: TCOD_map_compute_fov(map, x, y, radius,
 * light_walls = true, algorithm), the call a game makes each turn (it clears
 * every cell's fov flag itself), cycling through the maps of one size as the
 * Lua side does, CPU time (CLOCK_PROCESS_CPUTIME_ID), after a warm-up, for at
 * least BUDGET_S seconds (default 0.3) and at least one pass over the maps.
 *
 * Output, one line each:
 *   time <impl> <size> <radius> <µs per call> <calls>
 *   count <impl> <size> <seed> <radius> <visible cells>
 * impl: tcod_sym (FOV_SYMMETRIC_SHADOWCAST), tcod_shadow (FOV_SHADOW),
 * tcod_basic (FOV_BASIC); size: 80x50 or 1000x1000; radius: 8 or unlimited
 * (libtcod's radius 0).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* libtcod 2.x (include/libtcod/fov.h, fov_types.h). */
typedef struct TCOD_Map TCOD_Map;
enum { FOV_BASIC = 0, FOV_SHADOW = 2, FOV_SYMMETRIC_SHADOWCAST = 13 };
static TCOD_Map *(*map_new)(int width, int height);
static void (*map_set_properties)(TCOD_Map *map, int x, int y, bool transparent, bool walkable);
static int (*map_compute_fov)(TCOD_Map *map, int pov_x, int pov_y, int max_radius, bool light_walls,
                              int algo);
static bool (*map_is_in_fov)(TCOD_Map *map, int x, int y);
static void (*map_delete)(TCOD_Map *map);

typedef struct {
  TCOD_Map *map;
  int width, height, x, y; /* origin, 0-based */
} Level;

static double cpu_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The wheel's shared object is a Python extension module: besides libtcod it
 * holds python-tcod's glue, which refers to Python's C API. That glue is never
 * called here: its functions stay unresolved (RTLD_LAZY binds a function on
 * its first call), and its one data reference, Python's None, is satisfied by
 * this placeholder, exported from the program (linked with -rdynamic). */
__attribute__((visibility("default"))) char _Py_NoneStruct[64];

static void *need(void *lib, const char *name) {
  void *p = dlsym(lib, name);
  if (!p) {
    fprintf(stderr, "fov_tcod: %s not found: %s\n", name, dlerror());
    exit(1);
  }
  return p;
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
    fprintf(stderr, "fov_tcod: cannot read %s\n", path);
    exit(1);
  }
  fclose(f);
  text[n] = '\0';
  Level lv = {0};
  lv.x = lv.y = -1;
  for (char *p = text; *p && *p != '\n'; p++) lv.width++;
  for (char *p = text; *p; p++) lv.height += *p == '\n';
  if (n > 0 && text[n - 1] != '\n') lv.height++;
  lv.map = map_new(lv.width, lv.height);
  int x = 0, y = 0;
  for (char *p = text; *p; p++) {
    if (*p == '\n') {
      if (x != lv.width) {
        fprintf(stderr, "fov_tcod: %s: row %d is %d wide, not %d\n", path, y + 1, x, lv.width);
        exit(1);
      }
      x = 0, y++;
      continue;
    }
    bool opaque = *p == '#' || *p == '+';
    map_set_properties(lv.map, x, y, !opaque, *p != '#');
    if (*p == '@') lv.x = x, lv.y = y;
    x++;
  }
  free(text);
  if (lv.x < 0) {
    fprintf(stderr, "fov_tcod: %s has no '@'\n", path);
    exit(1);
  }
  return lv;
}

static const struct {
  const char *name;
  int algo;
} IMPLS[] = {
    {"tcod_sym", FOV_SYMMETRIC_SHADOWCAST},
    {"tcod_shadow", FOV_SHADOW},
    {"tcod_basic", FOV_BASIC},
};

static volatile int sink;

static long run(Level *lv, int n, long first, long calls, int radius, int algo) {
  for (long i = first; i < first + calls; i++) {
    Level *l = &lv[i % n];
    sink += map_compute_fov(l->map, l->x, l->y, radius, true, algo);
  }
  return first + calls;
}

/* µs per call: a warm-up of a quarter of the budget, then batches until the
 * budget is spent (and every map has been used at least once). */
static void time_workload(const char *impl, const char *size, Level *lv, int n, int radius, int algo,
                          double budget) {
  long i = 0, batch = n;
  double t0 = cpu_now();
  while (cpu_now() - t0 < budget / 4) i = run(lv, n, i, batch, radius, algo);
  long calls = 0;
  double spent = 0;
  while (spent < budget || calls < n) {
    double s = cpu_now();
    i = run(lv, n, i, batch, radius, algo);
    spent += cpu_now() - s;
    calls += batch;
  }
  printf("time %s %s %s %.4f %ld\n", impl, size, radius ? "8" : "unlimited", spent / (double)calls * 1e6,
         calls);
  fflush(stdout);
}

static void counts(const char *impl, const char *size, Level *lv, int n, int radius, int algo) {
  for (int s = 0; s < n; s++) {
    Level *l = &lv[s];
    map_compute_fov(l->map, l->x, l->y, radius, true, algo);
    long c = 0;
    for (int y = 0; y < l->height; y++)
      for (int x = 0; x < l->width; x++) c += map_is_in_fov(l->map, x, y);
    printf("count %s %s %d %s %ld\n", impl, size, s + 1, radius ? "8" : "unlimited", c);
  }
}

int main(int argc, char **argv) {
  if (argc < 5) {
    fprintf(stderr, "usage: fov_tcod LIBTCOD_SO DIR NSMALL NBIG [BUDGET_S]\n");
    return 2;
  }
  void *lib = dlopen(argv[1], RTLD_LAZY | RTLD_LOCAL);
  if (!lib) {
    fprintf(stderr, "fov_tcod: %s\n", dlerror());
    return 1;
  }
  map_new = need(lib, "TCOD_map_new");
  map_set_properties = need(lib, "TCOD_map_set_properties");
  map_compute_fov = need(lib, "TCOD_map_compute_fov");
  map_is_in_fov = need(lib, "TCOD_map_is_in_fov");
  map_delete = need(lib, "TCOD_map_delete");
  const char *dir = argv[2];
  int nsmall = atoi(argv[3]), nbig = atoi(argv[4]);
  double budget = argc > 5 ? atof(argv[5]) : 0.3;

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
    }
  }
  const int radii[2] = {8, 0};
  for (int k = 0; k < 2; k++)
    for (int r = 0; r < 2; r++)
      for (size_t a = 0; a < sizeof IMPLS / sizeof IMPLS[0]; a++)
        time_workload(IMPLS[a].name, sets[k].size, sets[k].lv, sets[k].n, radii[r], IMPLS[a].algo, budget);
  if (getenv("FOV_COUNTS"))
    for (int k = 0; k < 2; k++)
      for (int r = 0; r < 2; r++)
        for (size_t a = 0; a < sizeof IMPLS / sizeof IMPLS[0]; a++)
          counts(IMPLS[a].name, sets[k].size, sets[k].lv, sets[k].n, radii[r], IMPLS[a].algo);
  for (int k = 0; k < 2; k++) {
    for (int s = 0; s < sets[k].n; s++) map_delete(sets[k].lv[s].map);
    free(sets[k].lv);
  }
  return 0;
}
