-- map.to_xp(m [, options]): the map as a REXPaint image, the gzipped bytes
-- of an .xp file (options: glyphs).
local map = require "map"

local bad = {}
local function add(message, call) bad[#bad + 1] = { "map.to_xp: " .. message, call } end
add("options must be a table, got number", function(f) return map.to_xp(f.small, 5) end)
add('unknown option "colour" (options: glyphs)', function(f) return map.to_xp(f.small, { colour = 1 }) end)
add("glyphs must be a string, got 5", function(f) return map.to_xp(f.small, { glyphs = 5 }) end)
add("glyphs must hold pairs: a map's character, then its glyph", function(f)
  return map.to_xp(f.small, { glyphs = "#" })
end)
add("glyphs must be CP437 characters, got '€'", function(f) return map.to_xp(f.small, { glyphs = "#€" }) end)
add("expected at most 2 arguments, got 3", function(f) return map.to_xp(f.small, {}, 1) end)

return {
  samples = {
    function(f) return map.to_xp(f.gen) end,
    function(f) return map.to_xp(f.gen, { glyphs = "#█.·" }) end,
  },
  with_options = function(f, o) return map.to_xp(f.gen, o) end,
  bad = bad,
  reads_map = function(m) return map.to_xp(m) end,
  storm = function(a) return map.to_xp(a.m, { glyphs = "#█" }) end,
  big = function(h) return { { h.open } } end,
  memory = { kind = "text", call = function(s) return map.to_xp(s.m) end },
  -- The pure-Lua side makes the image's cells, not their gzip: Lua has none.
  reference = { spec = "spec/editors_spec.lua", bench = {
    setup = function() return map.generate { width = 80, height = 50, seed = 1 } end,
    run = function(m) return #map.to_xp(m) end,
    lua = function(m) return #require("spec.reference.editors").xp_cells(m) end,
  } },
  method = {
    samples = {
      function(f) return f.designed end,
      function(f) return f.designed, { glyphs = "#█" } end,
    },
    with_options = function(f, o) return f.designed:to_xp(o) end,
    bad = {
      { "level:to_xp: self must be a level, got number", function(f) return f.lvl20.to_xp(1) end },
      { "level:to_xp: glyphs must be a string, got 5", function(f) return f.lvl20:to_xp({ glyphs = 5 }) end },
    },
    storm = function(a) return a.lvl:to_xp() end,
    cases = function(_, rand)
      return { { { glyphs = ({ "#█", ".·", "#█.·" })[rand(3)] } }, { {} }, { { glyphs = "#" }, fails = true } }
    end,
    big = "map.to_xp's cases: the level's cells are held natively, the image is the same",
    memory = { kind = "text", call = function(s) return s.lvl:to_xp() end },
    reference = { spec = "spec/editors_spec.lua", bench = {
      setup = function() return map.level { width = 80, height = 50, seed = 1 } end,
      run = function(lvl) return #lvl:to_xp() end,
      lua = function(lvl) return #require("spec.reference.editors").xp_cells(lvl:table()) end,
    } },
  },
}
