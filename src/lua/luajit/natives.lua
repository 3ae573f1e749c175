-- The LuaJIT route of levels, fields and noises (loaded by `luajit::wrap`
-- in src/lua/luajit/mod.rs; Lua 5.4 does not use this file).
--
-- A C function call costs LuaJIT far more than the few loads a level's
-- `get` or a field's `get` is, and breaks the trace around it. So here the
-- hot methods read and write the native memory in place through the FFI:
-- a level's `get`, `set`, `occupied`, `occupy` (without an id), `vacate`
-- (on a level without ids), a field's `get`,
-- `steps` and `steps_xy` (one FFI call of `steps_batch`), and a noise's `get` (one FFI
-- call of `noise_get`) and `grid` (one FFI call of `noise_grid` into a
-- buffer, the rows built in Lua); and the metatables' `__index` finds
-- methods in Lua, compiled, instead of a C function.
--
-- Every other call goes to the C method, which checks and answers it
-- with its own message: these functions take their route only for
-- arguments they have fully checked, as tables.lua's wrappers do. A value
-- is read in place only after the C side has checked it is a live level
-- or field (`native_block`, once per value, kept in a weak table) and its
-- block still holds its value (a finalized one's is cleared: it goes to
-- the C method, which says it was freed). No user code runs inside: reads
-- are raw, and nothing here allocates while it checks.

local _, route, rules = ...

local ffi = require "ffi"
local bit = require "bit"

local type, select, rawget, rawset, next = type, select, rawget, rawset, next
local byte = string.byte
local floor = math.floor
local band, bor, lshift, rshift, bnot = bit.band, bit.bor, bit.lshift, bit.rshift, bit.bnot

local kinds = route.kinds
local level_methods, field_methods = kinds.level.methods, kinds.field.methods
local noise_methods = kinds.noise.methods
local chars = route.CHARS -- chars[b + 1] is the one-byte string of b

-- The block of src/lua/stack/block.rs: tag, value, then the view.
local BLOCK_STRUCT = ffi.typeof(route.BLOCK_CDEF)
assert(ffi.sizeof(BLOCK_STRUCT) == route.BLOCK_SIZE, "map/luajit/natives.lua: the block's layout differs")
local BLOCK = ffi.typeof("$ *", BLOCK_STRUCT)
local I32, I64 = ffi.typeof("int32_t *"), ffi.typeof("int64_t *")
-- The kinds of a field's cells (native::field::Cells), and their sentinels.
local NARROW, WIDE, FLAGS = route.FIELD_CELLS.narrow, route.FIELD_CELLS.wide, route.FIELD_CELLS.flags
local PARTS = route.FIELD_CELLS.parts
local UNREACHED_32 = route.UNREACHED_NARROW
local UNREACHED_64 = ffi.cast(I64, route.UNREACHED_WIDE)[0]
local addresses = route.ffi
local steps_batch = ffi.cast(ffi.typeof("int32_t (*)($, $, uint32_t *, uint32_t, uint32_t, const uint8_t *)",
  BLOCK, BLOCK), addresses.steps_batch)
local noise_get = ffi.cast(ffi.typeof("double (*)($, double, double)", BLOCK), addresses.noise_get)
local noise_grid = ffi.cast(ffi.typeof("int (*)($, uint32_t, uint32_t, double, double, double *)", BLOCK),
  addresses.noise_grid)
