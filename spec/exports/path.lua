-- map.path(m, x1, y1, x2, y2 [, options]) (each cell also as a position):
-- a shortest walk from the start to the goal, as an array of positions, or
-- nil when there is none (options: avoid, blocked, cost, diagonal, known,
-- max).
local map = require "map"
local support = require "spec.support"
local cases = require "spec.hostile_cases"

local P = { x = 2, y = 2 }
local bad = {}
local function add(message, call) bad[#bad + 1] = { "map.path: " .. message, call } end
-- Coordinates outside the map, not integers or not numbers: path names its
-- four x1, y1, x2, y2.
for _, case in ipairs(cases.COORDS) do
  local x, y = case[1], case[2]
  local start = case[3]:gsub("^(%a)", "%11")
  local goal = case[3]:gsub("^(%a)", "%12")
  add(start, function(f) return map.path(f.small, x, y, 2, 2) end)
  add(goal, function(f) return map.path(f.small, 2, 2, x, y) end)
end
for _, case in ipairs(cases.BAD_NUMBERS) do
  local value, shown = case[1], case[2]
  if value ~= nil then
    add("x2 must be an integer from 1 to 3, got " .. shown, function(f) return map.path(f.open3, 1, 1, value, 1) end)
  end
end
-- Bad options, read raw.
cases.append(bad, cases.walk_options("map.path",
  function(f, options) return map.path(f.small, 2, 2, 4, 2, options) end, true))
add('unknown option "opaque" (options: avoid, blocked, cost, diagonal, known, max, straight)',
  function(f) return map.path(f.small, 2, 2, 4, 2, { opaque = "#" }) end)
add('unknown option "colour" (options: avoid, blocked, cost, diagonal, known, max, straight)',
  function(f) return map.path(f.small, 2, 2, 4, 2, { colour = 1 }) end)
add("options must be a table, got boolean", function(f) return map.path(f.small, 2, 2, 4, 2, true) end)
add("expected at most 6 arguments, got 7", function(f) return map.path(f.small, 2, 2, 4, 2, {}, 1) end)
-- avoid, known and max, read raw.
for _, case in ipairs(cases.limits(5, 3)) do
  add(case[2], function(f) return map.path(f.small, 2, 2, 4, 2, case[1]) end)
end
-- A bad cell as x, y and as a position, named by what it stands for.
cases.append(bad, cases.cells("map.path", function(f, x, y) return map.path(f.small, x, y, 2, 2) end,
  function(f, c) return map.path(f.small, c, 2, 2) end, "start", "x1", "y1", 5, 3))
cases.append(bad, cases.cells("map.path", function(f, x, y) return map.path(f.small, P, x, y) end,
  function(f, c) return map.path(f.small, P, c) end, "goal", "x2", "y2", 5, 3))
add("m.blocked must be a string of characters, got number",
  function() return map.path(cases.blocked_map(5), 1, 1, 3, 1) end)

return {
  samples = {
    function(f) return map.path(f.gen, f.gen.player.x, f.gen.player.y, f.gen.stairs.x, f.gen.stairs.y) end,
    function() return map.path({ { "@", "#", ">" } }, 1, 1, 3, 1) end,
  },
  with_options = function(f, o)
    return map.path(f.gen, f.gen.player.x, f.gen.player.y, f.gen.stairs.x, f.gen.stairs.y, o)
  end,
  bad = bad,
  reads_map = function(m) return map.path(m, 1, 1, 1, 1) end,
  storm = {
    function(a) return map.path(a.m, 1, 1, 4, 3, a.options) end,
    function(a) return map.path(a.m, a.sources[1], a.sources[2], a.limits) end,
    function(a) return map.path(a.walled, 1, 1, 4, 2) end,
  },
  big = function(h)
    return {
      { h.open, 1, 1, h.side, h.side },
      { h.narrow, 1, 1, 1, h.many, h.costs, what = "1-wide, costs" },
      { h.open, h.half, h.half, h.side, h.side, h.limits, what = "avoid, known, max" },
    }
  end,
  memory = { kind = "path", call = function(s) return map.path(s.m, s.from.x, s.from.y, s.to.x, s.to.y) end },
  reference = { spec = "spec/path_spec.lua", bench = "bench/toolkit.lua" },
  method = {
    samples = {
      function(f) return f.designed, f.designed.player.x, f.designed.player.y, f.designed.stairs.x,
        f.designed.stairs.y end,
      function(f) return f.designed, f.designed.player, f.designed.stairs, { occupied = true } end,
      function(f) return f.designed, f.designed.player, f.designed.stairs.x, f.designed.stairs.y end,
      function(f) return f.designed, f.designed.player.x, f.designed.player.y, f.designed.stairs end,
      function(f) return f.designed, f.designed.player, { x = 1, y = 1 } end,
      function(f)
        return f.designed, f.designed.player, f.designed.stairs, { occupied = 10, diagonal = 3, straight = 2 }
      end,
    },
    with_options = function(f, o) return f.designed:path(f.designed.player, f.designed.stairs, o) end,
    bad = {
      { "level:path: self must be a level, got number", function(f) return f.lvl20.path(1) end },
      { "level:path: occupied must be a boolean or an integer from 1 to 1073741824, got 0",
        function(f) return f.lvl20:path(f.m20.player, f.m20.stairs, { occupied = 0 }) end },
      { "level:path: occupied must be a boolean or an integer from 1 to 1073741824, got string \"1\"",
        function(f) return f.lvl20:path(f.m20.player, f.m20.stairs, { occupied = "1" }) end },
      { "level:path: the costliest step (cost 1 + occupied 1073741824, times 1) is 1073741825: it must be at most "
        .. "1073741824", function(f) return f.lvl20:path(f.m20.player, f.m20.stairs, { occupied = 2 ^ 30 }) end },
    },
    storm = function(a) return a.lvl:path(1, 1, 4, 3, a.limits) end,
    cases = function(m, rand)
      local list = {}
      for _ = 1, 3 do
        local a, b = support.open_cell(m, rand), support.open_cell(m, rand)
        list[#list + 1] = { a, b, ({ {}, { diagonal = true }, { max = rand(30) }, { cost = { ["."] = 2 } },
          { diagonal = 3, straight = 2 } })[rand(5)] }
      end
      list[#list + 1] = { support.open_cell(m, rand), 9999, 1, fails = true }
      return list
    end,
    big = "map.path's cases: the level's cells are held natively, the path is the same table",
    memory = { kind = "path", call = function(s) return s.lvl:path(s.from.x, s.from.y, s.to.x, s.to.y) end },
    reference = { spec = "spec/level_spec.lua", bench = {
      setup = function()
        local m = map.generate { width = 80, height = 50, seed = 1, algorithm = "cave" }
        return { m = m, lvl = map.level(m), from = m.player, to = m.stairs }
      end,
      run = function(s) return s.lvl:path(s.from, s.to) end,
      lua = function(s) return require("spec.reference.path").path(s.m, s.from.x, s.from.y, s.to.x, s.to.y) end,
    } },
  },
}
