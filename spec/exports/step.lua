-- map.step(m, d, x, y [, options]) / map.step(m, d, from [, options]): the
-- neighbour to step to down the distance map d (x, y), or nil where no step
-- goes down (options: avoid, blocked, diagonal, known).
local map = require "map"
local support = require "spec.support"
local cases = require "spec.hostile_cases"
local assert = require "luassert"

local bad = {}
local function add(message, call) bad[#bad + 1] = { "map.step: " .. message, call } end
cases.append(bad, cases.cells("map.step", function(f, x, y) return map.step(f.open3, f.open3_d, x, y) end,
  function(f, c) return map.step(f.open3, f.open3_d, c) end, "from", "x", "y", 3, 3))
-- A bad distance map, reading only the cell and its neighbours.
add("d must be a table of rows, got nil", function(f) return map.step(f.open3, nil, 2, 2) end)
add("d must be a table of rows, got number", function(f) return map.step(f.open3, 5, 2, 2) end)
add("d[1] must be a table, got nil", function(f) return map.step(f.open3, {}, 2, 2) end)
add("d[3] must be a table, got string",
  function(f) return map.step(f.open3, { { 1, 1, 1 }, { 1, 1, 1 }, "row" }, 2, 2) end)
for _, case in ipairs({ { true, "boolean" }, { "1", 'string "1"' }, { 1.5, "1.5" }, { 0 / 0, "nan" },
  { 1 / 0, "inf" }, { 2 ^ 53 + 2, "9007199254740994" }, { -2 ^ 54, "-18014398509481984" }, { {}, "table" },
  { nil, "nil" }, { print, "function" } }) do
  add("d[2][3] must be false or an integer with |v| <= 2^53, got " .. case[2], function(f)
    local rows = { { 1, 1, 1 }, { 1, 1, 1 }, { 1, 1, 1 } }
    rows[2][3] = case[1]
    return map.step(f.open3, rows, 2, 2)
  end)
end
-- Bad options and known rows.
add('unknown option "cost" (options: avoid, blocked, diagonal, known)',
  function(f) return map.step(f.open3, f.open3_d, 2, 2, { cost = {} }) end)
add('unknown option "max" (options: avoid, blocked, diagonal, known)',
  function(f) return map.step(f.open3, f.open3_d, 2, 2, { max = 1 }) end)
add("options must be a table, got number", function(f) return map.step(f.open3, f.open3_d, 2, 2, 5) end)
add("known[1] must be a table or nil, got number",
  function(f) return map.step(f.open3, f.open3_d, 2, 2, { known = { 7 } }) end)
add("m.blocked must be a string of characters, got number",
  function() return map.step(cases.blocked_map(5), { { 1, 0, 1 } }, 1, 1) end)

return {
  samples = {
    function(f) return map.step(f.gen, f.gen_d, f.gen.player.x, f.gen.player.y) end,
    function(f) return map.step(f.gen, f.gen_d, f.gen.player, { diagonal = true }) end,
    function(f) return map.step(f.gen, f.gen_d, f.gen.stairs) end,
  },
  with_options = function(f, o) return map.step(f.gen, f.gen_d, f.gen.player, o) end,
  bad = bad,
  -- It reads the cell's 3x3 window, which holds every bad cell there.
  reads_map = function(m) return map.step(m, { { 0, 0 }, { 0, 0 } }, 1, 1) end,
  accepts = {
    function(f)
      assert.are.same({ 1, 1 }, { map.step(f.open3, { { 0, 1, 1 }, { 2 ^ 53, 2, 1 }, { 1, 1, 1 } }, 1, 2) })
      assert.are.same({ 2, 1 }, { map.step(f.open3, { { 5, -2 ^ 53 }, { 1, 1 } }, 1, 1) })
    end,
    -- A trap is read raw.
    function(f) assert.is_nil(map.step(f.open3, { cases.trapped({ 1, 1 }), { 1, 1 } }, 1, 1)) end,
  },
  storm = function(a) return map.step(a.m, a.d, a.sources[1], a.limits) end,
  big = "reads the 3x3 cells around one cell and returns two integers, whatever the map",
  memory = "two integers",
  reference = { spec = "spec/step_spec.lua", bench = "bench/turns.lua" },
  method = {
    samples = {
      function(f) return f.designed, f.designed_d, f.designed.stairs.x, f.designed.stairs.y end,
      function(f) return f.designed, f.designed_away, f.designed.player, { occupied = true } end,
      function(f) return f.designed, f.designed_d:table(), f.designed.stairs end,
    },
    with_options = function(f, o) return f.designed:step(f.designed_d, f.designed.stairs, o) end,
    bad = {
      { "level:step: d must be a field of values (distances, flee), got a field of flags",
        function(f) return f.lvl20:step(f.lvl20_seen, 2, 2) end },
      -- Where a level takes more, its message says so: a field for d.
      { "level:step: d must be a table of rows or a field, got number",
        function(f) return f.lvl20:step(7, f.m20.player) end },
    },
    storm = function(a)
      local d = a.lvl:distances(a.sources[1])
      return a.lvl:step(d, a.sources[2], a.limits)
    end,
    -- A field in place of the table on the level, and the table itself.
    cases = function(m, rand, lvl)
      local list = {}
      for _ = 1, 3 do
        local a, b = support.open_cell(m, rand), support.open_cell(m, rand)
        local so = ({ {}, { diagonal = true }, { avoid = { b } }, { known = map.fov(m, a, 5) } })[rand(4)]
        local d = map.distances(m, b)
        list[#list + 1] = { d, a, so, level = { lvl:distances(b), a, so } }
        list[#list + 1] = { d, a, so }
      end
      list[#list + 1] = { map.distances(m, support.open_cell(m, rand)), 0, 0, fails = true }
      return list
    end,
    big = "reads the 3x3 cells around one cell and returns two integers, whatever the level",
    memory = "two integers",
    reference = { spec = "spec/level_spec.lua", bench = {
      setup = function()
        local m = map.generate { width = 80, height = 50, seed = 1, algorithm = "cave" }
        local lvl = map.level(m)
        return { m = m, lvl = lvl, field = lvl:distances(m.stairs), d = map.distances(m, m.stairs), from = m.player }
      end,
      run = function(s) return s.lvl:step(s.field, s.from) end,
      lua = function(s) return require("spec.reference.step").step(s.m, s.d, s.from.x, s.from.y) end,
    } },
  },
}
