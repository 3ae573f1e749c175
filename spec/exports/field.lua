-- map.field(width, height): a new memory, a field of flags over a map of
-- that size, every cell unknown.
local map = require "map"

return {
  samples = {
    function() return map.field(60, 20) end,
    function() return map.field(1, 1) end,
  },
  bad = {
    { "map.field: width must be an integer >= 1, got 0", function() return map.field(0, 5) end },
    { "map.field: width*height must be at most 4000000 cells, got 5000x5000",
      function() return map.field(5000, 5000) end },
    { "map.field: width must be an integer >= 1, got 1.5", function() return map.field(1.5, 2) end },
  },
  storm = function() return map.field(30, 20) end,
  big = function(h) return { { h.side, h.side } } end,
  memory = { kind = "native", call = function(s) return map.field(s.w, s.h) end },
  reference = { spec = "spec/level_spec.lua", bench = "bench/level.lua" },
  method = "lvl:field() takes no size: it is a level's own method (spec/natives/level.lua)",
}
