-- The scripted game (`love examples/love --script`, and spec/love_spec.lua
-- headless): plain Lua playing a game, one turn per update() so that LÖVE
-- draws every turn. It fights what stands next to it, auto-explores each
-- level for a while, travels to ">" over what it has seen and descends; on
-- level 3 it travels back to "<", climbs, and goes down again; it switches
-- between the two views as it goes. After every turn it checks the game's
-- invariants, and that a level returned to is the one it left. At turn
-- SAVE_AT it saves the game (Game:save) and plays on from the save
-- (Game.load), which must hold every level as it was.
local Game = require "game"

local M = {}

M.TURNS = 500          -- at least this many turns
M.LEVELS = 4           -- down to this level
M.BUDGET = 150         -- turns of exploring on a level before heading for its stairs
M.VIEW_EVERY = 40      -- turns between view switches
M.SHOT_AFTER = 100     -- turns before a view's screenshot may be taken
M.SHOT_ROUTE = 10      -- cells of the route shown in a screenshot, at least
M.SHOT_LATE = 400      -- turns after which a screenshot need not show a monster
M.SHOT_LIT = 60        -- cells in sight, at least, in the tile view's screenshot (lit by the torch)
M.MAX_TURNS = 5000
M.SAVE_AT = 300        -- the turn at which the game is saved and loaded

local Script = {}
Script.__index = Script

local fmt = string.format

-- Wraps every function of the map module so that the time spent in them is
-- counted in the returned table's `seconds` (game.lua calls them through the
-- module table, so it is timed too), and every level's methods the same
-- way: a level's methods are not the module's, so the levels' own metatable
-- (debug.getmetatable: it is protected) has its lookup wrapped to hand out
-- timed methods. The game then holds the levels themselves, which map.save
-- takes (a stand-in table would not be one). For the timings only; it lasts
-- as long as the process.
function M.time_map(map, clock)
  local spent = { seconds = 0 }
  local function timed(f)
    return function(...)
      local start = clock()
      local a, b, c = f(...)
      spent.seconds = spent.seconds + clock() - start
      return a, b, c
    end
  end
  M.time_methods(debug.getmetatable(map.level("#")), map.METHODS.level, timed)
  for name, f in pairs(map) do
    if type(f) == "function" then map[name] = timed(f) end
  end
  return spent
end

-- Has the lookup of metatable `mt` hand out, for each method named in
-- `names`, wrap(method) in its place (made once a method).
function M.time_methods(mt, names, wrap)
  local index, timed = mt.__index, {}
  for _, name in ipairs(names) do timed[name] = false end
  mt.__index = function(self, key)
    local value = index(self, key)
    if timed[key] == nil or type(value) ~= "function" then return value end
    timed[key] = timed[key] or wrap(value, key)
    return timed[key]
  end
end

-- Adds up the time of the game's turn calls since the last turn was
-- recorded (an action that did not take the turn, then the rest that did,
-- count as one turn), and with `spent` (from time_map) the map calls made
-- inside them: not the script's own, which choose the action.
function Script:time_turns(spent)
  local turn = self.game.turn
  self.pending = { time = 0, map = 0 }
  self.game.turn = function(game, ...)
    local before = spent and spent.seconds
    local took, what = turn(game, ...)
    self.pending.time = self.pending.time + game.turn_time
    if spent then self.pending.map = self.pending.map + spent.seconds - before end
    return took, what
  end
end

-- options.max_turns bounds the run; options.map_time, a table from
-- time_map, adds the map calls' share of each turn to the timings;
-- options.save_at is the turn to save and load at (false: never).
function M.new(game, options)
  options = options or {}
  local self = setmetatable({}, Script)
  self.game = game
  self.max_turns = options.max_turns or M.MAX_TURNS
  if options.save_at ~= nil then self.save_at = options.save_at else self.save_at = M.SAVE_AT end
  self.goal = "explore"
  self.level_turns = 0
  self.went_up = false
  self.deepest = 1
  self.visited = { [game.level] = true }
  self.visits = 1
  self.returns = 0
  self.deaths = 0
  self.left = {}          -- fingerprints of the levels left, by level
  self.views = {}
  self.shots = {}         -- view name -> true once its screenshot was asked for
  self.map_time = options.map_time
  self:time_turns(self.map_time)
  self.times = { turn = { n = 0, sum = 0, worst = 0, map = 0, map_worst = 0 },
    level = { n = 0, sum = 0, worst = 0, map = 0, map_worst = 0 } }
  return self
