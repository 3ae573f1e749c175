-- Out of address space, the short repro: under `ulimit -v 60000` (60 MB of
-- address space; tests/host/run.sh), on Lua 5.4 and LuaJIT, three calls
-- pcall(map.generate, 2000, 2000, i). Each must either return the map or
-- fail with a catchable "not enough memory"; the process must live on (the
-- second call used to abort it on Lua 5.4: Rust's "memory allocation of N
-- bytes failed", exit 134). On Lua 5.4 the table of rows alone (~64 MB)
-- cannot fit, so there each call must fail. Then the module still makes a
-- small map.
package.path = arg[0]:gsub("[^/]+$", "") .. "?.lua;" .. package.path
local t = require "lib"
local map = require "map"
t.interpreted()

for i = 1, 3 do
  local ok, err = pcall(map.generate, 2000, 2000, i)
  t.say(t.INTERPRETER, ": call ", i, ": ", tostring(ok), ", ", tostring(err))
  if ok then
    t.check(jit ~= nil, "call " .. i .. " succeeded on Lua 5.4, where its table cannot fit")
    t.check(#err == 2000 and #err[1] == 2000, "call " .. i .. " returned a wrong map")
  else
    t.check(t.is_memory_error(err, "map.generate"), "call " .. i .. ": unexpected error: " .. tostring(err))
  end
  -- No collection between calls: the repro relies on call 1's garbage.
end
collectgarbage("collect")
local m = map.generate(60, 20, 42)
t.check(#m == 20 and map.reachable(m), "the module no longer makes a 60x20 map")
t.done()
