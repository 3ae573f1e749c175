#!/bin/sh
# bench/demo_draw.sh [COMMIT] [WIDTHxHEIGHT]: the LÖVE demo's frame time, the
# view of COMMIT (default e690365, the last drawn a cell at a time, with
# love.graphics.print and rectangles) against this one (lvl:frame; the
# glyph view by a shader, the tile view by sprite batches), in one run: the scripted game under Xvfb draws every
# frame with one view, the two in turn, each timed with love.timer.getTime
# (wall clock) around its draw call, as draw_mean_us always is, and from
# its draw's start to the next frame's (the frame presented, the next turn
# played: frame_mean_us) (examples/love/main.lua, MAP_DEMO_OLD_VIEW).
# Prints the means in µs.
# `bench/demo_draw.sh still [COMMIT]`: bench/demo_draw/ instead, one game
# state drawn over and over, each frame's whole time (presenting it too)
# and its draw call's, and the parts of the view's frame.
# Needs love, xvfb-run and xauth; the module built by `make`.
set -eu
cd "$(dirname "$0")/.."
still=
if [ "${1:-}" = still ]; then
  still=1
  shift
fi
rev=${1:-e690365}
size=${2:-}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
git show "$rev:examples/love/view.lua" > "$dir/view.lua"
if [ -n "$still" ]; then
  MAP_DEMO_OLD_VIEW="$dir/view.lua" timeout 300 xvfb-run -a -s "-screen 0 1024x768x24" love bench/demo_draw |
    sed "s/old view/view of $rev/g"
  exit 0
fi
MAP_DEMO_OLD_VIEW="$dir/view.lua" MAP_DEMO_RESULT="$dir/result" MAP_DEMO_SIZE="$size" timeout 300 \
  xvfb-run -a -s "-screen 0 1024x768x24" love examples/love --script > /dev/null
line=$(cat "$dir/result")
case "$line" in
  "map-demo: ok "*) ;;
  *) echo "demo_draw: FAIL: $line" >&2; exit 1 ;;
esac
field() { printf '%s\n' "$line" | sed -n "s/.* $1=\([0-9]*\).*/\1/p"; }
echo "demo_draw: ${size:-80x50}, $(field turns) turns, µs (all, glyph view, tile view):" \
  "view of $rev: draw call $(field old_draw_mean_us), $(field old_draw_glyphs_us), $(field old_draw_tiles_us);" \
  "whole frame $(field old_frame_mean_us), $(field old_frame_glyphs_us), $(field old_frame_tiles_us)." \
  "This view: draw call $(field draw_mean_us), $(field draw_glyphs_us), $(field draw_tiles_us);" \
  "whole frame $(field frame_mean_us), $(field frame_glyphs_us), $(field frame_tiles_us)"
