-- bench/world.lua: map.noise and map.light against pure Lua, on the
-- interpreter that runs it (issue 29). libtcod's and rot.js's side by side
-- are bench/peers/world_run.sh's; the overworld generator is timed with the
-- others by bench/generators.lua.
--
--   LUA_CPATH_5_4='build/lib/lua/5.4/?.so' lua5.4 bench/world.lua
--   LUA_CPATH='build/lib/lua/5.1/?.so'     luajit bench/world.lua
--
-- Method and settings (BENCH_ROUNDS, BENCH_HEAVY_ROUNDS, BENCH_ROUND_S,
-- BENCH_ONLY, e.g. "W1,W5") as bench/bench.lua: see bench/measure.lua.
--
-- Noise: a 1000x1000 grid (`n:grid(1000, 1000)`, rows of numbers) and a
-- million `n:get(x, y)` in a Lua loop over the same cells, one and four
-- octaves of simplex noise at frequency 1/16, and one of Perlin's; the
-- baseline is the same algorithms written in Lua (below: Gustavson's
-- simplex and Perlin's improved noise at z = 0, a permutation of their
-- own, octaves summed as the module sums them), a table of rows filled by
-- its get. Light: `map.light(m, lights)` with 10 lights of radius 8 on 80x50
-- caves (seeds 1..SEEDS, the lights on open cells drawn once) and
-- `lvl:light` on their levels; the baseline spec/reference/light.lua on
-- spec/reference/fov.lua, all Lua. Before timing, map.light is checked
-- against spec/reference/light.lua on map.fov on every level timed.

local here = (arg and arg[0] or ""):match("^(.*)/[^/]*$") or "."
package.path = here .. "/?.lua;" .. here .. "/../?.lua;" .. package.path

local map = require "map"
local measure = require "measure"
local ref_light = require("spec.reference.light").light
local ref_fov = require("spec.reference.fov").fov

local clock = os.clock
local floor = math.floor

local INTERP = jit and "luajit" or "lua5.4"
local VERSION = jit and jit.version or _VERSION
local SEEDS = 20
local SIDE = 1000

local function out(fmt, ...) io.write(string.format(fmt, ...), "\n") end

---------------------------------------------------------------------------
-- The baseline noise, in Lua.

-- A permutation of 0..255, doubled (Park-Miller draws, fixed seed).
local function permutation(seed)
  local p, state = {}, seed
  for i = 0, 255 do p[i] = i end
  for i = 255, 1, -1 do
    state = state * 16807 % 2147483647
    local j = state % (i + 1)
    p[i], p[j] = p[j], p[i]
  end
  for i = 0, 255 do p[i + 256] = p[i] end
  return p
end

local F2, G2 = 0.5 * (math.sqrt(3) - 1), (3 - math.sqrt(3)) / 6
local GX = { [0] = 1, -1, 1, -1, 1, -1, 1, -1, 0, 0, 0, 0 }
local GY = { [0] = 1, 1, -1, -1, 0, 0, 0, 0, 1, -1, 1, -1 }

-- Gustavson's 2-D simplex noise.
local function simplex(p, x, y)
  local s = (x + y) * F2
  local i, j = floor(x + s), floor(y + s)
  local t = (i + j) * G2
  local x0, y0 = x - (i - t), y - (j - t)
  local i1, j1 = 0, 1
  if x0 > y0 then i1, j1 = 1, 0 end
  local x1, y1 = x0 - i1 + G2, y0 - j1 + G2
  local x2, y2 = x0 - 1 + 2 * G2, y0 - 1 + 2 * G2
  local ii, jj = i % 256, j % 256
  local n = 0
  local t0 = 0.5 - x0 * x0 - y0 * y0
  if t0 > 0 then
    local g = p[ii + p[jj]] % 12
    t0 = t0 * t0
    n = n + t0 * t0 * (GX[g] * x0 + GY[g] * y0)
  end
  local t1 = 0.5 - x1 * x1 - y1 * y1
  if t1 > 0 then
    local g = p[ii + i1 + p[jj + j1]] % 12
    t1 = t1 * t1
    n = n + t1 * t1 * (GX[g] * x1 + GY[g] * y1)
  end
  local t2 = 0.5 - x2 * x2 - y2 * y2
  if t2 > 0 then
    local g = p[ii + 1 + p[jj + 1]] % 12
    t2 = t2 * t2
    n = n + t2 * t2 * (GX[g] * x2 + GY[g] * y2)
  end
  return 70 * n
