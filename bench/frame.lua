-- bench/frame.lua: a whole 80x50 frame, on the interpreter that runs it:
-- lvl:frame (map.frame on a level; rows, and bytes) against drawing the same frame cell by cell
-- as docs/api.md "Reading a field cell by cell" shows (f:get for each cell,
-- or f:table once), and the terminal example's whole drawing
-- (examples/terminal/screen.lua) from each (docs/performance.md, "A frame").
--
--   LUA_CPATH_5_4='build/lib/lua/5.4/?.so' lua5.4 bench/frame.lua
--   LUA_CPATH='build/lib/lua/5.1/?.so'     luajit bench/frame.lua
--
-- The level: map.level{width = 80, height = 50, seed = 7, algorithm =
-- "bsp", doors = true}; @ explores 150 turns (its memory), 10 monsters
-- sampled, the items its things; the frame shows visible (fov radius 8),
-- remembered and unknown cells, the monsters and @ over the visible ones,
-- the items over the visible and remembered ones. Before timing, each
-- variant's text is checked to be the frame's. Method and settings
-- (BENCH_ROUNDS, BENCH_ROUND_S, BENCH_ONLY) as bench/measure.lua's.
local here = (arg and arg[0] or ""):match("^(.*)/[^/]*$") or "."
package.path = here .. "/?.lua;" .. here .. "/../examples/terminal/?.lua;" .. here .. "/../?.lua;" .. package.path

local map = require "map"
local measure = require "measure"
local screen = require "screen"

local W, H = 80, 50
local lvl = map.level { width = W, height = H, seed = 7, algorithm = "bsp", doors = true }
local memory = lvl:field()
local at = lvl.player
for _ = 1, 150 do
  lvl:fov(at, 8, { into = memory })
  local way = lvl:explore(memory, at)
  if not way then break end
  at = way[2]
end
local visible = lvl:fov(at, 8, { into = memory, field = true })
local things = lvl:sample(10, { seed = 1 })
for _, t in ipairs(things) do t.char = "g" end
things[#things + 1] = { x = at.x, y = at.y, char = "@" }
local items = {}
for _, t in ipairs(lvl:things()) do
  if t.char ~= "@" then items[#items + 1] = t end
end
local options = { visible = visible, memory = memory, things = things, items = items }
local byte_options = { visible = visible, memory = memory, things = things, items = items, bytes = true }

-- What stands or lies at each cell, by y * (W + 1) + x: the game's lookup.
local thing_at, item_at = {}, {}
for _, t in ipairs(things) do thing_at[t.y * (W + 1) + t.x] = t.char end
for _, t in ipairs(items) do item_at[t.y * (W + 1) + t.x] = t.char end

local concat = table.concat

-- The frame drawn cell by cell: `seen(x, y)` and `remembered(x, y)` read
-- the fields (by get or by their tables); rows and states as lvl:frame's.
local function by_cells(seen, remembered)
  local rows, states = {}, {}
  local chars, digits = {}, {}
  for y = 1, H do
    for x = 1, W do
      local k = y * (W + 1) + x
      local c, s = " ", "0"
      if seen(x, y) then
        c, s = thing_at[k] or item_at[k] or lvl:get(x, y), "2"
      elseif remembered(x, y) then
        c, s = item_at[k] or lvl:get(x, y), "1"
      end
      chars[x], digits[x] = c, s
    end
    rows[y], states[y] = concat(chars), concat(digits)
  end
  return rows, states
end

local function by_get()
  return by_cells(function(x, y) return visible:get(x, y) end, function(x, y) return memory:get(x, y) end)
end

local function by_table()
  local v, m = visible:table(), memory:table()
  return by_cells(function(x, y) return v[y][x] end, function(x, y) return m[y][x] end)
end

local function by_frame() return lvl:frame(1, 1, W, H, options) end

local expected = screen.draw(by_frame())
for name, f in pairs { get = by_get, table = by_table } do
  assert(screen.draw(f()) == expected, "the " .. name .. " loop draws another frame")
end
local bytes = lvl:frame(1, 1, W, H, byte_options)
assert(#bytes == W * H * 4)

local rows = {}
local function len(s) return #s end
measure.add_row(rows, "F1", "the frame alone, 80x50", measure.ROUNDS, {
  { name = "frame rows", fn = function() return #lvl:frame(1, 1, W, H, options) end },
  { name = "frame bytes", fn = function() return #lvl:frame(1, 1, W, H, byte_options) end },
  { name = "f:get loop", fn = function() return #by_get() end },
  { name = "f:table loop", fn = function() return #by_table() end },
}, {})
measure.add_row(rows, "F2", "the terminal example's whole 80x50 frame drawn (screen.draw)", measure.ROUNDS, {
  { name = "frame rows", fn = function() return len(screen.draw(by_frame())) end },
  { name = "f:get loop", fn = function() return len(screen.draw(by_get())) end },
  { name = "f:table loop", fn = function() return len(screen.draw(by_table())) end },
}, {})

local who = jit and jit.version or _VERSION
print(("\n### %s\n"):format(who))
print("| id | what | frame rows µs | frame bytes µs | f:get loop µs | f:table loop µs | f:get / frame |")
print("| --- | --- | ---: | ---: | ---: | ---: | ---: |")
for _, row in ipairs(rows) do
  local r = row.r
  print(("| %s | %s | %s | %s | %s | %s | %s |"):format(row.id, row.what, measure.fmt_us(r["frame rows"]),
    measure.fmt_us(r["frame bytes"]), measure.fmt_us(r["f:get loop"]), measure.fmt_us(r["f:table loop"]),
    measure.fmt_ratio(r["f:get loop"] / r["frame rows"])))
end
print(("\n(sink %d)"):format(measure.sink() % 10))
