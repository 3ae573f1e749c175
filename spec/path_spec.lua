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

describe("charged steps and occupied goals (lvl:path, lvl:distances)", function()
  local search = require "spec.reference.search"
  local CHARGED = {
    { diagonal = 3, straight = 2 }, { diagonal = 3 }, { straight = 2 }, { occupied = 10 },
    { occupied = 10, diagonal = 3, straight = 2, cost = { ["."] = 1, ["+"] = 4, ["$"] = 5 } },
    { occupied = 1, diagonal = true, max = 30 }, { occupied = true, diagonal = 2 }, { occupied = true },
  }
  -- The reference's options for o on a level whose occupied cells are
  -- `others`, the path's goal being `goal` (never closed).
  local function reference_options(o, others, goal)
    local r = {}
    for k, v in pairs(o) do r[k] = v end
    if o.occupied == true then
      r.occupied, r.avoid = nil, {}
      for _, c in ipairs(others) do
        if not (goal and c.x == goal.x and c.y == goal.y) then r.avoid[#r.avoid + 1] = c end
      end
    elseif o.occupied then
      r.occupied_cells = others
    end
    return r
  end

  it("equal the references on generated levels, the goal sometimes occupied", function()
    local checked = 0
    each_level(function(m, name, rand)
      if rand(3) ~= 1 then return end
      local lvl = map.level(m)
      local others = {}
      for i = 1, 6 do
        others[i] = support.open_cell(m, rand)
        lvl:occupy(others[i])
      end
      local a = support.open_cell(m, rand)
      local b = rand(2) == 1 and others[rand(#others)] or support.open_cell(m, rand)
      local o = CHARGED[rand(#CHARGED)]
      local what = fmt("%s, (%d,%d)->(%d,%d) %s", name, a.x, a.y, b.x, b.y, support.options_text(o))
      local p, why = lvl:path(a, b, o)
      local want, want_why = ref.path_charged(m, a.x, a.y, b.x, b.y, reference_options(o, others, b))
      assert(path_text(p) == path_text(want) and why == want_why, fmt("%s:\n  module    %s %s\n  reference %s %s",
        what, path_text(p), tostring(why), path_text(want), tostring(want_why)))
      local d = lvl:distances(a, o):table()
      local diff = support.rows_diff(d, search.search(m, a, reference_options(o, others)))
      assert(not diff, what .. ": distances " .. tostring(diff))
      if not o.occupied then
        assert(path_text(map.path(m, a, b, o)) == path_text(p), what .. ": map.path")
        assert(not support.rows_diff(map.distances(m, a, o), d), what .. ": map.distances")
      end
      checked = checked + 1
    end)
    assert(checked > 80, "checked " .. checked)
  end)

  it("diagonal = 1 is diagonal = true, and a path's cost is the distance to its goal", function()
    each_level(function(m, name, rand)
      if rand(4) ~= 1 then return end
      local a, b = support.open_cell(m, rand), support.open_cell(m, rand)
      assert(path_text(map.path(m, a, b, { diagonal = 1, straight = 1 })) == path_text(map.path(m, a, b,
        { diagonal = true })), name)
      local o = { diagonal = 3, straight = 2 }
      local p = map.path(m, a, b, o)
      if p then
        local cost = 0
        for i = 2, #p do cost = cost + ((p[i].x ~= p[i - 1].x and p[i].y ~= p[i - 1].y) and 3 or 2) end
        assert.are.equal(map.distances(m, a, o)[b.y][b.x], cost, name)
      end
    end)
  end)

  it("walks to an occupied goal, around occupied cells at a cost, and refuses costs past the bound", function()
    local lvl = map.level(from_text("#######\n#.....#\n#.....#\n#######"))
    lvl:occupy(5, 2)
    assert.are.equal("(2,2) (3,2) (4,2) (5,2)", path_text(lvl:path(2, 2, 5, 2, { occupied = true })))
    assert.are.equal("(2,2) (3,2) (4,2) (4,3) (5,3) (6,3) (6,2)",
      path_text(lvl:path(2, 2, 6, 2, { occupied = true })))
    assert.are.equal("(2,2) (3,2) (4,2) (4,3) (5,3) (6,3) (6,2)", path_text(lvl:path(2, 2, 6, 2, { occupied = 3 })))
    assert.are.equal("(2,2) (3,2) (4,2) (5,2) (6,2)", path_text(lvl:path(2, 2, 6, 2, { occupied = 1 })))
    assert.are.equal(6, lvl:distances({ x = 6, y = 2 }, { occupied = 3 }):get(2, 2))
    assert.are.equal(0, lvl:distances({ x = 5, y = 2 }, { occupied = true }):get(5, 2))
    assert.are.equal(9, lvl:distances({ x = 2, y = 2 }, { diagonal = 3, straight = 2 }):get(6, 3))
    assert.has_error(function() lvl:path(2, 2, 6, 3, { diagonal = 2 ^ 15, cost = { ["."] = 2 ^ 16 } }) end,
      "level:path: the costliest step (cost 65536, times 32768) is 2147483648: it must be at most 1073741824")
    assert.has_error(function() lvl:distances({ x = 2, y = 2 }, { occupied = 2 ^ 30, cost = { ["."] = 2 } }) end,
      "level:distances: the costliest step (cost 2 + occupied 1073741824, times 1) is 1073741826: it must be at "
        .. "most 1073741824")
    assert.has_error(function() lvl:path(2, 2, 6, 3, { straight = 0 }) end,
      "level:path: straight must be an integer from 1 to 1073741824, got 0")
    assert.has_error(function() lvl:path(2, 2, 6, 3, { occupied = 1.5 }) end,
      "level:path: occupied must be a boolean or an integer from 1 to 1073741824, got 1.5")
    assert.has_error(function() map.path(lvl:table(), 2, 2, 6, 3, { diagonal = "yes" }) end,
      'map.path: diagonal must be a boolean or an integer from 1 to 1073741824, got string "yes"')
    assert.has_error(function() lvl:flee({ x = 2, y = 2 }, { diagonal = 2 }) end,
      "level:flee: diagonal must be a boolean, got 2")
  end)
end)
end)
