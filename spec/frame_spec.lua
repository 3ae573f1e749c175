-- map.frame and lvl:frame on Lua 5.4 and LuaJIT (see .busted): against the
-- pure-Lua reference (spec/reference/frame.lua) on generated levels, with
-- random cameras (past the map too), fields of view, memories, things,
-- items, blanks and light maps, in both forms; and lvl:fov's field = true.
-- Its bad arguments: hostile_spec.lua (spec/exports/frame.lua).
local map = require "map"
local ref = require "spec.reference.frame"

local fmt = string.format

-- A random camera over a `w` x `h` map: anywhere from a little above and
-- left of it to a little past it, of 1 to w + 4 columns and h + 4 rows.
local function camera(rand, w, h)
  return rand(w + 8) - 5, rand(h + 8) - 5, rand(w + 4), rand(h + 4)
end

-- A list of `n` random marks on a `w` x `h` map.
local function marks(rand, w, h, n, chars)
  local list = {}
  for i = 1, n do
    local k = rand(#chars)
    list[i] = { x = rand(w), y = rand(h), char = chars:sub(k, k) }
  end
  return list
end

local function same(label, a, b)
  if a == b then return end
  error(fmt("%s: module %q, reference %q", label, tostring(a), tostring(b)))
end

local function same_rows(label, a, b)
  assert(#a == #b, label .. ": " .. #a .. " rows, reference " .. #b)
  for i = 1, #b do same(label .. " row " .. i, a[i], b[i]) end
end

describe("lvl:frame", function()
  it("equals the reference on 30 generated levels, 10 cameras each, in both forms", function()
    for seed = 1, 30 do
      local algorithm = map.ALGORITHMS[seed % #map.ALGORITHMS + 1]
      local lvl = map.level { width = 40, height = 20, seed = seed, algorithm = algorithm }
      local w, h = lvl.width, lvl.height
      local rand = map.rng(seed)
      local function r(n) return rand:random(n) end
      local memory = lvl:field()
      local p = lvl.player
      lvl:fov(p, 6, { into = memory })
      lvl:fov(r(w), r(h), 5, { into = memory })
      for k = 1, 10 do
        local x, y, cw, ch = camera(r, w, h)
        local options = ({
          {},
          { visible = lvl:fov(p, 8) },
          { visible = lvl:fov(p, 8), memory = memory, things = true },
          { visible = lvl:fov(p), memory = memory, things = marks(r, w, h, 6, "gok@"),
            items = marks(r, w, h, 4, "$!") , blank = "?" },
          { memory = memory, things = true },
        })[k % 5 + 1]
        local label = fmt("%s seed %d, camera (%d,%d) %dx%d, options %d", algorithm, seed, x, y, cw, ch, k % 5 + 1)
        local rows, states = lvl:frame(x, y, cw, ch, options)
        local rrows, rstates = ref.of_level(lvl, x, y, cw, ch, options)
        same_rows(label, rows, rrows)
        same_rows(label .. " states", states, rstates)
        options.bytes = true
        if k % 2 == 0 then options.light = lvl:light({ { x = p.x, y = p.y, radius = 6 } }, { ambient = 0.1 }) end
        same(label .. " bytes", lvl:frame(x, y, cw, ch, options), ref.of_level(lvl, x, y, cw, ch, options))
      end
    end
  end)

  it("is map.frame on the level's table, its things laid in it", function()
    local lvl = map.level { width = 30, height = 12, seed = 4 }
    local m = map.parse(lvl:render())
    for _, cam in ipairs { { 1, 1, 30, 12 }, { -3, -2, 10, 8 }, { 25, 9, 10, 10 }, { 40, 40, 3, 3 } } do
      local a, sa = lvl:frame(cam[1], cam[2], cam[3], cam[4], { things = true })
      local b, sb = map.frame(m, cam[1], cam[2], cam[3], cam[4])
      same_rows("rows", a, b)
      same_rows("states", sa, sb)
    end
    local vis = lvl:fov(lvl.player, 5)
    same_rows("with a field", lvl:frame(1, 1, 30, 12, { visible = vis, things = true }),
      map.frame(m, 1, 1, 30, 12, { visible = vis }))
  end)

  it("gives 4 bytes a cell: char, state, light, 0", function()
    local lvl = map.level("#...\n#.@.")
    local s = lvl:frame(0, 2, 4, 1, { bytes = true, visible = lvl:fov(3, 2, 1) })
    assert.are.equal(" \0\255\0 \0\255\0.\2\255\0@\2\255\0", s)
    local lit = lvl:frame(2, 2, 2, 1, { bytes = true, light = { { 0, 0, 0, 0 }, { 0, 0.5, 1, 0 } } })
    assert.are.equal(".\2\128\0@\2\255\0", lit)
  end)
end)

describe("lvl:fov with into and field = true", function()
  it("marks the memory as the count form does and returns the field the plain form returns", function()
    for seed = 1, 10 do
      local lvl = map.level { width = 50, height = 25, seed = seed }
      local a, b = lvl:field(), lvl:field()
      local p = lvl.player
      local count = lvl:fov(p, 7, { into = a })
      local field = lvl:fov(p, 7, { into = b, field = true })
      local plain = lvl:fov(p, 7)
      assert.are.same(plain:table(), field:table())
      assert.are.same(a:table(), b:table())
      local n = 0
      for _, row in pairs(field:table()) do for _ in pairs(row) do n = n + 1 end end
      assert.are.equal(count, n)
      assert.are.equal(count, lvl:fov(p, 7, { into = b, field = false }))
    end
  end)
end)
