-- map.explore on Lua 5.4 and LuaJIT (see .busted): against the pure-Lua
-- reference (spec/reference/explore.lua) on generated levels, as a game
-- would explore them, and on hand-built maps. Bad arguments:
-- hostile_spec.lua.
local map = require "map"
local support = require "spec.support"
local ref_explore = require("spec.reference.explore").explore

local from_text, each_level, cells_not_in = support.from_text, support.each_level, support.cells_not_in
local fmt = string.format

local function path_text(p)
  if not p then return "nil" end
  local parts = {}
  for i, c in ipairs(p) do parts[i] = fmt("(%d,%d)", c.x, c.y) end
  return table.concat(parts, " ")
end

-- Remembers what fov shows from (x, y) in `known`.
local function look(m, known, x, y, r)
  for row_y, row in pairs(map.fov(m, x, y, r)) do
    for col in pairs(row) do known[row_y][col] = true end
  end
end

describe("map.explore", function()
  it("equals the reference on 312 generated levels", function()
    each_level(function(m, name, rand)
      local known = {}
      for y = 1, #m do known[y] = {} end
      look(m, known, m.player.x, m.player.y, 2 + rand(8))
      local open = cells_not_in(m, "#")
      local options = { {}, { diagonal = true }, { avoid = m.items }, { blocked = "#$" } }
      local o = options[rand(#options)]
      local c = open[rand(#open)]
      for _, start in ipairs({ m.player, { x = c[1], y = c[2] } }) do
        local a, am = map.explore(m, known, start, o)
        local b, bm = ref_explore(m, known, start.x, start.y, o)
        assert(path_text(a) == path_text(b) and am == bm, fmt("%s from (%d,%d) %s:\n  module    %s %s\n"
          .. "  reference %s %s", name, start.x, start.y, support.options_text(o), path_text(a), tostring(am),
          path_text(b), tostring(bm)))
      end
    end)
  end)

  it("explores a whole level, step by step, until it is explored", function()
    for seed = 1, 6 do
      local m = map.generate { width = 80, height = 40, seed = seed, algorithm = seed % 2 == 0 and "cave" or "rooms" }
      local known = {}
      for y = 1, #m do known[y] = {} end
      local x, y = m.player.x, m.player.y
      local turns = 0
      while true do
        look(m, known, x, y, 6)
        local route, why = map.explore(m, known, x, y, { diagonal = true })
        if not route then
          assert.are.equal("explored", why)
          break
        end
        assert.are.same({ x = x, y = y }, route[1])
        for i = 2, #route do assert.is_true(known[route[i].y][route[i].x]) end
        local next_cell = route[2] or route[1]
        if #route == 1 then
          -- On a frontier cell: look around closer (a radius 6 view from
          -- here did not reach the unknown neighbour).
          for dy = -1, 1 do
            for dx = -1, 1 do
              if known[y + dy] then known[y + dy][x + dx] = true end
            end
          end
        end
        x, y = next_cell.x, next_cell.y
        turns = turns + 1
        assert(turns < 5000, "explores forever")
      end
      -- Every cell reachable from @ is known.
      local d = map.distances(m, m.player)
      for yy = 1, #m do
        for xx = 1, #m[1] do
          if d[yy][xx] then assert(known[yy][xx], fmt("seed %d: (%d,%d) never seen", seed, xx, yy)) end
        end
      end
    end
  end)

  it("goes to the nearest frontier cell, first in row order; the start may be one", function()
    local m = from_text("......\n......\n......")
    local known = { { true, true, true, true }, { true, true, true, true, true }, { true, true, true, true } }
    local p = map.explore(m, known, 1, 2)
    assert.are.same({ x = 4, y = 1 }, p[#p])
    assert.are.equal(5, #p)
    assert.are.same({ { x = 4, y = 1 } }, map.explore(m, known, 4, 1))
    -- All known: explored. Unknown behind a wall: explored too.
    assert.are.same({ nil, "explored" }, { map.explore(m, { { 1, 1, 1, 1, 1, 1 }, { 1, 1, 1, 1, 1, 1 },
      { 1, 1, 1, 1, 1, 1 } }, 1, 1) })
    local walled = from_text("..#..")
    assert.are.same({ nil, "explored" }, { map.explore(walled, { { true, true, true, true } }, 1, 1) })
    -- Avoided cells are not walked; an unknown start is left.
    local left = { { true, true, true }, { true, true, true }, { true, true, true } }
    local wall = { { x = 2, y = 1 }, { x = 2, y = 2 }, { x = 2, y = 3 } }
    assert.are.same({ nil, "explored" }, { map.explore(m, left, 1, 1, { avoid = wall }) })
    assert.are.same({ { x = 3, y = 3 }, { x = 3, y = 2 } }, map.explore(m, { {}, { true, true, true } }, 3, 3))
  end)

  it("reads the map around the start only as far as it needs", function()
    local m = map.new_map(200, 100)
    for y = 2, 99 do
      for x = 2, 199 do m[y][x] = "." end
    end
    local known = {}
    for y = 1, 100 do known[y] = {} end
    for y = 40, 60 do
      for x = 90, 110 do known[y][x] = true end
    end
    m[2][2] = 5 -- far from the start: never read
    local p = map.explore(m, known, 100, 50)
    assert.are.same({ x = 100, y = 40 }, p[#p])
    local ok, err = pcall(map.explore, m, {}, 100, 50)
    assert.is_false(ok)
    assert.are.equal("map.explore: cell [2][2] must be a one-character string, got number", err)
  end)
end)
