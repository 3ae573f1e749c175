-- The LÖVE demo's game (examples/love/game.lua) and its scripted game
-- (examples/love/script.lua), headless: both are plain Lua with no `love`
-- calls, so they run here on Lua 5.4 and LuaJIT like the other specs.
local map = require "map"

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

-- A game on a hand-made map (its g and o become monsters).
local function game_on(rows)
  local game = Game.new { seed = 1 }
  game:use_map(map.parse(table.concat(rows, "\n")))
  return game
end

local function assert_checks(game)
  local ok, problems = game:check()
  assert(ok, problems and table.concat(problems, "; "))
end

local function at(game)
  return { x = game.player.x, y = game.player.y }
end

describe("the LÖVE demo's game", function()
  it("starts on level 1 of the seed, its placed monsters taken off the map into actors", function()
    local game = Game.new { seed = 42 }
    local level = game.level
    assert.are.same({ 1, "rooms", 42, 80, 50 },
      { level.depth, level.algorithm, level.seed, #level.m[1], #level.m })
    local m = map.generate { width = 80, height = 50, seed = 42, doors = true, vaults = Game.VAULTS,
      place = { { char = "g", count = 4, min = 8, hidden = true },
        { char = "o", count = 1, min = 14, hidden = true } } }
    assert.are.same({ x = m.player.x, y = m.player.y }, at(game))
    assert.are.equal(#m.placed, #level.monsters)
    for i, placed in ipairs(m.placed) do
      local monster = level.monsters[i]
      assert.are.same({ placed.char, placed.x, placed.y }, { monster.char, monster.x, monster.y })
      assert.are.equal(".", level.m[placed.y][placed.x])
      assert.is_false(map.visible(m, m.player, placed), "placed hidden")
    end
    assert.is_true(level.vaults >= 1)
    assert.are.equal(".", level.m[m.player.y][m.player.x])
    assert_checks(game)
  end)

  it("walks by map's rule: walls block, diagonal steps do not cut corners", function()
    local game = game_on { "######", "#@..##", "#.#..#", "#...>#", "######" }
    assert.is_false(game:turn("bump", -1, 0))
    assert.is_false(game:turn("bump", 1, 1), "into a wall")
    assert.is_false(game:turn("bump", 2, 0), "two cells at once")
    assert.are.equal(0, game.turns)
    assert.is_true(game:turn("bump", 1, 0))
    assert.is_false(game:turn("bump", 1, 1), "cuts the corner at (3,3)")
    assert.are.same({ x = 3, y = 2 }, at(game))
    assert.are.equal(1, game.turns)
  end)

  it("opens a closed door when bumped; the open door lets @ and sight through", function()
    local game = game_on { "#######", "#@+..>#", "#######" }
    assert.is_nil(game.visible[2][4])
    assert.is_true(game:turn("bump", 1, 0))
    assert.are.same({ x = 2, y = 2 }, at(game))
    assert.are.equal(Game.OPEN, game.level.m[2][3])
    assert.is_true(game.visible[2][4])
    assert.is_true(game:turn("bump", 1, 0))
    assert.are.same({ x = 3, y = 2 }, at(game))
    assert_checks(game)
  end)

  it("bump attacks; monsters wake on sight, chase, hit, flee when hurt, and never share a cell", function()
    local game = game_on { "##########", "#@.....go#", "##########" }
    local goblin, orc = game.level.monsters[1], game.level.monsters[2]
    assert.is_true(goblin.awake == false and orc.awake == false)
    game:turn("rest")
    assert.is_true(goblin.awake and orc.awake)
    assert.are.same({ 7, 8 }, { goblin.x, orc.x }, "one step each, the orc behind the goblin")
    for _ = 1, 4 do
      game:turn("rest")
      assert_checks(game)
    end
    assert.are.same({ 3, 4 }, { goblin.x, orc.x })
    assert.are.equal(Game.PLAYER_HP, game.player.hp)
    game:turn("rest")
    game:turn("rest")
    assert.are.same({ 3, 4 }, { goblin.x, orc.x })
    assert.are.equal(Game.PLAYER_HP - 2 * Game.KINDS.g.damage, game.player.hp, "hit twice")
    game:turn("bump", 1, 0)
    assert.are.equal(Game.KINDS.g.hp - Game.HIT, goblin.hp)
    game:turn("bump", 1, 0)
    assert.are.equal(1, game.kills)
    assert.are.same({ orc }, game.level.monsters)
    orc.hp = 3
    local before = orc.x
    game:turn("rest")
    assert.is_true(orc.x > before, "hurt, the orc flees")
  end)

  it("dies, and r starts a new run", function()
    local game = game_on { "#####", "#@o>#", "#####" }
    game.player.hp = 2
    game:turn("rest")
    assert.is_true(game.dead)
    assert.are.equal(0, game.player.hp)
    assert.is_false(game:turn("rest"))
    assert_checks(game)
    assert.are.equal("restart", game:key("r"))
    assert.is_false(game.dead)
    assert.are.same({ 2, Game.PLAYER_HP, 0 }, { game.seed, game.player.hp, game.turns })
  end)

  it("auto-explores with map.explore and travels over seen cells with map.path", function()
    local game = Game.new { seed = 3, width = 60, height = 30 }
    game.level.monsters = {}
    local m = game.level.m
    local unseen
    for y = 1, #m do
      for x = 1, #m[1] do
        if m[y][x] == "." and not game:was_seen(x, y) then unseen = unseen or { x = x, y = y } end
      end
    end
    assert.is_false(game:travel(unseen.x, unseen.y), "a cell not seen yet")
    assert.is_false(game:travel(1, 1), "a wall")
    local seen = 0
    while game:turn("explore_step") do assert_checks(game) end
    for y = 1, #game.level.seen do
      for _ in pairs(game.level.seen[y]) do seen = seen + 1 end
    end
    assert.is_nil(map.explore(game.level.m, game.level.seen, game.player, { blocked = "#", diagonal = true }))
    assert.is_true(seen > 300)
    local s = game.level.stairs
    assert.is_true(game:travel(s.x, s.y))
    local route = map.path(game.level.m, game.player, s, { blocked = "#", diagonal = true, known = game.level.seen })
    local turns = game.turns
    local status
    repeat status = game:tick() until status ~= "step"
    assert.are.equal("arrived", status)
    assert.are.same(s, at(game))
    assert.are.equal(#route - 1, game.turns - turns, "no monsters and no doors on the way: one turn a step")
  end)

  it("keys: Tab switches the view, x starts and stops exploring, a move key moves", function()
    local game = Game.new { seed = 3, width = 60, height = 30 }
    game.level.monsters = {}
    assert.are.equal("glyphs", game.view)
    game:key("tab")
    assert.are.equal("tiles", game.view)
    game:key("x")
    assert.are.equal("explore", game.auto)
    assert.are.equal("step", game:tick())
    assert.are.equal(1, game.turns)
    game:key("x")
    assert.is_nil(game.auto)
    assert.are.equal("idle", game:tick())
    local before = at(game)
    for _, key in ipairs { "h", "l", "k", "j", "y", "u", "b", "n" } do
      game:key(key)
      if game.player.x ~= before.x or game.player.y ~= before.y then break end
    end
    assert.are_not.same(before, at(game))
    assert.are.equal("quit", game:key("escape"))
  end)

  it("stacks levels: > makes the next level at the same cell, < returns to the level as it was left", function()
    local game = Game.new { seed = 5, width = 60, height = 30 }
    local first = game.level
    first.monsters = {}
    while not (game.player.x == first.stairs.x and game.player.y == first.stairs.y) do
      local route = assert(map.path(first.m, game.player, first.stairs, { blocked = "#", diagonal = true }))
      assert.is_true(game:turn("bump", route[2].x - game.player.x, route[2].y - game.player.y))
    end
    local left = Game.fingerprint(first)
    assert.is_true(game:turn("descend"))
    local second = game.level
    assert.are.same({ 2, "cave" }, { second.depth, second.algorithm })
    assert.are.same(first.stairs, second.up)
    assert.are.same(first.stairs, at(game))
    assert.are.equal(Game.UP, second.m[second.up.y][second.up.x])
    assert.is_true(game:turn("ascend"))
    assert.are.equal(first, game.level)
    assert.are.equal(left, Game.fingerprint(first))
    assert.is_true(game:turn("descend"))
    assert.are.equal(second, game.level)
  end)
end)

describe("the LÖVE demo's scripted game", function()
  it("plays 500 turns and more over 4 levels, back up once, fighting, both views, every invariant held", function()
    local game = Game.new { seed = 7 }
    local script = Script.new(game)
    local result
    repeat result = script:update() until result
    assert(result.ok, result.line)
    local turns, levels, returns, fights = result.line:match("turns=(%d+) levels=(%d+) deepest=%d+ returns=(%d+) "
      .. "fights=(%d+)")
    assert.is_true(tonumber(turns) >= 500 and tonumber(levels) >= 4, result.line)
    assert.is_true(tonumber(returns) >= 2 and tonumber(fights) >= 1, result.line)
    assert.matches(" views=glyphs,tiles ", result.line)
    -- The same game, turn for turn, on both interpreters (the timings apart).
    assert.are.equal("ok turns=850 levels=4 deepest=4 returns=2 fights=58 kills=12 deaths=0 hp=28 gold=2 "
      .. "views=glyphs,tiles size=80x50 seed=7", result.line:match("^(.-) turn_mean_us="))
  end)

  it("fails on a breach: a monster put on a wall, or a level changed while away", function()
    local game = Game.new { seed = 7 }
    local script = Script.new(game)
    local monster = game.level.monsters[1]
    for y = 1, #game.level.m do
      for x = 1, #game.level.m[1] do
        if game.level.m[y][x] == "#" then monster.x, monster.y = x, y end
      end
    end
    local result = script:update()
    assert.is_false(result.ok)
    assert.matches("stands on \"#\"", result.line)

    game = Game.new { seed = 7 }
    script = Script.new(game)
    repeat result = script:update() until result or game.level.depth == 3
    local above = game.levels[2].m
    for x = 1, #above[1] do
      if above[1][x] == "#" then above[1][x] = "$" break end
    end
    repeat result = script:update() until result
    assert.is_false(result.ok)
    assert.matches("level 2 changed while away", result.line)
  end)
end)
