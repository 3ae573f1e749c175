-- map.visible(m, x1, y1, x2, y2 [, options]) (each cell also as a
-- position): whether the two cells see each other, as map.fov would say
-- (options: opaque, radius).
local map = require "map"
local support = require "spec.support"
local cases = require "spec.hostile_cases"
local assert = require "luassert"

local P = { x = 2, y = 2 }
local bad = {}
local function add(message, call) bad[#bad + 1] = { "map.visible: " .. message, call } end
cases.append(bad, cases.cells("map.visible", function(f, x, y) return map.visible(f.small, x, y, 2, 2) end,
  function(f, c) return map.visible(f.small, c, P) end, "from", "x1", "y1", 5, 3))
cases.append(bad, cases.cells("map.visible", function(f, x, y) return map.visible(f.small, 2, 2, x, y) end,
  function(f, c) return map.visible(f.small, P, c) end, "to", "x2", "y2", 5, 3))
for _, case in ipairs({ { -1, "-1" }, { 1.5, "1.5" }, { "3", 'string "3"' }, { true, "boolean" } }) do
  add("radius must be an integer >= 0, got " .. case[2],
    function(f) return map.visible(f.small, P, P, { radius = case[1] }) end)
end
add("opaque must be a string of characters, got 5", function(f) return map.visible(f.small, P, P, { opaque = 5 }) end)
add('unknown option "blocked" (options: opaque, radius)',
  function(f) return map.visible(f.small, P, P, { blocked = "#" }) end)
add("options must be a table, got string", function(f) return map.visible(f.small, 2, 2, 3, 2, "#") end)

return {
  samples = {
    function(f) return map.visible(f.gen, f.gen.player.x, f.gen.player.y, f.gen.stairs.x, f.gen.stairs.y) end,
    function(f) return map.visible(f.gen, f.gen.player, f.gen.stairs, { radius = 4 }) end,
    function(f) return map.visible(f.gen, f.gen.player, 2, 2) end,
    function(f) return map.visible(f.gen, 2, 2, f.gen.stairs) end,
  },
  with_options = function(f, o) return map.visible(f.gen, f.gen.player, f.gen.stairs, o) end,
  bad = bad,
  accepts = { function(f) assert.is_true(map.visible(f.small, P, P, cases.trap())) end },
  storm = function(a) return map.visible(a.m, a.sources[1], 4, 3) end,
  -- It reads the line's cells alone (a few KiB): it may still find them
  -- with the heap full.
  big = function(h) return { { h.open, 1, 1, h.side, h.side, small = true } } end,
  memory = "a boolean",
  reference = { spec = "spec/visible_spec.lua", bench = "bench/turns.lua" },
  method = {
    samples = {
      function(f) return f.designed, f.designed.player.x, f.designed.player.y, f.designed.stairs.x,
        f.designed.stairs.y end,
      function(f) return f.designed, f.designed.player, f.designed.stairs, { radius = 4 } end,
      function(f) return f.designed, f.designed.player, 2, 2 end,
      function(f) return f.designed, 2, 2, f.designed.stairs end,
    },
    with_options = function(f, o) return f.designed:visible(f.designed.player, f.designed.stairs, o) end,
    bad = {
      { "level:visible: self must be a level, got number", function(f) return f.lvl20.visible(1) end },
    },
    storm = function(a) return a.lvl:visible(1, 1, 4, 3) end,
    cases = function(m, rand)
      local list = {}
      for _ = 1, 3 do
        list[#list + 1] = { support.open_cell(m, rand), support.open_cell(m, rand), { radius = rand(20) } }
      end
      local p = support.open_cell(m, rand)
      list[#list + 1] = { p, p, { radius = "x" }, fails = true }
      return list
    end,
    big = "reads the line's cells alone, whatever the level",
    memory = "a boolean",
    reference = { spec = "spec/visible_spec.lua", bench = {
      setup = function()
        local m = map.generate { width = 80, height = 50, seed = 1, algorithm = "cave" }
        return { m = m, lvl = map.level(m), from = m.player, to = m.stairs }
      end,
      run = function(s) return s.lvl:visible(s.from, s.to) end,
      lua = function(s) return require("spec.reference.visible").visible(s.m, s.from.x, s.from.y, s.to.x, s.to.y) end,
    } },
  },
}
