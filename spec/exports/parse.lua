-- map.parse(text): a map table from its text (the inverse of map.render).
local map = require "map"
local cases = require "spec.hostile_cases"

local bad = {}
for _, case in ipairs({ { nil, "nil" }, { 5, "number" }, { {}, "table" }, { true, "boolean" },
  { print, "function" } }) do
  bad[#bad + 1] = cases.with("map.parse: text must be a string, got " .. case[2], map.parse, { case[1], n = 1 })
end
bad[#bad + 1] = cases.with("map.parse: expected at most 1 argument, got 2", map.parse, { "#", nil, n = 2 })
bad[#bad + 1] = cases.with("map.parse: text must be a string, got nil", map.parse, {})

return {
  samples = {
    function() return map.parse("#@#>\n@.>.") end,
    function() return map.parse("..\n..\n") end,
  },
  bad = bad,
  storm = function(a) return map.parse(a.text) end,
  big = function(h) return { { h.text } } end,
  memory = { kind = "rows", call = function(s) return map.parse(map.render(s.m)) end },
  reference = { spec = "spec/parse_spec.lua", bench = "bench/turns.lua" },
  method = "not a method of a level: it reads text, not a map",
}
