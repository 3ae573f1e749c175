#!/usr/bin/env bash
# bench/peers/floor.sh: `lvl:distances` and `lvl:fov(p, r, {into = memory})`
# beside the floor (bench/peers/floor.c: a plain C breadth-first search and a
# plain C scan marking a memory, written here) and beside libtcod's C
# symmetric FOV (bench/peers/fov_tcod.c), in one run (bench/peers/README.md,
# "The floor"). Prints markdown on stdout; the raw output stays in the work
# directory (printed at the end).
#
#   make all && bench/peers/floor.sh
#
# Settings as run.sh's: PEERS_ROUNDS (default 5), PEERS_BUDGET (default
# 0.3), PEERS_WORK, TCOD_VERSION, BENCH_BUILD (bench/interpreters.sh: another
# build of the module, to measure a change before and after).
set -euo pipefail
cd "$(dirname "$0")/../.."

ROUNDS=${PEERS_ROUNDS:-5}
BUDGET=${PEERS_BUDGET:-0.3}
TCOD_VERSION=${TCOD_VERSION:-21.2.2}
NSMALL=50
NBIG=3
WORK=${PEERS_WORK:-$(mktemp -d /tmp/map-floor.XXXXXX)}
mkdir -p "$WORK"

ME=bench/peers/floor.sh
. bench/peers/setup.sh

libtcod TCOD_map_compute_fov
cc -O2 -Wall -Wextra -rdynamic -o "$WORK/fov_tcod" bench/peers/fov_tcod.c -ldl
cc -O2 -Wall -Wextra -o "$WORK/floor" bench/peers/floor.c

# The levels, exported by both interpreters: the same bytes.
rm -rf "$WORK/maps" "$WORK/maps-jit"
mkdir -p "$WORK/maps" "$WORK/maps-jit"
"${LUA54[@]}" bench/peers/fov_map.lua export "$WORK/maps" "$NSMALL" "$NBIG"
"${LUAJIT[@]}" bench/peers/fov_map.lua export "$WORK/maps-jit" "$NSMALL" "$NBIG"
diff -r "$WORK/maps" "$WORK/maps-jit" >/dev/null ||
  { echo "$ME: Lua 5.4 and LuaJIT exported different levels" >&2; exit 1; }

run_prog() { # run_prog PROG BUDGET: one program's output on stdout
  case $1 in
    c) "$WORK/floor" "$WORK/maps" "$NSMALL" "$NBIG" "$2" ;;
    tcod) "$WORK/fov_tcod" "$LIB" "$WORK/maps" "$NSMALL" "$NBIG" "$2" | grep '^time tcod_sym ' ;;
    lua54) "${LUA54[@]}" bench/peers/floor_map.lua "$NSMALL" "$NBIG" "$2" ;;
    luajit) "${LUAJIT[@]}" bench/peers/floor_map.lua "$NSMALL" "$NBIG" "$2" ;;
  esac
}

PROGS=(c tcod lua54 luajit)
rounds "${PROGS[@]}"
for p in c lua54 luajit; do FOV_COUNTS=1 run_prog "$p" 0.01 | grep '^count' >"$WORK/counts-$p.out"; done

about_run >"$WORK/meta.md"
echo "- module: $BUILD_DIR" >>"$WORK/meta.md"
cat "$WORK/meta.md"
echo
lua5.4 bench/peers/floor_report.lua "$WORK" "$ROUNDS"
echo
echo "raw output: $WORK" >&2
