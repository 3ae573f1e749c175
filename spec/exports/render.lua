-- map.render(m): the map as text, its rows joined by newlines.
local map = require "map"
local cases = require "spec.hostile_cases"
local assert = require "luassert"

return {
  samples = {
    function(f) return map.render(f.gen) end,
    function() return map.render({ { "#", "." } }) end,
  },
  bad = {
    { "map.render: expected at most 1 argument, got 2", function() return map.render({ { "#", "#" } }, 1) end },
  },
  reads_map = function(m) return map.render(m) end,
  accepts = {
    -- Rows read raw, metatables on the map and its rows ignored.
    function()
      local m = cases.trapped({ cases.trapped({ "@", ">" }) })
      assert.are.equal("@>", map.render(m))
    end,
    function() assert.are.equal("\0\255", map.render({ { "\0", "\255" } })) end,
  },
  storm = function(a) return map.render(a.m) end,
  big = function(h) return { { h.open } } end,
  memory = { kind = "text", call = function(s) return map.render(s.m) end },
  reference = { spec = "spec/api_spec.lua", bench = "bench/bench.lua" },
  method = "a level's render is its own method (spec/natives/level.lua): it lays the level's things back",
}
