-- map.explore(m, known, x, y [, options]) / map.explore(m, known, start [,
-- options]): a shortest walk to the nearest cell next to the unknown, or
-- nil and "explored" (options: avoid, blocked, cost, diagonal).
local map = require "map"
local support = require "spec.support"
local cases = require "spec.hostile_cases"
local assert = require "luassert"

local bad = {}
local function add(message, call) bad[#bad + 1] = { "map.explore: " .. message, call } end
cases.append(bad, cases.cells("map.explore", function(f, x, y) return map.explore(f.small, {}, x, y) end,
  function(f, c) return map.explore(f.small, {}, c) end, "start", "x", "y", 5, 3))
-- Bad options and known rows.
add('unknown option "known" (options: avoid, blocked, cost, diagonal)',
  function(f) return map.explore(f.small, {}, 2, 2, { known = {} }) end)
add("known must be a table of rows, got nil", function(f) return map.explore(f.small, nil, 2, 2) end)
add("known must be a table of rows, got string", function(f) return map.explore(f.small, "k", 2, 2) end)
add("known[2] must be a table or nil, got number", function(f) return map.explore(f.small, { {}, 5 }, 2, 2) end)
add("avoid[1] must be a position {x=, y=}, got number",
  function(f) return map.explore(f.small, {}, 2, 2, { avoid = { 1 } }) end)
add("expected at most 5 arguments, got 6", function(f) return map.explore(f.small, {}, 2, 2, {}, 1) end)
add("m.blocked must be a string of characters, got number",
  function() return map.explore(cases.blocked_map(5), {}, 1, 1) end)

return {
  samples = {
    function(f) return map.explore(f.gen, f.gen_known, f.gen.player.x, f.gen.player.y) end,
    function(f) return map.explore(f.gen, f.gen_known, f.gen.player, { diagonal = true }) end,
    function(f) return map.explore(f.gen, { [f.gen.player.y] = { [f.gen.player.x] = true } }, f.gen.player) end,
  },
  with_options = function(f, o) return map.explore(f.gen, f.gen_known, f.gen.player, o) end,
  bad = bad,
  reads_map = function(m) return map.explore(m, {}, 1, 1) end,
  accepts = {
    function(f)
      assert.are.same({ { x = 2, y = 2 } }, map.explore(f.small, { {}, { [2] = true } }, 2, 2))
      assert.are.same({ nil, "explored" }, { map.explore(f.small, { cases.trap(), cases.trap(), cases.trap() }, 2, 2) })
    end,
  },
  storm = {
    function(a) return map.explore(a.m, a.known, 1, 1, a.options) end,
    function(a) return map.explore(a.walled, a.known, 1, 1) end,
  },
  big = function(h) return { { h.open, h.known, h.half, h.half, what = "all known" } } end,
  -- Everything known but the far cell: the longest way to a frontier.
  memory = { kind = "path", call = function(s) return map.explore(s.m, s.known, s.from) end },
  reference = { spec = "spec/explore_spec.lua", bench = "bench/turns.lua" },
  method = {
    samples = {
      function(f) return f.designed, f.designed_memory, f.designed.player.x, f.designed.player.y end,
      function(f) return f.designed, f.designed_seen, f.designed.player end,
      function(f)
        return f.designed, map.fov(f.designed:table(), f.designed.player, 3), f.designed.player, { occupied = true }
      end,
    },
    with_options = function(f, o) return f.designed:explore(f.designed_memory, f.designed.player, o) end,
    bad = {
      { "level:explore: known must be a field of flags (fov, a memory), got a field of values",
        function(f) return f.lvl20:explore(f.lvl20_d, 2, 2) end },
    },
    storm = function(a) return a.lvl:explore(a.known, 1, 1, a.options) end,
    -- And a memory on the level, marked by its fov, in place of the table.
    cases = function(m, rand, lvl)
      local list = {}
      for _ = 1, 3 do
        local a = support.open_cell(m, rand)
        local known = map.fov(m, a, 6)
        local memory = lvl:field()
        lvl:fov(a, 6, { into = memory })
        list[#list + 1] = { known, a, { diagonal = rand(2) == 1 } }
        list[#list + 1] = { known, a, level = { memory, a } }
      end
      list[#list + 1] = { {}, support.open_cell(m, rand), { cost = 0 }, fails = true }
      return list
    end,
    big = "map.explore's cases: the level's cells are held natively, the path is the same table",
    memory = "map.explore's: a path, the same table from a level",
    reference = { spec = "spec/explore_spec.lua", bench = "bench/level.lua" },
  },
}
