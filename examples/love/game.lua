-- The demo's game: levels, actors and turns as plain Lua with no `love`
-- calls, so that busted runs it headless on Lua 5.4 and LuaJIT
-- (spec/love_spec.lua). main.lua feeds it keys, clicks and ticks; view.lua
-- draws it; script.lua plays it. Every walking, stepping, sighting and
-- exploring rule here is one of map's, and each depth is a native level
-- (map.level) that holds its terrain, the cells its monsters occupy and,
-- in a memory field, what the player has seen: the game keeps only its
-- actors, the items lying about, and which characters block. Level 1 is the
-- surface, an overworld (water and mountains block, as its level's
-- `blocked` says), lit by day; below it the dungeon, lit by the player's
-- torch (level:light). Its combat draws from one map.rng, its turns come
-- from one map.scheduler (monsters of different speeds), and Game:save()
-- writes it all with map.save to a string that M.load() plays on from, the
-- same game on either interpreter.
local map = require "map"

local M = {}

M.DOOR, M.OPEN = "+", "'"   -- a closed door, and the open door it becomes when bumped
M.UP, M.DOWN = "<", ">"
M.BLOCKED = "#+"            -- no actor stands on a wall or a closed door
M.OPAQUE = "#+"             -- sight stops at walls and closed doors; an open door lets it through
M.RADIUS = 8                -- of the player's field of view, and of a monster's sight of the player
M.LOG = 5                   -- messages the log keeps (the latest last)
M.CHASE = 30                -- steps: monsters farther than this from the player wait
M.ALGORITHMS = map.ALGORITHMS -- every generator the module has: the surface's, then the dungeon's round and round
-- A monster's hit points, its blow (dice), and its speed: a goblin acts
-- three times for @'s two, an orc three times for @'s four.
M.KINDS = {
  g = { name = "goblin", hp = 5, damage = "1d2", speed = 1.5 },
  o = { name = "orc", hp = 10, damage = "1d4", speed = 0.75 },
}
-- The surface: the first algorithm not carved from rock (map.describe's
-- `blocked` more than "#": the overworld), level 1; the dungeon below it:
-- the algorithms carved from rock, level n made by the (n - 1)th, round and
-- round (by the nth when there is no surface).
M.DUNGEON = {}
for _, algorithm in ipairs(M.ALGORITHMS) do
  if map.describe(algorithm).blocked == "#" then
    M.DUNGEON[#M.DUNGEON + 1] = algorithm
  elseif not M.SURFACE then
    M.SURFACE = algorithm
  end
end
M.SURFACE_OPAQUE = "#+^"    -- on the surface, mountains block sight too
M.TORCH = { r = 1.0, g = 0.82, b = 0.55 } -- the player's torch below the surface: radius M.RADIUS
M.DARK = 0.08               -- the dungeon's ambient light, the torch's base
M.PLAYER_HP = 30
M.PLAYER_SPEED = 1
M.HIT = "1d4+1"             -- the player's blow
M.TO_HIT = 6                -- a blow lands when a d20 rolls this or more (3 in 4)
M.POTION = 8                -- hit points a potion gives back (drunk when picked up)
M.REGEN = 10                -- turns per hit point regained

-- A shrine with a potion, four doors, and a treasury behind one door: hand-drawn
-- pieces (map's vaults) that every level tries to fit.
M.VAULTS = {
  { rows = { "###+###", "#.....#", "+..!..+", "#.....#", "###+###" }, rotate = true, required = false },
  { rows = { "#######", "#$.!.$#", "#.....#", "###+###" }, rotate = true, required = false },
}

-- Keys (LÖVE's names) to moves; "<" and ">" come from text input.
local MOVES = {
  left = { -1, 0 }, right = { 1, 0 }, up = { 0, -1 }, down = { 0, 1 },
  h = { -1, 0 }, l = { 1, 0 }, k = { 0, -1 }, j = { 0, 1 },
  y = { -1, -1 }, u = { 1, -1 }, b = { -1, 1 }, n = { 1, 1 },
  kp4 = { -1, 0 }, kp6 = { 1, 0 }, kp8 = { 0, -1 }, kp2 = { 0, 1 },
  kp7 = { -1, -1 }, kp9 = { 1, -1 }, kp1 = { -1, 1 }, kp3 = { 1, 1 },
}
local COMMANDS = {
  x = "explore", [">"] = "descend", ["<"] = "ascend", ["."] = "rest", kp5 = "rest",
  space = "rest", tab = "view", t = "view", r = "restart", escape = "quit", q = "quit",
}

-- The player's walk in the dungeon (a step, explore, travel): map's
-- 8-neighbour rule without corner cutting, walls blocking but not closed
-- doors (bumping one opens it instead of stepping in) nor monsters (bumping
-- one attacks it). Each level keeps its own rules (`rules` below): the
-- monsters' walk adds closed doors and the cells other monsters occupy,
-- and on the surface water and mountains block too.
M.WALK = { blocked = "#", diagonal = true }
-- What level:things() gives that is a monster, an item or the player: the
-- monsters' characters too, so that a vault's creature (or a hand-made
-- map's) is taken off the terrain like a placed one.
local THINGS = "@$!"
for char in pairs(M.KINDS) do THINGS = THINGS .. char end

local Game = {}
Game.__index = Game

local function has_option(algorithm, name)
  for _, option in ipairs(map.describe(algorithm).options) do
    if option.name == name then return true end
  end
  return false
end

local function same_cell(a, b)
  return a.x == b.x and a.y == b.y
end

-- A new game. Options: width, height (each level's size), seed (the run's;
-- level n uses seed + n - 1), new_seed (a function returning the seed of the
-- next run, for a restart; default: the seed after this one), clock (a
-- function returning seconds, to time each turn; default os.clock).
function M.new(options)
  options = options or {}
  local self = setmetatable({}, Game)
  self.size = { options.width or 80, options.height or 50 }
  self.clock = options.clock or os.clock
  self.new_seed = options.new_seed or function() return self.seed + 1 end
  self.view = "glyphs"
  self:restart(options.seed or 42)
  return self
end

-- A new run from this seed: level 1, full hit points, nothing carried; the
-- combat's source seeded with it, and @ the first in the turns.
function Game:restart(seed)
  self.seed = seed
  self.width, self.height = self.size[1], self.size[2]
  self.levels = {}
  self.player = { x = 0, y = 0, hp = M.PLAYER_HP, max_hp = M.PLAYER_HP }
  self.gold, self.turns, self.kills, self.fights = 0, 0, 0, 0
  self.dead = false
  self.auto, self.route, self.target = nil, nil, nil
  self.rng = map.rng(seed)
  self.schedule = map.scheduler()
  self.schedule:add(self.player, M.PLAYER_SPEED)
  self.level = nil
  self.log = {}
  self:enter(self:generate(1, nil), "start")
  self:others()
  self:say(string.format("Level 1: %s, seed %d. x explores, > descends.", self.level.algorithm, seed))
end

-- The place list of a level: more monsters deeper, placed away from the
-- player and, in the dungeon, out of its sight (on the open surface little
-- is hidden from sight that only walls stop).
local function placements(depth, surface)
  local hidden = not surface or nil
  return {
    { char = "g", count = 3 + depth, min = 8, hidden = hidden },
    { char = "o", count = math.min(depth, 4), min = 14, hidden = hidden },
  }
end

-- The generator of level `depth`: the surface's, then the dungeon's.
function M.algorithm_at(depth)
  if M.SURFACE and depth == 1 then return M.SURFACE end
  local n = M.SURFACE and depth - 1 or depth
  return M.DUNGEON[(n - 1) % #M.DUNGEON + 1]
end

-- A level's rules, from what blocks walking on it (lvl.blocked, or "#"):
-- the player's walk (a step, explore, travel), where closed doors and
-- monsters do not block (bumping one opens or attacks it); the monsters'
-- walk, where closed doors and the cells other monsters occupy do; the
-- shared distance and safety fields, bounded so that a turn's search does
-- not grow with the level; sight; and its light (nil: daylight).
local function rules(level, surface)
  local blocked = level.lvl.blocked or "#"
  level.blocked = blocked .. M.DOOR
  level.walk = { blocked = blocked, diagonal = true }
  level.monster_walk = { blocked = level.blocked, diagonal = true, occupied = true }
  level.chase = { blocked = level.blocked, diagonal = true, max = M.CHASE }
  level.opaque = surface and M.SURFACE_OPAQUE or M.OPAQUE
  level.sight = { opaque = level.opaque, radius = M.RADIUS }
  level.lit = not surface
end

-- Each monster of the level by its id, the id its cell holds
-- (lvl:occupant): made again from the monsters when a save is loaded.
local function index_monsters(level)
  level.by_id = {}
  for _, monster in ipairs(level.monsters) do level.by_id[monster.id] = monster end
end

-- A level of the native level lvl, whose things (level:things(): the
-- player's start, items, monsters) are off its terrain: each monster
-- becomes an actor occupying its cell under its id (1, 2, ... in the
-- things' order), each item lies in `items` by cell.
local function new_level(lvl, depth, surface)
  local level = { depth = depth, lvl = lvl, seen = lvl:field(), monsters = {}, items = {}, surface = surface == true }
  rules(level, surface)
  local width = lvl.width
  for _, thing in ipairs(lvl:things()) do
    local kind = M.KINDS[thing.char]
    if kind then
      thing.kind, thing.hp, thing.awake = kind, kind.hp, false
      level.monsters[#level.monsters + 1] = thing
      thing.id = #level.monsters
      lvl:occupy(thing.x, thing.y, thing.id)
    elseif thing.char == "@" then
      level.start = { x = thing.x, y = thing.y }
    else
      level.items[(thing.y - 1) * width + thing.x] = thing.char
    end
  end
  index_monsters(level)
  return level
end

-- Level `depth` of this run, arriving at `arrive` (the stairs of the level
-- above, or nil on level 1).
function Game:generate(depth, arrive)
  local algorithm = M.algorithm_at(depth)
  -- Off rock (the surface), vaults and arrive are refused: none there.
  local surface = map.describe(algorithm).blocked ~= "#"
  local options = {
    width = self.width, height = self.height, seed = self.seed + depth - 1, algorithm = algorithm,
    vaults = not surface and M.VAULTS or nil, place = placements(depth, surface), arrive = arrive, things = THINGS,
  }
  if has_option(algorithm, "doors") then options.doors = true end
  local ok, lvl = pcall(map.level, options)
  if not ok then
    -- A level too small or too open for those monsters (map says how many
    -- cells qualified): two goblins anywhere instead.
    options.place = { { char = "g", count = 2 } }
    lvl = map.level(options)
  end
  local level = new_level(lvl, depth, surface)
  -- Each property read builds a new table: read once.
  level.stairs, level.up, level.vaults = lvl.stairs, lvl.up, #lvl.vaults
  level.algorithm, level.seed = algorithm, options.seed
  self.levels[depth] = level
  return level
end

-- Plays on map m (a hand-made one, from map.parse, with one "@" and one
-- ">") as level 1: its monster glyphs (M.KINDS) become monsters.
function Game:use_map(m)
  self.levels = {}
  self.width, self.height = #m[1], #m
  local level = new_level(map.level(m, { things = THINGS }), 1)
  level.algorithm, level.seed, level.stairs = "hand-made", self.seed, m.stairs
  self.levels[1] = level
  self:enter(level, "start")
end

-- Puts the player on `level` at `at` ("start": the level's start, "up": its
-- up staircase, "down": its stairs down). The monsters of the level left
-- leave the turns; those of this one join them, each first acting
-- 1/speed after now.
function Game:enter(level, at)
  local left = self.level
  if left and left ~= level then
    for _, monster in ipairs(left.monsters) do self.schedule:remove(monster) end
  end
  if left ~= level then
    for _, monster in ipairs(level.monsters) do self.schedule:add(monster, monster.kind.speed) end
  end
  self.level = level
  local cell = at == "down" and level.stairs or at == "up" and level.up or level.start
  self.player.x, self.player.y = cell.x, cell.y
  self.auto, self.route, self.target = nil, nil, nil
  self:look()
end

-- The field of view from the player, kept for this turn (drawing, who is
-- in sight), and marked into the level's memory: one scan (fov's `into`
-- with `field = true`). Below the surface, the light of the
-- player's torch too (level:light: its colour's three channels), which the
-- tile view shades the cells in sight by; nil by day.
function Game:look()
  local p, level = self.player, self.level
  self.visible = level.lvl:fov(p.x, p.y, M.RADIUS, { opaque = level.opaque, into = level.seen, field = true })
  self.light = level.lit and level.lvl:light({ { x = p.x, y = p.y, radius = M.RADIUS, color = M.TORCH } },
    { opaque = level.opaque, ambient = M.DARK }) or nil
end

-- A message: on screen (self.message, or after it with `append`) and the
-- last of the log, which keeps the M.LOG latest (what @ saw and did).
function Game:say(text, append)
  self.message = append and self.message and self.message .. " " .. text or text
  local log = self.log
  log[#log + 1] = text
  if #log > M.LOG then table.remove(log, 1) end
end

function Game:on_map(x, y)
  return x >= 1 and y >= 1 and x <= self.width and y <= self.height
end

function Game:is_visible(x, y)
  return self:on_map(x, y) and self.visible:get(x, y) == true
end

function Game:was_seen(x, y)
  return self:on_map(x, y) and self.level.seen:get(x, y) == true
end

-- The item lying at (x, y), if any.
function Game:item_at(x, y)
  return self.level.items[(y - 1) * self.width + x]
end

-- The monster standing at (x, y), if any: the id its cell holds. (The
-- player occupies no cell but while monsters step, and then without an id.)
function Game:monster_at(x, y)
  local id = self.level.lvl:occupant(x, y)
  return id and self.level.by_id[id]
end

local function is_monster(actor)
  return actor.kind ~= nil
end

-- `attacker` strikes `target` (the player or a monster): a d20 of TO_HIT
-- or more lands the blow, its dice the damage, both from the game's source.
function Game:attack(attacker, target)
  self.fights = self.fights + 1
  local landed = self.rng:random(20) >= M.TO_HIT
  if not landed then
    if is_monster(target) then
      target.awake = true
      self:say(string.format("You miss the %s.", target.kind.name))
    else
      self:say(string.format("The %s misses you.", attacker.kind.name))
    end
    return
  end
  local damage = self.rng:dice(is_monster(attacker) and attacker.kind.damage or M.HIT)
  target.hp = target.hp - damage
  if not is_monster(target) then
    self:say(string.format("The %s hits you (%d).", attacker.kind.name, damage))
    if target.hp <= 0 then
      target.hp = 0
      self.dead = true
      self.auto = nil
      self:say(string.format("The %s kills you on level %d, turn %d. r starts again.",
        attacker.kind.name, self.level.depth, self.turns))
    end
    return
  end
  target.awake = true
  if target.hp > 0 then
    self:say(string.format("You hit the %s (%d).", target.kind.name, damage))
    return
  end
  for i, monster in ipairs(self.level.monsters) do
    if monster == target then
      table.remove(self.level.monsters, i)
      break
    end
  end
  self.level.lvl:vacate(target.x, target.y)
  self.level.by_id[target.id] = nil
  self.schedule:remove(target)
  self.kills = self.kills + 1
  self:say(string.format("You kill the %s.", target.kind.name))
end

function Game:pick_up()
  local p = self.player
  local c = self:item_at(p.x, p.y)
  if c == "$" then
    self.gold = self.gold + 1
    self:say("You pick up some gold.")
  elseif c == "!" then
    p.hp = math.min(p.max_hp, p.hp + M.POTION)
    self:say("You drink a potion.")
  else
    return
  end
  self.level.items[(p.y - 1) * self.width + p.x] = nil
end

-- The player's move or bump towards the neighbour (dx, dy): attacks a
-- monster there, opens a closed door, or steps when the step rule
-- (level:can_step) allows it. Returns true when it took the turn.
function Game:bump(dx, dy)
  local p, lvl = self.player, self.level.lvl
  local x, y = p.x + dx, p.y + dy
  if (dx == 0 and dy == 0) or math.abs(dx) > 1 or math.abs(dy) > 1 or not self:on_map(x, y) then
    return false
  end
  local monster = self:monster_at(x, y)
  if monster then
    if not lvl:can_step(p.x, p.y, dx, dy, self.level.walk) then return false end
    self:attack(p, monster)
    return true
  end
  if lvl:get(x, y) == M.DOOR then
    lvl:set(x, y, M.OPEN)
    self:say("You open the door.")
    return true
  end
  if not lvl:can_step(p.x, p.y, dx, dy, self.level.walk) then
    self:say("Blocked.")
    return false
  end
  p.x, p.y = x, y
  self.message = nil
  self:pick_up()
  local c = lvl:get(x, y)
  if c == M.DOWN then self:say("Stairs down: > descends.") end
  if c == M.UP then self:say("Stairs up: < climbs.") end
  return true
end

-- One step of a route (a path from the player, start included).
function Game:follow(route)
  local p = self.player
  self.route = route
  return self:bump(route[2].x - p.x, route[2].y - p.y)
end

-- A step of auto-exploring: towards the nearest edge of what the player has
-- seen (level:explore over the level's memory).
function Game:explore_step()
  local route = self.level.lvl:explore(self.level.seen, self.player, self.level.walk)
  if not route or #route < 2 then
    self.auto, self.route = nil, nil
    self:say("Explored: nothing more to see from here.")
    return false, "explored"
  end
  return self:follow(route)
end

-- A step of travelling to self.target over the cells the player has seen
-- (level:path with known = the memory).
function Game:travel_step()
  local p, t = self.player, self.target
  if not t or same_cell(p, t) then
    self.auto, self.route, self.target = nil, nil, nil
    return false, "arrived"
  end
  local walk = self.level.walk
  local route, err = self.level.lvl:path(p, t, { blocked = walk.blocked, diagonal = true, known = self.level.seen })
  if not route then
    self.auto, self.route, self.target = nil, nil, nil
    self:say("No known way there: " .. err)
    return false, "stuck"
  end
  return self:follow(route)
end

-- Starts travelling to the remembered cell (x, y). Returns false when it is
-- not a cell the player has seen.
function Game:travel(x, y)
  if self.dead or not self:was_seen(x, y) or self.level.walk.blocked:find(self.level.lvl:get(x, y), 1, true) then
    return false
  end
  self.target = { x = x, y = y }
  self.auto = "travel"
  self:say("Travelling...")
  return true
end

function Game:rest()
  self.message = nil
  return true
end

-- Takes the stairs down: to the level below as it was left, or a new one
-- whose "<" is where this ">" is.
function Game:descend()
  local p, level = self.player, self.level
  if not same_cell(p, level.stairs) then
    self:say("There are no stairs down here.")
    return false
  end
  local below = self.levels[level.depth + 1]
  if below then
    self:enter(below, "up")
  else
    self:enter(self:generate(level.depth + 1, { x = p.x, y = p.y }), "start")
  end
  self:say(string.format("Level %d: %s.", self.level.depth, self.level.algorithm))
  return true, "level"
end

-- Takes the stairs up: to the level above as it was left, on its ">".
function Game:ascend()
  local p, level = self.player, self.level
  if not (level.up and same_cell(p, level.up)) then
    self:say("There are no stairs up here.")
    return false
  end
  self:enter(self.levels[level.depth - 1], "down")
  self:say(string.format("Back on level %d.", self.level.depth))
  return true, "level"
end

-- A monster's turn, when the scheduler gives it: asleep, it wakes if it
-- sees the player; awake and hurt (a third of its hit points or fewer), it
-- steps down the safety field, the player's cell taken; awake otherwise,
-- or cornered, it attacks when its step down the distances to the player
-- would be onto the player, else steps down them, never onto another
-- monster. `fields` holds the turn's distance and safety fields, made when
-- first needed (the player does not move until its next turn).
function Game:monster_turn(monster, fields)
  local p, level = self.player, self.level
  local lvl = level.lvl
  if not monster.awake then monster.awake = lvl:visible(monster, p, level.sight) end
  if not monster.awake then return end
  local function move_to(x, y)
    lvl:vacate(monster.x, monster.y)
    lvl:occupy(x, y, monster.id)
    monster.x, monster.y = x, y
  end
  if monster.hp * 3 <= monster.kind.hp then
    fields.away = fields.away or lvl:flee(p, level.chase)
    lvl:occupy(p.x, p.y)
    local x, y = lvl:step(fields.away, monster, level.monster_walk)
    lvl:vacate(p.x, p.y)
    if x then return move_to(x, y) end
  end
  local dx, dy = p.x - monster.x, p.y - monster.y
  -- Next to the player, the step down the distances is onto the player
  -- exactly when the step rule allows it (the other monsters closing corners).
  if math.abs(dx) <= 1 and math.abs(dy) <= 1 and lvl:can_step(monster.x, monster.y, dx, dy, level.monster_walk) then
    return self:attack(monster, p)
  end
  fields.chase = fields.chase or lvl:distances(p, level.chase)
  local x, y = lvl:step(fields.chase, monster, level.monster_walk)
  if x then move_to(x, y) end
end

-- The turns after the player's, until the scheduler gives the player's
-- next: each monster's whose time comes first, in the scheduler's order.
-- self.acted counts each monster's turns among them.
function Game:others()
  local p, fields, acted = self.player, {}, {}
  self.acted = acted
  while not self.dead do
    local actor = self.schedule:next()
    if actor == p or actor == nil then return end
    acted[actor] = (acted[actor] or 0) + 1
    self:monster_turn(actor, fields)
  end
end

-- One turn: the player's action (a method name and its arguments), then,
-- unless it took the stairs (which take no time), the monsters' turns
-- until the player's next; then what the player sees.
-- Returns true when the action took the turn, false and a reason when not
-- (nothing else then moves). self.turn_time is the turn's time in seconds.
function Game:turn(action, ...)
  if self.dead then return false, "dead" end
  local start = self.clock()
  self.acted = {}
  local took, what = self[action](self, ...)
  if took then
    self.turns = self.turns + 1
    if what ~= "level" then
      self:others()
      local p = self.player
      if not self.dead and self.turns % M.REGEN == 0 then p.hp = math.min(p.max_hp, p.hp + 1) end
      self:look()
    end
  end
  self.turn_time = self.clock() - start
  self.turn_kind = what == "level" and "level" or "turn"
  return took, what
end

-- True when an awake monster is in sight: auto-exploring and travelling stop.
function Game:threatened()
  for _, monster in ipairs(self.level.monsters) do
    if monster.awake and self:is_visible(monster.x, monster.y) then return true end
  end
  return false
end

-- One turn of auto-exploring or travelling, if either is on. Returns
-- "idle" (neither), "step", or why it stopped ("explored", "arrived",
-- "stuck", "danger").
function Game:tick()
  if not self.auto or self.dead then return "idle" end
  local action = self.auto == "explore" and "explore_step" or "travel_step"
  local hp = self.player.hp
  local took, why = self:turn(action)
  if not took then
    self.auto = nil
    return why or "stuck"
  end
  if self.player.hp < hp or self:threatened() then
    self.auto = nil
    self:say("You stop.", true)
    return "danger"
  end
  if self.auto == "travel" and same_cell(self.player, self.target) then
    self.auto, self.route, self.target = nil, nil, nil
    return "arrived"
  end
  return "step"
end

-- A key, by LÖVE's name ("left", "kp7", "h", "x", ...; "<" and ">" from text
-- input). Any key stops auto-exploring or travelling first. Returns the
-- command run, or nil; "quit" is left to the caller.
function Game:key(key)
  local was_auto = self.auto
  self.auto, self.route, self.target = nil, nil, nil
  local command = COMMANDS[key]
  if command == "quit" then return command end
  if command == "restart" or (self.dead and key == "return") then
    self:restart(self.new_seed())
    return "restart"
  end
  if command == "view" then
    self.view = self.view == "glyphs" and "tiles" or "glyphs"
    return command
  end
  if self.dead then return nil end
  local d = MOVES[key]
  if d then
    self:turn("bump", d[1], d[2])
    return "move"
  end
  if command == "explore" then
    if was_auto then
      self:say("Stopped.")
    else
      self.auto = "explore"
      self:say("Exploring...")
    end
  elseif command then
    self:turn(command)
  end
  return command
end

-- The level's state as a string: the level saved (terrain, occupied
-- cells), its memory saved, its items and monsters; a level left and
-- returned to must give the same string.
function M.fingerprint(level)
  local parts = { level.lvl:save(), level.seen:save() }
  local cells = {}
  for cell in pairs(level.items) do cells[#cells + 1] = cell end
  table.sort(cells)
  for _, cell in ipairs(cells) do parts[#parts + 1] = cell .. level.items[cell] end
  for _, monster in ipairs(level.monsters) do
    parts[#parts + 1] = string.format("%s%d,%d:%d:%s", monster.char, monster.x, monster.y, monster.hp,
      tostring(monster.awake))
  end
  return table.concat(parts, "\n")
end

-- What a save holds of the game and of each level: the state that play
-- changes. Left out are what look() and rules() make again from it (the
-- visible field, the torch's light, each level's walking rules), the
-- functions (clock, new_seed), and the last turn's bookkeeping (acted,
-- turn_time, turn_kind), which no later turn reads.
M.SAVE_VERSION = 2
local SAVED = { "seed", "size", "width", "height", "view", "message", "log", "player", "gold", "turns", "kills",
  "fights", "dead", "rng", "schedule", "auto", "route", "target" }
local SAVED_LEVEL = { "depth", "lvl", "seen", "monsters", "items", "start", "stairs", "up", "vaults", "algorithm",
  "seed", "surface" }

local function pick(from, keys, into)
  for _, key in ipairs(keys) do into[key] = from[key] end
  return into
end

-- The game as a string, by map.save: every level (its native level, its
-- memory, its monsters and items), the player, the counts, the combat's
-- source and the scheduler with its actors (the player's and the monsters'
-- own tables, so they load as the same tables). Binary, the same bytes on
-- both interpreters. M.load plays on from it.
function Game:save()
  local levels = {}
  for depth, level in pairs(self.levels) do levels[depth] = pick(level, SAVED_LEVEL, {}) end
  return map.save(pick(self, SAVED, { version = M.SAVE_VERSION, levels = levels, depth = self.level.depth }))
end

-- The game a Game:save() string holds, as it was; options as M.new's
-- (clock, new_seed). A string that is not a save is an error saying so;
-- an older demo's save (Lua source, before map.save) is not loaded.
function M.load(text, options)
  options = options or {}
  if text:sub(1, 7) == "return " then
    error("an older demo's save (Lua source): this demo loads only its map.save saves; start a new game", 0)
  end
  local ok, saved = pcall(map.load, text)
  if not ok then error("not a save of this game: " .. tostring(saved), 0) end
  if type(saved) ~= "table" or saved.version ~= M.SAVE_VERSION then error("not a save of this game", 0) end
  local self = pick(saved, SAVED, setmetatable({}, Game))
  self.clock = options.clock or os.clock
  self.new_seed = options.new_seed or function() return self.seed + 1 end
  self.levels = saved.levels
  for _, level in pairs(self.levels) do
    -- The game's own monster kinds, not the copies the save holds.
    for _, monster in ipairs(level.monsters) do monster.kind = M.KINDS[monster.char] end
    rules(level, level.surface)
    index_monsters(level)
  end
  self.level = self.levels[saved.depth]
  self:look()
  return self
end

-- Checks the state against the rules. Returns true, or false and a list of
-- problems: every actor on a cell of the map that is not blocked (by the
-- level's rule: walls, closed doors, and the surface's water and
-- mountains), every
-- monster's cell occupied, no two on one cell, hit points in range.
function Game:check()
  local problems = {}
  local function expect(ok, ...)
    if not ok then problems[#problems + 1] = string.format(...) end
  end
  local lvl, p = self.level.lvl, self.player
  local taken = {}
  local actors = { p }
  for _, monster in ipairs(self.level.monsters) do actors[#actors + 1] = monster end
  for _, actor in ipairs(actors) do
    local name = actor.char or "@"
    local on = self:on_map(actor.x, actor.y)
    local c = on and lvl:get(actor.x, actor.y)
    expect(on, "%s at (%d,%d) is off the map", name, actor.x, actor.y)
    expect(not on or not self.level.blocked:find(c, 1, true), "%s at (%d,%d) stands on %q", name, actor.x, actor.y,
      c)
    expect(not on or actor == p or lvl:occupant(actor.x, actor.y) == actor.id, "%s at (%d,%d) does not occupy its cell",
      name, actor.x, actor.y)
    local key = actor.y * (self.width + 1) + actor.x
    expect(not taken[key], "%s at (%d,%d) shares the cell with %s", name, actor.x, actor.y, taken[key])
    taken[key] = name
    expect(actor.hp > 0 or (actor == p and self.dead), "%s at (%d,%d) has %d hit points", name, actor.x, actor.y,
      actor.hp)
  end
  expect(p.hp <= p.max_hp, "@ has %d of %d hit points", p.hp, p.max_hp)
  expect(self:is_visible(p.x, p.y), "the player's cell is not visible")
  return #problems == 0, problems
end

return M
