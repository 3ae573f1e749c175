# bench/interpreters.sh: what bench/run.sh and bench/peers/setup.sh share,
# sourced from the repository's root after they set ME (the script's name,
# for messages): both builds of the module checked, and the commands of
# the interpreters that load them (LUA54, LUAJIT). BENCH_BUILD (default
# build/lib/lua) names another build's folder, to measure it the same way
# (docs/performance.md: a change measured before and after).

BUILD_DIR=${BENCH_BUILD:-build/lib/lua}
for so in "$BUILD_DIR/5.4/map.so" "$BUILD_DIR/5.1/map.so"; do
  [ -f "$so" ] || { echo "$ME: $so not found: run make all first" >&2; exit 1; }
done
LUA54=(env "LUA_CPATH_5_4=$BUILD_DIR/5.4/?.so" lua5.4)
LUAJIT=(env "LUA_CPATH=$BUILD_DIR/5.1/?.so" luajit)
