-- The searches' limits on Lua 5.4 and LuaJIT (see .busted): distances' and
-- path's options avoid, known and max, and sources' start values, against
-- the pure-Lua reference (spec/reference/search.lua) on generated levels,
-- and on hand-built maps. Bad values: hostile_spec.lua.
local map = require "map"
local support = require "spec.support"
local search = require("spec.reference.search").search
local ref_path = require "spec.reference.path"

local rows_diff = support.rows_diff
local from_text, each_level, cells_not_in = support.from_text, support.each_level, support.cells_not_in
local fmt = string.format

-- The map with every cell the options close (avoid, not known) a wall, for
-- the plain reference path: a wall is blocked whatever options.blocked says.
local function reduced(m, o)
  local out, blocked = {}, (o.blocked or "#") .. "\0"
  local h, w = #m, #m[1]
  local closed = {}
  for _, p in ipairs(o.avoid or {}) do closed[(p.y - 1) * w + p.x] = true end
  for y = 1, h do
    local row = {}
    for x = 1, w do
      local k = o.known and o.known[y]
      local unknown = o.known and not (k and k[x])
      row[x] = (closed[(y - 1) * w + x] or unknown) and "\0" or m[y][x]
    end
    out[y] = row
  end
  return out, { blocked = blocked, diagonal = o.diagonal, cost = o.cost }
end

