-- A nearly full Lua stack: calls at the bottom of a deep recursion, with the Lua
-- stack nearly full (on Lua 5.4 and LuaJIT; tests/host/run.sh). For a few
-- amounts of free stack slots below what a 2000x2000 result needs (the
-- module checks for 260 before pushing a table of rows), recurses until
-- just that many are left, then calls pcall(map.new_map, 2000, 2000) and
-- pcall(map.generate, 2000, 2000, i) 5 times each, and a path (see
-- calls()); all that twice, the first round as a warm-up. On Lua 5.4 each
-- call must fail with a catchable stack overflow; the result was built
-- first and used to leak (195 MB over 50 calls), so RSS must stay flat
-- over the second round (< 20 MB over its 30 calls). On LuaJIT new_map
-- and generate build their tables in Lua, which needs no extra slots, so a
-- call may also succeed; its 32 MB of garbage makes RSS swing by tens of
-- MB, so there RSS is shown, not checked. On both, every overflow must be
-- the module's own message, `map.new_map: stack overflow`. Either way the
-- stack then unwinds and the module still makes maps.
package.path = arg[0]:gsub("[^/]+$", "") .. "?.lua;" .. package.path
local t = require "lib"
local map = require "map"

local unpack = table.unpack or unpack
-- Interpreted on LuaJIT: before luajit2 2.1-20230911 (Debian 12 ships
-- 2.1-20230119), an error thrown from compiled code can find a wrong frame
-- and crash LuaJIT itself, with no module loaded (upstream 2d8300c1 and
-- d5bbf9cd; docs/hardening.md), and the search below throws stack overflows
-- from compiled loops. That is not what this test is about.
if jit then jit.off() end
local CALLS = 5
local MAX_GROWTH_KIB = 20 * 1024
local TARGETS = { 30, 80, 240 } -- free slots wanted at the bottom

-- Calls f() with `depth` Lua frames of `dive` below the caller.
local function dive(depth, f)
  if depth == 0 then return f() end
  local result = dive(depth - 1, f)
  return result -- not a tail call: the frame stays
end

