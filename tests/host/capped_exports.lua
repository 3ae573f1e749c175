-- A capped Lua heap, every export: in tests/host/capped, each export is
-- called 10 times with a big input (1000x1000; new_map 2000x2000) and the
-- Lua heap capped just above what is in use, so that its result cannot be
-- built. Each call must fail with a catchable "not enough memory" (the
-- module's "map.<fn>: ..." or Lua's own), RSS must stay flat (< 5 MB per
-- export, < 20 MB over all; a leaked reply is 1 MB or more a call) and the
-- state must still make maps afterwards.
-- luacheck: globals host
package.path = arg[0]:gsub("[^/]+$", "") .. "?.lua;" .. package.path
local t = require "lib"
local map = require "map"

t.check(host, "run this under tests/host/capped")
local CALLS, HEADROOM = 10, 64 * 1024
local MAX_CASE_GROWTH_KIB, MAX_GROWTH_KIB = 5 * 1024, 20 * 1024

local floor = t.aliased_map(1000, 1000, ".") -- 1,000,000 cells for ~20 KiB of Lua heap
local cases = {
  { "map.new_map", map.new_map, { 2000, 2000 } },
  { "map.render", map.render, { floor } },
  -- "no @ on the map": only a short string to push, so no headroom at all.
  { "map.reachable", map.reachable, { floor }, 0 },
  { "map.fov", map.fov, { floor, 500, 500 } },
  { "map.distances", map.distances, { floor, { x = 1, y = 1 } } },
  { "map.path", map.path, { floor, 1, 1, 1000, 1000 } },
}
-- The turn functions whose results grow with the map: all known but the far
-- corner, so that explore's path crosses the map. (visible's boolean and
-- step's two integers need no room.)
local known = t.aliased_map(1000, 1000, true)
known[1000] = {}
for x = 1, 999 do known[1000][x] = true end
local limits = { avoid = { { x = 2, y = 2 } }, known = known, max = 2000 }
local turns = {
  { "map.flee", map.flee, { floor, { x = 1, y = 1 } } },
  { "map.distances", map.distances, { floor, { x = 1, y = 1 }, limits } },
  { "map.path", map.path, { floor, 1, 1, 1000, 999, limits } },
  { "map.explore", map.explore, { floor, known, 500, 500 } },
  { "map.sample", map.sample, { floor, 1000, { seed = 1, from = { x = 1, y = 1 }, min = 1 } } },
  { "map.line", map.line, { 1, 1, 1000000, 7 } },
  { "map.parse", map.parse, { string.rep(string.rep(".", 1000) .. "\n", 1000) } },
  { "map.autotile", map.autotile, { floor, { chars = "." } } },
}
for _, c in ipairs(turns) do cases[#cases + 1] = c end
-- A scheduler of 100,000 actors loaded back: its tables cannot be built.
do
  local s, actors = map.scheduler(), {}
  for i = 1, 100000 do
    actors[i] = i
    s:add(i, i % 10 + 1)
  end
  cases[#cases + 1] = { "map.scheduler", map.scheduler, { s:state(), actors } }
end
for _, algorithm in ipairs(map.ALGORITHMS) do
  -- example refuses maps past its solver's bound: the largest it takes.
  local side = algorithm == "example" and require("spec.exports.fixtures").EXAMPLE_SIDE or 1000
  local options = { width = side, height = side, seed = 1, algorithm = algorithm }
  -- Its text (20 KiB) fits the usual headroom: a smaller one for it.
  local headroom = algorithm == "example" and 16 * 1024 or nil
  cases[#cases + 1] = { "map.generate", map.generate, { options }, headroom }
  cases[#cases + 1] = { "map.generate_text", map.generate_text, { options }, headroom }
  cases[#cases + 1] = { "map.generate_json", map.generate_json, { options }, headroom }
end

-- Calls case `c` once with the heap capped at what is in use plus its headroom.
local CAP = host.cap()
local function capped_call(c)
  collectgarbage("collect")
  host.cap(host.used() + (c[4] or HEADROOM))
  local ok, err = pcall(c[2], table.unpack(c[3]))
  host.cap(CAP)
  return ok, err
end

-- Warm-up: the first big call of each kind sizes malloc's heap for good.
for _, c in ipairs(cases) do capped_call(c) end
local before = t.settled_rss_kib()
for _, c in ipairs(cases) do
  local options = c[3][1]
  local what = c[1] .. (type(options) == "table" and options.algorithm and " " .. options.algorithm or "")
  local first
  local start = t.settled_rss_kib()
  for _ = 1, CALLS do
    local ok, err = capped_call(c)
    t.check(not ok, what .. " succeeded with no room for its result")
    t.check(t.is_memory_error(err, c[1]), what .. ": unexpected error: " .. tostring(err))
    first = first or err
  end
  local growth = t.settled_rss_kib() - start
  t.say(string.format("%-26s %d x %s (RSS %+d KiB)", what .. ":", CALLS, first, growth))
  t.check(growth < MAX_CASE_GROWTH_KIB, string.format("%s: RSS grew by %d KiB over %d calls", what, growth, CALLS))
end
local after = t.settled_rss_kib()
t.say(string.format("%d calls; RSS %d -> %d KiB (%+d KiB)", CALLS * #cases, before, after, after - before))
t.check(after - before < MAX_GROWTH_KIB, string.format("RSS grew by %d KiB", after - before))

t.check(map.generate_text(60, 20, 42) == map.render(map.generate(60, 20, 42)), "the state no longer makes maps")
t.done()