describe("distances and path with limits", function()
  it("equal the reference on 312 generated levels, with every limit", function()
    each_level(function(m, name, rand)
      local open = cells_not_in(m, "#")
      local function cell() local c = open[rand(#open)] return { x = c[1], y = c[2] } end
      local known = map.fov(m, m.player, 2 + rand(10))
      local options = {
        { max = rand(15) - 1 }, { avoid = m.items }, { avoid = { cell(), cell() }, diagonal = true },
        { known = known }, { known = known, diagonal = true, max = 6 },
        { cost = { ["."] = 2, ["$"] = 7 }, max = 20, avoid = { cell() } }, { avoid = {} },
      }
      local sources = {
        m.player, { m.player, { x = m.stairs.x, y = m.stairs.y, value = 5 - rand(10) } },
        { { x = open[1][1], y = open[1][2], value = rand(100) } }, m.items,
      }
      local o, s = options[rand(#options)], sources[rand(#sources)]
      local why = rows_diff(map.distances(m, s, o), search(m, s, o))
      assert(not why, fmt("%s, %s: %s", name, support.options_text(o), tostring(why)))
      local a, b = cell(), cell()
      local p, msg = map.path(m, a, b, o)
      local small, plain = reduced(m, o)
      local want, want_msg = ref_path.path(small, a.x, a.y, b.x, b.y, plain)
      if want and o.max then
        local cost = ref_path.walk_cost(small, want, a.x, a.y, b.x, b.y, plain)
        if cost > o.max then want, want_msg = nil, fmt("no path from (%d,%d) to (%d,%d)", a.x, a.y, b.x, b.y) end
      end
      assert.are.same(want, p, name)
      assert.are.equal(want_msg, msg, name)
    end)
  end)

  it("start a source at its value: the least of value plus walk", function()
    local m = from_text("#######\n#.....#\n#######")
    local d = map.distances(m, { { x = 2, y = 2, value = 10 }, { x = 6, y = 2, value = 0 } })
    assert.are.same({ false, 4, 3, 2, 1, 0, false }, d[2])
    d = map.distances(m, { x = 4, y = 2, value = -3 })
    assert.are.same({ false, -1, -2, -3, -2, -1, false }, d[2])
    -- A source on a wall keeps its value; a blocked one can be left.
    d = map.distances(m, { x = 1, y = 2, value = 7 })
    assert.are.same({ 7, 8, 9, 10, 11, 12, false }, d[2])
    -- Values to 2^52 stay exact, the walks from them too (past 2^52 a
    -- value is refused: distances_spec.lua).
    d = map.distances(m, { x = 2, y = 2, value = 2 ^ 52 - 2 })
    assert.are.same({ false, 2 ^ 52 - 2, 2 ^ 52 - 1, 2 ^ 52, 2 ^ 52 + 1, 2 ^ 52 + 2, false }, d[2])
    d = map.distances(m, { x = 2, y = 2, value = -2 ^ 52 })
    assert.are.equal(-2 ^ 52 + 4, d[2][6])
  end)

  it("stop at max: farther cells are false, and a source beyond max reaches nothing", function()
    local m = from_text("#######\n#.....#\n#######")
    assert.are.same({ false, 0, 1, 2, false, false, false }, map.distances(m, { x = 2, y = 2 }, { max = 2 })[2])
    assert.are.same({ false, 0, false, false, false, false, false }, map.distances(m, { x = 2, y = 2 }, { max = 0 })[2])
    local d = map.distances(m, { x = 2, y = 2, value = 3 }, { max = 2 })
    for y = 1, 3 do assert.are.same({ false, false, false, false, false, false, false }, d[y]) end
    assert.are.same({ nil, "no path from (2,2) to (6,2)" }, { map.path(m, 2, 2, 6, 2, { max = 3 }) })
    assert.are.equal(5, #map.path(m, 2, 2, 6, 2, { max = 4 }))
    assert.are.same({ nil, "goal (1,1) is blocked" }, { map.path(m, 6, 2, 1, 1, { max = 1 }) })
    -- A huge max is no limit.
    assert.are.same(map.distances(m, { x = 2, y = 2 }), map.distances(m, { x = 2, y = 2 }, { max = 2 ^ 60 }))
  end)

  it("read only the cells a search within max can reach", function()
    -- Past the window, a cell that is not a string is never read.
    local m = from_text("......\n......\n......")
    m[1][6] = 5
    local d = map.distances(m, { x = 1, y = 3 }, { max = 2 })
    assert.are.same({ 2, false, false, false, false, false }, { d[1][1], d[1][2], d[1][3], d[1][4], d[1][5], d[1][6] })
    assert.are.equal(3, #map.path(m, 1, 3, 3, 3, { max = 2 }))
    local ok, err = pcall(map.distances, m, { x = 1, y = 3 })
    assert.is_false(ok)
    assert.are.equal("map.distances: cell [1][6] must be a one-character string, got number", err)
  end)

  it("walk around avoided and unknown cells, which are corners too", function()
    local m = from_text("....\n....\n....")
    local d = map.distances(m, { x = 1, y = 1 }, { avoid = { { x = 2, y = 1 }, { x = 2, y = 2 } } })
    assert.are.same({ 0, false, 6, 7 }, d[1])
    assert.are.same({ 1, false, 5, 6 }, d[2])
    d = map.distances(m, { x = 1, y = 1 }, { avoid = { x = 2, y = 1 }, diagonal = true })
    -- No diagonal step passes the avoided corner (2,1): round by (3,2).
    assert.are.same({ 0, false, 4 }, { d[1][1], d[1][2], d[1][3] })
    assert.are.same({ 1, 2, 3 }, { d[2][1], d[2][2], d[2][3] })
    local known = { { true, true }, { true, true } }
    d = map.distances(m, { x = 1, y = 1 }, { known = known })
    assert.are.same({ 0, 1, false, false }, d[1])
    assert.are.same({ false, false, false, false }, d[3])
    -- A source on an avoided or unknown cell still counts, and is left.
    d = map.distances(m, { x = 4, y = 3 }, { known = known })
    assert.are.same({ false, false, false, 0 }, d[3])
    d = map.distances(m, { x = 2, y = 1 }, { avoid = { x = 2, y = 1 } })
    assert.are.same({ 1, 0, 1, 2 }, d[1])
    -- Known rows may be missing; any value but nil and false is known.
    d = map.distances(m, { x = 1, y = 1 }, { known = { { 1, "yes", {} } } })
    assert.are.same({ 0, 1, 2, false }, d[1])
    assert.are.same({ false, false, false, false }, d[2])
    assert.are.same({ nil, "goal (2,1) is blocked" }, { map.path(m, 1, 1, 2, 1, { avoid = { x = 2, y = 1 } }) })
    assert.are.same({ { x = 2, y = 1 }, { x = 1, y = 1 } }, map.path(m, 2, 1, 1, 1, { avoid = { x = 2, y = 1 } }))
  end)

  -- lvl:steps and lvl:steps_xy bound their movers as the C methods do, on
  -- LuaJIT's route too (which once stepped them all).
  it("refuse more than MAX_CELLS movers, before reading any", function()
    local lvl = map.level(from_text("...\n..."))
    local d = lvl:distances({ x = 1, y = 1 })
    local one = { x = 3, y = 1 }
    local movers = {}
    for i = 1, map.MAX_CELLS + 1 do movers[i] = one end
    local ok, err = pcall(lvl.steps, lvl, d, movers)
    assert.is_false(ok)
    assert.are.equal("level:steps: movers has more than 4000000 positions", err)
    local xs, ys = movers, {}
    for i = 1, #xs do xs[i], ys[i] = 3, 1 end
    ok, err = pcall(lvl.steps_xy, lvl, d, xs, ys)
    assert.is_false(ok)
    assert.are.equal("level:steps_xy: xs has more than 4000000 entries", err)
    assert.are.same({ x = 3, y = 1 }, one)
    assert.are.equal(3, xs[1])
  end)

  -- A list read per call must have a bound of its own: an avoid longer
  -- than the map has cells is refused before any entry is read.
  it("refuse an avoid longer than MAX_CELLS positions, and take one that long", function()
    local m = from_text("...\n...")
    local one = { x = 3, y = 1 }
    local avoid = {}
    for i = 1, map.MAX_CELLS do avoid[i] = one end
    assert.are.same({ 0, 1, false }, map.distances(m, { x = 1, y = 1 }, { avoid = avoid })[1])
    avoid[#avoid + 1] = one
    local want = "avoid has more than 4000000 positions"
    for name, call in pairs({
      distances = function() return map.distances(m, { x = 1, y = 1 }, { avoid = avoid }) end,
      path = function() return map.path(m, 1, 1, 2, 2, { avoid = avoid }) end,
      step = function() return map.step(m, { { 1, 0, 1 }, { 2, 1, 2 } }, 1, 1, { avoid = avoid }) end,
      explore = function() return map.explore(m, { { true } }, 1, 1, { avoid = avoid }) end,
    }) do
      local ok, err = pcall(call)
      assert.is_false(ok)
      assert.are.equal("map." .. name .. ": " .. want, err)
    end
  end)
end)