local DOUBLES = ffi.typeof("double[?]")
local new_tab = require("table.new")
-- (name, f) -> f run inside lua_pcall, its errors raised as the C method
-- `name` raises them (running out of memory: "name: not enough memory for
-- the result"; luajit/guard.rs).
local guard = route.c.guard
local native_block = route.c.native_block
-- Movers are counted as the C method counts them.
local length = rules.length
local xy = rules.xy

-- The blocks of the natives checked so far, by value; weak, so a block is
-- kept only while its value lives.
local levels = setmetatable({}, { __mode = "k" })
local fields = setmetatable({}, { __mode = "k" })
local noises = setmetatable({}, { __mode = "k" })

-- v's block if v is a live native of the kind named `kind`, from `seen`.
local function block(v, kind, seen)
  local b = seen[v]
  if b == nil then
    if type(v) ~= "userdata" then return nil end
    local address = native_block(v, kind)
    if address == nil then return nil end
    b = ffi.cast(BLOCK, address)
    seen[v] = b
  end
  if b.value == nil then return nil end
  return b
end

-- self's block and the index of the cell its other `n` arguments give.
local function level_cell(self, n, x, y)
  local b = levels[self] or block(self, "level", levels)
  if b == nil then return nil end
  local cx, cy = xy(b.width, b.height, n, x, y)
  if cx == nil then return nil end
  return b, (cy - 1) * b.width + cx - 1
end

local c_get, c_set = level_methods.get, level_methods.set
local c_occupied, c_occupy, c_vacate = level_methods.occupied, level_methods.occupy, level_methods.vacate

level_methods.get = function(self, ...)
  local b, i = level_cell(self, select("#", ...), ...)
  if b then return chars[b.cells[i] + 1] end
  return c_get(self, ...)
end

level_methods.set = function(self, ...)
  local n = select("#", ...)
  local ch = n >= 2 and select(n, ...)
  if type(ch) == "string" and #ch == 1 then
    local b, i = level_cell(self, n - 1, ...)
    if b then
      b.cells[i] = byte(ch)
      return
    end
  end
  return c_set(self, ...)
end

level_methods.occupied = function(self, ...)
  local b, i = level_cell(self, select("#", ...), ...)
  if b then return band(rshift(b.bits[rshift(i, 6)], band(i, 63)), 1ULL) ~= 0ULL end
  return c_occupied(self, ...)
end

-- occupy(x, y) or occupy(p): the bit set, any id the cell has kept, as
-- the C method does; with an id, to the C method.
level_methods.occupy = function(self, ...)
  local b, i = level_cell(self, select("#", ...), ...)
  if b then
    local w = rshift(i, 6)
    b.bits[w] = bor(b.bits[w], lshift(1ULL, band(i, 63)))
    return
  end
  return c_occupy(self, ...)
end

-- A level with occupants' ids (b.ids[0], their count) goes to the C
-- method, which drops the cell's id with its bit.
level_methods.vacate = function(self, ...)
  local b, i = level_cell(self, select("#", ...), ...)
  if b and b.ids[0] == 0ULL then
    local w = rshift(i, 6)
    b.bits[w] = band(b.bits[w], bnot(lshift(1ULL, band(i, 63))))
    return
  end
  return c_vacate(self, ...)
end

local c_field_get = field_methods.get

field_methods.get = function(self, ...)
  local b = fields[self] or block(self, "field", fields)
  local x, y
  if b then x, y = xy(b.width, b.height, select("#", ...), ...) end
  -- A field in parts holds nothing in place: the C method reads it.
  if x == nil or b.kind == PARTS then return c_field_get(self, ...) end
  local wx, wy, kind = x - b.x, y - b.y, b.kind
  if wx < 0 or wy < 0 or wx >= b.w or wy >= b.h then
    if kind == NARROW or kind == WIDE then return false end
    return nil
  end
  local at = wy * b.w + wx
  if kind == NARROW then
    local v = ffi.cast(I32, b.cells)[at]
    if v == UNREACHED_32 then return false end
    return v
  elseif kind == WIDE then
    local v = ffi.cast(I64, b.cells)[at]
    if v == UNREACHED_64 then return false end
    return tonumber(v)
  end
  return b.cells[at] ~= 0 or nil
end

-- The blocked characters as 256 bytes, 0 or 1, by their string.
local masks = setmetatable({}, { __mode = "v" })
local function mask(chars_blocked)
  local m = masks[chars_blocked]
  if m == nil then
    m = ffi.new("uint8_t[256]")
    for i = 1, #chars_blocked do m[byte(chars_blocked, i)] = 1 end
    masks[chars_blocked] = m
  end
  return m
end
local WALL = mask("#")

-- Each level's own blocked characters as a mask (its `blocked`, or "#"),
-- read once: a level's blocked set never changes.
local walls = setmetatable({}, { __mode = "k" })
local function level_walls(self)
  local m = walls[self]
  if m == nil then
    local blocked = self.blocked
    m = blocked and mask(blocked) or WALL
    walls[self] = m
  end
  return m
end

-- steps' options, if only blocked, diagonal and occupied, of their types:
-- the mask (`walls` unless blocked is given) and the flags; nil for
-- anything else.
local function step_options(options, walls_)
  if options == nil then return walls_, 0 end
  if type(options) ~= "table" then return nil end
  local m, flags = walls_, 0
  local k, v = next(options)
  while k ~= nil do
    if k == "blocked" and type(v) == "string" then
      m = mask(v)
    elseif (k == "diagonal" or k == "occupied") and type(v) == "boolean" then
      if v then flags = bor(flags, k == "diagonal" and 1 or 2) end
    else
      return nil
    end
    k, v = next(options, k)
  end
  return m, flags
end

local MAX_MOVERS = route.MAX_CELLS

-- The movers' cells for steps_batch, x then y, then the indices of those
-- that moved; grown as needed, kept.
local cells, room = ffi.new("uint32_t[?]", 96), 32

-- The route of `steps` and `steps_xy`: their movers are `a` (and `b`),
-- `n` of them (within MAX_MOVERS, as the C methods count them), mover i's
-- cell read by `read(w, h, a, b, i)` (x, y within the level, or nil) and
-- its new one written by `write(a, b, i, x, y)` (only for a mover that
-- moved). Steps them all in one FFI call and returns how many moved; nil
-- for anything the C method `name` must see (nothing was written then).
local function step_batch(name, self, d, options, n, read, write, a, b)
  local lb = levels[self] or block(self, "level", levels)
  local f = fields[d] or block(d, "field", fields)
  -- A block cached before its value was freed (a finalizer's call): the C
  -- method names what was freed.
  if lb == nil or f == nil or lb.value == nil or f.value == nil then return nil end
  local m, flags = step_options(options, level_walls(self))
  if m == nil or n > MAX_MOVERS or f.kind == FLAGS or f.width ~= lb.width or f.height ~= lb.height then
    return nil
  end
  local w, h = lb.width, lb.height
  if n > room then
    room = n
    cells = ffi.new("uint32_t[?]", 3 * n)
  end
  for i = 1, n do
    local x, y = read(w, h, a, b, i)
    if x == nil then return nil end
    cells[2 * i - 2], cells[2 * i - 1] = x, y
  end
  local moved = steps_batch(lb, f, cells, n, flags, m)
  -- Nothing moved: a value freed meanwhile, which the C method names.
  if moved == -2 then return nil end
  if moved < 0 then
    error("level:" .. name .. ": internal error (please report): steps_batch " .. moved, 3)
  end
  for k = 2 * n, 2 * n + moved - 1 do
    local i = cells[k]
    write(a, b, i + 1, cells[2 * i], cells[2 * i + 1])
  end
  return moved
end

-- steps: mover i a table with x and y; only one that moved is written
-- (raw, to keys found present), in the order they moved.
local function read_position(w, h, movers, _, i)
  local p = rawget(movers, i)
  if type(p) ~= "table" then return nil end
  return xy(w, h, 1, p)
end

local function write_position(movers, _, i, x, y)
  local p = rawget(movers, i)
  rawset(p, "x", x)
  rawset(p, "y", y)
end

local c_steps = level_methods.steps

level_methods.steps = function(self, d, movers, options, ...)
  if select("#", ...) == 0 and type(movers) == "table" then
    local moved = step_batch("steps", self, d, options, length(movers), read_position, write_position, movers)
    if moved ~= nil then return moved end
  end
  return c_steps(self, d, movers, options, ...)
end

-- steps_xy: mover i at (xs[i], ys[i]), written back as steps' are.
local function read_xy(w, h, xs, ys, i)
  return xy(w, h, 2, rawget(xs, i), rawget(ys, i))
end

local function write_xy(xs, ys, i, x, y)
  rawset(xs, i, x)
  rawset(ys, i, y)
end

-- The probe border (rules.length) of both xs and ys, when both tables
-- answer alike at every key probed, so that they take the same path: one
-- pair of loops for the two. nil when they differ somewhere (their lengths
-- may still be equal: the C method counts them).
local PROBE_LIMIT = route.PROBE_LIMIT
local function length_xy(xs, ys)
  local a = rawequal(rawget(xs, 1), nil)
  if a ~= rawequal(rawget(ys, 1), nil) then return nil end
  if a then return 0 end
  local lo, hi = 1, PROBE_LIMIT
  while lo * 2 < PROBE_LIMIT do
    a = rawequal(rawget(xs, lo * 2), nil)
    if a ~= rawequal(rawget(ys, lo * 2), nil) then return nil end
    if a then
      hi = lo * 2
      break
    end
    lo = lo * 2
  end
  while hi - lo > 1 do
    local mid = lo + floor((hi - lo) / 2)
    a = rawequal(rawget(xs, mid), nil)
    if a ~= rawequal(rawget(ys, mid), nil) then return nil end
    if a then hi = mid else lo = mid end
  end
  return lo
end

local c_steps_xy = level_methods.steps_xy

level_methods.steps_xy = function(self, d, xs, ys, options, ...)
  if select("#", ...) == 0 and type(xs) == "table" and type(ys) == "table" and not rawequal(xs, ys) then
    local n = length_xy(xs, ys)
    if n ~= nil then
      local moved = step_batch("steps_xy", self, d, options, n, read_xy, write_xy, xs, ys)
      if moved ~= nil then return moved end
    end
  end
  return c_steps_xy(self, d, xs, ys, options, ...)
end

-- noise:get(x, y) of two numbers within 2^53 (NaN fails the comparisons):
-- one FFI call; anything else, and a freed noise (NaN back), to the C method.
local c_noise_get = noise_methods.get
local LIMIT = route.MAX_COORDINATE

noise_methods.get = function(self, ...)
  local b = noises[self] or block(self, "noise", noises)
  local x, y = ...
  if b and select("#", ...) == 2 and type(x) == "number" and type(y) == "number"
    and x >= -LIMIT and x <= LIMIT and y >= -LIMIT and y <= LIMIT then
    local v = noise_get(b, x, y)
    if v == v then return v end
  end
  return c_noise_get(self, ...)
end

-- noise:grid(width, height [, x0, y0]) of integers and numbers the C
-- method takes: the values made by one FFI call into a buffer of doubles,
-- the rows built from it in Lua; anything else, and a freed noise, to the
-- C method. The sizes and the origin are checked as the C method checks
-- them (natives/noise.rs: sizes >= 1, at most MAX_CELLS cells; |x0|, |y0|
-- <= 2^53).
local c_noise_grid = noise_methods.grid
local MAX_CELLS = route.MAX_CELLS
local is_size, is_coordinate = rules.is_size, rules.is_coordinate

noise_methods.grid = guard("noise:grid", function(self, ...)
  local n = select("#", ...)
  local w, h, x0, y0 = ...
  local b = noises[self] or block(self, "noise", noises)
  if b == nil or not (n == 2 or n == 4) or not is_size(w) or not is_size(h) or w * h > MAX_CELLS then
    return c_noise_grid(self, ...)
  end
  if n == 2 then
    x0, y0 = 1, 1
  elseif not (is_coordinate(x0) and is_coordinate(y0)) then
    return c_noise_grid(self, ...)
  end
  local buf = DOUBLES(w * h)
  -- A finalizer may have run while the buffer was made: the block is checked again.
  if b.value == nil or noise_grid(b, w, h, x0, y0, buf) ~= 0 then return c_noise_grid(self, ...) end
  local rows = new_tab(h, 0)
  local k = -1
  for y = 1, h do
    local row = new_tab(w, 0)
    for x = 1, w do row[x] = buf[k + x] end
    rows[y] = row
    k = k + w
  end
  return rows
end)

-- Methods found in Lua (a C `__index` would be a call per method looked
-- up), for the kinds with properties, whose `__index` is a C function (the
-- others' is their method table).
for _, kind in pairs(kinds) do
  local meta, methods = kind.meta, kind.methods
  local c_index = rawget(meta, "__index")
  if type(c_index) == "function" then
    rawset(meta, "__index", function(self, key)
      local method = methods[key]
      if method ~= nil then return method end
      return c_index(self, key)
    end)
  end
end
