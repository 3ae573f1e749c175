-- bench/mem.lua: peak RSS of one way of making a map table, in its own process.
--
--   lua5.4 bench/mem.lua KIND [WIDTH HEIGHT [ALGORITHM]]   (default 2000 2000)
--
-- KIND: generate (map.generate, rooms), generate-cave (map.generate, cave),
-- generate-text (map.generate_text, rooms: the text alone, no table),
-- new_map (the module's floor: map.new_map), lua-rows (a table of rows built
-- in Lua: bench/baseline.lua's new_map), baseline (the pure-Lua rooms
-- generator), baseline-cave. ALGORITHM (any of map.ALGORITHMS) makes
-- generate and generate-text call map.generate{width=, height=, seed=1,
-- algorithm=ALGORITHM} and map.generate_text{...} (bench/generators.lua).
--
-- Prints one line: KIND, VmHWM (peak resident set) before the work and after
-- it, in KiB, read from /proc/self/status. The table (or text) stays
-- referenced until VmHWM is read, so the peak includes it.

local here = (arg and arg[0] or ""):match("^(.*)/[^/]*$") or "."
package.path = here .. "/?.lua;" .. package.path

local kind = arg[1] or "generate"
local w = tonumber(arg[2]) or 2000
local h = tonumber(arg[3]) or 2000
local algorithm = arg[4]

local function hwm()
  local f = assert(io.open("/proc/self/status", "r"))
  local status = f:read("*a")
  f:close()
  return tonumber(status:match("VmHWM:%s*(%d+)"))
end

local map = require "map"
local B = require "baseline"

local before = hwm()
local m
if kind == "generate" and algorithm then
  m = map.generate { width = w, height = h, seed = 1, algorithm = algorithm }
elseif kind == "generate" then
  m = map.generate(w, h, 1)
elseif kind == "generate-text" then
  m = map.generate_text { width = w, height = h, seed = 1, algorithm = algorithm }
elseif kind == "generate-cave" then
  m = map.generate { width = w, height = h, seed = 1, algorithm = "cave" }
elseif kind == "new_map" then
  m = map.new_map(w, h)
elseif kind == "lua-rows" then
  m = B.new_map(w, h)
elseif kind == "baseline" then
  m = B.generate(w, h, 1)
elseif kind == "baseline-cave" then
  m = B.generate { width = w, height = h, seed = 1, algorithm = "cave" }
else
  error("unknown kind " .. kind)
end
local after = hwm()
if type(m) == "string" then
  assert(#m == w * h + h - 1)
else
  assert(#m == h and #m[1] == w)
end
io.write(string.format("%s %d %d\n", kind, before, after))
