-- The rooms generator on maps of its own, on Lua 5.4 and LuaJIT (see
-- .busted): @ at the first room's centre and > in the last room, room sizes,
-- rooms apart, 1500 maps reachable, its rooms and items options.
-- generators_spec.lua checks the promises it shares with other generators
-- (bsp too puts @ at the first room's centre and keeps rooms apart) on its own
-- sweep of sizes and seeds.
local map = require "map"

local count = require("spec.support").count_cells

describe("rooms", function()
  it("puts @ at the first room's centre and > in the last room", function()
    for seed = 1, 50 do
      local m = map.generate(60, 20, seed)
      local first, last = m.rooms[1], m.rooms[#m.rooms]
      local centre = { x = first.x + math.floor((first.w - 1) / 2), y = first.y + math.floor((first.h - 1) / 2) }
      assert.are.same(centre, m.player)
      assert.is_true(m.stairs.x >= last.x and m.stairs.x < last.x + last.w)
      assert.is_true(m.stairs.y >= last.y and m.stairs.y < last.y + last.h)
    end
  end)

  it("keeps rooms apart with a wall between, inside the border", function()
    for seed = 1, 200 do
      local m = map.generate(80, 30, seed)
      for i, a in ipairs(m.rooms) do
        assert.is_true(a.w >= 4 and a.w <= 10 and a.h >= 3 and a.h <= 6)
        assert.is_true(a.x >= 2 and a.y >= 2 and a.x + a.w <= 80 and a.y + a.h <= 30)
        for j = i + 1, #m.rooms do
          local b = m.rooms[j]
          local apart = a.x + a.w < b.x or b.x + b.w < a.x or a.y + a.h < b.y or b.y + b.h < a.y
          assert.is_true(apart, ("seed %d: rooms %d and %d touch"):format(seed, i, j))
        end
      end
    end
  end)

  it("makes every map reachable, border intact, entities unstacked (1500 maps)", function()
    local sizes = { { 60, 20 }, { 6, 5 }, { 9, 7 }, { 200, 60 }, { 12, 100 } }
    for _, size in ipairs(sizes) do
      local w, h = size[1], size[2]
      for seed = 1, 300 do
        local m = map.generate(w, h, seed)
        local ok, why = map.reachable(m)
        assert(ok, ("%dx%d seed %d: %s"):format(w, h, seed, tostring(why)))
        for x = 1, w do assert(m[1][x] == "#" and m[h][x] == "#", "border") end
        for y = 1, h do assert(m[y][1] == "#" and m[y][w] == "#", "border") end
        assert(count(m, "@") == 1 and count(m, ">") == 1, "one @ and one >")
        assert(count(m, "$") + count(m, "!") == 5, "five items")
      end
    end
  end)

  it("honours rooms and items options", function()
    local m = map.generate { width = 60, height = 20, seed = 3, rooms = 2, items = 0 }
    assert.are.equal(2, #m.rooms)
    assert.are.equal(0, #m.items)
    m = map.generate { width = 60, height = 20, seed = 3, items = 40 }
    assert.are.equal(40, #m.items)
  end)

end)
