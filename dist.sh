#!/usr/bin/env bash
# `make dist`: the release, in dist/, from HEAD (uncommitted changes are not
# in it):
#   map-VERSION.tar.gz      HEAD's files under map-VERSION/, and vendor/ with
#                           every crate a build needs (cargo vendor) and
#                           .cargo/config.toml pointing cargo at it, offline:
#                           building needs cargo, not the network
#   map-VERSION-1.rockspec  the rockspec, its source this archive: at
#                           DIST_URL/map-VERSION.tar.gz when DIST_URL is set
#                           (where the release will be served; HOMEPAGE, if
#                           set, becomes its homepage), else the file itself;
#                           `luarocks pack` it for the source rock
#   map-VERSION-1.src.rock  the rockspec and the archive (`luarocks pack`):
#                           `luarocks install` it, offline
#   lua5.4/, luajit/        the same rockspec and source rock for the binary
#                           rock of each interpreter, which requires that
#                           interpreter's Lua, so that another's tree refuses
#                           it by name: `luarocks build` that source rock
#                           there with --pack-binary-rock
# Vendoring reads crates.io, or cargo's cache (docs/testing.md#installing).
set -euo pipefail
cd "$(dirname "$0")"
root=$PWD

version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)
rockspec=map-$version-1.rockspec
name=map-$version
[ -f "$rockspec" ] || { echo "dist.sh: no $rockspec for the version of Cargo.toml ($version)" >&2; exit 1; }

tmp=$(mktemp -d /tmp/map-dist.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
git archive --prefix="$name/" HEAD | tar -x -C "$tmp"
cd "$tmp/$name"

# The dev-dependencies (criterion, for `cargo bench`) build nothing the rock
# needs and would bring 150 MB of Windows import libraries into vendor/. Out
# of the manifest, cargo prunes them from Cargo.lock; every version it keeps
# must be the one locked in the repository.
awk '/^\[/ { skip = ($0 == "[dev-dependencies]" || $0 == "[[bench]]") } !skip' Cargo.toml >Cargo.toml.new
mv Cargo.toml.new Cargo.toml
cp Cargo.lock "$tmp/Cargo.lock.locked"
cargo metadata --format-version 1 >/dev/null
locked() { awk '/^name = / { n = $3 } /^version = / { print n, $3 }' "$1" | sort; }
added=$(comm -13 <(locked "$tmp/Cargo.lock.locked") <(locked Cargo.lock))
[ -z "$added" ] || { echo "dist.sh: pruning Cargo.lock changed versions: $added" >&2; exit 1; }

cargo vendor --locked --versioned-dirs vendor >/dev/null 2>"$tmp/vendor.log" || { cat "$tmp/vendor.log" >&2; exit 1; }
mkdir -p .cargo
# Appended: the repository's own settings (macOS' linker flags) stay.
cat >>.cargo/config.toml <<'EOF'

# Written by `make dist`: the crates come from vendor/, never the network.
[source.crates-io]
replace-with = "vendored-sources"

[source.vendored-sources]
directory = "vendor"

[net]
offline = true
EOF

# The same bytes for the same commit: names sorted, times the commit's.
mtime=$(git -C "$root" log -1 --format=%ct HEAD)
mkdir -p "$root/dist"
archive=$root/dist/$name.tar.gz
tar -C "$tmp" --sort=name --mtime="@$mtime" --owner=0 --group=0 --numeric-owner -cf - "$name" | gzip -n >"$archive"
md5=$(md5sum "$archive" | cut -d ' ' -f 1)

# rockspec URL [DEPENDENCY]: the rockspec with the archive at URL, its md5,
# HOMEPAGE, and DEPENDENCY in place of the Lua versions when given.
write_rockspec() {
  local url=$1 dependency=${2:-}
  awk -v url="$url" -v md5="$md5" -v homepage="${HOMEPAGE:-}" -v dependency="$dependency" '
    /^  url = / { print "  url = \"" url "\","; print "  md5 = \"" md5 "\","; next }
    /^  license = / && homepage != "" { print "  homepage = \"" homepage "\"," }
    /^  "lua >= / && dependency != "" { print dependency; next }
    { print }
  ' "$root/$rockspec"
}
base=${DIST_URL:-file://$root/dist}
write_rockspec "${base%/}/$name.tar.gz" >"$root/dist/$rockspec"
mkdir -p "$root/dist/lua5.4" "$root/dist/luajit"
write_rockspec "file://$archive" '  "lua ~> 5.4",' >"$root/dist/lua5.4/$rockspec"
write_rockspec "file://$archive" '  "lua ~> 5.1", "luajit ~> 2.1",' >"$root/dist/luajit/$rockspec"
# The source rocks (the rockspec and the archive, zipped: what a rocks
# server hosts, and what `luarocks install` builds from, offline).
if command -v luarocks >/dev/null; then
  for folder in "$root/dist" "$root/dist/lua5.4" "$root/dist/luajit"; do
    if [ "$folder" = "$root/dist" ] && [ -n "${DIST_URL:-}" ]; then
      # luarocks pack would fetch the archive from DIST_URL, where it is not
      # served yet: the same zip, made here (the rockspec and the archive).
      rm -f "$folder/$name-1.src.rock"
      (cd "$folder" && zip -q -X "$name-1.src.rock" "$rockspec" "$name.tar.gz")
    else
      (cd "$folder" && luarocks pack "$rockspec" >"$tmp/pack.log" 2>&1) || { cat "$tmp/pack.log" >&2; exit 1; }
    fi
  done
  rocks=", and the source rocks map-$version-1.src.rock there"
else
  rocks=" (no luarocks: no source rocks)"
fi
echo "dist: $archive ($(du -h "$archive" | cut -f 1)), dist/$rockspec (source: ${base%/}/$name.tar.gz)$rocks"
