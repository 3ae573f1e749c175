-- The scripted game headless, with no LÖVE: `make test-love`
-- (examples/love/test.sh) runs it on Lua 5.4 and on LuaJIT and checks that
-- the game LÖVE played (saved and loaded at turn 300) is the very same game
-- on both: it prints the result line without the timings.
--
--   LUA_CPATH_5_4='build/lib/lua/5.4/?.so' lua5.4 examples/love/check.lua [WIDTHxHEIGHT]
local here = (arg and arg[0] or ""):match("^(.*)/[^/]*$") or "."
package.path = here .. "/?.lua;" .. package.path
local Game = require "game"
local Script = require "script"

local width, height = (arg[1] or ""):match("^(%d+)x(%d+)$")
local game = Game.new { seed = 7, width = tonumber(width), height = tonumber(height) }
local script = Script.new(game)
local result
repeat result = script:update() until result
print((result.line:gsub(" turn_mean_us=.*$", "")))
os.exit(result.ok and 0 or 1)
