-- map.reachable(m): true, or false and why, when a cell that must be
-- reachable from @ is not (walking by m.blocked).
local map = require "map"
local cases = require "spec.hostile_cases"
local assert = require "luassert"

return {
  samples = {
    function(f) return map.reachable(f.gen) end,
    function() return map.reachable({ { "@", "#", ">" } }) end,
  },
  bad = {
    { "map.reachable: expected at most 1 argument, got 2", function() return map.reachable({ { "#", "#" } }, 1) end },
    { "map.reachable: m.blocked must be a string of characters, got number",
      function() return map.reachable(cases.blocked_map(5)) end },
  },
  reads_map = function(m) return map.reachable(m) end,
  accepts = {
    -- Rows read raw, metatables on the map and its rows ignored.
    function() assert.is_true(map.reachable(cases.trapped({ cases.trapped({ "@", ">" }) }))) end,
    function()
      assert.are.same({ false, "no @ on the map" }, { map.reachable({ { ".", ">" } }) })
      assert.is_true(map.reachable({ { "@", "\0", "$" } }))
    end,
    -- A good m.blocked is taken; the table's cells with raising
    -- metamethods are not consulted.
    function()
      local m = cases.blocked_map("~")
      assert.is_true(map.reachable(m))
      m[1][2] = "~"
      assert.are.same({ false, "not reachable from @ at (1,1): > at (3,1)" }, { map.reachable(m) })
      assert.is_true(map.reachable(cases.trapped(cases.blocked_map(nil))))
    end,
  },
  storm = {
    function(a) return map.reachable(a.m) end,
    function(a) return map.reachable(a.walled) end,
  },
  big = function(h) return { { h.open } } end,
  memory = "true, or false and a short message: no result grows with the map",
  reference = { spec = "spec/api_spec.lua", bench = "bench/bench.lua" },
  method = {
    samples = {
      function(f) return f.designed end,
      function(f) return f.plain_lvl end,
      function(f) return f.world_lvl end,
    },
    bad = {
      { "level:reachable: expected at most 1 argument, got 2", function(f) return f.lvl20:reachable(1) end },
    },
    storm = {
      function(a) return a.lvl:reachable() end,
      function(a) return map.level(a.walled):reachable() end,
    },
    cases = function() return { {}, { 1, fails = true } } end,
    big = "checks from @ over the level's cells, held natively: true, or false and a message",
    memory = "true, or false and a short message: no result grows with the map",
    reference = { spec = "spec/level_spec.lua", bench = {
      setup = function()
        local m = map.generate(80, 50, 1)
        return { m = m, lvl = map.level(m) }
      end,
      run = function(s) return s.lvl:reachable() end,
      -- In Lua: the stairs reached by a search from @.
      lua = function(s)
        local d = require("spec.reference.distances").distances(s.m, s.m.player)
        return d[s.m.stairs.y][s.m.stairs.x]
      end,
    } },
  },
}
