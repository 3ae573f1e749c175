-- map.generate(width, height [, seed]) / map.generate{...}: a map table of
-- the algorithm's, with its metadata (player, stairs, rooms, items, ...).
local map = require "map"
local cases = require "spec.hostile_cases"
local fixtures = require "spec.exports.fixtures"
local assert = require "luassert"

local bad = cases.sizes("map.generate", 6, 3, function(...) return map.generate(...) end, 5)
cases.append(bad, cases.seeds("map.generate", function(...) return map.generate(...) end))
cases.append(bad, cases.generate_options("map.generate", function(...) return map.generate(...) end))
cases.append(bad, cases.rng_option("map.generate", function(options) return map.generate(options) end))
cases.append(bad, {
  -- A table with raising metamethods is taken as empty options.
  { "map.generate: width must be an integer >= 6, got nil", function() return map.generate(cases.trap()) end },
  -- A source used from a finalizer after its own ran.
  { "map.generate: rng must be a random source (map.rng), got a freed rng", function()
    return cases.freed(function() return map.rng(1) end,
      function(r) return map.generate { width = 20, height = 10, rng = r } end)
  end },
})

local samples = {
  function() return map.generate(60, 20, 42) end,
  function() return map.generate(60, 20) end,
}
for _, options in ipairs(fixtures.levels()) do
  samples[#samples + 1] = function() return map.generate(options) end
end

-- Memory: the most rooms and items, a directed level, and every algorithm
-- on narrow maps.
local memory = {
  { kind = "rows", once = true, what = "the most rooms and items", size = function() return 600, 600 end,
    call = function() return map.generate { width = 600, height = 600, seed = 1, rooms = 10000, items = 10000 } end },
  { kind = "rows", once = true, what = "directed", size = function() return 600, 600 end, call = function()
    local rows = {}
    for y = 1, 12 do rows[y] = (y == 1 or y == 12) and string.rep(".", 12) or "." .. string.rep("#", 10) .. "." end
    local vaults = {}
    for i = 1, 10 do vaults[i] = { rows = rows, count = 10, rotate = true, required = false } end
    return map.generate { width = 600, height = 600, seed = 1, rooms = 10000, items = 10000, loops = 100,
      arrive = { x = 300, y = 300 }, vaults = vaults, place = { { char = "M", count = 10000 } } }
  end },
}
for _, shape in ipairs({ { 3, 30000 }, { 30000, 3 }, { 6, 20000 } }) do
  local w, h = shape[1], shape[2]
  for _, algorithm in ipairs(map.ALGORITHMS) do
    local d = map.describe(algorithm)
    -- example refuses maps past its positions x patterns bound before starting (spec/example_spec.lua).
    if w >= d.min_width and h >= d.min_height and algorithm ~= "example" then
      memory[#memory + 1] = { kind = "rows", once = true, what = algorithm, size = function() return w, h end,
        call = function() return map.generate { width = w, height = h, seed = 1, algorithm = algorithm,
          items = 0 } end }
    end
  end
end

return {
  samples = samples,
  with_options = function(_, o) return map.generate(o) end,
  generate_options = true,
  bad = bad,
  accepts = {
    -- Every table read raw: metatables on the options, the arrays and the
    -- entries change nothing.
    function()
      local t = cases.trapped
      local opts = t { width = 40, height = 20, seed = 3,
        vaults = t { t { rows = t { "#+#", "+.+", "#+#" }, count = 2 } },
        arrive = t { x = 4, y = 4 }, place = t { t { char = "M", count = 3 } } }
      assert.are.equal(3, #map.generate(opts).placed)
    end,
    -- The largest demands at once: 100 templates of 64x64, 100 copies,
    -- 10,000 placed cells.
    function()
      local rows = {}
      for y = 1, 64 do
        rows[y] = (y == 1 or y == 64) and string.rep(".", 64) or "." .. string.rep("#", 62) .. "."
      end
      local templates = {}
      for i = 1, 100 do templates[i] = { rows = rows, required = false, rotate = true } end
      local m = map.generate { width = 400, height = 400, seed = 1, algorithm = "cave", vaults = templates,
        place = { { char = "M", count = 10000 } } }
      assert.is_true(#m.vaults >= 10)
      assert.are.equal(10000, #m.placed)
      assert.is_true(map.reachable(m))
    end,
  },
  storm = {
    function(a) return map.generate(a.level) end,
    function(a) return map.generate(a.design) end,
    function(a) return map.generate(a.world) end,
    function(a) return map.generate(a.seeded) end,
  },
  big = require("spec.exports.fixtures").every_algorithm,
  memory = memory,
  reference = { spec = "spec/generators_spec.lua", bench = "bench/generators.lua" },
  method = "not a method of a level: map.level{...} generates a level",
}
