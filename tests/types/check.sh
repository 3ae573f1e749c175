#!/usr/bin/env bash
# The type definitions (types/map.d.lua) in use: emmylua_check, with them
# loaded, over the CLI (lua/main.lua), the README's Lua examples and the LÖVE
# demo (examples/love/). Code of ours gets no warning either; the demo, whose
# own tables are not annotated, gets no error ("love" is LÖVE's global).
# docs/testing.md; setup.sh installs the checker (cargo install emmylua_check).
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
PATH=$PATH:${CARGO_HOME:-$HOME/.cargo}/bin # where setup.sh's cargo install puts it
command -v emmylua_check >/dev/null ||
  { echo "tests/types: emmylua_check not found (./setup.sh installs it)" >&2; exit 1; }

tmp=$(mktemp -d /tmp/map-types.XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# The library paths are absolute: emmylua_check reads relative ones from the
# current directory, not the config's.
cat >"$tmp/emmyrc.json" <<JSON
{
  "runtime": { "version": "LuaJIT" },
  "workspace": { "library": ["$root/types", "$root/lua"] },
  "diagnostics": { "globals": ["love"] }
}
JSON

# Each \`\`\`lua block of the README as a file of its own.
mkdir "$tmp/readme"
awk -v dir="$tmp/readme" '
  /^```lua$/ { n++; file = sprintf("%s/example_%d.lua", dir, n); next }
  /^```$/ { file = ""; next }
  file { print > file }
' README.md
[ -n "$(ls "$tmp/readme")" ] || { echo "tests/types: no Lua example in the README" >&2; exit 1; }
mkdir "$tmp/cli" && cp lua/main.lua "$tmp/cli/"

check() { # what, then emmylua_check's own arguments
  local what=$1; shift
  if emmylua_check -c "$tmp/emmyrc.json" "$@" >"$tmp/out" 2>&1; then
    echo "PASS types: $what"
  else
    cat "$tmp/out" >&2
    echo "FAIL types: $what" >&2
    return 1
  fi
}

status=0
check "lua/main.lua, no warning" --warnings-as-errors "$tmp/cli" || status=1
check "the README's $(ls "$tmp/readme" | wc -l) Lua example(s), no warning" --warnings-as-errors "$tmp/readme" || status=1
check "examples/love/, no error" examples/love || status=1
exit $status
