#!/bin/sh
# `make test-love`: runs the demo's scripted mode headless (Xvfb) on the
# module built by `make`, then checks the exit code, the result line and the
# screenshot (a non-empty PNG), and copies the screenshot to docs/love-demo.png.
# Run from anywhere; needs love, xvfb-run (package xvfb) and xauth.
set -eu
cd "$(dirname "$0")/../.."

result=$(mktemp)
trap 'rm -f "$result"' EXIT
start=$(date +%s)

status=0
MAP_DEMO_RESULT="$result" timeout 120 \
  xvfb-run -a -s "-screen 0 1024x768x24" love examples/love --script || status=$?

line=$(cat "$result")
fail() {
  echo "test-love: FAIL: $*" >&2
  exit 1
}
[ "$status" -eq 0 ] || fail "love exited with status $status (result: ${line:-none})"
case "$line" in
  "map-demo: ok levels=3 "*" screenshot="*) ;;
  *) fail "unexpected result: ${line:-none}" ;;
esac

shot=${line##* screenshot=}
[ -s "$shot" ] || fail "no screenshot at $shot"
signature=$(head -c 8 "$shot" | od -An -tx1 | tr -d ' \n')
[ "$signature" = 89504e470d0a1a0a ] || fail "$shot is not a PNG"
cp "$shot" docs/love-demo.png

echo "test-love: ${line#map-demo: }"
echo "test-love: screenshot copied to docs/love-demo.png ($(wc -c < docs/love-demo.png) bytes), $(( $(date +%s) - start )) s"
