-- What reading a map costs, whatever its tables' capacity (tests/host/run.sh,
-- on Lua 5.4 and LuaJIT): a bench-style bound, each call under 1 s of CPU
-- (os.clock), not a timed unit test. A map's shape is its probe border
-- (docs/hardening.md), so a reader pays for the cells and rows it reads and
-- O(log n) more, never for a table's unused array slots. Before: every cell
-- `visible` read re-read its row's length and walked the row's slots past
-- it (`visible` across a row of 131,073 cells built by appending: 7 s on
-- Lua 5.4, 19.5 s on LuaJIT), and every reader walked each row's unused
-- slots (4 x 1,000 rows aliasing a 4-cell table that once held 2^20 cells:
-- 0.6 s to render, linear in the height; the 4 x 1,000,000 map here would
-- take minutes, past run.sh's timeout).
package.path = arg[0]:gsub("[^/]+$", "") .. "?.lua;" .. package.path
local t = require "lib"
local map = require "map"

local BOUND = 1.0 -- seconds of CPU a call may take

-- Runs f, checks it took under BOUND, and says how long it took.
local function timed(what, f, check)
  local start = os.clock()
  local result = f()
  local took = os.clock() - start
  t.check(check(result), what .. ": wrong result")
  t.say(string.format("%s: %.3f s", what, took))
  t.check(took < BOUND, string.format("%s took %.2f s (bound %.1f s)", what, took, BOUND))
end

-- One row of 131,073 cells, built by appending: its array part has room
-- for 262,144.
local W = 131073
local long = {}
for _ = 1, W do long[#long + 1] = "." end
local wide = { long }
timed("visible across 1x131073", function() return map.visible(wide, 1, 1, W, 1) end,
  function(seen) return seen == true end)
timed("fov along 1x131073", function() return map.fov(wide, 1, 1) end,
  function(vis) return vis[1][W] == true end)

-- 1,000,000 rows aliasing one 4-cell table that once held 2^20 cells.
local slack = {}
for x = 1, 1048576 do slack[x] = "." end
for x = 1048576, 5, -1 do slack[x] = nil end
local H = 1000000
local m = {}
for y = 1, H do m[y] = slack end
timed("render 4x1000000 slack rows", function() return map.render(m) end,
  function(text) return #text == 5 * H - 1 end)
timed("reachable 4x1000000 slack rows", function() return map.reachable(m) end,
  function(ok) return ok == false end)
timed("fov radius 8 on slack rows", function() return map.fov(m, 2, H / 2, 8) end,
  function(vis) return vis[H / 2][4] == true end)
timed("distances max 8 on slack rows", function() return map.distances(m, { x = 2, y = H / 2 }, { max = 8 }) end,
  function(d) return d[H / 2 + 8][2] == 8 end)
timed("visible along slack rows", function() return map.visible(m, 1, 1, 1, H) end,
  function(seen) return seen == true end)
t.done()
