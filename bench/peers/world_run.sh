#!/usr/bin/env bash
# bench/peers/world_run.sh: `map.noise` and `map.light` beside libtcod's C
# noise and rot.js's noise and lighting on node, in one run
# (bench/peers/README.md, "Noise and light"). Prints markdown on stdout; the
# raw output of every program and round stays in the work directory
# (printed at the end).
#
#   make all && bench/peers/world_run.sh
#
# Settings (environment): PEERS_ROUNDS (default 5), PEERS_BUDGET (CPU
# seconds per workload and program in a round, default 0.4), PEERS_WORK (the
# work directory, default a new one under /tmp; one that already has a venv
# or node_modules keeps them), TCOD_VERSION (python-tcod's wheel, default
# 21.2.2: libtcod 2.2.2), ROT_VERSION (rot-js, default 2.2.1).
#
# What it does: installs python-tcod's wheel into a venv and rot-js with npm,
# both in the work directory (nothing of either goes into the repository),
# builds world_tcod.c, exports the levels and lights with world_map.lua on
# both interpreters (the same bytes), then runs the C program, node, Lua 5.4
# (as lua5.4 starts, generational, and incremental) and LuaJIT in each
# round, the order rotating from round to round, and world_report.lua makes
# the tables (medians over the rounds and their ranges).
set -euo pipefail
cd "$(dirname "$0")/../.."

ROUNDS=${PEERS_ROUNDS:-5}
BUDGET=${PEERS_BUDGET:-0.4}
TCOD_VERSION=${TCOD_VERSION:-21.2.2}
ROT_VERSION=${ROT_VERSION:-2.2.1}
NLEVELS=20
WORK=${PEERS_WORK:-$(mktemp -d /tmp/map-world-peers.XXXXXX)}
mkdir -p "$WORK"

ME=bench/peers/world_run.sh
. bench/peers/setup.sh
command -v node >/dev/null || { echo "bench/peers/world_run.sh: node not found" >&2; exit 1; }

# libtcod: python-tcod's wheel in a venv of the work directory.
libtcod TCOD_noise_get_fbm_vectorized
cc -O2 -Wall -Wextra -rdynamic -o "$WORK/world_tcod" bench/peers/world_tcod.c -ldl

# rot.js: npm's package in the work directory.
if [ ! -f "$WORK/node/node_modules/rot-js/package.json" ]; then
  mkdir -p "$WORK/node"
  (cd "$WORK/node" && npm init -y >/dev/null && npm install --silent "rot-js@$ROT_VERSION" >&2)
fi

# The levels and lights, exported by both interpreters: the same bytes.
rm -rf "$WORK/maps" "$WORK/maps-jit"
mkdir -p "$WORK/maps" "$WORK/maps-jit"
"${LUA54[@]}" bench/peers/world_map.lua export "$WORK/maps" "$NLEVELS"
"${LUAJIT[@]}" bench/peers/world_map.lua export "$WORK/maps-jit" "$NLEVELS"
diff -r "$WORK/maps" "$WORK/maps-jit" >/dev/null ||
  { echo "bench/peers/world_run.sh: Lua 5.4 and LuaJIT exported different levels" >&2; exit 1; }

run_prog() { # run_prog PROG BUDGET: one program's output on stdout
  case $1 in
    c) "$WORK/world_tcod" "$LIB" "$2" ;;
    node) node bench/peers/world_rot.mjs "$WORK/node" "$WORK/maps" "$NLEVELS" "$2" ;;
    lua54) "${LUA54[@]}" bench/peers/world_map.lua time "$NLEVELS" "$2" ;;
    lua54inc) WORLD_GC=incremental "${LUA54[@]}" bench/peers/world_map.lua time "$NLEVELS" "$2" ;;
    luajit) "${LUAJIT[@]}" bench/peers/world_map.lua time "$NLEVELS" "$2" ;;
  esac
}

rounds c node lua54 lua54inc luajit

{
  about_run
  echo "- rot.js $(node -e "console.log(require('$WORK/node/node_modules/rot-js/package.json').version)") on node $(node --version)"
} >"$WORK/meta.md"
cat "$WORK/meta.md"
echo
lua5.4 bench/peers/world_report.lua "$WORK" "$ROUNDS"
echo
echo "raw output: $WORK" >&2
