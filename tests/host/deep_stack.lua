-- Issue 9, defect 3: calls at the bottom of a deep recursion, with the Lua
-- stack nearly full (on Lua 5.4 and LuaJIT; tests/host/run.sh). For a few
-- amounts of free stack slots below what a 2000x2000 result needs (the
-- module checks for 260 before pushing a table of rows), recurses until
-- just that many are left, then calls pcall(map.new_map, 2000, 2000) and
-- pcall(map.generate, 2000, 2000, i) 50 times each. On Lua 5.4 each call
-- must fail with a catchable stack overflow; the level was built first and
-- used to leak (195 MB over 50 calls), so RSS must stay flat (< 20 MB over
-- all). On LuaJIT new_map and generate build their tables in Lua, which
-- needs no extra slots, so a call may also succeed. Then the stack unwinds
-- and the module still makes maps.
package.path = arg[0]:gsub("[^/]+$", "") .. "?.lua;" .. package.path
local t = require "lib"
local map = require "map"

local unpack = table.unpack or unpack
local CALLS = jit and 5 or 50
local MAX_GROWTH_KIB = 20 * 1024
local TARGETS = { 25, 40, 80, 160, 240 } -- free slots wanted at the bottom

-- Calls f() with `depth` Lua frames of `dive` below the caller.
local function dive(depth, f)
  if depth == 0 then return f() end
  local result = dive(depth - 1, f)
  return result -- not a tail call: the frame stays
end

-- Free stack slots here: the largest n that table.unpack can push (it checks
-- the stack for n + 1 slots with lua_checkstack, as the module does).
local probe = {}
local function free_slots()
  local lo, hi = 0, 2 * 1000 * 1000
  while lo < hi do
    local mid = math.floor((lo + hi + 1) / 2)
    if pcall(unpack, probe, 1, mid) then lo = mid else hi = mid - 1 end
  end
  return lo
end

local function free_at(depth)
  local ok, free = pcall(dive, depth, free_slots)
  return ok and free or -1
end

-- Each `dive` frame takes the same slots: the depth leaving `want` free
-- slots is found from two measures, then adjusted.
local FREE_AT_TOP = free_at(0)
local PER_FRAME = (FREE_AT_TOP - free_at(1000)) / 1000
local function depth_for(want)
  local depth = math.floor((FREE_AT_TOP - want) / PER_FRAME)
  while depth > 0 and free_at(depth) < want do depth = depth - 1 end
  while free_at(depth + 1) >= want do depth = depth + 1 end
  return depth
end
t.say(string.format("%s: %d free stack slots at the top, %g per frame of recursion",
  t.INTERPRETER, FREE_AT_TOP, PER_FRAME))

local stats = { failed = 0, succeeded = 0, module_messages = 0 }
local first_error
local function calls()
  for i = 1, CALLS do
    for _, call in ipairs({ { "map.new_map", map.new_map, 2000, 2000 }, { "map.generate", map.generate, 2000, 2000, i } }) do
      local ok, err = pcall(call[2], call[3], call[4], call[5])
      if ok then
        t.check(jit ~= nil, call[1] .. " succeeded with the stack nearly full on Lua 5.4")
        t.check(#err == 2000 and #err[1] == 2000, call[1] .. " returned a wrong map")
        stats.succeeded = stats.succeeded + 1
      else
        t.check(type(err) == "string" and err:find("stack overflow", 1, true), call[1] .. ": unexpected error: " .. tostring(err))
        if err:find("^" .. call[1]:gsub("%.", "%%.") .. ": ") then stats.module_messages = stats.module_messages + 1 end
        first_error = first_error or err
        stats.failed = stats.failed + 1
      end
      err = nil -- luacheck: ignore
    end
  end
  return true
end

local before = t.settled_rss_kib()
for _, want in ipairs(TARGETS) do
  local depth = depth_for(want)
  local free
  local ok, err = pcall(dive, depth, function()
    free = free_slots()
    return calls()
  end)
  t.check(ok, "the calls at depth " .. depth .. " raised: " .. tostring(err))
  t.say(string.format("  depth %d, %d slots free: %d calls each to new_map and generate", depth, free, CALLS))
end
local after = t.settled_rss_kib()
t.say(string.format("%d calls failed (%d with the module's own message, e.g. %q), %d succeeded; RSS %d -> %d KiB (%+d KiB)",
  stats.failed, stats.module_messages, tostring(first_error), stats.succeeded, before, after, after - before))
t.check(after - before < MAX_GROWTH_KIB, string.format("RSS grew by %d KiB", after - before))
if not jit then
  t.check(stats.module_messages > 0, "no call reached the module's own stack check: the depths are wrong")
end
t.check(map.generate_text(60, 20, 42) == map.render(map.generate(60, 20, 42)), "the module no longer makes maps")
t.done()
