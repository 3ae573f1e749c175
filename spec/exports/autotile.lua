-- map.autotile(m [, options]): for every cell of a class of characters, the
-- mask of its neighbours in the class (a blob tile's index, or 8 or 4
-- bits), as rows (options: chars, edge, index, mode).
local map = require "map"

local bad = {}
local function add(message, call) bad[#bad + 1] = { "map.autotile: " .. message, call } end
add("options must be a table, got number", function(f) return map.autotile(f.small, 5) end)
add('unknown option "colour" (options: chars, edge, index, mode)',
  function(f) return map.autotile(f.small, { colour = 1 }) end)
add('mode must be "blob", "8" or "4", got string "x"', function(f) return map.autotile(f.small, { mode = "x" }) end)
add("chars must be a non-empty string of characters, got 5",
  function(f) return map.autotile(f.small, { chars = 5 }) end)
add("edge must be a boolean, got 1", function(f) return map.autotile(f.small, { edge = 1 }) end)
add("index must be a boolean, got 1", function(f) return map.autotile(f.small, { index = 1 }) end)
add('index applies only to mode "blob"', function(f) return map.autotile(f.small, { mode = "4", index = true }) end)
add("expected at most 2 arguments, got 3", function(f) return map.autotile(f.small, {}, 1) end)

return {
  samples = {
    function(f) return map.autotile(f.gen) end,
    function(f) return map.autotile(f.gen, { mode = "4", edge = false }) end,
  },
  with_options = function(f, o) return map.autotile(f.gen, o) end,
  bad = bad,
  reads_map = function(m) return map.autotile(m) end,
  storm = function(a) return map.autotile(a.m, { chars = "#.", mode = "8" }) end,
  -- Every cell in the class: a mask for each.
  big = function(h) return { { h.open, { chars = "." } } } end,
  memory = { kind = "rows", call = function(s) return map.autotile(s.m, { chars = ".#" }) end },
  reference = { spec = "spec/autotile_spec.lua", bench = "bench/autotile.lua" },
  method = {
    samples = {
      function(f) return f.designed end,
      function(f) return f.designed, { mode = "4" } end,
    },
    with_options = function(f, o) return f.designed:autotile(o) end,
    bad = {
      { "level:autotile: self must be a level, got number", function(f) return f.lvl20.autotile(1) end },
      { 'level:autotile: mode must be "blob", "8" or "4", got string "x"',
        function(f) return f.lvl20:autotile({ mode = "x" }) end },
    },
    storm = function(a) return a.lvl:autotile({ mode = "4" }) end,
    cases = function(_, rand)
      return {
        { { mode = ({ "blob", "8", "4" })[rand(3)] } }, { { mode = ({ "blob", "8", "4" })[rand(3)] } },
        { { mode = ({ "blob", "8", "4" })[rand(3)] } }, { { mode = "x" }, fails = true },
      }
    end,
    big = "map.autotile's cases: the level's cells are held natively, the masks are the same table",
    memory = { kind = "rows", call = function(s) return s.lvl:autotile({ chars = ".#" }) end },
    reference = { spec = "spec/autotile_spec.lua", bench = {
      setup = function() return map.level(map.generate { width = 80, height = 50, seed = 1 }) end,
      run = function(lvl) return #lvl:autotile() end,
      lua = function(lvl) return #require("spec.reference.autotile").autotile(lvl:table()) end,
    } },
  },
}
