-- A level made from a generated table keeps its metadata (issue 36):
-- `map.level(m)` of a table that names its `algorithm` reads `seed`,
-- `rooms` (with exits and links), `doors`, `player`, `stairs`, `items`,
-- `vaults`, `placed`, `up`, `locks` and `blocked` back, each checked.
local map = require "map"

local META = { "seed", "algorithm", "blocked", "rooms", "doors", "player", "stairs", "items", "vaults", "placed",
  "up", "locks" }

-- The options that give each algorithm's table every field it can have.
local function options(algorithm, seed)
  local opts = { width = 60, height = 30, seed = seed, algorithm = algorithm }
  if map.describe(algorithm).blocked == "#" and algorithm ~= "example" then
    opts.locks, opts.arrive = 2, { x = 10, y = 10 }
    opts.vaults = { { rows = { ".....", ".#M#.", "....." } } }
    opts.place = { { char = "k", count = 3 } }
  end
  if algorithm == "rooms" or algorithm == "bsp" then opts.doors = true end
  return opts
end

local function level_error(m)
  local ok, err = pcall(map.level, m)
  assert.is_false(ok, "no error")
  return (err:gsub("^map%.level: ", ""))
end

describe("map.level of a generated table", function()
  for _, algorithm in ipairs(map.ALGORITHMS) do
    it(algorithm .. ": gives back the table the level generated directly gives (10 seeds)", function()
      for seed = 1, 10 do
        local opts = options(algorithm, seed)
        local ok, m = pcall(map.generate, opts)
        if ok then
          local from_table, direct = map.level(m), map.level(opts)
          assert.are.same(direct:table(), from_table:table())
          assert.are.same(m, from_table:table())
          for _, field in ipairs(META) do
            assert.are.same(direct[field], from_table[field], field)
          end
        else
          assert.matches("cannot place", m)
        end
      end
    end)
  end

  it("keeps every cell where it is (things stay on the terrain, as before)", function()
    local m = map.generate { width = 60, height = 20, seed = 42 }
    local lvl = map.level(m)
    assert.are.equal("@", lvl:get(lvl.player))
    assert.are.equal(0, #lvl:things())
    local split = map.level(m, { things = "@$!" })
    assert.are.equal(".", split:get(split.player))
    assert.are.same(m, split:table())
  end)

  it("keeps what a game changed, and gives it back", function()
    local m = map.generate { width = 60, height = 20, seed = 42 }
    m.items, m.doors = nil, nil
    m.rooms[1].exits, m.rooms[1].visited = nil, true
    m.player = { x = m.rooms[2].x, y = m.rooms[2].y }
    m.placed = { { x = 3, y = 3, char = "M" } }
    local lvl = map.level(m)
    assert.are.same({ x = m.rooms[2].x, y = m.rooms[2].y }, lvl.player)
    local back = lvl:table()
    assert.are.same({}, back.items)
    assert.are.same({}, back.doors)
    assert.are.same({}, back.rooms[1].exits)
    assert.is_nil(back.rooms[1].visited)
    assert.are.same({ { x = 3, y = 3, char = "M" } }, back.placed)
    assert.are.same(m.rooms[2], back.rooms[2])
  end)

  it("a table that names no algorithm keeps no metadata, as before", function()
    local m = map.generate { width = 60, height = 20, seed = 42 }
    m.algorithm = nil
    local lvl = map.level(m)
    assert.is_nil(lvl.player)
    assert.is_nil(lvl:table().seed)
    assert.is_nil(map.level(map.parse("#####\n#@.>#\n#####")).rooms)
  end)

  it("saves and loads with the metadata", function()
    local m = map.generate(options("rooms", 3))
    local lvl = map.level(m)
    assert.are.same(lvl:table(), map.load(lvl:save()):table())
  end)

  it("takes the table's blocked as the metadata's", function()
    local world = map.generate { width = 40, height = 16, seed = 3, algorithm = "overworld" }
    assert.are.same(world, map.level(world):table())
    world.blocked = "#~"
    assert.are.equal("#~", map.level(world):table().blocked)
  end)
end)

describe("map.level of a table with malformed metadata", function()
  local function generated()
    local m = map.generate(options("rooms", 5))
    -- A lock of its own, whatever the level's chokepoints gave.
    m.locks = { { door = { x = 2, y = 2, char = "A" }, key = { x = 3, y = 2, char = "a" } } }
    return m
  end
  local cases = {
    { function(m) m.algorithm = "dungeon" end, 'm.algorithm must name an algorithm ("rooms", "cave", "bsp", '
      .. '"cellular", "drunkard", "maze", "overworld", "example"), got string "dungeon"' },
    { function(m) m.algorithm = 3 end, "m.algorithm must name an algorithm (" },
    { function(m) m.seed = nil end, "m.seed must be an integer from -9007199254740992 to 9007199254740992, got nil" },
    { function(m) m.seed = 1.5 end, "m.seed must be an integer from -9007199254740992 to 9007199254740992, got 1.5" },
    { function(m) m.player = nil end, "m.player must be a position {x=, y=}, got nil" },
    { function(m) m.player = "here" end, "m.player must be a position {x=, y=}, got string" },
    { function(m) m.stairs = { x = 61, y = 2 } end, "m.stairs.x must be an integer from 1 to 60, got 61" },
    { function(m) m.up = { x = 2, y = 0 } end, "m.up.y must be an integer from 1 to 30, got 0" },
    { function(m) m.rooms = true end, "m.rooms must be an array, got boolean" },
    { function(m) m.rooms.name = "x" end, 'm.rooms must be an array, but has the key "name"' },
    { function(m) m.rooms[1].w = 0 end, "m.rooms[1].w must be an integer from 1 to " },
    { function(m) m.rooms[1] = 4 end, "m.rooms[1] must be a room {x=, y=, w=, h=, exits=, links=}, got number" },
    { function(m) m.rooms[2].exits[1] = { x = 1 } end,
      "m.rooms[2].exits[1].y must be an integer from 1 to 30, got nil" },
    { function(m) m.rooms[1].links = { 0 } end, "m.rooms[1].links[1] must be an integer from 1 to " },
    { function(m) m.doors[1] = { x = -1, y = 1 } end, "m.doors[1].x must be an integer from 1 to 60, got -1" },
    { function(m) m.items[1].kind = nil end, "m.items[1].kind must be a one-character string, got nil" },
    { function(m) m.placed[1].char = "kk" end, 'm.placed[1].char must be a one-character string, got string "kk"' },
    { function(m) m.vaults[1].rotation = 8 end, "m.vaults[1].rotation must be an integer from 0 to 7, got 8" },
    { function(m) m.vaults[1].index = 0 end, "m.vaults[1].index must be an integer from 1 to 100, got 0" },
    { function(m) m.locks[1].door.char = {} end, "m.locks[1].door.char must be a one-character string, got table" },
    { function(m) m.locks[1].key = nil end, "m.locks[1].key must be a position {x=, y=}, got nil" },
    { function(m) for i = 1, 27 do m.locks[i] = m.locks[1] end end, "m.locks has 27 entries, at most 26" },
    { function(m) m.blocked = "#\255" end, "m.blocked must be text (UTF-8) on a table with generate's metadata" },
  }
  for i, case in ipairs(cases) do
    it("case " .. i .. ": " .. case[2], function()
      local m = generated()
      case[1](m)
      local err = level_error(m)
      assert.are.equal(case[2], err:sub(1, #case[2]))
    end)
  end

  it("a metatable on the table or its entries runs no code", function()
    local m = generated()
    local called = false
    local trap = setmetatable({}, { __index = function() called = true end })
    m.player = setmetatable({ x = 2, y = 2 }, getmetatable(trap))
    m.rooms[1] = setmetatable({}, getmetatable(trap))
    local err = level_error(m)
    assert.are.equal("m.rooms[1].x must be an integer from 1 to 60, got nil", err)
    assert.is_false(called)
  end)
end)
