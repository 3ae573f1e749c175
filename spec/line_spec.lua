-- map.line on Lua 5.4 and LuaJIT (see .busted): its cells against its
-- definition, symmetric, on any integer coordinates. Bad arguments:
-- hostile_spec.lua.
local map = require "map"
local support = require "spec.support"

local fmt = string.format
local abs = math.abs

local function text(cells)
  local parts = {}
  for i, c in ipairs(cells) do parts[i] = fmt("%d,%d", c.x, c.y) end
  return table.concat(parts, " ")
end

describe("map.line", function()
  -- Its cells are pushed as they are made: none is kept in Rust (a list of
  -- them once was, past the peak documented in docs/hardening.md).
  it("keeps none of its cells on the module's heap #probe", function()
    local out, err, code = support.run_with_probe([[
local map = require "map"
collectgarbage()
map._faults(0)
local cells = map.line(1, 1, 100000, 7)
local _, _, peak = map._faults(0)
print(#cells, peak)
]])
    assert.are.same({ "", 0 }, { err, code })
    local n, peak = out:match("^(%d+)\t(%-?%d+)\n$")
    assert.are.equal("100000", n)
    assert(tonumber(peak) <= 1024, peak .. " bytes of the module's heap")
  end)

  it("is 8-connected, symmetric, and within 1/2 of the exact line, the lower cell at a half", function()
    local rand = support.generator(11)
    for _ = 1, 1000 do
      local base = ({ 0, 2 ^ 53 - 301, -2 ^ 53 })[rand(3)]
      local reach = ({ 4, 30, 300 })[rand(3)]
      local x1, y1, x2, y2 = base + rand(reach), base + rand(reach), base + rand(reach), base + rand(reach)
      local cells = map.line(x1, y1, x2, y2)
      local n = math.max(abs(x2 - x1), abs(y2 - y1))
      assert.are.equal(n + 1, #cells)
      assert.are.same({ x = x1, y = y1 }, cells[1])
      assert.are.same({ x = x2, y = y2 }, cells[#cells])
      local back = map.line(x2, y2, x1, y1)
      for i = 1, #cells do
        local c, b = cells[i], back[#back + 1 - i]
        assert(c.x == b.x and c.y == b.y, "not symmetric")
        if i > 1 then
          assert(math.max(abs(c.x - cells[i - 1].x), abs(c.y - cells[i - 1].y)) == 1, "not 8-connected")
        end
        -- The minor coordinate m at step i: 2n(m - a) - 2i*d in [-n, n).
        if n > 0 then
          local major_x = abs(x2 - x1) >= abs(y2 - y1)
          local m, a, d = cells[i].y, y1, y2 - y1
          if not major_x then m, a, d = cells[i].x, x1, x2 - x1 end
          local off = 2 * n * (m - a) - 2 * (i - 1) * d
          assert(off >= -n and off < n, fmt("(%d,%d)-(%d,%d) step %d", x1, y1, x2, y2, i))
        end
      end
    end
  end)

  it("draws the documented cells, off any map too", function()
    assert.are.equal("1,1 2,1 3,2 4,2 5,3", text(map.line(1, 1, 5, 3)))
    assert.are.equal("0,0 1,0 2,1", text(map.line(0, 0, 2, 1)))
    assert.are.equal("2,1 1,0 0,0", text(map.line(2, 1, 0, 0)))
    assert.are.equal("-3,-3", text(map.line(-3, -3, -3, -3)))
    assert.are.equal("0,0 -1,1 -2,2", text(map.line(0, 0, -2, 2)))
    assert.are.equal("0,0 0,1 1,2", text(map.line(0, 0, 1, 2)))
    assert.are.equal(3999999 + 1, #map.line(1, 1, 4000000, 1))
  end)
end)
