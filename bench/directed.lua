-- bench/directed.lua: a level a designer directs against a plain one, at
-- 80x50 and 200x100, against building the same table of rows in Lua, on the
-- interpreter that runs it.
--
--   LUA_CPATH_5_4='build/lib/lua/5.4/?.so' lua5.4 bench/directed.lua
--   LUA_CPATH='build/lib/lua/5.1/?.so'     luajit bench/directed.lua
--
-- Method and settings (BENCH_ROUNDS, BENCH_HEAVY_ROUNDS, BENCH_ROUND_S) as
-- bench/bench.lua: see bench/measure.lua. BENCH_ONLY takes algorithm names.
-- Each algorithm and size is one workload of four variants timed in the
-- same rounds, seeds 1..SEEDS in turn:
--
--   plain      #map.generate{width=, height=, seed=, algorithm=}
--   vaults     the same with 3 vaults (rotate = true) only
--   arrive     the same with arrive = {x = 5, y = 5} only
--   place      the same with place of 10 "M", min = 8, hidden = true only
--   directed   all three
--   text       #map.generate_text of the directed level (no table of rows)
--   lua rows   #B.new_map(w, h): a table of h rows of w "#" built in Lua
--
-- The target: directed - plain < lua rows (what the options add costs less
-- than building the level's rows in Lua). The single-option variants say
-- where the added time goes.

local here = (arg and arg[0] or ""):match("^(.*)/[^/]*$") or "."
package.path = here .. "/?.lua;" .. package.path

local map = require "map"
local B = require "baseline"
local measure = require "measure"

local clock = os.clock

local INTERP = jit and "luajit" or "lua5.4"
local VERSION = jit and jit.version or _VERSION
local SEEDS = 100
local SIZES = {
  { w = 80, h = 50, rounds = measure.ROUNDS },
  { w = 200, h = 100, rounds = measure.ROUNDS },
}
local ALGORITHMS = { "rooms", "cave" }

local VAULTS = {
  { rows = { "#####+#####", "#.........#", "+....M....+", "#.........#", "#####+#####" }, rotate = true },
  { rows = { "##.##", "#~~~#", ".~_~.", "#~~~#", "##.##" }, rotate = true },
  { rows = { "#.#####", "#...#.#", "###.#.#", "#.....+", "#######" }, rotate = true },
}
local PLACE = { { char = "M", count = 10, min = 8, hidden = true } }

local function out(fmt, ...) io.write(string.format(fmt, ...), "\n") end

local function plain(w, h, s, algorithm)
  return { width = w, height = h, seed = s, algorithm = algorithm }
end

local ARRIVE = { x = 5, y = 5 }

local function with(w, h, s, algorithm, vaults, arrive, place)
  local o = plain(w, h, s, algorithm)
  o.vaults, o.arrive, o.place = vaults, arrive, place
  return o
end

local function directed(w, h, s, algorithm) return with(w, h, s, algorithm, VAULTS, ARRIVE, PLACE) end

-- The seeds (of 1..SEEDS) whose directed level can be made: each must hold
-- its vaults and ten hidden cells 8 steps away.
local function seeds_for(w, h, algorithm)
  local ok = {}
  for s = 1, SEEDS do
    if pcall(map.generate_text, directed(w, h, s, algorithm)) then ok[#ok + 1] = s end
  end
  assert(#ok >= SEEDS / 2, algorithm .. ": too few seeds take the directed options")
  return ok
end

local rows = {}

local t_start = clock()
for _, size in ipairs(SIZES) do
  local w, h = size.w, size.h
  for _, algorithm in ipairs(ALGORITHMS) do
    if measure.wanted(algorithm) then
      local seeds = seeds_for(w, h, algorithm)
      local function seed(i) return seeds[(i - 1) % #seeds + 1] end
      local m = map.generate(directed(w, h, seeds[1], algorithm))
      assert(#m.vaults == 3 and #m.placed == 10 and m.up, "the directed level lacks what it asked for")
      local r = measure.measure({
        { name = "plain", fn = function(i) return #map.generate(plain(w, h, seed(i), algorithm)) end },
        { name = "vaults", fn = function(i) return #map.generate(with(w, h, seed(i), algorithm, VAULTS)) end },
        { name = "arrive", fn = function(i) return #map.generate(with(w, h, seed(i), algorithm, nil, ARRIVE)) end },
        { name = "place", fn = function(i) return #map.generate(with(w, h, seed(i), algorithm, nil, nil, PLACE)) end },
        { name = "directed", fn = function(i) return #map.generate(directed(w, h, seed(i), algorithm)) end },
        { name = "text", fn = function(i) return #map.generate_text(directed(w, h, seed(i), algorithm)) end },
        { name = "rows", fn = function() return #B.new_map(w, h) end },
      }, size.rounds)
      rows[#rows + 1] = { algorithm = algorithm, w = w, h = h, r = r, seeds = #seeds }
    end
  end
end
local elapsed = clock() - t_start
local fmt_us, fmt_ratio = measure.fmt_us, measure.fmt_ratio

out("")
out("### %s (%s): directed levels", INTERP, VERSION)
out("")
out("CPU time per call (os.clock), median of %d rounds of ~%.2f s after warm-up; the seven variants of a row",
  measure.ROUNDS, measure.ROUND_S)
out("timed in the same rounds, over the seeds of 1..%d that take the options. directed = 3 vaults (rotate),", SEEDS)
out("arrive, place 10 M (min 8, hidden); added = directed - plain; +vaults, +arrive, +place = each option alone")
out("minus plain; lua rows = bench/baseline.lua's new_map(w, h); added/rows: target < 1. ns/cell = directed / (w * h).")
out("")
out("| algorithm | size | seeds | plain µs | +vaults µs | +arrive µs | +place µs | directed µs | added µs "
  .. "| directed text µs | lua rows µs | added/rows | ns/cell | added ns/cell | target < 1 |")
out("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
for _, t in ipairs(rows) do
  local r, cells = t.r, t.w * t.h
  local added = r.directed - r.plain
  local ratio = added / r.rows
  out("| %s | %dx%d | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %.1f | %.1f | %s |", t.algorithm, t.w, t.h,
    t.seeds, fmt_us(r.plain), fmt_us(r.vaults - r.plain), fmt_us(r.arrive - r.plain), fmt_us(r.place - r.plain),
    fmt_us(r.directed), fmt_us(added), fmt_us(r.text), fmt_us(r.rows), fmt_ratio(ratio), r.directed * 1000 / cells,
    added * 1000 / cells, ratio < 1 and "met" or "MISSED")
end
out("")
out("(%s: %.0f s of CPU for this table; sink %d)", INTERP, elapsed, measure.sink() % 1000)
out("")
