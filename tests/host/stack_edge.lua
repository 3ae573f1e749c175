-- The edge of the Lua stack, every depth (on Lua 5.4 and LuaJIT;
-- tests/host/run.sh): from 80 frames above the deepest a plain recursion
-- reaches down to that depth, each call below either answers or fails
-- with a stack overflow that says whose it is:
--   "<label>: stack overflow": the module's, raised inside the call (or a
--   call it makes first: map.rng in map.rng(1):random(5));
--   the interpreter's own, raised before the module could run (entering a
--   C function needs 20 free slots; Lua checks before the function runs):
--   on Lua 5.4 at the caller's line ("stack_edge.lua:<line>: stack
--   overflow"), on LuaJIT bare ("stack overflow") as for any C function
--   (string.rep gives the same), also where the route's Lua calls a C
--   function of its own (a block's first look-up, a C method); and on
--   LuaJIT, where a function of the route is Lua, at its first line
--   ("map/luajit/natives.lua:<line>: stack overflow"), as LuaJIT places an
--   overflow in the function that could not start.
-- Anything else, a crash or a hang fails. Prints how many depths gave
-- which, by call.
package.path = arg[0]:gsub("[^/]+$", "") .. "?.lua;" .. package.path
local t = require "lib"
local map = require "map"

-- Interpreted on LuaJIT: see deep_stack.lua (an error thrown from compiled
-- code can crash luajit2 2.1-20230119 itself).
if jit then jit.off() end
local SPAN = 80

local function dive(depth, f)
  if depth == 0 then return f() end
  local result = dive(depth - 1, f)
  return result -- not a tail call: the frame stays
end

-- The deepest `dive` that returns.
local lo, hi = 1, 4000000
while lo < hi do
  local mid = math.floor((lo + hi + 1) / 2)
  if pcall(dive, mid, function() return true end) then lo = mid else hi = mid - 1 end
end

local m = map.new_map(5, 5)
local lvl = map.level(m)
local CALLS = {
  { "map.new_map", function() return map.new_map(50, 50) end },
  { "map.generate", function() return map.generate(60, 20, 1) end },
  { "map.fov", function() return map.fov(m, 2, 2) end },
  { "map.rng", function() return map.rng(1) end },
  { "rng:random", function() return map.rng(1):random(5) end },
  { "scheduler:next", function() return map.scheduler():next() end },
  { "level:get", function() return lvl:get(2, 2) end },
  { "level:fov", function() return lvl:fov(2, 2, 3) end },
}
local here = arg[0]:match("[^/]+$")

-- Whose stack overflow `err` is: the module's (a call's label: the one
-- tried, or one it makes first, as map.rng before rng:random).
local function whose(err)
  if type(err) == "string" and err:match("^[%w_]+[.:][%w_]+: stack overflow$") then return "module" end
  if type(err) == "string" and err:match("^[^:]*" .. here:gsub("%p", "%%%0") .. ":%d+: stack overflow$") then
    return "interpreter"
  end
  if jit and (err == "stack overflow" or err:match("^map/luajit/[%w_]+%.lua:%d+: stack overflow$")) then
    return "interpreter"
  end
end

local counts = {}
dive(lo - SPAN - 10, function()
  for _, call in ipairs(CALLS) do
    local label, f = call[1], call[2]
    local count = { answered = 0, module = 0, interpreter = 0 }
    for depth = 0, SPAN + 10 do
      local ok, err = pcall(dive, depth, f)
      if ok then
        count.answered = count.answered + 1
      else
        local who = whose(err)
        t.check(who, ("%s at %d frames above the deepest: %s"):format(label, SPAN + 10 - depth, tostring(err)))
        count[who] = count[who] + 1
      end
    end
    counts[#counts + 1] = ("%s %d/%d/%d"):format(label, count.answered, count.module, count.interpreter)
  end
end)
t.say(t.INTERPRETER, ": ", SPAN + 11, " depths (answered/module's/interpreter's): ", table.concat(counts, ", "))
print("ok: stack_edge")
