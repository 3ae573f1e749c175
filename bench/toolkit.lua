-- bench/toolkit.lua: map.fov, map.distances and map.path against the pure-Lua
-- baseline, on the interpreter that runs it. The baseline is the references
-- the specs check the module against (spec/reference/fov.lua, distances.lua,
-- path.lua).
--
--   LUA_CPATH_5_4='build/lib/lua/5.4/?.so' lua5.4 bench/toolkit.lua
--   LUA_CPATH='build/lib/lua/5.1/?.so'     luajit bench/toolkit.lua
--
-- Method and settings (BENCH_ROUNDS, BENCH_HEAVY_ROUNDS, BENCH_ROUND_S,
-- BENCH_ONLY, e.g. "T1,T6") as bench/bench.lua: see bench/measure.lua.
-- Levels are caves, map.generate{width=, height=, seed=, algorithm="cave"},
-- built once before timing: 80x50 for seeds 1..SEEDS, 1000x1000 for seeds
-- 1..BIG_SEEDS; operations cycle through them. Before timing, the module's
-- results are compared with the baseline's on every level used; a difference
-- is printed (and the table still made).

local here = (arg and arg[0] or ""):match("^(.*)/[^/]*$") or "."
package.path = here .. "/?.lua;" .. here .. "/../?.lua;" .. package.path

local map = require "map"
local path_reference = require "spec.reference.path"
local B = {
  fov = require("spec.reference.fov").fov,
  distances = require("spec.reference.distances").distances,
  path = path_reference.path,
  path_bfs = path_reference.path_bfs,
}
local measure = require "measure"

local clock = os.clock

local INTERP = jit and "luajit" or "lua5.4"
local VERSION = jit and jit.version or _VERSION
local SEEDS = 50
local BIG_SEEDS = 3
local RADIUS = 8
local SPEED_TARGET = jit and 1.2 or 2

local has_module = map.fov and map.distances and map.path and true or false

local function out(fmt, ...) io.write(string.format(fmt, ...), "\n") end

local function cave(w, h, seed)
  return map.generate { width = w, height = h, seed = seed, algorithm = "cave" }
end

-- The cell with the largest distance in d, the first in row order on a tie.
local function farthest(d)
  local bx, by, best = nil, nil, -1
  for y = 1, #d do
    local row = d[y]
    for x = 1, #row do
      local v = row[x]
      if v and v > best then bx, by, best = x, y, v end
    end
  end
  return bx, by
end

---------------------------------------------------------------------------
-- Levels.

-- The path's ends: the cell farthest from @ by distances, then the cell
-- farthest from that one.
local small, big, ends = {}, {}, {}
local dist = has_module and map.distances or B.distances
for s = 1, SEEDS do
  local m = cave(80, 50, s)
  small[s] = m
  local ax, ay = farthest(dist(m, m.player))
  local bx, by = farthest(dist(m, { x = ax, y = ay }))
  ends[s] = { ax, ay, bx, by }
end
for s = 1, BIG_SEEDS do big[s] = cave(1000, 1000, s) end

