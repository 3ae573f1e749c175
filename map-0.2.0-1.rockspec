-- The rock: the flavour of the module for the Lua luarocks builds for, with
-- Rust's cargo through the Makefile's `rock` target (build type "make",
-- which picks the flavour as the `rust-mlua` build type of mlua modules does:
-- from the interpreter luarocks passes as LUA; docs/testing.md#installing).
--   luarocks --lua-version=5.4 make --tree=DIR              # from a checkout
--   luarocks --lua-version=5.1 make --tree=DIR LUA=luajit   # LuaJIT
--   make dist && luarocks pack dist/map-0.2.0-1.rockspec    # the source rock to publish
rockspec_format = "3.0"
package = "map"
version = "0.2.0-1"
source = {
  -- The release archive `make dist` makes: HEAD's files and every crate
  -- they need (cargo vendor), so that a build needs cargo and no network.
  -- `make dist` writes this rockspec again beside it, with the archive's
  -- address (DIST_URL, or the file itself) and its md5: that is the one to
  -- pack and publish. `luarocks make` builds the checkout it runs in and
  -- never reads this.
  url = "dist/map-0.2.0.tar.gz",
  dir = "map-0.2.0",
}
description = {
  summary = "Fast, connected, deterministic roguelike maps for Lua 5.4, LuaJIT and OpenResty",
  detailed = [[
Eight map generators (rooms and corridors, caves, BSP, cellular automata,
drunkard's walk, mazes, overworlds, levels from an example), every floor
cell reachable from the player, the same map for the same seed on every
interpreter and release, with vaults, an arrival cell and a game's own
things placed on request; and a toolkit on the same plain tables: field
of view and line of sight, Dijkstra and safety maps, shortest paths, monster steps, auto-explore, spawn points,
lines, autotiling and a parser for hand-drawn maps. A
native module written in Rust: building it needs Rust's cargo
(https://rustup.rs), not the network. Lua 5.4 and LuaJIT (luarocks'
5.1 flavour with LUA=luajit); plain Lua 5.1 to 5.3 are not supported.
Also installs the `map` command (a map on stdout), map.server, a handler
for OpenResty (nginx + Lua), and types/map.d.lua, the definitions for
lua-language-server and EmmyLua (in the rock's directory: `luarocks show
--rock-dir map`).]],
  license = "MIT",
  labels = { "roguelike", "procedural-generation", "game", "dungeon", "luajit", "openresty" },
}
supported_platforms = { "linux" }
-- Lua 5.4, or luarocks' 5.1 flavour run by LuaJIT: the build refuses plain
-- Lua 5.1 with a message, and so does the LuaJIT module when loaded there.
-- (The binary rocks of dist/lua5.4 and dist/luajit require their own.)
dependencies = {
  "lua >= 5.1, ~= 5.2, ~= 5.3, < 5.5",
}
build = {
  type = "make",
  build_target = "rock",
  -- CFLAGS only because luarocks warns when it is not passed: nothing here
  -- compiles C.
  build_variables = { LUA = "$(LUA)", CFLAGS = "$(CFLAGS)" },
  install_pass = false,
  install = {
    lib = { map = "build/rock/map.so" },
    lua = {
      ["map.args"] = "lua/map/args.lua",
      ["map.stats"] = "lua/map/stats.lua",
      ["map.server"] = "lua/map/server.lua",
      ["map.query"] = "lua/map/query.lua",
      ["map.page"] = "lua/map/page.lua",
      ["map.love"] = "lua/map/love.lua",
    },
    -- lua/main.lua, with the LuaJIT it was built for written in (Makefile).
    bin = { map = "build/rock/map" },
  },
  -- docs/: `luarocks doc map` opens docs/index.md.
  copy_directories = { "types", "docs" },
}
-- `luarocks test` in the sources: the specs that need only the module, run
-- against the tree the rock is installed in, on its interpreter (.busted's
-- task `rock`).
test = {
  type = "busted",
  flags = { "--run=rock" },
}
