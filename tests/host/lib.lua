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

-- Grabs strings until Lua runs out of memory and keeps them, then frees a
-- reserve of `reserve` bytes (default 1 MiB) taken first, so that Lua has a
-- little room left to report what happens next. Returns the table holding
-- the strings and the bytes held. Chunks halve from 64 MiB to 64 bytes. The
-- strings differ (LuaJIT interns every string, even long ones). Passes
-- repeat, with a collection between them, until one grabs less than 1 MiB:
-- a collection gives back buffers (LuaJIT's string buffer keeps the size of
-- the largest string.rep until then).
-- One call of every export on side x side maps: {name, function, arguments,
-- what} for new_map, render, reachable, fov, distances and path on an open
-- map, weighted distances and path on a one-cell-wide map of `many` cells
-- (default side x side; the padded board holds three cells for each of its
-- cells), distances from `many` sources on one cell, and the three generate
-- exports for every algorithm. The one-wide map and the sources are Lua
-- arrays of `many` entries (16 bytes each on Lua 5.4).
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
  for _, algorithm in ipairs(map.ALGORITHMS) do
    local options = { width = side, height = side, seed = 1, algorithm = algorithm }
    cases[#cases + 1] = { "map.generate", map.generate, { options }, algorithm }
    cases[#cases + 1] = { "map.generate_text", map.generate_text, { options }, algorithm }
    cases[#cases + 1] = { "map.generate_json", map.generate_json, { options }, algorithm }
  end
  return cases
end

function M.fill_heap(reserve)
  local kept, bytes, n = {}, 0, 0
  for i = 1, 65536 do kept[i] = false end -- sized now: storing must not allocate
  kept.spare = string.rep("r", reserve or 1024 * 1024)
  -- Everything that allocates runs inside the pcall.
  local function grab(i, size) return string.rep(string.format("%07x\n", i), size / 8 - 4) end
  repeat
    local pass = 0
    local chunk = 64 * 1024 * 1024
    while chunk >= 64 and n < 65536 do
      local ok, s = pcall(grab, n, chunk)
      if ok then
        n = n + 1
        kept[n] = s
        pass = pass + #s
      else
        chunk = chunk / 2
      end
    end
    bytes = bytes + pass
    collectgarbage("collect")
  until pass < 1024 * 1024 or n >= 65536
  -- That last collection shrank LuaJIT's string buffer, which may free tens
  -- of MiB: fill that with tables, which need no buffer.
  local ok_new, new_table = pcall(require, "table.new")
  if ok_new then
    local chunk = 64 * 1024 * 1024
    while chunk >= 64 and n < 65536 do
      local ok, tab = pcall(new_table, chunk / 8, 0)
      if ok then
        n = n + 1
        kept[n] = tab
        bytes = bytes + chunk
      else
        chunk = chunk / 2
      end
    end
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
