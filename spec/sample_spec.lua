-- map.sample on Lua 5.4 and LuaJIT (see .busted): the cells drawn pass every
-- filter (spec/reference/sample.lua lists the candidates), are distinct and
-- the same for a seed on both interpreters. Bad arguments: hostile_spec.lua.
local map = require "map"
local support = require "spec.support"
local candidates = require("spec.reference.sample").candidates

local from_text, each_level = support.from_text, support.each_level
local fmt = string.format

-- The cells drawn for these arguments, as text.
local function drawn(m, count, options)
  local parts = {}
  for i, c in ipairs(map.sample(m, count, options)) do parts[i] = fmt("%d,%d", c.x, c.y) end
  return table.concat(parts, " ")
end

describe("map.sample", function()
  it("draws distinct candidates, as many as asked, on 312 generated levels", function()
    each_level(function(m, name, rand)
      local options = {
        {}, { chars = ".$!" }, { from = m.player, min = 4 + rand(6) }, { from = m.player, max = 3 + rand(9) },
        { from = m.player, min = 3, hidden = true }, { from = m.stairs, hidden = true, opaque = "#" },
        { from = m.player, min = 2, max = 12, diagonal = true, blocked = "#$" },
      }
      local o = options[rand(#options)]
      o.seed = rand(1000)
      local allowed = {}
      local list = candidates(m, o)
      for _, c in ipairs(list) do allowed[c[2] * 10000 + c[1]] = true end
      local count = math.min(#list, rand(8) - 1)
      local cells = map.sample(m, count, o)
      assert.are.equal(count, #cells, name)
      local seen = {}
      for _, c in ipairs(cells) do
        local k = c.y * 10000 + c.x
        assert(allowed[k], fmt("%s: (%d,%d) is not a candidate", name, c.x, c.y))
        assert(not seen[k], fmt("%s: (%d,%d) twice", name, c.x, c.y))
        seen[k] = true
      end
      local ok, err = pcall(map.sample, m, #list + 1, o)
      assert.is_false(ok)
      local s = #list == 1 and "" or "s"
      assert.are.equal(fmt("map.sample: count is %d but only %d cell%s can be drawn", #list + 1, #list, s), err)
    end)
  end)

  it("draws the same cells for the same seed, on every run and interpreter", function()
    local m = map.generate { width = 60, height = 20, seed = 3 }
    assert.are.equal(drawn(m, 6, { seed = 7 }), drawn(m, 6, { seed = 7 }))
    assert.are_not.equal(drawn(m, 6, { seed = 7 }), drawn(m, 6, { seed = 8 }))
    -- Pinned: the draws of crate::rng::Rng, the same on Lua 5.4 and LuaJIT.
    assert.are.equal("24,16 45,2 29,4 26,19 44,16", drawn(m, 5, { seed = 1 }))
    assert.are.equal("50,4 29,11 33,16", drawn(m, 3, { seed = -2 ^ 53, from = m.player, min = 20 }))
    -- Without a seed, a fresh one: still distinct cells of the map.
    assert.are.equal(4, #map.sample(m, 4))
    assert.are.same({}, map.sample(m, 0, { seed = 1 }))
  end)

  it("keeps to the walking distance and out of sight", function()
    local m = from_text("......\n####.#\n......")
    local near = map.sample(m, 3, { seed = 1, from = { x = 1, y = 1 }, min = 6, max = 7 })
    table.sort(near, function(a, b) return a.x < b.x end)
    assert.are.same({ { x = 4, y = 3 }, { x = 5, y = 3 }, { x = 6, y = 3 } }, near)
    -- Out of sight of (1,1): row 3, and (5,2) behind the wall (4,2).
    local ok, err = pcall(map.sample, m, 8, { seed = 1, from = { x = 1, y = 1 }, hidden = true })
    assert.is_false(ok)
    assert.are.equal("map.sample: count is 8 but only 7 cells can be drawn", err)
    -- A cell walled off from `from` is never drawn, whatever min says.
    local cut = from_text("..#..")
    assert.are.equal(1, #map.sample(cut, 1, { seed = 1, from = { x = 1, y = 1 }, min = 1 }))
    ok, err = pcall(map.sample, cut, 2, { seed = 1, from = { x = 1, y = 1 }, min = 1 })
    assert.is_false(ok)
    assert.are.equal("map.sample: count is 2 but only 1 cell can be drawn", err)
  end)
end)
