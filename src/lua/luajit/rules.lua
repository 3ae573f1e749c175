-- The LuaJIT route's reading rules (loaded by `luajit::wrap` in
-- src/lua/luajit/mod.rs; Lua 5.4 does not use this file): how the route
-- reads and checks its arguments before it takes a call on itself, each
-- rule the Lua twin of the Rust function it names, which reads the same
-- input for the C functions. A rule answers what the Rust function
-- answers (a length, a size, the cells read) or nil where the Rust one
-- finds something wrong or the route leaves the call to the C function,
-- which then reads every argument again and raises its own message.
--
-- Every rule here is listed in MIRRORS with the Rust function it mirrors;
-- spec/luajit_rules_spec.lua runs each on random input through both (the
-- probe build's `map._mirror`) and compares the verdicts.
--
-- No user code may run inside: reads are raw (`rawget` only: `#` is never
-- taken of a user's table, as it may call __len on a LuaJIT built with
-- LUAJIT_ENABLE_LUA52COMPAT); user values are compared with `rawequal` and
-- looked at with `type` (a cdata may define `__eq`, and a NULL pointer
-- equals nil); the loops that read a map allocate nothing, so no finalizer
-- can run while they read.

local route = ...

local type, select, rawget, rawequal = type, select, rawget, rawequal
local byte, floor = string.byte, math.floor
local tobit = require("bit").tobit

local PROBE_LIMIT, MAX_CELLS = route.PROBE_LIMIT, route.MAX_CELLS

local rules = {}

-- Each rule and the Rust function it mirrors (src/lua/...).
rules.MIRRORS = {
  length = "stack/args.rs: Args::length",
  size = "stack/maps.rs: Args::map_size",
  walks_by_walls = "stack/maps.rs: Args::map_blocked",
  read_window = "stack/maps.rs: Args::window",
  read_known = "stack/maps.rs: Args::flags",
  cell_at = "shared/cells.rs: after_cell and cell",
  is_cell = "shared/cells.rs: position",
  xy = "shared/cells.rs: cell (a method's x, y or position within a level)",
  is_size = "input.rs: size (through noise:grid)",
  is_coordinate = "natives/noise.rs: coordinate",
  integer = "natives/rng.rs: range (a bound within 2^53)",
}

-- The probe border of the table t: t[1], t[2], t[4], ... until one is nil,
-- then the gap halved down to an n with t[n] present and t[n + 1] nil; 0 if
-- t[1] is nil. Past 2^53 a number no longer tells consecutive keys apart:
-- no key from there on is read.
function rules.length(t)
  if rawequal(rawget(t, 1), nil) then return 0 end
  local lo, hi = 1, PROBE_LIMIT
  while lo * 2 < PROBE_LIMIT do
    if rawequal(rawget(t, lo * 2), nil) then
      hi = lo * 2
      break
    end
    lo = lo * 2
  end
  while hi - lo > 1 do
    local mid = lo + floor((hi - lo) / 2)
    if rawequal(rawget(t, mid), nil) then hi = mid else lo = mid end
  end
  return lo
end
local length = rules.length

-- The map's height and width (the probe borders of the map and of row 1),
-- or nil unless it has rows, row 1 is a table of cells and they are within
-- MAX_CELLS.
function rules.size(m)
  if type(m) ~= "table" then return nil end
  local h = length(m)
  if h == 0 then return nil end
  local first = rawget(m, 1)
  if type(first) ~= "table" then return nil end
  local w = length(first)
  -- Rows may alias one table: bound the size before reading it.
  if w == 0 or w * h > MAX_CELLS then return nil end
  return h, w
end
local size = rules.size

-- Whether the walking rule of the map m (a table) is `#` alone: no
-- `blocked` field. A map with one (an overworld's "#~^") goes to the C
-- function, which reads it; the helpers see the cells alone.
function rules.walks_by_walls(m)
  return rawequal(rawget(m, "blocked"), nil)
end

-- With the FFI, a map is read into a byte buffer; without it (a LuaJIT
-- built with LUAJIT_DISABLE_FFI), the calls that read one stay the C
-- functions'.
local has_ffi, ffi = pcall(require, "ffi")
rules.ffi = has_ffi and ffi or nil
local new_bytes = has_ffi and ffi.typeof("uint8_t[?]")

-- The cells of the ww x wh window at (x0, y0) of the map m, of h rows of
-- w cells, as one string, rows ended by "\n" if `newlines` (the last one
-- without); nil unless the map is still that size and every row of the
-- window is a table of which w is a border (row[w] present, row[w + 1]
-- nil), its cells in the window one-byte strings.
function rules.read_window(m, x0, y0, ww, wh, h, w, newlines)
  local size_ = newlines and (ww + 1) * wh or ww * wh
  local buf = new_bytes(size_)
  -- A finalizer may have run while `buf` was allocated.
  local h_now, w_now = size(m)
  if h_now ~= h or w_now ~= w then return nil end
  -- Row y's cells go to buf[k + 1 .. k + ww]: at most size - 1, as the
  -- loop runs exactly ww times whatever the row holds.
  local k, dx = -1, x0 - 1
  for y = y0, y0 + wh - 1 do
    local row = rawget(m, y)
    if type(row) ~= "table" or rawequal(rawget(row, w), nil) or not rawequal(rawget(row, w + 1), nil) then
      return nil
    end
    for x = 1, ww do
      local c = rawget(row, dx + x)
      if type(c) ~= "string" or #c ~= 1 then return nil end
      buf[k + x] = byte(c)
    end
    k = k + ww
    if newlines then
      k = k + 1
      buf[k] = 10
    end
  end
  return ffi.string(buf, newlines and size_ - 1 or size_)
end

-- The flags of the ww x wh window at (x0, y0) of `known`: a byte a cell,
-- 1 where known[y][x] is truthy; nil unless every row there is a table or
-- nil.
function rules.read_known(known, x0, y0, ww, wh)
  local buf = new_bytes(ww * wh)
  local k, dx = -1, x0 - 1
  for y = y0, y0 + wh - 1 do
    local row = rawget(known, y)
    if type(row) == "table" then
      for x = 1, ww do
        local v = rawget(row, dx + x)
        if not (rawequal(v, nil) or rawequal(v, false)) then buf[k + x] = 1 end
      end
    elseif not rawequal(row, nil) then
      return nil
    end
    k = k + ww
  end
  return ffi.string(buf, ww * wh)
end

-- The cell at argument i of `...`: a position table's raw x and y and the
-- index after it, or the arguments i and i + 1 and the index after them.
function rules.cell_at(i, ...)
  local v = select(i, ...)
  if type(v) == "table" then return rawget(v, "x"), rawget(v, "y"), i + 1 end
  return v, (select(i + 1, ...)), i + 2
end

-- Whether v is an integer from lo to hi.
function rules.is_integer(v, lo, hi)
  return type(v) == "number" and v % 1 == 0 and v >= lo and v <= hi
end

-- Whether x, y is a cell of a w x h map.
function rules.is_cell(x, y, w, h)
  return type(x) == "number" and type(y) == "number" and x % 1 == 0 and y % 1 == 0
    and x >= 1 and x <= w and y >= 1 and y <= h
end

-- The cell given as `n` arguments, x, y (two integers) or a position
-- {x=, y=} (one table), within w x h: x, y; nil for anything the C method
-- must see. (tobit(v) == v: v is an integer, as every v in 1..w is within
-- 32 bits.)
function rules.xy(w, h, n, x, y)
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

-- Whether v is a size: an integer >= 1 (below 2^63, as Rust's integers).
local LARGE = 2 ^ 63
function rules.is_size(v) return type(v) == "number" and v >= 1 and v < LARGE and v % 1 == 0 end

-- Whether v is a coordinate of noise: a number within 2^53 (NaN is not).
local MAX_COORDINATE = route.MAX_COORDINATE
function rules.is_coordinate(v) return type(v) == "number" and v >= -MAX_COORDINATE and v <= MAX_COORDINATE end

-- Whether x is an integer within 2^53.
local MAX_SEED = route.MAX_SEED
function rules.integer(x)
  return type(x) == "number" and x >= -MAX_SEED and x <= MAX_SEED and x % 1 == 0
end

return rules
