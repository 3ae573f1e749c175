-- The Lua side of each call's memory bound (docs/hardening.md): what a result
-- adds to the Lua heap, measured with the collector stopped so that nothing
-- is freed while it is counted. The Rust side is tests/memory.rs.
local map = require "map"

-- Bytes per map cell that a result may take, plus a fixed allowance for the
-- lists of a level (at most 10,000 rooms and 10,000 items). Measured: a
-- generated level 19 B/cell on Lua 5.4 and 13 on LuaJIT; fov, a hash entry
-- per visible cell, up to 41 B/cell when every cell of a 600-wide row is
-- visible (the hash part rounds up to a power of two).
local PER_CELL, FOV_PER_CELL = 32, 64
local FIXED = 3 * 1024 * 1024

local W, H = 600, 600

-- The bytes the Lua heap grew by while `f` built its result (kept alive).
local function growth(f)
  collectgarbage("collect")
  collectgarbage("stop")
  local before = collectgarbage("count")
  local result = f()
  local grew = (collectgarbage("count") - before) * 1024
  collectgarbage("restart")
  assert(result ~= nil)
  return grew
end

local function within_bound(name, f, per_cell)
  local grew = growth(f)
  local bound = (per_cell or PER_CELL) * W * H + FIXED
  assert(grew <= bound, ("%s: %d bytes, bound %d"):format(name, grew, bound))
  assert(grew > 0, name .. ": nothing measured")
end

describe("the Lua result of every call stays within 32 bytes a cell (fov: 64) plus 3 MiB", function()
  local cave = map.generate { width = W, height = H, seed = 1, algorithm = "cave", fill = 1 }
  local open = map.new_map(W, H)
  for y = 2, H - 1 do
    for x = 2, W - 1 do open[y][x] = "." end
  end
  local most = { width = W, height = H, seed = 1, rooms = 10000, items = 10000 }

  it("tables of rows: new_map, generate with the most rooms and items, distances", function()
    within_bound("new_map", function() return map.new_map(W, H) end)
    within_bound("generate", function() return map.generate(most) end)
    within_bound("distances", function() return map.distances(cave, cave.player) end)
  end)

  it("strings: render, generate_text, generate_json", function()
    within_bound("render", function() return map.render(cave) end)
    within_bound("generate_text", function() return map.generate_text(most) end)
    within_bound("generate_json", function() return map.generate_json(most) end)
  end)

  it("fov over an open map (every cell visible) and a long path", function()
    within_bound("fov", function() return map.fov(open, W / 2, H / 2) end, FOV_PER_CELL)
    within_bound("path", function() return map.path(open, 2, 2, W - 1, H - 1) end)
  end)

  it("the turn functions: flee's rows, parse's map, explore's and sample's cells", function()
    within_bound("flee", function() return map.flee(cave, cave.player) end)
    within_bound("distances within max", function() return map.distances(cave, cave.player, { max = 5 }) end)
    within_bound("parse", function() return map.parse(map.render(cave)) end)
    -- Everything known but a column at the far side: the longest way there.
    local known = {}
    for y = 1, H do
      local row = {}
      for x = 1, W - 2 do row[x] = true end
      known[y] = row
    end
    within_bound("explore", function() return map.explore(open, known, 2, H / 2) end)
    assert.are.equal(W - 3, #map.explore(open, known, 2, H / 2))
    within_bound("sample", function() return map.sample(open, 10000, { seed = 1 }) end)
  end)

  it("items are capped, so no call builds millions of item tables", function()
    local ok, err = pcall(map.generate_json, { width = 2000, height = 2000, seed = 2, algorithm = "cave",
      fill = 1, items = 3992000 })
    assert.is_false(ok)
    assert.are.equal("map.generate_json: items must be an integer from 0 to 10000, got 3992000", err)
  end)
end)
