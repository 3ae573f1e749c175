-- bench/turns.lua: what a game does every turn (map.step, flee, explore,
-- sample, visible, line) and parse against pure-Lua versions, path against
-- distances, and distances with max against without, on the interpreter
-- that runs it. The pure-Lua versions are the references the specs check
-- the module against (spec/reference/step.lua, flee.lua, explore.lua,
-- sample.lua, visible.lua); line's and parse's are below.
--
--   LUA_CPATH_5_4='build/lib/lua/5.4/?.so' lua5.4 bench/turns.lua
--   LUA_CPATH='build/lib/lua/5.1/?.so'     luajit bench/turns.lua
--
-- Method and settings (BENCH_ROUNDS, BENCH_HEAVY_ROUNDS, BENCH_ROUND_S,
-- BENCH_ONLY, e.g. "U1,U8") as bench/bench.lua: see bench/measure.lua.
-- Levels are caves, map.generate{width=, height=, seed=, algorithm="cave"},
-- built before timing: seeds 1..SEEDS at 80x50 and 200x100, 1..BIG_SEEDS
-- at 1000x1000 (made only for the visible rows, last, so that the other
-- rows run with a game's heap, not with two 1000x1000 maps alive);
-- operations cycle through them. What a level's player knows
-- (explore's `known`): the cells seen by fov radius 8 from every 4th cell
-- of the first 40 steps of the path from @ to >. Before timing, the
-- module's results are compared with the references' on every level used;
-- a difference is printed (and the table still made).

local here = (arg and arg[0] or ""):match("^(.*)/[^/]*$") or "."
package.path = here .. "/?.lua;" .. here .. "/../?.lua;" .. package.path

local map = require "map"
local measure = require "measure"
local R = {
  step = require("spec.reference.step").step,
  flee = require("spec.reference.flee").flee,
  explore = require("spec.reference.explore").explore,
  sample = require("spec.reference.sample").sample,
  candidates = require("spec.reference.sample").candidates,
  visible = require("spec.reference.visible").visible,
  fov = require("spec.reference.fov").fov,
  search = require("spec.reference.search").search,
}

local clock = os.clock

-- The cells of map.line's definition (spec/line_spec.lua): on the major
-- axis one step a cell; on the minor one the cell m with 2n(m - a) - 2i*d
-- in [-n, n).
function R.line(x1, y1, x2, y2)
  local abs, floor = math.abs, math.floor
  local dx, dy = x2 - x1, y2 - y1
  local n = math.max(abs(dx), abs(dy))
  local cells = { { x = x1, y = y1 } }
  local sx, sy, twice = dx < 0 and -1 or 1, dy < 0 and -1 or 1, 2 * n
  if abs(dx) >= abs(dy) then
    for i = 1, n do cells[i + 1] = { x = x1 + i * sx, y = y1 + floor((2 * i * dy + n - 1) / twice) } end
  else
    for i = 1, n do cells[i + 1] = { x = x1 + floor((2 * i * dx + n - 1) / twice), y = y1 + i * sy } end
  end
  return cells
end

-- map.parse's rows and its first @ and > (the text trusted: rectangular).
function R.parse(text)
  local sub, find = string.sub, string.find
  local m, y = {}, 0
  for line in string.gmatch(text, "[^\n]+") do
    y = y + 1
    local row = {}
    for x = 1, #line do row[x] = sub(line, x, x) end
    m[y] = row
    local at, down = find(line, "@", 1, true), find(line, ">", 1, true)
    if at and not m.player then m.player = { x = at, y = y } end
    if down and not m.stairs then m.stairs = { x = down, y = y } end
  end
  m.width, m.height = #m[1], y
  return m
end

local INTERP = jit and "luajit" or "lua5.4"
local VERSION = jit and jit.version or _VERSION
local SEEDS = 10
local BIG_SEEDS = 2
local SPEED_TARGET = jit and 1.2 or 2
local MONSTERS = 5

local function out(fmt, ...) io.write(string.format(fmt, ...), "\n") end

local function cave(w, h, seed)
  return map.generate { width = w, height = h, seed = seed, algorithm = "cave" }
end

---------------------------------------------------------------------------
-- Levels: each with what @ knows, cells for step, monsters, and a pair of
-- cells 10 apart for visible.

local function remembered(m)
  local known = {}
  for y = 1, #m do known[y] = {} end
  local route = map.path(m, m.player, m.stairs)
  for i = 1, math.min(#route, 41), 4 do
    for y, row in pairs(map.fov(m, route[i], 8)) do
      for x in pairs(row) do known[y][x] = true end
    end
  end
  return known
end

local function level(w, h, seed)
  local m = cave(w, h, seed)
  local d = map.distances(m, m.player)
  local cells = {}
  for y = 1, h do
    for x = 1, w do
      if d[y][x] and d[y][x] > 0 then cells[#cells + 1] = { x = x, y = y } end
    end
  end
  local monsters = map.sample(m, MONSTERS, { seed = seed, from = m.player, min = 8 })
  return { m = m, d = d, cells = cells, known = remembered(m), monsters = monsters, text = map.render(m) }
end

local small, medium = {}, {}
for s = 1, SEEDS do
  small[s] = level(80, 50, s)
  medium[s] = level(200, 100, s)
end
-- 1000x1000: a floor cell 10 from @ (along each axis, the larger offset)
-- that @ sees, so that the whole way between is read.
local big = {}
local function make_big()
  for s = 1, BIG_SEEDS do
    local m = cave(1000, 1000, s)
    local p, to = m.player, nil
    local seen = map.fov(m, p, 10)
    for dy = -10, 10 do
      for dx = -10, 10 do
        local x, y = p.x + dx, p.y + dy
        if not to and math.max(math.abs(dx), math.abs(dy)) == 10 and seen[y][x] and m[y][x] ~= "#" then
          to = { x = x, y = y }
        end
      end
    end
    big[s] = { m = m, to = assert(to, "a floor cell 10 from @ that @ sees") }
  end
end

local function pick(levels, i) return levels[(i - 1) % #levels + 1] end

---------------------------------------------------------------------------
-- The module against the references, on every level timed.

local note, report_mismatches = measure.mismatches("references")

local function rows_differ(a, b)
  for y = 1, #b do
    for x = 1, #b[y] do
      if a[y][x] ~= b[y][x] then
        return string.format("cell (%d,%d): module %s, reference %s", x, y, tostring(a[y][x]), tostring(b[y][x]))
      end
    end
  end
end

local function paths_differ(a, b)
  if not a or not b then return (a or b) and "one is nil" or nil end
  if #a ~= #b then return string.format("%d cells, reference %d", #a, #b) end
  for i = 1, #a do
    if a[i].x ~= b[i].x or a[i].y ~= b[i].y then return "cell " .. i end
  end
end

local function check()
  for _, levels in ipairs({ small, medium }) do
    for s, l in ipairs(levels) do
      local m, name = l.m, string.format("%dx%d seed %d", #l.m[1], #l.m, s)
      note("flee " .. name, rows_differ(map.flee(m, m.player), R.flee(m, m.player)))
      note("explore " .. name, paths_differ(map.explore(m, l.known, m.player), R.explore(m, l.known, m.player.x,
        m.player.y)))
      for k = 1, #l.cells, 7 do
        local c = l.cells[k]
        local ax, ay = map.step(m, l.d, c)
        local bx, by = R.step(m, l.d, c.x, c.y)
        if ax ~= bx or ay ~= by then note("step " .. name, string.format("from (%d,%d)", c.x, c.y)) end
      end
      note("line " .. name, paths_differ(map.line(m.player, m.stairs), R.line(m.player.x, m.player.y, m.stairs.x,
        m.stairs.y)))
      local parsed, lua_parsed = map.parse(l.text), R.parse(l.text)
      note("parse " .. name, rows_differ(parsed, lua_parsed) or paths_differ(
        { parsed.player, parsed.stairs, { x = parsed.width, y = parsed.height } },
        { lua_parsed.player, lua_parsed.stairs, { x = lua_parsed.width, y = lua_parsed.height } }))
      local o = { from = m.player, min = 8, hidden = true }
      local n = #R.candidates(m, o)
      local ok, err = pcall(map.sample, m, n + 1, o)
      if ok or not err:find(" only " .. n .. " cell", 1, true) then note("sample " .. name, tostring(err)) end
    end
  end
end

local function check_big()
  for s, b in ipairs(big) do
    local p = b.m.player
    if map.visible(b.m, p, b.to) ~= R.visible(b.m, p.x, p.y, b.to.x, b.to.y) then
      note("visible 1000x1000 seed " .. s, "differs")
    end
  end
end

---------------------------------------------------------------------------
-- Workloads.

local rows = {}

-- Times the variants in the same rounds and adds a row: `module` against
-- `against` (default "pure Lua"), which must be at least `target` times
-- slower (or, with `at_most`, at most `target` times the module's time).
local function vs_lua(id, what, rounds, module_fn, lua_fn)
  return measure.add_row(rows, id, what, rounds, { { name = "module", fn = module_fn }, { name = "lua", fn = lua_fn } },
    { a = "module", b = "lua", target = SPEED_TARGET, against = "pure Lua" })
end

local function run_all()
  vs_lua("U1", "step(m, d, cell), 80x50 distance map", measure.ROUNDS,
    function(i) local l = pick(small, i) local c = pick(l.cells, i) return map.step(l.m, l.d, c) or 0 end,
    function(i) local l = pick(small, i) local c = pick(l.cells, i) return R.step(l.m, l.d, c.x, c.y) or 0 end)
  for _, size in ipairs({ { "80x50", small, "U2", "U4", "U6" }, { "200x100", medium, "U3", "U5", "U7" } }) do
    local name, levels = size[1], size[2]
    vs_lua(size[3], "flee(m, m.player), " .. name, measure.ROUNDS,
      function(i) local m = pick(levels, i).m return #map.flee(m, m.player) end,
      function(i) local m = pick(levels, i).m return #R.flee(m, m.player) end)
    vs_lua(size[4], "explore(m, known, m.player), " .. name, measure.ROUNDS,
      function(i) local l = pick(levels, i) return #map.explore(l.m, l.known, l.m.player) end,
      function(i) local l = pick(levels, i) return #R.explore(l.m, l.known, l.m.player.x, l.m.player.y) end)
    vs_lua(size[5], "sample(m, 5, {from = @, min = 8, hidden = true}), " .. name, measure.ROUNDS,
      function(i)
        local m = pick(levels, i).m
        return #map.sample(m, 5, { seed = i, from = m.player, min = 8, hidden = true })
      end,
      function(i)
        local m = pick(levels, i).m
        return #R.sample(m, 5, { seed = i, from = m.player, min = 8, hidden = true })
      end)
  end
  vs_lua("U12", "line(@, >), 80x50", measure.ROUNDS,
    function(i) local m = pick(small, i).m return #map.line(m.player, m.stairs) end,
    function(i) local m = pick(small, i).m return #R.line(m.player.x, m.player.y, m.stairs.x, m.stairs.y) end)
  vs_lua("U13", "parse(text of a level), 80x50", measure.ROUNDS,
    function(i) return #map.parse(pick(small, i).text) end,
    function(i) return #R.parse(pick(small, i).text) end)
  measure.add_row(rows, "U10", "path(m, @, >) against distances(m, @), 80x50", measure.ROUNDS, {
    { name = "path", fn = function(i) local m = pick(small, i).m return #map.path(m, m.player, m.stairs) end },
    { name = "distances", fn = function(i) local m = pick(small, i).m return #map.distances(m, m.player) end },
  }, { a = "path", b = "distances", target = 1, against = "distances", at_most = true })
  measure.add_row(rows, "U11", "distances(m, @, {max = 10}) against without max, 200x100", measure.ROUNDS, {
    { name = "max", fn = function(i) local m = pick(medium, i).m return #map.distances(m, m.player, { max = 10 }) end },
    { name = "full", fn = function(i) local m = pick(medium, i).m return #map.distances(m, m.player) end },
  }, { a = "max", b = "full", target = 5, against = "no max" })
end

local function run_big()
  local vis = {
    function(i) local b = pick(big, i) return map.visible(b.m, b.m.player, b.to) and 1 or 0 end,
    function(i)
      local b = pick(big, i)
      return R.visible(b.m, b.m.player.x, b.m.player.y, b.to.x, b.to.y) and 1 or 0
    end,
  }
  vs_lua("U8", "visible(m, @, a visible cell 10 away), 1000x1000", measure.ROUNDS, vis[1], vis[2])
  measure.add_row(rows, "U9", "the same visible against fov(m, @) unlimited, 1000x1000", measure.HEAVY_ROUNDS, {
    { name = "module", fn = vis[1] },
    { name = "fov", fn = function(i) local b = pick(big, i) return #map.fov(b.m, b.m.player) end },
  }, { a = "module", b = "fov", target = 10, against = "fov" })
end

-- What no call can go below: a call into the module that reads one cell
-- (visible on a 1x1 map), and the 200x100 table of rows of false that
-- distances returns with a small max, built in Lua (table.new on LuaJIT).
local floors
local function run_floors()
  if not (measure.wanted("U1") or measure.wanted("U11")) then return end
  local ok, new_tab = pcall(require, "table.new")
  if not ok then new_tab = function() return {} end end
  local one = { { "." } }
  floors = measure.measure({
    { name = "call", fn = function() return map.visible(one, 1, 1, 1, 1) and 1 or 0 end },
    { name = "rows", fn = function()
      local t = new_tab(100, 0)
      for y = 1, 100 do
        local row = new_tab(200, 0)
        for x = 1, 200 do row[x] = false end
        t[y] = row
      end
      return #t
    end },
  }, measure.ROUNDS)
end

-- A monster turn: what @ sees (fov radius 8), one distance map to @ that
-- the monsters share, each monster stepping down it, and one explore.
local function turn(l, lib)
  local m, p = l.m, l.m.player
  local n = 0
  for _ in pairs(lib.fov(m, p, 8)) do n = n + 1 end
  local d = lib.distances(m, p)
  for _, c in ipairs(l.monsters) do
    if lib.step(m, d, c) then n = n + 1 end
  end
  local route = lib.explore(m, l.known, p)
  return n + (route and #route or 0)
end

local MODULE = { fov = map.fov, distances = map.distances, step = map.step, explore = map.explore }
local LUA = {
  fov = function(m, p, r) return R.fov(m, p.x, p.y, r) end,
  distances = R.search,
  step = function(m, d, c) return R.step(m, d, c.x, c.y) end,
  explore = function(m, known, p) return R.explore(m, known, p.x, p.y) end,
}

local turns = {}
local function run_turns()
  if not measure.wanted("turn") then return end
  for _, size in ipairs({ { "80x50", small }, { "200x100", medium } }) do
    local levels = size[2]
    turns[#turns + 1] = { name = size[1], r = measure.measure({
      { name = "module", fn = function(i) return turn(pick(levels, i), MODULE) end },
      { name = "lua", fn = function(i) return turn(pick(levels, i), LUA) end },
    }, measure.ROUNDS) }
  end
end

---------------------------------------------------------------------------
-- Report.

local t_start = clock()
check()
run_all()
run_floors()
run_turns()
if measure.wanted("U8") or measure.wanted("U9") then
  make_big()
  check_big()
  run_big()
  big = nil
end
local elapsed = clock() - t_start
local fmt_us, fmt_ratio = measure.fmt_us, measure.fmt_ratio

out("")
out("### %s (%s): step, flee, explore, sample, visible, line, parse; path, max", INTERP, VERSION)
out("")
out("CPU time per operation (os.clock), median of %d rounds of ~%.2f s (%d for 1000x1000 fov) after warm-up;",
  measure.ROUNDS, measure.ROUND_S, measure.HEAVY_ROUNDS)
out("caves seeds 1..%d at 80x50 and 200x100, 1..%d at 1000x1000. ratio = the other / the first.", SEEDS, BIG_SEEDS)
out("")
out("| id | workload | µs/op | against | its µs/op | ratio | target | verdict |")
out("| --- | --- | ---: | --- | ---: | ---: | --- | --- |")
measure.verdict_rows(out, rows)
out("")
if floors then
  out("Floors: a call into the module that reads one cell (visible on a 1x1 map) %s µs; the 200x100 table of rows",
    fmt_us(floors.call))
  out("of false that distances returns with a small max, built in Lua, %s µs.", fmt_us(floors.rows))
  out("")
end
for _, t in ipairs(turns) do
  out("A monster turn, %s (fov radius 8 from @, one distance map to @, %d monsters stepping, one explore): "
    .. "module %s µs, pure Lua %s µs (%s).", t.name, MONSTERS, fmt_us(t.r.module), fmt_us(t.r.lua),
    fmt_ratio(t.r.lua / t.r.module))
end
out("")
report_mismatches(out)
out("")
out("(%s: %.0f s of CPU for this table; sink %d)", INTERP, elapsed, measure.sink() % 1000)