end

local PX = { [0] = 1, -1, 1, -1, 1, -1, 1, -1, 0, 0, 0, 0, 1, 0, -1, 0 }
local PY = { [0] = 1, 1, -1, -1, 0, 0, 0, 0, 1, -1, 1, -1, 1, -1, 1, -1 }

local function fade(t) return t * t * t * (t * (t * 6 - 15) + 10) end

-- Perlin's improved noise at z = 0.
local function perlin(p, x, y)
  local xf, yf = floor(x), floor(y)
  local xi, yi = xf % 256, yf % 256
  x, y = x - xf, y - yf
  local u, v = fade(x), fade(y)
  local a, b = p[xi] + yi, p[xi + 1] + yi
  local aa, ab, ba, bb = p[p[a]] % 16, p[p[a + 1]] % 16, p[p[b]] % 16, p[p[b + 1]] % 16
  local n00 = PX[aa] * x + PY[aa] * y
  local n10 = PX[ba] * (x - 1) + PY[ba] * y
  local n01 = PX[ab] * x + PY[ab] * (y - 1)
  local n11 = PX[bb] * (x - 1) + PY[bb] * (y - 1)
  local nx0 = n00 + u * (n10 - n00)
  local nx1 = n01 + u * (n11 - n01)
  return nx0 + v * (nx1 - nx0)
end

-- A noise of `octaves` octaves of `base` (simplex or perlin), as the module
-- sums them: frequency 1/16 doubling, weight halving, divided by their sum.
local function lua_noise(base, octaves)
  local perms, freq, weight, total = {}, {}, {}, 0
  for k = 1, octaves do
    perms[k] = permutation(k * 7919)
    freq[k] = (1 / 16) * 2 ^ (k - 1)
    weight[k] = 0.5 ^ (k - 1)
    total = total + weight[k]
  end
  local norm = 1 / total
  if octaves == 1 then
    local p, f = perms[1], freq[1]
    return function(x, y) return base(p, x * f, y * f) end
  end
  return function(x, y)
    local sum = 0
    for k = 1, octaves do sum = sum + weight[k] * base(perms[k], x * freq[k], y * freq[k]) end
    return sum * norm
  end
end

-- A SIDE x SIDE table of rows of get(x, y).
local function lua_grid(get)
  local rows = {}
  for y = 1, SIDE do
    local row = {}
    for x = 1, SIDE do row[x] = get(x, y) end
    rows[y] = row
  end
  return rows
end

---------------------------------------------------------------------------
-- Levels and lights.

local levels, natives, lights = {}, {}, {}
for s, c in ipairs(require("lit_caves")(SEEDS)) do
  levels[s], natives[s], lights[s] = c.m, c.lvl, c.lights
end

