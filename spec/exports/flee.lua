-- map.flee(m, sources [, options]): a safety map, the distances from the
-- sources scaled by `factor` and rescanned, as rows of integers and false
-- (options: those of distances, and factor).
local map = require "map"
local support = require "spec.support"
local cases = require "spec.hostile_cases"
local assert = require "luassert"

local P = { x = 2, y = 2 }
local bad = {}
local function add(message, call) bad[#bad + 1] = { "map.flee: " .. message, call } end
-- avoid, known and max, read raw.
for _, case in ipairs(cases.limits(5, 3)) do
  add(case[2], function(f) return map.flee(f.small, P, case[1]) end)
end
cases.append(bad, cases.start_values("map.flee", function(f, sources) return map.flee(f.small, sources) end))
-- A bad factor.
for _, case in ipairs({ { 0, "0" }, { -0.05, "-0.05" }, { -10.5, "-10.5" }, { 1, "1" }, { "x", 'string "x"' },
  { true, "boolean" }, { 0 / 0, "nan" }, { -1 / 0, "-inf" }, { {}, "table" } }) do
  add("factor must be a number from -10 to -0.1, got " .. case[2],
    function(f) return map.flee(f.small, P, { factor = case[1] }) end)
end
add("m.blocked must be a string of characters, got number",
  function() return map.flee(cases.blocked_map(5), { x = 1, y = 1 }) end)

-- The options a level's flee is compared with its table function's under.
local function options(m, rand, p)
  return ({ {}, { diagonal = true }, { max = rand(12) }, { cost = { ["."] = 1, ["+"] = 3 } },
    { avoid = { support.open_cell(m, rand) }, diagonal = true }, { known = map.fov(m, p, 6) } })[rand(6)]
end

return {
  samples = {
    function(f) return map.flee(f.gen, f.gen.player) end,
    function(f) return map.flee(f.gen, { { x = 2, y = 2, value = 3 }, f.gen.stairs }, { factor = -2, max = 30 }) end,
  },
  with_options = function(f, o) return map.flee(f.gen, f.gen.player, o) end,
  bad = bad,
  reads_map = function(m) return map.flee(m, { x = 1, y = 1 }) end,
  accepts = {
    function(f)
      assert.is_table(map.flee(f.small, P, { factor = -10 }))
      assert.is_table(map.flee(f.small, P, { factor = -0.1 }))
    end,
  },
  storm = {
    function(a) return map.flee(a.m, a.sources, a.limits) end,
    function(a) return map.flee(a.walled, a.sources[1]) end,
  },
  big = function(h)
    return {
      { h.open, h.spot },
      { h.narrow, h.spot, h.costs, what = "1-wide, costs" },
    }
  end,
  memory = { kind = "rows", call = function(s) return map.flee(s.m, s.from) end },
  reference = { spec = "spec/flee_spec.lua", bench = "bench/turns.lua" },
  method = {
    samples = {
      function(f) return f.designed, f.designed.player end,
      function(f)
        local p = f.designed.player
        return f.designed, { { x = p.x, y = p.y, value = 2 } }, { factor = -2, known = f.designed_seen }
      end,
    },
    with_options = function(f, o) return f.designed:flee(f.designed.player, o) end,
    bad = {
      { "level:flee: self must be a level, got number", function(f) return f.lvl20.flee(1) end },
      -- A freed field is named, and as a field (it once read "sources").
      { "level:flee: d must be a field of values of the level's size, got a freed field", function(f)
        return cases.freed(function() return f.lvl20:distances(f.m20.player) end,
          function(d) return f.lvl20:flee(d) end)
      end },
    },
    storm = function(a) return a.lvl:flee(a.sources, a.options) end,
    -- And from the distance field, its search not done again (the options
    -- but max, which the field's search applied): the same map.
    cases = function(m, rand, lvl)
      local list = {}
      for _ = 1, 3 do
        local p = support.open_cell(m, rand)
        local o = options(m, rand, p)
        local sources = rand(2) == 1 and p or { p, support.open_cell(m, rand) }
        local rest = {}
        for k, v in pairs(o) do if k ~= "max" then rest[k] = v end end
        list[#list + 1] = { sources, o }
        list[#list + 1] = { sources, o, level = { lvl:distances(sources, o), rest } }
      end
      list[#list + 1] = { support.open_cell(m, rand), { factor = 5 }, fails = true }
      return list
    end,
    big = "a field of the level's size, held natively: map.flee's table is the case that grows",
    memory = { kind = "native", call = function(s) return s.lvl:flee(s.from) end },
    reference = { spec = "spec/level_spec.lua", bench = "bench/level.lua" },
  },
}
