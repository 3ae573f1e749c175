-- The demo's game: its state and rules as plain Lua, with no `love` calls, so
-- that busted can run it headless on Lua 5.4 and LuaJIT
-- (spec/love_game_spec.lua). main.lua feeds it keys and ticks; view.lua draws it.
local map = require "map"

local M = {}

-- The walking rule, the same as map.path's with diagonal = true: any cell but
-- "#" can be entered, and a diagonal step needs both orthogonal cells it
-- passes between to be enterable too (no corner cutting).
M.BLOCKED = "#"
M.WALK = { blocked = M.BLOCKED, diagonal = true }
M.RADIUS = 8
M.ITEMS = { ["$"] = "gold", ["!"] = "potions" }

-- Keys (LÖVE's key names) to commands. Moves carry their direction.
local MOVES = {
  left = { -1, 0 }, right = { 1, 0 }, up = { 0, -1 }, down = { 0, 1 },
  h = { -1, 0 }, l = { 1, 0 }, k = { 0, -1 }, j = { 0, 1 },
  y = { -1, -1 }, u = { 1, -1 }, b = { -1, 1 }, n = { 1, 1 },
  kp4 = { -1, 0 }, kp6 = { 1, 0 }, kp8 = { 0, -1 }, kp2 = { 0, 1 },
  kp7 = { -1, -1 }, kp9 = { 1, -1 }, kp1 = { -1, 1 }, kp3 = { 1, 1 },
}
local COMMANDS = {
  tab = "next_algorithm", p = "toggle_path", a = "auto_walk", ["return"] = "auto_walk",
  kpenter = "auto_walk", space = "descend", [">"] = "descend", r = "new_seed",
  escape = "quit", q = "quit", x = "explore",
}

local Game = {}
Game.__index = Game

local function copy(list)
  local out = {}
  for i, v in ipairs(list) do out[i] = v end
  return out
end

local function index_of(list, value)
  for i, v in ipairs(list) do
    if v == value then return i end
  end
end

-- True when a walker at (x, y) of m may step by (dx, dy) to a neighbour on
-- the map: when map.step, on the distances to that cell (within 1, so that
-- only its neighbours are read), steps there. The rule is the module's.
function M.can_step(m, x, y, dx, dy)
  if (dx == 0 and dy == 0) or dx < -1 or dx > 1 or dy < -1 or dy > 1 then return false end
  local to = { x = x + dx, y = y + dy }
  if not (m[to.y] and m[to.y][to.x]) then return false end
  local d = map.distances(m, to, { blocked = M.BLOCKED, diagonal = true, max = 1 })
  local sx, sy = map.step(m, d, x, y, M.WALK)
  return sx == to.x and sy == to.y
end

-- A new game. Options: width, height (the map's size in cells), seed (level
-- 1's; level n uses seed + n - 1), algorithm (a name in map.ALGORITHMS,
-- default "rooms"), radius (of the field of view), new_seed (a function
-- returning a fresh seed, for the `r` key; default math.random).
function M.new(options)
  options = options or {}
  local self = setmetatable({}, Game)
  self.width = options.width or 71
  self.height = options.height or 33
  self.radius = options.radius or M.RADIUS
  self.new_seed = options.new_seed or function() return math.random(1, 999999) end
  self.algorithms = copy(map.ALGORITHMS)
  self.algorithm = options.algorithm or "rooms"
  self.algorithm_index = index_of(self.algorithms, self.algorithm)
  if not self.algorithm_index then
    error("unknown algorithm " .. tostring(self.algorithm) .. "; known: " .. table.concat(self.algorithms, ", "), 2)
  end
  self:restart(options.seed or 42)
  return self
end

-- Level 1 of a new run from this seed; the totals start from zero.
function Game:restart(seed)
  self.seed = seed
  self.level = 1
  self.gold, self.potions, self.turns = 0, 0, 0
  local ok, err = self:generate()
  if not ok then error(err, 2) end
end

function Game:level_seed()
  return self.seed + self.level - 1
end

-- Generates the current level (its seed, the selected algorithm) and puts the
-- player on it. Returns true, or false and the module's message (the level
-- shown stays as it was).
function Game:generate()
  local name = self.algorithms[self.algorithm_index]
  local ok, m = pcall(map.generate, {
    width = self.width, height = self.height, seed = self:level_seed(), algorithm = name,
  })
  if not ok then return false, tostring(m) end
  self.algorithm = name
  self:set_map(m)
  self.message = string.format("Level %d: %s, seed %d.", self.level, name, self:level_seed())
  return true
end

