#!/usr/bin/env bash
# bench/run.sh: the whole benchmark, one command (`make bench`
# builds first, then runs this). Prints markdown on stdout: the machine, one
# table per interpreter, memory, the core's criterion benches, HTTP.
#
#   bench/run.sh              # everything, a few minutes
#   bench/run.sh lua memory   # only some parts: lua, toolkit, turns, level, autotile, world, generators, directed, toolbox,
#                             # manifests, memory, criterion, http
#
# Timing settings are in bench/bench.lua (BENCH_ROUNDS, BENCH_ROUND_S, ...) and
# bench/http.sh (BENCH_HTTP_*). Criterion's data goes to target/bench/.
set -euo pipefail
cd "$(dirname "$0")/.."

parts=${*:-lua toolkit turns level autotile world generators directed toolbox manifests memory criterion http}
has() { [[ " $parts " == *" $1 "* ]]; }

ME=bench/run.sh
. bench/interpreters.sh

# lua_part NAME SCRIPT TITLE: a part that is one Lua script run on each interpreter.
lua_part() {
  has "$1" || return 0
  echo
  echo "## $3"
  "${LUA54[@]}" "$2"
  "${LUAJIT[@]}" "$2"
}

echo "## Machine"
echo
echo "- CPU: $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //'), nproc $(nproc)"
echo "- $(uname -sr), $(. /etc/os-release && echo "$PRETTY_NAME")"
echo "- $(lua5.4 -v 2>&1 | head -1 | sed 's/  Copyright.*//'); $(luajit -v 2>&1 | head -1 | sed 's/ -- Copyright.*//')"
echo "- $(rustc --version); module built by \`make\` (release, lto, codegen-units=1)"
echo "- git: $(git rev-parse --short HEAD 2>/dev/null || echo '?')$(git diff --quiet HEAD -- src 2>/dev/null || echo ' (src/ has uncommitted changes)')"
echo "- date: $(date -u +%Y-%m-%dT%H:%MZ)"

lua_part lua bench/bench.lua "Lua: module vs pure-Lua baseline vs floor"
lua_part toolkit bench/toolkit.lua "Toolkit: fov, distances, path vs pure Lua (bench/toolkit.lua)"
lua_part turns bench/turns.lua "Every turn: step, flee, explore, sample, visible, line, parse vs pure Lua; path, max (bench/turns.lua)"
lua_part level bench/level.lua "A level in native memory: a turn's work on a level vs on tables (bench/level.lua)"
lua_part autotile bench/autotile.lua "Autotile vs pure Lua (bench/autotile.lua)"
lua_part world bench/world.lua "Noise and light vs pure Lua (bench/world.lua)"
lua_part generators bench/generators.lua "Generators: every algorithm vs building the rows in Lua, memory (bench/generators.lua)"
lua_part directed bench/directed.lua "Directed levels: vaults, arrive and place over a plain generate (bench/directed.lua)"
lua_part toolbox bench/toolbox.lua "The game's toolbox: map.rng, map.scheduler, map.names (bench/toolbox.lua)"
lua_part manifests bench/manifests.lua "The manifests' workloads: calls with no bench file of their own vs pure Lua (bench/manifests.lua)"

if has memory; then
  echo
  echo "## Memory: peak RSS (VmHWM) of a 2000x2000 map table, one process each"
  echo
  echo "KiB; \"before\" is the interpreter with the modules loaded. floor = the smaller of new_map and lua-rows."
  echo
  echo "| interpreter | kind | VmHWM before | VmHWM after | / floor |"
  echo "| --- | --- | ---: | ---: | ---: |"
  for interp in lua5.4 luajit; do
    if [ "$interp" = lua5.4 ]; then run=("${LUA54[@]}"); else run=("${LUAJIT[@]}"); fi
    declare -A after=()
    declare -A before=()
    for kind in new_map lua-rows generate generate-cave baseline; do
      read -r _ b a < <("${run[@]}" bench/mem.lua "$kind" 2000 2000)
      before[$kind]=$b
      after[$kind]=$a
    done
    floor=${after[new_map]}
    [ "${after[lua-rows]}" -lt "$floor" ] && floor=${after[lua-rows]}
    for kind in new_map lua-rows generate generate-cave baseline; do
      ratio=$(awk -v a="${after[$kind]}" -v f="$floor" 'BEGIN { printf "%.3fx", a / f }')
      echo "| $interp | $kind | ${before[$kind]} | ${after[$kind]} | $ratio |"
    done
    gen_ratio=$(awk -v a="${after[generate]}" -v f="$floor" 'BEGIN { r = a / f; printf "%.3fx (target <= 1.2x: %s)", r, (r <= 1.2) ? "met" : "MISSED" }')
    echo "| $interp | **generate / floor** | | | **$gen_ratio** |"
    unset after before
  done
fi

if has criterion; then
  echo
  echo "## Core alone: cargo bench (criterion)"
  echo
  # Short settings keep the whole run to a few minutes; the medians are stable
  # to a few percent here. Build output goes to stderr.
  CARGO_TARGET_DIR=target/bench cargo bench --locked --bench core -- \
    --warm-up-time 1 --measurement-time 3 >target/bench-criterion.log 2>&1 ||
    { echo "cargo bench failed; see target/bench-criterion.log"; exit 1; }
  echo "cargo bench --bench core -- --warm-up-time 1 --measurement-time 3 (medians):"
  echo
  "${LUA54[@]}" bench/criterion_table.lua target/bench/criterion
fi

if has http; then
  echo
  bench/http.sh
fi
