-- bench/worst_level.lua: the slowest valid calls of a level in native
-- memory (map.level, map.load, map.field and the methods that are not a
-- table function's: steps, can_step, fov into, flee from a field, table,
-- render, save, things), at the cell cap, in the shapes where each costs
-- most: the widest, the narrowest, the square. The toolkit's methods read a
-- level's terrain where the table functions read rows, so their worst
-- calls are bench/worst.lua's, bounded by them.
--
--   lua5.4 bench/worst_level.lua        (from the repository root)
--   luajit bench/worst_level.lua
--
-- Each call is timed once with os.clock after a full collection; prints
-- one line a call and the slowest.
local BUILT = jit and "build/lib/lua/5.1/?.so;" or "build/lib/lua/5.4/?.so;"
package.cpath = (os.getenv(jit and "LUA_CPATH" or "LUA_CPATH_5_4") and "" or BUILT) .. package.cpath
local map = require "map"

local CAP = map.MAX_CELLS
local clock = os.clock
local results = {}

local function time(name, f)
  collectgarbage()
  local t0 = clock()
  local ok, err = pcall(f)
  local seconds = clock() - t0
  results[#results + 1] = { name = name, seconds = seconds, ok = ok }
  io.write(string.format("| %s | %.3f | %s |\n", name, seconds, ok and "ok" or ("error: " .. tostring(err))))
end

-- An open map of w x h floor cells, as a table and as text.
local function open(w, h)
  local m = map.new_map(w, h)
  for y = 1, h do
    local row = m[y]
    for x = 1, w do row[x] = "." end
  end
  return m
end

io.write(string.format("### %s: a level's slowest calls at %d cells\n\n", jit and jit.version or _VERSION, CAP))
io.write("| call | seconds | result |\n| --- | ---: | --- |\n")
for _, shape in ipairs({ { 2000, 2000 }, { 1, CAP }, { CAP, 1 } }) do
  local w, h = shape[1], shape[2]
  local at = string.format(" on %dx%d", w, h)
  local m = open(w, h)
  local lvl, text
  time("map.level(m)" .. at, function() lvl = map.level(m) end)
  local all
  time("map.level(m, {things = \".\"}), every cell a thing" .. at, function() all = map.level(m, { things = "." }) end)
  time("lvl:render()" .. at, function() text = lvl:render() end)
  -- Its 4,000,000 tables cost most with a big heap to collect meanwhile:
  -- the map's table goes first.
  m = nil
  time("lvl:things() of every cell" .. at, function() all:things() end)
  all = nil
  time("map.level(text)" .. at, function() map.level(text) end)
  local saved
  time("lvl:save()" .. at, function() saved = lvl:save() end)
  time("map.load(saved)" .. at, function() map.load(saved) end)
  time("map.field" .. at, function() map.field(w, h) end)
  time("lvl:table()" .. at, function() lvl:table() end)
  local far = { x = w, y = h }
  local d
  time("lvl:distances(corner)" .. at, function() d = lvl:distances({ x = 1, y = 1 }) end)
  time("d:table()" .. at, function() d:table() end)
  time("lvl:flee(d), from the field" .. at, function() lvl:flee(d, { cost = { ["."] = 2 ^ 30 } }) end)
  time("lvl:fov(centre, nil, {into = memory})" .. at, function()
    lvl:fov(math.ceil(w / 2), math.ceil(h / 2), nil, { into = lvl:field() })
  end)
  local movers = {}
  for i = 1, CAP do movers[i] = { x = (i - 1) % w + 1, y = math.floor((i - 1) / w) + 1 } end
  for i = 1, CAP do lvl:occupy(movers[i]) end
  time("lvl:steps(d, every cell, {occupied = true})" .. at, function()
    lvl:steps(d, movers, { occupied = true })
  end)
  time("lvl:steps(d, every cell, {diagonal = true, avoid = every cell})" .. at, function()
    lvl:steps(d, movers, { diagonal = true, avoid = movers })
  end)
  time("lvl:can_step(far, -1, -1, {diagonal = true, occupied = true})" .. at, function()
    lvl:can_step(far, -1, -1, { diagonal = true, occupied = true })
  end)
end
for _, algorithm in ipairs(map.ALGORITHMS) do
  time("map.level{2000x2000 " .. algorithm .. ", things = \".\"}", function()
    map.level { width = 2000, height = 2000, seed = 1, algorithm = algorithm, things = "." }
  end)
end

table.sort(results, function(a, b) return a.seconds > b.seconds end)
io.write(string.format("\nSlowest valid call: %s, %.3f s\n", results[1].name, results[1].seconds))
