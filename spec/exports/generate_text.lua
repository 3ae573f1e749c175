-- map.generate_text(width, height [, seed]) / map.generate_text{...}: the
-- map generate makes, as text.
local map = require "map"
local cases = require "spec.hostile_cases"

local function call(...) return map.generate_text(...) end
local bad = cases.sizes("map.generate_text", 6, 3, call, 5)
cases.append(bad, cases.seeds("map.generate_text", call))
cases.append(bad, cases.generate_options("map.generate_text", call))
cases.append(bad, cases.rng_option("map.generate_text", call))

return {
  samples = {
    function() return map.generate_text(60, 20, 42) end,
    function() return map.generate_text { width = 30, height = 10, algorithm = "maze" } end,
  },
  with_options = function(_, o) return map.generate_text(o) end,
  generate_options = true,
  bad = bad,
  storm = function(a) return map.generate_text(a.level) end,
  big = require("spec.exports.fixtures").every_algorithm,
  memory = { kind = "text", once = true, size = function() return 600, 600 end,
    call = function() return map.generate_text { width = 600, height = 600, seed = 1, rooms = 10000,
      items = 10000 } end },
  reference = { spec = "spec/generators_spec.lua", bench = "bench/generators.lua" },
  method = "not a method of a level: a level's render is its text",
}
