-- bench/analyze.lua: map.analyze (and lvl:analyze) on the interpreter that
-- runs it:
--
--   LUA_CPATH_5_4='build/lib/lua/5.4/?.so' lua5.4 bench/analyze.lua
--   LUA_CPATH='build/lib/lua/5.1/?.so'     luajit bench/analyze.lua
--
-- Levels built before timing: rooms, caves and mazes, 80x50 seeds 1..20 and
-- 1000x1000 seeds 1..2. Each figure is the best of 5 rounds of the mean
-- time of one call over the levels (os.clock, CPU time). Targets: 80x50 in
-- at most 1 ms, 1000x1000 in at most 1 s.
local map = require "map"

local INTERP = jit and "luajit" or "lua5.4"

local function out(fmt, ...) io.write(string.format(fmt, ...), "\n") end

local function levels(algorithm, w, h, count)
  local list = {}
  for s = 1, count do list[s] = map.generate { width = w, height = h, seed = s, algorithm = algorithm } end
  return list
end

-- The best of 5 rounds of the mean seconds one call of `f` takes over `list`.
local function best(list, f, calls)
  local fastest = math.huge
  for _ = 1, 5 do
    local start = os.clock()
    for _ = 1, calls do
      for i = 1, #list do f(list[i]) end
    end
    fastest = math.min(fastest, (os.clock() - start) / (calls * #list))
  end
  return fastest
end

out("| %s | size | map.analyze | lvl:analyze |", INTERP)
out("| --- | --- | --- | --- |")
for _, algorithm in ipairs { "rooms", "cave", "maze" } do
  for _, size in ipairs { { 80, 50, 20, 10 }, { 1000, 1000, 2, 1 } } do
    local list = levels(algorithm, size[1], size[2], size[3])
    local lvls = {}
    for i = 1, #list do
      lvls[i] = map.level { width = size[1], height = size[2], seed = i, algorithm = algorithm }
    end
    local t = best(list, map.analyze, size[4])
    local l = best(lvls, function(lvl) return lvl:analyze() end, size[4])
    out("| %s | %dx%d | %.3f ms | %.3f ms |", algorithm, size[1], size[2], t * 1e3, l * 1e3)
  end
end
