-- The LuaJIT route: tables of rows built and read in Lua (loaded by
-- `luajit::wrap` in src/lua/luajit/mod.rs; Lua 5.4 does not use this file).
--
-- On LuaJIT, a JIT-compiled Lua loop fills or reads a table of rows several
-- times faster than the C API does one cell at a time (docs/performance.md).
-- So `new_map`, `render`, `reachable`, `fov`, `distances`, `flee`, `path`,
-- `explore`, `sample` and `autotile` are wrapped here (levels.lua: `parse`
-- and `generate`): the rows are read in Lua into one string, each export's
-- C helpers (in its file of src/lua/exports/) check reachability, scan
-- sight, walk distances and find masks on it, and hand back one string
-- that Lua turns into rows.
--
-- The results and the error messages must be exactly those of the C
-- functions. The wrappers reach that by construction: they take the Lua
-- route only for input that they have fully checked to be valid, by the
-- reading rules of rules.lua (each the twin of the Rust function that reads
-- the same input), and hand anything else (wrong argument count, bad sizes,
-- a bad map or row, a map over MAX_CELLS) to the C function, which raises
-- its own message. Running out of memory or stack while building a result
-- is reported as the C functions report it (`guard`).
--
-- No user code may run inside a call (rules.lua's header says how). A
-- finalizer may still run at an allocation between two helpers' reads of
-- the sources and options: the second helper then answers false and the C
-- function takes the call.
--
-- Called once with the module table (holding the C functions), `route`
-- (the helpers, `route.c`, and what else Rust shares, by name) and the
-- rules; returns what levels.lua shares with it (CH, split).

local map, route, rules = ...

local type, select, rawget, rawequal = type, select, rawget, rawequal
local byte, char, sub, concat = string.byte, string.char, string.sub, table.concat
local helpers = route.c
local new_tab = require("table.new")

local c_new_map, c_render, c_reachable = map.new_map, map.render, map.reachable
local c_fov, c_distances, c_flee = map.fov, map.distances, map.flee
local c_autotile = map.autotile
local c_path, c_explore, c_sample = map.path, map.explore, map.sample
local min, max = math.min, math.max
-- (cells, width) -> true, or false and the message, as map.reachable.
local reach_cells = helpers.reach_cells
-- (cells, window width, x, y in the window, radius, options) -> one byte per
-- window cell, 1 where visible; raises fov's errors for the radius, options.
local fov_cells = helpers.fov_cells
-- (cells, window width, width, height, window x, y, sources, options) -> one
-- double per cell of the window, NaN if unreached; or false if the sources
-- and options now give another window; raises distances' errors for the
-- sources and options. flee_cells: the same for flee.
local distances_cells, flee_cells = helpers.distances_cells, helpers.flee_cells
-- (width, height, sources, options) -> the window's x, y, width and height
-- (the cells a search within options.max can reach); raises distances' (or
-- flee's) errors for the sources and options.
local distances_window, flee_window = helpers.distances_window, helpers.flee_window
-- (width, height, x1, y1, x2, y2, options) -> the window path's search reads;
-- raises path's errors for the options.
local path_window = helpers.path_window
-- (cells, window width, width, height, window x, y, x1, y1, x2, y2, options)
-- -> the path as native-endian uint32 pairs, x then y; nil and why; or
-- false if the options now give another window.
local path_cells = helpers.path_cells
-- (cells, window width, known flags (a byte a cell), width, height, window
-- x, y, x, y, r, options) -> the path as path_cells gives it; nil and
-- "explored"; or false: read the window of radius 2r. With `avoided` last,
-- explore_avoided's string.
local explore_cells = helpers.explore_cells
-- (width, height, x, y, options) -> the cells options.avoid names, for
-- explore_cells (read once for all its windows); raises explore's errors
-- for the options and avoid.
local explore_avoided = helpers.explore_avoided
-- (cells, width, count, options) -> sample's positions.
local sample_cells = helpers.sample_cells
local EXPLORE_RADIUS, NO_CLASS = route.EXPLORE_RADIUS, route.NO_CLASS
-- (cells, width, options) -> one uint16 per cell, the mask, or NO_CLASS for a
-- cell of no class; raises autotile's errors for the options.
local autotile_cells = helpers.autotile_cells
local MAX_CELLS = route.MAX_CELLS
local size, walks_by_walls, read_window, read_known = rules.size, rules.walks_by_walls, rules.read_window,
  rules.read_known
local cell_at, is_integer, is_cell = rules.cell_at, rules.is_integer, rules.is_cell
local ffi = rules.ffi

-- The 256 one-byte strings, by byte (all in the array part, 0 included).
local CH = new_tab(255, 0)
for b = 0, 255 do CH[b] = char(b) end

-- (name, f) -> f as a C function that runs it inside lua_pcall and raises
-- its errors as the C function `name` would: running out of memory as
-- "name: not enough memory for the result", a stack overflow as "name:
-- stack overflow" (messages made once, now: making one when memory has run
-- out would fail in turn), the module's own messages and anything else as
-- they are (push_protected in src/lua/stack/call.rs; luajit/guard.rs). Being a C
-- function, whose frame Lua sizes before calling it, it catches the
-- overflow of every Lua frame of the wrapper, as the C function would its
-- own on Lua 5.4.
local guard = helpers.guard

