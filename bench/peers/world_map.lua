-- bench/peers/world_map.lua: `map.noise` and `map.light` timed on the
-- interpreter that runs it, beside libtcod's noise (world_tcod.c) and
-- rot.js's noise and lighting (world_rot.mjs) (bench/peers/README.md).
--
--   lua5.4 bench/peers/world_map.lua export DIR NLEVELS   -- levels and lights as text
--   lua5.4 bench/peers/world_map.lua time NLEVELS [BUDGET_S]
--
-- with the module on the path (LUA_CPATH_5_4='build/lib/lua/5.4/?.so' for
-- Lua 5.4, LUA_CPATH='build/lib/lua/5.1/?.so' for LuaJIT).
--
-- Levels: map.generate{width = 80, height = 50, seed = s, algorithm =
-- "cave"} for s = 1..NLEVELS, each with 10 lights of radius 8 on its open
-- cells (picked by a fixed rule); `export` writes DIR/level-<s>.txt
-- (map.render) and DIR/lights-<s>.txt ("x y radius" per line).
--
-- `time` prints, one line each, `time map-<interpreter> <workload> <value>
-- <passes>`, in the units of world_tcod.c and world_rot.mjs:
--   grid1, grid4, pgrid1, pgrid4   n:grid(1000, 1000): rows of numbers, ms;
--                                  simplex (1 and 4 octaves) and Perlin
--   get1, get4, pget1              n:get(x, y) in a Lua loop over the same
--                                  million cells, its values summed: ns
--   light                          map.light(m, lights) on the table, µs
--   lvl_light                      lvl:light(lights) on its native level, µs
-- The noises are map.noise{seed = 1, kind =, octaves =} (frequency 1/16,
-- persistence 0.5, lacunarity 2). Each workload is warmed up for a quarter
-- of the budget, then timed in whole passes (a grid, a million calls, a pass
-- over the levels) until BUDGET_S (default 0.3) of CPU time (os.clock) is
-- spent; garbage collection is part of the time.

-- WORLD_GC=incremental (Lua 5.4): the collector's mode (see fov_map.lua).
if os.getenv("WORLD_GC") and not jit then collectgarbage(os.getenv("WORLD_GC")) end

local here = (arg and arg[0] or ""):match("^(.*)/[^/]*$") or "."
package.path = here .. "/../?.lua;" .. package.path
local map = require "map"

local clock = os.clock
local mode = arg[1]
local SIDE = 1000
local IMPL = "map-" .. (jit and "luajit" or (os.getenv("WORLD_GC") and "lua54inc" or "lua54"))

-- The levels and their lights.
local levels = require "lit_caves"

if mode == "export" then
  local dir, n = arg[2], tonumber(arg[3])
  for s, level in ipairs(levels(n)) do
    local f = assert(io.open(string.format("%s/level-%d.txt", dir, s), "wb"))
    f:write(map.render(level.m))
    f:close()
    f = assert(io.open(string.format("%s/lights-%d.txt", dir, s), "wb"))
    for _, l in ipairs(level.lights) do f:write(string.format("%d %d %d\n", l.x, l.y, l.radius)) end
    f:close()
  end
  return
end

assert(mode == "time", "usage: world_map.lua export DIR NLEVELS | time NLEVELS [BUDGET_S]")
local all = levels(tonumber(arg[2]))
local budget = tonumber(arg[3] or "0.3")
local sink = 0

-- Seconds per pass of `pass`, after a warm-up of a quarter of the budget.
local function timed(pass)
  local t0 = clock()
  while clock() - t0 < budget / 4 do sink = sink + pass() end
  local spent, n = 0, 0
  while spent < budget or n < 2 do
    local s = clock()
    sink = sink + pass()
    spent, n = spent + clock() - s, n + 1
  end
  return spent / n, n
end

local function say(name, value, passes)
  io.write(string.format("time %s %s %.4f %d\n", IMPL, name, value, passes))
  io.flush()
end

for _, w in ipairs({ { "grid1", "get1", "simplex", 1 }, { "grid4", "get4", "simplex", 4 },
  { "pgrid1", "pget1", "perlin", 1 }, { "pgrid4", nil, "perlin", 4 } }) do
  local n = map.noise { seed = 1, kind = w[3], octaves = w[4] }
  local s, passes = timed(function() return #n:grid(SIDE, SIDE) end)
  say(w[1], s * 1e3, passes)
  if w[2] then
    s, passes = timed(function()
      local sum = 0
      for y = 1, SIDE do
        for x = 1, SIDE do sum = sum + n:get(x, y) end
      end
      return sum
    end)
    say(w[2], s * 1e9 / (SIDE * SIDE), passes)
  end
end

for _, w in ipairs({ { "light", function(l) return #map.light(l.m, l.lights) end },
  { "lvl_light", function(l) return #l.lvl:light(l.lights) end } }) do
  local s, passes = timed(function()
    local t = 0
    for _, level in ipairs(all) do t = t + w[2](level) end
    return t
  end)
  say(w[1], s * 1e6 / #all, passes * #all)
end
if sink == 42 then print() end
