-- map.load(s): what map.save wrote, or the level or field that
-- lvl:save() or f:save() wrote.
local map = require "map"

return {
  samples = {
    function(f) return map.load(f.gen_saved) end,
    function(f) return map.load(f.gen_field_saved) end,
    function(f) return map.load(map.save({ f.gen_saved, n = 1 })) end,
    function(f) return map.load(map.save(f.gen_saved, { text = true })) end,
  },
  bad = {
    { "map.load: s must be a string, got nil", function() return map.load() end },
    { "map.load: not a saved value, level or field (no MAPVALUE, MAPLEVEL or MAPFIELD header)",
      function() return map.load("") end },
    { "map.load: truncated or corrupted saved string", function() return map.load(map.save(1):sub(1, -2)) end },
    { "map.load: not a saved value (mapvalue1: not followed by base64)",
      function() return map.load("mapvalue1:*") end },
    { "map.load: expected at most 1 argument, got 2", function() return map.load("x", 1) end },
  },
  storm = function(a) return map.load(a.saved) end,
  -- A level saved (made before the calls measured), loaded back.
  big = function(h)
    if h.saved then return { { h.saved } } end
    return {}
  end,
  memory = { kind = "native", call = function(s) return map.load(s.saved) end },
  reference = { spec = "spec/level_spec.lua", bench = "bench/level.lua" },
  method = "not a method of a level: it reads a saved string",
}
