-- map.flee on Lua 5.4 and LuaJIT (see .busted): against the pure-Lua
-- reference (spec/reference/flee.lua) on generated levels, and on hand-built
-- maps. Bad arguments: hostile_spec.lua.
local map = require "map"
local support = require "spec.support"
local ref_flee = require("spec.reference.flee").flee

local rows_diff = support.rows_diff
local from_text, each_level = support.from_text, support.each_level
local fmt = string.format

describe("map.flee", function()
  it("equals the reference on 312 generated levels, with every option", function()
    each_level(function(m, name, rand)
      local options = {
        {}, { factor = -0.1 }, { factor = -10 }, { factor = -1.7, diagonal = true }, { max = 8 },
        { cost = { ["."] = 1, ["$"] = 6 } }, { avoid = m.items, known = map.fov(m, m.player, 12) },
      }
      local o = options[rand(#options)]
      local sources = ({ m.player, m.items, { m.stairs, { x = m.player.x, y = m.player.y, value = 4 } } })[rand(3)]
      local why = rows_diff(map.flee(m, sources, o), ref_flee(m, sources, o))
      assert(not why, fmt("%s, %s: %s", name, support.options_text(o), tostring(why)))
    end)
  end)

  it("scales by the factor (rounded down), then lets each cell take a neighbour's plus a step", function()
    local m = from_text("#######\n#.....#\n#######")
    -- Distances 1 0 1 2 3 times -1.2: -2 0 -2 -3 -4; the source takes -2 + 1.
    assert.are.same({ false, -2, -1, -2, -3, -4, false }, map.flee(m, { x = 3, y = 2 })[2])
    assert.are.same({ false, -1, 0, -1, -1, -2, false }, map.flee(m, { x = 3, y = 2 }, { factor = -0.5 })[2])
    -- Times -10 the far end is so low that the rescan carries it all the way back.
    assert.are.same({ false, -26, -27, -28, -29, -30, false }, map.flee(m, { x = 3, y = 2 }, { factor = -10 })[2])
    -- As Lua computes math.floor(d * factor): 10 * -0.1 is -1.0 there too.
    local long = from_text("#" .. ("."):rep(11) .. "#")
    assert.are.equal(math.floor(10 * -0.1), map.flee(long, { x = 2, y = 1 }, { factor = -0.1 })[1][12])
  end)

  it("keeps unreached cells false, and within max the rest too", function()
    local m = from_text("#######\n#..#..#\n#######")
    assert.are.same({ false, -1, -2, false, false, false, false }, map.flee(m, { x = 2, y = 2 })[2])
    assert.are.same({ false, 0, false, false, false, false, false }, map.flee(m, { x = 2, y = 2 }, { max = 0 })[2])
  end)

  it("refuses values whose product would pass 2^53", function()
    local m = from_text("...")
    local ok, err = pcall(map.flee, m, { x = 1, y = 1, value = 2 ^ 52 }, { factor = -2.5 })
    assert.is_false(ok)
    assert.are.equal("map.flee: distance 4503599627370496 at (1,1) times factor is beyond 2^53 in magnitude", err)
    assert.are.same({ { -2 ^ 53 } }, map.flee({ { "." } }, { x = 1, y = 1, value = 2 ^ 52 }, { factor = -2 }))
  end)
end)
