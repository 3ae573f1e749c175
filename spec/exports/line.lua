-- map.line(x1, y1, x2, y2) / map.line(from, to): the cells of the straight
-- line between two points, both included.
local map = require "map"
local cases = require "spec.hostile_cases"

local V = " must be an integer with |v| <= 2^53, got "
local bad = {}
for _, case in ipairs({ { nil, "nil" }, { true, "boolean" }, { "1", 'string "1"' }, { 1.5, "1.5" },
  { 0 / 0, "nan" }, { 1 / 0, "inf" }, { 2 ^ 53 + 2, "9007199254740994" },
  { cases.mininteger, "-9223372036854775808" }, { print, "function" } }) do
  local value = case[1]
  bad[#bad + 1] = { "map.line: x1" .. V .. case[2], function() return map.line(value, 1, 2, 2) end }
  bad[#bad + 1] = { "map.line: y2" .. V .. case[2], function() return map.line(1, 1, 2, value) end }
  bad[#bad + 1] = { "map.line: from.y" .. V .. case[2], function() return map.line({ x = 1, y = value }, 2, 2) end }
  bad[#bad + 1] = { "map.line: to.x" .. V .. case[2], function() return map.line(1, 1, { x = value, y = 1 }) end }
end
bad[#bad + 1] = { "map.line: from.x" .. V .. "nil", function() return map.line(cases.trap(), 1, 1) end }
bad[#bad + 1] = cases.with("map.line: line has more than 4000000 cells (4000000 steps)", map.line,
  { 1, 1, 4000001, 1 })
bad[#bad + 1] = cases.with("map.line: line has more than 4000000 cells (18014398509481984 steps)", map.line,
  { -2 ^ 53, 0, 2 ^ 53, 0 })

return {
  samples = {
    function() return map.line(1, 1, 5, 3) end,
    function(f) return map.line(f.gen.player, f.gen.stairs) end,
    function(f) return map.line(f.gen.player, -3, 7) end,
    function(f) return map.line(0, 0, f.gen.stairs) end,
  },
  bad = bad,
  storm = function(a) return map.line(a.sources[1], a.sources[2]) end,
  big = function(h) return { { 1, 1, h.many, 7 } } end,
  memory = { kind = "path", size = function(s) return s.w * s.h, 1 end,
    call = function(s) return map.line(1, 1, s.w * s.h, 7) end },
  reference = { spec = "spec/line_spec.lua", bench = "bench/turns.lua" },
  method = "not a method of a level: it reads no map",
}
