-- map.light and level:light on Lua 5.4 and LuaJIT (see .busted): against
-- the pure-Lua reference on map.fov (spec/reference/light.lua) cell for
-- cell on generated levels of every algorithm, the rule on hand-made maps,
-- its symmetry, clamping, colours and the ambient level. Its bad
-- arguments: hostile_spec.lua.
local map = require "map"
local support = require "spec.support"
local ref_light = require("spec.reference.light").light

local fmt, sqrt = string.format, math.sqrt
local from_text = support.from_text

-- Nil when the light maps a (the module's) and b (the reference's) hold
-- the same numbers in the same shape, else where they differ.
local function light_diff(a, b)
  if (a.r ~= nil) ~= (b.r ~= nil) then return "one has colours, the other not" end
  local channels = b.r and { "r", "g", "b" } or { false }
  for _, k in ipairs(channels) do
    local ra, rb = k and a[k] or a, k and b[k] or b
    if #ra ~= #rb then return fmt("%s: %d rows, %d", tostring(k), #ra, #rb) end
    for y = 1, #rb do
      if #ra[y] ~= #rb[y] then return fmt("%s row %d: %d cells, %d", tostring(k), y, #ra[y], #rb[y]) end
      for x = 1, #rb[y] do
        local v = ra[y][x]
        if type(v) ~= "number" or v ~= rb[y][x] then
          return fmt("%s (%d,%d): module %s, reference %.17g", tostring(k), x, y, tostring(v), rb[y][x])
        end
      end
    end
  end
end