-- Starts the level on map m (any table of rows with one "@" and one ">"): the
-- "@" becomes floor, the player's position is kept apart.
function Game:set_map(m)
  self.m = m
  self.player, self.stairs = nil, nil
  self.level_items = { ["$"] = 0, ["!"] = 0 }
  self.level_taken = { ["$"] = 0, ["!"] = 0 }
  self.level_start = { gold = self.gold, potions = self.potions }
  self.seen = {}
  for y = 1, #m do
    self.seen[y] = {}
    for x = 1, #m[y] do
      local c = m[y][x]
      if c == "@" then
        self.player = { x = x, y = y }
        m[y][x] = "."
      elseif c == ">" then
        self.stairs = { x = x, y = y }
      elseif self.level_items[c] then
        self.level_items[c] = self.level_items[c] + 1
      end
    end
  end
  assert(self.player and self.stairs, "the map needs an @ and a >")
  self.steps = 0
  self.auto = false
  self:look()
end

-- The field of view from the player; what is seen is remembered.
function Game:look()
  local p = self.player
  self.visible = map.fov(self.m, p.x, p.y, self.radius)
  for y, row in pairs(self.visible) do
    local seen = self.seen[y]
    for x in pairs(row) do seen[x] = true end
  end
  if self.show_path then self.path = self:path_to_stairs() end
end

function Game:is_visible(x, y)
  local row = self.visible[y]
  return row ~= nil and row[x] == true
end

function Game:was_seen(x, y)
  return self.seen[y][x] == true
end

-- How many cells are remembered.
function Game:seen_count()
  local n = 0
  for _, row in pairs(self.seen) do
    for _ in pairs(row) do n = n + 1 end
  end
  return n
end

function Game:on_stairs()
  return self.player.x == self.stairs.x and self.player.y == self.stairs.y
end

-- One step by (dx, dy). Returns true if the player moved (and picked up what
-- lay there), false if the step is not allowed.
function Game:move(dx, dy)
  local p = self.player
  if not M.can_step(self.m, p.x, p.y, dx, dy) then
    self.message = "Blocked."
    return false
  end
  p.x, p.y = p.x + dx, p.y + dy
  self.turns = self.turns + 1
  self.steps = self.steps + 1
  self.message = nil
  self:pick_up()
  if self:on_stairs() then self.message = "Stairs down: Enter or > descends." end
  self:look()
  return true
end

function Game:pick_up()
  local p = self.player
  local c = self.m[p.y][p.x]
  local field = M.ITEMS[c]
  if not field then return end
  self[field] = self[field] + 1
  self.level_taken[c] = self.level_taken[c] + 1
  self.m[p.y][p.x] = "."
  self.message = c == "$" and "You pick up some gold." or "You pick up a potion."
end

-- The shortest path from the player to the stairs (map.path, diagonal steps),
-- both ends included, or nil and a message.
function Game:path_to_stairs()
  local p, s = self.player, self.stairs
  return map.path(self.m, p.x, p.y, s.x, s.y, M.WALK)
end

function Game:toggle_path()
  self.show_path = not self.show_path
  self.path = self.show_path and self:path_to_stairs() or nil
end

-- The next level: only from the stairs. Totals carry over.
function Game:descend()
  if not self:on_stairs() then
    self.message = "There are no stairs here."
    return false
  end
  self.level = self.level + 1
  local ok, err = self:generate()
  if not ok then
    self.level = self.level - 1
    self.message = err
  end
  return ok
end

-- The same level (same seed) made by the next algorithm (or the previous one,
-- step -1). What was picked up on it is put back. Returns true, or false and
-- the message when that algorithm fails (the index moves on anyway, so the
-- next press tries the one after).
function Game:cycle_algorithm(step)
  local n = #self.algorithms
  self.algorithm_index = (self.algorithm_index - 1 + (step or 1)) % n + 1
  local gold, potions = self.gold, self.potions
  self.gold, self.potions = self.level_start.gold, self.level_start.potions
  local ok, err = self:generate()
  if not ok then
    self.gold, self.potions = gold, potions
    self.message = self.algorithms[self.algorithm_index] .. ": " .. err
  end
  return ok, err
end

-- Auto-walk toward the stairs: one step per tick(). Started on the stairs, it
-- descends instead.
function Game:auto_walk()
  if self:on_stairs() then return self:descend() end
  self.auto = true
  self.message = "Walking to the stairs..."
  return true
end

-- Auto-explore: one step per tick() towards the nearest cell at the edge of
-- what has been seen (map.explore over the remembered cells), until there is
-- nothing left to see.
function Game:explore()
  self.auto = "explore"
  self.message = "Exploring..."
  return true
end

