-- bench/peers/floor_map.lua: `lvl:distances`, `lvl:flee`, `lvl:path`,
-- `lvl:explore` and `lvl:fov(p, r, {into = memory})` timed on the
-- interpreter that runs it, on the levels floor.c times the floor on
-- (bench/peers/README.md, "The floor").
--
--   lua5.4 bench/peers/floor_map.lua NSMALL NBIG [BUDGET_S]
--
-- with the module on the path (bench/interpreters.sh). The levels are
-- map.level{width =, height =, seed = s, algorithm = "cave"}, 80x50 for seeds
-- 1..NSMALL and 1000x1000 for 1..NBIG: the ones fov_map.lua exports.
--
-- Output, one line each (floor.c's format):
--   time <impl> <size> <variant> <µs per call> <calls>
--   count <impl> <size> <seed> <variant> <cells>      (with FOV_COUNTS set)
-- impl and variant:
--   lvl_distances all / max10: lvl:distances(p) / lvl:distances(p, {max = 10}),
--       p = lvl.player read once per level before timing
--   lvl_distances far10max10 (1000x1000): lvl:distances(sources, {max = 10}),
--       the ten open cells floor.c's floor_sources picks
--   lvl_fov_into 8 / unlimited: lvl:fov(p, 8, o) / lvl:fov(p, nil, o),
--       o = {into = lvl:field()} made once per level
--   lvl_flee max10 / far10max10: lvl:flee with the sources and options of
--       lvl_distances max10 / far10max10
--   lvl_path stairs: lvl:path(p, lvl.stairs)
--   lvl_explore seen: lvl:explore(known, p), known the memory
--       lvl:fov(p, nil, {into = known}) marks, made once per level
-- Timing as fov_map.lua's: CPU time (os.clock), a warm-up of a quarter of
-- the budget, then passes over the levels of one size until the budget is
-- spent; the collector's work is part of the time.

if os.getenv("FOV_GC") and not jit then collectgarbage(os.getenv("FOV_GC")) end

local map = require "map"

local clock, floor = os.clock, math.floor
local counts = { tonumber(arg[1]), tonumber(arg[2]) }
local BUDGET = tonumber(arg[3]) or 0.3
assert(counts[1] and counts[2], "usage: floor_map.lua NSMALL NBIG [BUDGET_S]")

local SIZES = { { name = "80x50", w = 80, h = 50 }, { name = "1000x1000", w = 1000, h = 1000 } }

local last -- every call's result lands here, so that no call is dead code

local function time_workload(impl, size, variant, n, fn)
  local i = 0
  local t0 = clock()
  while clock() - t0 < BUDGET / 4 do
    for _ = 1, n do i = i % n + 1; fn(i) end
  end
  collectgarbage("collect")
  local calls, spent = 0, 0
  while spent < BUDGET or calls < n do
    local s = clock()
    for _ = 1, n do i = i % n + 1; fn(i) end
    spent = spent + (clock() - s)
    calls = calls + n
  end
  io.write(string.format("time %s %s %s %.4f %d\n", impl, size, variant, spent / calls * 1e6, calls))
  io.flush()
end

-- floor.c's floor_sources: for k = 0..9 the first open cell ('#' blocks), in
-- row-major order (wrapping from the last cell to the first), from the
-- 0-based (floor(w * (2k + 1) / 20), floor(h * (2k + 1) / 20)).
local function far_sources(lvl, w, h)
  local text, sources = lvl:render(), {}
  for k = 0, 9 do
    local i = floor(h * (2 * k + 1) / 20) * w + floor(w * (2 * k + 1) / 20)
    local tried = 0
    while tried < w * h do
      local x, y = i % w, floor(i / w)
      if text:byte(y * (w + 1) + x + 1) ~= 35 then break end
      i, tried = (i + 1) % (w * h), tried + 1
    end
    assert(tried < w * h, "no open cell for a source")
    sources[k + 1] = { x = i % w + 1, y = floor(i / w) + 1 }
  end
  return sources
end

local sets = {}
for k, size in ipairs(SIZES) do
  local set = { name = size.name, n = counts[k], lvl = {}, p = {}, into = {}, far = {}, goal = {}, known = {} }
  for s = 1, set.n do
    local lvl = map.level { width = size.w, height = size.h, seed = s, algorithm = "cave" }
    set.lvl[s], set.p[s] = lvl, lvl.player
    set.into[s] = { into = lvl:field() }
    set.far[s] = far_sources(lvl, size.w, size.h)
    set.goal[s], set.known[s] = lvl.stairs, lvl:field()
    lvl:fov(lvl.player, nil, { into = set.known[s] })
  end
  sets[k] = set
end
collectgarbage("collect")

local MAX10 = { max = 10 }
local function workloads(set)
  local L, P, I, F, G, K = set.lvl, set.p, set.into, set.far, set.goal, set.known
  local w = {
    { "lvl_distances", "all", function(i) last = L[i]:distances(P[i]) end },
    { "lvl_distances", "max10", function(i) last = L[i]:distances(P[i], MAX10) end },
    { "lvl_fov_into", "8", function(i) last = L[i]:fov(P[i], 8, I[i]) end },
    { "lvl_fov_into", "unlimited", function(i) last = L[i]:fov(P[i], nil, I[i]) end },
    { "lvl_flee", "max10", function(i) last = L[i]:flee(P[i], MAX10) end },
    { "lvl_path", "stairs", function(i) last = L[i]:path(P[i], G[i]) end },
    { "lvl_explore", "seen", function(i) last = L[i]:explore(K[i], P[i]) end },
  }
  if set.name == "1000x1000" then
    table.insert(w, 3, { "lvl_distances", "far10max10", function(i) last = L[i]:distances(F[i], MAX10) end })
    table.insert(w, { "lvl_flee", "far10max10", function(i) last = L[i]:flee(F[i], MAX10) end })
  end
  return w
end

for _, set in ipairs(sets) do
  for _, wk in ipairs(workloads(set)) do time_workload(wk[1], set.name, wk[2], set.n, wk[3]) end
end

-- Cells reached (a distance, not false) and cells seen (into a new memory).
local function reached(f)
  local c = 0
  for y = 1, f.height do
    for x = 1, f.width do
      if f:get(x, y) then c = c + 1 end
    end
  end
  return c
end

if os.getenv("FOV_COUNTS") then
  for _, set in ipairs(sets) do
    for s = 1, set.n do
      local lvl, p = set.lvl[s], set.p[s]
      local rows = {
        { "lvl_distances", "all", reached(lvl:distances(p)) },
        { "lvl_distances", "max10", reached(lvl:distances(p, MAX10)) },
        { "lvl_fov_into", "8", lvl:fov(p, 8, { into = lvl:field() }) },
        { "lvl_fov_into", "unlimited", lvl:fov(p, nil, { into = lvl:field() }) },
        { "lvl_flee", "max10", reached(lvl:flee(p, MAX10)) },
        { "lvl_path", "stairs", #lvl:path(p, set.goal[s]) },
        { "lvl_explore", "seen", #(lvl:explore(set.known[s], p) or {}) },
      }
      if set.name == "1000x1000" then
        table.insert(rows, { "lvl_distances", "far10max10", reached(lvl:distances(set.far[s], MAX10)) })
        table.insert(rows, { "lvl_flee", "far10max10", reached(lvl:flee(set.far[s], MAX10)) })
      end
      for _, r in ipairs(rows) do
        io.write(string.format("count %s %s %d %s %d\n", r[1], set.name, s, r[2], r[3]))
      end
    end
  end
end

assert(last ~= nil)
