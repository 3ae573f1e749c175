#!/usr/bin/env bash
# bench/versus.sh: builds of the module side by side, in one run: for each
# round, each interpreter runs bench/versus.lua once per build, the builds'
# order turning by one each round, so that a shared machine's drift hits
# them alike. Prints markdown: per interpreter, each build's median µs per
# call (range over the rounds in brackets).
#
#   bench/versus.sh DIR...    # each DIR a checkout after `make all` (build/lib/lua/...)
#
# A build is named by its commit (+ when its src/ has uncommitted changes).
# BENCH_VERSUS_ROUNDS (default 5) rounds; bench/measure.lua's settings
# (BENCH_ROUNDS, BENCH_ROUND_S) apply within each process.
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 1 ] || { echo "usage: bench/versus.sh DIR..." >&2; exit 1; }

dirs=()
labels=()
for d in "$@"; do
  d=$(cd "$d" && pwd)
  for so in build/lib/lua/5.4/map.so build/lib/lua/5.1/map.so; do
    [ -f "$d/$so" ] || { echo "bench/versus.sh: $d/$so not found: run make there first" >&2; exit 1; }
  done
  label=$(git -C "$d" rev-parse --short HEAD 2>/dev/null || basename "$d")
  git -C "$d" diff --quiet HEAD -- src 2>/dev/null || label="$label+"
  dirs+=("$d")
  labels+=("$label")
done

rounds=${BENCH_VERSUS_ROUNDS:-5}
lines=$(mktemp)
trap 'rm -f "$lines"' EXIT
n=${#dirs[@]}
for ((r = 0; r < rounds; r++)); do
  for ((k = 0; k < n; k++)); do
    i=$(((k + r) % n))
    d=${dirs[$i]}
    LUA_CPATH_5_4="$d/build/lib/lua/5.4/?.so" lua5.4 bench/versus.lua "${labels[$i]}" >>"$lines"
    LUA_CPATH="$d/build/lib/lua/5.1/?.so" luajit bench/versus.lua "${labels[$i]}" >>"$lines"
  done
done

echo "## Builds side by side: generate at 60x20 and the calls a game makes often (bench/versus.sh)"
echo
echo "- $(lua5.4 -v 2>&1 | head -1 | sed 's/  Copyright.*//'); $(luajit -v 2>&1 | head -1 | sed 's/ -- Copyright.*//')"
echo "- date: $(date -u +%Y-%m-%dT%H:%MZ), load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "- µs per call, CPU time, median of $rounds rounds (one process per build, interpreter and round; the"
echo "  builds' order turning each round), each round itself a median of ${BENCH_ROUNDS:-7} timings; seeds 1..5000."
lua5.4 bench/versus.lua --table "$lines"
