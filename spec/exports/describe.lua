-- map.describe(algorithm): the algorithm's doc line, minimum size, options
-- (with types, ranges, defaults, docs) and the design options it takes.
local map = require "map"
local support = require "spec.support"
local cases = require "spec.hostile_cases"

local samples, bad = {}, {}
for _, algorithm in ipairs(map.ALGORITHMS) do
  samples[#samples + 1] = function() return map.describe(algorithm) end
end
-- Anything but an algorithm's name, reading nothing else.
local refused = "map.describe: algorithm must be " .. support.ALGORITHM_LIST .. ", got "
for _, case in ipairs(cases.BAD_NUMBERS) do
  if case[1] ~= nil then bad[#bad + 1] = cases.with(refused .. case[2], map.describe, { case[1] }) end
end
bad[#bad + 1] = { refused .. "table", function() return map.describe(cases.trap()) end }
bad[#bad + 1] = cases.with(refused .. 'string "CAVE"', map.describe, { "CAVE" })
bad[#bad + 1] = cases.with(refused .. 'string "rooms\\0"', map.describe, { "rooms\0" })
bad[#bad + 1] = cases.with("map.describe: expected at most 1 argument, got 2", map.describe, { "rooms", nil, n = 2 })

-- The description built in Lua: a table of the same shape, for the bench.
local function described(name)
  local options = {}
  for i = 1, 8 do
    options[i] = { name = name .. i, type = "integer", min = 0, max = 100, default = i, default_text = tostring(i),
      doc = "an option" }
  end
  return { name = name, doc = "a generator", min_width = 6, min_height = 5, options = options, design = {} }
end

return {
  samples = samples,
  bad = bad,
  storm = function() return map.describe("bsp") end,
  big = "a description of fixed size: no argument makes it large",
  memory = "a description of fixed size",
  reference = { spec = "spec/api_spec.lua", bench = {
    run = function() return #map.describe("bsp").options end,
    lua = function() return #described("bsp").options end,
  } },
  method = "not a method of a level: it reads no map",
}
