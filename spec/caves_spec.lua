-- The cave generator on caves of its own, on Lua 5.4 and LuaJIT (see
-- .busted): exactly its fill target at every size, also when the frontier
-- runs dry, a 1000x1000 cave, its shape, its messages. generators_spec.lua
-- checks the promises it shares with the other generators on its own sweep.
local map = require "map"
local ref_distances = require("spec.reference.distances").distances

local function cave(w, h, seed, extra)
  local opts = { width = w, height = h, seed = seed, algorithm = "cave" }
  for k, v in pairs(extra or {}) do opts[k] = v end
  return map.generate(opts)
end

-- Carved cells are everything but rock; the target rounds halves up.
local function target(w, h, fill)
  return math.floor(fill * (w - 2) * (h - 2) + 0.5)
end

-- Checks one cave; returns a message on the first broken promise.
local function problem(m, w, h, fill)
  if #m ~= h then return "height " .. #m end
  local carved = 0
  for y = 1, h do
    local row = m[y]
    if #row ~= w then return "row " .. y .. " width " .. #row end
    for x = 1, w do
      local c = row[x]
      if not ("#.@>$!"):find(c, 1, true) then return "stray cell " .. c end
      if (x == 1 or y == 1 or x == w or y == h) and c ~= "#" then
        return ("border broken at (%d,%d)"):format(x, y)
      end
      if c ~= "#" then carved = carved + 1 end
    end
  end
  if carved ~= target(w, h, fill) then
    return ("carved %d, want %d"):format(carved, target(w, h, fill))
  end
  local ok, why = map.reachable(m)
  if not ok then return why end
end

describe("cave", function()
  it("is connected, bordered and carves exactly its target (1300 caves)", function()
    local sizes = { { 3, 200 }, { 4, 200 }, { 5, 200 }, { 8, 200 }, { 80, 50 }, { 30, 12 }, { 200, 150 } }
    local seeds = { 200, 200, 200, 200, 300, 180, 20 }
    for i, size in ipairs(sizes) do
      local w, h = size[1], size[2]
      for seed = 1, seeds[i] do
        local why = problem(cave(w, h, seed), w, h, 0.5)
        assert(not why, ("%dx%d seed %d: %s"):format(w, h, seed, tostring(why)))
      end
    end
  end)

  it("still carves its target when the frontier runs dry", function()
    -- max_frontier = 1 keeps at most one cell queued, so it empties often.
    for seed = 1, 100 do
      local why = problem(cave(40, 30, seed, { max_frontier = 1, fill = 0.9 }), 40, 30, 0.9)
      assert(not why, ("seed %d: %s"):format(seed, tostring(why)))
    end
  end)

  it("honours fill and gives a large cave", function()
    for _, fill in ipairs({ 0.05, 0.3, 1 }) do
      local why = problem(cave(60, 40, 7, { fill = fill }), 60, 40, fill)
      assert(not why, ("fill %s: %s"):format(fill, tostring(why)))
    end
    local m = cave(1000, 1000, 1)
    assert.are.same({ 1000, 1000 }, { #m, #m[1000] })
    assert.is_true(map.reachable(m))
  end)

  it("has the rooms generator's shape: @ at the centre, > farthest away", function()
    for seed = 1, 30 do
      local m = cave(80, 50, seed)
      assert.are.same({ 80, 50, seed, "cave" }, { m.width, m.height, m.seed, m.algorithm })
      assert.are.same({}, m.rooms)
      assert.are.same({ x = 40, y = 25 }, m.player)
      assert.are.equal(">", m[m.stairs.y][m.stairs.x])
      assert.are.equal(5, #m.items)
      local dist = ref_distances(m, m.player)
      local stairs = dist[m.stairs.y][m.stairs.x]
      for _, row in ipairs(dist) do
        for _, d in ipairs(row) do
          if d then assert.is_true(d <= stairs) end
        end
      end
    end
  end)

  it("gives the same cave for the same seed", function()
    local a = map.render(cave(80, 50, 666))
    assert.are.equal(a, map.render(cave(80, 50, 666)))
    assert.are.equal(a, map.generate_text { width = 80, height = 50, seed = 666, algorithm = "cave" })
    assert.are_not.equal(a, map.render(cave(80, 50, 667)))
  end)

  it("rejects bad options with clear errors", function()
    local cases = {
      { { fill = 0 }, "fill must be a number in %(0, 1%], got 0" },
      { { fill = 1.5 }, "fill must be a number in %(0, 1%], got 1.5" },
      { { fill = 0 / 0 }, "fill must be a number in %(0, 1%], got " },
      { { fill = "half" }, "fill must be a number in %(0, 1%], got string" },
      { { max_frontier = 0 }, "max_frontier must be an integer from 1 to %d+, got 0" },
      { { max_frontier = 2.5 }, "max_frontier must be an integer from 1 to %d+, got 2.5" },
      { { rooms = 4 }, "option rooms applies only to algorithm \"rooms\"" },
      { { width = 2 }, "width must be an integer >= 3, got 2" },
      { { width = 3, height = 3 },
        "fill 0%.5 of the 1 interior cells of a 3x3 map carves 1; @ and > need at least 2" },
      { { wobble = 1 }, "unknown option \"wobble\"" },
    }
    for _, case in ipairs(cases) do
      local opts = { width = 80, height = 50, seed = 1, algorithm = "cave" }
      for k, v in pairs(case[1]) do opts[k] = v end
      local ok, err = pcall(map.generate, opts)
      assert.is_false(ok)
      assert.matches("^map%.generate: " .. case[2], err)
    end
    -- fill belongs to the cave and any later generator that declares it.
    local takers = {}
    for _, name in ipairs(map.ALGORITHMS) do
      for _, option in ipairs(map.describe(name).options) do
        if option.name == "fill" then takers[#takers + 1] = '"' .. name .. '"' end
      end
    end
    assert.are.equal('"cave"', takers[1])
    local owners = #takers == 1 and "algorithm " .. takers[1]
      or "algorithms " .. table.concat(takers, ", ", 1, #takers - 1) .. " and " .. takers[#takers]
    local ok, err = pcall(map.generate, { width = 60, height = 20, fill = 0.5 })
    assert.is_false(ok)
    assert.are.equal("map.generate: option fill applies only to " .. owners, err)
  end)
end)
