#!/usr/bin/env bash
# The rock as a LuaRocks user gets it, offline, from a clean clone of this
# repository's HEAD (uncommitted changes are not in it): `luarocks make` into
# a tree for Lua 5.4 and one for LuaJIT, then a binary rock packed and
# installed into a third tree. Each tree is loaded with its interpreter
# alone on its paths: the golden 60x20 seed-42 map, map.server, the CLI;
# and the type definitions are in the rock's directory.
# `make test-rock` runs it (in .ci/run); three cargo builds, a few minutes.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d /tmp/map-rock.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

git clone -q "$root" "$tmp/src"
cd "$tmp/src"
# The checkout's cargo builds, when there are any, as a start: cargo rebuilds
# what differs (the crate itself, at another path) and keeps its compiled
# dependencies, where three builds from nothing would take most of CI's time.
for flavour in lua54 luajit; do
  if [ -d "$root/target/$flavour" ]; then mkdir -p target && cp -a "$root/target/$flavour" target/; fi
done
golden=$(cat spec/golden/rooms-60x20-42.txt)

# Loads map and map.server from tree $1 with interpreter $2 (Lua version $3)
# and nothing else on the paths, then runs lua/main.lua against that tree.
check_tree() {
  local tree=$1 lua=$2 version=$3
  local path="$tree/share/lua/$version/?.lua" cpath="$tree/lib/lua/$version/?.so"
  local env=(env LUA_PATH="$path" LUA_PATH_5_4="$path" LUA_CPATH="$cpath" LUA_CPATH_5_4="$cpath")
  "${env[@]}" "$lua" - "$tree" "$golden" <<'EOF'
local map = require "map"
assert(package.searchpath("map", package.cpath):find(arg[1], 1, true), "not the tree's module")
assert(map.generate_text(60, 20, 42) == arg[2], "not the golden map")
assert(require("map.server").serve, "no map.server")
EOF
  # The clone has no build/lib (luarocks builds build/rock/ only): main.lua uses the tree's module.
  [ "$("${env[@]}" "$lua" lua/main.lua 60 20 42)" = "$golden" ] || { echo "rock: main.lua on $tree differs" >&2; exit 1; }
  cmp -s types/map.d.lua "$(luarocks --lua-version="$version" show --rock-dir map --tree "$tree")/types/map.d.lua" ||
    { echo "rock: $tree lacks types/map.d.lua" >&2; exit 1; }
  echo "rock: $tree: $lua loads map and map.server, and prints the golden map; the types are in the rock's directory"
}

luarocks --lua-version=5.4 make --tree "$tmp/lua54" >"$tmp/make-5.4.log" 2>&1 ||
  { cat "$tmp/make-5.4.log" >&2; exit 1; }
check_tree "$tmp/lua54" lua5.4 5.4

# LuaJIT is luarocks' 5.1 flavour. For --lua-version=5.1, luarocks takes the
# first of lua5.1, lua51, lua-5.1, lua-51, luajit, lua in /usr/bin that runs
# as Lua 5.1; lua5.1 is installed here (busted and luarocks depend on it), so
# it is plain Lua 5.1, which the module does not support, and the Makefile
# says so. LUA=luajit on the command line sets luarocks' LUA variable, which
# the rockspec passes to the Makefile.
if luarocks --lua-version=5.1 make --tree "$tmp/plain51" >"$tmp/make-5.1.log" 2>&1; then
  echo "rock: luarocks --lua-version=5.1 make built for plain Lua 5.1" >&2
  exit 1
fi
grep -q "map needs Lua 5.4 or LuaJIT; .*lua5.1 is neither" "$tmp/make-5.1.log" ||
  { cat "$tmp/make-5.1.log" >&2; exit 1; }
luarocks --lua-version=5.1 make --tree "$tmp/luajit" LUA=luajit >"$tmp/make-luajit.log" 2>&1 ||
  { cat "$tmp/make-luajit.log" >&2; exit 1; }
check_tree "$tmp/luajit" luajit 5.1

# A binary rock, installed offline (a local file, its one dependency `lua`
# given by the interpreter: no server is asked).
luarocks --lua-version=5.4 make --pack-binary-rock >"$tmp/pack.log" 2>&1 || { cat "$tmp/pack.log" >&2; exit 1; }
rock=$(ls map-*.linux-x86_64.rock)
unzip -l "$rock" | grep -q " lib/map.so$" || { echo "rock: $rock has no lib/map.so" >&2; exit 1; }
luarocks --lua-version=5.4 install "./$rock" --tree "$tmp/binary" >"$tmp/install.log" 2>&1 ||
  { cat "$tmp/install.log" >&2; exit 1; }
check_tree "$tmp/binary" lua5.4 5.4
echo "rock: $rock installed offline"
