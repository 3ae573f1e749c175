-- map.fov, map.distances and map.path, on Lua 5.4 and LuaJIT (see .busted):
-- against the pure-Lua references (spec/reference/) on generated
-- levels, by their properties, on hand-built maps, and against every kind of
-- bad argument. A digest of the results for fixed seeds (DIGEST below) must be
-- the same on both interpreters.
local map = require "map"
local support = require "spec.support"
local ref = {
  fov = require("spec.reference.fov").fov,
  distances = require("spec.reference.distances").distances,
  path = require("spec.reference.path").path,
}

local from_text = support.from_text
local unpack = table.unpack or unpack
local fmt = string.format

-- The digest of the results for the fixed levels of the last test, the same
-- on Lua 5.4 and LuaJIT. (It lives here rather than in spec/golden/: every
-- file there is read by tests/golden.rs as <algorithm>-<w>x<h>-<seed>.txt.)
local DIGEST = "3264512783 lv 24 vis 8882 dist 107748 path 2176"

-- A small deterministic generator (Park-Miller), exact on both interpreters.
local function generator(seed)
  local state = seed
  return function(n)
    state = state * 16807 % 2147483647
    return state % n + 1
  end
end

local function char_set(s)
  local set = {}
  for i = 1, #s do set[s:sub(i, i)] = true end
  return set
end

