-- Who stands where (issue 36), on Lua 5.4 and LuaJIT (see .busted):
-- lvl:occupy(x, y, id) and lvl:occupant(x, y) against a Lua table of the
-- occupants kept beside the level, over random sequences of occupy (with
-- an id and without), vacate and steps; the occupancy and the movers' moves
-- the same as on a twin level that has no ids; ids through lvl:save,
-- map.save and map.load; saved strings of levels without ids unchanged.
-- Bad arguments: spec/natives/level.lua (hostile_spec.lua).
local map = require "map"
local support = require "spec.support"

local fmt = string.format

-- A 20x10 room with pillars, so that steps have walls to go round.
local ROWS = {
  "####################",
  "#..................#",
  "#..#.....#.....#...#",
  "#..................#",
  "#.....#......#.....#",
  "#..................#",
  "#..#.....#.....#...#",
  "#..................#",
  "#......#.....#.....#",
  "####################",
}
local W, H = #ROWS[1], #ROWS

local function floor_cells()
  local cells = {}
  for y = 1, H do
    for x = 1, W do
      if ROWS[y]:sub(x, x) == "." then cells[#cells + 1] = { x = x, y = y } end
    end
  end
  return cells
end

-- Every cell of `lvl` against the model: occupant and occupied.
local function check(lvl, model, what)
  for y = 1, H do
    for x = 1, W do
      local want = model[(y - 1) * W + x]
      local got = lvl:occupant(x, y)
      if got ~= want then
        error(fmt("%s: occupant(%d,%d) is %s, the model's %s", what, x, y, tostring(got), tostring(want)), 2)
      end
      if lvl:occupied(x, y) ~= (want ~= nil) then
        error(fmt("%s: occupied(%d,%d) is %s", what, x, y, tostring(lvl:occupied(x, y))), 2)
      end
    end
  end
end

local function copy(movers)
  local out = {}
  for i, p in ipairs(movers) do out[i] = { x = p.x, y = p.y } end
  return out
end

describe("occupants' ids", function()
  it("are what occupy gave, true without one, nil on a free cell", function()
    local lvl = map.level(table.concat(ROWS, "\n"))
    assert.is_nil(lvl:occupant(2, 2))
    lvl:occupy(2, 2, 7)
    lvl:occupy({ x = 3, y = 2 })
    lvl:occupy({ x = 4, y = 2 }, 2 ^ 53)
    assert.are.same({ 7, true, 2 ^ 53 }, { lvl:occupant(2, 2), lvl:occupant({ x = 3, y = 2 }), lvl:occupant(4, 2) })
    if math.type then assert.are.equal("integer", math.type(lvl:occupant(2, 2))) end
    -- occupy without an id keeps the cell's; with one, replaces it.
    lvl:occupy(2, 2)
    assert.are.equal(7, lvl:occupant(2, 2))
    lvl:occupy(2, 2, 8.0)
    assert.are.equal(8, lvl:occupant(2, 2))
    -- vacate drops the id: occupied again without one, the cell has none.
    lvl:vacate(2, 2)
    assert.is_nil(lvl:occupant(2, 2))
    lvl:occupy(2, 2)
    assert.is_true(lvl:occupant(2, 2))
    -- one id may stand on many cells: the game's ids are the game's.
    lvl:occupy(5, 2, 4)
    lvl:occupy(6, 2, 4)
    assert.are.same({ 4, 4 }, { lvl:occupant(5, 2), lvl:occupant(6, 2) })
  end)

  it("follow random occupy, vacate and steps as a Lua table of them does", function()
    local floor = floor_cells()
    local carried = 0
    for seed = 1, 12 do
      local rand = support.generator(seed)
      local lvl = map.level(table.concat(ROWS, "\n"))
      local twin = map.level(table.concat(ROWS, "\n")) -- bits only
      local model = {}
      for turn = 1, 60 do
        local what = fmt("seed %d turn %d", seed, turn)
        local op = rand(10)
        if op <= 4 then
          local c = floor[rand(#floor)]
          local id = rand(3) > 1 and rand(1000) or nil
          lvl:occupy(c.x, c.y, id)
          twin:occupy(c)
          local k = (c.y - 1) * W + c.x
          model[k] = id or model[k] or true
        elseif op <= 6 then
          local c = floor[rand(#floor)]
          if rand(2) == 1 then lvl:vacate(c) else lvl:vacate(c.x, c.y) end
          twin:vacate(c)
          model[(c.y - 1) * W + c.x] = nil
        else
          -- The occupied cells, each a mover, toward a random goal.
          local movers = {}
          for y = 1, H do
            for x = 1, W do
              if model[(y - 1) * W + x] ~= nil and rand(3) > 1 then movers[#movers + 1] = { x = x, y = y } end
            end
          end
          local goal = floor[rand(#floor)]
          local d = lvl:distances(goal)
          local options = { occupied = true, diagonal = rand(2) == 1 }
          local before, twins = copy(movers), copy(movers)
          local moved = lvl:steps(d, movers, options)
          assert.are.equal(moved, twin:steps(twin:distances(goal), twins, options), what)
          assert.are.same(twins, movers, what .. ": the moves with ids and without")
          local n = 0
          for i, p in ipairs(movers) do
            local from = before[i]
            if p.x ~= from.x or p.y ~= from.y then
              n = n + 1
              local a, b = (from.y - 1) * W + from.x, (p.y - 1) * W + p.x
              assert.is_nil(model[b], what .. ": a mover stepped onto an occupied cell")
              if type(model[a]) == "number" then carried = carried + 1 end
              model[b], model[a] = model[a] or true, nil
            end
          end
          assert.are.equal(n, moved, what)
        end
        check(lvl, model, what)
        for y = 1, H do
          for x = 1, W do
            assert(lvl:occupied(x, y) == twin:occupied(x, y), what)
          end
        end
      end
      -- The searches see the occupied cells as the twin's.
      local from = floor[1]
      local a, b = lvl:distances(from, { occupied = true }), twin:distances(from, { occupied = true })
      assert.are.same(b:table(), a:table(), fmt("seed %d distances", seed))
      local saved = map.load(lvl:save())
      check(saved, model, fmt("seed %d saved and loaded", seed))
      check(map.load(map.save({ lvl }))[1], model, fmt("seed %d map.save", seed))
    end
    assert(carried > 50, "few moves carried an id: " .. carried)
  end)

  it("go with a monster that steps, and not with one that does not", function()
    local lvl = map.level(table.concat(ROWS, "\n"))
    local d = lvl:distances({ x = 10, y = 2 })
    local movers = { { x = 2, y = 2 }, { x = 17, y = 2 } }
    lvl:occupy(movers[1], 11)
    lvl:occupy(movers[2], 12)
    assert.are.equal(2, lvl:steps(d, movers, { occupied = true }))
    assert.are.same({ { x = 3, y = 2 }, { x = 16, y = 2 } }, movers)
    assert.are.same({ 11, 12 }, { lvl:occupant(3, 2), lvl:occupant(16, 2) })
    assert.are.same({}, { lvl:occupant(2, 2) ~= nil or nil, lvl:occupant(17, 2) ~= nil or nil })
    -- Without `occupied`, steps leave occupancy alone, ids with it.
    lvl:steps(d, movers)
    assert.are.same({ 11, 12 }, { lvl:occupant(3, 2), lvl:occupant(16, 2) })
  end)

  it("survive lvl:save, map.save and map.load; a level without them saves as before", function()
    local lvl = map.level { width = 40, height = 20, seed = 3 }
    local plain = lvl:save()
    lvl:occupy(lvl.player, 1)
    lvl:occupy(lvl.stairs)
    lvl:occupy(2, 2, 2 ^ 53)
    for _, s in ipairs({ lvl:save(), map.save({ game = { lvl } }), map.save({ lvl }, { text = true }) }) do
      local back = map.load(s)
      back = back.game and back.game[1] or back[1] or back
      local got = { back:occupant(lvl.player), back:occupant(lvl.stairs), back:occupant(2, 2) }
      assert.are.same({ 1, true, 2 ^ 53 }, got)
      assert.are.equal(lvl:save(), back:save())
    end
    -- Every id gone, the bytes are the old format's again.
    lvl:vacate(lvl.player)
    lvl:vacate(2, 2)
    lvl:vacate(lvl.stairs)
    assert.are.equal(plain, lvl:save())
    -- A level saved before ids existed (spec/golden_native) loads, and
    -- saves back the same bytes.
    local f = assert(io.open("spec/golden_native/level-rooms-40x20-9.hex", "rb"))
    local hex = f:read("a"):gsub("%s", "")
    f:close()
    local old = hex:gsub("..", function(h) return string.char(tonumber(h, 16)) end)
    local loaded = map.load(old)
    assert.are.equal(old, loaded:save())
    assert.is_nil(loaded:occupant(1, 1))
  end)

  it("are read on the LuaJIT route's levels as on the C methods'", function()
    -- vacate's route leaves a level with ids to the C method (the id goes
    -- with the bit); occupy without an id keeps the cell's, as C does.
    local lvl = map.level(table.concat(ROWS, "\n"))
    for x = 2, 19 do lvl:occupy(x, 2, x) end
    for x = 2, 19, 2 do lvl:vacate(x, 2) end
    for x = 2, 19 do lvl:occupy(x, 2) end
    for x = 2, 19 do
      assert.are.equal(x % 2 == 0 and true or x, lvl:occupant(x, 2))
    end
  end)
end)
