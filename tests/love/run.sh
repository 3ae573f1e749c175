#!/bin/sh
# `make test-love` (part): the LÖVE loader, lua/map/love.lua, in the eight
# places a shipped game has its module (docs/love.md): six load it, and two
# files are refused with the reason read from their header (a Lua 5.4
# build; a library patched to say arm64). LÖVE runs the test game
# (tests/love/game/) with no window, so no display is needed. Each case has
# its own home (XDG_DATA_HOME: the save directory), and LUA_CPATH points
# nowhere, so that no installed module answers.
set -eu
cd "$(dirname "$0")/../.."
root=$(pwd)
luajit_so=$root/build/lib/lua/5.1/map.so
lua54_so=$root/build/lib/lua/5.4/map.so
[ -f "$luajit_so" ] && [ -f "$lua54_so" ] || { echo "tests/love/run.sh: run make first" >&2; exit 1; }

tmp=$(mktemp -d /tmp/map-love-loader.XXXXXX)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
fail() {
  echo "test-love-loader: FAIL: $*" >&2
  exit 1
}

# The game as a folder and as a .love, map.love inside both.
mkdir -p "$tmp/src/map"
cp tests/love/game/main.lua tests/love/game/conf.lua "$tmp/src/"
cp lua/map/love.lua "$tmp/src/map/love.lua"
(cd "$tmp/src" && zip -q -r "$tmp/game.love" main.lua conf.lua map)
first_row=$(LUA_CPATH="$root/build/lib/lua/5.1/?.so" luajit -e 'io.write((require("map").generate_text(8, 6, 1):match("^[^\n]*")))')

# An ELF that says arm64: the LuaJIT build with e_machine (offset 18) = 0xB7.
cp "$luajit_so" "$tmp/arm64.so"
printf '\267\000' | dd of="$tmp/arm64.so" bs=1 seek=18 conv=notrunc status=none

# run CASE CWD COMMAND...: runs LÖVE in a fresh home; its result line in $result.
run() {
  case=$1 cwd=$2
  shift 2
  home=$tmp/home-$case
  mkdir -p "$home/runtime" && chmod 700 "$home/runtime"
  (cd "$cwd" && MAP_LOVE_RESULT="$tmp/result-$case" XDG_DATA_HOME="$home/data" XDG_RUNTIME_DIR="$home/runtime" \
    LUA_CPATH="/nonexistent/?.so" timeout 60 "$@" >"$tmp/out-$case" 2>&1) || fail "$case: LÖVE exited: $(cat "$tmp/out-$case")"
  result=$(cat "$tmp/result-$case" 2>/dev/null) || fail "$case: no result: $(cat "$tmp/out-$case")"
}
save_of() { echo "$tmp/home-$1/data/love/map-loader-test"; } # an unfused game's save directory
expect_loaded() {
  [ "$result" = "loaded $2 $first_row" ] || fail "$1: expected the module from $2, got: $result"
  echo "test-love-loader: $1: loaded $2"
}
expect_refused() {
  case $result in
    "refused "*"$2"*) ;;
    *) fail "$1: expected a refusal naming '$2', got: $result" ;;
  esac
  echo "test-love-loader: $1: refused: $2"
}

# 1. Inside the .love: copied out to the save directory, loaded from there.
mkdir -p "$tmp/inside"
cp "$tmp/src/main.lua" "$tmp/src/conf.lua" "$tmp/inside/" && cp -r "$tmp/src/map" "$tmp/inside/"
cp "$luajit_so" "$tmp/inside/map.so"
(cd "$tmp/inside" && zip -q -r "$tmp/inside.love" main.lua conf.lua map map.so)
run inside / love "$tmp/inside.love"
expect_loaded inside "$(save_of inside)/map.so"

# 2. Beside the .love, started from elsewhere, under its platform name.
mkdir -p "$tmp/beside"
cp "$tmp/game.love" "$tmp/beside/" && cp "$luajit_so" "$tmp/beside/map-linux-x86_64.so"
run beside / love "$tmp/beside/game.love"
expect_loaded beside "$tmp/beside/map-linux-x86_64.so"

# 3. Beside a fused executable (love with the .love appended), started from elsewhere.
mkdir -p "$tmp/fused"
cat "$(command -v love)" "$tmp/game.love" >"$tmp/fused/game" && chmod 755 "$tmp/fused/game"
cp "$luajit_so" "$tmp/fused/map.so"
run fused / "$tmp/fused/game"
expect_loaded fused "$tmp/fused/map.so"

# 4. The game's folder (run unpacked).
cp -r "$tmp/src" "$tmp/folder" && cp "$luajit_so" "$tmp/folder/map.so"
run folder / love "$tmp/folder"
expect_loaded folder "$tmp/folder/map.so"

# 5. The save directory.
mkdir -p "$(save_of save)" && cp "$luajit_so" "$(save_of save)/map.so"
run save / love "$tmp/game.love"
expect_loaded save "$(save_of save)/map.so"

# 6. The current directory.
mkdir -p "$tmp/cwd" && cp "$luajit_so" "$tmp/cwd/map.so"
run cwd "$tmp/cwd" love "$tmp/game.love"
expect_loaded cwd "$tmp/cwd/map.so"

# 7. A Lua 5.4 build in the save directory: refused, with its reason.
mkdir -p "$(save_of lua54)" && cp "$lua54_so" "$(save_of lua54)/map.so"
run lua54 / love "$tmp/game.love"
expect_refused lua54 "$(save_of lua54)/map.so (the save directory): a Lua 5.4 build"

# 8. A library for another CPU beside the .love: refused, with its reason.
mkdir -p "$tmp/arm" && cp "$tmp/game.love" "$tmp/arm/" && cp "$tmp/arm64.so" "$tmp/arm/map.so"
run arm / love "$tmp/arm/game.love"
expect_refused arm "$tmp/arm/map.so (beside the game): built for arm64 CPUs, this is x86_64"

echo "test-love-loader: 6 placements loaded, 2 refused with their reason"
