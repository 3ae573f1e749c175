#!/usr/bin/env bash
# bench/peers/run.sh: `map`'s field of view on native levels beside libtcod's
# C field of view, in one run (bench/peers/README.md). Prints markdown on
# stdout; the raw output of every program and round stays in the work
# directory (printed at the end).
#
#   make all && bench/peers/run.sh
#
# Settings (environment): PEERS_ROUNDS (default 5), PEERS_BUDGET (CPU seconds
# per workload and program in a round, default 0.3), PEERS_WORK (the work
# directory, default a new one under /tmp; an existing one keeps its venv),
# TCOD_VERSION (python-tcod's wheel, default 21.2.2: libtcod 2.2.2).
#
# What it does: installs python-tcod's wheel into a venv in the work
# directory (nothing of it goes into the repository), finds the shared object
# in it that defines TCOD_map_compute_fov, builds fov_tcod.c (which dlopens
# it), exports the levels with fov_map.lua on both interpreters (the two
# exports must be the same bytes), then runs the C program, Lua 5.4 (twice:
# as lua5.4 starts, with its generational collector, and in incremental mode)
# and LuaJIT in each round, the order rotating from round to round, and
# fov_report.lua makes the tables (medians over the rounds, ranges, ratios
# taken within a round). The counts of visible cells come from one more run
# of each program after the rounds.
set -euo pipefail
cd "$(dirname "$0")/../.."

ROUNDS=${PEERS_ROUNDS:-5}
BUDGET=${PEERS_BUDGET:-0.3}
TCOD_VERSION=${TCOD_VERSION:-21.2.2}
NSMALL=50
NBIG=3
WORK=${PEERS_WORK:-$(mktemp -d /tmp/map-peers.XXXXXX)}
mkdir -p "$WORK"

ME=bench/peers/run.sh
. bench/peers/setup.sh

# libtcod: python-tcod's wheel in a venv of the work directory.
libtcod TCOD_map_compute_fov
cc -O2 -Wall -Wextra -rdynamic -o "$WORK/fov_tcod" bench/peers/fov_tcod.c -ldl

# The levels, exported by both interpreters: the same bytes.
rm -rf "$WORK/maps" "$WORK/maps-jit"
mkdir -p "$WORK/maps" "$WORK/maps-jit"
"${LUA54[@]}" bench/peers/fov_map.lua export "$WORK/maps" "$NSMALL" "$NBIG"
"${LUAJIT[@]}" bench/peers/fov_map.lua export "$WORK/maps-jit" "$NSMALL" "$NBIG"
diff -r "$WORK/maps" "$WORK/maps-jit" >/dev/null ||
  { echo "bench/peers/run.sh: Lua 5.4 and LuaJIT exported different levels" >&2; exit 1; }

run_prog() { # run_prog PROG BUDGET: one program's output on stdout
  case $1 in
    c) "$WORK/fov_tcod" "$LIB" "$WORK/maps" "$NSMALL" "$NBIG" "$2" ;;
    lua54) "${LUA54[@]}" bench/peers/fov_map.lua time "$NSMALL" "$NBIG" "$2" ;;
    lua54inc) FOV_GC=incremental "${LUA54[@]}" bench/peers/fov_map.lua time "$NSMALL" "$NBIG" "$2" ;;
    luajit) "${LUAJIT[@]}" bench/peers/fov_map.lua time "$NSMALL" "$NBIG" "$2" ;;
  esac
}

# lua54: lua5.4 as it starts (generational collector); lua54inc: the same
# with collectgarbage("incremental") first, the C API's default.
PROGS=(c lua54 lua54inc luajit)
rm -f "$WORK"/counts-*.out
rounds "${PROGS[@]}"
for p in "${PROGS[@]}"; do FOV_COUNTS=1 run_prog "$p" 0.01 | grep '^count' >"$WORK/counts-$p.out"; done

about_run >"$WORK/meta.md"
cat "$WORK/meta.md"
echo
lua5.4 bench/peers/fov_report.lua "$WORK" "$ROUNDS"
echo
echo "raw output: $WORK" >&2
