-- bench/level.lua: a game's turn on a level in native memory (map.level)
-- against the same work on tables, on the interpreter that runs it.
--
--   LUA_CPATH_5_4='build/lib/lua/5.4/?.so' lua5.4 bench/level.lua
--   LUA_CPATH='build/lib/lua/5.1/?.so'     luajit bench/level.lua
--
-- Method and settings (BENCH_ROUNDS, BENCH_ROUND_S, BENCH_ONLY, e.g.
-- "N1,N5") as bench/bench.lua: see bench/measure.lua. Levels are caves,
-- map.level{width=, height=, seed=, algorithm="cave"} and the same
-- generate's table, seeds 1..SEEDS at 80x50 and 200x100, 1..2 at
-- 1000x1000, built before timing; operations cycle through them. Before
-- timing, each level's results are compared with the table functions'; a
-- difference is printed (and the table still made). libtcod's field of
-- view, measured side by side from C, is in bench/peers/ and
-- docs/performance.md.

local here = (arg and arg[0] or ""):match("^(.*)/[^/]*$") or "."
package.path = here .. "/?.lua;" .. here .. "/../?.lua;" .. package.path

local map = require "map"
local measure = require "measure"

local INTERP = jit and "luajit" or "lua5.4"
local VERSION = jit and jit.version or _VERSION
local SEEDS, MONSTERS = 10, 20

local function out(fmt, ...) io.write(string.format(fmt, ...), "\n") end

local function cave(w, h, seed)
  local options = { width = w, height = h, seed = seed, algorithm = "cave" }
  return map.level(options), map.generate(options)
end

