-- A capped Lua heap, the small leaks: in tests/host/capped, 100,000 cheap
-- calls, pcall(map.generate_text, 6, 5, i) (a 35-byte result), twice:
-- 1. with the Lua heap capped at exactly what is in use, so that neither
--    the result nor the module's error message can be pushed: each call
--    must fail with "not enough memory";
-- 2. with 1,000 bytes to spare but a 60x20 map (a 1,220-byte result), so
--    that the result cannot be pushed but the message can: each call must
--    fail with "map.generate_text: not enough memory for the result".
-- RSS must stay flat in each: < 2 MB over the 100,000 calls, i.e. under
-- 21 bytes a call. (A Rust String alive in a frame that lua_error jumps
-- over is never freed: ~50-100 bytes of heap each time.)
-- luacheck: globals host
package.path = arg[0]:gsub("[^/]+$", "") .. "?.lua;" .. package.path
local t = require "lib"
local map = require "map"

t.check(host, "run this under tests/host/capped")
local CALLS, MAX_GROWTH_KIB = 100000, 2 * 1024
local generate_text, pcall = map.generate_text, pcall
local MESSAGE = "map.generate_text: not enough memory for the result"

-- `calls` calls of generate_text(width, height, i) with `spare` bytes of
-- heap above what is in use; returns how many failed as `expected` and the
-- first other outcome.
local function run(calls, spare, width, height, expected)
  local failures, other = 0, nil
  collectgarbage("collect")
  if spare == 0 then collectgarbage("stop") end -- nothing to collect: no room
  local cap = host.cap()
  host.cap(host.used() + spare)
  for i = 1, calls do
    local ok, err = pcall(generate_text, width, height, i)
    if ok then
      other = other or "a call succeeded"
    elseif expected[err] then
      failures = failures + 1
    else
      other = other or err
    end
  end
  host.cap(cap)
  collectgarbage("restart")
  return failures, other
end

local problems = {}
for _, phase in ipairs({
  { "heap full", 0, 6, 5, { ["not enough memory"] = true, [MESSAGE] = true } },
  { "room for the message only", 1000, 60, 20, { [MESSAGE] = true } },
}) do
  local what, spare, width, height, expected = phase[1], phase[2], phase[3], phase[4], phase[5]
  run(1000, spare, width, height, expected) -- warm-up
  local before = t.settled_rss_kib()
  local failures, other = run(CALLS, spare, width, height, expected)
  local after = t.settled_rss_kib()
  t.check(other == nil, what .. ": unexpected result: " .. tostring(other))
  t.say(string.format("%s: %d calls of generate_text(%d, %d) failed as expected; RSS %d -> %d KiB (%+d KiB)",
    what, failures, width, height, before, after, after - before))
  if after - before >= MAX_GROWTH_KIB then
    problems[#problems + 1] = string.format("%s: RSS grew by %d KiB over %d calls (%.0f bytes a call)",
      what, after - before, CALLS, (after - before) * 1024 / CALLS)
  end
end
t.check(#problems == 0, table.concat(problems, "; "))
t.check(map.generate_text(6, 5, 1) == map.render(map.generate(6, 5, 1)), "the state no longer makes maps")
t.done()
