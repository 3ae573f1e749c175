-- bench/worst_design.lua: the slowest valid calls of the options a designer
-- gives `generate` (vaults, arrive, place, loops) that the search of
-- bench/worst.lua does not reach (it walks the options `map.describe`
-- lists: `loops`, but no tables), at their limits, on maps at the cell cap.
--
--   lua5.4 bench/worst_design.lua      (from the repository root)
--   luajit bench/worst_design.lua
--
-- Each call is timed once with os.clock (CPU time), after a full garbage
-- collection, on every algorithm and on a square and a narrow shape at the
-- cap, with generate_text; the five slowest valid ones again with generate
-- (the table of rows on top) and generate_json. Prints markdown tables,
-- slowest first, and the slowest valid call.
local here = (arg and arg[0] or ""):match("^(.*)/[^/]*$") or "."
package.path = here .. "/?.lua;" .. package.path
local BUILT = jit and "build/lib/lua/5.1/?.so;" or "build/lib/lua/5.4/?.so;"
package.cpath = (os.getenv(jit and "LUA_CPATH" or "LUA_CPATH_5_4") and "" or BUILT) .. package.cpath
local map = require "map"

local clock = os.clock
local CAP = map.MAX_CELLS

-- The vaults and `place` entries at their limits: bench/worst_maps.lua.
local maps = require "worst_maps"
local VAULTS, PLACE, PLACE_MIN = maps.VAULTS, maps.PLACE, maps.PLACE_MIN

local SHAPES = { { 2000, 2000 }, { 200, maps.idiv(CAP, 200) } }

local function calls()
  local list = {}
  for _, algorithm in ipairs(map.ALGORITHMS) do
    for _, shape in ipairs(SHAPES) do
      local w, h = shape[1], shape[2]
      local function add(name, extra)
        local o = { width = w, height = h, seed = 1, algorithm = algorithm }
        for k, v in pairs(extra) do o[k] = v end
        list[#list + 1] = { name = name, options = o }
      end
      for kind, vaults in pairs(VAULTS) do
        add("100 copies of a 64x64 vault (" .. kind .. ")", { vaults = vaults })
      end
      add("place 100 x 100 cells, min and hidden", { place = PLACE })
      if algorithm == "cave" or algorithm == "drunkard" then
        add("fill = 1, place 100 x 100 cells, min", { fill = 1, place = PLACE_MIN })
        add("fill = 1, 100 vaults, place 100 x 100 cells, min", { fill = 1, vaults = VAULTS.doors, place = PLACE_MIN })
      end
      add("arrive at (2, 2)", { arrive = { x = 2, y = 2 } })
      add("everything", { vaults = VAULTS.doors, place = PLACE, arrive = { x = w - 1, y = h - 1 } })
      if algorithm == "rooms" or algorithm == "bsp" then
        local many = algorithm == "rooms" and { rooms = 10000 } or { depth = 13, min_size = 3 }
        many.loops, many.doors = 1000, true
        add("loops = 1000, doors, the most rooms", many)
        many.vaults, many.place = VAULTS.doors, PLACE
        add("loops = 1000, doors, the most rooms, vaults and place", many)
      end
    end
  end
  return list
end

local function timed(fn, call)
  collectgarbage()
  local t = clock()
  local ok, err = pcall(fn, call.options)
  local seconds = clock() - t
  local o = call.options
  local row = { call = call, seconds = seconds, ok = ok, err = not ok and err or nil,
    what = ("%s %dx%d: %s"):format(o.algorithm, o.width, o.height, call.name) }
  io.stderr:write(("%6.3f s %s %s\n"):format(seconds, ok and "ok" or "refused", row.what))
  return row
end

local function slowest_first(rows)
  table.sort(rows, function(a, b) return a.seconds > b.seconds end)
  return rows
end

local rows = {}
for _, call in ipairs(calls()) do rows[#rows + 1] = timed(map.generate_text, call) end
slowest_first(rows)

local worst = { seconds = -1, what = "none" }
local again = {}
for _, r in ipairs(rows) do
  if r.ok and r.seconds > worst.seconds then worst = r end
  if r.ok and #again < 10 then
    for _, name in ipairs({ "generate", "generate_json" }) do
      local row = timed(map[name], r.call)
      row.what = name .. ", " .. row.what
      again[#again + 1] = row
    end
  end
end
slowest_first(again)

print("| call (generate_text, seed 1) | result | seconds |")
print("| --- | --- | ---: |")
for _, r in ipairs(rows) do
  print(("| %s | %s | %.3f |"):format(r.what, r.ok and "ok" or "refused: " .. r.err, r.seconds))
end
print("")
print("| the five slowest again | result | seconds |")
print("| --- | --- | ---: |")
for _, r in ipairs(again) do
  print(("| %s | %s | %.3f |"):format(r.what, r.ok and "ok" or "refused: " .. r.err, r.seconds))
  if r.ok and r.seconds > worst.seconds then worst = r end
end
print(("\nslowest valid call: %s, %.3f s"):format(worst.what, worst.seconds))
