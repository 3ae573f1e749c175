-- map.sample(m, count [, options]): `count` distinct cells drawn from the
-- map's floor, as positions, by filters (options: blocked, chars, diagonal,
-- from, hidden, max, min, opaque, rng, seed).
local map = require "map"
local support = require "spec.support"
local cases = require "spec.hostile_cases"
local assert = require "luassert"

local P = { x = 2, y = 2 }
local bad = {}
local function add(message, call) bad[#bad + 1] = { "map.sample: " .. message, call } end
for _, case in ipairs(cases.BAD_NUMBERS) do
  local value, shown = case[1], case[2]
  if value ~= 0 then
    add("count must be an integer >= 0, got " .. shown, function(f) return map.sample(f.small, value) end)
  end
end
for _, case in ipairs({
  { { seed = 1.5 }, "seed must be an integer with |seed| <= 2^53, got 1.5" },
  { { seed = "1" }, 'seed must be an integer with |seed| <= 2^53, got string "1"' },
  { { chars = 5 }, "chars must be a string of characters, got 5" },
  { { from = 5 }, "from must be a position {x=, y=}, got number" },
  { { from = { x = 0, y = 1 } }, "from.x must be an integer from 1 to 5, got 0" },
  { { from = cases.trap() }, "from.x must be an integer from 1 to 5, got nil" },
  { { from = P, min = -1 }, "min must be an integer >= 0, got -1" },
  { { from = P, max = 0.5 }, "max must be an integer >= 0, got 0.5" },
  { { from = P, hidden = 1 }, "hidden must be a boolean, got 1" },
  { { from = P, diagonal = "yes" }, 'diagonal must be a boolean, got string "yes"' },
  { { from = P, blocked = {} }, "blocked must be a string of characters, got table" },
  { { min = 3 }, "min needs from" }, { { max = 3 }, "max needs from" }, { { hidden = true }, "hidden needs from" },
  { { blocked = "#" }, "blocked needs from" }, { { diagonal = true }, "diagonal needs from" },
  { { from = P, opaque = "#" }, "opaque needs hidden = true" },
  { { colour = 1 }, 'unknown option "colour" (options: blocked, chars, diagonal, from, hidden, max, min, opaque, '
    .. "rng, seed)" },
}) do
  add(case[2], function(f) return map.sample(f.small, 1, case[1]) end)
end
add("count is 4 but only 3 cells can be drawn", function(f) return map.sample(f.small, 4) end)
add("count is 1000000000 but only 3 cells can be drawn", function(f) return map.sample(f.small, 1e9) end)
add("expected at most 3 arguments, got 4", function(f) return map.sample(f.small, 1, {}, 1) end)
add("rng must be a random source (map.rng), got table", function(f) return map.sample(f.m20, 2, { rng = {} }) end)
add("seed and rng are exclusive: give one", function(f) return map.sample(f.m20, 2, { rng = f.r, seed = 1 }) end)
add("m.blocked must be a string of characters, got number", function() return map.sample(cases.blocked_map(5), 1) end)

return {
  samples = {
    function(f) return map.sample(f.gen, 3) end,
    function(f) return map.sample(f.gen, 2, { seed = 1, from = f.gen.player, min = 5, hidden = true }) end,
  },
  with_options = function(f, o) return map.sample(f.gen, 2, o) end,
  bad = bad,
  reads_map = function(m) return map.sample(m, 0) end,
  accepts = {
    function(f)
      assert.are.equal(3, #map.sample(f.small, 3, { hidden = false, diagonal = false, seed = 1 }))
      assert.are.equal(1, #map.sample(f.small, 1, cases.trap()))
    end,
  },
  storm = {
    function(a) return map.sample(a.m, 2, { seed = 1, from = a.sources[1], min = 1, hidden = true }) end,
    function(a) return map.sample(a.m, 2, a.sampled) end,
  },
  -- Every cell of the open map is in sight of `spot`: none is hidden.
  big = function(h) return { { h.open, 0, { seed = 1, from = h.spot, min = 1, hidden = true } } } end,
  memory = { kind = "path", call = function(s) return map.sample(s.m, 10000, { seed = 1 }) end },
  reference = { spec = "spec/sample_spec.lua", bench = "bench/turns.lua" },
  method = {
    samples = {
      function(f) return f.designed, 2 end,
      function(f) return f.designed, 1, { seed = 1, from = f.designed.player, min = 3, occupied = true } end,
      function(f) return f.world_table_lvl, 3 end,
    },
    with_options = function(f, o) return f.designed:sample(2, o) end,
    bad = {
      { 'level:sample: occupied must be a boolean, got string "yes"',
        function(f) return f.lvl20:sample(1, { occupied = "yes" }) end },
      { "level:sample: rng must be a random source (map.rng), got string",
        function(f) return f.generated20:sample(2, { rng = "r" }) end },
    },
    storm = function(a) return a.lvl:sample(2, { seed = 1, occupied = true }) end,
    cases = function(m, rand)
      return {
        { 3, { seed = rand(100), from = support.open_cell(m, rand), min = 2 } },
        { 3, { seed = rand(100), from = support.open_cell(m, rand), min = 2 } },
        { 3, { seed = rand(100), from = support.open_cell(m, rand), min = 2 } },
        { -1, fails = true },
      }
    end,
    big = "map.sample's cases: the level's cells are held natively, the cells drawn are the same table",
    memory = { kind = "path", call = function(s) return s.lvl:sample(10000, { seed = 1 }) end },
    reference = { spec = "spec/sample_spec.lua", bench = {
      setup = function()
        local m = map.generate { width = 80, height = 50, seed = 1, algorithm = "cave" }
        return { m = m, lvl = map.level(m) }
      end,
      run = function(s) return #s.lvl:sample(3, { seed = 1 }) end,
      lua = function(s) return #require("spec.reference.sample").sample(s.m, 3, { seed = 1 }) end,
    } },
  },
}
