# bench/interpreters.sh: what bench/run.sh and bench/peers/setup.sh share,
# sourced from the repository's root after they set ME (the script's name,
# for messages): both builds of the module checked, and the commands of
# the interpreters that load them (LUA54, LUAJIT).

for so in build/lib/lua/5.4/map.so build/lib/lua/5.1/map.so; do
  [ -f "$so" ] || { echo "$ME: $so not found: run make all first" >&2; exit 1; }
done
LUA54=(env "LUA_CPATH_5_4=build/lib/lua/5.4/?.so" lua5.4)
LUAJIT=(env "LUA_CPATH=build/lib/lua/5.1/?.so" luajit)
