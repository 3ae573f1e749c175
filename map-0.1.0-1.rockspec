-- `luarocks make` builds the flavour for the Lua luarocks runs for, with
-- Rust's cargo through the Makefile (build type "make", offline):
--   luarocks --lua-version=5.4 make --tree=DIR
--   luarocks --lua-version=5.1 make --tree=DIR LUA=luajit   # LuaJIT (see docs/testing.md)
rockspec_format = "3.0"
package = "map"
version = "0.1.0-1"
source = {
  url = "git+file://.",
}
-- No `homepage` yet: the project has no public address to give.
description = {
  summary = "Fast, connected, deterministic roguelike maps for Lua 5.4, LuaJIT and OpenResty",
  detailed = [[
Six map generators (rooms and corridors, caves, BSP, cellular automata,
drunkard's walk, mazes), every floor cell reachable from the player, the
same map for the same seed on every interpreter and release, with vaults,
an arrival cell and a game's own things placed on request; and a toolkit
on the same plain tables: field of view and line of sight, Dijkstra and
safety maps, shortest paths, monster steps, auto-explore, spawn points,
lines, autotiling and a parser for hand-drawn maps. A
native module written in Rust: building it needs Rust's cargo
(https://rustup.rs) and works offline. Lua 5.4 and LuaJIT (luarocks'
5.1 flavour with LUA=luajit); plain Lua 5.1 to 5.3 are not supported.
Also installs map.server, a handler for OpenResty (nginx + Lua), and
types/map.d.lua, the definitions for lua-language-server and EmmyLua (in
the rock's directory: `luarocks show --rock-dir map`).]],
  license = "MIT",
  labels = { "roguelike", "procedural-generation", "game", "dungeon", "luajit", "openresty" },
}
supported_platforms = { "linux" }
dependencies = {
  "lua >= 5.1, < 5.5",
}
build = {
  type = "make",
  build_target = "rock",
  build_variables = { LUA = "$(LUA)" },
  install_pass = false,
  install = {
    lib = { map = "build/rock/map.so" },
    lua = { ["map.args"] = "lua/map/args.lua", ["map.server"] = "lua/map/server.lua" },
  },
  copy_directories = { "types" },
}
