-- map.fov(m, x, y [, radius [, options]]) / map.fov(m, origin [, radius [,
-- options]]): the cells in sight of the origin, as rows of true
-- (options: opaque).
local map = require "map"
local support = require "spec.support"
local cases = require "spec.hostile_cases"
local assert = require "luassert"

local bad = {}
-- Coordinates outside the map, not integers or not numbers.
for _, case in ipairs(cases.COORDS) do
  local x, y = case[1], case[2]
  bad[#bad + 1] = { "map.fov: " .. case[3], function(f) return map.fov(f.small, x, y) end }
end
for _, case in ipairs(cases.BAD_NUMBERS) do
  local value, shown = case[1], case[2]
  if value ~= nil then
    bad[#bad + 1] = { "map.fov: x must be an integer from 1 to 3, got " .. shown,
      function(f) return map.fov(f.open3, value, 1) end }
    bad[#bad + 1] = { "map.fov: y must be an integer from 1 to 3, got " .. shown,
      function(f) return map.fov(f.open3, 1, value) end }
  end
end
for _, case in ipairs(cases.HUGE) do
  bad[#bad + 1] = { "map.fov: x must be an integer from 1 to 3, got " .. case[2],
    function(f) return map.fov(f.open3, case[1], 1) end }
end
-- A bad radius (any radius >= 0 is taken: no limit).
for _, case in ipairs({ { -1, "-1" }, { 1.5, "1.5" }, { "3", 'string "3"' }, { true, "boolean" }, { {}, "table" },
  { 0 / 0, "nan" }, { 1 / 0, "inf" }, { -2 ^ 53, "-9007199254740992" } }) do
  bad[#bad + 1] = { "map.fov: radius must be an integer >= 0, got " .. case[2],
    function(f) return map.fov(f.small, 2, 2, case[1]) end }
end
for _, case in ipairs(cases.BAD_NUMBERS) do
  local value, shown = case[1], case[2]
  if value ~= nil and shown ~= "0" then
    bad[#bad + 1] = { "map.fov: radius must be an integer >= 0, got " .. shown,
      function(f) return map.fov(f.open3, 1, 1, value) end }
  end
end
-- Bad options, read raw.
for _, case in ipairs({ { 5, "5" }, { true, "boolean" }, { {}, "table" } }) do
  bad[#bad + 1] = { "map.fov: opaque must be a string of characters, got " .. case[2],
    function(f) return map.fov(f.small, 2, 2, nil, { opaque = case[1] }) end }
end
cases.append(bad, {
  { 'map.fov: unknown option "colour" (options: opaque)',
    function(f) return map.fov(f.small, 2, 2, nil, { colour = 1 }) end },
  { 'map.fov: unknown option "blocked" (options: opaque)',
    function(f) return map.fov(f.small, 2, 2, 3, { blocked = "#" }) end },
  { 'map.fov: unknown option "radius" (options: opaque)',
    function(f) return map.fov(f.open3, 1, 1, nil, { radius = 2 }) end },
  { "map.fov: options must be a table, got string", function(f) return map.fov(f.small, 2, 2, 3, "#") end },
  -- Arguments counted, trailing nils included.
  { "map.fov: expected at most 5 arguments, got 6", function(f) return map.fov(f.small, 2, 2, 3, {}, 1) end },
  { "map.fov: expected at most 5 arguments, got 6", function(f) return map.fov(f.small, 2, 2, nil, nil, nil) end },
})
-- A bad cell as x, y and as a position, named by what it stands for.
cases.append(bad, cases.cells("map.fov", function(f, x, y) return map.fov(f.small, x, y) end,
  function(f, c) return map.fov(f.small, c) end, "origin", "x", "y", 5, 3))

local open_cell = support.open_cell

return {
  samples = {
    function(f) return map.fov(f.gen, f.gen.player.x, f.gen.player.y) end,
    function(f) return map.fov(f.gen, 2, 2, 3, { opaque = "#" }) end,
  },
  with_options = function(f, options) return map.fov(f.gen, f.gen.player.x, f.gen.player.y, 4, options) end,
  bad = bad,
  reads_map = function(m) return map.fov(m, 1, 1) end,
  accepts = {
    function(f)
      for _, case in ipairs(cases.HUGE) do assert.is_table(map.fov(f.open3, 2, 2, case[1])) end
    end,
    -- A trap is read raw: no metamethod runs, and an empty trap is empty.
    function(f) assert.is_table(map.fov(f.open3, 2, 2, nil, cases.trap())) end,
  },
  storm = function(a) return map.fov(a.m, 2, 2, 3, { opaque = "#" }) end,
  big = function(h) return { { h.open, h.half, h.half } } end,
  memory = { kind = "fov", call = function(s) return map.fov(s.m, s.from.x, s.from.y) end },
  reference = { spec = "spec/fov_spec.lua", bench = "bench/toolkit.lua" },
  method = {
    samples = {
      function(f) return f.designed, f.designed.player.x, f.designed.player.y end,
      function(f) return f.designed, f.designed.player, 4 end,
      function(f) return f.designed, f.designed.player.x, f.designed.player.y, 3, { opaque = "#" } end,
      -- With into: a count.
      function(f) return f.designed, f.designed.player, 8, { into = f.designed_memory } end,
      function(f) return f.designed, f.designed.player.x, f.designed.player.y, nil, { into = f.designed:field() } end,
    },
    with_options = function(f, options) return f.designed:fov(f.designed.player, 4, options) end,
    bad = {
      { "level:fov: into must be a memory (map.field or level:field()), got number",
        function(f) return f.lvl20:fov(2, 2, 3, { into = 5 }) end },
      { 'level:fov: unknown option "colour" (options: field, into, opaque)',
        function(f) return f.lvl20:fov(2, 2, 3, { colour = 1 }) end },
      { "level:fov: into must be a memory (map.field or level:field()), got a freed field", function(f)
        return cases.freed(function() return f.lvl20:field() end,
          function(memory) return f.lvl20:fov(2, 2, 3, { into = memory }) end)
      end },
    },
    storm = function(a) return a.lvl:fov(2, 2, 3, { into = a.lvl:field() }) end,
    cases = function(m, rand)
      local list = {}
      for _ = 1, 3 do
        local p = open_cell(m, rand)
        local radius = ({ nil, 0, 1, 5, 8, 100 })[rand(6)]
        local opaque = ({ nil, { opaque = "#" }, { opaque = "#+" } })[rand(3)]
        list[#list + 1] = { p, radius, opaque, n = 3 }
      end
      local p = open_cell(m, rand)
      cases.append(list, { { 0, 1, fails = true }, { p, -1, fails = true }, { p, 8, { opaque = 1 }, fails = true } })
      return list
    end,
    big = "a field of the level's size, held natively: map.fov's table is the case that grows",
    memory = { kind = "native", call = function(s) return s.lvl:fov(s.from) end },
    reference = { spec = "spec/level_spec.lua", bench = "bench/level.lua" },
  },
}
