-- The LuaJIT route of levels and fields (loaded by `luajit_native::wrap`
-- in src/lua/luajit_native.rs; Lua 5.4 does not use this file).
--
-- A C function call costs LuaJIT far more than the few loads a level's
-- `get` or a field's `get` is, and breaks the trace around it. So here the
-- hot methods read and write the native memory in place through the FFI:
-- a level's `get`, `set`, `occupied`, `occupy`, `vacate`, a field's `get`,
-- and `steps` (one FFI call of `steps_batch`), and a noise's `get` (one FFI
-- call of `noise_get`) and `grid` (one FFI call of `noise_grid` into a
-- buffer, the rows built in Lua); and the metatables' `__index` finds
-- methods in Lua, compiled, instead of a C function.
--
-- Every other call goes to the C method, which checks and answers it
-- with its own message: these functions take their route only for
-- arguments they have fully checked, as luajit.lua's wrappers do. A value
-- is read in place only after the C side has checked it is a live level
-- or field (`native_block`, once per value, kept in a weak table) and its
-- block still holds its value (a finalized one's is cleared: it goes to
-- the C method, which says it was freed). No user code runs inside: reads
-- are raw, and nothing here allocates while it checks.

local natives, helpers, shared = ...

local ffi = require "ffi"
local bit = require "bit"

local type, select, rawget, rawset, next = type, select, rawget, rawset, next
local byte = string.byte
local band, bor, lshift, rshift, bnot, tobit = bit.band, bit.bor, bit.lshift, bit.rshift, bit.bnot, bit.tobit

local LEVEL_META, FIELD_META, LEVEL_METHODS, FIELD_METHODS, CHARS = 1, 2, 3, 4, 5
local NOISE_META, NOISE_METHODS = 7, 8
local level_methods, field_methods = natives[LEVEL_METHODS], natives[FIELD_METHODS]
local noise_methods = natives[NOISE_METHODS]
local chars = natives[CHARS] -- chars[b + 1] is the one-byte string of b

-- The block of native.rs: tag, value, then the view.
local BLOCK_STRUCT = ffi.typeof([[struct {
  uint64_t tag; void *value;
  uint8_t *cells; uint64_t *bits;
  uint32_t kind, width, height, x, y, w, h;
}]])
assert(ffi.sizeof(BLOCK_STRUCT) == helpers.BLOCK_SIZE, "map/luajit_native.lua: the block's layout differs")
local BLOCK = ffi.typeof("$ *", BLOCK_STRUCT)
local I32, I64 = ffi.typeof("int32_t *"), ffi.typeof("int64_t *")
local NARROW, WIDE = 1, 2
local UNREACHED_32 = -2147483648
local UNREACHED_64 = 0x7fffffffffffffffLL
local steps_batch = ffi.cast(ffi.typeof("int64_t (*)($, $, uint32_t *, uint32_t, uint32_t, const uint8_t *)",
  BLOCK, BLOCK), helpers.steps_batch)
local noise_get = ffi.cast(ffi.typeof("double (*)($, double, double)", BLOCK), helpers.noise_get)
local noise_grid = ffi.cast(ffi.typeof("int (*)($, uint32_t, uint32_t, double, double, double *)", BLOCK),
  helpers.noise_grid)