end

function Script:fail(...)
  local game = self.game
  self.result = { ok = false, line = fmt("FAIL level %d turn %d: ", game.level.depth, game.turns) .. fmt(...) }
  return self.result
end

-- True when the player may step from `from` to `to` by the step rule.
local function legal_step(game, from, to)
  local dx, dy = to.x - from.x, to.y - from.y
  return math.max(math.abs(dx), math.abs(dy)) == 1
    and game.level.lvl:can_step(from.x, from.y, dx, dy, game.level.walk)
end

-- The monster next to the player that a bump would hit, if any.
function Script:adjacent_foe()
  local game = self.game
  for _, monster in ipairs(game.level.monsters) do
    if legal_step(game, game.player, monster) then return monster end
  end
end

-- Travels to `cell` (a staircase); climbs or descends once on it.
function Script:head_for(cell, stairs)
  local game = self.game
  local p = game.player
  if p.x == cell.x and p.y == cell.y then return game:turn(stairs) end
  if not game:was_seen(cell.x, cell.y) then return game:turn("explore_step") end
  if not (game.target and game.target.x == cell.x and game.target.y == cell.y) then game:travel(cell.x, cell.y) end
  local took, why = game:turn("travel_step")
  if not took and why == "stuck" then return game:turn("explore_step") end
  return took, why
end

-- The next turn's action, taken.
function Script:act()
  local game = self.game
  local p = game.player
  local foe = self:adjacent_foe()
  if foe then return game:turn("bump", foe.x - p.x, foe.y - p.y) end
  local level = game.level
  if self.goal == "explore" then
    if self.level_turns < M.BUDGET then
      local took = game:turn("explore_step")
      if took then return true end
    end
    self.goal = (level.depth == 3 and not self.went_up) and "up" or "down"
  end
  if self.goal == "up" then return self:head_for(level.up, "ascend") end
  return self:head_for(level.stairs, "descend")
end

