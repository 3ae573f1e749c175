-- Out of address space: run under `ulimit -v 400000` (tests/host/run.sh), on
-- Lua 5.4 and LuaJIT. Fills the Lua heap (strings from string.rep until it
-- fails, kept), then calls every export with a big input. With the address
-- space used up, both Lua and the module's Rust allocations fail: each call
-- must return a catchable "not enough memory" error and the process must
-- live on (a Rust allocation failure aborts it: exit 134, "memory
-- allocation of N bytes failed"). RSS may not grow by more than 20 MB over
-- the calls. Then the heap is freed and the module still makes maps.
package.path = arg[0]:gsub("[^/]+$", "") .. "?.lua;" .. package.path
local t = require "lib"
local map = require "map"
t.interpreted()

local MAX_GROWTH_KIB = 20 * 1024
local expected = map.generate_text(60, 20, 42)
local cases = t.every_export(map, 2000)
local unpack = table.unpack or unpack
-- Results are stored in tables sized before the heap is full.
local oks, errs = {}, {}
for i = 1, #cases do oks[i], errs[i] = false, false end

t.say(t.INTERPRETER, ": ", #cases, " calls with the heap full; a crash here means a call allocated past its",
  " memory check (exit 134: Rust aborted)")
local held = { t.fill_heap() } -- luacheck: ignore 241 (only held, to keep the heap full)
local bytes = held[2]
local before = t.rss_kib()
for i, c in ipairs(cases) do
  -- Announced before the call, so that an abort shows which call it was.
  io.stdout:write(c[1], " ", c[4] or "", "\n")
  io.stdout:flush()
  oks[i], errs[i] = pcall(c[2], unpack(c[3]))
end
local after = t.settled_rss_kib() -- partial results are garbage by now
held[1] = nil
collectgarbage("collect")

t.say(string.format("heap filled with %d MiB; RSS over the calls %d -> %d KiB (%+d KiB)",
  math.floor(bytes / 1048576), before, after, after - before))
for i, c in ipairs(cases) do
  local what = c[1] .. (c[4] and " " .. c[4] or "")
  t.say("  ", what, ": ", tostring(oks[i]), ", ", tostring(errs[i]))
  t.check(not oks[i] or c.small, what .. " succeeded with the heap full")
  -- The module's own message, on LuaJIT too (its route builds results in Lua).
  t.check(oks[i] or t.is_memory_error(errs[i], c[1], true), what .. ": unexpected error: " .. tostring(errs[i]))
end
t.check(after - before < MAX_GROWTH_KIB, string.format("RSS grew by %d KiB", after - before))
t.check(map.generate_text(60, 20, 42) == expected, "the module no longer makes maps")
t.done()
