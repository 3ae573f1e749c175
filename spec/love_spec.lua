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

-- No monsters on the game's level: off the level, out of the turns.
local function no_monsters(game)
  for _, monster in ipairs(game.level.monsters) do
    game.level.lvl:vacate(monster.x, monster.y)
    game.schedule:remove(monster)
  end
  game.level.monsters = {}
end

-- A game on a hand-made map (its g and o become monsters).
local function game_on(rows)
  local game = Game.new { seed = 1 }
  game:use_map(map.parse(table.concat(rows, "\n")))
  return game
end

-- The game's own check, and that the cells occupied on the level are the
-- monsters' and no others (game:check looks only at the actors' cells).
local function assert_checks(game)
  local ok, problems = game:check()
  assert(ok, problems and table.concat(problems, "; "))
  local occupied, monsters = Script.occupancy(game.level)
  assert.are.equal(monsters, occupied, "the cells occupied")
end

local function at(game)
  return { x = game.player.x, y = game.player.y }
end

describe("the LÖVE demo's game", function()
  it("starts on the surface, level 1 of the seed: an overworld, its things taken off the terrain, lit by day",
    function()
      local game = Game.new { seed = 42 }
      local level = game.level
      local lvl = level.lvl
      assert.are.same({ 1, "overworld", 42, 80, 50 }, { level.depth, level.algorithm, level.seed, lvl.width,
        lvl.height })
      assert.are.equal("overworld", Game.SURFACE)
      local m = map.generate { width = 80, height = 50, seed = 42, algorithm = "overworld",
        place = { { char = "g", count = 4, min = 8 }, { char = "o", count = 1, min = 14 } } }
      assert.are.same({ x = m.player.x, y = m.player.y }, at(game))
      assert.are.equal(#m.placed, #level.monsters)
      for _, item in ipairs(m.items) do assert.are.equal(item.kind, game:item_at(item.x, item.y)) end
      assert.are.same({ "#~^", "#~^+", "#+^" }, { lvl.blocked, level.blocked, level.opaque })
      assert.is_nil(game.light, "daylight: no torch")
      assert.are.equal(0, level.vaults)
      assert_checks(game)
    end)

  it("puts the dungeon below the surface: level 2 the first algorithm carved from rock, vaults, monsters hidden",
    function()
      local game = Game.new { seed = 42 }
      local level = game:generate(2, nil)
      local lvl = level.lvl
      assert.are.same(Game.DUNGEON[1], Game.algorithm_at(2))
      assert.are.same({ 2, "rooms", 43, 80, 50 }, { level.depth, level.algorithm, level.seed, lvl.width, lvl.height })
      game:enter(level, "start")
      local m = map.generate { width = 80, height = 50, seed = 43, doors = true, vaults = Game.VAULTS,
        place = { { char = "g", count = 5, min = 8, hidden = true },
          { char = "o", count = 2, min = 14, hidden = true } } }
      assert.are.same({ x = m.player.x, y = m.player.y }, at(game))
      assert.are.equal(#m.placed, #level.monsters)
      -- The placed cells are in row order, as level:things() gives them.
      table.sort(m.placed, function(a, b) return a.y * 100 + a.x < b.y * 100 + b.x end)
      for i, placed in ipairs(m.placed) do
        local monster = level.monsters[i]
        assert.are.same({ placed.char, placed.x, placed.y }, { monster.char, monster.x, monster.y })
        assert.are.equal(".", lvl:get(placed.x, placed.y))
        assert.is_true(lvl:occupied(placed.x, placed.y))
        assert.is_false(map.visible(m, m.player, placed), "placed hidden")
      end
      for _, item in ipairs(m.items) do
        assert.are.equal(item.kind, game:item_at(item.x, item.y))
        assert.are.equal(".", lvl:get(item.x, item.y))
      end
      assert.is_true(level.vaults >= 1)
      assert.are.equal(".", lvl:get(m.player.x, m.player.y))
      assert.is_false(lvl:occupied(m.player.x, m.player.y), "only monsters occupy cells")
      assert.is_true(game:was_seen(m.player.x, m.player.y), "the first look is remembered")
      assert_checks(game)
      -- Below the surface the player's torch lights what is in sight.
      local p = at(game)
      local torch = lvl:light({ { x = p.x, y = p.y, radius = Game.RADIUS, color = Game.TORCH } },
        { opaque = Game.OPAQUE, ambient = Game.DARK })
      assert.are.same(torch, game.light)
      assert.are.same({ 1, math.min(1, Game.DARK + Game.TORCH.g), Game.DARK + Game.TORCH.b },
        { game.light.r[p.y][p.x], game.light.g[p.y][p.x], game.light.b[p.y][p.x] })
    end)

  it("on the surface, water and mountains block the player and the monsters", function()
    local game = Game.new { seed = 42 }
    local level, p = game.level, at(game)
    local blocked = 0
    for dy = -1, 1 do
      for dx = -1, 1 do
        local c = level.lvl:get(p.x + dx, p.y + dy)
        if (c == "~" or c == "^") and not game:monster_at(p.x + dx, p.y + dy) then
          blocked = blocked + 1
          assert.is_false(game:turn("bump", dx, dy), c)
        end
      end
    end
    local water
    for y = 1, game.height do
      for x = 1, game.width do
        if not water and level.lvl:get(x, y) == "~" then water = { x = x, y = y } end
      end
    end
    assert.is_false(level.lvl:can_step(water.x + 1, water.y, -1, 0, level.walk))
    assert.is_false(level.lvl:can_step(water.x + 1, water.y, -1, 0, level.monster_walk))
    assert.are.same({ nil, ("goal (%d,%d) is blocked"):format(water.x, water.y) },
      { level.lvl:path(p, water, level.walk) })
    assert.is_true(blocked >= 0)
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
    assert.is_false(game:is_visible(4, 2))
    assert.is_true(game:turn("bump", 1, 0))
    assert.are.same({ x = 2, y = 2 }, at(game))
    assert.are.equal(Game.OPEN, game.level.lvl:get(3, 2))
    assert.is_true(game:is_visible(4, 2))
    assert.is_true(game:turn("bump", 1, 0))
    assert.are.same({ x = 3, y = 2 }, at(game))
    assert_checks(game)
  end)

  it("takes turns from map.scheduler: a goblin three for @'s two, an orc three for @'s four", function()
    local game = game_on { "##############", "#@..........o#", "#...........g#", "##############" }
    game.player.hp, game.player.max_hp = 1000, 1000
    local orc, goblin = game.level.monsters[1], game.level.monsters[2]
    assert.are.same({ "o", "g" }, { orc.char, goblin.char })
    local turns = { [orc] = 0, [goblin] = 0 }
    for _ = 1, 12 do
      game:turn("rest")
      for monster, n in pairs(game.acted) do turns[monster] = turns[monster] + n end
      assert_checks(game)
    end
    -- From @'s turn at time 1 to its turn at 13, ties going to @ (added
    -- first): a goblin at 1 + 2k/3 for k = 1..17, an orc at 1 + 4k/3 for k = 1..8.
    assert.are.same({ 17, 8 }, { turns[goblin], turns[orc] })
    assert.are.equal(13, game.schedule:time())
  end)

  it("fights with the game's source: a d20 of 6 or more lands the blow, its dice the damage", function()
    local game = game_on { "#######", "#@g...#", "#######" }
    game.player.hp, game.player.max_hp = 1000, 1000
    local goblin = game.level.monsters[1]
    goblin.hp = 100 -- not hurt: it fights on
    for _ = 1, 20 do
      -- What the turn draws, from a copy of the source: @'s blow, then each
      -- of the goblin's turns a blow at @.
      local roll = game.rng:clone()
      local goblin_hp, hp = goblin.hp, game.player.hp
      if roll:random(20) >= Game.TO_HIT then goblin_hp = goblin_hp - roll:dice(Game.HIT) end
      assert.is_true(game:turn("bump", 1, 0))
      for _ = 1, game.acted[goblin] do
        if roll:random(20) >= Game.TO_HIT then hp = hp - roll:dice(Game.KINDS.g.damage) end
      end
      if game.turns % Game.REGEN == 0 then hp = math.min(game.player.max_hp, hp + 1) end
      assert.are.same({ goblin_hp, hp }, { goblin.hp, game.player.hp })
      assert.are.equal(roll:state(), game.rng:state())
      assert_checks(game)
    end
    -- @ acts at 1, 2, ..., 20; the goblin at 1 + 2k/3 before 21 (the tie at
    -- 21 goes to @, added first): 29 times.
    assert.are.equal(20 + 29, game.fights, "20 blows of @, 29 of the goblin")
    goblin.hp = 1
    repeat game:turn("bump", 1, 0) until goblin.hp <= 0
    assert.are.same({}, game.level.monsters)
    assert.are.equal(1, game.kills)
    assert.are.equal(1, #game.schedule, "only @ is left in the turns")
    assert_checks(game)
  end)

  it("monsters wake on sight and chase, never sharing a cell; a hurt one flees, a cornered one fights", function()
    local game = game_on { "##########", "#@.....go#", "##########" }
    game.player.hp, game.player.max_hp = 1000, 1000
    local goblin, orc = game.level.monsters[1], game.level.monsters[2]
    assert.is_true(goblin.awake == false and orc.awake == false)
    for _ = 1, 6 do
      game:turn("rest")
      assert_checks(game)
    end
    assert.is_true(goblin.awake and orc.awake)
    assert.are.equal(3, goblin.x, "the goblin next to @")
    assert.is_true(orc.x > goblin.x, "the orc behind it")
    goblin.hp = 1
    local before = goblin.x
    game:turn("rest")
    assert.is_true(goblin.x >= before, "hurt, the goblin steps away or, cornered by the orc, fights")
    assert_checks(game)
    game = game_on { "######", "#>.@o#", "######" }
    game.player.hp, game.player.max_hp = 1000, 1000
    orc = game.level.monsters[1]
    orc.hp = 3
    for _ = 1, 8 do game:turn("rest") end
    assert.are.equal(5, orc.x, "cornered")
    assert.is_true(game.fights > 0 and game.player.hp < 1000, "it fights")
    assert_checks(game)
  end)

  it("logs what @ saw and did: the latest messages, the oldest dropped, kept by a save", function()
    local game = Game.new { seed = 3 }
    assert.are.same({ game.message }, game.log)
    for i = 1, Game.LOG + 2 do game:say("message " .. i) end
    assert.are.equal(Game.LOG, #game.log)
    assert.are.equal("message 3", game.log[1])
    assert.are.equal("message " .. (Game.LOG + 2), game.log[#game.log])
    game:say("You stop.", true)
    assert.are.equal("message " .. (Game.LOG + 2) .. " You stop.", game.message)
    assert.are.equal("You stop.", game.log[#game.log])
    assert.are.same(game.log, Game.load(game:save()).log)
  end)

  it("dies, and r starts a new run", function()
    local game = game_on { "#####", "#@o>#", "#####" }
    game.player.hp = 1
    for _ = 1, 100 do
      if game.dead then break end
      game:turn("rest")
    end
    assert.is_true(game.dead)
    assert.are.equal(0, game.player.hp)
    assert.is_false(game:turn("rest"))
    assert_checks(game)
    assert.are.equal("restart", game:key("r"))
    assert.is_false(game.dead)
    assert.are.same({ 2, Game.PLAYER_HP, 0 }, { game.seed, game.player.hp, game.turns })
  end)

  it("saves mid-game and loads back: the same levels, source and turns, then the same game", function()
    local game = Game.new { seed = 11 }
    local script = Script.new(game, { save_at = false })
    repeat script:update() until script.game.turns >= 120
    game = script.game
    local text = game:save()
    local loaded = Game.load(text)
    assert.are.equal(text, loaded:save())
    for depth, level in pairs(game.levels) do
      assert.are.equal(Game.fingerprint(level), Game.fingerprint(loaded.levels[depth]), "level " .. depth)
    end
    assert.are.equal(game.rng:state(), loaded.rng:state())
    assert.are.equal(game.schedule:state(), loaded.schedule:state())
    -- The same turns from here, by the same rules.
    for _ = 1, 100 do
      local route = game.level.lvl:explore(game.level.seen, game.player, Game.WALK)
      if game.dead or not route then break end
      local dx, dy = route[2].x - game.player.x, route[2].y - game.player.y
      game:turn("bump", dx, dy)
      loaded:turn("bump", dx, dy)
      assert.are.equal(game:save(), loaded:save())
    end
    assert.has_error(function() Game.load("return 5") end)
  end)

  it("saves with map.save: the scheduler's actors are the level's monsters and @, the rules made again", function()
    local game = Game.new { seed = 11 }
    local script = Script.new(game, { save_at = false })
    repeat script:update() until script.game.turns >= 60
    game = script.game
    game:travel(game.level.stairs.x, game.level.stairs.y)
    local text = game:save()
    local saved = map.load(text)
    assert.are.equal(Game.SAVE_VERSION, saved.version)
    assert.is_nil(saved.visible, "the visible field is made again by look()")
    assert.is_nil(saved.levels[1].walk, "a level's rules are made again")
    local loaded = Game.load(text)
    local mine = {}
    for _, monster in ipairs(loaded.level.monsters) do mine[monster] = true end
    mine[loaded.player] = true
    for _, actor in ipairs(loaded.schedule:actors()) do assert.is_true(mine[actor]) end
    assert.are.equal(#loaded.level.monsters + 1, #loaded.schedule:actors())
    for _, monster in ipairs(loaded.level.monsters) do assert.are.equal(Game.KINDS[monster.char], monster.kind) end
    assert.are.same({ game.auto, game.target, game.route }, { loaded.auto, loaded.target, loaded.route })
    assert.are.same(game.level.walk, loaded.level.walk)
    assert.are.same(game.visible:table(), loaded.visible:table())
    assert.are.same(game.light, loaded.light)
  end)

  it("refuses an older demo's save, a damaged one and another value, saying which", function()
    local game = Game.new { seed = 11 }
    local text = game:save()
    assert.has_error(function() Game.load('return {version = 1, seed = 11}') end,
      "an older demo's save (Lua source): this demo loads only its map.save saves; start a new game")
    local ok, err = pcall(Game.load, text:sub(1, -2))
    assert.is_false(ok)
    assert.matches("^not a save of this game: map%.load: ", err)
    assert.has_error(function() Game.load(map.save { version = 1 }) end, "not a save of this game")
    assert.has_error(function() Game.load("") end)
  end)

  it("auto-explores with map.explore and travels over seen cells with map.path", function()
    local game = Game.new { seed = 3, width = 60, height = 30 }
    local level = game.level
    no_monsters(game)
    local unseen
    for y = 1, game.height do
      for x = 1, game.width do
        if level.lvl:get(x, y) == "." and not game:was_seen(x, y) then unseen = unseen or { x = x, y = y } end
      end
    end
    assert.is_false(game:travel(unseen.x, unseen.y), "a cell not seen yet")
    assert.is_false(game:travel(1, 1), "a wall")
    while game:turn("explore_step") do assert_checks(game) end
    local seen = 0
    for _, row in pairs(level.seen:table()) do
      for _ in pairs(row) do seen = seen + 1 end
    end
    assert.is_nil(level.lvl:explore(level.seen, game.player, level.walk))
    assert.is_true(seen > 300)
    local s = level.stairs
    assert.is_true(game:travel(s.x, s.y))
    local route = level.lvl:path(game.player, s, { blocked = "#", diagonal = true, known = level.seen })
    local turns = game.turns
    local status
    repeat status = game:tick() until status ~= "step"
    assert.are.equal("arrived", status)
    assert.are.same(s, at(game))
    assert.are.equal(#route - 1, game.turns - turns, "no monsters and no doors on the way: one turn a step")
  end)

  it("keys: Tab switches the view, x starts and stops exploring, a move key moves", function()
    local game = Game.new { seed = 3, width = 60, height = 30 }
    no_monsters(game)
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
    no_monsters(game)
    while not (game.player.x == first.stairs.x and game.player.y == first.stairs.y) do
      local route = assert(first.lvl:path(game.player, first.stairs, first.walk))
      assert.is_true(game:turn("bump", route[2].x - game.player.x, route[2].y - game.player.y))
    end
    local left = Game.fingerprint(first)
    assert.is_true(game:turn("descend"))
    local second = game.level
    assert.are.same({ 2, "rooms" }, { second.depth, second.algorithm })
    assert.are.same(first.stairs, second.up)
    assert.are.same(first.stairs, at(game))
    assert.are.equal(Game.UP, second.lvl:get(second.up.x, second.up.y))
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
    -- The same game, turn for turn, on both interpreters (the timings apart),
    -- saved at turn 300 and played on from the save.
    assert.are.equal("ok turns=1195 levels=4 deepest=4 returns=2 fights=84 kills=19 deaths=0 hp=30 gold=3 "
      .. "views=glyphs,tiles size=80x50 seed=7 saved=300", result.line:match("^(.-) turn_mean_us="))
  end)

  it("is the same game without the save and load, and saves the same string on both interpreters", function()
    local script = Script.new(Game.new { seed = 7 }, { save_at = false })
    local saved
    local result
    repeat
      result = script:update()
      if not saved and script.game.turns >= Script.SAVE_AT then saved = script.game:save() end
    until result
    assert(result.ok, result.line)
    assert.are.equal("ok turns=1195 levels=4 deepest=4 returns=2 fights=84 kills=19 deaths=0 hp=30 gold=3 "
      .. "views=glyphs,tiles size=80x50 seed=7 saved=0", result.line:match("^(.-) turn_mean_us="))
    -- A checksum of the save at turn 300, exact in doubles (LuaJIT's numbers).
    -- The save is map.save's since issue 36 (before, Lua source of 20,037
    -- bytes, checksum 93776242; then 6,258 bytes, 884070765, before the
    -- monsters' occupant ids): the same game, the same turns, other bytes.
    local sum = 0
    for i = 1, #saved do sum = (sum * 31 + saved:byte(i)) % 1000000007 end
    assert.are.same({ 6280, 58016737 }, { #saved, sum })
  end)

  it("fails on a breach: a monster put on water, a level changed while away, a cell occupied by no one", function()
    local game = Game.new { seed = 7 }
    local script = Script.new(game)
    local monster = game.level.monsters[1]
    for y = 1, game.height do
      for x = 1, game.width do
        if game.level.lvl:get(x, y) == "~" then monster.x, monster.y = x, y end
      end
    end
    local result = script:update()
    assert.is_false(result.ok)
    assert.matches("stands on \"~\"", result.line)

    game = Game.new { seed = 7 }
    script = Script.new(game)
    repeat result = script:update() until result or script.game.level.depth == 3
    local above = script.game.levels[2].lvl
    for x = 1, above.width do
      if above:get(x, 1) == "#" then
        above:set(x, 1, "$")
        break
      end
    end
    repeat result = script:update() until result
    assert.is_false(result.ok)
    assert.matches("level 2 changed while away", result.line)

    -- A cell no one may stand on (the player's own is occupied and vacated
    -- while monsters flee): the first water of the surface.
    game = Game.new { seed = 7 }
    script = Script.new(game)
    local wet = false
    for y = 1, game.height do
      for x = 1, game.width do
        if not wet and game.level.lvl:get(x, y) == "~" then
          game.level.lvl:occupy(x, y)
          wet = true
        end
      end
    end
    repeat result = script:update() until result
    assert.is_false(result.ok)
    assert.matches("level 1: cells occupied ", result.line)
  end)
end)
