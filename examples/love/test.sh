#!/bin/sh
# `make test-love`: plays the demo's scripted game headless (Xvfb) on the
# module built by `make`, then checks the exit code, the result line (turns,
# levels, the return to a level left, fights, both views, a save and load
# mid-game), that the same game plays headless on Lua 5.4 and LuaJIT
# (examples/love/check.lua) and the two
# screenshots (non-empty PNGs), and copies them to docs/love-demo.png (glyphs)
# and docs/love-demo-tiles.png. `examples/love/test.sh 200x100` plays on
# larger levels and copies nothing (for the timings in docs/demo.md).
# Run from anywhere; needs love, xvfb-run (package xvfb) and xauth.
set -eu
cd "$(dirname "$0")/../.."
size=${1:-}

result=$(mktemp)
trap 'rm -f "$result"' EXIT
start=$(date +%s)

status=0
MAP_DEMO_RESULT="$result" MAP_DEMO_SIZE="$size" timeout 300 \
  xvfb-run -a -s "-screen 0 1024x768x24" love examples/love --script || status=$?

line=$(cat "$result")
fail() {
  echo "test-love: FAIL: $*" >&2
  exit 1
}
[ "$status" -eq 0 ] || fail "love exited with status $status (result: ${line:-none})"
case "$line" in
  "map-demo: ok "*" screenshots="*) ;;
  *) fail "unexpected result: ${line:-none}" ;;
esac
field() {
  value=$(printf '%s\n' "$line" | sed -n "s/.* $1=\([^ ]*\).*/\1/p")
  [ -n "$value" ] || fail "no $1 in: $line"
  echo "$value"
}
[ "$(field turns)" -ge 500 ] || fail "fewer than 500 turns: $line"
[ "$(field levels)" -ge 3 ] || fail "fewer than 3 levels: $line"
[ "$(field returns)" -ge 1 ] || fail "no return to a level left: $line"
[ "$(field fights)" -ge 1 ] || fail "no fights: $line"
[ "$(field views)" = glyphs,tiles ] || fail "not both views: $line"
[ "$(field saved)" -ge 1 ] || fail "not saved and loaded mid-game: $line"

# The same game headless on Lua 5.4 and LuaJIT (examples/love/check.lua):
# the game LÖVE played, saved and loaded mid-game, is the same on both.
played=$(printf '%s\n' "$line" | sed 's/^map-demo: //; s/ turn_mean_us=.*//')
for lua in lua5.4 luajit; do
  headless=$(LUA_CPATH_5_4='build/lib/lua/5.4/?.so' LUA_CPATH='build/lib/lua/5.1/?.so' $lua examples/love/check.lua $size) ||
    fail "the headless game on $lua: $headless"
  [ "$headless" = "$played" ] || fail "the game on $lua differs: $headless; LÖVE: $played"
done
echo "test-love: the same game headless on lua5.4 and luajit"

shots=$(field screenshots)
for shot in $(echo "$shots" | tr , ' '); do
  [ -s "$shot" ] || fail "no screenshot at $shot"
  signature=$(head -c 8 "$shot" | od -An -tx1 | tr -d ' \n')
  [ "$signature" = 89504e470d0a1a0a ] || fail "$shot is not a PNG"
done
if [ -z "$size" ]; then
  cp "${shots%%,*}" docs/love-demo.png
  cp "${shots##*,}" docs/love-demo-tiles.png
  echo "test-love: screenshots copied to docs/love-demo.png and docs/love-demo-tiles.png"
fi
echo "test-love: ${line#map-demo: }"
echo "test-love: $(( $(date +%s) - start )) s"
