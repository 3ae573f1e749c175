-- The LuaJIT route of the toolbox's hot methods (loaded by `luajit::wrap`
-- in src/lua/luajit/mod.rs; Lua 5.4 does not use this file): a source's `random` and `fill`, a scheduler's `next`,
-- `add` and `remove`, through the FFI, whose calls LuaJIT compiles.
--
-- As natives.lua's: these functions take their route only for
-- arguments they have fully checked; anything else, and anything the FFI
-- functions answer with a sentinel (a value freed by the collector, an
-- error), goes to the C method, which checks and answers it with its own
-- message. A value's block is taken only after the C side checked it
-- (`toolbox_block`, once per value, kept in a weak table), and the FFI
-- functions check it again on every call. User values are compared with
-- rawequal and read with rawget (an actor may be a cdata whose __eq
-- would run, or a table whose __index would), and nothing here allocates
-- between a check and its use. The draws are the C methods' own, in Rust:
-- the same numbers on both routes and interpreters.

local _, route, rules = ...

local ffi = require "ffi"

local type, select, rawget, rawset, rawequal = type, select, rawget, rawset, rawequal

local rng_methods, scheduler_methods = route.kinds.rng.methods, route.kinds.scheduler.methods
local native_block = route.c.native_block
local MIN_SPEED, MAX_SPEED, MAX_FILL = route.MIN_SPEED, route.MAX_SPEED, route.MAX_FILL
-- A scheduler's user value: slot -> actor, actor -> slot.
local SLOTS, INDEX = route.SCHEDULER_SLOTS, route.SCHEDULER_INDEX

local addresses = route.ffi
local rng_float = ffi.cast("double (*)(void *)", addresses.rng_float)
local rng_between = ffi.cast("double (*)(void *, double, double)", addresses.rng_between)
local rng_fill = ffi.cast("int (*)(void *, double *, uint32_t, int, double, double)", addresses.rng_fill)
local sched_next = ffi.cast("double (*)(void *, double *)", addresses.sched_next)
local sched_next_slot = ffi.cast("double (*)(void *)", addresses.sched_next_slot)
local sched_add = ffi.cast("double (*)(void *, double)", addresses.sched_add)
local sched_remove = ffi.cast("int (*)(void *, double)", addresses.sched_remove)

-- The blocks of the sources checked so far; each scheduler's block and
-- its two tables ({block, slot -> actor, actor -> slot}). Weak keys: kept
-- while the value lives.
local rngs = setmetatable({}, { __mode = "k" })
local schedulers = setmetatable({}, { __mode = "k" })

-- A block's address as a pointer (a light userdata is not compiled as one),
-- and as the block (src/lua/stack/block.rs), to see whether its value lives.
local VOID = ffi.typeof("void *")
local BLOCK = ffi.typeof("$ *", ffi.typeof(route.BLOCK_CDEF))

local function rng_block(v)
  if type(v) ~= "userdata" then return nil end
  local address = native_block(v, "rng")
  if address == nil then return nil end
  local block = ffi.cast(VOID, address)
  rngs[v] = block
  return block
end

local function scheduler_of(v)
  if type(v) ~= "userdata" then return nil end
  local address, store = native_block(v, "scheduler", true)
  if address == nil or store == nil then return nil end
  local slots, index = rawget(store, SLOTS), rawget(store, INDEX)
  if type(slots) ~= "table" or type(index) ~= "table" then return nil end
  local entry = { ffi.cast(VOID, address), slots, index }
  schedulers[v] = entry
  return entry
end

-- Whether x is an integer within ±2^53.
local integer = rules.integer

local c_random = rng_methods.random
rng_methods.random = function(self, ...)
  local block = rngs[self] or rng_block(self)
  if block ~= nil then
    local n = select("#", ...)
    if n == 0 then
      local v = rng_float(block)
      if v >= 0 then return v end
    elseif n == 1 then
      local hi = ...
      if integer(hi) and hi >= 1 then
        local v = rng_between(block, 1, hi)
        if v == v then return v end
      end
    elseif n == 2 then
      local lo, hi = ...
      if integer(lo) and integer(hi) and lo <= hi then
        local v = rng_between(block, lo, hi)
        if v == v then return v end
      end
    end
  end
  return c_random(self, ...)
end

-- fill's buffer, taken out while in use (a finalizer that runs while t
-- grows and fills another table makes its own).
local spare, spare_size = nil, 0

