-- The overworld and the walking rule a map carries (m.blocked), on Lua 5.4
-- and LuaJIT: the terrain's fractions against the options, @ and > by
-- their rules, land masses joined; m.blocked taken by every walking
-- function (against the pure-Lua references, which read it too) and by
-- levels (lvl.blocked, their methods, saved and loaded). The registry's
-- promises for every generator, the overworld's included, are
-- generators_spec.lua's; its golden files are spec/golden/overworld-*.txt.
local map = require "map"
local support = require "spec.support"
local ref_distances = require("spec.reference.distances").distances
local ref_path = require("spec.reference.path").path
local ref_explore = require("spec.reference.explore").explore
local ref_step = require("spec.reference.step").step

local fmt, floor = string.format, math.floor

local LAND = { ["."] = true, ['"'] = true }
local WALKABLE = { ["."] = true, ['"'] = true, ["="] = true, ["@"] = true, [">"] = true, ["$"] = true, ["!"] = true }

local function count(m, chars)
  local n = 0
  for y = 1, #m do
    for x = 1, #m[1] do
      if chars[m[y][x]] then n = n + 1 end
    end
  end
  return n
end

-- The 4-connected regions of the cells `chars` holds.
local function regions(m, chars)
  local h, w = #m, #m[1]
  local seen, n = {}, 0
  for y = 1, h do
    for x = 1, w do
      if chars[m[y][x]] and not seen[(y - 1) * w + x] then
        n = n + 1
        local stack = { { x, y } }
        seen[(y - 1) * w + x] = true
        while #stack > 0 do
          local c = table.remove(stack)
          for _, d in ipairs({ { 0, -1 }, { -1, 0 }, { 1, 0 }, { 0, 1 } }) do
            local nx, ny = c[1] + d[1], c[2] + d[2]
            if m[ny] and m[ny][nx] and chars[m[ny][nx]] and not seen[(ny - 1) * w + nx] then
              seen[(ny - 1) * w + nx] = true
              stack[#stack + 1] = { nx, ny }
            end
          end
        end
      end
    end
  end
  return n
end

local function world(options)
  local o = { algorithm = "overworld", items = 0 }
  for k, v in pairs(options) do o[k] = v end
  return map.generate(o), o
end

describe("the overworld", function()
  it("puts water and mountains at the fractions asked, forest on its share of the land", function()
    local cases = { { water = 0.3, mountains = 0.15, forest = 0.4 }, { water = 0.6, mountains = 0.05, forest = 0 },
      { water = 0.1, mountains = 0.4, forest = 1 }, { water = 0, mountains = 0, forest = 0.5 },
      { water = 0.9, mountains = 0.9, forest = 0.2 } }
    for _, c in ipairs(cases) do
      for seed = 1, 6 do
        local m, o = world { width = 120, height = 60, seed = seed, water = c.water, mountains = c.mountains,
          forest = c.forest }
        local cells, border = 120 * 60, 2 * 120 + 2 * 60 - 4
        local where = require("dkjson").encode(o)
        -- Water before the joins, exact: bridges are over water.
        local wet = count(m, { ["~"] = true, ["="] = true })
        assert.are.equal(math.max(floor(c.water * cells + 0.5), border), wet, where)
        -- Mountains: their share of the land, less the passes joins cut.
        local want = floor(c.mountains * (cells - wet) + 0.5)
        local peaks = count(m, { ["^"] = true })
        assert(peaks <= want and (c.mountains >= 0.5 or peaks >= want - 0.01 * cells), where .. ": " .. peaks
          .. " mountains of " .. want)
        -- Forest: the share of plains and forest, @ and > counted as what they stand on, near enough.
        local trees, plains = count(m, { ['"'] = true }), count(m, { ["."] = true, ["@"] = true, [">"] = true })
        if trees + plains > 200 then
          assert(math.abs(trees / (trees + plains) - c.forest) < 0.03, where .. ": forest " .. trees / (trees + plains))
        end
      end
    end
  end)

  it("joins its land masses by bridges over water and passes through mountains; all else is reachable", function()
    local bridged, split = 0, 0
    for seed = 1, 30 do
      local m = world { width = 80, height = 40, seed = seed, water = 0.5 }
      -- Without the bridges, the land (with the passes) falls apart where it had to be joined.
      local apart = regions(m, { ["."] = true, ['"'] = true, ["@"] = true, [">"] = true })
      if apart > 1 then split = split + 1 end
      if count(m, { ["="] = true }) > 0 then bridged = bridged + 1 end
      assert.are.equal(1, regions(m, WALKABLE), "seed " .. seed)
      assert.are.equal(apart > 1, count(m, { ["="] = true }) > 0, "seed " .. seed .. ": bridges exactly when needed")
      local d = ref_distances(m, m.player)
      for y = 1, #m do
        for x = 1, #m[1] do
          assert(not WALKABLE[m[y][x]] or d[y][x], fmt("seed %d: (%d,%d) %q unreachable", seed, x, y, m[y][x]))
        end
      end
    end
    assert.is_true(bridged >= 10 and split >= 10, bridged .. " maps with bridges")
  end)

  it("puts @ on the plains nearest the centre and > on the land farthest from it", function()
    for seed = 1, 20 do
      local m = world { width = 61, height = 31, seed = seed }
      local h, w = #m, #m[1]
      local best, bx, by
      for y = 1, h do
        for x = 1, w do
          local c = m[y][x]
          if c == "." or c == "@" or c == ">" then
            local far = (2 * x - (w + 1)) ^ 2 + (2 * y - (h + 1)) ^ 2
            if c ~= ">" and (not best or far < best) then best, bx, by = far, x, y end
          end
        end
      end
      assert.are.same({ x = bx, y = by }, m.player, "seed " .. seed)
      local d = ref_distances(m, m.player)
      local most, sx, sy = -1
      for y = 1, h do
        for x = 1, w do
          if (LAND[m[y][x]] or m[y][x] == ">") and d[y][x] and d[y][x] > most then most, sx, sy = d[y][x], x, y end
        end
      end
      assert.are.same({ x = sx, y = sy }, m.stairs, "seed " .. seed)
    end
  end)

  it("carries m.blocked = \"#~^\" in its table, its JSON and its level", function()
    local m = world { width = 40, height = 20, seed = 1 }
    assert.are.equal("#~^", m.blocked)
    assert.are.equal("#~^", require("dkjson").decode(map.generate_json { width = 40, height = 20, seed = 1,
      algorithm = "overworld" }).blocked)
    assert.are.equal("#~^", map.level { width = 40, height = 20, seed = 1, algorithm = "overworld" }.blocked)
    assert.is_nil(map.generate(40, 20, 1).blocked)
    assert.is_nil(map.level(map.generate(40, 20, 1)).blocked)
  end)
end)

describe("m.blocked", function()
  -- Overworlds and a hand-made map whose own rule blocks `~`.
  local function maps()
    local out = {}
    for seed = 1, 8 do
      out[#out + 1] = world { width = 50, height = 25, seed = seed, items = 3 }
    end
    local hand = map.parse [[
@..~....
.#.~.##.
...=...>]]
    hand.blocked = "#~"
    out[#out + 1] = hand
    return out
  end

  it("is every walking function's blocked default, as the references walk by it", function()
    for k, m in ipairs(maps()) do
      local p = m.player
      local where = "map " .. k
      local d = map.distances(m, p)
      assert.are.same(ref_distances(m, p), d, where)
      local s = m.stairs
      assert.are.same(ref_path(m, p.x, p.y, s.x, s.y), map.path(m, p.x, p.y, s.x, s.y), where)
      local known = map.fov(m, p.x, p.y, 6)
      assert.are.same({ ref_explore(m, known, p.x, p.y) }, { map.explore(m, known, p.x, p.y) }, where)
      local to = map.distances(m, s)
      for y = 1, #m, 3 do
        for x = 1, #m[1], 3 do
          if to[y][x] then assert.are.same({ ref_step(m, to, x, y) }, { map.step(m, to, x, y) }, where) end
        end
      end
      assert.is_true(map.reachable(m), where)
      -- sample's walk from `from`: every cell drawn within max of it by the rule.
      for _, c in ipairs(map.sample(m, 5, { seed = k, from = p, max = 12 })) do
        assert(d[c.y][c.x] and d[c.y][c.x] <= 12, where)
      end
      -- An option given wins over m.blocked.
      assert.are.same(ref_distances(m, p, { blocked = "#" }), map.distances(m, p, { blocked = "#" }), where)
    end
  end)

  it("cuts what it blocks: reachable and path say so", function()
    local m = support.from_text("@.~.>")
    assert.is_true(map.reachable(m))
    m.blocked = "#~"
    assert.are.same({ false, "not reachable from @ at (1,1): > at (5,1)" }, { map.reachable(m) })
    assert.are.same({ nil, "no path from (1,1) to (5,1)" }, { map.path(m, 1, 1, 5, 1) })
    assert.are.same({ nil, "goal (3,1) is blocked" }, { map.path(m, 1, 1, 3, 1) })
    assert.is_false(map.distances(m, { x = 1, y = 1 })[1][4])
  end)

  it("is a level's own: its methods walk by it, it saves and loads (format 2), its table carries it", function()
    for k, m in ipairs(maps()) do
      local lvl = map.level(m)
      assert.are.equal(m.blocked, lvl.blocked)
      local p, s = m.player, m.stairs
      assert.are.same(map.distances(m, p), lvl:distances(p):table(), "map " .. k)
      assert.are.same({ map.path(m, p, s) }, { lvl:path(p, s) })
      assert.are.same(map.flee(m, p, { max = 10 }), lvl:flee(p, { max = 10 }):table())
      local back = map.load(lvl:save())
      assert.are.equal(lvl.blocked, back.blocked)
      assert.are.equal(2, lvl:save():byte(9), "format 2")
      assert.are.same(lvl:distances(p):table(), back:distances(p):table())
      -- can_step and steps (LuaJIT: steps through the FFI, by the level's own mask).
      local movers = { { x = s.x, y = s.y } }
      local d = lvl:distances(p)
      lvl:steps(d, movers)
      assert.are.same({ map.step(m, d:table(), s) }, { movers[1].x, movers[1].y }, "map " .. k)
      for _, step in ipairs({ { 0, -1 }, { -1, 0 }, { 1, 0 }, { 0, 1 } }) do
        local x, y = p.x + step[1], p.y + step[2]
        local open = m[y] and m[y][x] and not m.blocked:find(m[y][x], 1, true)
        assert.are.equal(open and true or false, lvl:can_step(p, step[1], step[2]))
      end
    end
    local hand = support.from_text("@.~>")
    hand.blocked = "~~#"
    local lvl = map.level(hand)
    assert.are.equal("~#", lvl.blocked)
    assert.are.equal("~#", lvl:table().blocked)
    assert.is_nil(map.level(support.from_text("@.>")):table().blocked)
    assert.are.equal(1, map.level(support.from_text("@.>")):save():byte(9), "format 1")
  end)
end)
