#!/usr/bin/env bash
# bench/example.sh: the example generator side by side, in one run, with the
# wfc crate (0.10.7, the overlapping model; bench/wfc_peer/, a Cargo project
# of its own, built here only) and the plain-Lua WFC of
# spec/reference/wfc.lua: the six built-in samples at 48x32 and 96x64, the
# same n and symmetries, the same seeds. Each round runs the six sides once:
# the module on Lua 5.4 and on LuaJIT; the crate with its patterns read once
# outside the timing, and read for every level as the module does, each
# level one collapse with no border; the crate given the module's contract
# and patterns (the border imposed, up to 20 collapses, connected, its
# windows checked); plain Lua. Their order turns by one each round so that
# a shared machine's drift hits them alike. Times are the processes' CPU
# time (os.clock; the crate's CLOCK_PROCESS_CPUTIME_ID). Prints a markdown
# table: per sample and size, each side's ms per level (over all rounds;
# the rounds' range in brackets), the levels made of those tried, the
# patterns, and the ratios (docs/performance.md, "Side by side with the
# wfc crate").
#
#   bench/example.sh              # after `make all`; builds the crate's side
#
# BENCH_EXAMPLE_SAMPLES=DIR: mxgmn's samples from DIR instead of the built-in
# ones (bench/example_side.lua). BENCH_EXAMPLE_ROUNDS (default 3) rounds of
# BENCH_EXAMPLE_SEEDS (default 20) seeds each for the module and the crate, BENCH_EXAMPLE_LUA_SEEDS
# (default 2) for plain Lua (seconds a level at 96x64); BENCH_EXAMPLE_N
# (default 3) and BENCH_EXAMPLE_SYMMETRY (default all) for every side.
# BENCH_EXAMPLE_ONLY (sample names) and BENCH_EXAMPLE_SIDES (side names, as
# in the table) run some of them, for more seeds where it matters:
#
#   BENCH_EXAMPLE_ONLY=overworld BENCH_EXAMPLE_SIDES="lua5.4 luajit wfc-crate" \
#     BENCH_EXAMPLE_ROUNDS=5 BENCH_EXAMPLE_SEEDS=20 bench/example.sh
set -euo pipefail
cd "$(dirname "$0")/.."
for so in build/lib/lua/5.4/map.so build/lib/lua/5.1/map.so; do
  [ -f "$so" ] || { echo "bench/example.sh: $so not found: run make all first" >&2; exit 1; }
done
cargo build --quiet --release --locked --manifest-path bench/wfc_peer/Cargo.toml
peer=bench/wfc_peer/target/release/wfc_peer

rounds=${BENCH_EXAMPLE_ROUNDS:-3}
seeds=${BENCH_EXAMPLE_SEEDS:-20}
lua_seeds=${BENCH_EXAMPLE_LUA_SEEDS:-2}
n=${BENCH_EXAMPLE_N:-3}
symmetry=${BENCH_EXAMPLE_SYMMETRY:-all}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
lua5.4 bench/example_side.lua samples "$tmp" "$n" >"$tmp/list"

side() {
  local first=$1
  case $2 in
    lua5.4) LUA_CPATH_5_4='build/lib/lua/5.4/?.so' lua5.4 bench/example_side.lua module lua5.4 "$first" "$seeds" "$n" "$symmetry" ;;
    luajit) LUA_CPATH='build/lib/lua/5.1/?.so' luajit bench/example_side.lua module luajit "$first" "$seeds" "$n" "$symmetry" ;;
    plain-lua) lua5.4 bench/example_side.lua lua "$first" "$lua_seeds" "$n" "$symmetry" ;;
    wfc-crate | wfc-crate-each | wfc-crate-kept)
      local prepare=once
      [ "$2" = wfc-crate-each ] && prepare=each
      [ "$2" = wfc-crate-kept ] && prepare=kept
      while read -r name sample_n blocking wraps; do
        for size in "48 32" "96 64"; do
          # made, contradictions, undecided (no level either), seconds, patterns, checksum
          read -r made failed undecided seconds patterns _ < <("$peer" "$tmp/$name.txt" "$sample_n" "$symmetry" $size \
            "$first" "$seeds" "$prepare" "$blocking" "$wraps")
          echo "$2 $name ${size/ /x} $made $((made + failed + undecided)) $seconds $patterns"
        done
      done <"$tmp/list" ;;
  esac
}

read -r -a sides <<<"${BENCH_EXAMPLE_SIDES:-lua5.4 luajit wfc-crate wfc-crate-each wfc-crate-kept plain-lua}"
for ((r = 0; r < rounds; r++)); do
  for ((k = 0; k < ${#sides[@]}; k++)); do
    side $((r * seeds + 1)) "${sides[$(((k + r) % ${#sides[@]}))]}" >>"$tmp/lines"
  done
done
echo "$rounds rounds; n = $n, symmetry = $symmetry; $seeds seeds a round (plain Lua $lua_seeds); $(nproc) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo
lua5.4 bench/example_side.lua report "$tmp/lines"
