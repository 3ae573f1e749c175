-- map.step on Lua 5.4 and LuaJIT (see .busted): against the pure-Lua
-- reference (spec/reference/step.lua) on generated levels, walking it to a
-- source, and on hand-built maps. Bad arguments: hostile_spec.lua.
local map = require "map"
local support = require "spec.support"
local ref_step = require("spec.reference.step").step

local from_text, each_level, cells_not_in = support.from_text, support.each_level, support.cells_not_in
local fmt = string.format

describe("map.step", function()
  it("equals the reference from every cell of 312 generated levels", function()
    each_level(function(m, name, rand)
      local known = map.fov(m, m.player, 10)
      local options = { {}, { diagonal = true }, { avoid = m.items }, { known = known, diagonal = true },
        { blocked = "#$" } }
      local o = options[rand(#options)]
      local d = map.distances(m, { m.stairs, m.player }, { diagonal = o.diagonal })
      for y = 1, #m do
        for x = 1, #m[1] do
          local ax, ay = map.step(m, d, x, y, o)
          local bx, by = ref_step(m, d, x, y, o)
          assert(ax == bx and ay == by, fmt("%s (%d,%d) %s: module %s,%s reference %s,%s", name, x, y,
            support.options_text(o), tostring(ax), tostring(ay), tostring(bx), tostring(by)))
        end
      end
    end)
  end)

  it("walks a shortest path to the source from every reached cell", function()
    for seed = 1, 8 do
      local m = map.generate { width = 50, height = 25, seed = seed, algorithm = seed % 2 == 0 and "cave" or "bsp" }
      for _, o in ipairs({ {}, { diagonal = true } }) do
        local d = map.distances(m, m.stairs, o)
        for _, c in ipairs(cells_not_in(m, "#")) do
          local x, y, steps = c[1], c[2], 0
          while true do
            local nx, ny = map.step(m, d, x, y, o)
            if not nx then break end
            assert.are.equal(d[y][x] - 1, d[ny][nx])
            x, y, steps = nx, ny, steps + 1
          end
          assert.are.same({ m.stairs.x, m.stairs.y, d[c[2]][c[1]] }, { x, y, steps })
        end
      end
    end
  end)

  it("takes the lowest neighbour, ties in the order N, E, S, W, NE, SE, SW, NW", function()
    local m = from_text("...\n...\n...")
    assert.are.same({ 2, 1 }, { map.step(m, { { 9, 1, 9 }, { 1, 5, 1 }, { 9, 1, 9 } }, 2, 2) })
    assert.are.same({ 3, 2 }, { map.step(m, { { 9, 2, 9 }, { 1, 5, 1 }, { 9, 2, 9 } }, 2, 2) })
    assert.are.same({ 3, 1 }, { map.step(m, { { 0, 3, 0 }, { 3, 5, 3 }, { 0, 3, 0 } }, 2, 2, { diagonal = true }) })
    assert.are.same({ 2, 3 }, { map.step(m, { { 0, 3, 0 }, { 3, 5, 3 }, { 0, 1, 0 } }, 2, 2) })
    -- Nothing strictly lower: nil. Unreached (false) is higher than any value.
    assert.is_nil(map.step(m, { { 9, 5, 9 }, { 5, 5, 5 }, { 9, 5, 9 } }, 2, 2))
    assert.are.same({ 3, 2 }, { map.step(m, { { 9, false, 9 }, { false, false, 7 }, { 9, false, 9 } }, 2, 2) })
    assert.is_nil(map.step(m, { { 9, false, 9 }, { false, 1, false }, { 9, false, 9 } }, 2, 2))
    -- Negative values (a safety map) and integral floats.
    assert.are.same({ 1, 2 }, { map.step(m, { { 0, 0, 0 }, { -7.0, -2, -3 }, { 0, 0, 0 } }, 2, 2) })
  end)

  it("does not enter blocked, avoided or unknown cells, nor cut their corners", function()
    local m = from_text(".#.\n...\n...")
    local d = { { 0, 0, 0 }, { 9, 9, 0 }, { 9, 9, 9 } }
    assert.are.same({ 3, 2 }, { map.step(m, d, 2, 2, { diagonal = true }) })
    assert.is_nil(map.step(m, d, 2, 2, { diagonal = true, avoid = { x = 3, y = 2 } }))
    assert.are.same({ 2, 1 }, { map.step(m, d, 2, 2, { blocked = "" }) })
    local known = { { true, true, true }, { true, true } }
    assert.is_nil(map.step(m, d, 2, 2, { diagonal = true, known = known }))
    -- Only the cell and its neighbours are read, of the map and of d.
    local big = from_text(("....\n"):rep(5):sub(1, -2))
    big[5][4] = 7
    local dd = { { 0, 0, 0, 0 }, { 1, 1, 1, 1 }, { 2, 2, 2, 2 }, "not a row", {} }
    assert.are.same({ 1, 1 }, { map.step(big, dd, 1, 2) })
  end)

  it("walks a safety map away from the source", function()
    local m = from_text("##########\n#........#\n##########")
    -- Distances from (4,2) times -1.2, rescanned: -3 -2 -1 -2 -3 -4 -5 -6.
    local f = map.flee(m, { x = 4, y = 2 })
    assert.are.same({ false, -3, -2, -1, -2, -3, -4, -5, -6, false }, f[2])
    local x = 5
    while true do
      local nx = map.step(m, f, x, 2)
      if not nx then break end
      x = nx
    end
    assert.are.equal(9, x)
  end)
end)
