-- `luarocks make` builds the flavour for the Lua luarocks runs for:
--   luarocks --lua-version=5.4 make --tree=DIR
-- It builds offline with cargo through the Makefile (no rust build backend).
rockspec_format = "3.0"
package = "map"
version = "0.1.0-1"
source = {
  url = "git+file://.",
}
description = {
  summary = "Fast, connected, deterministic roguelike maps for Lua 5.4 and LuaJIT",
  license = "MIT",
}
dependencies = {
  "lua >= 5.1",
}
build = {
  type = "make",
  build_target = "rock",
  build_variables = { LUA = "$(LUA)" },
  install_target = "rock-install",
  install_variables = { LUA = "$(LUA)", LIBDIR = "$(LIBDIR)" },
}