local DOUBLES = ffi.typeof("double[?]")
local new_tab = require("table.new")
-- (name, f) -> f run inside lua_pcall, its errors raised as the C method
-- `name` raises them (running out of memory: "name: not enough memory for
-- the result"; luajit.lua's guard).
local guard = shared.guard
local native_block = helpers.native_block
-- The probe border (src/lua/read.rs, Args::length): movers are counted as
-- the C method counts them.
local length = shared.length

-- The blocks of the natives checked so far, by value; weak, so a block is
-- kept only while its value lives.
local levels = setmetatable({}, { __mode = "k" })
local fields = setmetatable({}, { __mode = "k" })
local noises = setmetatable({}, { __mode = "k" })

-- v's block if v is a live level (kind 1), field (2) or noise (3), from `seen`.
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

-- The cell given as `n` arguments, x, y (two integers) or a position
-- {x=, y=} (one table), within w x h: x, y; nil for anything the C method
-- must see. (tobit(v) == v: v is an integer, as every v in 1..w is within
-- 32 bits.)
local function xy(w, h, n, x, y)
  if n == 1 and type(x) == "table" then
    x, y = rawget(x, "x"), rawget(x, "y")
  elseif n ~= 2 then
    return nil
  end
  if type(x) == "number" and type(y) == "number" and x >= 1 and x <= w and y >= 1 and y <= h
    and tobit(x) == x and tobit(y) == y then
    return x, y
  end
end

-- self's block and the index of the cell its other `n` arguments give.
local function level_cell(self, n, x, y)
  local b = levels[self] or block(self, 1, levels)
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
  local ch = select(n, ...)
  if n >= 2 and type(ch) == "string" and #ch == 1 then
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

level_methods.occupy = function(self, ...)
  local b, i = level_cell(self, select("#", ...), ...)
  if b then
    local w = rshift(i, 6)
    b.bits[w] = bor(b.bits[w], lshift(1ULL, band(i, 63)))
    return
  end
  return c_occupy(self, ...)
end

level_methods.vacate = function(self, ...)
  local b, i = level_cell(self, select("#", ...), ...)
  if b then
    local w = rshift(i, 6)
    b.bits[w] = band(b.bits[w], bnot(lshift(1ULL, band(i, 63))))
    return
  end
  return c_vacate(self, ...)
end

local c_field_get = field_methods.get

field_methods.get = function(self, ...)
  local b = fields[self] or block(self, 2, fields)
  local x, y
  if b then x, y = xy(b.width, b.height, select("#", ...), ...) end
  if x == nil then return c_field_get(self, ...) end
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

local c_steps = level_methods.steps

-- The movers' cells for steps_batch, x then y; grown as needed, kept.
local cells, room = ffi.new("uint32_t[?]", 64), 32

level_methods.steps = function(self, d, movers, options, ...)
  local b = levels[self] or block(self, 1, levels)
  local f = fields[d] or block(d, 2, fields)
  local m, flags
  if b ~= nil then m, flags = step_options(options, level_walls(self)) end
  if b == nil or f == nil or m == nil or select("#", ...) > 0 or type(movers) ~= "table"
    or f.kind == 3 or f.width ~= b.width or f.height ~= b.height then
    return c_steps(self, d, movers, options, ...)
  end
  local n, w, h = length(movers), b.width, b.height
  if n > room then
    room = n
    cells = ffi.new("uint32_t[?]", 2 * n)
  end
  for i = 1, n do
    local p = rawget(movers, i)
    if type(p) ~= "table" then return c_steps(self, d, movers, options, ...) end
    local x, y = xy(w, h, 1, p)
    if x == nil then return c_steps(self, d, movers, options, ...) end
    cells[2 * i - 2], cells[2 * i - 1] = x, y
  end
  local moved = steps_batch(b, f, cells, n, flags, m)
  if moved < 0 then
    error("level:steps: internal error (please report): steps_batch " .. tonumber(moved), 2)
  end
  -- Only a mover that moved is written (its table's keys are present).
  for i = 1, n do
    local p = rawget(movers, i)
    local x, y = cells[2 * i - 2], cells[2 * i - 1]
    if rawget(p, "x") ~= x or rawget(p, "y") ~= y then
      rawset(p, "x", x)
      rawset(p, "y", y)
    end
  end
  return tonumber(moved)
end

-- noise:get(x, y) of two numbers within 2^53 (NaN fails the comparisons):
-- one FFI call; anything else, and a freed noise (NaN back), to the C method.
local c_noise_get = noise_methods.get
local LIMIT = 2 ^ 53

noise_methods.get = function(self, ...)
  local b = noises[self] or block(self, 3, noises)
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
-- them (noise.rs: sizes >= 1, at most MAX_CELLS cells; |x0|, |y0| <= 2^53).
local c_noise_grid = noise_methods.grid
local MAX_CELLS = shared.MAX_CELLS

local function is_size(v) return type(v) == "number" and v >= 1 and v % 1 == 0 end
local function is_coordinate(v) return type(v) == "number" and v >= -LIMIT and v <= LIMIT end

noise_methods.grid = guard("noise:grid", function(self, ...)
  local n = select("#", ...)
  local w, h, x0, y0 = ...
  local b = noises[self] or block(self, 3, noises)
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

-- Methods found in Lua (a C `__index` would be a call per method looked up).
for kind, methods in pairs({ [LEVEL_META] = level_methods, [FIELD_META] = field_methods,
  [NOISE_META] = noise_methods }) do
  local meta = natives[kind]
  local c_index = rawget(meta, "__index")
  rawset(meta, "__index", function(self, key)
    local method = methods[key]
    if method ~= nil then return method end
    return c_index(self, key)
  end)
end
