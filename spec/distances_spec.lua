-- map.distances on Lua 5.4 and LuaJIT (see .busted): against the pure-Lua
-- reference (spec/reference/distances.lua) on generated levels, and on
-- hand-built maps. Its bad arguments: hostile_spec.lua; the same results on
-- both interpreters: luajit_spec.lua.
local map = require "map"
local support = require "spec.support"
local ref_distances = require("spec.reference.distances").distances

local from_text, each_level, cells_not_in = support.from_text, support.each_level, support.cells_not_in
local fmt = string.format

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
      local why = dist_diff(map.distances(m, s, o), ref_distances(m, s, o), w, h)
      assert(not why, fmt("%s, sources %d, %s: %s", name, k, support.options_text(o), tostring(why)))
      if rand(2) == 1 then
        why = dist_diff(map.distances(m, m.player), ref_distances(m, m.player), w, h)
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

  it("does not change the map", function()
    local m = map.generate(60, 20, 8)
    local before = map.render(m)
    map.distances(m, m.player, { diagonal = true, cost = { ["$"] = 3 } })
    assert.are.equal(before, map.render(m))
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

  -- A start value up to 2^52 plus the costliest walk (under 4,000,000
  -- steps of 2^30) stays within 2^53, so every reachable cell is exact;
  -- past 2^52 the search could not settle them (they came back false).
  it("gives every reachable cell its value from the largest start values", function()
    local m = from_text("...")
    local expensive = { cost = { ["."] = 2 ^ 30 } }
    assert.are.same({ { 2 ^ 52, 2 ^ 52 + 2 ^ 30, 2 ^ 52 + 2 ^ 31 } },
      map.distances(m, { x = 1, y = 1, value = 2 ^ 52 }, expensive))
    assert.are.same({ { -2 ^ 52, 1 - 2 ^ 52, 2 - 2 ^ 52 } }, map.distances(m, { x = 1, y = 1, value = -2 ^ 52 }))
    for _, value in ipairs({ 2 ^ 52 + 1, 2 ^ 53, 2 ^ 53 - 1, -2 ^ 53 }) do
      for _, fn in ipairs({ "distances", "flee" }) do
        local ok, err = pcall(map[fn], m, { { x = 1, y = 1 }, { x = 3, y = 1, value = value } }, expensive)
        assert.is_false(ok)
        assert.are.equal(("map.%s: sources[2].value must be an integer with |value| <= 2^52, got %s")
          :format(fn, string.format("%d", value)), err)
      end
    end
  end)
end)