-- The keys 1..count that t lacks, set to false, each marked in `added` (a
-- byte a key); in a pcall, as setting a key may run out of memory.
local function add_keys(t, count, added)
  for i = 1, count do
    if rawget(t, i) == nil then
      rawset(t, i, false)
      added[i - 1] = 1
    end
  end
end

-- The keys add_keys added, taken away (setting a key to nil allocates
-- nothing).
local function take_keys(t, count, added)
  for i = 1, count do
    if added[i - 1] == 1 then rawset(t, i, nil) end
  end
end

-- fill as the C method's: the keys t lacks added first (if that runs out
-- of memory, they are taken away again and the source has not moved), then
-- the draws, then every value set, which allocates nothing.
local c_fill = rng_methods.fill
local guard = route.c.guard
rng_methods.fill = guard("rng:fill", function(self, t, count, ...)
  local block = rngs[self] or rng_block(self)
  local n = select("#", ...)
  if block ~= nil and type(t) == "table" and integer(count) and count >= 0 and count <= MAX_FILL and n <= 2 then
    local float, lo, hi = n == 0, 1, 1
    if n == 1 then
      hi = ...
    elseif n == 2 then
      lo, hi = ...
    end
    if float or (integer(lo) and integer(hi) and lo <= hi and (n == 2 or hi >= 1)) then
      local buffer, size = spare, spare_size
      spare, spare_size = nil, 0
      if buffer == nil or size < count then
        size = count < 64 and 64 or count
        buffer = ffi.new("double[?]", size)
      end
      local added = ffi.new("uint8_t[?]", count)
      local ok, err = pcall(add_keys, t, count, added)
      if not ok then
        take_keys(t, count, added)
        spare, spare_size = buffer, size
        error(err, 0)
      end
      if rng_fill(block, buffer, count, float and 1 or 0, lo, hi) == 0 then
        for i = 1, count do rawset(t, i, buffer[i - 1]) end
        spare, spare_size = buffer, size
        return t
      end
      take_keys(t, count, added)
      spare, spare_size = buffer, size
    end
  end
  return c_fill(self, t, count, ...)
end)

-- The time of the turn sched_next gives.
local time = ffi.new("double[1]")

local c_next = scheduler_methods.next
scheduler_methods.next = function(self, ...)
  local entry = schedulers[self] or scheduler_of(self)
  if entry ~= nil and select("#", ...) == 0 then
    local slot = sched_next(entry[1], time)
    if slot > 0 then return rawget(entry[2], slot), time[0] end
    -- No actor: no value, as the C method.
    if slot == 0 then return end
  end
  return c_next(self, ...)
end

-- In `guard`: its tables may grow, and run out of memory as the C
-- method's push would.
local c_add = scheduler_methods.add
scheduler_methods.add = guard("scheduler:add", function(self, actor, speed, ...)
  local entry = schedulers[self] or scheduler_of(self)
  if entry ~= nil and select("#", ...) == 0 and not rawequal(actor, nil) and rawequal(actor, actor)
    and type(speed) == "number" and speed >= MIN_SPEED and speed <= MAX_SPEED
    and rawget(entry[3], actor) == nil then
    local block, slots, index = entry[1], entry[2], entry[3]
    local slot = sched_next_slot(block)
    if slot > 0 then
      -- The tables first, as the C method's push: the scheduler takes the
      -- actor only once they hold it.
      rawset(slots, slot, actor)
      rawset(index, actor, slot)
      local got = sched_add(block, speed)
      if got == slot then return end
      rawset(index, actor, nil)
      if got > 0 then
        -- Another add took the slot meanwhile (a finalizer): the actor is
        -- where the scheduler put it.
        rawset(slots, got, actor)
        rawset(index, actor, got)
        return
      end
      rawset(slots, slot, nil)
    end
  end
  return c_add(self, actor, speed, ...)
end)

local c_remove = scheduler_methods.remove
scheduler_methods.remove = function(self, actor, ...)
  local entry = schedulers[self] or scheduler_of(self)
  if entry ~= nil and select("#", ...) == 0 and not rawequal(actor, nil) and rawequal(actor, actor) then
    -- A freed scheduler goes to the C method, which says so.
    if ffi.cast(BLOCK, entry[1]).value == nil then return c_remove(self, actor, ...) end
    local slot = rawget(entry[3], actor)
    if slot == nil then return false end
    local removed = sched_remove(entry[1], slot)
    if removed == 1 then
      rawset(entry[3], actor, nil)
      rawset(entry[2], slot, nil)
      return true
    end
    if removed == 0 then return false end
  end
  return c_remove(self, actor, ...)
end
