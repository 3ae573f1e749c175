-- map.noise on Lua 5.4 and LuaJIT (see .busted): the golden values (the
-- same numbers bit for bit on both interpreters and every release), the
-- range, continuity, what octaves add, grid against get, the settings and
-- the userdata. Its bad arguments: hostile_spec.lua.
local map = require "map"
local support = require "spec.support"

local fmt, abs, floor = string.format, math.abs, math.floor

-- The golden values: settings, a point and its value (%.17g, exact).
local GOLDEN = {}
for line in support.read_file("spec/golden_noise/values.txt"):gmatch("[^\n]+") do
  if line:sub(1, 1) ~= "#" then
    local f = {}
    for word in line:gmatch("%S+") do f[#f + 1] = word end
    GOLDEN[#GOLDEN + 1] = { line = line, kind = f[1], seed = tonumber(f[2]), octaves = tonumber(f[3]),
      frequency = tonumber(f[4]), persistence = tonumber(f[5]), lacunarity = tonumber(f[6]),
      x = tonumber(f[7]), y = tonumber(f[8]), value = tonumber(f[9]) }
  end
end

local function noise_of(case)
  return map.noise { kind = case.kind, seed = case.seed, octaves = case.octaves, frequency = case.frequency,
    persistence = case.persistence, lacunarity = case.lacunarity }
end

describe("map.noise", function()
  it("gives the golden values bit for bit: both kinds, four seeds, three settings, nine points", function()
    assert.is_true(#GOLDEN >= 200, #GOLDEN .. " golden values")
    local kinds, seeds = {}, {}
    for _, case in ipairs(GOLDEN) do
      local n = noise_of(case)
      local got = n:get(case.x, case.y)
      assert(got == case.value, fmt("%s: got %.17g", case.line, got))
      -- The same through grid, the point (as Lua adds 1 - 1 to it) its origin.
      assert(n:grid(1, 1, case.x, case.y)[1][1] == n:get(case.x + 1 - 1, case.y + 1 - 1), case.line)
      kinds[case.kind], seeds[case.seed] = true, true
    end
    assert.is_truthy(kinds.simplex and kinds.perlin)
    local n = 0
    for _ in pairs(seeds) do n = n + 1 end
    assert.is_true(n >= 4)
  end)

  it("stays in [-1, 1] and reaches most of it, for both kinds and every octave count", function()
    for _, kind in ipairs({ "simplex", "perlin" }) do
      for _, octaves in ipairs({ 1, 2, 5, 16 }) do
        local n = map.noise { seed = octaves, kind = kind, octaves = octaves, frequency = 1 / 7.3 }
        local g = n:grid(300, 300, -150.5, 1e6)
        local lo, hi = 0, 0
        for y = 1, 300 do
          for x = 1, 300 do
            local v = g[y][x]
            assert(v >= -1 and v <= 1, fmt("%s %d octaves: %.17g at (%d,%d)", kind, octaves, v, x, y))
            if v < lo then lo = v end
            if v > hi then hi = v end
          end
        end
        assert(lo < -0.5 and hi > 0.5, fmt("%s %d octaves: only [%g, %g]", kind, octaves, lo, hi))
      end
    end
  end)

  it("is continuous: samples 0.01 apart differ by at most 0.2 at frequency 1, where white noise jumps", function()
    -- The bound: the steepest slope at frequency 1 is below 20 (measured
    -- over these points and five seeds: simplex 9.3 with one octave, 13.6
    -- with three; Perlin 3.7 and 4.4), so 0.01 apart is at most 0.2.
    -- Values drawn afresh at each point (white noise) jump by up to 2.
    local function steepest(get)
      local worst = 0
      for i = 0, 40000 do
        local x, y = (i % 200) * 0.173 - 17.3, floor(i / 200) * 0.211 + 3.1
        for _, d in ipairs({ { 0.01, 0 }, { 0, 0.01 }, { 0.01, -0.01 } }) do
          local diff = abs(get(x + d[1], y + d[2]) - get(x, y))
          if diff > worst then worst = diff end
        end
      end
      return worst
    end
    for _, kind in ipairs({ "simplex", "perlin" }) do
      for _, octaves in ipairs({ 1, 3 }) do
        local n = map.noise { seed = 5, kind = kind, octaves = octaves, frequency = 1 }
        local worst = steepest(function(x, y) return n:get(x, y) end)
        assert(worst > 0 and worst <= 0.2, fmt("%s %d octaves: %g", kind, octaves, worst))
      end
    end
    local white = map.noise { seed = 1, frequency = 1 }
    local jumpy = steepest(function(x, y) return white:get(x * 1e4, y * 1e4) end)
    assert(jumpy > 1, "the bound tells white noise apart: " .. jumpy)
  end)

  it("octaves add detail: the share of small-scale variation grows with each, the large scale stays", function()
    -- The structure function S(d), the mean square difference of samples d
    -- cells apart; S(1) / S(32) is how much of the variation lies at the
    -- scale of a cell. One octave at 1/16 is smooth there; each octave up
    -- to the fourth (frequency 1/2) adds a finer one (measured ratios:
    -- simplex 0.042, 0.068, 0.091, 0.104; Perlin 0.015, 0.024, 0.034, 0.042).
    local function structure(n, d)
      local sum, count = 0, 0
      for y = 1, 400, 3 do
        for x = 1, 400, 3 do
          local diff = n:get(x + d, y) - n:get(x, y)
          sum, count = sum + diff * diff, count + 1
        end
      end
      return sum / count
    end
    for _, kind in ipairs({ "simplex", "perlin" }) do
      local rough = {}
      for octaves = 1, 4 do
        local n = map.noise { seed = 11, kind = kind, octaves = octaves }
        rough[octaves] = structure(n, 1) / structure(n, 32)
        if octaves > 1 then
          assert(rough[octaves] > 1.1 * rough[octaves - 1],
            fmt("%s: %d octaves %g, %d octaves %g", kind, octaves, rough[octaves], octaves - 1, rough[octaves - 1]))
        end
      end
      -- More octaves of a seed add to the same base: the two agree at large scales.
      local one, four = map.noise { seed = 11, kind = kind }, map.noise { seed = 11, kind = kind, octaves = 4 }
      local same, n = 0, 0
      for y = 1, 400, 8 do
        for x = 1, 400, 8 do
          local a, b = one:get(x, y), four:get(x, y)
          if (a > 0.2 and b > 0) or (a < -0.2 and b < 0) then same = same + 1 end
          if abs(a) > 0.2 then n = n + 1 end
        end
      end
      assert(same > 0.85 * n, fmt("%s: the base is kept at %d of %d points", kind, same, n))
    end
  end)

  it("grid(w, h [, x0, y0]) holds get(x0 + x - 1, y0 + y - 1), by integers or floats or a position", function()
    local n = map.noise { seed = -3, kind = "perlin", octaves = 3 }
    for _, origin in ipairs({ { 1, 1 }, { -20, 7 }, { 0.25, -3.5 }, { 1e9 + 0.5, -1e9 } }) do
      local x0, y0 = origin[1], origin[2]
      for _, g in ipairs({ n:grid(13, 7, x0, y0), n:grid(13, 7, { x = x0, y = y0 }) }) do
        assert.are.equal(7, #g)
        for y = 1, 7 do
          assert.are.equal(13, #g[y])
          for x = 1, 13 do
            assert(g[y][x] == n:get(x0 + x - 1, y0 + y - 1), fmt("(%d,%d) from (%g,%g)", x, y, x0, y0))
          end
        end
      end
    end
    local g = n:grid(4, 3)
    assert.are.equal(n:get(4, 3), g[3][4])
    assert.are.equal(n:get(2, 1), n:get { x = 2, y = 1 })
  end)

  it("the same settings give the same noise; another seed, kind or setting another", function()
    local function sample(n) return table.concat({ n:get(0.5, 0.5), n:get(100.25, -7), n:get(3, 4) }, " ") end
    local base = { seed = 9, kind = "simplex", octaves = 3, frequency = 0.1, persistence = 0.6, lacunarity = 2.2 }
    assert.are.equal(sample(map.noise(base)), sample(map.noise(base)))
    for key, other in pairs({ seed = 10, kind = "perlin", octaves = 2, frequency = 0.11, persistence = 0.4,
      lacunarity = 2 }) do
      local changed = {}
      for k, v in pairs(base) do changed[k] = v end
      changed[key] = other
      assert.are_not.equal(sample(map.noise(base)), sample(map.noise(changed)), key)
    end
  end)

  it("reads its settings back; defaults: simplex, 1 octave, 1/16, 0.5, 2, a fresh seed", function()
    local n = map.noise { seed = 42, kind = "perlin", octaves = 4, frequency = 0.5, persistence = 0.25, lacunarity = 3 }
    assert.are.same({ 42, "perlin", 4, 0.5, 0.25, 3 },
      { n.seed, n.kind, n.octaves, n.frequency, n.persistence, n.lacunarity })
    assert.is_nil(n.width)
    assert.is_nil(n.nothing)
    local d = map.noise()
    assert.are.same({ "simplex", 1, 1 / 16, 0.5, 2 }, { d.kind, d.octaves, d.frequency, d.persistence, d.lacunarity })
    assert.is_true(d.seed >= 0 and d.seed < 2 ^ 53 and d.seed % 1 == 0)
    assert.are.equal("map.noise: perlin, 4 octaves, seed 42", tostring(n))
    assert.are.equal("map.noise: simplex, 1 octave, seed 7", tostring(map.noise { seed = 7 }))
  end)

  it("used from a finalizer after its own ran (resurrected), is an error with a message", function()
    local function make()
      local noise = map.noise { seed = 1 }
      noise:get(1, 1) -- LuaJIT: its block is known to the FFI route
      return noise
    end
    local got = support.after_finalized(make, function(freed)
      local got = { pcall(freed.get, freed, 1, 1) }
      got[3] = tostring(freed)
      got[4] = select(2, pcall(freed.grid, freed, 2, 2))
      return got
    end)
    assert.are.same({ false, "noise:get: the noise was freed by the collector (used from a finalizer)",
      "map.noise: freed", "noise:grid: the noise was freed by the collector (used from a finalizer)" }, got)
  end)

  it("is a userdata with a protected metatable, its methods in map.METHODS.noise", function()
    local n = map.noise { seed = 1 }
    assert.are.equal("userdata", type(n))
    assert.are.equal("map.noise", getmetatable(n))
    assert.are.same({ "get", "grid" }, map.METHODS.noise)
    local lvl = map.level(map.parse("@.>"))
    local ok, err = pcall(lvl.get, n, 1, 1)
    assert.is_false(ok)
    assert.are.equal("level:get: self must be a level, got noise", err)
    ok, err = pcall(n.get, lvl, 1, 1)
    assert.is_false(ok)
    assert.are.equal("noise:get: self must be a noise, got level", err)
  end)
end)