local function pick(levels, i) return levels[(i - 1) % #levels + 1] end

---------------------------------------------------------------------------
-- The module against the baseline, on every level timed.

local note, report_mismatches = measure.mismatches("baseline")

local function same_rows(a, b, h, w)
  for y = 1, h do
    local ra, rb = a[y], b[y]
    for x = 1, w do
      if ra[x] ~= rb[x] then return string.format("cell (%d,%d): module %s, baseline %s", x, y,
          tostring(ra[x]), tostring(rb[x])) end
    end
  end
end


local function check()
  local function check_level(m, name, radii)
    local p = m.player
    for _, r in ipairs(radii) do -- false: unlimited
      note(string.format("fov %s from @ (%d,%d) radius %s", name, p.x, p.y, r or "unlimited"),
        same_rows(map.fov(m, p.x, p.y, r or nil), B.fov(m, p.x, p.y, r or nil), m.height, m.width))
    end
    note(string.format("distances %s from @", name),
      same_rows(map.distances(m, p), B.distances(m, p), m.height, m.width))
  end
  for s = 1, SEEDS do
    local m = small[s]
    check_level(m, "80x50 cave seed " .. s, { RADIUS, false })
    local e = ends[s]
    local a, b = map.path(m, e[1], e[2], e[3], e[4]), B.path(m, e[1], e[2], e[3], e[4])
    local what = string.format("path 80x50 cave seed %d (%d,%d)->(%d,%d)", s, e[1], e[2], e[3], e[4])
    if not a or #a ~= #b then
      note(what, string.format("module %s steps, baseline %d", a and #a - 1 or "no path", #b - 1))
    else
      for k = 1, #a do
        if a[k].x ~= b[k].x or a[k].y ~= b[k].y then
          note(what, string.format("step %d: module (%d,%d), baseline (%d,%d)", k, a[k].x, a[k].y, b[k].x, b[k].y))
          break
        end
      end
    end
  end
  for s = 1, BIG_SEEDS do check_level(big[s], "1000x1000 cave seed " .. s, { RADIUS }) end
end

---------------------------------------------------------------------------
-- Workloads.

local rows = {}
local extra = {}

-- Times the module against the baseline (and any `also` variants, timed in
-- the same rounds) and adds the workload's row.
local function workload(id, what, rounds, module_fn, baseline_fn, also)
  if not measure.wanted(id) then return end
  local variants = { { name = "baseline", fn = baseline_fn } }
  if has_module then table.insert(variants, 1, { name = "module", fn = module_fn }) end
  for _, v in ipairs(also or {}) do variants[#variants + 1] = v end
  local r = measure.measure(variants, rounds)
  rows[#rows + 1] = { id = id, what = what, module = r.module, baseline = r.baseline }
  return r
end

local function run_all()
  local R = RADIUS
  local t1 = workload("T1", string.format("fov(m, @, %d), 80x50 cave", R), measure.ROUNDS,
    function(i) local m = pick(small, i) return #map.fov(m, m.player.x, m.player.y, R) end,
    function(i) local m = pick(small, i) return #B.fov(m, m.player.x, m.player.y, R) end)
  local t2 = workload("T2", string.format("fov(m, @, %d), 1000x1000 cave", R), measure.HEAVY_ROUNDS,
    function(i) local m = pick(big, i) return #map.fov(m, m.player.x, m.player.y, R) end,
    function(i) local m = pick(big, i) return #B.fov(m, m.player.x, m.player.y, R) end)
  workload("T3", "fov(m, @), unlimited, 80x50 cave", measure.ROUNDS,
    function(i) local m = pick(small, i) return #map.fov(m, m.player.x, m.player.y) end,
    function(i) local m = pick(small, i) return #B.fov(m, m.player.x, m.player.y) end)
  workload("T4", "distances(m, m.player), 80x50 cave", measure.ROUNDS,
    function(i) local m = pick(small, i) return #map.distances(m, m.player) end,
    function(i) local m = pick(small, i) return #B.distances(m, m.player) end)
  workload("T5", "distances(m, m.player), 1000x1000 cave", measure.HEAVY_ROUNDS,
    function(i) local m = pick(big, i) return #map.distances(m, m.player) end,
    function(i) local m = pick(big, i) return #B.distances(m, m.player) end)
  local t6 = workload("T6", "path between the two farthest cells, 80x50 cave (baseline A*)", measure.ROUNDS,
    function(i)
      local m, e = pick(small, i), pick(ends, i)
      return #map.path(m, e[1], e[2], e[3], e[4])
    end,
    function(i)
      local m, e = pick(small, i), pick(ends, i)
      return #B.path(m, e[1], e[2], e[3], e[4])
    end, { {
      name = "bfs",
      fn = function(i)
        local m, e = pick(small, i), pick(ends, i)
        return #B.path_bfs(m, e[1], e[2], e[3], e[4])
      end,
    } })
  if t6 then
    -- Not a target: with unit costs, pure Lua does better without a heap.
    rows[#rows + 1] = { id = "T6b", what = "the same, baseline by BFS from the goal + walk (unit costs only)",
      module = t6.module, baseline = t6.bfs, info = true }
  end

  -- What fov at a small radius must do whatever the radius: one row table
  -- per map row (vis has rows 1..height).
  if t1 and t2 then
    local floor_r = measure.measure({
      { name = "80x50", fn = function() local v = {} for y = 1, 50 do v[y] = {} end return #v end },
      { name = "1000x1000", fn = function() local v = {} for y = 1, 1000 do v[y] = {} end return #v end },
    }, measure.ROUNDS)
    extra.fov_scale = { t1 = t1, t2 = t2, rows = floor_r }
  end
end

---------------------------------------------------------------------------
-- Report.

local t_start = clock()
if has_module then check() end
run_all()
local elapsed = clock() - t_start
local fmt_us, fmt_ratio = measure.fmt_us, measure.fmt_ratio

out("")
out("### %s (%s): fov, distances, path", INTERP, VERSION)
out("")
if not has_module then
  out("**map.fov, map.distances or map.path is missing from this build: baseline only.**")
  out("")
end
out("CPU time per operation (os.clock), median of %d rounds of ~%.2f s (%d for 1000x1000) after warm-up;",
  measure.ROUNDS, measure.ROUND_S, measure.HEAVY_ROUNDS)
out("caves seeds 1..%d at 80x50, 1..%d at 1000x1000; origin @ (m.player). speedup = baseline / module.",
  SEEDS, BIG_SEEDS)
out("")
out("| id | workload | module µs/op | baseline µs/op | speedup | target | verdict |")
out("| --- | --- | ---: | ---: | ---: | --- | --- |")
for _, t in ipairs(rows) do
  local speed = t.module and t.baseline / t.module
  local target = t.info and "(for comparison)" or string.format(">= %.1fx baseline", SPEED_TARGET)
  local verdict = (speed and not t.info) and (speed >= SPEED_TARGET and "met" or "MISSED") or "—"
  out("| %s | %s | %s | %s | %s | %s | %s |", t.id, t.what, fmt_us(t.module), fmt_us(t.baseline),
    fmt_ratio(speed), target, verdict)
end
out("")
local sc = extra.fov_scale
if sc then
  out("fov radius %d, 1000x1000 / 80x50 (same work near @, 20x the rows): module %s (%s -> %s µs), baseline %s;",
    RADIUS, fmt_ratio(sc.t1.module and sc.t2.module / sc.t1.module), fmt_us(sc.t1.module), fmt_us(sc.t2.module),
    fmt_ratio(sc.t2.baseline / sc.t1.baseline))
  out("creating the empty row tables alone in Lua: %s µs for 50 rows, %s µs for 1000.",
    fmt_us(sc.rows["80x50"]), fmt_us(sc.rows["1000x1000"]))
  out("")
end
if has_module then
  report_mismatches(out)
  out("")
end
out("(%s: %.0f s of CPU for this table; sink %d)", INTERP, elapsed, measure.sink() % 1000)
