-- The LuaJIT flavour's table work, in Lua (loaded by `open` in src/lua/mod.rs
-- when built with the feature `luajit`; Lua 5.4 does not use this file).
--
-- On LuaJIT, a JIT-compiled Lua loop fills or reads a table of rows several
-- times faster than the C API does one cell at a time (bench/RESULTS.md,
-- finding 2). So `new_map`, `generate`, `render` and `reachable` are wrapped
-- here: Rust makes the level and hands over its cells as one string; the rows
-- are split and read back in Lua; Rust checks reachability on one string.
--
-- The results and the error messages must be exactly those of the C API
-- functions (src/lua/stack.rs). The wrappers reach that by construction: they
-- take the Lua route only for input that they have fully checked to be valid,
-- and hand anything else (wrong argument count, bad sizes, a bad map, a map
-- over MAX_CELLS) to the C function, which raises its own message. So no
-- error is ever raised here, and every error stays a plain string.
--
-- Reads are raw, as in Rust: `rawget`, and `#`, which LuaJIT computes as
-- lua_objlen does unless it was built with LUAJIT_ENABLE_LUA52COMPAT (as
-- OpenResty builds it). There `#` calls __len, so a map or row with a
-- metatable goes to the C function.
--
-- Called once by `open` with the module table (holding the C functions) and
-- the two helpers only this file sees; replaces four functions of `map`.

local map, helpers = ...

local type, select, rawget, getmetatable = type, select, rawget, getmetatable
local byte, char = string.byte, string.char
local new_tab = require("table.new")

local c_new_map, c_render, c_reachable = map.new_map, map.render, map.reachable
-- (...) -> cells (row-major, one string), width, height, seed, algorithm,
-- and {player x, y, stairs x, y, #rooms, x, y, w, h per room, #doors, x, y
-- per door, #items, x, y,
-- kind byte per item}; raises generate's errors as "map.generate: ...".
local generate_parts = helpers.generate_parts
-- (cells, width) -> true, or false and the message, as map.reachable.
local reach_cells = helpers.reach_cells
local MAX_CELLS = map.MAX_CELLS

-- Does `#` call __len? Only with LUAJIT_ENABLE_LUA52COMPAT.
local LEN_MM = #setmetatable({}, { __len = function() return 1 end }) ~= 0

-- The 256 one-byte strings, by byte (all in the array part, 0 included).
local CH = new_tab(255, 0)
for b = 0, 255 do CH[b] = char(b) end

-- Rows of `w` cells from `cells`, into `m[1..h]`.
local function split(m, cells, w, h)
  local ch = CH -- a local: the compiled inner loop then reloads no upvalue
  local p = 0
  for y = 1, h do
    local row = new_tab(w, 0)
    for x = 1, w do row[x] = ch[byte(cells, p + x)] end
    m[y] = row
    p = p + w
  end
end

-- With the FFI, a map is read into a byte buffer; without it (a LuaJIT
-- built with LUAJIT_DISABLE_FFI), render and reachable stay the C functions.
local has_ffi, ffi = pcall(require, "ffi")
local new_bytes = has_ffi and ffi.typeof("uint8_t[?]")

-- The map's cells as one string, rows ended by "\n" if `newlines` (the last
-- one without), and the width; nil unless the map is valid (then the C
-- function reports what is wrong). The same checks, in the same order, as
-- read_grid / read_row in src/lua/stack.rs. Nothing in the loop allocates,
-- so no other Lua code (a finalizer) can run while it reads.
local function read(m, newlines)
  if type(m) ~= "table" or (LEN_MM and getmetatable(m) ~= nil) then return nil end
  local h = #m
  if h == 0 then return nil end
  local first = rawget(m, 1)
  if type(first) ~= "table" or (LEN_MM and getmetatable(first) ~= nil) then return nil end
  local w = #first
  -- Rows may alias one table: bound the size before reading it.
  if w == 0 or w * h > MAX_CELLS then return nil end
  local size = newlines and (w + 1) * h or w * h
  local buf = new_bytes(size)
  -- Row y's cells go to buf[k + 1 .. k + w]: at most size - 1, as the
  -- loop runs exactly w times whatever the row holds.
  local k = -1
  for y = 1, h do
    local row = rawget(m, y)
    if type(row) ~= "table" or (LEN_MM and getmetatable(row) ~= nil) or #row ~= w then return nil end
    for x = 1, w do
      local c = rawget(row, x)
      if type(c) ~= "string" or #c ~= 1 then return nil end
      buf[k + x] = byte(c)
    end
    k = k + w
    if newlines then
      k = k + 1
      buf[k] = 10
    end
  end
  return ffi.string(buf, newlines and size - 1 or size), w
end

function map.new_map(...)
  local w, h = ...
  if select("#", ...) == 2 and type(w) == "number" and type(h) == "number"
      and w >= 1 and h >= 1 and w % 1 == 0 and h % 1 == 0 and w * h <= MAX_CELLS then
    local m = new_tab(h, 0)
    for y = 1, h do
      local row = new_tab(w, 0)
      for x = 1, w do row[x] = "#" end
      m[y] = row
    end
    return m
  end
  return c_new_map(...)
end

if has_ffi then
  function map.render(...)
    if select("#", ...) == 1 then
      local text = read((...), true)
      if text then return text end
    end
    return c_render(...)
  end

  function map.reachable(...)
    if select("#", ...) == 1 then
      local cells, w = read((...), false)
      if cells then return reach_cells(cells, w) end
    end
    return c_reachable(...)
  end
end

function map.generate(...)
  local cells, w, h, seed, algorithm, f = generate_parts(...)
  -- Built in the order and with the sizes of push_level in src/lua/stack.rs.
  local m = new_tab(h, 8)
  split(m, cells, w, h)
  m.width = w
  m.height = h
  m.seed = seed
  m.algorithm = algorithm
  local n = f[5]
  local rooms = new_tab(n, 0)
  local i = 5
  for r = 1, n do
    rooms[r] = { x = f[i + 1], y = f[i + 2], w = f[i + 3], h = f[i + 4] }
    i = i + 4
  end
  m.rooms = rooms
  i = i + 1
  n = f[i]
  local doors = new_tab(n, 0)
  for d = 1, n do
    doors[d] = { x = f[i + 1], y = f[i + 2] }
    i = i + 2
  end
  m.doors = doors
  m.player = { x = f[1], y = f[2] }
  m.stairs = { x = f[3], y = f[4] }
  i = i + 1
  n = f[i]
  local items = new_tab(n, 0)
  for k = 1, n do
    items[k] = { x = f[i + 1], y = f[i + 2], kind = CH[f[i + 3]] }
    i = i + 3
  end
  m.items = items
  return m
end
