/* bench/peers/world_tcod.c: libtcod's C noise, timed from C beside
 * `map.noise` (bench/peers/world_run.sh, bench/peers/README.md).
 *
 *   world_tcod LIBTCOD_SO [BUDGET_S]
 *
 * LIBTCOD_SO is the shared object that holds libtcod's C (python-tcod's
 * wheel, tcod/_libtcod.abi3.so), opened with dlopen as fov_tcod.c does: the
 * functions used are declared below as libtcod 2.x defines them
 * (include/libtcod/noise.h).
 *
 * The noise: TCOD_noise_new(2, hurst = 1, lacunarity = 2, NULL), so that
 * octave k weighs 2^-k, as map.noise's persistence 0.5; simplex
 * (TCOD_NOISE_SIMPLEX) and Perlin (TCOD_NOISE_PERLIN). Each sample at
 * (x / 16, y / 16) for x, y from 1 to 1000, map.noise's default frequency.
 * Timed, CPU time (CLOCK_PROCESS_CPUTIME_ID), after a warm-up of a quarter
 * of the budget, in whole passes until BUDGET_S (default 0.3) is spent:
 *   grid1, grid4      a 1000x1000 float array filled by TCOD_noise_get_ex /
 *                     TCOD_noise_get_fbm_ex (4 octaves) called per cell, ms
 *   grid1v, grid4v    the same by one TCOD_noise_get_vectorized /
 *                     TCOD_noise_get_fbm_vectorized call over the million
 *                     cells (coordinates made once, outside the timing), ms
 *   pgrid1, pgrid4    grid1 and grid4 with Perlin noise, ms
 *   get1, get4        a call, from grid1 and grid4: ns
 * Output, one line each: time tcod <workload> <value> <passes>.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

typedef struct TCOD_Noise TCOD_Noise;
enum { NOISE_PERLIN = 1, NOISE_SIMPLEX = 2 };
static TCOD_Noise *(*noise_new)(int dimensions, float hurst, float lacunarity, void *random);
static float (*noise_get_ex)(TCOD_Noise *noise, const float *f, int type);
static float (*noise_get_fbm_ex)(TCOD_Noise *noise, const float *f, float octaves, int type);
static void (*noise_get_vectorized)(TCOD_Noise *noise, int type, int n, float *x, float *y, float *z, float *w,
                                    float *out);
static void (*noise_get_fbm_vectorized)(TCOD_Noise *noise, int type, float octaves, int n, float *x, float *y,
                                        float *z, float *w, float *out);
static void (*noise_delete)(TCOD_Noise *noise);

/* Python's None, the wheel's one data reference to Python (fov_tcod.c). */
__attribute__((visibility("default"))) char _Py_NoneStruct[64];

#define SIDE 1000
#define CELLS (SIDE * SIDE)

static double cpu_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void *need(void *lib, const char *name) {
  void *p = dlsym(lib, name);
  if (!p) {
    fprintf(stderr, "world_tcod: %s not found: %s\n", name, dlerror());
    exit(1);
  }
  return p;
}

static TCOD_Noise *noise;
static float *out, *xs, *ys;
static volatile float sink;

/* One pass of a workload: a 1000x1000 grid. */
static void pass(int kind, int octaves, int vectorized) {
  if (vectorized) {
    if (octaves == 1)
      noise_get_vectorized(noise, kind, CELLS, xs, ys, NULL, NULL, out);
    else
      noise_get_fbm_vectorized(noise, kind, (float)octaves, CELLS, xs, ys, NULL, NULL, out);
  } else {
    float f[2];
    for (int y = 1; y <= SIDE; y++) {
      f[1] = (float)y / 16.0f;
      float *row = out + (y - 1) * SIDE;
      for (int x = 1; x <= SIDE; x++) {
        f[0] = (float)x / 16.0f;
        row[x - 1] = octaves == 1 ? noise_get_ex(noise, f, kind) : noise_get_fbm_ex(noise, f, (float)octaves, kind);
      }
    }
  }
  sink += out[CELLS / 2];
}

/* Seconds per pass, after a warm-up of a quarter of the budget. */
static double timed(int kind, int octaves, int vectorized, double budget, long *passes) {
  double t0 = cpu_now();
  while (cpu_now() - t0 < budget / 4) pass(kind, octaves, vectorized);
  double spent = 0;
  long n = 0;
  while (spent < budget || n < 2) {
    double s = cpu_now();
    pass(kind, octaves, vectorized);
    spent += cpu_now() - s;
    n++;
  }
  *passes = n;
  return spent / (double)n;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: world_tcod LIBTCOD_SO [BUDGET_S]\n");
    return 2;
  }
  void *lib = dlopen(argv[1], RTLD_LAZY | RTLD_LOCAL);
  if (!lib) {
    fprintf(stderr, "world_tcod: %s\n", dlerror());
    return 1;
  }
  noise_new = need(lib, "TCOD_noise_new");
  noise_get_ex = need(lib, "TCOD_noise_get_ex");
  noise_get_fbm_ex = need(lib, "TCOD_noise_get_fbm_ex");
  noise_get_vectorized = need(lib, "TCOD_noise_get_vectorized");
  noise_get_fbm_vectorized = need(lib, "TCOD_noise_get_fbm_vectorized");
  noise_delete = need(lib, "TCOD_noise_delete");
  double budget = argc > 2 ? atof(argv[2]) : 0.3;

  noise = noise_new(2, 1.0f, 2.0f, NULL);
  out = malloc(sizeof(float) * CELLS);
  xs = malloc(sizeof(float) * CELLS);
  ys = malloc(sizeof(float) * CELLS);
  if (!noise || !out || !xs || !ys) {
    fprintf(stderr, "world_tcod: out of memory\n");
    return 1;
  }
  for (int y = 1; y <= SIDE; y++)
    for (int x = 1; x <= SIDE; x++) {
      xs[(y - 1) * SIDE + x - 1] = (float)x / 16.0f;
      ys[(y - 1) * SIDE + x - 1] = (float)y / 16.0f;
    }
  static const struct {
    const char *name;
    int kind, octaves, vectorized;
    const char *per_call;
  } W[] = {
      {"grid1", NOISE_SIMPLEX, 1, 0, "get1"},  {"grid4", NOISE_SIMPLEX, 4, 0, "get4"},
      {"grid1v", NOISE_SIMPLEX, 1, 1, NULL},   {"grid4v", NOISE_SIMPLEX, 4, 1, NULL},
      {"pgrid1", NOISE_PERLIN, 1, 0, "pget1"}, {"pgrid4", NOISE_PERLIN, 4, 0, NULL},
  };
  for (size_t k = 0; k < sizeof W / sizeof W[0]; k++) {
    long passes;
    double s = timed(W[k].kind, W[k].octaves, W[k].vectorized, budget, &passes);
    printf("time tcod %s %.4f %ld\n", W[k].name, s * 1e3, passes);
    if (W[k].per_call) printf("time tcod %s %.4f %ld\n", W[k].per_call, s * 1e9 / CELLS, passes);
    fflush(stdout);
  }
  noise_delete(noise);
  free(out);
  free(xs);
  free(ys);
  return 0;
}