-- The wrapper of the C function `c` (`name` in messages) for calls of `lo`
-- to `hi` arguments: `answer(...)`'s result, or the C function's where
-- `answer` returns nil, and for any other number of arguments; errors as
-- `guard` raises them.
local function wrapped(name, c, lo, hi, answer)
  return guard(name, function(...)
    local n = select("#", ...)
    if n >= lo and n <= hi then
      local out = answer(...)
      if out then return out end
    end
    return c(...)
  end)
end

-- Rows of `w` cells from `cells`, into `m[1..h]`; each row starts `stride`
-- bytes after the one before (default w).
local function split(m, cells, w, h, stride)
  local ch = CH -- a local: the compiled inner loop then reloads no upvalue
  local p = 0
  for y = 1, h do
    local row = new_tab(w, 0)
    for x = 1, w do row[x] = ch[byte(cells, p + x)] end
    m[y] = row
    p = p + (stride or w)
  end
end

-- The whole map's cells as one string (see read_window) and its width.
local function read(m, newlines)
  local h, w = size(m)
  if not h then return nil end
  local cells = read_window(m, 1, 1, w, h, h, w, newlines)
  if cells then return cells, w end
end

local function new_map(w, h)
  local m = new_tab(h, 0)
  for y = 1, h do
    local row = new_tab(w, 0)
    for x = 1, w do row[x] = "#" end
    m[y] = row
  end
  return m
end

map.new_map = guard("map.new_map", function(...)
  local w, h = ...
  if select("#", ...) == 2 and type(w) == "number" and type(h) == "number"
      and w >= 1 and h >= 1 and w % 1 == 0 and h % 1 == 0 and w * h <= MAX_CELLS then
    return new_map(w, h)
  end
  return c_new_map(...)
end)

