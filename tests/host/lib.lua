-- tests/host/lib.lua: helpers for the host tests (tests/host/run.sh). Runs on
-- Lua 5.4, LuaJIT and inside tests/host/capped. Each script prints one line
-- per check and ends with "ok: <name>" or "FAIL: <name>: <why>" (exit 1).
local M = {}

M.INTERPRETER = jit and "luajit" or _VERSION

-- The process's resident set size in KiB (/proc/self/status, VmRSS).
function M.rss_kib()
  local f = assert(io.open("/proc/self/status", "r"))
  local status = f:read("*a")
  f:close()
  return tonumber(status:match("VmRSS:%s*(%d+) kB"))
end

-- RSS after a full collection, so that garbage Lua still holds is not counted.
function M.settled_rss_kib()
  collectgarbage("collect")
  collectgarbage("collect")
  return M.rss_kib()
end

local name = arg and arg[0] and arg[0]:match("([^/]+)%.lua$") or "host test"

function M.fail(why)
  io.stdout:write("FAIL: ", name, ": ", why, "\n")
  io.stdout:flush()
  os.exit(1)
end

function M.check(condition, why)
  if not condition then M.fail(why) end
end

function M.done()
  io.stdout:write("ok: ", name, "\n")
  io.stdout:flush()
  os.exit(0)
end

function M.say(...)
  io.stdout:write(...)
  io.stdout:write("\n")
  io.stdout:flush()
end

-- True when `err` is an out-of-memory error from the module or, unless
-- `module_only`, from Lua itself (a bare "not enough memory").
function M.is_memory_error(err, fn, module_only)
  if type(err) ~= "string" then return false end
  if err == "not enough memory" then return not module_only end
  return err:find("^" .. fn:gsub("%.", "%%.") .. ": ") ~= nil and err:find("memory", 1, true) ~= nil
end

-- A `width` x `height` map of `cell` whose rows all alias one row table: a
-- map the module reads as 4,000,000 cells while it costs Lua ~70 KiB.
function M.aliased_map(width, height, cell)
  local row = {}
  for x = 1, width do row[x] = cell end
  local m = {}
  for y = 1, height do m[y] = row end
  return m
end

