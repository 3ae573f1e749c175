-- spec/reference/locks.lua: the oracle of generate's `locks` (spec/locks_spec.lua),
-- written from the promise, not from the module's way of keeping it.
--
--   problem(m) -> nil when m.locks keeps every promise, else a message
--
-- m is generate's table (rows, m.player, m.stairs, m.locks, m.blocked). The
-- promises: every listed door and key is on the map with its character, the
-- characters distinct, and none of them anywhere else on the map (a vault's
-- or a placed letter is another character); a breadth-first search
-- over (cell, keys held) from @, by 4-neighbour steps into cells that do not
-- block (`#`, or m.blocked), where a door may be entered once its key is
-- held and a key is held once its cell is entered, reaches > and every key;
-- and each door is a chokepoint that does not hide its own key: with that
-- door shut and every other one open, @ still reaches its key but not every
-- walkable cell.
local M = {}


-- The map as a flat array of bytes, and its walkable flags.
local function flat(m)
  local w, h = m.width, m.height
  local blocked = {}
  for c in (m.blocked or "#"):gmatch(".") do blocked[c:byte()] = true end
  local bytes, open = {}, {}
  for y = 1, h do
    local row, base = m[y], (y - 1) * w
    for x = 1, w do
      local b = row[x]:byte()
      bytes[base + x], open[base + x] = b, not blocked[b]
    end
  end
  return bytes, open
end

local function index(m, p) return (p.y - 1) * m.width + p.x end

-- The listed cells checked against the map: door_of and key_of (cell ->
-- lock number), or nil and a message.
local function listed(m, bytes)
  local door_of, key_of, chars = {}, {}, {}
  for k, lock in ipairs(m.locks) do
    for _, part in ipairs({ { lock.door, door_of }, { lock.key, key_of } }) do
      local cell, owner = part[1], part[2]
      local i = index(m, cell)
      if type(cell.char) ~= "string" or #cell.char ~= 1 or bytes[i] ~= cell.char:byte() then
        return nil, ("lock %d: %q is not at (%d,%d)"):format(k, tostring(cell.char), cell.x, cell.y)
      end
      if chars[cell.char] or door_of[i] or key_of[i] then
        return nil, ("lock %d: %q or its cell used twice"):format(k, cell.char)
      end
      chars[cell.char], owner[i] = true, k
    end
  end
  for i = 1, #bytes do
    local c = string.char(bytes[i])
    if chars[c] and not door_of[i] and not key_of[i] then
      local x, y = (i - 1) % m.width + 1, math.floor((i - 1) / m.width) + 1
      return nil, ("%q at (%d,%d) is no listed door or key"):format(c, x, y)
    end
  end
  return door_of, key_of
end

-- How many cells are reached from `from`, door `shut` closed and every
-- other door open, and whether `key` is one of them.
local function flood(w, open, from, shut, key)
  local steps = { -w, -1, 1, w }
  local seen, queue, head, tail = { [from] = true, [shut] = true }, { from }, 1, 1
  while head <= tail do
    local i = queue[head]
    head = head + 1
    for s = 1, 4 do
      local j = i + steps[s]
      if open[j] and not seen[j] then
        seen[j] = true
        tail = tail + 1
        queue[tail] = j
      end
    end
  end
  return tail, seen[key] == true
end

-- A set of keys held: `holds[k]` for each key k held, `seen[i]` for
-- each cell a state with these keys stood on, `with[k]` the set with key
-- k more (made once, when first met).
local function keys(holds) return { holds = holds, seen = {}, with = {} } end

local function adding(set, k)
  local more = set.with[k]
  if not more then
    local holds = { [k] = true }
    for held in pairs(set.holds) do holds[held] = true end
    more = keys(holds)
    set.with[k] = more
  end
  return more
end

-- The search over (cell, keys held): which cells any state stood on. A
-- different order of picking up the same keys meets the same set, as the
-- sets with one key more are kept by key. code[j]: false where blocked, 0
-- on a plain walkable cell, d on door d, -k on key k.
local function search(w, code, start)
  local none = keys({})
  none.seen[start] = true
  local stood = { [start] = true }
  local at, held, head, tail = { start }, { none }, 1, 1
  local steps = { -w, -1, 1, w }
  while head <= tail do
    local i, set = at[head], held[head]
    local holds = set.holds
    head = head + 1
    for s = 1, 4 do
      local j = i + steps[s]
      local c = code[j]
      if c and (c <= 0 or holds[c]) then
        local now = set
        if c < 0 and not holds[-c] then now = adding(set, -c) end
        if not now.seen[j] then
          now.seen[j], stood[j] = true, true
          tail = tail + 1
          at[tail], held[tail] = j, now
        end
      end
    end
  end
  return stood
end

function M.problem(m)
  if type(m.locks) ~= "table" then return "no m.locks" end
  local bytes, open = flat(m)
  local door_of, key_of = listed(m, bytes)
  if not door_of then return key_of end
  local start, w = index(m, m.player), m.width
  local code = {}
  for i = 1, #open do
    code[i] = open[i] and (door_of[i] or (key_of[i] and -key_of[i]) or 0)
  end
  local stood = search(w, code, start)
  if not stood[index(m, m.stairs)] then return "> is not reached" end
  local walkable = 0
  for i = 1, #open do
    if open[i] then walkable = walkable + 1 end
  end
  for _, lock in ipairs(m.locks) do
    if not stood[index(m, lock.key)] then return ("key %s is not reached"):format(lock.key.char) end
    local n, keyed = flood(w, open, start, index(m, lock.door), index(m, lock.key))
    if not keyed then return ("key %s is behind its own door"):format(lock.key.char) end
    if n >= walkable - 1 then return ("door %s closes nothing off"):format(lock.door.char) end
  end
end

return M