if ffi then
  map.render = wrapped("map.render", c_render, 1, 1, function(m) return read(m, true) end)

  map.reachable = guard("map.reachable", function(...)
    if select("#", ...) == 1 and type((...)) == "table" and walks_by_walls((...)) then
      local cells, w = read((...), false)
      if cells then return reach_cells(cells, w) end
    end
    return c_reachable(...)
  end)

  local bytes, doubles = ffi.typeof("const uint8_t *"), ffi.typeof("const double *")

  -- The rows of `fov`'s result: row y holds true at the visible columns.
  local function visible_rows(seen, h, x0, y0, ww, wh)
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

  -- fov reads only the window within the radius, as the C function does;
  -- nil where the C function is to answer.
  local function fov(m, x, y, radius, options)
    local h, w = size(m)
    if not (h and is_integer(x, 1, w) and is_integer(y, 1, h)
        and (rawequal(radius, nil) or is_integer(radius, 0, MAX_CELLS))) then
      return nil
    end
    local reach = min(radius or w + h, w + h)
    local x0, y0 = max(1, x - reach), max(1, y - reach)
    local ww, wh = min(w, x + reach) - x0 + 1, min(h, y + reach) - y0 + 1
    local cells = read_window(m, x0, y0, ww, wh, h, w, false)
    if not cells then return nil end
    local seen = fov_cells(cells, ww, x - x0 + 1, y - y0 + 1, radius, options)
    return visible_rows(seen, h, x0, y0, ww, wh)
  end

  -- fov(m, x, y [, radius [, options]]), or fov(m, position [, radius [,
  -- options]]): a position's coordinates are its raw fields.
  local function fov_of(m, x, ...)
    if type(x) == "table" then return fov(m, rawget(x, "x"), rawget(x, "y"), ...) end
    return fov(m, x, ...)
  end

  map.fov = guard("map.fov", function(...)
    local n, table_at = select("#", ...), type((select(2, ...))) == "table" and 1 or 0
    if n >= 3 - table_at and n <= 5 - table_at then
      local vis = fov_of(...)
      if vis then return vis end
    end
    return c_fov(...)
  end)

  -- The rows of a map of h rows of w cells from one double per cell of its
  -- ww x wh window at (x0, y0): NaN and every cell outside are false.
  local function distance_rows(raw, w, h, x0, y0, ww, wh)
    local d = ffi.cast(doubles, raw)
    local out = new_tab(h, 0)
    local k, x1, y1 = -x0, x0 + ww - 1, y0 + wh - 1
    for y = 1, h do
      local row = new_tab(w, 0)
      if y < y0 or y > y1 then
        for x = 1, w do row[x] = false end
      else
        for x = 1, x0 - 1 do row[x] = false end
        for x = x0, x1 do
          local v = d[k + x]
          if v == v then row[x] = v else row[x] = false end
        end
        for x = x1 + 1, w do row[x] = false end
        k = k + ww
      end
      out[y] = row
    end
    return out
  end

  -- distances' or flee's rows; nil where the C function is to answer.
  local function search(window, cells_of, m, sources, options)
    local h, w = size(m)
    if not h or not walks_by_walls(m) then return nil end
    local x0, y0, ww, wh = window(w, h, sources, options)
    local cells = read_window(m, x0, y0, ww, wh, h, w, false)
    if not cells then return nil end
    local raw = cells_of(cells, ww, w, h, x0, y0, sources, options)
    -- false: the sources or options now give another window.
    if not raw then return nil end
    return distance_rows(raw, w, h, x0, y0, ww, wh)
  end

  map.distances = wrapped("map.distances", c_distances, 2, 3,
    function(...) return search(distances_window, distances_cells, ...) end)
  map.flee = wrapped("map.flee", c_flee, 2, 3, function(...) return search(flee_window, flee_cells, ...) end)

  local words = ffi.typeof("const uint16_t *")

  -- The rows of `autotile`'s result from one uint16 per cell.
  local function mask_rows(raw, w, h)
    local d = ffi.cast(words, raw)
    local out = new_tab(h, 0)
    local k = -1
    for y = 1, h do
      local row = new_tab(w, 0)
      for x = 1, w do
        local v = d[k + x]
        if v ~= NO_CLASS then row[x] = v else row[x] = false end
      end
      out[y] = row
      k = k + w
    end
    return out
  end

  -- nil where the C function is to answer.
  local function autotile(m, options)
    local cells, w = read(m, false)
    if not cells then return nil end
    return mask_rows(autotile_cells(cells, w, options), w, #cells / w)
  end

  map.autotile = wrapped("map.autotile", c_autotile, 1, 2, autotile)
end

if ffi then
  local u32s = ffi.typeof("const uint32_t *")

  -- An array of {x=, y=} from native-endian uint32 pairs.
  local function positions(raw)
    local p = ffi.cast(u32s, raw)
    local n = #raw / 8
    local out = new_tab(n, 0)
    for i = 1, n do out[i] = { x = p[2 * i - 2], y = p[2 * i - 1] } end
    return out
  end

  -- For the functions that take two cells and options, (m, cell, cell [,
  -- options]): the map, both cells' coordinates and the options, or nil
  -- where the C function is to answer (more arguments, a bad map or cell).
  local function two_cells(...)
    local m = ...
    local x1, y1, i = cell_at(2, ...)
    local x2, y2, j = cell_at(i, ...)
    if select("#", ...) > j then return nil end
    local h, w = size(m)
    if not (h and is_cell(x1, y1, w, h) and is_cell(x2, y2, w, h) and walks_by_walls(m)) then return nil end
    return m, h, w, x1, y1, x2, y2, (select(j, ...))
  end

  -- path's result; false and why when there is none; nil where the C
  -- function is to answer.
  local function path(m, h, w, x1, y1, x2, y2, options)
    if not m then return nil end
    local x0, y0, ww, wh = path_window(w, h, x1, y1, x2, y2, options)
    local cells = read_window(m, x0, y0, ww, wh, h, w, false)
    if not cells then return nil end
    local raw, why = path_cells(cells, ww, w, h, x0, y0, x1, y1, x2, y2, options)
    if raw then return positions(raw) end
    -- false: the options now give another window.
    if raw == false then return nil end
    return false, why
  end

  local function path_of(...) return path(two_cells(...)) end

  map.path = guard("map.path", function(...)
    local p, why = path_of(...)
    if p then return p end
    if p == false then return nil, why end
    return c_path(...)
  end)

  -- The window (x0, y0) + (ww, wh) as one string (a byte a cell,
  -- row-major), grown from `kept` (the string of a window it holds, and
  -- that window: kx, ky, kw, kh), or read whole without one: only the cells
  -- it adds are read, by `read_in(x, y, w, h)` (a string, or nil: this gives
  -- nil), in the order explore's C function reads them
  -- (toolkit/explore.rs: Kept::grow).
  local function grown(kept, kx, ky, kw, kh, x0, y0, ww, wh, read_in)
    if not kept then return read_in(x0, y0, ww, wh) end
    local above, below = ky - y0, y0 + wh - (ky + kh)
    local left, right = kx - x0, x0 + ww - (kx + kw)
    local parts, n = {}, 0
    local function add(part)
      n = n + 1
      parts[n] = part
      return part
    end
    if above > 0 and not add(read_in(x0, y0, ww, above)) then return nil end
    if left == 0 and right == 0 then
      add(kept)
    else
      for k = 0, kh - 1 do
        if left > 0 and not add(read_in(x0, ky + k, left, 1)) then return nil end
        add(sub(kept, k * kw + 1, (k + 1) * kw))
        if right > 0 and not add(read_in(kx + kw, ky + k, right, 1)) then return nil end
      end
    end
    if below > 0 and not add(read_in(x0, ky + kh, ww, below)) then return nil end
    return concat(parts)
  end

  -- explore reads windows around the start as the C function does, from
  -- EXPLORE_RADIUS on, doubling, each grown from the one before; `avoid`
  -- read once, by explore_avoided, as the C function reads it. false and
  -- "explored", or nil where the C function is to answer.
  local function explore(m, known, x, y, options)
    local h, w = size(m)
    if not (h and type(known) == "table" and is_cell(x, y, w, h) and walks_by_walls(m)) then return nil end
    local avoided
    if type(options) == "table" and rawget(options, "avoid") ~= nil then
      avoided = explore_avoided(w, h, x, y, options)
    end
    local function cells_in(x1, y1, ww, wh) return read_window(m, x1, y1, ww, wh, h, w, false) end
    local function known_in(x1, y1, ww, wh) return read_known(known, x1, y1, ww, wh) end
    local r = EXPLORE_RADIUS
    local cells, flags, kx, ky, kw, kh
    while true do
      local x0, y0 = max(1, x - r), max(1, y - r)
      local ww, wh = min(w, x + r) - x0 + 1, min(h, y + r) - y0 + 1
      cells = grown(cells, kx, ky, kw, kh, x0, y0, ww, wh, cells_in)
      if not cells then return nil end
      flags = grown(flags, kx, ky, kw, kh, x0, y0, ww, wh, known_in)
      if not flags then return nil end
      kx, ky, kw, kh = x0, y0, ww, wh
      local raw, why = explore_cells(cells, ww, flags, w, h, x0, y0, x, y, r, options, avoided)
      if raw then return positions(raw) end
      if rawequal(raw, nil) then return false, why end
      r = r * 2
    end
  end

  local function explore_of(...)
    local m, known = ...
    local x, y, i = cell_at(3, ...)
    if select("#", ...) > i then return nil end
    return explore(m, known, x, y, (select(i, ...)))
  end

  map.explore = guard("map.explore", function(...)
    local p, why = explore_of(...)
    if p then return p end
    if p == false then return nil, why end
    return c_explore(...)
  end)

  local function sample(m, count, options)
    if type(m) ~= "table" or not walks_by_walls(m) then return nil end
    local cells, w = read(m, false)
    if not cells then return nil end
    return sample_cells(cells, w, count, options)
  end

  map.sample = wrapped("map.sample", c_sample, 2, 3, sample)
end

-- What levels.lua shares with this file.
return { CH = CH, split = split }
