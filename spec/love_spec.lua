-- The LÖVE demo's game (examples/love/game.lua) and its scripted run
-- (examples/love/script.lua), headless: both are plain Lua with no `love`
-- calls, so they run here on Lua 5.4 and LuaJIT like the other specs.
local map = require "map"
local support = require "spec.support"

local from_text = support.from_text
local fmt = string.format

-- The demo's modules by their own names, as LÖVE loads them; package.path is
-- put back afterwards so that no other spec sees examples/love/.
local Game, Script
do
  local saved = package.path
  package.path = "examples/love/?.lua;" .. package.path
  Game = require "game"
  Script = require "script"
  package.path = saved
end

-- A game on a hand-built map (the seed and algorithm are not used).
local function game_on(text, options)
  local game = Game.new(options)
  game:set_map(from_text(text))
  return game
end

local function assert_checks(game)
  local ok, problems = game:check()
  assert(ok, problems and table.concat(problems, "; "))
end

-- Auto-walks the current level to its stairs; returns the steps taken.
local function walk_to_stairs(game)
  local path = assert(game:path_to_stairs())
  assert.is_true(game:auto_walk())
  local status
  for _ = 1, #path do
    status = game:tick()
    assert_checks(game)
    if status ~= "step" then break end
  end
  assert.are.equal("arrived", status)
  assert.is_true(game:on_stairs())
  assert.are.equal(">", game.m[game.player.y][game.player.x])
  assert.are.equal(#path - 1, game.steps)
  return game.steps
end

describe("the LÖVE demo's game", function()
  it("starts on a rooms level of the given seed, @ taken off the map", function()
    local game = Game.new { seed = 42 }
    assert.are.equal("rooms", game.algorithm)
    assert.are.equal(1, game.level)
    assert.are.equal(42, game:level_seed())
    local m = map.generate { width = game.width, height = game.height, seed = 42 }
    assert.are.same({ x = m.player.x, y = m.player.y }, game.player)
    assert.are.same({ x = m.stairs.x, y = m.stairs.y }, game.stairs)
    assert.are.equal(".", game.m[m.player.y][m.player.x])
    assert.are.same({ 0, 0, 0 }, { game.gold, game.potions, game.turns })
    assert_checks(game)
    assert.has_error(function() Game.new { algorithm = "nope" } end)
  end)

  it("walks: walls block, and diagonal steps do not cut corners", function()
    local game = game_on(table.concat({
      "######",
      "#@..##",
      "#.#..#",
      "#...>#",
      "######",
    }, "\n"))
    assert.is_false(game:move(-1, 0), "a wall")
    assert.is_false(game:move(0, -1), "a wall")
    assert.is_false(game:move(1, 1), "into a wall")
    assert.is_false(game:move(2, 0), "two cells at once")
    assert.are.equal(0, game.turns)
    assert.is_true(game:move(1, 0))
    assert.are.same({ x = 3, y = 2 }, game.player)
    assert.is_false(game:move(1, 1), "cuts the corner (3,3)")
    assert.is_false(game:move(-1, 1), "cuts the corner (3,3)")
    assert.are.equal("Blocked.", game.message)
    assert.is_true(game:move(1, 0))
    assert.is_true(game:move(0, 1))
    assert.is_true(game:move(1, 1), "(5,3) and (4,4) are floor")
    assert.are.same({ x = 5, y = 4 }, game.player)
    assert.is_true(game:on_stairs())
    assert.are.equal(4, game.turns)
  end)

  it("uses map.path's walking rule for every step of a generated level", function()
    for _, name in ipairs(map.ALGORITHMS) do
      local game = Game.new { seed = 7, algorithm = name }
      local m, checked = game.m, 0
      for y = 2, #m - 1, 3 do
        for x = 2, #m[1] - 1, 2 do
          if m[y][x] ~= "#" then
            local d = map.distances(m, { x = x, y = y }, Game.WALK)
            for dy = -1, 1 do
              for dx = -1, 1 do
                if dx ~= 0 or dy ~= 0 then
                  local expected = d[y + dy][x + dx] == 1
                  assert(Game.can_step(m, x, y, dx, dy) == expected,
                    fmt("%s: step (%d,%d) by (%d,%d)", name, x, y, dx, dy))
                  checked = checked + 1
                end
              end
            end
          end
        end
      end
      assert(checked > 100, name .. ": too few floor cells checked")
    end
  end)

  it("moves with arrows, vi keys and the numpad", function()
    local game = game_on(table.concat({
      "#####",
      "#...#",
      "#.@.#",
      "#..>#",
      "#####",
    }, "\n"))
    local keys = {
      left = { -1, 0 }, right = { 1, 0 }, up = { 0, -1 }, down = { 0, 1 },
      h = { -1, 0 }, l = { 1, 0 }, k = { 0, -1 }, j = { 0, 1 },
      y = { -1, -1 }, u = { 1, -1 }, b = { -1, 1 }, n = { 1, 1 },
      kp4 = { -1, 0 }, kp6 = { 1, 0 }, kp8 = { 0, -1 }, kp2 = { 0, 1 },
      kp7 = { -1, -1 }, kp9 = { 1, -1 }, kp1 = { -1, 1 }, kp3 = { 1, 1 },
    }
    for key, d in pairs(keys) do
      game.player = { x = 3, y = 3 }
      assert.are.equal("move", game:key(key))
      assert.are.same({ x = 3 + d[1], y = 3 + d[2] }, game.player, key)
    end
    assert.are.equal(20, game.turns)
    assert.are.equal("quit", game:key("escape"))
    assert.is_nil(game:key("f12"))
  end)

  it("counts $ and ! picked up, and takes them off the map", function()
    local game = game_on(table.concat({
      "#######",
      "#@$!$>#",
      "#######",
    }, "\n"))
    assert.are.same({ ["$"] = 2, ["!"] = 1 }, game.level_items)
    game:move(1, 0)
    assert.are.same({ 1, 0 }, { game.gold, game.potions })
    assert.are.equal(".", game.m[2][3])
    assert.are.equal("You pick up some gold.", game.message)
    game:move(1, 0)
    game:move(1, 0)
    assert.are.same({ 2, 1 }, { game.gold, game.potions })
    assert.are.same({ ["$"] = 0, ["!"] = 0 }, game:items_left())
    assert_checks(game)
    game:move(-1, 0) -- nothing to pick up twice
    assert.are.same({ 2, 1 }, { game.gold, game.potions })
    -- A count that does not match the map fails the check.
    game.gold = 3
    local ok, problems = game:check()
    assert.is_false(ok)
    assert.matches("gold", problems[1])
  end)

  it("descends only from >, to the next seed, keeping the counts", function()
    local game = Game.new { seed = 100 }
    assert.is_false(game:descend())
    assert.are.equal("There are no stairs here.", game.message)
    assert.are.equal(1, game.level)
    walk_to_stairs(game)
    local gold, potions, turns = game.gold, game.potions, game.turns
    assert.are.equal("descend", game:key("space"))
    assert.are.equal(2, game.level)
    assert.are.equal(101, game:level_seed())
    assert.are.same({ gold, potions, turns }, { game.gold, game.potions, game.turns })
    local m = map.generate { width = game.width, height = game.height, seed = 101 }
    assert.are.same({ x = m.player.x, y = m.player.y }, game.player)
    assert.are.equal(0, game.steps)
    assert_checks(game)
    -- ">" (text input) descends too, and Enter on the stairs.
    walk_to_stairs(game)
    game:key(">")
    assert.are.equal(3, game.level)
    walk_to_stairs(game)
    game:key("return")
    assert.are.equal(4, game.level)
    assert.are.equal(103, game:level_seed())
  end)

  it("remembers what it has seen; sees what map.fov sees", function()
    local game = Game.new { seed = 5 }
    local seen_before = {}
    game:auto_walk()
    for step = 1, 30 do
      local p = game.player
      local vis = map.fov(game.m, p.x, p.y, game.radius)
      for y = 1, game.height do
        for x = 1, game.width do
          local visible = vis[y][x] == true
          if visible then seen_before[y * 1000 + x] = true end
          if visible ~= game:is_visible(x, y) or (seen_before[y * 1000 + x] == true) ~= game:was_seen(x, y) then
            error(fmt("step %d: (%d,%d) visible %s (game: %s), seen %s (game: %s)", step, x, y,
              tostring(visible), tostring(game:is_visible(x, y)), tostring(seen_before[y * 1000 + x] == true),
              tostring(game:was_seen(x, y))))
          end
        end
      end
      if game:tick() ~= "step" then break end
    end
    assert(game:seen_count() > 0)
    -- A new level starts with nothing remembered but what is in view.
    local game2 = Game.new { seed = 5 }
    local visible = 0
    for y = 1, game2.height do
      for x = 1, game2.width do
        if game2:is_visible(x, y) then visible = visible + 1 end
      end
    end
    assert.are.equal(visible, game2:seen_count())
  end)

  it("shows the path to > and auto-walks it to > on two levels", function()
    local game = Game.new { seed = 3 }
    game:key("p")
    assert.is_true(game.show_path)
    local path = game.path
    assert.are.same({ x = game.player.x, y = game.player.y }, path[1])
    assert.are.same(game.stairs, path[#path])
    assert.are.same(map.path(game.m, game.player.x, game.player.y, game.stairs.x, game.stairs.y,
      { diagonal = true }), path)
    for level = 1, 2 do
      assert.are.equal(level, game.level)
      walk_to_stairs(game)
      assert.are.same({ game.stairs }, game.path, "the path shrinks as the player walks")
      game:descend()
    end
    assert.are.equal(3, game.level)
    game:key("p")
    assert.is_nil(game.path)
  end)

  it("stops auto-walking on any key", function()
    local game = Game.new { seed = 3 }
    game:key("a")
    assert.is_true(game.auto)
    assert.are.equal("step", game:tick())
    game:key("a")
    assert.is_false(game.auto)
    assert.are.equal("Stopped.", game.message)
    assert.are.equal("idle", game:tick())
    game:key("return")
    game:key("h")
    assert.is_false(game.auto)
  end)

  it("cycles the algorithms with Tab on the same seed, putting back what was picked up", function()
    local game = Game.new { seed = 236 }
    walk_to_stairs(game)
    local gold, potions = game.gold, game.potions
    assert(gold + potions > 0, "seed 236's first walk picks something up")
    local names = {}
    for i = 1, #map.ALGORITHMS do
      assert.are.equal("next_algorithm", game:key("tab"))
      names[i] = game.algorithm
      assert.are.equal(236, game:level_seed())
      assert.are.same({ 0, 0 }, { game.gold, game.potions })
      assert_checks(game)
    end
    local expected = {}
    for i = 1, #map.ALGORITHMS do expected[i] = map.ALGORITHMS[i % #map.ALGORITHMS + 1] end
    assert.are.same(expected, names)
    assert.are.equal("rooms", game.algorithm)
    game:key("tab", true)
    assert.are.equal(map.ALGORITHMS[#map.ALGORITHMS], game.algorithm)
  end)

  it("auto-walks to > on two levels with every algorithm", function()
    for _, name in ipairs(map.ALGORITHMS) do
      local game = Game.new { seed = 11, algorithm = name }
      for level = 1, 2 do
        assert.are.equal(level, game.level)
        walk_to_stairs(game)
        assert.is_true(game:descend(), name)
        assert.are.equal(name, game.algorithm)
      end
    end
  end)

  it("starts over with a new seed on r", function()
    local game = Game.new { seed = 1, new_seed = function() return 777 end }
    walk_to_stairs(game)
    game:descend()
    game:key("r")
    assert.are.same({ 1, 777, 0, 0, 0 }, { game.level, game.seed, game.gold, game.potions, game.turns })
  end)

  it("explores with x, one map.explore step a tick, until all it can reach is seen", function()
    for _, name in ipairs({ "rooms", "cave", "maze" }) do
      local game = Game.new { seed = 9, algorithm = name }
      assert.are.equal("explore", game:key("x"))
      assert.are.equal("explore", game.auto)
      local status
      local ticks = 0
      repeat
        local before = game:seen_count()
        status = game:tick()
        ticks = ticks + 1
        assert_checks(game)
        assert(game:seen_count() >= before, "remembered cells only grow")
      until status ~= "step" or ticks > 5000
      assert.are.equal("explored", status)
      assert.is_false(game.auto)
      local d = map.distances(game.m, game.player, Game.WALK)
      for y = 1, #d do
        for x = 1, #d[y] do
          if d[y][x] then assert(game:was_seen(x, y), fmt("%s: (%d,%d) reachable, never seen", name, x, y)) end
        end
      end
    end
    -- Any key stops it.
    local game = Game.new { seed = 9 }
    game:key("x")
    game:key("x")
    assert.is_false(game.auto)
    assert.are.equal("Stopped.", game.message)
  end)

  it("passes the scripted run (love examples/love --script) headless", function()
    local game = Game.new { seed = 236 }
    local script = Script.new(game)
    local result
    for _ = 1, 10000 do
      result = script:update()
      if result then break end
    end
    assert(result, "the script ends")
    assert(result.ok, result.line)
    assert.matches("^ok levels=3 ", result.line)
    assert.matches(" seeds=236,237,238 ", result.line)
    assert.are.equal(3, game.level)
    assert(game.gold > 0 and game.potions > 0, result.line)
    assert.are.equal(Script.LEFT_SHOWN, #game.path - 1)
  end)

  it("fails the scripted run when the state is wrong", function()
    local game = Game.new { seed = 236 }
    local script = Script.new(game)
    repeat script:update() until script.phase == "walk"
    game.potions = game.potions + 1
    local result
    for _ = 1, 100 do
      result = script:update()
      if result then break end
    end
    assert(result and not result.ok)
    assert.matches("potions", result.line)
  end)
end)
