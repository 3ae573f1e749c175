-- bench/save.lua: map.save and map.load of a whole game, the LÖVE demo's
-- (examples/love/game.lua, played headless by its script.lua, as
-- bench/demo.lua plays it) at turn 300, where the script saves it too;
-- beside the demo's own save (Game:save and M.load: since issue 36
-- map.save of the state it picks, and map.load, then the rules, the field
-- of view and the light made again; before, Lua source written by a Lua
-- serializer). The state saved here is the demo's Game table as it stands
-- (every level with its native level, memory, monsters and items, the
-- player, the combat's rng, the scheduler with its actors), without its
-- functions (clock, new_seed, the script's wrapper of turn), which no save
-- holds.
-- Times are os.clock (processor time), the median of rounds.
--
--   LUA_CPATH_5_4='build/lib/lua/5.4/?.so' lua5.4 bench/save.lua [80x50] [turn]
--   LUA_CPATH='build/lib/lua/5.1/?.so'     luajit bench/save.lua [80x50] [turn]
local here = (arg and arg[0] or ""):match("^(.*)/[^/]*$") or "."
package.path = here .. "/../examples/love/?.lua;" .. package.path

local map = require "map"
local Game = require "game"
local Script = require "script"

local size = arg[1] or "80x50"
local at_turn = tonumber(arg[2] or 300)
local width, height = size:match("^(%d+)x(%d+)$")
local game = Game.new { seed = 7, width = tonumber(width), height = tonumber(height) }
local script = Script.new(game)
while game.turns < at_turn do
  local result = script:update()
  assert(not result or result.ok, result and result.line)
  if result then break end
  game = script.game or game
end

-- The state: the Game table's fields, its functions left out.
local state = {}
for k, v in pairs(game) do
  if type(v) ~= "function" then state[k] = v end
end

local function median_time(rounds, f)
  local times = {}
  for i = 1, rounds do
    local start = os.clock()
    f()
    times[i] = os.clock() - start
  end
  table.sort(times)
  return times[math.floor((rounds + 1) / 2)]
end

local saved = map.save(state)
local text = map.save(state, { text = true })
local loaded = map.load(saved)
assert(map.save(loaded) == saved, "a loaded state saves to the same bytes")
local own = game:save()
local rounds = 200
local t_save = median_time(rounds, function() map.save(state) end)
local t_load = median_time(rounds, function() map.load(saved) end)
local t_text = median_time(rounds, function() map.save(state, { text = true }) end)
local t_own_save = median_time(rounds, function() game:save() end)
local t_own_load = median_time(rounds, function() Game.load(own) end)
-- A sum of the saved bytes, to compare the two interpreters' saves.
local sum = 0
for i = 1, #saved do sum = (sum * 31 + saved:byte(i)) % 4294967296 end
local levels = 0
for _ in pairs(game.levels) do levels = levels + 1 end
print(string.format("%s %s, turn %d (%d levels, %d monsters here): map.save %d B (text %d B) in %.0f us, "
  .. "map.load %.0f us, text form %.0f us (bytes' sum %08x); the demo's own save %d B in %.0f us, its load %.0f us",
  jit and jit.version or _VERSION, size, game.turns, levels, #game.level.monsters, #saved, #text, t_save * 1e6,
  t_load * 1e6, t_text * 1e6, sum, #own, t_own_save * 1e6, t_own_load * 1e6))
