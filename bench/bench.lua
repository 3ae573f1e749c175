-- bench/bench.lua: the module against the pure-Lua baseline (bench/baseline.lua)
-- and against the table-building floor, on the interpreter that runs it.
--
--   LUA_CPATH_5_4='build/lib/lua/5.4/?.so' lua5.4 bench/bench.lua
--   LUA_CPATH='build/lib/lua/5.1/?.so'     luajit bench/bench.lua
--
-- Environment: BENCH_ROUNDS (default 7) rounds per variant, BENCH_ROUND_S
-- (default 0.2) seconds per round, BENCH_HEAVY_ROUNDS (default 5) rounds for
-- the 1000x1000 workloads, BENCH_ONLY (e.g. "W1,W4") to run some workloads.
--
-- Method: time is process CPU time (os.clock), so that time the process spends
-- descheduled on a shared machine does not count; garbage collection does.
-- Every variant is warmed up (LuaJIT compiles its traces) and calibrated to
-- about BENCH_ROUND_S per round; the variants of one workload then run in
-- turn, round after round, so that drift hits them alike; each figure is the
-- median over the rounds of (round time / operations). Seeds cycle 1..100.
--
-- The floor of a size is the fastest way the module can build a table of rows
-- of that size and read it back as text, with no generation: the fastest of
-- map.new_map + map.render, Lua-built rows + map.render and map.new_map +
-- table.concat (the winner is printed). Lua-built rows + table.concat, which
-- uses no module at all, is measured beside them (it is W6's baseline) but
-- is not a floor candidate.

local here = (arg and arg[0] or ""):match("^(.*)/[^/]*$") or "."
package.path = here .. "/?.lua;" .. package.path

local map = require "map"
local B = require "baseline"

local clock = os.clock

local INTERP = jit and "luajit" or "lua5.4"
local VERSION = jit and jit.version or _VERSION
-- The timing method (CPU-time medians of interleaved rounds after warm-up)
-- and its settings are bench/measure.lua's, shared with the other scripts.
local measure_ = require "measure"
local ROUNDS, HEAVY_ROUNDS, ROUND_S = measure_.ROUNDS, measure_.HEAVY_ROUNDS, measure_.ROUND_S
local wanted, measure, fmt_us, fmt_ratio = measure_.wanted, measure_.measure, measure_.fmt_us, measure_.fmt_ratio
local SEEDS = 100

local function seed(i) return (i - 1) % SEEDS + 1 end

local function out(fmt, ...) io.write(string.format(fmt, ...), "\n") end


---------------------------------------------------------------------------
-- Floors: the fastest way to build and read back a table of rows.

local FLOOR_WAYS = {
  { name = "new_map+render", build = map.new_map, read = map.render, module = true },
  { name = "lua rows+render", build = B.new_map, read = map.render, module = true },
  { name = "new_map+concat", build = map.new_map, read = B.render, module = true },
  { name = "lua rows+concat", build = B.new_map, read = B.render, module = false },
}

local floors = {} -- ["WxH"] = {us = fastest, way = name, all = {name = us}}

local function floor_of(w, h, rounds)
  local key = w .. "x" .. h
  if floors[key] then return floors[key] end
  local variants = {}
  for _, way in ipairs(FLOOR_WAYS) do
    local build, read = way.build, way.read
    variants[#variants + 1] = { name = way.name, fn = function() return #read(build(w, h)) end }
  end
  local r = measure(variants, rounds)
  local best, best_way = math.huge, nil
  for _, way in ipairs(FLOOR_WAYS) do
    if way.module and r[way.name] < best then best, best_way = r[way.name], way.name end
  end
  floors[key] = { us = best, way = best_way, all = r }
  return floors[key]
end

---------------------------------------------------------------------------
-- Workloads.

local rows = {}      -- the main table, in order
local breakdown = {} -- generate-only / render-only rows

local function row(t) rows[#rows + 1] = t end

local function check_self()
  -- The baseline does the module's work: quick sanity checks before timing.
  for s = 1, 20 do
    local m = B.generate(60, 20, s)
    assert(map.reachable(m), "baseline rooms map not reachable")
    assert(map.render(m) == B.render(m), "renders differ")
    assert(B.reachable(map.generate(60, 20, s)), "baseline reachable disagrees")
    local c = B.generate { width = 80, height = 50, seed = s, algorithm = "cave" }
    local walls = 0
    for y = 1, 50 do
      for x = 1, 80 do
        if c[y][x] == "#" then walls = walls + 1 end
      end
    end
    assert(80 * 50 - walls == 1872, "baseline cave carves the wrong count")
    assert(map.reachable(c), "baseline cave not reachable")
  end
end

local function rooms_workload(id, w, h)
  if not wanted(id) then return end
  local fl = floor_of(w, h, ROUNDS)
  local r = measure({
    { name = "module", fn = function(i) return #map.render(map.generate(w, h, seed(i))) end },
    { name = "baseline", fn = function(i) return #B.render(B.generate(w, h, seed(i))) end },
    { name = "module gen", fn = function(i) return #map.generate(w, h, seed(i)) end },
    { name = "baseline gen", fn = function(i) return #B.generate(w, h, seed(i)) end },
  }, ROUNDS)
  row {
    id = id, what = string.format("render(generate(%d, %d, seed))", w, h),
    module = r.module, baseline = r.baseline, floor = fl.us, floor_way = fl.way,
  }
  breakdown[#breakdown + 1] = { what = string.format("generate(%d, %d, seed) only", w, h),
    module = r["module gen"], baseline = r["baseline gen"] }
  return r
end

local W1

local function run_all()
  check_self()

  W1 = rooms_workload("W1", 60, 20)
  rooms_workload("W2", 200, 60)

  if wanted("W3") then
    local fl = floor_of(1000, 1000, HEAVY_ROUNDS)
    local opts = function(i) return { width = 1000, height = 1000, seed = i, algorithm = "cave" } end
    local r = measure({
      { name = "module", fn = function(i) return #map.render(map.generate(opts(i))) end },
      { name = "baseline", fn = function(i) return #B.render(B.generate(opts(i))) end },
    }, HEAVY_ROUNDS)
    row { id = "W3", what = "render(generate{1000x1000 cave})", module = r.module,
      baseline = r.baseline, floor = fl.us, floor_way = fl.way }
  end

  if wanted("W4") then
    local maps = {}
    for s = 1, SEEDS do maps[s] = map.generate(60, 20, s) end
    local r = measure({
      { name = "module", fn = function(i) return map.reachable(maps[seed(i)]) and 1 or 0 end },
      { name = "baseline", fn = function(i) return B.reachable(maps[seed(i)]) and 1 or 0 end },
      { name = "read render", fn = function(i) return #map.render(maps[seed(i)]) end },
      { name = "read concat", fn = function(i) return #B.render(maps[seed(i)]) end },
    }, ROUNDS)
    row { id = "W4", what = "reachable(m), 60x20 maps", module = r.module, baseline = r.baseline,
      floor = r["read render"], floor_way = "map.render(m): the read alone" }
    breakdown[#breakdown + 1] = { what = "read a 60x20 map back: map.render(m) vs table.concat",
      module = r["read render"], baseline = r["read concat"] }
  end

  if wanted("W5") then
    local r = measure({
      { name = "module", fn = function(i) return #map.generate_text(60, 20, seed(i)) end },
    }, ROUNDS)
    row { id = "W5", what = "generate_text(60, 20, seed) vs baseline W1", module = r.module,
      baseline = W1 and W1.baseline, floor = nil }
  end

  if wanted("W6") then
    for _, size in ipairs { { 60, 20, ROUNDS }, { 1000, 1000, HEAVY_ROUNDS } } do
      local w, h = size[1], size[2]
      local fl = floor_of(w, h, size[3])
      row { id = "W6", what = string.format("new_map + render, %dx%d", w, h),
        module = fl.all["new_map+render"], baseline = fl.all["lua rows+concat"],
        floor = fl.us, floor_way = fl.way }
    end
  end
end

---------------------------------------------------------------------------
-- Report.

-- The issue's targets: speedup vs baseline (by interpreter) and module/floor.
local TARGETS = {
  W1 = { speed = jit and 1.1 or 1.5, floor = 1.3 },
  W2 = { speed = jit and 1.1 or 1.5, floor = 1.3 },
  W3 = { speed = jit and 2 or 4 },
  W4 = { speed = 3 },
  W5 = { speed = 10 },
}

local function verdict(t)
  local target = TARGETS[t.id]
  if not target then return "—", "" end
  local parts, ok = {}, true
  local speed = t.baseline / t.module
  parts[#parts + 1] = string.format(">= %.1fx baseline", target.speed)
  if speed < target.speed then ok = false end
  if target.floor then
    parts[#parts + 1] = string.format("<= %.1fx floor", target.floor)
    if t.module / t.floor > target.floor then ok = false end
  end
  return table.concat(parts, ", "), ok and "met" or "MISSED"
end

local t_start = clock()
run_all()
local elapsed = clock() - t_start

out("")
out("### %s (%s)", INTERP, VERSION)
out("")
out("CPU time per operation (os.clock), median of %d rounds of ~%.2f s (%d for 1000x1000) after warm-up; seeds 1..%d.",
  ROUNDS, ROUND_S, HEAVY_ROUNDS, SEEDS)
out("speedup = baseline / module; module/floor = module / floor (1.00x = at the floor).")
out("")
out("| id | workload | module µs/op | baseline µs/op | floor µs/op | speedup | module/floor | target | verdict |")
out("| --- | --- | ---: | ---: | ---: | ---: | ---: | --- | --- |")
for _, t in ipairs(rows) do
  local target, v = verdict(t)
  out("| %s | %s | %s | %s | %s | %s | %s | %s | %s |", t.id, t.what, fmt_us(t.module), fmt_us(t.baseline),
    fmt_us(t.floor), fmt_ratio(t.baseline and t.baseline / t.module),
    fmt_ratio(t.floor and t.module / t.floor), target, v)
end
out("")
if next(floors) then
  out("Floor candidates (µs/op). The floor is the fastest of the first three; the last,")
  out("pure Lua (no module), is shown for comparison and is W6's baseline.")
  out("")
  out("| size | new_map+render | lua rows+render | new_map+concat | (pure Lua) lua rows+concat | floor |")
  out("| --- | ---: | ---: | ---: | ---: | --- |")
  local keys = {}
  for k in pairs(floors) do keys[#keys + 1] = k end
  table.sort(keys, function(a, b) return #a < #b or (#a == #b and a < b) end)
  for _, k in ipairs(keys) do
    local f = floors[k]
    out("| %s | %s | %s | %s | %s | %s |", k, fmt_us(f.all["new_map+render"]), fmt_us(f.all["lua rows+render"]),
      fmt_us(f.all["new_map+concat"]), fmt_us(f.all["lua rows+concat"]), f.way)
  end
  out("")
end
if #breakdown > 0 then
  out("Breakdown (µs/op): generation alone (no render), and reading a map back.")
  out("")
  out("| workload | module | baseline | speedup |")
  out("| --- | ---: | ---: | ---: |")
  for _, t in ipairs(breakdown) do
    out("| %s | %s | %s | %s |", t.what, fmt_us(t.module), fmt_us(t.baseline), fmt_ratio(t.baseline / t.module))
  end
  out("")
end
out("(%s: %.0f s of CPU for this table; sink %d)", INTERP, elapsed, measure_.sink() % 1000)
