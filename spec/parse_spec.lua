-- map.parse on Lua 5.4 and LuaJIT (see .busted): the inverse of map.render,
-- and its messages. Bad arguments: hostile_spec.lua.
local map = require "map"

local function fails(expected, ...)
  local ok, err = pcall(map.parse, ...)
  assert.is_false(ok)
  assert.are.equal(expected, err)
end

describe("map.parse", function()
  it("reads back what render writes, every generator's levels", function()
    for _, algorithm in ipairs(map.ALGORITHMS) do
      for seed = 1, 5 do
        local g = map.generate { width = 40, height = 20, seed = seed, algorithm = algorithm }
        local text = map.render(g)
        for _, t in ipairs({ text, text .. "\n" }) do
          local m = map.parse(t)
          assert.are.equal(text, map.render(m))
          assert.are.same({ 40, 20 }, { m.width, m.height })
          assert.are.same(g.player, m.player)
          assert.are.same(g.stairs, m.stairs)
          for y = 1, 20 do assert.are.same(g[y], m[y]) end
          assert.is_nil(getmetatable(m))
        end
      end
    end
  end)

  it("gives the first @ and > in row order, or none", function()
    local m = map.parse("#@#>\n@.>.")
    assert.are.same({ x = 2, y = 1 }, m.player)
    assert.are.same({ x = 4, y = 1 }, m.stairs)
    m = map.parse(" ~")
    assert.is_nil(m.player)
    assert.is_nil(m.stairs)
    assert.are.same({ { " ", "~" } }, { m[1] })
    assert.is_true(map.reachable(map.parse("@.>")))
  end)

  it("names the row that is wrong", function()
    fails("map.parse: text is empty", "")
    fails("map.parse: row 1 is empty", "\n")
    fails("map.parse: row 2 has 1 cells, row 1 has 2", "##\n#")
    fails("map.parse: row 2 has 0 cells, row 1 has 2", "##\n\n")
    fails("map.parse: row 2, column 2: byte 9 is not printable ASCII", "##\n#\t")
    fails("map.parse: row 1, column 3: byte 13 is not printable ASCII", "##\r\n##")
    fails("map.parse: row 1, column 1: byte 195 is not printable ASCII", "é")
    fails("map.parse: row 1, column 1: byte 0 is not printable ASCII", "\0")
    local row = ("#"):rep(2000)
    local text = (row .. "\n"):rep(2000)
    assert.are.equal(2000, map.parse(text).height)
    fails("map.parse: text has more than 4000000 cells (row 2001 of 2000 cells)", text .. "#")
    fails("map.parse: text has more than 4000000 cells (row 1 of 4000001 cells)", ("."):rep(4000001))
  end)
end)
