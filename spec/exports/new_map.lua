-- map.new_map(width, height): a map of `height` rows of `width` "#" cells.
local map = require "map"
local cases = require "spec.hostile_cases"

return {
  samples = { function() return map.new_map(3, 2) end },
  bad = cases.sizes("map.new_map", 1, 2, function(...) return map.new_map(...) end),
  storm = function() return map.new_map(30, 20) end,
  big = function(h) return { { h.side, h.side } } end,
  memory = { kind = "rows", call = function(s) return map.new_map(s.w, s.h) end },
  reference = { spec = "spec/api_spec.lua", bench = "bench/bench.lua" },
  method = "not a method of a level: it makes a map, reading none",
}