-- The cells of m whose character is not in `chars`, as {x, y} pairs.
local function cells_not_in(m, chars)
  local set, out = char_set(chars), {}
  for y = 1, #m do
    for x = 1, #m[y] do
      if not set[m[y][x]] then out[#out + 1] = { x, y } end
    end
  end
  return out
end

-- Nil when the vis tables a (the module's) and b (the reference's) hold the
-- same cells, else where they differ. a must have rows 1..h holding only true
-- at integer keys 1..w.
local function vis_diff(a, b, w, h)
  if type(a) ~= "table" then return "vis is a " .. type(a) end
  for y = 1, h do
    local ra, rb = a[y], b[y]
    if type(ra) ~= "table" then return fmt("row %d is a %s", y, type(ra)) end
    for x, v in pairs(ra) do
      if v ~= true then return fmt("cell (%d,%d) is %s, not true", x, y, tostring(v)) end
      if type(x) ~= "number" or x < 1 or x > w or x % 1 ~= 0 then return fmt("row %d has key %s", y, tostring(x)) end
      if not rb[x] then return fmt("cell (%d,%d): module visible, reference not", x, y) end
    end
    for x in pairs(rb) do
      if not ra[x] then return fmt("cell (%d,%d): reference visible, module not", x, y) end
    end
  end
  for k in pairs(a) do
    if type(k) ~= "number" or k < 1 or k > h or k % 1 ~= 0 then return "vis has key " .. tostring(k) end
  end
end

-- Nil when the distance maps a (the module's) and b (the reference's) agree.
local function dist_diff(a, b, w, h)
  if type(a) ~= "table" then return "d is a " .. type(a) end
  if #a ~= h then return fmt("d has %d rows, not %d", #a, h) end
  for y = 1, h do
    local ra, rb = a[y], b[y]
    if type(ra) ~= "table" or #ra ~= w then return fmt("row %d is not %d cells", y, w) end
    for x = 1, w do
      local v = ra[x]
      if v ~= rb[x] then return fmt("cell (%d,%d): module %s, reference %s", x, y, tostring(v), tostring(rb[x])) end
      if math.type and v and math.type(v) ~= "integer" then
        return fmt("cell (%d,%d) is a %s", x, y, math.type(v))
      end
    end
  end
end

local function path_text(p)
  if not p then return "nil" end
  local parts = {}
  for i, c in ipairs(p) do parts[i] = fmt("(%d,%d)", c.x, c.y) end
  return table.concat(parts, " ")
end

-- Checks that p is a legal walk from (x1,y1) to (x2,y2) under options o.
-- Returns its cost, or nil and what is wrong.
local function walk_cost(m, p, x1, y1, x2, y2, o)
  o = o or {}
  local blocked, cost = char_set(o.blocked or "#"), o.cost or {}
  local h, w = #m, #m[1]
  local function enterable(x, y)
    return x >= 1 and x <= w and y >= 1 and y <= h and not blocked[m[y][x]]
  end
  if type(p) ~= "table" or #p < 1 then return nil, "not a non-empty array" end
  if p[1].x ~= x1 or p[1].y ~= y1 then return nil, "does not start at the start" end
  if p[#p].x ~= x2 or p[#p].y ~= y2 then return nil, "does not end at the goal" end
  local total = 0
  for i = 2, #p do
    local a, b = p[i - 1], p[i]
    local dx, dy = b.x - a.x, b.y - a.y
    if math.type and (math.type(b.x) ~= "integer" or math.type(b.y) ~= "integer") then
      return nil, fmt("step %d is not integers", i)
    end
    local ax, ay = math.abs(dx), math.abs(dy)
    if ax > 1 or ay > 1 or ax + ay == 0 then return nil, fmt("step %d is not to a neighbour", i) end
    if ax + ay == 2 then
      if not o.diagonal then return nil, fmt("step %d is diagonal", i) end
      if not (enterable(a.x + dx, a.y) and enterable(a.x, a.y + dy)) then
        return nil, fmt("step %d cuts a corner", i)
      end
    end
    if not enterable(b.x, b.y) then return nil, fmt("step %d enters a blocked cell", i) end
    total = total + (cost[m[b.y][b.x]] or 1)
  end
  return total
end

-- The tie rule without costs, from a distance map to the goal (moves are
-- symmetric then): at each cell the first neighbour, N E S W NE SE SW NW,
-- one step nearer the goal.
local DX = { 0, 1, 0, -1, 1, 1, -1, -1 }
local DY = { -1, 0, 1, 0, -1, 1, 1, -1 }
local function tie_walk(m, x1, y1, x2, y2, o)
  local to_goal = ref.distances(m, { x = x2, y = y2 }, o)
  if not to_goal[y1][x1] then return nil end
  local blocked = char_set(o.blocked or "#")
  local h, w = #m, #m[1]
  local function enterable(x, y)
    return x >= 1 and x <= w and y >= 1 and y <= h and not blocked[m[y][x]]
  end
  local p, x, y = { { x = x1, y = y1 } }, x1, y1
  while x ~= x2 or y ~= y2 do
    for k = 1, o.diagonal and 8 or 4 do
      local nx, ny = x + DX[k], y + DY[k]
      if enterable(nx, ny) and to_goal[ny][nx] == to_goal[y][x] - 1
        and (k <= 4 or (enterable(nx, y) and enterable(x, ny))) then
        x, y = nx, ny
        break
      end
    end
    p[#p + 1] = { x = x, y = y }
  end
  return p
end

-- Options as text, for messages.
local function describe_options(o)
  local parts = {}
  if o.blocked then parts[#parts + 1] = fmt("blocked=%q", o.blocked) end
  if o.diagonal then parts[#parts + 1] = "diagonal" end
  if o.cost then
    local keys = {}
    for k, v in pairs(o.cost) do keys[#keys + 1] = fmt("%s=%d", k, v) end
    table.sort(keys)
    parts[#parts + 1] = "cost{" .. table.concat(keys, ",") .. "}"
  end
  return #parts > 0 and table.concat(parts, " ") or "defaults"
end

-- Error checks: the call fails with a string starting "map.<fn>: " and
-- containing every plain part.
local function fails(fn, parts, ...)
  local ok, err = pcall(map[fn], ...)
  assert(not ok, fmt("map.%s: expected an error containing %q", fn, table.concat(parts, " ... ")))
  assert(type(err) == "string", "error is a " .. type(err))
  assert(err:sub(1, #fn + 6) == "map." .. fn .. ": ", fmt("%q does not start with map.%s: ", err, fn))
  for _, part in ipairs(parts) do
    assert(err:find(part, 1, true), fmt("%q does not contain %q", err, part))
  end
end

---------------------------------------------------------------------------
-- The generated levels: 312 rooms and caves of several sizes, some with
-- doors ("+", opaque) put on floor cells next to walls.

local LEVELS = {
  { "rooms", 60, 20, 80 }, { "rooms", 30, 12, 40 }, { "rooms", 6, 5, 20 }, { "rooms", 120, 40, 12 },
  { "cave", 80, 50, 60 }, { "cave", 20, 20, 40 }, { "cave", 3, 30, 20 }, { "cave", 40, 10, 40 },
}

local function add_doors(m, rand)
  local h, w = #m, #m[1]
  for y = 2, h - 1 do
    for x = 2, w - 1 do
      if m[y][x] == "." and (m[y][x - 1] == "#" or m[y - 1][x] == "#") and rand(12) == 1 then m[y][x] = "+" end
    end
  end
end

local function each_level(f)
  local n = 0
  for _, spec in ipairs(LEVELS) do
    local algorithm, w, h, count = unpack(spec)
    for seed = 1, count do
      local m = map.generate { width = w, height = h, seed = seed, algorithm = algorithm }
      local rand = generator(seed * 7919 + w * 31 + h)
      if seed % 3 == 0 then add_doors(m, rand) end
      n = n + 1
      f(m, fmt("%s %dx%d seed %d%s", algorithm, w, h, seed, seed % 3 == 0 and " (doors)" or ""), rand)
    end
  end
  return n
end

describe("map.fov", function()
  it("equals the reference and is symmetric on 312 generated levels", function()
    local levels = each_level(function(m, name, rand)
      local h, w = #m, #m[1]
      local open = cells_not_in(m, "#+")
      -- Origins: @ and five random non-opaque cells.
      local origins = { { m.player.x, m.player.y } }
      for k = 2, 6 do origins[k] = open[rand(#open)] end
      local full = {}
      for k, o in ipairs(origins) do
        local x, y = o[1], o[2]
        local vis = map.fov(m, x, y)
        local why = vis_diff(vis, ref.fov(m, x, y), w, h)
        assert(not why, fmt("%s, fov from (%d,%d): %s", name, x, y, tostring(why)))
        assert(vis[y][x], "origin not visible")
        full[k] = vis
        local r = rand(14) - 1
        local vr = map.fov(m, x, y, r)
        why = vis_diff(vr, ref.fov(m, x, y, r), w, h)
        assert(not why, fmt("%s, fov from (%d,%d) radius %d: %s", name, x, y, r, tostring(why)))
        -- The radius only cuts the unlimited result to the disc.
        local limit = r * (r + 1)
        for yy = 1, h do
          local row, full_row = vr[yy], vis[yy]
          for xx = 1, w do
            local inside = (xx - x) * (xx - x) + (yy - y) * (yy - y) <= limit
            if (row[xx] == true) ~= (inside and full_row[xx] == true) then
              error(fmt("%s, fov from (%d,%d) radius %d: cell (%d,%d) is not the unlimited result in the disc",
                name, x, y, r, xx, yy))
            end
          end
        end
      end
      -- Symmetry between every pair of origins (all non-opaque).
      for i = 1, #origins do
        for j = i + 1, #origins do
          local a, b = origins[i], origins[j]
          assert((full[i][b[2]][b[1]] == true) == (full[j][a[2]][a[1]] == true),
            fmt("%s: fov not symmetric between (%d,%d) and (%d,%d)", name, a[1], a[2], b[1], b[2]))
        end
      end
    end)
    assert.is_true(levels >= 300)
  end)

  it("is symmetric between random floor cells, with and without radius", function()
    local rand = generator(4242)
    local pairs_checked = 0
    for seed = 1, 30 do
      local m = map.generate { width = 50, height = 30, seed = seed, algorithm = seed % 2 == 0 and "cave" or "rooms" }
      local open = cells_not_in(m, "#+")
      local vis = {}
      local function fov_from(c, r)
        local key = fmt("%d,%d,%s", c[1], c[2], tostring(r))
        vis[key] = vis[key] or map.fov(m, c[1], c[2], r)
        return vis[key]
      end
      for _ = 1, 40 do
        local a, b = open[rand(#open)], open[rand(#open)]
        local r = rand(3) == 1 and rand(10) or nil
        local ab, ba = fov_from(a, r)[b[2]][b[1]] == true, fov_from(b, r)[a[2]][a[1]] == true
        assert(ab == ba, fmt("seed %d: (%d,%d) and (%d,%d) radius %s", seed, a[1], a[2], b[1], b[2], tostring(r)))
        pairs_checked = pairs_checked + 1
      end
    end
    assert.are.equal(1200, pairs_checked)
  end)

  it("takes opaque characters as an option", function()
    for seed = 1, 20 do
      local m = map.generate { width = 60, height = 20, seed = seed }
      local p = m.player
      for _, opaque in ipairs({ "#$!", "#", "", "#.", "$" }) do
        local why = vis_diff(map.fov(m, p.x, p.y, nil, { opaque = opaque }), ref.fov(m, p.x, p.y, nil, opaque), 60, 20)
        assert(not why, fmt("seed %d opaque %q: %s", seed, opaque, tostring(why)))
      end
      local why = vis_diff(map.fov(m, p.x, p.y, 5, { opaque = "#$" }), ref.fov(m, p.x, p.y, 5, "#$"), 60, 20)
      assert(not why, fmt("seed %d radius 5 opaque #$: %s", seed, tostring(why)))
    end
  end)

  it("sees a whole corridor and the walls around it", function()
    local m = from_text("#######\n#.....#\n#######")
    local vis = map.fov(m, 2, 2)
    for y = 1, 3 do
      for x = 1, 7 do assert.is_true(vis[y][x], fmt("(%d,%d)", x, y)) end
    end
    -- Radius 2: 2*3 = 6 >= dx*dx + dy*dy.
    vis = map.fov(m, 2, 2, 2)
    local four = { true, true, true, true }
    assert.are.same({ four, four, four }, vis)
  end)

  it("casts a pillar's shadow", function()
    local m = from_text("#########\n#.......#\n#...#...#\n#.......#\n#########")
    local vis = map.fov(m, 2, 3)
    local hidden = { ["6,3"] = true, ["7,3"] = true, ["8,3"] = true, ["9,3"] = true }
    for y = 1, 5 do
      for x = 1, 9 do
        assert.are.equal(not hidden[x .. "," .. y], vis[y][x] == true, fmt("(%d,%d)", x, y))
      end
    end
    -- Behind two pillars in a bigger room, against the reference.
    m = from_text(table.concat({
      "###############",
      "#.............#",
      "#....#....#...#",
      "#.............#",
      "#......#......#",
      "#.............#",
      "###############",
    }, "\n"))
    for _, o in ipairs({ { 2, 2 }, { 7, 4 }, { 14, 6 }, { 8, 2 } }) do
      assert.is_nil(vis_diff(map.fov(m, o[1], o[2]), ref.fov(m, o[1], o[2]), 15, 7))
    end
  end)

  it("sees every cell of an open room, and of a map without a border", function()
    local m = from_text("########\n#......#\n#......#\n#......#\n########")
    for y = 2, 4 do
      for x = 2, 7 do
        local vis = map.fov(m, x, y)
        for yy = 1, 5 do
          for xx = 1, 8 do assert.is_true(vis[yy][xx], fmt("from (%d,%d): (%d,%d)", x, y, xx, yy)) end
        end
      end
    end
    m = from_text("......\n......\n......\n......")
    for _, o in ipairs({ { 1, 1 }, { 6, 4 }, { 3, 2 }, { 6, 1 } }) do
      local vis = map.fov(m, o[1], o[2])
      for yy = 1, 4 do
        for xx = 1, 6 do assert.is_true(vis[yy][xx], fmt("from (%d,%d): (%d,%d)", o[1], o[2], xx, yy)) end
      end
    end
    -- Edge cells are floor; what lies beyond is opaque: a wall row hides
    -- nothing past the edge, and the reference agrees cell for cell.
    m = from_text(".#....\n...#..\n#.....\n..+...")
    for y = 1, 4 do
      for x = 1, 6 do
        assert.is_nil(vis_diff(map.fov(m, x, y), ref.fov(m, x, y), 6, 4))
        assert.is_nil(vis_diff(map.fov(m, x, y, 1), ref.fov(m, x, y, 1), 6, 4))
      end
    end
  end)

  it("handles a 1x1 map, radius 0, an opaque origin and a huge radius", function()
    assert.are.same({ { true } }, map.fov({ { "." } }, 1, 1))
    assert.are.same({ { true } }, map.fov({ { "#" } }, 1, 1))
    assert.are.same({ { true } }, map.fov({ { "." } }, 1, 1, 0))
    local m = map.generate { width = 40, height = 20, seed = 3, algorithm = "cave" }
    local p = m.player
    local only = map.fov(m, p.x, p.y, 0)
    for y = 1, 20 do
      for x = 1, 40 do assert.are.equal(x == p.x and y == p.y, only[y][x] == true) end
    end
    assert.is_nil(vis_diff(map.fov(m, p.x, p.y, 100000), map.fov(m, p.x, p.y), 40, 20))
    -- From inside a wall: the origin, and what Ford's scan reveals from there.
    local wall = cells_not_in(m, ".@>$!")[50]
    local vis = map.fov(m, wall[1], wall[2])
    assert.is_true(vis[wall[2]][wall[1]])
    assert.is_nil(vis_diff(vis, ref.fov(m, wall[1], wall[2]), 40, 20))
  end)

  it("does not change the map", function()
    local m = map.generate(60, 20, 8)
    local before = map.render(m)
    map.fov(m, m.player.x, m.player.y)
    map.distances(m, m.player, { diagonal = true, cost = { ["$"] = 3 } })
    map.path(m, m.player.x, m.player.y, m.stairs.x, m.stairs.y)
    assert.are.equal(before, map.render(m))
  end)
end)

describe("map.distances", function()
  local COST = { ["."] = 1, ["$"] = 5 }
  local OPTIONS = {
    {}, { diagonal = true }, { cost = COST }, { diagonal = true, cost = { ["."] = 2, ["!"] = 7, ["+"] = 3 } },
    { blocked = "#$" }, { blocked = "#+", diagonal = true },
  }

  it("equals the reference on 312 generated levels, with every option", function()
    each_level(function(m, name, rand)
      local h, w = #m, #m[1]
      local c = cells_not_in(m, "#")
      c = c[rand(#c)]
      local sources = { m.player, { m.stairs }, m.items, { { x = c[1], y = c[2] }, m.stairs } }
      local k, o = rand(#sources), OPTIONS[rand(#OPTIONS)]
      local s = sources[k]
      local why = dist_diff(map.distances(m, s, o), ref.distances(m, s, o), w, h)
      assert(not why, fmt("%s, sources %d, %s: %s", name, k, describe_options(o), tostring(why)))
      if rand(2) == 1 then
        why = dist_diff(map.distances(m, m.player), ref.distances(m, m.player), w, h)
        assert(not why, fmt("%s, from @: %s", name, tostring(why)))
      end
    end)
  end)

  it("counts a source on a blocked cell, and sources in every form", function()
    local m = from_text("#####\n#...#\n#.#.#\n#####")
    assert.are.same({
      { false, false, false, false, false },
      { 0, 1, 2, 3, false },
      { false, 2, false, 4, false },
      { false, false, false, false, false },
    }, map.distances(m, { x = 1, y = 2 }))
    assert.are.same(map.distances(m, { { x = 2, y = 2 } }), map.distances(m, { x = 2, y = 2 }))
    local two = map.distances(m, { { x = 2, y = 3 }, { x = 4, y = 3 } })
    assert.are.same({ 1, 2, 1 }, { two[2][2], two[2][3], two[2][4] })
    -- The generator's own fields.
    local g = map.generate(60, 20, 4)
    assert.are.equal(0, map.distances(g, g.player)[g.player.y][g.player.x])
    assert.are.equal(0, map.distances(g, { g.stairs })[g.stairs.y][g.stairs.x])
    local d = map.distances(g, g.items)
    for _, item in ipairs(g.items) do assert.are.equal(0, d[item.y][item.x]) end
  end)

  it("walks diagonally without cutting corners, and weighs cells by cost", function()
    local m = from_text("####\n#..#\n##.#\n####")
    local d = map.distances(m, { x = 2, y = 2 }, { diagonal = true })
    assert.are.equal(2, d[3][3])
    m = from_text("#####\n#...#\n#...#\n#####")
    d = map.distances(m, { x = 2, y = 2 }, { diagonal = true })
    assert.are.same({ 0, 1, 2 }, { d[2][2], d[3][3], d[3][4] })
    m = from_text("#######\n#.$$$.#\n#.....#\n#######")
    d = map.distances(m, { x = 2, y = 2 }, { cost = COST })
    assert.are.same({ 5, 8, 6 }, { d[2][3], d[2][4], d[2][6] })
    assert.are.same({ false, 1, 2 }, { d[1][1], d[3][2], d[3][3] })
  end)

  it("leaves unreachable cells false", function()
    local m = from_text("#######\n#..#..#\n#######")
    local d = map.distances(m, { x = 2, y = 2 })
    assert.are.same({ false, 0, 1, false, false, false, false }, d[2])
  end)

  it("works on a 1x1 map and on a map without a border", function()
    assert.are.same({ { 0 } }, map.distances({ { "." } }, { x = 1, y = 1 }))
    assert.are.same({ { 0 } }, map.distances({ { "#" } }, { x = 1, y = 1 }))
    local m = from_text("....\n....\n....")
    local d = map.distances(m, { x = 1, y = 1 })
    for y = 1, 3 do
      for x = 1, 4 do assert.are.equal(x + y - 2, d[y][x]) end
    end
    d = map.distances(m, { x = 4, y = 3 }, { diagonal = true })
    assert.are.same({ 3, 2, 2, 2 }, d[1])
  end)
end)

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
        local what = fmt("%s, path (%d,%d)->(%d,%d) %s", name, x1, y1, x2, y2, describe_options(o))
        local p, msg = map.path(m, x1, y1, x2, y2, o)
        local want, want_msg = ref.path(m, x1, y1, x2, y2, o)
        assert(path_text(p) == path_text(want), fmt("%s:\n  module    %s %s\n  reference %s %s", what,
          path_text(p), tostring(msg), path_text(want), tostring(want_msg)))
        local d = map.distances(m, { x = x1, y = y1 }, o)
        if p then
          local cost, why = walk_cost(m, p, x1, y1, x2, y2, o)
          assert(cost, fmt("%s: %s", what, tostring(why)))
          assert(cost == d[y2][x2], fmt("%s: costs %d, distances says %s", what, cost, tostring(d[y2][x2])))
          if not o.cost and not o.blocked then
            assert(path_text(p) == path_text(tie_walk(m, x1, y1, x2, y2, o)), what .. ": not the tie rule's path")
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
        assert.are.equal(path_text(tie_walk(m, ax, ay, bx, by, o)), path_text(p))
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

---------------------------------------------------------------------------
-- Errors.

describe("bad arguments", function()
  local row = { "#", "#" }
  local BAD_MAPS = {
    { nil, "map must be a table of rows, got nil" },
    { "##", "map must be a table of rows, got string" },
    { {}, "map has no rows" },
    { { "##" }, "row 1 must be a table, got string" },
    { { {} }, "row 1 is empty" },
    { { row, { "#" } }, "row 2 has 1 cells, row 1 has 2" },
    { { { "#", 7 } }, "cell [1][2] must be a one-character string, got number" },
    { { { "#", "ab" } }, "cell [1][2] must be a one-character string, got a 2-byte string" },
  }
  local m = from_text("#####\n#...#\n#####") -- 5x3

  it("names a bad map", function()
    for _, case in ipairs(BAD_MAPS) do
      fails("fov", { case[2] }, case[1], 1, 1)
      fails("distances", { case[2] }, case[1], { x = 1, y = 1 })
      fails("path", { case[2] }, case[1], 1, 1, 1, 1)
    end
  end)

  it("names coordinates outside the map or not integers", function()
    local BAD = {
      { 0, 1, "x must be an integer from 1 to 5, got 0" },
      { 6, 1, "x must be an integer from 1 to 5, got 6" },
      { 1, 0, "y must be an integer from 1 to 3, got 0" },
      { 1, 4, "y must be an integer from 1 to 3, got 4" },
      { 1.5, 1, "x must be an integer from 1 to 5, got 1.5" },
      { 2, 0.5, "y must be an integer from 1 to 3, got 0.5" },
      { -2 ^ 53, 1, "x must be an integer from 1 to 5, got -" },
      { "2", 2, 'x must be an integer from 1 to 5, got string "2"' },
      { nil, 2, "x must be an integer from 1 to 5, got nil" },
      { 2, true, "y must be an integer from 1 to 3, got boolean" },
      { {}, 2, "x must be an integer from 1 to 5, got table" },
      { 0 / 0, 2, "x must be an integer from 1 to 5, got " },
      { 1 / 0, 2, "x must be an integer from 1 to 5, got " },
    }
    for _, case in ipairs(BAD) do
      local x, y, message = case[1], case[2], case[3]
      fails("fov", { message }, m, x, y)
      fails("distances", { "sources." .. message }, m, { x = x, y = y })
      fails("distances", { "sources[2]." .. message }, m, { { x = 2, y = 2 }, { x = x, y = y } })
      -- path names its four coordinates x1, y1, x2, y2.
      local start = message:gsub("^(%a)", "%11")
      local goal = message:gsub("^(%a)", "%12")
      fails("path", { start }, m, x, y, 2, 2)
      fails("path", { goal }, m, 2, 2, x, y)
    end
  end)

  it("names a bad radius or opaque option", function()
    local BAD = { { -1, "-1" }, { 1.5, "1.5" }, { "3", 'string "3"' }, { true, "boolean" }, { {}, "table" },
      { 0 / 0, "" }, { 1 / 0, "" }, { -2 ^ 53, "-" } }
    for _, case in ipairs(BAD) do
      fails("fov", { "radius must be an integer >= 0, got " .. case[2] }, m, 2, 2, case[1])
    end
    for _, case in ipairs({ { 5, "5" }, { true, "boolean" }, { {}, "table" } }) do
      fails("fov", { "opaque must be a string of characters, got " .. case[2] }, m, 2, 2, nil, { opaque = case[1] })
    end
    fails("fov", { 'unknown option "colour"' }, m, 2, 2, nil, { colour = 1 })
    fails("fov", { 'unknown option "blocked"' }, m, 2, 2, 3, { blocked = "#" })
    fails("fov", { "options must be a table, got string" }, m, 2, 2, 3, "#")
  end)

  it("names bad sources, an empty array among them", function()
    local ANY = "sources must be a position {x=, y=} or a non-empty array of them, got "
    local BAD = {
      { 5, ANY .. "number" }, { "x", ANY .. "string" }, { true, ANY .. "boolean" }, { {}, ANY .. "an empty table" },
      { { 5 }, "sources[1] must be a position {x=, y=}, got number" },
      { { { x = 2 } }, "sources[1].y must be an integer from 1 to 3, got nil" },
      { { x = 2 }, "sources.y must be an integer from 1 to 3, got nil" },
      { { { x = 2, y = 2 }, "x" }, "sources[2] must be a position {x=, y=}, got string" },
    }
    fails("distances", { ANY .. "nil" }, m, nil)
    for _, case in ipairs(BAD) do fails("distances", { case[2] }, m, case[1]) end
  end)

  it("names bad distance and path options", function()
    local COST = 'cost["."] must be an integer from 1 to '
    local KEYS = "cost keys must be one-character strings, got "
    local BAD = {
      { { cost = { ["."] = 0 } }, COST, ", got 0" },
      { { cost = { ["."] = -1 } }, COST, ", got -1" },
      { { cost = { ["."] = 1.5 } }, COST, ", got 1.5" },
      { { cost = { ["."] = "2" } }, COST, ', got string "2"' },
      { { cost = { [".."] = 2 } }, KEYS .. 'string ".."' },
      { { cost = { [""] = 2 } }, KEYS .. 'string ""' },
      { { cost = { [1] = 2 } }, KEYS .. "1" },
      { { cost = "." }, "cost must be a table" },
      { { blocked = 5 }, "blocked must be a string of characters, got 5" },
      { { blocked = {} }, "blocked must be a string of characters, got table" },
      { { diagonal = "yes" }, 'diagonal must be a boolean, got string "yes"' },
      { { opaque = "#" }, 'unknown option "opaque"' },
      { { colour = 1 }, 'unknown option "colour"' },
    }
    for _, case in ipairs(BAD) do
      local parts = { unpack(case, 2) }
      fails("distances", parts, m, { x = 2, y = 2 }, case[1])
      fails("path", parts, m, 2, 2, 4, 2, case[1])
    end
    fails("distances", { "options must be a table, got number" }, m, { x = 2, y = 2 }, 5)
    fails("path", { "options must be a table, got boolean" }, m, 2, 2, 4, 2, true)
  end)

  it("counts arguments", function()
    fails("fov", { "expected at most 5 arguments, got 6" }, m, 2, 2, 3, {}, 1)
    fails("fov", { "expected at most 5 arguments, got 6" }, m, 2, 2, nil, nil, nil)
    fails("distances", { "expected at most 3 arguments, got 4" }, m, { x = 2, y = 2 }, {}, 1)
    fails("path", { "expected at most 6 arguments, got 7" }, m, 2, 2, 4, 2, {}, 1)
  end)
end)

---------------------------------------------------------------------------
-- The same results on both interpreters.

-- A running hash of numbers, exact on both (every value stays below 2^53).
local function hasher()
  local h = 0
  return function(v)
    if v == nil then return h end
    h = (h * 31 + v) % 4294967291
  end
end

describe("results on Lua 5.4 and LuaJIT", function()
  it("hash to the digest stored in this spec", function()
    local add = hasher()
    local n = { lv = 0, vis = 0, dist = 0, path = 0 }
    for _, spec in ipairs({ { "rooms", 60, 20 }, { "cave", 80, 50 }, { "rooms", 33, 17 }, { "cave", 25, 9 } }) do
      for seed = 1, 6 do
        local m = map.generate { width = spec[2], height = spec[3], seed = seed, algorithm = spec[1] }
        local h, w = #m, #m[1]
        n.lv = n.lv + 1
        local p = m.player
        for _, r in ipairs({ 8, false, 3 }) do
          local vis = map.fov(m, p.x, p.y, r or nil, r == 3 and { opaque = "#$!" } or nil)
          for y = 1, h do
            for x = 1, w do
              if vis[y][x] then
                add(y * w + x)
                n.vis = n.vis + 1
              end
            end
          end
        end
        for _, o in ipairs({ {}, { diagonal = true }, { cost = { ["."] = 1, ["$"] = 5 } } }) do
          local d = map.distances(m, m.items, o)
          for y = 1, h do
            for x = 1, w do
              add(d[y][x] and d[y][x] + 1 or 0)
              n.dist = n.dist + 1
            end
          end
          local path = map.path(m, p.x, p.y, m.stairs.x, m.stairs.y, o)
          for _, c in ipairs(path) do
            add(c.x)
            add(c.y)
            n.path = n.path + 1
          end
        end
      end
    end
    local digest = fmt("%d lv %d vis %d dist %d path %d", add(), n.lv, n.vis, n.dist, n.path)
    assert.are.equal(DIGEST, digest)
  end)
end)
