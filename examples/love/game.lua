-- The demo's game: levels, actors and turns as plain Lua with no `love`
-- calls, so that busted runs it headless on Lua 5.4 and LuaJIT
-- (spec/love_spec.lua). main.lua feeds it keys, clicks and ticks; view.lua
-- draws it; script.lua plays it. Every walking, stepping, sighting and
-- exploring rule here is one of map's: the game only says which characters
-- block and who stands where.
local map = require "map"

local M = {}

M.DOOR, M.OPEN = "+", "'"   -- a closed door, and the open door it becomes when bumped
M.UP, M.DOWN = "<", ">"
M.BLOCKED = "#+"            -- no actor stands on a wall or a closed door
M.OPAQUE = "#+"             -- sight stops at walls and closed doors; an open door lets it through
M.RADIUS = 8                -- of the player's field of view, and of a monster's sight of the player
M.CHASE = 30                -- steps: monsters farther than this from the player wait
M.ALGORITHMS = { "rooms", "cave", "bsp", "cellular", "drunkard", "maze" }
M.KINDS = {
  g = { name = "goblin", hp = 5, damage = 1 },
  o = { name = "orc", hp = 10, damage = 2 },
}
M.PLAYER_HP = 30
M.HIT = 3                   -- the player's damage per blow
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

-- The monsters' walk: map's 8-neighbour rule without corner cutting, walls
-- and closed doors blocking, and the cells in `avoid` (other actors) taken.
local function monster_walk(avoid)
  return { blocked = M.BLOCKED, diagonal = true, avoid = avoid }
end

-- The player's walk (a step, explore, travel): the same rule, but closed
-- doors do not block it (bumping one opens it instead of stepping in); only
-- over the cells in `known` when given.
local function player_walk(known)
  return { blocked = "#", diagonal = true, known = known }
end

local Game = {}
Game.__index = Game

local function has_option(algorithm, name)
  for _, option in ipairs(map.describe(algorithm).options) do
    if option.name == name then return true end
  end
  return false
end

local function new_rows(height)
  local rows = {}
  for y = 1, height do rows[y] = {} end
  return rows
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

-- A new run from this seed: level 1, full hit points, nothing carried.
function Game:restart(seed)
  self.seed = seed
  self.width, self.height = self.size[1], self.size[2]
  self.levels = {}
  self.player = { x = 0, y = 0, hp = M.PLAYER_HP, max_hp = M.PLAYER_HP }
  self.gold, self.turns, self.kills, self.fights = 0, 0, 0, 0
  self.dead = false
  self.auto, self.route, self.target = nil, nil, nil
  self:enter(self:generate(1, nil), "start")
  self.message = string.format("Level 1: %s, seed %d. x explores, > descends.", self.level.algorithm, seed)
end

-- The place list of a level: more monsters deeper, placed out of the
-- player's sight and away from it.
local function placements(depth)
  return {
    { char = "g", count = 3 + depth, min = 8, hidden = true },
    { char = "o", count = math.min(depth, 4), min = 14, hidden = true },
  }
end