-- A level with its table, MONSTERS cells for monsters (out of @'s sight
-- where it can), what @ knows (a memory and the same as rows) and the
-- cells of a route from @.
local function level(w, h, seed)
  local lvl, m = cave(w, h, seed)
  local monsters = map.sample(m, MONSTERS, { seed = seed, from = m.player, min = 4 })
  local memory, known = lvl:field(), {}
  for y = 1, h do known[y] = {} end
  local route = map.path(m, m.player, m.stairs)
  for i = 1, math.min(#route, 41), 4 do
    lvl:fov(route[i], 8, { into = memory })
    for y, row in pairs(map.fov(m, route[i], 8)) do
      for x in pairs(row) do known[y][x] = true end
    end
  end
  return { lvl = lvl, m = m, monsters = monsters, memory = memory, known = known, route = route }
end

local small, medium = {}, {}
for s = 1, SEEDS do
  small[s] = level(80, 50, s)
  medium[s] = level(200, 100, s)
end

local function pick(levels, i) return levels[(i - 1) % #levels + 1] end

-- Monsters placed afresh: the same cells each time, so that every
-- operation starts from the same positions.
local function reset(l, movers)
  for i, c in ipairs(l.monsters) do
    local p = movers[i]
    p.x, p.y = c.x, c.y
  end
  return movers
end

local function movers_of(levels)
  local all = {}
  for s, l in ipairs(levels) do
    all[s] = {}
    for i = 1, MONSTERS do all[s][i] = { x = 0, y = 0 } end
    reset(l, all[s])
  end
  return all
end

-- A game's own step loop in pure Lua, unchecked, the four directions
-- unrolled (issue 35's comparison): each monster steps to the lowest of
-- its 4 neighbours in d that is lower than its cell and not a wall, ties
-- N, E, S, W (map.step's rule without diagonals, avoid or known).
local function lua_steps(m, d, movers)
  local moved = 0
  for i = 1, #movers do
    local c = movers[i]
    local x, y = c.x, c.y
    local row = d[y]
    local best, bx, by = row[x], nil, nil
    if best then
      local up, down = d[y - 1], d[y + 1]
      local v = up and up[x]
      if v and v < best and m[y - 1][x] ~= "#" then best, bx, by = v, x, y - 1 end
      v = row[x + 1]
      if v and v < best and m[y][x + 1] ~= "#" then best, bx, by = v, x + 1, y end
      v = down and down[x]
      if v and v < best and m[y + 1][x] ~= "#" then best, bx, by = v, x, y + 1 end
      v = row[x - 1]
      if v and v < best and m[y][x - 1] ~= "#" then bx, by = x - 1, y end
    end
    if bx then
      c.x, c.y = bx, by
      moved = moved + 1
    end
  end
  return moved
end

-- The monsters' cells as two arrays (lvl:steps_xy's form), placed afresh.
local function reset_xy(l, xy)
  local xs, ys = xy[1], xy[2]
  for i, c in ipairs(l.monsters) do xs[i], ys[i] = c.x, c.y end
  return xs, ys
end

---------------------------------------------------------------------------
-- The level against the table functions, on every level timed.

local note, report_mismatches = measure.mismatches("table functions")

local function rows_differ(a, b)
  for y = 1, #b do
    for x = 1, #b[1] do
      if a[y][x] ~= b[y][x] then return string.format("cell (%d,%d)", x, y) end
    end
  end
end

local function check()
  for _, levels in ipairs({ small, medium }) do
    for s, l in ipairs(levels) do
      local lvl, m, p = l.lvl, l.m, l.m.player
      local name = string.format("%dx%d seed %d", #m[1], #m, s)
      note("fov " .. name, rows_differ(lvl:fov(p, 8):table(), map.fov(m, p, 8)))
      local d = lvl:distances(p)
      local dt = map.distances(m, p)
      note("distances " .. name, rows_differ(d:table(), dt))
      local a, b = reset(l, movers_of({ l })[1]), reset(l, movers_of({ l })[1])
      lvl:steps(d, a)
      lua_steps(m, dt, b)
      local xs, ys = reset_xy(l, { {}, {} })
      if lvl.steps_xy then lvl:steps_xy(d, xs, ys) end
      for i = 1, MONSTERS do
        if a[i].x ~= b[i].x or a[i].y ~= b[i].y then note("steps " .. name, "mover " .. i) end
        if lvl.steps_xy and (xs[i] ~= b[i].x or ys[i] ~= b[i].y) then note("steps_xy " .. name, "mover " .. i) end
      end
    end
  end
end

---------------------------------------------------------------------------
-- Workloads.

local rows = {}

local function against(id, what, a, b, target, against_name)
  return measure.add_row(rows, id, what, measure.ROUNDS, { { name = "level", fn = a }, { name = "other", fn = b } },
    { a = "level", b = "other", target = target, against = against_name })
end

local function count_fov(f) return f.width end

local function run_fov()
  for _, size in ipairs({ { "80x50", small, "N1", "N2" } }) do
    local levels = size[2]
    against(size[3], "lvl:fov(@, 8) against map.fov, " .. size[1],
      function(i) local l = pick(levels, i) return count_fov(l.lvl:fov(l.m.player, 8)) end,
      function(i) local l = pick(levels, i) return #map.fov(l.m, l.m.player, 8) end, 1, "map.fov")
    against(size[4], "lvl:fov(@) unlimited against map.fov, " .. size[1],
      function(i) local l = pick(levels, i) return count_fov(l.lvl:fov(l.m.player)) end,
      function(i) local l = pick(levels, i) return #map.fov(l.m, l.m.player) end, 1, "map.fov")
  end
end

-- 1000x1000: the levels alone in the heap while they are timed (a field
-- is charged to Lua's collector as the memory it holds, so the collector's
-- work grows with whatever else the heap holds: here two 1000x1000 tables
-- of rows would be most of it), then the table function on the tables.
local function run_big()
  if not (measure.wanted("N3") or measure.wanted("N4")) then return end
  local levels = {}
  for s = 1, 2 do levels[s] = cave(1000, 1000, s) end
  local r8 = measure.measure({ { name = "level", fn = function(i)
    local lvl = pick(levels, i)
    return count_fov(lvl:fov(lvl.player, 8))
  end } }, measure.ROUNDS)
  local whole = measure.measure({ { name = "level", fn = function(i)
    local lvl = pick(levels, i)
    return count_fov(lvl:fov(lvl.player))
  end } }, measure.HEAVY_ROUNDS)
  levels = nil
  collectgarbage()
  local tables = {}
  for s = 1, 2 do tables[s] = map.generate { width = 1000, height = 1000, seed = s, algorithm = "cave" } end
  local t8 = measure.measure({ { name = "other", fn = function(i)
    local m = pick(tables, i)
    return #map.fov(m, m.player, 8)
  end } }, measure.ROUNDS)
  local twhole = measure.measure({ { name = "other", fn = function(i)
    local m = pick(tables, i)
    return #map.fov(m, m.player)
  end } }, measure.HEAVY_ROUNDS)
  for _, row in ipairs({
    { "N3", "lvl:fov(@, 8) against map.fov, 1000x1000", r8, t8 },
    { "N4", "lvl:fov(@) unlimited against map.fov, 1000x1000", whole, twhole },
  }) do
    if measure.wanted(row[1]) then
      rows[#rows + 1] = { id = row[1], what = row[2], r = { level = row[3].level, other = row[4].other },
        a = "level", b = "other", target = 1, against = "map.fov" }
    end
  end
end

local function run_steps()
  local level_movers, lua_movers, flat = movers_of(medium), movers_of(medium), {}
  for s = 1, #medium do flat[s] = { {}, {} } end
  local function unrolled(i)
    local s = (i - 1) % #medium + 1
    local l = medium[s]
    l.dt = l.dt or map.distances(l.m, l.m.player)
    return lua_steps(l.m, l.dt, reset(l, lua_movers[s]))
  end
  against("N5", MONSTERS .. " monsters: lvl:steps(d, movers) against an unrolled pure-Lua step loop, 200x100",
    function(i)
      local s = (i - 1) % #medium + 1
      local l = medium[s]
      l.d = l.d or l.lvl:distances(l.m.player)
      return l.lvl:steps(l.d, reset(l, level_movers[s]))
    end, unrolled, 1.3, "pure Lua")
  -- Each side places its monsters afresh in its own form before stepping.
  if medium[1].lvl.steps_xy then
    against("N12", MONSTERS .. " monsters: lvl:steps_xy(d, xs, ys) against an unrolled pure-Lua step loop, 200x100",
      function(i)
        local s = (i - 1) % #medium + 1
        local l = medium[s]
        l.d = l.d or l.lvl:distances(l.m.player)
        local xs, ys = reset_xy(l, flat[s])
        return l.lvl:steps_xy(l.d, xs, ys)
      end, unrolled, 1.3, "pure Lua")
  end
  against("N6", "lvl:distances(@, {max = 10}) against without max, 200x100",
    function(i) local l = pick(medium, i) return l.lvl:distances(l.m.player, { max = 10 }).width end,
    function(i) local l = pick(medium, i) return l.lvl:distances(l.m.player).width end, 20, "no max")
end

-- A whole monster turn: what @ sees marked into memory (radius 8), one
-- distance field and the safety field made from it, MONSTERS monsters stepping
-- down the distance field without stepping onto each other, one explore.
local function level_turn(l, movers)
  local lvl, p = l.lvl, l.m.player
  local n = lvl:fov(p, 8, { into = l.memory })
  local d = lvl:distances(p, { max = 30 })
  local safe = lvl:flee(d)
  n = n + lvl:steps(d, movers, { occupied = true }) + safe.width
  local route = lvl:explore(l.memory, p)
  for _, c in ipairs(movers) do lvl:vacate(c) end
  return n + (route and #route or 0)
end

-- The same turn with the table functions, as a game writes it: the
-- remembered cells merged into a table, the monsters as `avoid`.
local function table_turn(l, movers)
  local m, p = l.m, l.m.player
  local n = 0
  for y, row in pairs(map.fov(m, p, 8)) do
    local known = l.known[y]
    for x in pairs(row) do
      known[x] = true
      n = n + 1
    end
  end
  local d = map.distances(m, p, { max = 30 })
  local safe = map.flee(m, p, { max = 30 })
  for _, c in ipairs(movers) do
    local x, y = map.step(m, d, c, { avoid = movers })
    if x then
      c.x, c.y = x, y
      n = n + 1
    end
  end
  local route = map.explore(m, l.known, p)
  return n + #safe + (route and #route or 0)
end

local turns = {}
local function run_turns()
  if not measure.wanted("turn") then return end
  for _, size in ipairs({ { "80x50", small }, { "200x100", medium } }) do
    local levels = size[2]
    local level_movers, table_movers = movers_of(levels), movers_of(levels)
    turns[#turns + 1] = { name = size[1], r = measure.measure({
      { name = "level", fn = function(i)
        local s = (i - 1) % #levels + 1
        local l, movers = levels[s], reset(levels[s], level_movers[s])
        for _, c in ipairs(movers) do l.lvl:occupy(c) end
        return level_turn(l, movers)
      end },
      { name = "tables", fn = function(i)
        local s = (i - 1) % #levels + 1
        return table_turn(levels[s], reset(levels[s], table_movers[s]))
      end },
    }, measure.ROUNDS) }
  end
end

-- lvl:set then lvl:fov at radius 8: the same on 80x50 as on 1000x1000.
local function run_set()
  if not measure.wanted("N8") then return end
  local near, far = small[1], { lvl = (cave(1000, 1000, 3)) }
  far.p = far.lvl.player
  local p = near.m.player
  measure.add_row(rows, "N8", "lvl:set(@, '.') then lvl:fov(@, 8): 1000x1000 against 80x50", measure.ROUNDS, {
    { name = "big", fn = function() far.lvl:set(far.p, ".") return far.lvl:fov(far.p, 8).width end },
    { name = "small", fn = function() near.lvl:set(p, ".") return near.lvl:fov(p, 8).width end },
  }, { a = "big", b = "small", against = "80x50", at_most = true, near = 1.5 })
end

-- Keeping a level: a saved one loaded back against generating it again
-- (the same level, as a seed would give it); a memory made against the
-- remembered-cells table a game makes in Lua.
local function run_keep()
  against("N10", "map.load(saved level) against map.generate of it, 200x100",
    function(i) local l = pick(medium, i) l.saved = l.saved or l.lvl:save() return map.load(l.saved).width end,
    function(i)
      return #map.generate { width = 200, height = 100, seed = (i - 1) % SEEDS + 1, algorithm = "cave" }
    end, 1, "generate")
  against("N11", "map.field(200, 100) against a table of 100 empty rows",
    function() return map.field(200, 100).width end,
    function()
      local seen = {}
      for y = 1, 100 do seen[y] = {} end
      return #seen
    end, 1, "rows in Lua")
end

-- Reading a field cell by cell, as a game draws a frame: every cell of an
-- 80x50 distance field by f:get, against d[y][x] of the table function's
-- rows, and against f:table() once then d[y][x].
local reads = {}
local function run_reads()
  if not measure.wanted("N9") then return end
  local l = small[1]
  local f, t = l.lvl:distances(l.m.player), map.distances(l.m, l.m.player)
  local function sum_get()
    local s = 0
    for y = 1, 50 do
      for x = 1, 80 do s = s + (f:get(x, y) or 0) end
    end
    return s
  end
  local function sum_rows(d)
    local s = 0
    for y = 1, 50 do
      local row = d[y]
      for x = 1, 80 do s = s + (row[x] or 0) end
    end
    return s
  end
  reads = measure.measure({
    { name = "get", fn = sum_get },
    { name = "index", fn = function() return sum_rows(t) end },
    { name = "table", fn = function() return sum_rows(f:table()) end },
  }, measure.ROUNDS)
end

---------------------------------------------------------------------------
-- Report.

local clock = os.clock
local t_start = clock()
check()
run_fov()
run_steps()
run_turns()
run_set()
run_keep()
run_reads()
run_big()
local elapsed = clock() - t_start
local fmt_us, fmt_ratio = measure.fmt_us, measure.fmt_ratio

out("")
out("### %s (%s): a level in native memory", INTERP, VERSION)
out("")
out("CPU time per operation (os.clock), median of %d rounds of ~%.2f s after warm-up; caves seeds 1..%d at",
  measure.ROUNDS, measure.ROUND_S, SEEDS)
out("80x50 and 200x100, 1..2 at 1000x1000 (1000x1000 rows: %d rounds). ratio = the other / the level's.",
  measure.HEAVY_ROUNDS)
out("")
out("| id | workload | level µs/op | against | its µs/op | ratio | target | verdict |")
out("| --- | --- | ---: | --- | ---: | ---: | --- | --- |")
measure.verdict_rows(out, rows)
out("")
local TURN_TARGET = jit and 150 or 250
for _, t in ipairs(turns) do
  out("A monster turn, %s (fov radius 8 into a memory, a distance and a safety field within 30, %d monsters "
    .. "stepping with occupied, one explore): level %s µs, table functions %s µs (%s)%s.", t.name, MONSTERS,
    fmt_us(t.r.level), fmt_us(t.r.tables), fmt_ratio(t.r.tables / t.r.level),
    t.name == "200x100" and string.format("; target <= %d µs: %s", TURN_TARGET,
      t.r.level <= TURN_TARGET and "met" or "MISSED") or "")
end
if reads.get then
  out("")
  out("Reading an 80x50 distance field cell by cell (4,000 cells): f:get %s µs, the table function's rows %s µs,",
    fmt_us(reads.get), fmt_us(reads.index))
  out("f:table() then its rows %s µs.", fmt_us(reads.table))
end
out("")
report_mismatches(out)
out("")
out("(%s: %.0f s of CPU for this table; sink %d)", INTERP, elapsed, measure.sink() % 1000)
