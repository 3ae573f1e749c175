-- Issue 9, defect 2, the small leaks: in tests/host/capped, 100,000 cheap
-- calls (pcall(map.generate_text, 6, 5, i)) with the Lua heap capped at
-- exactly what is in use, so that neither the result nor the module's own
-- error message can be pushed. Each must fail with "not enough memory", and
-- RSS must stay flat: < 2 MB over all the calls, i.e. under 21 bytes a call
-- (a Rust String jumped over by the error is ~50-100 bytes of heap).
package.path = arg[0]:gsub("[^/]+$", "") .. "?.lua;" .. package.path
local t = require "lib"
local map = require "map"

t.check(host, "run this under tests/host/capped")
local CALLS, MAX_GROWTH_KIB = 100000, 2 * 1024
local generate_text, pcall = map.generate_text, pcall

local function run(calls)
  local failures, other = 0, nil
  collectgarbage("collect")
  collectgarbage("stop")
  local cap = host.cap()
  host.cap(host.used())
  for i = 1, calls do
    local ok, err = pcall(generate_text, 6, 5, i)
    if ok then
      other = other or "a call succeeded"
    elseif err == "not enough memory" or err == "map.generate_text: not enough memory for the result" then
      failures = failures + 1
    else
      other = other or err
    end
  end
  host.cap(cap)
  collectgarbage("restart")
  return failures, other
end

run(1000) -- warm-up
local before = t.settled_rss_kib()
local failures, other = run(CALLS)
local after = t.settled_rss_kib()
t.check(other == nil, "unexpected result: " .. tostring(other))
t.say(string.format("%d calls failed with not enough memory; RSS %d -> %d KiB (%+d KiB)",
  failures, before, after, after - before))
t.check(after - before < MAX_GROWTH_KIB, string.format("RSS grew by %d KiB over %d calls (%.0f bytes a call)",
  after - before, CALLS, (after - before) * 1024 / CALLS))
t.check(map.generate_text(6, 5, 1) == map.render(map.generate(6, 5, 1)), "the state no longer makes maps")
t.done()
