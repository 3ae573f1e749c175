-- map.generate_json(width, height [, seed]) / map.generate_json{...}: the
-- level generate makes, as JSON (its rows as strings).
local map = require "map"
local cases = require "spec.hostile_cases"
local fixtures = require "spec.exports.fixtures"

local function call(...) return map.generate_json(...) end
local bad = cases.sizes("map.generate_json", 6, 3, call, 5)
cases.append(bad, cases.seeds("map.generate_json", call))
cases.append(bad, cases.generate_options("map.generate_json", call))
cases.append(bad, cases.rng_option("map.generate_json", call))
-- Items are capped, so that no call builds millions of item tables.
bad[#bad + 1] = { "map.generate_json: items must be an integer from 0 to 10000, got 3992000",
  function() return map.generate_json { width = 2000, height = 2000, seed = 2, algorithm = "cave", fill = 1,
    items = 3992000 } end }

local samples = {
  function() return map.generate_json(60, 20, 42) end,
  function() return map.generate_json { width = 30, height = 10, algorithm = "bsp", doors = true } end,
}
for _, options in ipairs(fixtures.levels()) do
  samples[#samples + 1] = function() return map.generate_json(options) end
end

return {
  samples = samples,
  -- Its samples are JSON of a map.Level (rows as strings).
  json = "map.Level",
  with_options = function(_, o) return map.generate_json(o) end,
  generate_options = true,
  bad = bad,
  storm = function(a) return map.generate_json(a.level) end,
  big = require("spec.exports.fixtures").every_algorithm,
  memory = { kind = "text", once = true, size = function() return 600, 600 end,
    call = function() return map.generate_json { width = 600, height = 600, seed = 1, rooms = 10000,
      items = 10000 } end },
  reference = { spec = "spec/generators_spec.lua", bench = "bench/worst.lua" },
  method = "not a method of a level: a level has no JSON form",
}