local function pick(list, i) return list[(i - 1) % #list + 1] end

local note, report_mismatches = measure.mismatches("references")

local function check()
  for s = 1, SEEDS do
    local a, b = map.light(levels[s], lights[s]), ref_light(levels[s], lights[s])
    local why
    for y = 1, 50 do
      for x = 1, 80 do
        if not why and a[y][x] ~= b[y][x] then why = string.format("(%d,%d): %.17g, %.17g", x, y, a[y][x], b[y][x]) end
      end
    end
    note("light 80x50 cave seed " .. s, why)
  end
end

---------------------------------------------------------------------------
-- Workloads.

local rows = {}

local function workload(id, what, rounds, unit, scale, module_fn, baseline_fn)
  if not measure.wanted(id) then return end
  local r = measure.measure({ { name = "module", fn = module_fn }, { name = "baseline", fn = baseline_fn } }, rounds)
  rows[#rows + 1] = { id = id, what = what, unit = unit, module = r.module * scale, baseline = r.baseline * scale }
end

local function run_all()
  local noises = {
    { id = "W1", what = "n:grid(1000, 1000), simplex, 1 octave", n = map.noise { seed = 1 },
      lua = lua_noise(simplex, 1) },
    { id = "W2", what = "n:grid(1000, 1000), simplex, 4 octaves", n = map.noise { seed = 1, octaves = 4 },
      lua = lua_noise(simplex, 4) },
    { id = "W3", what = "n:grid(1000, 1000), Perlin, 1 octave", n = map.noise { seed = 1, kind = "perlin" },
      lua = lua_noise(perlin, 1) },
  }
  for _, c in ipairs(noises) do
    local n, get = c.n, c.lua
    workload(c.id, c.what, measure.HEAVY_ROUNDS, "ms per grid", 1e-3,
      function() return #n:grid(SIDE, SIDE) end,
      function() return #lua_grid(get) end)
  end
  local loops = {
    { id = "W4", what = "n:get(x, y) in a Lua loop, simplex, 1 octave", n = map.noise { seed = 1 },
      lua = lua_noise(simplex, 1) },
    { id = "W5", what = "n:get(x, y) in a Lua loop, simplex, 4 octaves", n = map.noise { seed = 1, octaves = 4 },
      lua = lua_noise(simplex, 4) },
  }
  for _, c in ipairs(loops) do
    local n, get = c.n, c.lua
    -- One operation: a row of SIDE calls; reported per call.
    workload(c.id, c.what, measure.ROUNDS, "ns per call", 1e3 / SIDE,
      function(i)
        local y, s = i % SIDE + 1, 0
        for x = 1, SIDE do s = s + n:get(x, y) end
        return s
      end,
      function(i)
        local y, s = i % SIDE + 1, 0
        for x = 1, SIDE do s = s + get(x, y) end
        return s
      end)
  end
  local function lua_fov(m, x, y, r, opaque) return ref_fov(m, x, y, r, opaque) end
  workload("W6", "map.light(m, 10 lights of radius 8), 80x50 cave", measure.ROUNDS, "µs per call", 1,
    function(i) return #map.light(pick(levels, i), pick(lights, i)) end,
    function(i) return #ref_light(pick(levels, i), pick(lights, i), nil, lua_fov) end)
  workload("W7", "lvl:light(10 lights of radius 8), 80x50 cave level", measure.ROUNDS, "µs per call", 1,
    function(i) return #pick(natives, i):light(pick(lights, i)) end,
    function(i) return #ref_light(pick(levels, i), pick(lights, i), nil, lua_fov) end)
end

---------------------------------------------------------------------------
-- Report.

local t_start = clock()
check()
run_all()
local elapsed = clock() - t_start
local fmt_us, fmt_ratio = measure.fmt_us, measure.fmt_ratio

out("")
out("### %s (%s): noise and light", INTERP, VERSION)
out("")
out("CPU time (os.clock), median of %d rounds of ~%.2f s (%d for the grids) after warm-up. "
  .. "speedup = baseline / module.", measure.ROUNDS, measure.ROUND_S, measure.HEAVY_ROUNDS)
out("")
out("| id | workload | unit | module | pure Lua | speedup |")
out("| --- | --- | --- | ---: | ---: | ---: |")
for _, t in ipairs(rows) do
  out("| %s | %s | %s | %s | %s | %s |", t.id, t.what, t.unit, fmt_us(t.module), fmt_us(t.baseline),
    fmt_ratio(t.baseline / t.module))
end
out("")
report_mismatches(out)
out("")
out("(%s: %.0f s of CPU for this table; sink %.0f)", INTERP, elapsed, measure.sink() % 1000)