-- One call of every export on side x side maps: {name, function, arguments,
-- what} for new_map, render, reachable, fov, distances and path on an open
-- map, weighted distances and path on a one-cell-wide map of `many` cells
-- (default side x side; the padded board holds three cells for each of its
-- cells), distances from `many` sources on one cell, and the three generate
-- exports for every algorithm; then the turn functions on the open map
-- (flee, explore with everything known, sample with every filter, visible
-- across the whole map, parse of its text; not step, which reads 3x3 cells
-- whatever the map), distances and path with
-- `avoid` (the `many` sources), `known` and `max`, flee on the one-wide map
-- with costs, a line of `many` cells and the open map's autotile; a noise's
-- grid of side x side (map.noise itself makes a fixed-size userdata, no
-- argument makes it large), and the light of the whole open map, grey and
-- coloured. The one-wide map and the sources
-- are Lua arrays of `many` entries (16 bytes each on Lua 5.4).
function M.every_export(map, side, many)
  many = many or side * side
  local open = M.aliased_map(side, side, ".")
  local half = math.floor(side / 2)
  local narrow = M.aliased_map(1, many, ".")
  local one, spot = { { "." } }, { x = 1, y = 1 }
  local sources = {}
  for i = 1, many do sources[i] = spot end
  local costs = { cost = { ["."] = 2 } }
  local cases = {
    { "map.new_map", map.new_map, { side, side } },
    { "map.render", map.render, { open } },
    { "map.reachable", map.reachable, { open } },
    { "map.fov", map.fov, { open, half, half } },
    { "map.distances", map.distances, { open, { x = 1, y = 1 } } },
    { "map.path", map.path, { open, 1, 1, side, side } },
    { "map.distances", map.distances, { narrow, spot, costs }, "1-wide, costs" },
    { "map.path", map.path, { narrow, 1, 1, 1, many, costs }, "1-wide, costs" },
    { "map.distances", map.distances, { one, sources, costs }, "many sources, costs" },
    { "map.distances", map.distances, { one, sources }, "many sources" },
  }
  local known = M.aliased_map(side, side, true)
  local limits = { avoid = sources, known = known, max = side }
  local text = string.rep(string.rep(".", side) .. "\n", side)
  local turns = {
    { "map.flee", map.flee, { open, spot } },
    { "map.flee", map.flee, { narrow, spot, costs }, "1-wide, costs" },
    { "map.distances", map.distances, { open, { x = half, y = half }, limits }, "avoid, known, max" },
    { "map.path", map.path, { open, half, half, side, side, limits }, "avoid, known, max" },
    { "map.explore", map.explore, { open, known, half, half }, "all known" },
    -- Every cell of the open map is in sight of `spot`: none is hidden.
    { "map.sample", map.sample, { open, 0, { seed = 1, from = spot, min = 1, hidden = true } } },
    -- It reads the line's cells alone (a few KiB): it may still find them
    -- with the heap full.
    { "map.visible", map.visible, { open, 1, 1, side, side }, small = true },
    { "map.parse", map.parse, { text } },
    { "map.line", map.line, { 1, 1, many, 7 } },
    -- Every cell in the class: a mask for each.
    { "map.autotile", map.autotile, { open, { chars = "." } } },
    -- A level holds its cells natively; every cell a thing at worst.
    { "map.level", map.level, { open, { things = "." } } },
    { "map.level", map.level, { text }, "text" },
    { "map.field", map.field, { side, side } },
    { "map.light", map.light, { open, { { x = half, y = half, radius = side } } } },
    { "map.light", map.light, { open, { { x = half, y = half, radius = side, color = { 1, 0.5, 0 } } } }, "colours" },
  }
  -- A noise made now, out of the calls measured: its grid is a method.
  local made, source = pcall(map.noise, { seed = 1, octaves = 4 })
  if made then
    turns[#turns + 1] = { "noise:grid", function(w, h) return source:grid(w, h) end, { side, side } }
  end
  -- A level saved (made now, out of the calls measured), loaded back.
  local ok, saved = pcall(function() return map.level(open):save() end)
  if ok then turns[#turns + 1] = { "map.load", map.load, { saved } } end
  -- The toolbox's large calls: names learnt from `many` words (at most
  -- 100,000) at the highest order, a scheduler of as many actors loaded
  -- back (made now); a source is of fixed size.
  local words, actors = {}, {}
  local scheduler = map.scheduler()
  for i = 1, math.min(many, 100000) do
    words[i] = ("%08x"):format(i * 2654435761 % 4294967296):gsub("%d", function(d) return ("gklmnprstv"):sub(d + 1,
      d + 1) end)
    actors[i] = i
    scheduler:add(i, i % 10 + 1)
  end
  turns[#turns + 1] = { "map.names", map.names, { words, { order = 8, novel = false } } }
  -- The scheduler is kept with its case: collected, its Rust memory would
  -- go back to the C heap, where a later call could find it with the Lua
  -- heap full (LuaJIT's heap is its own).
  turns[#turns + 1] = { "map.scheduler", map.scheduler, { scheduler:state(), actors }, made = scheduler }
  for _, case in ipairs(turns) do cases[#cases + 1] = case end
  for _, algorithm in ipairs(map.ALGORITHMS) do
    local options = { width = side, height = side, seed = 1, algorithm = algorithm }
    cases[#cases + 1] = { "map.generate", map.generate, { options }, algorithm }
    cases[#cases + 1] = { "map.generate_text", map.generate_text, { options }, algorithm }
    cases[#cases + 1] = { "map.generate_json", map.generate_json, { options }, algorithm }
  end
  return cases
end

-- The most values fill_heap keeps: enough that small chunks never stop it
-- before the heap is full.
local MAX_KEPT = 1024 * 1024

-- Keeps what `make(n, chunk)` returns in `kept` after its n values: chunks
-- of 64 MiB, halved at each failure (`make` runs inside a pcall, as
-- everything that allocates must) down to 64 bytes; then a collection, and
-- again until a pass takes under 1 MiB. Returns the new n and the bytes.
local function fill(kept, n, make)
  local bytes = 0
  repeat
    local pass, chunk = 0, 64 * 1024 * 1024
    while chunk >= 64 and n < MAX_KEPT do
      local ok, value = pcall(make, n, chunk)
      if ok and value ~= nil then
        n = n + 1
        kept[n] = value
        pass = pass + chunk
      else
        chunk = chunk / 2
      end
    end
    bytes = bytes + pass
    collectgarbage("collect")
  until pass < 1024 * 1024 or n >= MAX_KEPT
  return n, bytes
end

local has_ffi, ffi = pcall(require, "ffi") -- LuaJIT's

-- LuaJIT's heap is its own, not the C heap: what the C heap holds free
-- (memory the module freed earlier) is filled through the FFI too, so that
-- the module's allocations find only the reserve, as on Lua 5.4 (whose
-- heap is the C heap). Returns the maker of chunks and a function that
-- frees the C heap's reserve of `reserve` bytes, taken first; nil
-- elsewhere.
local function c_heap(reserve)
  if not has_ffi then return nil end
  pcall(ffi.cdef, "void *malloc(size_t size); void free(void *p);")
  local spare = ffi.C.malloc(reserve)
  local function chunk(_, size)
    local p = ffi.C.malloc(size)
    if p ~= nil then return ffi.gc(p, ffi.C.free) end
  end
  return chunk, function() ffi.C.free(spare) end
end

-- Grabs values until Lua runs out of memory and keeps them, then frees a
-- reserve of `reserve` bytes (default 1 MiB) taken first, so that Lua has a
-- little room left to report what happens next. Returns the table holding
-- the values and the bytes held. Chunks halve from 64 MiB to 64 bytes.
-- Passes repeat, with a collection between them, until one grabs less than
-- 1 MiB. The values are strings on Lua 5.4 (it interns short strings
-- only, and these differ) and FFI byte arrays on LuaJIT: it interns every
-- string, and a few hundred thousand of one length could meet in a hash
-- chain, compared byte by byte at each new string; a byte array is neither
-- interned nor traversed by the collector, and needs no string buffer.
function M.fill_heap(reserve)
  reserve = reserve or 1024 * 1024
  local kept = {}
  for i = 1, MAX_KEPT do kept[i] = false end -- sized now: storing must not allocate
  kept.spare = string.rep("r", reserve)
  local c_chunk, free_c_spare = c_heap(reserve)
  local function grab(i, size)
    if has_ffi then return ffi.new("uint8_t[?]", size) end
    return string.rep(string.format("%07x\n", i), size / 8 - 4)
  end
  local n, bytes = fill(kept, 0, grab)
  if c_chunk then
    fill(kept, n, c_chunk)
    free_c_spare()
  end
  kept.spare = nil
  collectgarbage("collect")
  return kept, bytes
end
-- Filled interpreted on LuaJIT: before luajit2 2.1-20230911 (Debian 12
-- ships 2.1-20230119), running out of memory inside compiled code finds a
-- wrong frame and crashes LuaJIT itself, with no module loaded (upstream
-- 2d8300c1; docs/hardening.md, "LuaJIT's own crashes").
if jit then jit.off(M.fill_heap, true) end

return M
