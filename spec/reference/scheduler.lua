-- spec/reference/scheduler.lua: rot.js's Speed scheduler in plain Lua, the
-- oracle of spec/scheduler_spec.lua and the baseline bench/toolbox.lua
-- times map.scheduler against. A binary min-heap of entries keyed by
-- (time, order added), each entry's place in the heap kept for `remove`
-- and `delay`. Times are numbers the caller keeps exact: integers, each
-- actor's period given in units of a turn the caller chose (with a period
-- of L / speed for a common multiple L of the speeds, every time is an
-- integer, as map.scheduler's are).
local M = {}
M.__index = M

local floor = math.floor

function M.new()
  return setmetatable({ heap = {}, n = 0, of = {}, now = 0, added = 0 }, M)
end

local function less(a, b)
  return a.time < b.time or (a.time == b.time and a.order < b.order)
end

local function place(heap, i, e)
  heap[i] = e
  e.at = i
end

local function up(heap, i)
  local e = heap[i]
  while i > 1 do
    local p = floor(i / 2)
    local pe = heap[p]
    if not less(e, pe) then break end
    place(heap, i, pe)
    i = p
  end
  place(heap, i, e)
end

local function down(heap, n, i)
  local e = heap[i]
  while true do
    local c = 2 * i
    if c > n then break end
    if c < n and less(heap[c + 1], heap[c]) then c = c + 1 end
    if not less(heap[c], e) then break end
    place(heap, i, heap[c])
    i = c
  end
  place(heap, i, e)
end

-- Adds `actor`, first acting `period` after now, then every `period`.
function M:add(actor, period)
  self.added = self.added + 1
  local e = { actor = actor, time = self.now + period, period = period, order = self.added }
  self.n = self.n + 1
  self.of[actor] = e
  place(self.heap, self.n, e)
  up(self.heap, self.n)
end

-- The actor whose turn it is and its time; its next turn a period later.
function M:next()
  local heap = self.heap
  local e = heap[1]
  if not e then return nil end
  self.now = e.time
  e.time = e.time + e.period
  down(heap, self.n, 1)
  return e.actor, self.now
end

function M:remove(actor)
  local e = self.of[actor]
  if not e then return false end
  self.of[actor] = nil
  local heap, n = self.heap, self.n
  local last = heap[n]
  heap[n] = nil
  self.n = n - 1
  if e ~= last then
    place(heap, e.at, last)
    down(heap, self.n, e.at)
    up(heap, last.at)
  end
  return true
end

-- The actor's next turn comes `t` later.
function M:delay(actor, t)
  local e = self.of[actor]
  e.time = e.time + t
  down(self.heap, self.n, e.at)
end

function M:len()
  return self.n
end

return M
