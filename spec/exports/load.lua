-- map.load(s): the level or field that lvl:save() or f:save() wrote.
local map = require "map"

return {
  samples = {
    function(f) return map.load(f.gen_saved) end,
    function(f) return map.load(f.gen_field_saved) end,
  },
  bad = {
    { "map.load: s must be a string, got nil", function() return map.load() end },
    { "map.load: not a saved level or field (no MAPLEVEL or MAPFIELD header)", function() return map.load("") end },
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
