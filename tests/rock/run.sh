#!/usr/bin/env bash
# The rock as it is released and installed, from a clean clone of this
# repository's HEAD (uncommitted changes are not in it): `make dist`, then
# `luarocks pack` of the rockspec it writes; then, with no network (a network
# namespace of its own) and an empty cargo home, for Lua 5.4 and for LuaJIT:
# the source rock installed into a fresh tree and loaded with that tree
# alone on the paths (the golden map, map.server, the `map` command, the
# types), and `luarocks test` green against it; the binary rock of each
# interpreter built from dist/<interpreter>/, installed into a fresh tree,
# and refused by the other interpreter's tree. Plain Lua 5.1 is refused at
# build time. `make test-rock` runs it (in .ci/run): four cargo builds.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d /tmp/map-rock.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

fail() {
  echo "rock: $*" >&2
  exit 1
}
# Runs a command, its output in $tmp/$1.log, shown if it fails.
logged() {
  local log=$tmp/$1.log
  shift
  "$@" >"$log" 2>&1 || { cat "$log" >&2; fail "failed: $*"; }
}

unshare -n true 2>/dev/null || fail "unshare -n (a network namespace, as root) is needed to build with no network"
# No network, and a cargo home with nothing in it: the build has only the
# archive's vendored crates (rustup's toolchains stay where RUSTUP_HOME is).
offline() { unshare -n env CARGO_HOME="$tmp/cargo-home" RUSTUP_HOME="${RUSTUP_HOME:-$HOME/.rustup}" "$@"; }
mkdir "$tmp/cargo-home"

git clone -q "$root" "$tmp/clone"
logged dist make -C "$tmp/clone" dist
dist=$tmp/clone/dist
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' "$tmp/clone/Cargo.toml" | head -n 1)
name=map-$version
rockspec=$name-1.rockspec
src_rock=$dist/$name-1.src.rock
[ -f "$src_rock" ] || fail "make dist made no $src_rock"
rm "$src_rock" # packed again here, offline
(cd "$dist" && logged pack offline luarocks pack "$rockspec")
# (Listings read whole: grep -q stopping early would fail the pipe.)
grep -q " $name.tar.gz$" <<<"$(unzip -l "$src_rock")" || fail "$src_rock holds no $name.tar.gz"
grep -q "^$name/vendor/mlua-" <<<"$(tar -tzf "$dist/$name.tar.gz")" || fail "$name.tar.gz has no vendored crates"
golden=$(cat "$tmp/clone/spec/golden/rooms-60x20-42.txt")

# luarocks' configuration for one interpreter: its trees (where `luarocks
# test` looks for busted) and, for LuaJIT, the interpreter: Debian's
# luarocks takes plain lua5.1 for 5.1 first, and must be told (LUA=luajit
# alone would build the right flavour, but luarocks itself would not know
# it runs LuaJIT, which the LuaJIT binary rock requires).
config() { # file, tree, interpreter
  {
    echo "rocks_trees = { { name = \"test\", root = \"$2\" } }"
    [ "$3" != luajit ] || echo 'lua_interpreter = "luajit"'
  } >"$1"
}

# The interpreter luarocks' wrapper $1 starts.
wrapped() { sed -n "s/.*exec '\([^']*\)'.*/\1/p" "$1" | head -n 1; }

# Loads map and map.server from tree $1 with interpreter $2 (Lua version $3)
# and nothing else on the paths; runs the tree's `map` command and finds the
# types in the rock's directory.
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
  [ "$(cd /tmp && "${env[@]}" "$tree/bin/map" 60 20 42)" = "$golden" ] || fail "$tree/bin/map differs"
  local expected
  expected="map $version_text ($("$lua" -e 'io.write(jit and jit.version or _VERSION)'))"
  [ "$("$tree/bin/map" --version)" = "$expected" ] || fail "$tree/bin/map --version is not '$expected'"
  local rock_dir
  rock_dir=$(luarocks --lua-version="$version" show --rock-dir map --tree "$tree")
  cmp -s "$tmp/clone/types/map.d.lua" "$rock_dir/types/map.d.lua" || fail "$tree lacks types/map.d.lua"
  # luarocks doc: the docs' folder in the rock, docs/index.md the one it opens.
  local docs
  docs=$(luarocks --lua-version="$version" doc map --list --porcelain --tree "$tree")
  grep -q "/docs/index.md$" <<<"$docs" || fail "luarocks doc map --list: no docs/index.md in: $docs"
  cmp -s "$tmp/clone/docs/api.md" "$rock_dir/docs/api.md" || fail "$tree: docs/api.md differs in the rock"
  echo "rock: $tree: $lua loads map and map.server and prints the golden map, so does its map command ($(wrapped "$tree/bin/map") starts it); the types and docs are in the rock's directory"
}
version_text=$version

# busted as a rock, for `luarocks test`: the LuaRocks registry is not
# reachable here, so this rock runs Debian's busted (lua-busted) on the
# interpreter of luarocks' wrapper. Elsewhere luarocks installs the real one.
mkdir "$tmp/busted"
busted_version=$(busted --version)
cat >"$tmp/busted/busted-$busted_version-0.rockspec" <<EOF
rockspec_format = "3.0"
package = "busted"
version = "$busted_version-0"
source = { url = "file:///usr/bin/busted" }
description = { summary = "The system's busted (Debian's lua-busted $busted_version), as a rock" }
build = { type = "none", install = { bin = { busted = "busted" } } }
EOF
echo 'require "busted.runner" ({ standalone = false })' >"$tmp/busted/busted"

