-- map.level(m [, options]) / map.level(text [, options]) / map.level{...} /
-- map.level(width, height [, seed]): a level in native memory, a copy of a
-- map (options: things) or generated into it (generate's options and
-- things).
local map = require "map"
local cases = require "spec.hostile_cases"

local bad = {
  { "map.level: width must be an integer >= 6, got nil", function() return map.level() end },
  { "map.level: things must be a string of characters, got 1",
    function(f) return map.level(f.m20, { things = 1 }) end },
  { 'map.level: unknown option "x" (options: things)', function(f) return map.level(f.m20, { x = 1 }) end },
  { "map.level: expected at most 2 arguments, got 3", function(f) return map.level(f.m20, {}, 3) end },
  { "map.level: row 2 has 1 cells, row 1 has 2", function() return map.level("ab\nc") end },
  { "map.level: things must be a string of characters, got 5",
    function() return map.level({ width = 10, height = 10, things = 5 }) end },
  { 'map.level: unknown option "thngs" (options: width, height, seed, algorithm, '
    .. table.concat(cases.option_names(), ", ") .. ", vaults, arrive, place, rng, things)",
    function() return map.level({ width = 10, height = 10, thngs = 5 }) end },
  { "map.level: m.blocked must be a string of characters, got number",
    function() return map.level(cases.blocked_map(5)) end },
  -- A generated table keeps its metadata, each field checked.
  { "map.level: m.player must be a position {x=, y=}, got nil",
    function()
      local m = map.generate(30, 10, 1)
      m.player = nil
      return map.level(m)
    end },
  { "map.level: m.rooms[1].links[1] must be an integer from 1 to 10, got 0",
    function()
      local m = map.generate(60, 20, 1)
      m.rooms[1].links = { 0 }
      return map.level(m)
    end },
}
cases.append(bad, cases.rng_option("map.level", function(options) return map.level(options) end))

return {
  samples = {
    function(f) return map.level(f.gen) end,
    function() return map.level("#@#\n#..", { things = "@" }) end,
    function() return map.level(40, 12, 5) end,
    function()
      return map.level { width = 40, height = 12, algorithm = "cave", things = "M",
        vaults = { { rows = { "...", ".M.", "..." } } } }
    end,
    function() return map.level { width = 40, height = 20, seed = 7, algorithm = "maze", locks = 3 } end,
  },
  with_options = function(f, o) return map.level(f.gen, o) end,
  bad = bad,
  storm = {
    function(a) return map.level(a.m, { things = "." }) end,
    function(a) return map.level(a.text) end,
    function(a) return map.level(a.design) end,
    function(a) return map.level(a.world) end,
    function(a) return map.level(a.walled) end,
  },
  -- A level holds its cells natively; every cell a thing at worst.
  big = function(h)
    return {
      { h.open, { things = "." } },
      { h.text, what = "text" },
    }
  end,
  memory = { kind = "native", call = function(s) return map.level(s.m) end },
  reference = { spec = "spec/level_spec.lua", bench = "bench/level.lua" },
  method = "not a method of a level: it makes one",
}
