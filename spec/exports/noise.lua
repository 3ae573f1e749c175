-- map.noise{...} / map.noise(): a noise source, coherent noise in two
-- dimensions (options: frequency, kind, lacunarity, octaves, persistence,
-- seed).
local map = require "map"
local cases = require "spec.hostile_cases"
local assert = require "luassert"

local bad = {}
for _, case in ipairs({
  { { kind = "wavelet" }, 'kind must be "simplex" or "perlin", got string "wavelet"' },
  { { kind = 1 }, 'kind must be "simplex" or "perlin", got 1' },
  { { octaves = 0 }, "octaves must be an integer from 1 to 16, got 0" },
  { { octaves = 17 }, "octaves must be an integer from 1 to 16, got 17" },
  { { octaves = 1.5 }, "octaves must be an integer from 1 to 16, got 1.5" },
  { { octaves = "4" }, 'octaves must be an integer from 1 to 16, got string "4"' },
  { { frequency = 0 }, "frequency must be a number in (0, 1048576], got 0" },
  { { frequency = -1 }, "frequency must be a number in (0, 1048576], got -1" },
  { { frequency = 0 / 0 }, "frequency must be a number in (0, 1048576], got nan" },
  { { frequency = 1 / 0 }, "frequency must be a number in (0, 1048576], got inf" },
  { { frequency = 2 ^ 21 }, "frequency must be a number in (0, 1048576], got 2097152" },
  { { persistence = -0.1 }, "persistence must be a number in [0, 1], got -0.1" },
  { { persistence = 1.5 }, "persistence must be a number in [0, 1], got 1.5" },
  { { persistence = true }, "persistence must be a number in [0, 1], got boolean" },
  { { lacunarity = 0.5 }, "lacunarity must be a number in [1, 16], got 0.5" },
  { { lacunarity = 17 }, "lacunarity must be a number in [1, 16], got 17" },
  { { seed = 0.5 }, "seed must be an integer with |seed| <= 2^53, got 0.5" },
  { { seed = 2 ^ 53 + 2 }, "seed must be an integer with |seed| <= 2^53, got 9007199254740994" },
  { { seed = "1" }, 'seed must be an integer with |seed| <= 2^53, got string "1"' },
  { { colour = 1 }, 'unknown option "colour" (options: frequency, kind, lacunarity, octaves, persistence, seed)' },
  { { [1] = 5 }, "unknown option 1 (options: frequency, kind, lacunarity, octaves, persistence, seed)" },
}) do
  bad[#bad + 1] = cases.with("map.noise: " .. case[2], map.noise, { case[1] })
end
cases.append(bad, {
  cases.with("map.noise: options must be a table, got number", map.noise, { 5 }),
  cases.with("map.noise: options must be a table, got string", map.noise, { "simplex" }),
  cases.with("map.noise: expected at most 1 argument, got 2", map.noise, { {}, {} }),
})

return {
  samples = {
    function() return map.noise() end,
    function()
      return map.noise { seed = 3, kind = "perlin", octaves = 4, frequency = 0.1, persistence = 0.6, lacunarity = 2.5 }
    end,
  },
  with_options = function(_, o) return map.noise(o) end,
  bad = bad,
  accepts = {
    -- Options read raw; the extremes taken.
    function()
      assert.are.equal("simplex", map.noise(cases.trap()).kind)
      local given = map.noise { seed = 3, octaves = 16, frequency = 2 ^ 20, persistence = 0, lacunarity = 16 }
      assert.is_true(given:get(1, 1) >= -1 and given:get(1, 1) <= 1)
    end,
  },
  storm = function(a) return map.noise(a.noise) end,
  big = "a userdata of fixed size (at most 16 octaves of 512-byte tables); its grid is the case that grows",
  memory = { kind = "native", call = function() return map.noise { seed = 2, octaves = 16 } end },
  reference = { spec = "spec/noise_spec.lua", bench = "bench/world.lua" },
  method = "not a method of a level: it reads no map",
}
