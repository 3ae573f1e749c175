-- map.path on Lua 5.4 and LuaJIT (see .busted): against the pure-Lua
-- references (spec/reference/path.lua: A*, and a walk by the tie rule down a
-- breadth-first distance map) on generated levels, checked as a legal walk
-- costing what map.distances says, and on hand-built maps. Its bad
-- arguments: hostile_spec.lua.
local map = require "map"
local support = require "spec.support"
local ref = require "spec.reference.path"

local from_text, each_level, cells_not_in = support.from_text, support.each_level, support.cells_not_in
local path_text = support.path_text
local fmt = string.format

describe("map.path", function()
  local VARIANTS = {
    {}, { diagonal = true }, { cost = { ["."] = 1, ["$"] = 5 } }, { diagonal = true, cost = { ["."] = 1, ["$"] = 5 } },
    { cost = { ["+"] = 4, ["!"] = 2 }, blocked = "#$" },
  }

  it("is a shortest legal walk, the tie rule's, on 312 generated levels", function()
    each_level(function(m, name, rand)
      local open = cells_not_in(m, "#")
      local pairs_of = { { open[rand(#open)], open[rand(#open)] }, { { m.player.x, m.player.y }, open[rand(#open)] } }
      for _, pair in ipairs(pairs_of) do
        local o = VARIANTS[rand(#VARIANTS)]
        local x1, y1, x2, y2 = pair[1][1], pair[1][2], pair[2][1], pair[2][2]
        local what = fmt("%s, path (%d,%d)->(%d,%d) %s", name, x1, y1, x2, y2, support.options_text(o))
        local p, msg = map.path(m, x1, y1, x2, y2, o)
        local want, want_msg = ref.path(m, x1, y1, x2, y2, o)
        assert(path_text(p) == path_text(want), fmt("%s:\n  module    %s %s\n  reference %s %s", what,
          path_text(p), tostring(msg), path_text(want), tostring(want_msg)))
        local d = map.distances(m, { x = x1, y = y1 }, o)
        if p then
          local cost, why = ref.walk_cost(m, p, x1, y1, x2, y2, o)
          assert(cost, fmt("%s: %s", what, tostring(why)))
          assert(cost == d[y2][x2], fmt("%s: costs %d, distances says %s", what, cost, tostring(d[y2][x2])))
          if not o.cost and not o.blocked then
            assert(path_text(p) == path_text(ref.path_bfs(m, x1, y1, x2, y2, o)), what .. ": not the tie rule's path")
          end
        else
          assert.are.equal(false, d[y2][x2], what)
          assert.are.equal(want_msg, msg, what)
        end
      end
    end)
  end)

  it("joins the two farthest cells of caves, in both directions", function()
    for seed = 1, 12 do
      local m = map.generate { width = 80, height = 50, seed = seed, algorithm = "cave" }
      local function farthest(d)
        local bx, by, best = nil, nil, -1
        for y = 1, #d do
          for x = 1, #d[y] do
            if d[y][x] and d[y][x] > best then bx, by, best = x, y, d[y][x] end
          end
        end
        return bx, by, best
      end
      local ax, ay = farthest(map.distances(m, m.player))
      local bx, by, far = farthest(map.distances(m, { x = ax, y = ay }))
      for _, o in ipairs({ {}, { diagonal = true } }) do
        local p = map.path(m, ax, ay, bx, by, o)
        assert.are.equal(path_text(ref.path(m, ax, ay, bx, by, o)), path_text(p))
        assert.are.equal(path_text(ref.path_bfs(m, ax, ay, bx, by, o)), path_text(p))
        local back = map.path(m, bx, by, ax, ay, o)
        assert.are.equal(#p, #back)
        if not o.diagonal then assert.are.equal(far + 1, #p) end
      end
    end
  end)

  it("follows the tie rule N, E, S, W, NE, SE, SW, NW", function()
    local open = from_text("#####\n#...#\n#...#\n#...#\n#####")
    -- East then south would tie with south then east: east comes first.
    assert.are.equal("(2,2) (3,2) (4,2) (4,3) (4,4)", path_text(map.path(open, 2, 2, 4, 4)))
    assert.are.equal("(4,4) (4,3) (4,2) (3,2) (2,2)", path_text(map.path(open, 4, 4, 2, 2)))
    assert.are.equal("(2,4) (2,3) (2,2) (3,2) (4,2)", path_text(map.path(open, 2, 4, 4, 2)))
    assert.are.equal("(2,2) (3,3) (4,4)", path_text(map.path(open, 2, 2, 4, 4, { diagonal = true })))
    -- From (2,3) to (4,2) diagonally: E then NE, or NE then E; E comes first.
    assert.are.equal("(2,3) (3,3) (4,2)", path_text(map.path(open, 2, 3, 4, 2, { diagonal = true })))
  end)

  it("walks a corridor, around pillars, and through costly cells only when cheaper", function()
    local corridor = from_text("#######\n#.....#\n#######")
    assert.are.equal("(2,2) (3,2) (4,2) (5,2) (6,2)", path_text(map.path(corridor, 2, 2, 6, 2)))
    local pillars = from_text("#######\n#.....#\n#.#.#.#\n#.....#\n#######")
    local p = map.path(pillars, 2, 2, 6, 4)
    assert.are.equal(7, #p)
    assert.are.equal(path_text(ref.path(pillars, 2, 2, 6, 4)), path_text(p))
    local gold = from_text("#######\n#.$$$.#\n#.....#\n#######")
    local cost = { ["."] = 1, ["$"] = 5 }
    assert.are.equal("(2,2) (3,2) (4,2) (5,2) (6,2)", path_text(map.path(gold, 2, 2, 6, 2)))
    assert.are.equal("(2,2) (2,3) (3,3) (4,3) (5,3) (6,3) (6,2)",
      path_text(map.path(gold, 2, 2, 6, 2, { cost = cost })))
    assert.are.equal("(2,2) (3,3) (4,3) (5,3) (6,2)",
      path_text(map.path(gold, 2, 2, 6, 2, { cost = cost, diagonal = true })))
    -- No corner cutting: the diagonal needs both side cells open.
    local corner = from_text("####\n#..#\n##.#\n####")
    assert.are.equal("(2,2) (3,2) (3,3)", path_text(map.path(corner, 2, 2, 3, 3, { diagonal = true })))
    local shut = from_text("####\n#.##\n##.#\n####")
    local none, msg = map.path(shut, 2, 2, 3, 3, { diagonal = true })
    assert.is_nil(none)
    assert.are.equal("no path from (2,2) to (3,3)", msg)
  end)

  it("does not change the map", function()
    local m = map.generate(60, 20, 8)
    local before = map.render(m)
    map.path(m, m.player.x, m.player.y, m.stairs.x, m.stairs.y)
    assert.are.equal(before, map.render(m))
  end)

  it("returns one cell for the same cell, starts anywhere, refuses blocked or unreachable goals", function()
    local m = from_text("#######\n#..#..#\n#######")
    assert.are.same({ { x = 2, y = 2 } }, map.path(m, 2, 2, 2, 2))
    assert.are.same({ { x = 1, y = 1 } }, map.path({ { "." } }, 1, 1, 1, 1))
    -- Start on a wall: allowed.
    assert.are.equal("(1,2) (2,2) (3,2)", path_text(map.path(m, 1, 2, 3, 2)))
    assert.are.equal("(5,1) (5,2) (6,2)", path_text(map.path(m, 5, 1, 6, 2)))
    local p, msg = map.path(m, 2, 2, 5, 2)
    assert.is_nil(p)
    assert.are.equal("no path from (2,2) to (5,2)", msg)
    p, msg = map.path(m, 2, 2, 4, 2)
    assert.is_nil(p)
    assert.are.equal("goal (4,2) is blocked", msg)
    p, msg = map.path(m, 2, 2, 6, 2, { blocked = "#." })
    assert.is_nil(p)
    assert.are.equal("goal (6,2) is blocked", msg)
    -- A map without a border.
    local open = from_text("...\n.#.\n...")
    assert.are.equal("(1,1) (2,1) (3,1) (3,2) (3,3)", path_text(map.path(open, 1, 1, 3, 3)))
  end)
end)