-- Free stack slots here, up to `cap` (default 10,000): the largest n that
-- table.unpack can push (it checks for n + 1 slots with lua_checkstack, as
-- the module does; LuaJIT's refuses more than 8,000 at once anyway).
local probe = {}
local function free_slots(cap)
  local lo, hi = 0, cap or 10000
  while lo < hi do
    local mid = math.floor((lo + hi + 1) / 2)
    if pcall(unpack, probe, 1, mid) then lo = mid else hi = mid - 1 end
  end
  return lo
end

local function free_at(depth, cap)
  local ok, free = pcall(dive, depth, function() return free_slots(cap) end)
  return ok and free or -1
end

-- The depth leaving at least `want` free slots, from the slots free at the
-- top and per frame of `dive`. On Lua 5.4 (a million slots) that is
-- measured with shallow dives: a probe at the bottom of the stack costs
-- ~50 ms there (each failed probe shrinks and regrows the 16 MB stack).
-- LuaJIT's lua_checkstack refuses more than 8,000 slots at once, so there
-- (65,500 slots in all) the bottom is found by a search, which is cheap.
local depth_for
local FREE_AT_TOP = free_at(0, 2 * 1000 * 1000)
if FREE_AT_TOP < 10000 then
  local lo, hi = 0, 200 * 1000 -- the deepest recursion that still runs
  while lo < hi do
    local mid = math.floor((lo + hi + 1) / 2)
    if pcall(dive, mid, function() end) then lo = mid else hi = mid - 1 end
  end
  local max_depth = lo
  depth_for = function(want) -- a frame takes at least one slot
    local low, high = math.max(0, max_depth - want), max_depth
    while low < high do
      local mid = math.floor((low + high + 1) / 2)
      if free_at(mid) >= want then low = mid else high = mid - 1 end
    end
    return low
  end
else
  local PER_FRAME = (FREE_AT_TOP - free_at(10000, 2 * 1000 * 1000)) / 10000
  local function estimate(want) return math.floor((FREE_AT_TOP - want) / PER_FRAME) end
  -- The estimate misses by a constant few frames: one probe at the bottom
  -- measures by how many.
  local guess = estimate(100)
  local correction = math.floor((free_at(guess) - 100) / PER_FRAME)
  depth_for = function(want)
    local depth = estimate(want) + correction
    while depth > 0 and free_at(depth) < want do depth = depth - 1 end
    return depth
  end
end

-- Runs at the bottom of the stack: nothing here may need more than a few
-- slots, so problems are noted, and reported once the stack has unwound.
local stats = { failed = 0, succeeded = 0, module_messages = 0, paths = 0, path_overflows = 0 }
local PATH_MAP = t.aliased_map(60, 60, ".")
local function note(problem) stats.problem = stats.problem or problem end
local function calls(depth)
  for i = 1, CALLS do
    for _, call in ipairs({ { "map.new_map", map.new_map, 2000, 2000, n = 4 },
      { "map.generate", map.generate, 2000, 2000, i, n = 5 } }) do
      local ok, err = pcall(call[2], unpack(call, 3, call.n))
      if ok then
        if not jit then note(call[1] .. " succeeded at depth " .. depth .. " on Lua 5.4") end
        if not (#err == 2000 and #err[1] == 2000) then note(call[1] .. " returned a wrong map") end
        stats.succeeded = stats.succeeded + 1
      else
        if not (type(err) == "string" and err:find("stack overflow", 1, true)) then
          note(call[1] .. ": unexpected error: " .. tostring(err))
        elseif err:find(call[1], 1, true) == 1 then
          stats.module_messages = stats.module_messages + 1
          stats.example = stats.example or err
        end
        stats.failed = stats.failed + 1
      end
      err = nil -- luacheck: ignore
    end
    -- path, which LuaJIT wraps in Lua: it may succeed (its result needs few
    -- slots), but a stack overflow must read as the C function's on Lua 5.4,
    -- "map.path: stack overflow" (before, on LuaJIT, the wrapper's own frame
    -- overflowed outside its pcall: "map/luajit.lua:430: stack overflow").
    local ok, err = pcall(map.path, PATH_MAP, 1, 1, 60, 60)
    if ok then
      stats.paths = stats.paths + 1
    elseif err ~= "map.path: stack overflow" then
      note("map.path at depth " .. depth .. ": " .. tostring(err))
    else
      stats.path_overflows = stats.path_overflows + 1
    end
    err = nil -- luacheck: ignore
  end
  return true
end

local DEPTHS = {}
for i, want in ipairs(TARGETS) do DEPTHS[i] = depth_for(want) end

-- One round: the calls at each target depth.
local function round(show)
  for _, depth in ipairs(DEPTHS) do
    local free
    local ok, err = pcall(dive, depth, function()
      free = free_slots()
      return calls(depth)
    end)
    t.check(ok, "the calls at depth " .. depth .. " raised: " .. tostring(err))
    if show then
      t.say(string.format("  depth %d, %d slots free: %d calls each to new_map and generate", depth, free, CALLS))
    end
  end
end

-- A first round warms up (malloc's heap, the 16 MB Lua stack); the second
-- is measured.
round(true)
local before = t.settled_rss_kib()
round(false)
local after = t.settled_rss_kib()
t.check(stats.problem == nil, tostring(stats.problem))
t.say(string.format("map.path: %d overflows, all with its own message; %d paths", stats.path_overflows, stats.paths))
-- Every overflow reads as the module's own, on LuaJIT too (before, there,
-- the wrappers' Lua frames overflowed outside their pcall: a bare
-- "stack overflow" with a position in map/luajit.lua).
t.check(stats.module_messages == stats.failed, string.format("%d of %d stack overflows without the module's message",
  stats.failed - stats.module_messages, stats.failed))
t.say(string.format(
  "%d calls failed (%d with the module's own message, e.g. %q), %d succeeded; RSS %d -> %d KiB (%+d KiB)",
  stats.failed, stats.module_messages, tostring(stats.example), stats.succeeded, before, after, after - before))
if not jit then
  t.check(after - before < MAX_GROWTH_KIB, string.format("RSS grew by %d KiB", after - before))
  t.check(stats.module_messages > 0, "no call reached the module's own stack check: the depths are wrong")
end
t.check(map.generate_text(60, 20, 42) == map.render(map.generate(60, 20, 42)), "the module no longer makes maps")
t.done()
