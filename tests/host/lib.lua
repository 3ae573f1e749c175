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

-- RSS after a full collection, so that garbage Lua still holds is not counted;
-- in the capped host, after the C heap's free memory went back to the
-- system (host.trim), so that a freed chunk the heap's layout keeps (which
-- glibc's dynamic mmap threshold can leave there) is not counted either:
-- what grows is what is held.
function M.settled_rss_kib()
  collectgarbage("collect")
  collectgarbage("collect")
  -- luacheck: globals host
  if host and host.trim then host.trim() end
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

-- One call of every export and method whose result grows with its
-- arguments, on side x side maps: {label, function, arguments, what,
-- small =, made =}, made from the manifests' `big` (spec/exports/<name>.lua,
-- spec/natives/<kind>.lua) on the arguments spec/exports/fixtures.lua's
-- host(side, many) makes (`many`: default side x side; the padded board
-- holds three cells for each cell of the one-wide map of `many` cells). A
-- case `small` may succeed with the heap full; `made` is kept with it.
function M.every_export(_, side, many)
  local manifests = require "spec.manifests"
  local h = require("spec.exports.fixtures").host(side, many)
  local cases = {}
  for _, entry in ipairs(manifests.entries()) do
    local big = manifests.applies(entry, "big")
    if big then
      for _, case in ipairs(big(h)) do
        local args = {}
        for i = 1, #case do args[i] = case[i] end
        cases[#cases + 1] = { entry.label, manifests.callable(entry), args, case.what, small = case.small,
          made = case.made }
      end
    end
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

-- For the scripts that run the module out of memory: everything
-- interpreted on LuaJIT, the route's own loops included (they build
-- results in compiled Lua, and the same LuaJIT bug crashed ulimit_sweep at
-- 16 MiB in 3 of 8 runs with the JIT on, 0 of 8 with it off).
function M.interpreted()
  if jit then jit.off() end
end

return M
