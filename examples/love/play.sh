#!/bin/sh
# `make play`: the demo in a window. Without a display LÖVE would wait
# forever (on "XDG_RUNTIME_DIR is invalid"), so this says so and exits 1.
cd "$(dirname "$0")/../.."
if [ -z "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]; then
  echo "play: no display (neither DISPLAY nor WAYLAND_DISPLAY is set); the demo needs a window." >&2
  echo "play: make test-love plays its scripted game headless under Xvfb." >&2
  exit 1
fi
exec love examples/love "$@"
