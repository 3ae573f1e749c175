-- bench/peers/fov_map.lua: `map`'s field of view on native levels (lvl:fov,
-- returning a field) and on tables (map.fov), timed on the interpreter that
-- runs it, on the levels fov_tcod.c times libtcod on (bench/peers/README.md).
--
--   lua5.4 bench/peers/fov_map.lua export DIR NSMALL NBIG   -- the levels as text
--   lua5.4 bench/peers/fov_map.lua time NSMALL NBIG [BUDGET_S]
--
-- with the module on the path (LUA_CPATH_5_4='build/lib/lua/5.4/?.so' for
-- Lua 5.4, LUA_CPATH='build/lib/lua/5.1/?.so' for LuaJIT).
--
-- Levels: map.level{width =, height =, seed = s, algorithm = "cave"}, 80x50
-- for seeds 1..NSMALL and 1000x1000 for seeds 1..NBIG, and for map.fov the
-- tables map.generate makes from the same arguments; built before timing.
-- `export` writes each level's lvl:render() to DIR/small-<s>.txt and
-- DIR/big-<s>.txt, after checking that it is map.render of generate's table
-- and that its '@' is at lvl.player.
--
-- `time` prints, one line each (the format of fov_tcod.c):
--   time <impl> <size> <radius> <µs per call> <calls>
--   count <impl> <size> <seed> <radius> <visible cells>   (with FOV_COUNTS set)
-- impl:
--   lvl_fov     lvl:fov(p, 8) / lvl:fov(p), p = lvl.player read once per level
--               before timing (a game keeps its player's position)
--   lvl_fov_lit lvl:fov(lvl.player, 8) / lvl:fov(lvl.player), as written,
--               reading lvl.player from the level on every call
--   lvl_fov_into lvl:fov(p, 8, o) / lvl:fov(p, nil, o), o = {into = lvl:field()}
--               made once per level: the cells seen marked into a memory
--               and counted, no field returned (not the target's call: a
--               game's turn with a memory; the scan marks the memory
--               itself; floor.sh times it beside the floor)
--   table_fov   map.fov(m, m.player, 8) / map.fov(m, m.player)
--   lvl_fov_bigheap  lvl_fov again with generate's tables of all the levels
--               alive (a Lua heap of 25-50 MB; lvl_fov runs before they
--               are made, with only the levels in the heap)
--   heap levels|tables <KiB>: collectgarbage("count") in each phase
--   peak levels <KiB>: the process's peak resident memory (VmHWM) after
--               phase 1 (the levels and their fields, before the tables)
-- Each workload cycles through the levels of one size, is warmed up for a
-- quarter of the budget and then timed in batches of one pass over the
-- levels until BUDGET_S (default 0.3) of CPU time (os.clock) is spent;
-- garbage collection is part of the time (each call makes a new field or
-- table, as a game's turn does).

-- FOV_GC=incremental (Lua 5.4): the collector's mode for the whole run. The
-- standalone lua5.4 starts in generational mode (lua.c asks for it); a host
-- that makes its own state with the C API gets incremental unless it asks.
if os.getenv("FOV_GC") and not jit then collectgarbage(os.getenv("FOV_GC")) end

local map = require "map"

local clock = os.clock
local mode = arg[1]

local function cave_level(w, h, s) return map.level { width = w, height = h, seed = s, algorithm = "cave" } end
local function cave_table(w, h, s) return map.generate { width = w, height = h, seed = s, algorithm = "cave" } end

local SIZES = {
  { name = "80x50", prefix = "small", w = 80, h = 50 },
  { name = "1000x1000", prefix = "big", w = 1000, h = 1000 },
}

if mode == "export" then
  local dir, counts = arg[2], { tonumber(arg[3]), tonumber(arg[4]) }
  for k, size in ipairs(SIZES) do
    for s = 1, counts[k] do
      local lvl = cave_level(size.w, size.h, s)
      local text = lvl:render()
      if text ~= map.render(cave_table(size.w, size.h, s)) then
        error(string.format("%s seed %d: lvl:render() is not map.render(map.generate{...})", size.name, s))
      end
      local p, row = lvl.player, 0
      for line in text:gmatch("[^\n]+") do
        row = row + 1
        if row == p.y and line:sub(p.x, p.x) ~= "@" then
          error(string.format("%s seed %d: no '@' at lvl.player", size.name, s))
        end
      end
      local f = assert(io.open(string.format("%s/%s-%d.txt", dir, size.prefix, s), "wb"))
      f:write(text)
      f:close()
    end
  end
  return
end

assert(mode == "time", "usage: fov_map.lua export DIR NSMALL NBIG | time NSMALL NBIG [BUDGET_S]")
local counts = { tonumber(arg[2]), tonumber(arg[3]) }
local BUDGET = tonumber(arg[4]) or 0.3

local last -- every call's result lands here, so that no call is dead code

-- µs per call of fn(i), i cycling 1..n.
local function time_workload(impl, size, radius, n, fn)
  local i = 0
  local t0 = clock()
  while clock() - t0 < BUDGET / 4 do
    for _ = 1, n do i = i % n + 1; fn(i) end
  end
  collectgarbage("collect")
  local calls, spent = 0, 0
  while spent < BUDGET or calls < n do
    local s = clock()
    for _ = 1, n do i = i % n + 1; fn(i) end
    spent = spent + (clock() - s)
    calls = calls + n
  end
  io.write(string.format("time %s %s %s %.4f %d\n", impl, size, radius and "8" or "unlimited",
    spent / calls * 1e6, calls))
  io.flush()
end

-- Phase 1: the levels alone in the Lua heap (as the C side has its maps
-- alone), both sizes.
local sets = {}
for k, size in ipairs(SIZES) do
  local set = { size = size, n = counts[k], lvl = {}, p = {}, t = {}, into = {} }
  for s = 1, set.n do
    set.lvl[s] = cave_level(size.w, size.h, s)
    set.p[s] = set.lvl[s].player
    set.into[s] = { into = set.lvl[s]:field() }
  end
  sets[k] = set
end
collectgarbage("collect")
local heap_levels = collectgarbage("count")

local function time_levels(impl, set, radius)
  local L, P, I, name = set.lvl, set.p, set.into, set.size.name
  local fn
  if impl == "lvl_fov_into" then
    fn = function(i) last = L[i]:fov(P[i], radius, I[i]) end
  elseif impl == "lvl_fov_lit" and radius then
    fn = function(i) local l = L[i]; last = l:fov(l.player, 8) end
  elseif impl == "lvl_fov_lit" then
    fn = function(i) local l = L[i]; last = l:fov(l.player) end
  elseif radius then
    fn = function(i) last = L[i]:fov(P[i], 8) end
  else
    fn = function(i) last = L[i]:fov(P[i]) end
  end
  time_workload(impl, name, radius, set.n, fn)
end

for _, set in ipairs(sets) do
  for _, radius in ipairs { 8, false } do
    time_levels("lvl_fov", set, radius or nil)
    time_levels("lvl_fov_lit", set, radius or nil)
    time_levels("lvl_fov_into", set, radius or nil)
  end
end

local function vmhwm()
  local f = io.open("/proc/self/status")
  if not f then return "?" end
  local text = f:read("a")
  f:close()
  return text:match("VmHWM:%s*(%d+)") or "?"
end
local peak_levels = vmhwm()

-- Phase 2: generate's tables of the same levels, for map.fov.
for _, set in ipairs(sets) do
  for s = 1, set.n do set.t[s] = cave_table(set.size.w, set.size.h, s) end
end
collectgarbage("collect")
local heap_tables = collectgarbage("count")
for _, set in ipairs(sets) do
  local T, name = set.t, set.size.name
  time_workload("table_fov", name, 8, set.n, function(i) local m = T[i]; last = map.fov(m, m.player, 8) end)
  time_workload("table_fov", name, nil, set.n, function(i) local m = T[i]; last = map.fov(m, m.player) end)
end

-- Phase 3: lvl:fov again, with those tables alive: a big Lua heap, which the
-- collector's steps for each new field's native memory walk.
for _, set in ipairs(sets) do
  for _, radius in ipairs { 8, false } do time_levels("lvl_fov_bigheap", set, radius or nil) end
end
io.write(string.format("heap levels %.0f\nheap tables %.0f\npeak levels %s\n", heap_levels, heap_tables, peak_levels))

if os.getenv("FOV_COUNTS") then
  for _, set in ipairs(sets) do
    for _, radius in ipairs { 8, false } do
      for s = 1, set.n do
        local lvl, m = set.lvl[s], set.t[s]
        local f = lvl:fov(set.p[s], radius or nil)
        local nf = 0
        for y = 1, f.height do
          for x = 1, f.width do
            if f:get(x, y) then nf = nf + 1 end
          end
        end
        local nt = 0
        for _, row in pairs(map.fov(m, m.player, radius or nil)) do
          for _ in pairs(row) do nt = nt + 1 end
        end
        local r = radius and "8" or "unlimited"
        io.write(string.format("count lvl_fov %s %d %s %d\n", set.size.name, s, r, nf))
        io.write(string.format("count table_fov %s %d %s %d\n", set.size.name, s, r, nt))
      end
    end
  end
end

assert(last ~= nil)
