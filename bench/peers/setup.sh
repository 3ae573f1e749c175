# bench/peers/setup.sh: what run.sh and world_run.sh share, sourced from the
# repository's root after they set WORK, TCOD_VERSION and ME (the script's
# name, for messages): both builds of the module checked, the interpreters'
# commands (LUA54, LUAJIT), and libtcod from python-tcod's wheel in a venv of
# $WORK: `libtcod SYMBOL` sets LIB, the wheel's shared object that defines
# SYMBOL, and LIBTCOD_VERSION.

for so in build/lib/lua/5.4/map.so build/lib/lua/5.1/map.so; do
  [ -f "$so" ] || { echo "$ME: $so not found: run make all first" >&2; exit 1; }
done
LUA54=(env "LUA_CPATH_5_4=build/lib/lua/5.4/?.so" lua5.4)
LUAJIT=(env "LUA_CPATH=build/lib/lua/5.1/?.so" luajit)

libtcod() {
  if [ ! -x "$WORK/venv/bin/python" ]; then
    python3 -m venv "$WORK/venv"
    "$WORK/venv/bin/pip" install --quiet "tcod==$TCOD_VERSION" >&2
  fi
  LIB=
  while IFS= read -r so; do
    if nm -D --defined-only "$so" 2>/dev/null | grep " $1\$" >/dev/null; then LIB=$so; break; fi
  done < <(find -L "$WORK/venv" -name '*.so*' -path '*tcod*')
  [ -n "$LIB" ] || { echo "$ME: no shared object in the wheel defines $1" >&2; exit 1; }
  LIBTCOD_VERSION=$(grep -a -m1 -oE 'libtcod [0-9]+\.[0-9]+\.[0-9]+' "$LIB" | head -1 || echo 'libtcod ?')
}