-- The next cell of an auto-walk (map.step down the distances to the stairs)
-- or of an auto-explore, and how many steps are left after it; nil and the
-- status and message when there is none.
function Game:next_cell()
  local m, p = self.m, self.player
  if self.auto == "explore" then
    local route = map.explore(m, self.seen, p, M.WALK)
    if not route then return nil, "explored", "Explored: nothing more to see from here." end
    return route[2] or route[1], #route - 2
  end
  local d = map.distances(m, self.stairs, M.WALK)
  local x, y = map.step(m, d, p, M.WALK)
  if not x then return nil, "stuck", "No way to the stairs." end
  return { x = x, y = y }, d[y][x]
end

-- One auto-walk or auto-explore step. Returns "idle" (neither), "step",
-- "arrived" (this step reached the stairs; walking stops), "explored"
-- (nothing left to see; exploring stops) or "stuck" (no way on; it stops).
function Game:tick()
  if not self.auto then return "idle" end
  local exploring = self.auto == "explore"
  local to, left, message = self:next_cell()
  if not to then
    self.auto = false
    self.message = message
    return left
  end
  local p = self.player
  if not self:move(to.x - p.x, to.y - p.y) then
    self.auto = false
    return "stuck"
  end
  if self:on_stairs() and not exploring then
    self.auto = false
    return "arrived"
  end
  if not self.message then
    local what = exploring and "Exploring" or "Walking to the stairs"
    self.message = string.format("%s: %d more steps.", what, left)
  end
  return "step"
end

-- A key, by LÖVE's name ("left", "kp7", "h", "tab", ...; ">" comes from text
-- input). Any key stops an auto-walk first. Returns the command run, or nil
-- for keys that do nothing; "quit" is left to the caller.
function Game:key(key, shift)
  local was_walking = self.auto
  self.auto = false
  local d = MOVES[key]
  if d then
    self:move(d[1], d[2])
    return "move"
  end
  local command = COMMANDS[key]
  if command == "next_algorithm" then
    self:cycle_algorithm(shift and -1 or 1)
  elseif command == "toggle_path" then
    self:toggle_path()
  elseif command == "auto_walk" or command == "explore" then
    if was_walking then
      self.message = "Stopped."
    elseif command == "explore" then
      self:explore()
    else
      self:auto_walk()
    end
  elseif command == "descend" then
    self:descend()
  elseif command == "new_seed" then
    self:restart(self.new_seed())
  end
  return command
end

-- The counts of each item kind still on the map.
function Game:items_left()
  local left = { ["$"] = 0, ["!"] = 0 }
  for _, row in ipairs(self.m) do
    for _, c in ipairs(row) do
      if left[c] then left[c] = left[c] + 1 end
    end
  end
  return left
end

-- Checks the state against the rules. Returns true, or false and a list of
-- problems.
function Game:check()
  local problems = {}
  local function expect(ok, ...)
    if not ok then problems[#problems + 1] = string.format(...) end
  end
  local m, p, s = self.m, self.player, self.stairs
  for y = 1, #m do
    expect(#m[y] == #m[1], "row %d is %d cells long, row 1 %d", y, #m[y], #m[1])
  end
  if m.width then -- a generated map: the size asked for
    expect(#m == self.height and #m[1] == self.width, "map is %dx%d, not %dx%d", #m[1], #m, self.width, self.height)
  end
  expect(m[p.y] and m[p.y][p.x] and m[p.y][p.x] ~= M.BLOCKED, "player at (%d,%d) is not on a walkable cell", p.x, p.y)
  expect(m[s.y][s.x] == ">", "no > at the stairs (%d,%d)", s.x, s.y)
  local found = 0
  for y = 1, #m do
    for x = 1, #m[y] do
      local c = m[y][x]
      expect(c ~= "@", "an @ is left on the map at (%d,%d)", x, y)
      if c == ">" then found = found + 1 end
      if self:is_visible(x, y) then expect(self:was_seen(x, y), "(%d,%d) visible but not remembered", x, y) end
    end
  end
  expect(found == 1, "%d stairs on the map", found)
  expect(self:is_visible(p.x, p.y), "the player's cell is not visible")
  local left = self:items_left()
  for kind, field in pairs(M.ITEMS) do
    expect(left[kind] + self.level_taken[kind] == self.level_items[kind],
      "%s: %d left + %d taken ~= %d on the level", kind, left[kind], self.level_taken[kind], self.level_items[kind])
    expect(self[field] == self.level_start[field] + self.level_taken[kind],
      "%s: %d carried ~= %d before the level + %d taken", field, self[field], self.level_start[field],
      self.level_taken[kind])
  end
  return #problems == 0, problems
end

return M
