-- bench/demo.lua: the LÖVE demo's scripted game (examples/love/game.lua and
-- script.lua) played headless on the interpreter that runs it, no drawing,
-- timed with os.clock (processor time): the mean and worst turn, the map
-- calls' share, and that share call by call (docs/demo.md, "Time per turn").
--
--   LUA_CPATH='build/lib/lua/5.1/?.so'     luajit bench/demo.lua [80x50]
--   LUA_CPATH_5_4='build/lib/lua/5.4/?.so' lua5.4 bench/demo.lua 200x100
--
-- Only the calls made inside the game's turns count (not the script's own,
-- which choose the action and check the rules). Turns that take the stairs
-- (they make or return to a level) are counted apart. The module's
-- functions and each level's methods are wrapped to time them; the wrapping
-- costs its share of each call, the same for every call.
local here = (arg and arg[0] or ""):match("^(.*)/[^/]*$") or "."
package.path = here .. "/../examples/love/?.lua;" .. package.path

local map = require "map"
local clock = os.clock

local inside = false   -- true while the game plays a turn
local current = {}     -- call name -> {seconds, calls}, in this update's turns
local spent = { turn = {}, level = {} } -- a turn's kind -> call name -> {seconds, calls}

local function timed(name, f)
  return function(...)
    if not inside then return f(...) end
    local start = clock()
    local a, b, c = f(...)
    local t = current[name] or { 0, 0 }
    t[1], t[2] = t[1] + clock() - start, t[2] + 1
    current[name] = t
    return a, b, c
  end
end

-- Every function of the module timed, and every level's methods (through
-- the levels' metatable, as the script's timings do: Script.time_methods).
local Script = require "script"
Script.time_methods(debug.getmetatable(map.level("#")), map.METHODS.level, function(method, name)
  return timed("level:" .. name, method)
end)
for name, f in pairs(map) do
  if type(f) == "function" then map[name] = timed("map." .. name, f) end
end

local Game = require "game"

local size = arg[1] or "80x50"
local width, height = size:match("^(%d+)x(%d+)$")
local game = Game.new { seed = 7, width = tonumber(width), height = tonumber(height) }
local script = Script.new(game)

-- The calls made inside a game's turns count; again for the game the
-- script loads from its save at turn 300.
local function time_turns(g)
  local turn = g.turn
  g.turn = function(...)
    inside = true
    local took, what = turn(...)
    inside = false
    return took, what
  end
end
time_turns(game)

-- One update is one turn (as the script records its times): its calls go
-- to the kind of that turn.
local result
repeat
  result = script:update()
  if script.game ~= game then
    game = script.game
    time_turns(game)
  end
  local by = spent[game.turn_kind or "turn"]
  for name, t in pairs(current) do
    local sum = by[name] or { 0, 0 }
    sum[1], sum[2] = sum[1] + t[1], sum[2] + t[2]
    by[name] = sum
  end
  current = {}
until result
assert(result.ok, result.line)

local function us(seconds) return seconds * 1e6 end

-- The calls of one kind of turn, the costliest first: µs a turn, calls, µs a call.
local function breakdown(by, turns)
  local names = {}
  for name in pairs(by) do names[#names + 1] = name end
  table.sort(names, function(a, b) return by[a][1] > by[b][1] end)
  local parts, total = {}, 0
  for _, name in ipairs(names) do
    local sum = by[name]
    total = total + sum[1]
    parts[#parts + 1] = string.format("%s %.1f (%d calls, %.1f a call)", name, us(sum[1] / turns), sum[2],
      us(sum[1] / sum[2]))
  end
  return table.concat(parts, ", "), total
end

local t, l = script.times.turn, script.times.level
local turns, map_sum = breakdown(spent.turn, t.n)
print(string.format("%s %s: %d turns (+%d on stairs): mean turn %.0f us, its map calls %.0f us, worst turn %.2f ms; "
  .. "stairs: mean %.2f ms, worst %.2f ms", jit and jit.version or _VERSION, size, t.n, l.n, us(t.sum / t.n),
  us(map_sum / t.n), us(t.worst) / 1000, us(l.sum / l.n) / 1000, us(l.worst) / 1000))
print("  us a turn: " .. turns)
print("  us a stairs turn: " .. breakdown(spent.level, l.n))
print("  " .. result.line:match("^(.-) turn_mean_us="))
