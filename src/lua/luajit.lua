-- The LuaJIT flavour's table work, in Lua (loaded by `open` in src/lua/mod.rs
-- when built with the feature `luajit`; Lua 5.4 does not use this file).
--
-- On LuaJIT, a JIT-compiled Lua loop fills or reads a table of rows several
-- times faster than the C API does one cell at a time (bench/RESULTS.md,
-- finding 2). So `new_map`, `generate`, `render`, `reachable`, `fov` and
-- `distances` are wrapped here: Rust makes the level and hands over its cells
-- as one string; the rows are split and read back in Lua; Rust checks
-- reachability, scans sight and walks distances on one string, and hands
-- back one string that Lua turns into rows.
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
-- the helpers only this file sees; replaces six functions of `map`.

local map, helpers = ...

local type, select, rawget, getmetatable = type, select, rawget, getmetatable
local byte, char = string.byte, string.char
local new_tab = require("table.new")

local c_new_map, c_render, c_reachable = map.new_map, map.render, map.reachable
local c_fov, c_distances = map.fov, map.distances
local min, max = math.min, math.max
-- (...) -> cells (row-major, one string), width, height, seed, algorithm,
-- and {player x, y, stairs x, y, #rooms, x, y, w, h per room, #doors, x, y
-- per door, #items, x, y,
-- kind byte per item}; raises generate's errors as "map.generate: ...".
local generate_parts = helpers.generate_parts
-- (cells, width) -> true, or false and the message, as map.reachable.
local reach_cells = helpers.reach_cells
-- (cells, window width, x, y in the window, radius, options) -> one byte per
-- window cell, 1 where visible; raises fov's errors for the radius, options.
local fov_cells = helpers.fov_cells
-- (cells, width, sources, options) -> one double per cell, -1 if unreached;
-- raises distances' errors for the sources and options.
local distances_cells = helpers.distances_cells
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

-- The map's height and width, or nil unless it has rows and row 1 is a
-- table of cells within MAX_CELLS (the checks of read_size in stack.rs).
local function size(m)
  if type(m) ~= "table" or (LEN_MM and getmetatable(m) ~= nil) then return nil end
  local h = #m
  if h == 0 then return nil end
  local first = rawget(m, 1)
  if type(first) ~= "table" or (LEN_MM and getmetatable(first) ~= nil) then return nil end
  local w = #first
  -- Rows may alias one table: bound the size before reading it.
  if w == 0 or w * h > MAX_CELLS then return nil end
  return h, w
end

-- The cells of the ww x wh window at (x0, y0) of the map m of width w, as
-- one string, rows ended by "\n" if `newlines` (the last one without); nil
-- unless every row of the window is a table of w cells and its cells in the
-- window one-byte strings (then the C function reports what is wrong): the
-- checks of read_window / read_row in src/lua/stack.rs. Nothing in the loop
-- allocates, so no other Lua code (a finalizer) can run while it reads.
local function read_window(m, x0, y0, ww, wh, w, newlines)
  local size_ = newlines and (ww + 1) * wh or ww * wh
  local buf = new_bytes(size_)
  -- Row y's cells go to buf[k + 1 .. k + ww]: at most size - 1, as the
  -- loop runs exactly ww times whatever the row holds.
  local k, dx = -1, x0 - 1
  for y = y0, y0 + wh - 1 do
    local row = rawget(m, y)
    if type(row) ~= "table" or (LEN_MM and getmetatable(row) ~= nil) or #row ~= w then return nil end
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

-- The whole map's cells as one string (see read_window) and its width.
local function read(m, newlines)
  local h, w = size(m)
  if not h then return nil end
  local cells = read_window(m, 1, 1, w, h, w, newlines)
  if cells then return cells, w end
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

  local bytes, doubles = ffi.typeof("const uint8_t *"), ffi.typeof("const double *")

  local function is_integer(v, lo, hi)
    return type(v) == "number" and v % 1 == 0 and v >= lo and v <= hi
  end

  -- fov reads only the window within the radius, as the C function does.
  function map.fov(...)
    local n = select("#", ...)
    local m, x, y, radius = ...
    local h, w = size(m)
    if n >= 3 and n <= 5 and h and is_integer(x, 1, w) and is_integer(y, 1, h)
        and (radius == nil or is_integer(radius, 0, MAX_CELLS)) then
      local reach = min(radius or w + h, w + h)
      local x0, y0 = max(1, x - reach), max(1, y - reach)
      local ww, wh = min(w, x + reach) - x0 + 1, min(h, y + reach) - y0 + 1
      local cells = read_window(m, x0, y0, ww, wh, w, false)
      if cells then
        local seen = fov_cells(cells, ww, x - x0 + 1, y - y0 + 1, radius, (select(5, ...)))
        local p = ffi.cast(bytes, seen)
        local vis = new_tab(h, 0)
        for row = 1, y0 - 1 do vis[row] = {} end
        local k, dx = -1, x0 - 1
        for row = y0, y0 + wh - 1 do
          local count = 0
          for c = 1, ww do count = count + p[k + c] end
          local r = new_tab(0, count)
          if count > 0 then
            for c = 1, ww do
              if p[k + c] == 1 then r[dx + c] = true end
            end
          end
          vis[row] = r
          k = k + ww
        end
        for row = y0 + wh, h do vis[row] = {} end
        return vis
      end
    end
    return c_fov(...)
  end


  function map.distances(...)
    local n = select("#", ...)
    if n >= 2 and n <= 3 then
      local cells, w = read((...), false)
      if cells then
        local raw = distances_cells(cells, w, select(2, ...))
        local d = ffi.cast(doubles, raw)
        local h = #cells / w
        local out = new_tab(h, 0)
        local k = -1
        for y = 1, h do
          local row = new_tab(w, 0)
          for x = 1, w do
            local v = d[k + x]
            if v >= 0 then row[x] = v else row[x] = false end
          end
          out[y] = row
          k = k + w
        end
        return out
      end
    end
    return c_distances(...)
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
