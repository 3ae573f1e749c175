-- map.visible on Lua 5.4 and LuaJIT (see .busted): exactly map.fov's answer
-- for every pair of cells of generated levels, against the pure-Lua
-- reference (spec/reference/visible.lua) too, reading only the cells
-- between the two. Bad arguments: hostile_spec.lua.
local map = require "map"
local support = require "spec.support"
local ref_visible = require("spec.reference.visible").visible

local fmt = string.format

describe("map.visible", function()
  it("equals map.fov for every pair of cells of 240 small generated levels", function()
    local pairs_checked = 0
    for seed = 1, 60 do
      for _, spec in ipairs({ { "rooms", 14, 8 }, { "cave", 12, 9 }, { "bsp", 11, 9 }, { "cellular", 13, 8 } }) do
        local m = map.generate { width = spec[2], height = spec[3], seed = seed, algorithm = spec[1], items = 0 }
        if seed % 3 == 0 then
          for y = 2, #m - 1 do
            for x = 2, #m[1] - 1 do
              if m[y][x] == "." and (x * 7 + y * 3 + seed) % 11 == 0 then m[y][x] = "+" end
            end
          end
        end
        local radius = seed % 4 == 0 and seed % 9 or nil
        local opaque = seed % 5 == 0 and "#$" or nil
        for y1 = 1, #m do
          for x1 = 1, #m[1] do
            local vis = map.fov(m, x1, y1, radius, opaque and { opaque = opaque } or nil)
            for y2 = 1, #m do
              for x2 = 1, #m[1] do
                local want = vis[y2][x2] == true
                local got = map.visible(m, x1, y1, x2, y2, { radius = radius, opaque = opaque })
                if got ~= want then
                  error(fmt("%s seed %d: (%d,%d) -> (%d,%d): visible %s, fov %s", spec[1], seed, x1, y1, x2, y2,
                    tostring(got), tostring(want)))
                end
                pairs_checked = pairs_checked + 1
              end
            end
          end
        end
      end
    end
    assert(pairs_checked > 2500000, pairs_checked)
  end)

  it("equals the pure-Lua reference between random cells of larger levels", function()
    local rand = support.generator(5)
    for seed = 1, 20 do
      local m = map.generate { width = 120, height = 60, seed = seed, algorithm = "cave" }
      for _ = 1, 300 do
        local x1, y1, x2, y2 = rand(120), rand(60), rand(120), rand(60)
        assert.are.equal(ref_visible(m, x1, y1, x2, y2), map.visible(m, x1, y1, x2, y2))
      end
    end
  end)

  it("reads only the cells between the two: the ray to a cell, the rectangle to a wall", function()
    local m = support.from_text("......\n......\n......")
    m[1][6] = 5 -- on no ray below, but in the rectangle from (1,1) to (6,3)
    assert.is_true(map.visible(m, 1, 3, 5, 1))
    assert.is_true(map.visible(m, 1, 1, 6, 3))
    assert.is_true(map.visible(m, 1, 1, 1, 3, { radius = 2 }))
    assert.is_false(map.visible(m, 1, 1, 1, 3, { radius = 1 }))
    m[2][3] = "#"
    assert.is_false(map.visible(m, 1, 2, 5, 2))
    assert.is_true(map.visible(m, 1, 2, 3, 2))
    m[3][6] = "#"
    local ok, err = pcall(map.visible, m, 1, 1, 6, 3)
    assert.is_false(ok)
    assert.are.equal("map.visible: cell [1][6] must be a one-character string, got number", err)
  end)
end)