-- A level made of map m: the monsters `placed` on it ({char=, x=, y=}, as
-- map.generate's m.placed) are taken off the map into actors; the cell
-- under the player becomes "<" where m.up says there is one, else floor.
local function new_level(m, depth, placed)
  local level = { depth = depth, m = m, monsters = {}, seen = new_rows(#m), stairs = m.stairs, up = m.up }
  for _, at in ipairs(placed) do
    local kind = M.KINDS[at.char]
    level.monsters[#level.monsters + 1] = { x = at.x, y = at.y, char = at.char, kind = kind, hp = kind.hp,
      awake = false }
    m[at.y][at.x] = "."
  end
  m[m.player.y][m.player.x] = m.up and M.UP or "."
  return level
end

-- Level `depth` of this run, arriving at `arrive` (the stairs of the level
-- above, or nil on level 1).
function Game:generate(depth, arrive)
  local algorithm = M.ALGORITHMS[(depth - 1) % #M.ALGORITHMS + 1]
  local options = {
    width = self.width, height = self.height, seed = self.seed + depth - 1, algorithm = algorithm,
    vaults = M.VAULTS, place = placements(depth), arrive = arrive,
  }
  if has_option(algorithm, "doors") then options.doors = true end
  local ok, m = pcall(map.generate, options)
  if not ok then
    -- A level too small or too open for those monsters (map says how many
    -- cells qualified): two goblins anywhere instead.
    options.place = { { char = "g", count = 2 } }
    m = map.generate(options)
  end
  local level = new_level(m, depth, m.placed)
  level.algorithm, level.seed, level.vaults = algorithm, options.seed, #m.vaults
  self.levels[depth] = level
  return level
end

-- Plays on map m (a hand-made one, from map.parse, with one "@" and one
-- ">") as level 1: its monster glyphs (M.KINDS) become monsters.
function Game:use_map(m)
  local placed = {}
  for y = 1, #m do
    for x = 1, #m[y] do
      if M.KINDS[m[y][x]] then placed[#placed + 1] = { char = m[y][x], x = x, y = y } end
    end
  end
  self.levels = {}
  self.width, self.height = #m[1], #m
  local level = new_level(m, 1, placed)
  level.algorithm, level.seed = "hand-made", self.seed
  self.levels[1] = level
  self:enter(level, "start")
end

-- Puts the player on `level` at `at` ("start": the level's start, "up": its
-- up staircase, "down": its stairs down).
function Game:enter(level, at)
  self.level = level
  local cell = at == "down" and level.stairs or at == "up" and level.up or level.m.player
  self.player.x, self.player.y = cell.x, cell.y
  self.auto, self.route, self.target = nil, nil, nil
  self:look()
end

-- The field of view from the player (map.fov); what is seen is remembered.
function Game:look()
  local p, level = self.player, self.level
  self.visible = map.fov(level.m, p, M.RADIUS, { opaque = M.OPAQUE })
  for y, row in pairs(self.visible) do
    local seen = level.seen[y]
    for x in pairs(row) do seen[x] = true end
  end
end

function Game:is_visible(x, y)
  local row = self.visible[y]
  return row ~= nil and row[x] == true
end

function Game:was_seen(x, y)
  return self.level.seen[y][x] == true
end

function Game:monster_at(x, y)
  for _, monster in ipairs(self.level.monsters) do
    if monster.x == x and monster.y == y then return monster end
  end
end

-- The positions of the level's monsters but `except`, and of the player
-- when `player` is true: what an actor's step must not enter.
function Game:others(except, player)
  local cells = {}
  for _, monster in ipairs(self.level.monsters) do
    if monster ~= except then cells[#cells + 1] = { x = monster.x, y = monster.y } end
  end
  if player then cells[#cells + 1] = { x = self.player.x, y = self.player.y } end
  return cells
end

-- True when map.step, under `walk`, takes an actor at `from` to its
-- neighbour `to`: on the distances to `to` within one step, the only lower
-- cell is `to` itself.
function M.can_step(m, from, to, walk)
  if not (m[to.y] and m[to.y][to.x]) then return false end
  local d = map.distances(m, to, { blocked = walk.blocked, diagonal = walk.diagonal, max = 1 })
  local x, y = map.step(m, d, from, walk)
  return x == to.x and y == to.y
end

local function is_monster(actor)
  return actor.kind ~= nil
end

-- `attacker` hits `target` (the player or a monster).
function Game:attack(attacker, target)
  local damage = is_monster(attacker) and attacker.kind.damage or M.HIT
  target.hp = target.hp - damage
  self.fights = self.fights + 1
  if not is_monster(target) then
    self.message = string.format("The %s hits you (%d).", attacker.kind.name, damage)
    if target.hp <= 0 then
      target.hp = 0
      self.dead = true
      self.auto = nil
      self.message = string.format("The %s kills you on level %d, turn %d. r starts again.",
        attacker.kind.name, self.level.depth, self.turns)
    end
    return
  end
  target.awake = true
  if target.hp > 0 then
    self.message = string.format("You hit the %s.", target.kind.name)
    return
  end
  for i, monster in ipairs(self.level.monsters) do
    if monster == target then
      table.remove(self.level.monsters, i)
      break
    end
  end
  self.kills = self.kills + 1
  self.message = string.format("You kill the %s.", target.kind.name)
end

function Game:pick_up()
  local p, m = self.player, self.level.m
  local c = m[p.y][p.x]
  if c == "$" then
    self.gold = self.gold + 1
    self.message = "You pick up some gold."
  elseif c == "!" then
    p.hp = math.min(p.max_hp, p.hp + M.POTION)
    self.message = "You drink a potion."
  else
    return
  end
  m[p.y][p.x] = "."
end

-- The player's move or bump towards the neighbour (dx, dy): attacks a
-- monster there, opens a closed door, or steps when map.step would. Returns
-- true when it took the turn.
function Game:bump(dx, dy)
  local p, m = self.player, self.level.m
  local to = { x = p.x + dx, y = p.y + dy }
  if (dx == 0 and dy == 0) or math.abs(dx) > 1 or math.abs(dy) > 1 or not (m[to.y] and m[to.y][to.x]) then
    return false
  end
  local monster = self:monster_at(to.x, to.y)
  if monster then
    if not M.can_step(m, p, to, player_walk()) then return false end
    self:attack(p, monster)
    return true
  end
  if m[to.y][to.x] == M.DOOR then
    m[to.y][to.x] = M.OPEN
    self.message = "You open the door."
    return true
  end
  if not M.can_step(m, p, to, player_walk()) then
    self.message = "Blocked."
    return false
  end
  p.x, p.y = to.x, to.y
  self.message = nil
  self:pick_up()
  local c = m[p.y][p.x]
  if c == M.DOWN then self.message = "Stairs down: > descends." end
  if c == M.UP then self.message = "Stairs up: < climbs." end
  return true
end

-- One step of a route (a path from the player, start included).
function Game:follow(route)
  local p = self.player
  self.route = route
  return self:bump(route[2].x - p.x, route[2].y - p.y)
end

-- A step of auto-exploring: towards the nearest edge of what the player has
-- seen (map.explore over the remembered cells).
function Game:explore_step()
  local route = map.explore(self.level.m, self.level.seen, self.player, player_walk())
  if not route or #route < 2 then
    self.auto, self.route = nil, nil
    self.message = "Explored: nothing more to see from here."
    return false, "explored"
  end
  return self:follow(route)
end

-- A step of travelling to self.target over the cells the player has seen
-- (map.path with known).
function Game:travel_step()
  local p, t = self.player, self.target
  if not t or same_cell(p, t) then
    self.auto, self.route, self.target = nil, nil, nil
    return false, "arrived"
  end
  local route, err = map.path(self.level.m, p, t, player_walk(self.level.seen))
  if not route then
    self.auto, self.route, self.target = nil, nil, nil
    self.message = "No known way there: " .. err
    return false, "stuck"
  end
  return self:follow(route)
end

-- Starts travelling to the remembered cell (x, y). Returns false when it is
-- not a cell the player has seen.
function Game:travel(x, y)
  local m = self.level.m
  if self.dead or not (m[y] and m[y][x]) or not self:was_seen(x, y) or m[y][x] == "#" then return false end
  self.target = { x = x, y = y }
  self.auto = "travel"
  self.message = "Travelling..."
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
    self.message = "There are no stairs down here."
    return false
  end
  local below = self.levels[level.depth + 1]
  if below then
    self:enter(below, "up")
  else
    self:enter(self:generate(level.depth + 1, { x = p.x, y = p.y }), "start")
  end
  self.message = string.format("Level %d: %s.", self.level.depth, self.level.algorithm)
  return true, "level"
end

-- Takes the stairs up: to the level above as it was left, on its ">".
function Game:ascend()
  local p, level = self.player, self.level
  if not (level.up and same_cell(p, level.up)) then
    self.message = "There are no stairs up here."
    return false
  end
  self:enter(self.levels[level.depth - 1], "down")
  self.message = string.format("Back on level %d.", self.level.depth)
  return true, "level"
end

-- A hurt monster (a third of its hit points or fewer) flees down the safety
-- map; one that cannot, or is not hurt, chases down the shared distances to
-- the player, and attacks when its step would be onto the player.
function Game:monster_turn(monster, maps)
  local m, p = self.level.m, self.player
  if not monster.awake then
    if not map.visible(m, monster, p, { opaque = M.OPAQUE, radius = M.RADIUS }) then return end
    monster.awake = true
  end
  if monster.hp * 3 <= monster.kind.hp then
    maps.flee = maps.flee or map.flee(m, p, { blocked = M.BLOCKED, diagonal = true, max = M.CHASE })
    local x, y = map.step(m, maps.flee, monster, monster_walk(self:others(monster, true)))
    if x then
      monster.x, monster.y = x, y
      return
    end
  end
  maps.chase = maps.chase or map.distances(m, p, { blocked = M.BLOCKED, diagonal = true, max = M.CHASE })
  local x, y = map.step(m, maps.chase, monster, monster_walk(self:others(monster)))
  if x == p.x and y == p.y then
    self:attack(monster, p)
  elseif x then
    monster.x, monster.y = x, y
  end
end

function Game:monsters_turn()
  local maps = {}
  local monsters = {}
  for i, monster in ipairs(self.level.monsters) do monsters[i] = monster end
  for _, monster in ipairs(monsters) do
    if self.dead then return end
    self:monster_turn(monster, maps)
  end
end

-- One turn: the player's action (a method name and its arguments), then,
-- unless it took the stairs, every monster's; then what the player sees.
-- Returns true when the action took the turn, false and a reason when not
-- (nothing else then moves). self.turn_time is the turn's time in seconds.
function Game:turn(action, ...)
  if self.dead then return false, "dead" end
  local start = self.clock()
  local took, what = self[action](self, ...)
  if took then
    self.turns = self.turns + 1
    if what ~= "level" then
      self:monsters_turn()
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
    self.message = (self.message and self.message .. " " or "") .. "You stop."
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
      self.message = "Stopped."
    else
      self.auto = "explore"
      self.message = "Exploring..."
    end
  elseif command then
    self:turn(command)
  end
  return command
end

-- The level's state as a string: its cells, remembered cells and monsters;
-- a level left and returned to must give the same string.
function M.fingerprint(level)
  local parts = { map.render(level.m) }
  for y = 1, #level.seen do
    local xs = {}
    for x in pairs(level.seen[y]) do xs[#xs + 1] = x end
    table.sort(xs)
    parts[#parts + 1] = table.concat(xs, ",")
  end
  for _, monster in ipairs(level.monsters) do
    parts[#parts + 1] = string.format("%s%d,%d:%d:%s", monster.char, monster.x, monster.y, monster.hp,
      tostring(monster.awake))
  end
  return table.concat(parts, "\n")
end

-- Checks the state against the rules. Returns true, or false and a list of
-- problems: every actor on a cell of the map that is not blocked, no two on
-- one cell, hit points in range.
function Game:check()
  local problems = {}
  local function expect(ok, ...)
    if not ok then problems[#problems + 1] = string.format(...) end
  end
  local m, p = self.level.m, self.player
  local taken = {}
  local actors = { p }
  for _, monster in ipairs(self.level.monsters) do actors[#actors + 1] = monster end
  for _, actor in ipairs(actors) do
    local name = actor.char or "@"
    local c = m[actor.y] and m[actor.y][actor.x]
    expect(c ~= nil, "%s at (%d,%d) is off the map", name, actor.x, actor.y)
    expect(c == nil or not M.BLOCKED:find(c, 1, true), "%s at (%d,%d) stands on %q", name, actor.x, actor.y, c)
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
