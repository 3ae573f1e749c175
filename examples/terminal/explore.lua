-- examples/terminal/explore.lua: a bot explores a generated level, and
-- every turn the 80x24 camera around "@" is drawn with one lvl:frame call
-- (examples/terminal/screen.lua turns it into text); what "@" sees comes
-- from one lvl:fov call that marks the memory and gives the visible field.
--
--   LUA_CPATH_5_4='build/lib/lua/5.4/?.so' lua5.4 examples/terminal/explore.lua [seed [--plain] [--every N]]
--   LUA_CPATH='build/lib/lua/5.1/?.so'     luajit examples/terminal/explore.lua 7 --plain
--
-- It prints a frame every N turns (default 100) and the last, with a
-- status line; `--plain` leaves out the ANSI codes (spec/terminal_spec.lua
-- compares the two interpreters' output).
local here = (arg and arg[0] or ""):match("^(.*)/[^/]*$") or "."
package.path = here .. "/?.lua;" .. package.path
local map = require "map"
local screen = require "screen"

local seed, plain, every = 7, false, 100
local i = 1
while arg and arg[i] do
  if arg[i] == "--plain" then
    plain = true
  elseif arg[i] == "--every" then
    i = i + 1
    every = tonumber(arg[i])
  else
    seed = tonumber(arg[i]) or seed
  end
  i = i + 1
end

local W, H = 80, 24
local lvl = map.level { width = 120, height = 60, seed = seed, algorithm = "bsp", doors = true }
local memory = lvl:field()
local at = lvl.player
-- The level's things but "@": the items and the up stairs' "@" moved out.
local items = {}
for _, thing in ipairs(lvl:things()) do
  if thing.char ~= "@" then items[#items + 1] = thing end
end
local hero = { { x = at.x, y = at.y, char = "@" } }

local function draw(turn, visible)
  local x, y = at.x - math.floor(W / 2), at.y - math.floor(H / 2)
  local rows, states = lvl:frame(x, y, W, H, { visible = visible, memory = memory, things = hero, items = items })
  io.write(("turn %d, @ at %d,%d\n"):format(turn, at.x, at.y))
  io.write(screen.draw(rows, states, not plain), plain and "\n" or "")
end

local turn, way, why, visible = 0
repeat
  turn = turn + 1
  visible = lvl:fov(at, 8, { into = memory, field = true })
  if turn % every == 1 then draw(turn, visible) end
  way, why = lvl:explore(memory, at)
  if way then
    local ahead = way[2]
    if lvl:get(ahead) == "+" then lvl:set(ahead, "'") end
    at = ahead
    hero[1].x, hero[1].y = at.x, at.y
  end
until not way
draw(turn, visible)
print(why .. " in " .. turn .. " turns")
