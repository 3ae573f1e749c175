#!/usr/bin/env bash
# `make` rebuilds by cargo and installs by content (the Makefile's module
# targets), into a temporary BUILD so that the checkout's build/ is never
# touched:
# 1. an installed library newer than every source yet different (as one
#    built from a file edited during the build, or copied by hand, would be)
#    is replaced by cargo's output: a make that compared times would keep it;
# 2. an installed library equal to cargo's output keeps its time stamp, even
#    an old one: the install step copies only what changed.
# Run by `make test-make` (in `make test`); a few seconds once the modules
# are built (each make is cargo's no-op check, once per flavour).
set -euo pipefail
cd "$(dirname "$0")/../.."
MAKE=${MAKE:-make}

dir=$(mktemp -d /tmp/map-make-test.XXXXXX)
trap 'rm -rf "$dir"' EXIT
build="$dir/lib/lua"
# Cargo's output that each flavour's installed library (BUILD/<v>/map.so) comes from.
declare -A cargo_out=([5.4]=target/lua54/release/libmap.so [5.1]=target/luajit/release/libmap.so)

fail() { echo "tests/make: $*" >&2; exit 1; }
mtime() { stat -c %Y "$1"; }
# `make all` into the temporary BUILD, its output shown only if it fails.
build_all() {
  "$MAKE" -s BUILD="$build" all >"$dir/log" 2>&1 || { cat "$dir/log" >&2; fail "make failed"; }
}

build_all
for v in 5.4 5.1; do
  set -- "$v" "${cargo_out[$v]}"
  cmp -s "$build/$1/map.so" "$2" || fail "make did not install $2 as $build/$1/map.so"
done

# 1. Different, and newer than every source: replaced.
for v in 5.4 5.1; do
  set -- "$v" "${cargo_out[$v]}"
  printf 'stale' >>"$build/$1/map.so"
  touch "$build/$1/map.so"
done
build_all
for v in 5.4 5.1; do
  set -- "$v" "${cargo_out[$v]}"
  cmp -s "$build/$1/map.so" "$2" ||
    fail "$build/$1/map.so, newer than the sources but not cargo's $2, was kept by make"
done

# 2. The same bytes, an old time stamp: left alone.
for v in 5.4 5.1; do
  set -- "$v" "${cargo_out[$v]}"
  touch -d '2001-01-01 00:00:00' "$build/$1/map.so"
done
old=$(mtime "$build/5.4/map.so")
build_all
for v in 5.4 5.1; do
  set -- "$v" "${cargo_out[$v]}"
  cmp -s "$build/$1/map.so" "$2" || fail "$build/$1/map.so is not cargo's $2"
  [ "$(mtime "$build/$1/map.so")" = "$old" ] ||
    fail "make copied $2 over an equal $build/$1/map.so (its time stamp changed)"
done
echo "tests/make: a different installed library is replaced by cargo's, an equal one keeps its time stamp (both flavours)"
