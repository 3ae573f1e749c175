-- lvl:steps_xy(d, xs, ys [, options]) (issue 35), on Lua 5.4 and LuaJIT
-- (see .busted): on random caves, fields (over the whole level and
-- windowed by `max`), tables of rows, movers (on walls, unreached cells
-- and each other's cells included) and options, the same count, cells and
-- occupancy as lvl:steps on the same cells of a twin level, and as a
-- reference model of the step rule written here in Lua. Bad arguments:
-- spec/natives/level.lua (hostile_spec.lua).
local map = require "map"
local support = require "spec.support"

local fmt = string.format
local UNREACHED = math.huge

-- The step rule (toolkit/step.rs): the least neighbour strictly below the
-- mover's own value, ties N, E, S, W, NE, SE, SW, NW; not into a blocked
-- or (with occupied) occupied cell; no diagonal step cutting a corner.
local DIRS = { { 0, -1 }, { 1, 0 }, { 0, 1 }, { -1, 0 }, { 1, -1 }, { 1, 1 }, { -1, 1 }, { -1, -1 } }

local function reference(lvl, d, xs, ys, options)
  local w, h = lvl.width, lvl.height
  local blocked = options.blocked or lvl.blocked or "#"
  local function value(x, y) return d:get(x, y) or UNREACHED end
  local function open(x, y)
    if x < 1 or y < 1 or x > w or y > h then return false end
    if blocked:find(lvl:get(x, y), 1, true) then return false end
    return not (options.occupied and lvl:occupied(x, y))
  end
  local moved = 0
  for i = 1, #xs do
    local x, y = xs[i], ys[i]
    local best, bx, by = value(x, y), nil, nil
    for k = 1, options.diagonal and 8 or 4 do
      local dx, dy = DIRS[k][1], DIRS[k][2]
      local nx, ny = x + dx, y + dy
      if nx >= 1 and ny >= 1 and nx <= w and ny <= h then
        local v = value(nx, ny)
        local corners = dx == 0 or dy == 0 or open(x + dx, y) and open(x, y + dy)
        if v < best and open(nx, ny) and corners then best, bx, by = v, nx, ny end
      end
    end
    if bx then
      if options.occupied then
        lvl:vacate(x, y)
        lvl:occupy(bx, by)
      end
      xs[i], ys[i] = bx, by
      moved = moved + 1
    end
  end
  return moved
end

local function occupancy(lvl)
  local cells = {}
  for y = 1, lvl.height do
    for x = 1, lvl.width do cells[#cells + 1] = lvl:occupied(x, y) and "o" or "." end
  end
  return table.concat(cells)
end

-- Three copies of one random cave, the same cells occupied on each.
local function levels(rand, seed)
  local options = { width = 8 + rand(40), height = 6 + rand(20), seed = seed, algorithm = "cave" }
  local copies = { map.level(options), map.level(options), map.level(options) }
  for _ = 1, rand(10) do
    local x, y = rand(options.width), rand(options.height)
    for _, lvl in ipairs(copies) do lvl:occupy(x, y) end
  end
  return copies, options.width, options.height
end

local function random_options(rand)
  local options = { diagonal = rand(2) == 1 or nil, occupied = rand(2) == 1 or nil }
  if rand(4) == 1 then options.blocked = "#." end
  return options
end

describe("lvl:steps_xy", function()
  it("steps as lvl:steps and the reference model do, on random levels, fields and movers", function()
    for seed = 1, 150 do
      local rand = support.generator(seed)
      local copies, w, h = levels(rand, seed)
      local goal = { x = rand(w), y = rand(h) }
      local max = rand(3) == 1 and rand(12) or nil
      local ds = {}
      for k, lvl in ipairs(copies) do ds[k] = lvl:distances(goal, { max = max }) end
      local xs, ys, movers, rx, ry = {}, {}, {}, {}, {}
      for i = 1, rand(30) - 1 do
        xs[i], ys[i] = rand(w), rand(h)
        movers[i], rx[i], ry[i] = { x = xs[i], y = ys[i] }, xs[i], ys[i]
      end
      local options = random_options(rand)
      local what = fmt("seed %d (%dx%d, max %s)", seed, w, h, tostring(max))
      local n = copies[1]:steps_xy(ds[1], xs, ys, options)
      assert.are.equal(copies[2]:steps(ds[2], movers, options), n, what)
      assert.are.equal(reference(copies[3], ds[3], rx, ry, options), n, what)
      for i = 1, #xs do
        assert.are.same({ movers[i].x, movers[i].y }, { xs[i], ys[i] }, what .. " mover " .. i)
        assert.are.same({ rx[i], ry[i] }, { xs[i], ys[i] }, what .. " mover " .. i)
      end
      assert.are.equal(occupancy(copies[2]), occupancy(copies[1]), what)
      assert.are.equal(occupancy(copies[3]), occupancy(copies[1]), what)
    end
  end)

  it("steps as lvl:steps does with d as rows, avoid and known", function()
    for seed = 1, 60 do
      local rand = support.generator(1000 + seed)
      local copies, w, h = levels(rand, seed)
      local goal = { x = rand(w), y = rand(h) }
      local rows = copies[1]:distances(goal):table()
      local known = copies[1]:fov(goal, 6)
      local xs, ys, movers = {}, {}, {}
      for i = 1, rand(20) do
        xs[i], ys[i] = rand(w), rand(h)
        movers[i] = { x = xs[i], y = ys[i] }
      end
      local options = random_options(rand)
      if rand(2) == 1 then options.avoid = { { x = rand(w), y = rand(h) } } end
      if rand(2) == 1 then options.known = known end
      local d = rand(2) == 1 and rows or copies[1]:distances(goal)
      local what = fmt("seed %d", seed)
      local n = copies[1]:steps_xy(d, xs, ys, options)
      assert.are.equal(copies[2]:steps(d, movers, options), n, what)
      for i = 1, #xs do
        assert.are.same({ movers[i].x, movers[i].y }, { xs[i], ys[i] }, what .. " mover " .. i)
      end
      assert.are.equal(occupancy(copies[2]), occupancy(copies[1]), what)
    end
  end)

  it("writes only the movers that moved, and takes integral floats", function()
    local lvl = map.level { width = 30, height = 12, seed = 3, algorithm = "cave" }
    local d = lvl:distances(lvl.player)
    local xs, ys = { lvl.player.x + 0.0 }, { lvl.player.y + 0.0 }
    assert.are.equal(0, lvl:steps_xy(d, xs, ys))
    assert.are.equal(lvl.player.x, xs[1])
    assert.are.equal(0, lvl:steps_xy(d, {}, {}))
  end)
end)
