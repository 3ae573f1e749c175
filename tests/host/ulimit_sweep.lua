-- Out of address space, at every margin: under `ulimit -v 300000`
-- (tests/host/run.sh), on Lua 5.4 and LuaJIT. For a headroom of arg[1] MiB
-- (run.sh runs 0 to 64 MiB, each in a process of its own: in one process,
-- LuaJIT's own collection after the first round could run out of memory
-- before the next, outside any map call), fills the address space but for
-- that headroom, then calls every export on a 1000x1000 map. Whether the
-- module's memory check passes or not, and whether Lua or Rust runs out
-- first, each call must either succeed or fail with a catchable "not
-- enough memory"; the process must never abort. Prints which calls
-- succeeded (+) or failed (.).
package.path = arg[0]:gsub("[^/]+$", "") .. "?.lua;" .. package.path
local t = require "lib"
local map = require "map"
t.interpreted()

local MIB = 1024 * 1024
local headroom = assert(tonumber(arg[1]), "usage: ulimit_sweep.lua HEADROOM_MIB")
-- A quarter of a million sources and one-wide cells: the arrays that hold
-- them leave room under the limit for the largest headroom.
local cases = t.every_export(map, 1000, 250000)
local unpack = table.unpack or unpack
local oks, errs = {}, {}
for i = 1, #cases do oks[i], errs[i] = false, false end

local names = {}
for i, c in ipairs(cases) do names[i] = string.format("%2d %s%s", i, c[1], c[4] and " " .. c[4] or "") end
t.say(t.INTERPRETER, ": cases ", table.concat(names, ", "))
do
  local held = { t.fill_heap(headroom * MIB + 256 * 1024) } -- luacheck: ignore 241 (only held)
  for i, c in ipairs(cases) do
    -- Announced before the call, so that an abort shows which call it was.
    io.stdout:write(string.format("%3d MiB: case %d\n", headroom, i))
    io.stdout:flush()
    local ok, result = pcall(c[2], unpack(c[3]))
    oks[i], errs[i] = ok, not ok and result
    result = nil -- luacheck: ignore
    collectgarbage("collect")
  end
  held[1] = nil
  collectgarbage("collect")
  local row = {}
  for i, c in ipairs(cases) do
    row[i] = oks[i] and "+" or "."
    t.check(oks[i] or t.is_memory_error(errs[i], c[1]), names[i] .. " at " .. headroom .. " MiB: " .. tostring(errs[i]))
  end
  t.say(string.format("%3d MiB headroom: %s", headroom, table.concat(row)))
end
t.check(map.generate_text(60, 20, 42) == map.render(map.generate(60, 20, 42)), "the module no longer makes maps")
t.done()
