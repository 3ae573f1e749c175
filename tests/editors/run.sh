#!/bin/sh
# `make test-editors`: the editors' files (map.to_tiled, map.to_xp, and
# back) checked with third-party readers and writers from PyPI, pinned in
# tests/editors/requirements.txt and installed (wheels only) into a venv
# under build/ on first use:
#   1. the module writes 1,000 generated levels (and every byte) as Tiled
#      JSON, Tiled's Lua export and REXPaint, on Lua 5.4 and on LuaJIT: the
#      same bytes on both;
#   2. pytiled-parser and python-tcod read every file back as the map
#      exactly, and tcod's CP437 is the module's;
#   3. python-tcod's save_xp and Python's json, base64, zlib and gzip write
#      images and Tiled maps in each layer encoding, which the module reads
#      exactly on both interpreters.
# Needs python3 with venv (setup.sh) and, the first time, PyPI.
set -eu
cd "$(dirname "$0")/../.."
root=$(pwd)
count=${EDITORS_COUNT:-1000}
venv=$root/build/editors-venv
fail() {
  echo "test-editors: FAIL: $*" >&2
  exit 1
}
[ -f build/lib/lua/5.4/map.so ] && [ -f build/lib/lua/5.1/map.so ] || fail "run make first"

# The venv is remade when the pins change.
if ! cmp -s tests/editors/requirements.txt "$venv/requirements.txt" 2>/dev/null; then
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check --only-binary=:all: -r tests/editors/requirements.txt ||
    fail "pip could not install tests/editors/requirements.txt"
  cp tests/editors/requirements.txt "$venv/requirements.txt"
fi
python=$venv/bin/python

tmp=$(mktemp -d /tmp/map-editors.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/lua5.4" "$tmp/luajit" "$tmp/python"
LUA_CPATH_5_4="$root/build/lib/lua/5.4/?.so" lua5.4 tests/editors/write.lua "$tmp/lua5.4" "$count"
LUA_CPATH="$root/build/lib/lua/5.1/?.so" luajit tests/editors/write.lua "$tmp/luajit" "$count"
diff -r -q "$tmp/lua5.4" "$tmp/luajit" >/dev/null || fail "Lua 5.4 and LuaJIT wrote different files"
files=$(ls "$tmp/lua5.4" | grep -c -v '\.txt$')
echo "test-editors: $files files written, the same bytes on Lua 5.4 and LuaJIT"

read=$("$python" tests/editors/check.py read "$tmp/lua5.4" "$count") || fail "a third-party reader disagrees"
echo "test-editors: pytiled-parser and python-tcod read $read maps' .tmj and .xp exactly; tcod's CP437 is the module's"

"$python" tests/editors/check.py write "$tmp/python" || fail "the third-party writers failed"
n54=$(LUA_CPATH_5_4="$root/build/lib/lua/5.4/?.so" lua5.4 tests/editors/read.lua "$tmp/python") || fail "Lua 5.4: $n54"
njit=$(LUA_CPATH="$root/build/lib/lua/5.1/?.so" luajit tests/editors/read.lua "$tmp/python") || fail "LuaJIT: $njit"
[ "$n54" = "$njit" ] && [ "$n54" -ge 16 ] || fail "read $n54 and $njit files"
echo "test-editors: the module reads the $n54 files python-tcod and Python's zlib and gzip wrote, exactly, on both"
