#!/usr/bin/env bash
# The type definitions (types/map.d.lua) in use: emmylua_check, with them
# loaded, over the CLI (lua/main.lua), the README's Lua examples and the LÖVE
# demo (examples/love/); and over a game's folder of its own
# (tests/types/game/) configured by docs/api.md's `.emmyrc.json` (and as
# `.luarc.json`), where uses.lua must get no warning and each line of
# misuses.lua marked `expect: <code>` that warning, and no other line any.
# Code of ours gets no warning either (--warnings-as-errors: emmylua_check
# exits 0 on warnings otherwise); the demo, whose own tables are not
# annotated, gets no error ("love" is LÖVE's global).
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

# A game's folder: docs/api.md's config, its library pointed at this
# checkout's types, found by the checker in the folder it checks (no -c).
config=$(awk '/^<!-- editors: begin/ { on = 1; next } /^<!-- editors: end/ { on = 0 } on && !/^```/' docs/api.md)
[ -n "$config" ] || { echo "tests/types: no editors' config in docs/api.md" >&2; exit 1; }
game() { # the config's file name; checks the folder, then reports
  local file=$1 dir=$tmp/game-$1
  mkdir "$dir"
  cp tests/types/game/uses.lua tests/types/game/misuses.lua "$dir/"
  printf '%s\n' "${config//\/usr\/local\/share\/map\/types/$root/types}" >"$dir/$file"
  grep -q "\"$root/types\"" "$dir/$file" || { echo "tests/types: the config names no types folder" >&2; return 1; }
  if (cd "$dir" && emmylua_check --warnings-as-errors . >"$tmp/out" 2>&1); then
    cat "$tmp/out" >&2
    echo "FAIL types: a game's folder with $file: misuses.lua got no warning" >&2
    return 1
  fi
  # "warning: ... [code]" then "  --> file:line:column": as "file:line code".
  awk '/^(warning|error): / { code = $NF; gsub(/[][]/, "", code) } /^  --> / { split($2, at, ":"); print at[1] ":" at[2], code }' \
    "$tmp/out" | sort >"$tmp/got"
  awk '/-- expect: / { print "misuses.lua:" NR, $NF }' tests/types/game/misuses.lua | sort >"$tmp/expected"
  if ! cmp -s "$tmp/got" "$tmp/expected"; then
    cat "$tmp/out" >&2
    diff "$tmp/expected" "$tmp/got" >&2 || true
    echo "FAIL types: a game's folder with $file: warnings differ from misuses.lua's marks (< expected, > got)" >&2
    return 1
  fi
  echo "PASS types: a game's folder with $file: uses.lua no warning, misuses.lua its $(wc -l <"$tmp/expected") marked warnings"
}
game .emmyrc.json || status=1
game .luarc.json || status=1
exit $status