-- The cells occupied on `level` and its monsters' cells, each as sorted
-- text: they must be the same (game:check looks only at the actors' cells).
-- A scan of the whole level, so only when a level is left or entered.
function M.occupancy(level)
  local occupied, monsters = {}, {}
  for y = 1, level.lvl.height do
    for x = 1, level.lvl.width do
      if level.lvl:occupied(x, y) then occupied[#occupied + 1] = x .. "," .. y end
    end
  end
  for _, monster in ipairs(level.monsters) do monsters[#monsters + 1] = monster.x .. "," .. monster.y end
  table.sort(occupied)
  table.sort(monsters)
  return table.concat(occupied, " "), table.concat(monsters, " ")
end

-- What the turn just taken changed about the level: a new level is the one
-- below, arrived at where the stairs above were; a level returned to is the
-- one left, as it was left.
function Script:check_level(before)
  local game = self.game
  local level = game.level
  if level == before.level then return end
  for _, seen in ipairs { before.level, level } do
    local occupied, monsters = M.occupancy(seen)
    if occupied ~= monsters then
      return self:fail("level %d: cells occupied %s, monsters on %s", seen.depth, occupied, monsters)
    end
  end
  self.left[before.level] = Game.fingerprint(before.level)
  self.level_turns = 0
  self.goal = "explore"
  if self.visited[level] then
    if game.levels[level.depth] ~= level then return self:fail("returned to a level that is not kept") end
    if Game.fingerprint(level) ~= self.left[level] then return self:fail("level %d changed while away", level.depth) end
    self.returns = self.returns + 1
    if level.depth < before.level.depth then
      self.went_up = true
      self.goal = "down"
    end
  else
    if level.depth ~= before.level.depth + 1 then return self:fail("a new level %d", level.depth) end
    local s, u = before.level.stairs, level.up
    if not (u and u.x == s.x and u.y == s.y) then return self:fail("arrived away from the stairs above") end
    self.visited[level] = true
    self.visits = self.visits + 1
  end
  local p = game.player
  if level.lvl:get(p.x, p.y) ~= (level.depth > before.level.depth and Game.UP or Game.DOWN) then
    return self:fail("arrived at (%d,%d), not on the stairs", p.x, p.y)
  end
  self.deepest = math.max(self.deepest, level.depth)
end

-- The invariants after a turn: the game's own check, the player's move one
-- legal step (by map's rule), every monster's at most one cell a turn it
-- took (a goblin may take two between two of the player's).
function Script:check_turn(before)
  local game = self.game
  local ok, problems = game:check()
  if not ok then return self:fail("%s", table.concat(problems, "; ")) end
  if game.level ~= before.level then return self:check_level(before) end
  local p, from = game.player, before.player
  if p.x ~= from.x or p.y ~= from.y then
    if not legal_step(game, from, p) then
      return self:fail("@ went from (%d,%d) to (%d,%d)", from.x, from.y, p.x, p.y)
    end
  end
  for _, monster in ipairs(game.level.monsters) do
    local was = before.monsters[monster]
    if not was then return self:fail("a %s appeared", monster.kind.name) end
    local turns = game.acted and game.acted[monster] or 0
    if math.max(math.abs(monster.x - was.x), math.abs(monster.y - was.y)) > turns then
      return self:fail("a %s went from (%d,%d) to (%d,%d) in %d turns", monster.kind.name, was.x, was.y, monster.x,
        monster.y, turns)
    end
  end
end

-- Saves the game and plays on from the save: every level must come back as
-- it was (Game.fingerprint), and the loaded game must save to the same
-- string; the script's own records follow the loaded levels.
function Script:save_and_load()
  local old = self.game
  local text = old:save()
  local game = Game.load(text, { clock = old.clock })
  for depth, level in pairs(old.levels) do
    local loaded = game.levels[depth]
    if not loaded or Game.fingerprint(loaded) ~= Game.fingerprint(level) then
      return self:fail("level %d is not the same after a save and load", depth)
    end
    self.visited[loaded], self.left[loaded] = self.visited[level], self.left[level]
  end
  if game:save() ~= text then return self:fail("the game loaded saves to another string") end
  self.game = game
  self.saved = old.turns
  self:time_turns(self.map_time)
end

function Script:snapshot()
  local game = self.game
  local monsters = {}
  for _, monster in ipairs(game.level.monsters) do monsters[monster] = { x = monster.x, y = monster.y } end
  return { level = game.level, player = { x = game.player.x, y = game.player.y }, monsters = monsters }
end

function Script:record_time()
  local t, pending = self.times[self.game.turn_kind], self.pending
  t.n = t.n + 1
  t.sum = t.sum + pending.time
  t.worst = math.max(t.worst, pending.time)
  t.map = t.map + pending.map
  t.map_worst = math.max(t.map_worst, pending.map)
  pending.time, pending.map = 0, 0
end

function Script:monster_in_sight()
  local game = self.game
  for _, monster in ipairs(game.level.monsters) do
    if game:is_visible(monster.x, monster.y) then return true end
  end
  return false
end

-- Whether the view's screenshot may show this level: the tile view's
-- below the surface with SHOT_LIT cells or more in sight (the torchlight
-- filling a room), the glyphs' on the surface (the overworld's colours)
-- or, from SHOT_LATE on, anywhere.
function Script:shows_level(view)
  local game = self.game
  if view ~= "tiles" then return game.level.depth == 1 or game.turns >= M.SHOT_LATE end
  if not game.light then return false end
  local p, seen = game.player, 0
  for y = p.y - Game.RADIUS, p.y + Game.RADIUS do
    for x = p.x - Game.RADIUS, p.x + Game.RADIUS do
      if game:is_visible(x, y) then seen = seen + 1 end
    end
  end
  return seen >= M.SHOT_LIT
end

-- Switches views every VIEW_EVERY turns; asks for each view's screenshot
-- once, on a turn after SHOT_AFTER with a monster in sight and a route of
-- SHOT_ROUTE / 2 cells or more shown, or after SHOT_LATE while travelling a
-- route of SHOT_ROUTE cells or more, on a level it may show.
function Script:views_and_shots()
  local game = self.game
  self.views[game.view] = true
  if game.turns % M.VIEW_EVERY == 0 then game:key("tab") end
  local route = game.route and #game.route or 0
  if game.turns >= M.SHOT_AFTER and not self.shots[game.view] and self:shows_level(game.view)
    and (route >= M.SHOT_ROUTE and game.target and game.turns >= M.SHOT_LATE
      or route >= M.SHOT_ROUTE / 2 and self:monster_in_sight()) then
    self.shots[game.view] = true
    return game.view
  end
end

function Script:done()
  return self.game.turns >= M.TURNS and self.deepest >= M.LEVELS and self.went_up
end

local function micro(seconds)
  return math.floor(seconds * 1e6 + 0.5)
end

-- The map calls' share of the timings, when they were timed.
function Script:map_times()
  if not self.map_time then return "" end
  local t, l = self.times.turn, self.times.level
  return fmt(" map_turn_mean_us=%d map_turn_worst_us=%d map_level_worst_us=%d", micro(t.map / math.max(t.n, 1)),
    micro(t.map_worst), micro(l.map_worst))
end

function Script:finish()
  local game, t, l = self.game, self.times.turn, self.times.level
  local views = {}
  for name in pairs(self.views) do views[#views + 1] = name end
  table.sort(views)
  if #views < 2 then return self:fail("only the %s view was shown", views[1]) end
  if game.fights == 0 then return self:fail("no fights") end
  for _, name in ipairs(views) do
    if not self.shots[name] then return self:fail("no turn for the %s view's screenshot", name) end
  end
  self.result = {
    ok = true,
    line = fmt("ok turns=%d levels=%d deepest=%d returns=%d fights=%d kills=%d deaths=%d hp=%d gold=%d "
      .. "views=%s size=%dx%d seed=%d saved=%d turn_mean_us=%d turn_worst_us=%d level_mean_us=%d level_worst_us=%d%s",
      game.turns, self.visits, self.deepest, self.returns, game.fights, game.kills, self.deaths, game.player.hp,
      game.gold, table.concat(views, ","), game.width, game.height, game.seed, self.saved or 0,
      micro(t.sum / math.max(t.n, 1)),
      micro(t.worst), micro(l.sum / math.max(l.n, 1)), micro(l.worst), self:map_times()),
  }
  return self.result
end

-- One turn. Returns nil while running, then {ok = boolean, line = string};
-- and the name of a view whose screenshot to take now, if any.
function Script:update()
  if self.result then return self.result end
  local game = self.game
  if game.turns >= self.max_turns then return self:fail("not done after %d turns", self.max_turns) end
  if game.dead then
    self.deaths = self.deaths + 1
    game:restart(game.seed + 1000)
    self.goal, self.level_turns, self.went_up, self.deepest = "explore", 0, false, 1
    self.visited, self.left = { [game.level] = true }, {}
    return nil
  end
  local before = self:snapshot()
  if not self:act() then game:turn("rest") end
  self.level_turns = self.level_turns + 1
  self:record_time()
  self:check_turn(before)
  if self.result then return self.result end
  if self.save_at and not self.saved and game.turns >= self.save_at and not game.dead then
    self:save_and_load()
    if self.result then return self.result end
  end
  local shot = self:views_and_shots()
  if self:done() then return self:finish(), shot end
  return nil, shot
end

return M