-- Random lights on open cells of m: radius 0 to 12, intensity 0 to 2,
-- a colour now and then (as an array or by name).
local function some_lights(m, rand, count, colors)
  local open = support.cells_not_in(m, "#+")
  local lights = {}
  for i = 1, count do
    local c = open[rand(#open)]
    local l = { x = c[1], y = c[2], radius = rand(13) - 1 }
    if rand(3) > 1 then l.intensity = (rand(21) - 1) / 10 end
    if colors and rand(3) == 1 then
      local r, g, b = (rand(11) - 1) / 10, (rand(11) - 1) / 10, (rand(11) - 1) / 10
      l.color = rand(2) == 1 and { r, g, b } or { r = r, g = g, b = b }
    end
    lights[i] = l
  end
  return lights
end

describe("map.light", function()
  it("equals the reference on 312 generated levels, with colours, opaque and ambient levels", function()
    local compared = 0
    local levels = support.each_level(function(m, name, rand)
      local lights = some_lights(m, rand, 1 + rand(6), rand(2) == 1)
      local options
      local pick = rand(4)
      if pick == 2 then options = { ambient = 0.15 }
      elseif pick == 3 then options = { opaque = "#", ambient = { 0.1, 0, 0.2 } }
      elseif pick == 4 then options = { opaque = "" } end
      local got, want = map.light(m, lights, options), ref_light(m, lights, options)
      local why = light_diff(got, want)
      assert(not why, fmt("%s, %d lights: %s", name, #lights, tostring(why)))
      compared = compared + 1
    end)
    assert.is_true(levels >= 300 and compared == levels)
  end)

  it("equals the reference on every algorithm's levels, the overworld's included, and as a level's method", function()
    for _, algorithm in ipairs(map.ALGORITHMS) do
      for seed = 1, 4 do
        local m = map.generate { width = 60, height = 30, seed = seed, algorithm = algorithm }
        local rand = support.generator(seed * 31 + #algorithm)
        local lights = some_lights(m, rand, 10, seed % 2 == 0)
        local options = seed == 3 and { opaque = "#+^\"" } or nil
        local want = ref_light(m, lights, options)
        local why = light_diff(map.light(m, lights, options), want)
        assert(not why, fmt("%s seed %d: %s", algorithm, seed, tostring(why)))
        local lvl = map.level { width = 60, height = 30, seed = seed, algorithm = algorithm }
        why = light_diff(lvl:light(lights, options), want)
        assert(not why, fmt("%s seed %d, level:light: %s", algorithm, seed, tostring(why)))
      end
    end
  end)

  it("follows the rule on an open room: the whole intensity at the light, less farther, 0 past the radius", function()
    local m = from_text [[
#########
#.......#
#.......#
#.......#
#########]]
    local l = map.light(m, { { x = 5, y = 3, radius = 3, intensity = 0.8 } })
    assert.are.equal(0.8, l[3][5])
    assert.are.equal(0.8 * (1 - 1 / 4), l[3][6])
    assert.are.equal(0.8 * (1 - sqrt(2) / 4), l[2][6])
    assert.are.equal(0.8 * (1 - 3 / 4), l[3][8])
    -- A wall in sight is lit; dx*dx + dy*dy <= r * (r + 1) = 12 bounds the disc.
    assert.are.equal(0.8 * (1 - 2 / 4), l[1][5])
    assert.are.equal(0.8 * (1 - sqrt(8) / 4), l[1][7])
    assert.are.equal(0, l[3][1] + l[1][9])
    for y = 1, 5 do
      for x = 1, 9 do assert.is_true(l[y][x] >= 0 and l[y][x] <= 0.8) end
    end
  end)

  it("lights only what the light sees: a wall casts a shadow, an opaque character too", function()
    local m = from_text [[
.........
....#....
.........
....~....]]
    local l = map.light(m, { { x = 5, y = 3, radius = 8 } })
    assert.is_true(l[1][5] == 0 and l[2][5] > 0, "the wall is lit, behind it dark")
    assert.is_true(l[4][5] > 0)
    local with = map.light(m, { { x = 5, y = 1, radius = 8 } }, { opaque = "#~" })
    assert.are.equal(0, with[4][5] + with[3][5])
  end)

  it("is symmetric between floor cells: a light at a gives b what the same light at b gives a", function()
    local pairs_ = 0
    support.each_level(function(m, name, rand)
      if pairs_ > 2000 then return end
      local open = support.cells_not_in(m, "#+")
      for _ = 1, 6 do
        local a, b = open[rand(#open)], open[rand(#open)]
        local r, i = rand(10), rand(10) / 5
        local la = map.light(m, { { x = a[1], y = a[2], radius = r, intensity = i } })
        local lb = map.light(m, { { x = b[1], y = b[2], radius = r, intensity = i } })
        assert(la[b[2]][b[1]] == lb[a[2]][a[1]], fmt("%s: (%d,%d) and (%d,%d)", name, a[1], a[2], b[1], b[2]))
        if la[b[2]][b[1]] > 0 then pairs_ = pairs_ + 1 end
      end
    end)
    assert.is_true(pairs_ > 200, pairs_ .. " lit pairs")
  end)

  it("clamps the sum to 1; the ambient level is every cell's base", function()
    local m = from_text(".....\n.....")
    local l = map.light(m, { { x = 2, y = 1, radius = 4 }, { x = 3, y = 1, radius = 4, intensity = 2 } },
      { ambient = 0.25 })
    assert.are.equal(1, l[1][2])
    for y = 1, 2 do
      for x = 1, 5 do assert.is_true(l[y][x] >= 0.25 and l[y][x] <= 1) end
    end
    local dark = map.light(from_text(".#...."), { { x = 1, y = 1, radius = 10 } }, { ambient = 0.4 })
    assert.are.same({ 1, 1, 0.4, 0.4, 0.4, 0.4 }, dark[1])
    local dim = map.light(from_text(".#...."), { { x = 1, y = 1, radius = 10, intensity = 0.5 } },
      { ambient = 0.1 })
    assert.are.same({ 0.1 + 0.5, 0.1 + 0.5 * (1 - 1 / 11), 0.1, 0.1, 0.1, 0.1 }, dim[1])
    assert.are.same({ { 0, 0 } }, map.light(from_text(".."), {}))
    assert.are.same({ { 1, 1 } }, map.light(from_text(".."), {}, { ambient = 1 }))
  end)

  it("gives three channels when a light or the ambient level has a colour; white lights add to each", function()
    local m = from_text(".......")
    local l = map.light(m, { { x = 1, y = 1, radius = 6, color = { 1, 0.5, 0 } }, { x = 7, y = 1, radius = 0 } })
    assert.are.same({ "b", "g", "r" }, (function()
      local keys = {}
      for k in pairs(l) do keys[#keys + 1] = k end
      table.sort(keys)
      return keys
    end)())
    local share = 1 - 2 / 7
    assert.are.same({ share, share * 0.5, share * 0 }, { l.r[1][3], l.g[1][3], l.b[1][3] })
    assert.are.same({ 1, 1, 1 }, { l.r[1][7], l.g[1][7], l.b[1][7] })
    local named = map.light(m, { { x = 1, y = 1, radius = 6, color = { r = 1, g = 0.5, b = 0 } } })
    local listed = map.light(m, { { x = 1, y = 1, radius = 6, color = { 1, 0.5, 0 } } })
    assert.are.same(listed, named)
    local moon = map.light(m, {}, { ambient = { 0.1, 0.1, 0.3 } })
    assert.are.same({ 0.1, 0.1, 0.3 }, { moon.r[1][4], moon.g[1][4], moon.b[1][4] })
    local grey = map.light(m, { { x = 4, y = 1, radius = 2 } })
    assert.is_nil(grey.r)
    assert.are.equal("number", type(grey[1][4]))
  end)

  it("level:light reads the level's terrain as map.light reads the table", function()
    local m = map.generate { width = 50, height = 25, seed = 3, algorithm = "bsp", doors = true }
    local lvl = map.level(m)
    local rand = support.generator(5)
    for _ = 1, 10 do
      local lights = some_lights(m, rand, rand(8), true)
      assert.are.same(map.light(m, lights, { ambient = 0.05 }), lvl:light(lights, { ambient = 0.05 }))
    end
    lvl:set(m.player.x + 1, m.player.y, "#")
    local changed = lvl:light({ { x = m.player.x, y = m.player.y, radius = 5 } })
    assert.are.same(map.light(lvl:table(), { { x = m.player.x, y = m.player.y, radius = 5 } }), changed)
  end)
end)
