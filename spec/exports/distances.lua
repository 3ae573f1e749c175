-- map.distances(m, sources [, options]): the walking distance of every
-- cell from the nearest source (a position, or an array of them, each
-- with an optional start value), as rows of integers and false
-- (options: avoid, blocked, cost, diagonal, known, max, straight).
local map = require "map"
local support = require "spec.support"
local cases = require "spec.hostile_cases"
local assert = require "luassert"

local P = { x = 2, y = 2 }
local bad = {}
local function add(message, call) bad[#bad + 1] = { "map.distances: " .. message, call } end
-- Sources outside the map, not integers or not numbers.
for _, case in ipairs(cases.COORDS) do
  local x, y = case[1], case[2]
  add("sources." .. case[3], function(f) return map.distances(f.small, { x = x, y = y }) end)
  add("sources[2]." .. case[3], function(f) return map.distances(f.small, { { x = 2, y = 2 }, { x = x, y = y } }) end)
end
for _, case in ipairs(cases.BAD_NUMBERS) do
  local value, shown = case[1], case[2]
  if value ~= nil then
    add("sources.x must be an integer from 1 to 3, got " .. shown,
      function(f) return map.distances(f.open3, { x = value, y = 1 }) end)
  end
end
-- Bad sources, an empty array among them, read raw.
local ANY = "sources must be a position {x=, y=} or a non-empty array of them, got "
add(ANY .. "nil", function(f) return map.distances(f.small, nil) end)
for _, case in ipairs({
  { 5, ANY .. "number" }, { "x", ANY .. "string" }, { true, ANY .. "boolean" }, { {}, ANY .. "an empty table" },
  { print, ANY .. "function" }, { cases.trap(), ANY .. "an empty table" },
  { { 5 }, "sources[1] must be a position {x=, y=}, got number" },
  { { { x = 2 } }, "sources[1].y must be an integer from 1 to 3, got nil" },
  { { x = 2 }, "sources.y must be an integer from 1 to 3, got nil" },
  { { { x = 2, y = 2 }, "x" }, "sources[2] must be a position {x=, y=}, got string" },
  { { { x = 1, y = 1 }, 5 }, "sources[2] must be a position {x=, y=}, got number" },
}) do
  add(case[2], function(f) return map.distances(f.small, case[1]) end)
end
-- An array's length is its probe border: { P, nil, P } is one position
-- long, { [2] = P } empty; a nil before the border is named.
add("sources[3] must be a position {x=, y=}, got nil", function(f) return map.distances(f.small, { P, P, nil, P }) end)
add(ANY .. "an empty table", function(f) return map.distances(f.small, { [2] = P }) end)
-- Bad options, read raw.
cases.append(bad, cases.walk_options("map.distances",
  function(f, options) return map.distances(f.small, { x = 2, y = 2 }, options) end, true))
add('unknown option "opaque" (options: avoid, blocked, cost, diagonal, known, max, straight)',
  function(f) return map.distances(f.small, { x = 2, y = 2 }, { opaque = "#" }) end)
add('unknown option "colour" (options: avoid, blocked, cost, diagonal, known, max, straight)',
  function(f) return map.distances(f.small, { x = 2, y = 2 }, { colour = 1 }) end)
for _, case in ipairs({ { 0, "0" }, { -1, "-1" }, { 0.5, "0.5" }, { 0 / 0, "nan" }, { 2 ^ 31, "2147483648" } }) do
  add('cost["."] must be an integer from 1 to 1073741824, got ' .. case[2],
    function(f) return map.distances(f.open3, { x = 1, y = 1 }, { cost = { ["."] = case[1] } }) end)
end
add("options must be a table, got number", function(f) return map.distances(f.small, { x = 2, y = 2 }, 5) end)
add("expected at most 3 arguments, got 4", function(f) return map.distances(f.small, { x = 2, y = 2 }, {}, 1) end)
-- avoid, known and max, read raw; flee's factor is no option here.
for _, case in ipairs(cases.limits(5, 3)) do
  add(case[2], function(f) return map.distances(f.small, P, case[1]) end)
end
add('unknown option "factor" (options: avoid, blocked, cost, diagonal, known, max, straight)',
  function(f) return map.distances(f.small, P, { factor = -1 }) end)
-- Bad start values.
cases.append(bad, cases.start_values("map.distances", function(f, sources) return map.distances(f.small, sources) end))
-- A bad m.blocked.
add("m.blocked must be a string of characters, got number",
  function() return map.distances(cases.blocked_map(5), P) end)
add("m.blocked must be a string of characters, got table",
  function() return map.distances(cases.blocked_map({ "#" }), P) end)

-- The options a level's distances are compared with its table function's under.
local function options(m, rand, p)
  return ({ {}, { diagonal = true }, { max = rand(12) }, { cost = { ["."] = 1, ["+"] = 3 } },
    { avoid = { support.open_cell(m, rand) }, diagonal = true }, { known = map.fov(m, p, 6) } })[rand(6)]
end

return {
  samples = {
    function(f) return map.distances(f.gen, f.gen.player) end,
    function(f) return map.distances(f.gen, f.gen.items, { diagonal = true, cost = { ["."] = 2 } }) end,
  },
  with_options = function(f, o) return map.distances(f.gen, f.gen.player, o) end,
  bad = bad,
  reads_map = function(m) return map.distances(m, { x = 1, y = 1 }) end,
  accepts = {
    -- A trap is read raw: no metamethod runs, and an empty trap is empty.
    function(f) assert.is_table(map.distances(f.open3, { x = 1, y = 1 }, cases.trap())) end,
    -- { [2] = P } is an empty avoid, { P, nil, P } avoids P alone.
    function(f)
      local m = f.small
      assert.are.same(map.distances(m, P), map.distances(m, P, { avoid = { [2] = P } }))
      assert.are.same(map.distances(m, P, { avoid = { x = 3, y = 2 } }),
        map.distances(m, P, { avoid = { { x = 3, y = 2 }, nil, P } }))
    end,
    -- Traps are read raw: an empty avoid, an empty known (nothing known).
    function(f)
      local m = f.small
      assert.is_table(map.distances(m, P, { avoid = cases.trap(), known = cases.trap() }))
      assert.are.equal(0, map.distances(m, P, { known = cases.trap() })[2][2])
      assert.is_false(map.distances(m, P, { known = cases.trap() })[2][3])
    end,
    -- { P, nil, P } is one position long.
    function(f) assert.are.same(map.distances(f.small, P), map.distances(f.small, { P, nil, P })) end,
  },
  storm = {
    function(a) return map.distances(a.m, a.sources, a.options) end,
    function(a) return map.distances(a.m, a.sources[1], a.options) end,
    function(a) return map.distances(a.m, a.sources, a.limits) end,
    function(a) return map.distances(a.walled, a.sources[1]) end,
  },
  big = function(h)
    return {
      { h.open, { x = 1, y = 1 } },
      { h.narrow, h.spot, h.costs, what = "1-wide, costs" },
      { h.one, h.sources, h.costs, what = "many sources, costs" },
      { h.one, h.sources, what = "many sources" },
      { h.open, { x = h.half, y = h.half }, h.limits, what = "avoid, known, max" },
    }
  end,
  memory = {
    { kind = "rows", call = function(s) return map.distances(s.m, s.from) end },
    { kind = "rows", what = "within max", call = function(s) return map.distances(s.m, s.from, { max = 5 }) end },
  },
  reference = { spec = "spec/distances_spec.lua", bench = "bench/toolkit.lua" },
  method = {
    samples = {
      function(f) return f.designed, f.designed.player end,
      function(f)
        return f.designed, { f.designed.player, f.designed.stairs },
          { max = 6, occupied = true, known = f.designed_memory }
      end,
      function(f) return f.designed, f.designed.player, { occupied = 10, diagonal = 3, straight = 2 } end,
    },
    with_options = function(f, o) return f.designed:distances(f.designed.player, o) end,
    bad = {
      { "level:distances: known is a field of 3x3, the level is 20x10",
        function(f) return f.lvl20:distances(f.m20.player, { known = f.field3 }) end },
      -- Where a level takes more, its message says so: `occupied`.
      { 'level:distances: unknown option "colour" (options: avoid, blocked, cost, diagonal, known, max, occupied, '
        .. 'straight)',
        function(f) return f.lvl20:distances(f.m20.player, { colour = 1 }) end },
      { "level:distances: occupied must be a boolean or an integer from 1 to 1073741824, got -3",
        function(f) return f.lvl20:distances(f.m20.player, { occupied = -3 }) end },
    },
    storm = function(a) return a.lvl:distances(a.sources, a.limits) end,
    cases = function(m, rand)
      local list = {}
      for _ = 1, 3 do
        local p = support.open_cell(m, rand)
        local sources = rand(2) == 1 and p or { p, support.open_cell(m, rand) }
        list[#list + 1] = { sources, options(m, rand, p) }
      end
      cases.append(list, { { {}, fails = true }, { support.open_cell(m, rand), { max = -1 }, fails = true } })
      return list
    end,
    big = "a field of the level's size, held natively: map.distances' table is the case that grows",
    memory = { kind = "native", call = function(s) return s.lvl:distances(s.from) end },
    reference = { spec = "spec/level_spec.lua", bench = "bench/level.lua" },
  },
}
