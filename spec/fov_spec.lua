-- map.fov on Lua 5.4 and LuaJIT (see .busted): against the pure-Lua
-- reference (spec/reference/fov.lua) on generated levels, by its properties
-- and on hand-built maps. Its bad arguments: hostile_spec.lua; the same
-- results on both interpreters: luajit_spec.lua.
local map = require "map"
local support = require "spec.support"
local ref_fov = require("spec.reference.fov").fov

local from_text, each_level, cells_not_in = support.from_text, support.each_level, support.cells_not_in
local fmt = string.format

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

describe("map.fov", function()
  it("equals the reference on 312 generated levels; a radius cuts the unlimited result to the disc", function()
    local levels = each_level(function(m, name, rand)
      local h, w = #m, #m[1]
      local open = cells_not_in(m, "#+")
      -- Origins: @ and five random non-opaque cells.
      local origins = { { m.player.x, m.player.y } }
      for k = 2, 6 do origins[k] = open[rand(#open)] end
      for _, o in ipairs(origins) do
        local x, y = o[1], o[2]
        local vis = map.fov(m, x, y)
        local why = vis_diff(vis, ref_fov(m, x, y), w, h)
        assert(not why, fmt("%s, fov from (%d,%d): %s", name, x, y, tostring(why)))
        assert(vis[y][x], "origin not visible")
        local r = rand(14) - 1
        local vr = map.fov(m, x, y, r)
        why = vis_diff(vr, ref_fov(m, x, y, r), w, h)
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
    end)
    assert.is_true(levels >= 300)
  end)

  it("is symmetric: between the origins above, and between random floor cells with and without radius", function()
    each_level(function(m, name, rand)
      local open = cells_not_in(m, "#+")
      -- The same origins as above: @ and the first five random non-opaque cells.
      local origins = { { m.player.x, m.player.y } }
      for k = 2, 6 do origins[k] = open[rand(#open)] end
      local full = {}
      for k, o in ipairs(origins) do full[k] = map.fov(m, o[1], o[2]) end
      for i = 1, #origins do
        for j = i + 1, #origins do
          local a, b = origins[i], origins[j]
          assert((full[i][b[2]][b[1]] == true) == (full[j][a[2]][a[1]] == true),
            fmt("%s: fov not symmetric between (%d,%d) and (%d,%d)", name, a[1], a[2], b[1], b[2]))
        end
      end
    end)
    local rand = support.generator(4242)
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
        local why = vis_diff(map.fov(m, p.x, p.y, nil, { opaque = opaque }), ref_fov(m, p.x, p.y, nil, opaque), 60, 20)
        assert(not why, fmt("seed %d opaque %q: %s", seed, opaque, tostring(why)))
      end
      local why = vis_diff(map.fov(m, p.x, p.y, 5, { opaque = "#$" }), ref_fov(m, p.x, p.y, 5, "#$"), 60, 20)
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
      assert.is_nil(vis_diff(map.fov(m, o[1], o[2]), ref_fov(m, o[1], o[2]), 15, 7))
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
        assert.is_nil(vis_diff(map.fov(m, x, y), ref_fov(m, x, y), 6, 4))
        assert.is_nil(vis_diff(map.fov(m, x, y, 1), ref_fov(m, x, y, 1), 6, 4))
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
    assert.is_nil(vis_diff(vis, ref_fov(m, wall[1], wall[2]), 40, 20))
  end)

  it("does not change the map", function()
    local m = map.generate(60, 20, 8)
    local before = map.render(m)
    map.fov(m, m.player.x, m.player.y)
    assert.are.equal(before, map.render(m))
  end)
end)
