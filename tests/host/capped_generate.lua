-- A capped Lua heap: a host capping the Lua heap (tests/host/capped, 40 MiB)
-- runs 100 x pcall(map.generate, 2000, 2000, i). The table of rows needs
-- ~64 MiB, so each call must fail with a catchable "not enough memory" and
-- leave nothing behind: RSS may not grow by more than 20 MB (it grew by
-- 432 MB when the result leaked). Then the state still makes maps.
-- luacheck: globals host
package.path = arg[0]:gsub("[^/]+$", "") .. "?.lua;" .. package.path
local t = require "lib"
local map = require "map"

t.check(host, "run this under tests/host/capped")
local CALLS, MAX_GROWTH_KIB = 100, 20 * 1024

-- Warm up: the first calls size malloc's arenas and Lua's string cache.
for i = 1, 3 do pcall(map.generate, 2000, 2000, -i) end
local before = t.settled_rss_kib()
local failed = 0
for i = 1, CALLS do
  local ok, err = pcall(map.generate, 2000, 2000, i)
  t.check(not ok, "call " .. i .. ": map.generate(2000, 2000) succeeded under a 40 MiB Lua heap")
  t.check(t.is_memory_error(err, "map.generate"), "call " .. i .. ": unexpected error: " .. tostring(err))
  if i == 1 then t.say("error: ", err) end
  failed = failed + 1
end
local after = t.settled_rss_kib()
t.say(string.format("%d calls failed as expected; RSS %d -> %d KiB (%+d KiB); Lua heap %d KiB, %d allocations refused",
  failed, before, after, after - before, host.used() // 1024, host.refused()))
t.check(after - before < MAX_GROWTH_KIB, string.format("RSS grew by %d KiB over %d calls", after - before, CALLS))

local m = map.generate(60, 20, 42)
t.check(#m == 20 and #m[1] == 60 and map.reachable(m), "the state no longer makes a 60x20 map")
t.done()