# One interpreter's rocks: the source rock installed and tested, then its
# binary rock built and installed. The two interpreters run side by side
# (each in a subshell: its own LUAROCKS_CONFIG, trees, logs and busted rock),
# since most of each is one core's work (LTO, busted).
flavour_rocks() {
  # The archive unpacked, where `luarocks test` runs (its rockspec and specs),
  # and the busted rock's folder: one of each per interpreter.
  local flavour=$1 lua version rock
  local tree=$tmp/tree-$flavour sources=$tmp/sources-$flavour/$name busted=$tmp/busted-$flavour
  if [ $flavour = lua5.4 ]; then lua=lua5.4 version=5.4; else lua=luajit version=5.1; fi
  mkdir "$tmp/sources-$flavour"
  tar -xzf "$dist/$name.tar.gz" -C "$tmp/sources-$flavour"
  cp "$dist/$rockspec" "$sources/"
  cp -r "$tmp/busted" "$busted"
  export LUAROCKS_CONFIG=$tmp/config-$flavour.lua

  # The source rock, built with no network and an empty cargo home. LuaJIT's
  # as the README installs it: luarocks not told it runs LuaJIT (its
  # wrapper of the map command then starts plain lua5.1), LUA=luajit only.
  if [ $flavour = luajit ]; then
    config "$LUAROCKS_CONFIG" "$tree" lua5.1
    logged "install-$flavour" offline luarocks --lua-version=$version install "$src_rock" --tree "$tree" LUA=luajit
    grep -q "lua5\.1" "$tree/bin/map" || fail "$tree/bin/map: luarocks' wrapper does not start lua5.1 (the README's case)"
  else
    config "$LUAROCKS_CONFIG" "$tree" $lua
    logged "install-$flavour" offline luarocks --lua-version=$version install "$src_rock" --tree "$tree"
  fi
  ! grep -i "warning" "$tmp/install-$flavour.log" || fail "luarocks warned while installing $src_rock"
  check_tree "$tree" $lua $version
  config "$LUAROCKS_CONFIG" "$tree" $lua

  # luarocks test: the rockspec's busted specs against the tree.
  (cd "$busted" && logged "busted-$flavour" luarocks --lua-version=$version make --tree "$tree")
  (cd "$sources" && logged "test-$flavour" offline luarocks --lua-version=$version test --tree "$tree")
  summary=$(grep -E "^[0-9]+ successes / [0-9]+ failures / [0-9]+ errors" "$tmp/test-$flavour.log") ||
    { cat "$tmp/test-$flavour.log" >&2; fail "luarocks test printed no summary"; }
  case $summary in
    *" 0 failures / 0 errors "*) echo "rock: luarocks test on $flavour: $summary" ;;
    *) cat "$tmp/test-$flavour.log" >&2; fail "luarocks test on $flavour: $summary" ;;
  esac

  # The binary rock of this interpreter, in its own folder of dist/.
  (cd "$dist/$flavour" && logged "binary-$flavour" offline luarocks --lua-version=$version build "$name-1.src.rock" \
    --pack-binary-rock)
  rock=$(ls "$dist/$flavour/"*.linux-*.rock)
  grep -q " lib/map.so$" <<<"$(unzip -l "$rock")" || fail "$rock has no lib/map.so"
  logged "binary-install-$flavour" offline luarocks --lua-version=$version install "$rock" --tree "$tmp/binary-$flavour"
  check_tree "$tmp/binary-$flavour" $lua $version
}
pids=()
for flavour in lua5.4 luajit; do
  (flavour_rocks $flavour) &
  pids+=($!)
done
# Both waited for, so that a failure leaves no build running after the exit.
failed=0
for pid in "${pids[@]}"; do wait "$pid" || failed=1; done
[ $failed = 0 ] || fail "the rocks of an interpreter failed (above)"

# Each binary rock in the other interpreter's tree: refused, naming the Lua
# it needs, and nothing installed.
for pair in "lua5.4 luajit 5.1" "luajit lua5.4 5.4"; do
  read -r flavour other version <<<"$pair"
  export LUAROCKS_CONFIG=$tmp/config-$other.lua
  rock=$(ls "$dist/$flavour/"*.linux-*.rock)
  if offline luarocks --lua-version=$version install "$rock" --tree "$tmp/wrong-$flavour" >"$tmp/wrong-$flavour.log" 2>&1; then
    cat "$tmp/wrong-$flavour.log" >&2
    fail "the $flavour rock installed into a $other tree"
  fi
  grep -q "Could not satisfy dependency lua" "$tmp/wrong-$flavour.log" ||
    { cat "$tmp/wrong-$flavour.log" >&2; fail "the $flavour rock in a $other tree: no message naming the Lua it needs"; }
  [ ! -e "$tmp/wrong-$flavour/lib/lua/$version/map.so" ] || fail "the $flavour rock left map.so in a $other tree"
  echo "rock: the $flavour binary rock is refused by a $other tree: $(grep -m 1 "Could not satisfy" "$tmp/wrong-$flavour.log")"
done

# Plain Lua 5.1, which Debian's luarocks takes for 5.1 unless told: refused
# at build time, by name, before cargo runs.
export LUAROCKS_CONFIG=$tmp/config-plain.lua
config "$LUAROCKS_CONFIG" "$tmp/plain" lua5.1
if offline luarocks --lua-version=5.1 install "$src_rock" --tree "$tmp/plain" >"$tmp/plain.log" 2>&1; then
  fail "luarocks built map for plain Lua 5.1"
fi
grep -q "map needs Lua 5.4 or LuaJIT; .*lua5.1 is neither" "$tmp/plain.log" || { cat "$tmp/plain.log" >&2; fail "plain Lua 5.1: no message"; }
echo "rock: plain Lua 5.1 is refused: $(grep -m 1 "map needs" "$tmp/plain.log")"
