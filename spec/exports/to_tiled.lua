-- map.to_tiled(m [, options]): the map as a Tiled map, JSON (.tmj) or
-- Tiled's Lua export (options: format, tiles, tile_width, tile_height, image).
local map = require "map"

local bad = {}
local function add(message, call) bad[#bad + 1] = { "map.to_tiled: " .. message, call } end
add("options must be a table, got number", function(f) return map.to_tiled(f.small, 5) end)
add('unknown option "colour" (options: format, image, tile_height, tile_width, tiles)',
  function(f) return map.to_tiled(f.small, { colour = 1 }) end)
add('format must be "json" or "lua", got string "tmx"',
  function(f) return map.to_tiled(f.small, { format = "tmx" }) end)
add("the map's character '.' is not in tiles", function(f) return map.to_tiled(f.small, { tiles = "#" }) end)
add("tiles holds '#' twice", function(f) return map.to_tiled(f.small, { tiles = "#.#" }) end)
add("tiles must hold 1 to 256 characters, got 0", function(f) return map.to_tiled(f.small, { tiles = "" }) end)
add("tile_width must be an integer from 1 to 4096, got 0",
  function(f) return map.to_tiled(f.small, { tile_width = 0 }) end)
add("image must be a file name, got 5", function(f) return map.to_tiled(f.small, { image = 5 }) end)
add("expected at most 2 arguments, got 3", function(f) return map.to_tiled(f.small, {}, 1) end)

return {
  samples = {
    function(f) return map.to_tiled(f.gen) end,
    function(f) return map.to_tiled(f.gen, { format = "lua", tiles = "#.@>$!", tile_width = 8, image = "t.png" }) end,
  },
  with_options = function(f, o) return map.to_tiled(f.gen, o) end,
  bad = bad,
  reads_map = function(m) return map.to_tiled(m) end,
  storm = function(a) return map.to_tiled(a.m, { format = "lua" }) end,
  big = function(h) return { { h.open }, { h.open, { format = "lua" } } } end,
  memory = { kind = "text", call = function(s) return map.to_tiled(s.m) end },
  reference = { spec = "spec/editors_spec.lua", bench = {
    setup = function() return map.generate { width = 80, height = 50, seed = 1 } end,
    run = function(m) return #map.to_tiled(m) end,
    lua = function(m) return #require("spec.reference.editors").to_tiled(m) end,
  } },
  method = {
    samples = {
      function(f) return f.designed end,
      function(f) return f.designed, { format = "lua" } end,
    },
    with_options = function(f, o) return f.designed:to_tiled(o) end,
    bad = {
      { "level:to_tiled: self must be a level, got number", function(f) return f.lvl20.to_tiled(1) end },
      { 'level:to_tiled: format must be "json" or "lua", got string "x"',
        function(f) return f.lvl20:to_tiled({ format = "x" }) end },
    },
    storm = function(a) return a.lvl:to_tiled({ format = "lua" }) end,
    cases = function(_, rand)
      return { { { format = ({ "json", "lua" })[rand(2)] } }, { { tile_width = rand(64) } },
        { { tiles = "#" }, fails = true } }
    end,
    big = "map.to_tiled's cases: the level's cells are held natively, the text is the same",
    memory = { kind = "text", call = function(s) return s.lvl:to_tiled() end },
    reference = { spec = "spec/editors_spec.lua", bench = {
      setup = function() return map.level { width = 80, height = 50, seed = 1 } end,
      run = function(lvl) return #lvl:to_tiled() end,
      lua = function(lvl) return #require("spec.reference.editors").to_tiled(lvl:table()) end,
    } },
  },
}
