-- The scripted run (`love examples/love --script`, and spec/love_game_spec.lua
-- headless): plain Lua driving a game, one action per update() so that LÖVE
-- draws every step. It cycles through every algorithm and back on level 1,
-- auto-walks to ">" on two levels and descends from each, then shows the path
-- on level 3 and walks all of it but the last few steps, checking the state
-- after every action.
local Game = require "game"

local M = {}

M.DESCENTS = 2
M.LEFT_SHOWN = 6  -- steps of the path left unwalked on the last level

local Script = {}
Script.__index = Script

local fmt = string.format

local function render(m)
  local rows = {}
  for y, row in ipairs(m) do rows[y] = table.concat(row) end
  return table.concat(rows, "\n")
end

-- options.max_updates bounds the run (default 10000 updates).
function M.new(game, options)
  options = options or {}
  local self = setmetatable({}, Script)
  self.game = game
  self.max_updates = options.max_updates or 10000
  self.updates = 0
  self.phase = "algorithms"
  self.first = { algorithm = game.algorithm, seed = game:level_seed(), text = render(game.m) }
  self.cycled = {}
  self.walked = {}
  self.seeds = { game:level_seed() }
  return self
end

function Script:fail(...)
  self.result = { ok = false, line = "FAIL level " .. self.game.level .. ": " .. fmt(...) }
  return self.result
end

-- Nil, or the first problem game:check() finds.
function Script:problem()
  local ok, problems = self.game:check()
  if not ok then return table.concat(problems, "; ") end
end

-- Starts walking the current level: the expected number of steps is the
-- shortest path's.
function Script:start_walk()
  local game = self.game
  local path, err = game:path_to_stairs()
  if not path then return self:fail("no path to the stairs: %s", tostring(err)) end
  self.expected = #path - 1
  self.seen_count = game:seen_count()
  game:auto_walk()
end

-- One auto-walk step, checked: one legal step, fov memory only grows.
function Script:step()
  local game = self.game
  local from = { x = game.player.x, y = game.player.y }
  local status = game:tick()
  if status ~= "step" and status ~= "arrived" then return self:fail("auto-walk %s", status) end
  local dx, dy = game.player.x - from.x, game.player.y - from.y
  if not Game.can_step(game.m, from.x, from.y, dx, dy) then
    return self:fail("illegal step (%d,%d) -> (%d,%d)", from.x, from.y, game.player.x, game.player.y)
  end
  local seen = game:seen_count()
  if seen < self.seen_count then return self:fail("remembered cells went from %d to %d", self.seen_count, seen) end
  self.seen_count = seen
  local problem = self:problem()
  if problem then return self:fail("%s", problem) end
  return status
end

-- Cycles the algorithms once round, back to the first: each must make the level.
function Script:algorithms()
  local game = self.game
  if #self.cycled < #game.algorithms then
    local ok, err = game:cycle_algorithm(1)
    if not ok then return self:fail("%s", err) end
    local problem = self:problem()
    if problem then return self:fail("%s: %s", game.algorithm, problem) end
    if game:level_seed() ~= self.first.seed then return self:fail("Tab changed the seed") end
    self.cycled[#self.cycled + 1] = game.algorithm
    return
  end
  if game.algorithm ~= self.first.algorithm or render(game.m) ~= self.first.text then
    return self:fail("cycling through the algorithms did not come back to the same %s level", self.first.algorithm)
  end
  self.phase = "walk"
  return self:start_walk()
end

function Script:walk()
  local game = self.game
  local status = self:step()
  if status ~= "arrived" then return end
  local p, s = game.player, game.stairs
  if not (p.x == s.x and p.y == s.y and game.m[p.y][p.x] == ">") then
    return self:fail("arrived at (%d,%d), stairs at (%d,%d)", p.x, p.y, s.x, s.y)
  end
  if game.steps ~= self.expected then
    return self:fail("walked %d steps, the shortest path has %d", game.steps, self.expected)
  end
  self.walked[#self.walked + 1] = game.steps
  local level, gold, potions = game.level, game.gold, game.potions
  if not game:descend() then return self:fail("could not descend: %s", tostring(game.message)) end
  if game.level ~= level + 1 then return self:fail("level %d after descending from %d", game.level, level) end
  if game:level_seed() ~= self.first.seed + level then return self:fail("level seed %d", game:level_seed()) end
  if game.gold ~= gold or game.potions ~= potions then return self:fail("descending changed the counts") end
  if game:on_stairs() then return self:fail("a new level starts on its stairs") end
  local problem = self:problem()
  if problem then return self:fail("%s", problem) end
  self.seeds[#self.seeds + 1] = game:level_seed()
  if #self.walked < M.DESCENTS then return self:start_walk() end
  self.phase = "final"
  game:toggle_path()
  if not game.path then return self:fail("no path shown") end
  self.final_steps = math.max(0, #game.path - 1 - M.LEFT_SHOWN)
  return self:start_walk()
end

-- Level 3: the path but its last LEFT_SHOWN steps, then stop with those shown.
function Script:final()
  local game = self.game
  if game.steps < self.final_steps then
    local status = self:step()
    if not status or self.result then return end
  end
  if game.steps < self.final_steps then return end
  game.auto = false
  if not game.path or #game.path - 1 ~= self.expected - game.steps then
    return self:fail("the path shown does not lead on to the stairs")
  end
  self.result = {
    ok = true,
    line = fmt("ok levels=%d algorithms=%s seeds=%s walked=%s gold=%d potions=%d turns=%d",
      game.level, table.concat(self.cycled, ","), table.concat(self.seeds, ","),
      table.concat(self.walked, ","), game.gold, game.potions, game.turns),
  }
  return self.result
end

-- One action. Returns nil while running, then {ok = boolean, line = string}.
function Script:update()
  if self.result then return self.result end
  self.updates = self.updates + 1
  if self.updates > self.max_updates then return self:fail("no result after %d updates", self.max_updates) end
  self[self.phase](self)
  return self.result
end

return M
