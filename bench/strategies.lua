-- bench/strategies.lua: how fast can a table of rows cross between the module
-- and Lua, by each available route? Evidence for bench/RESULTS.md's findings
-- (not part of `make bench`).
--
--   LUA_CPATH_5_4='build/lib/lua/5.4/?.so' lua5.4 bench/strategies.lua
--   LUA_CPATH='build/lib/lua/5.1/?.so'     luajit bench/strategies.lua
--
-- Build routes (a table of rows of one-character strings):
--   C API       map.new_map: lua_createtable + lua_pushvalue/lua_rawseti per cell
--   Lua const   Lua loops storing "#" (bench/baseline.lua's new_map)
--   Lua split   Lua loops splitting a text the module made: row[x] = CH[byte(s, i)]
-- Read routes (the same table back to one string, checked):
--   C API       map.render: lua_rawgeti per cell
--   Lua concat  table.concat per row, then "\n" (no per-cell check)
--   Lua checked rawget per cell with type and length checks (what render must
--               verify), then table.concat per row
-- Also, at 60x20: map.reachable (C API read + Rust BFS) against the Lua
-- checked read alone, and map.generate against generate_text + Lua split.

local here = (arg and arg[0] or ""):match("^(.*)/[^/]*$") or "."
package.path = here .. "/?.lua;" .. package.path

local map = require "map"
local B = require "baseline"

local clock = os.clock
local byte, concat = string.byte, table.concat
local ROUND_S = tonumber(os.getenv("BENCH_ROUND_S")) or 0.2
local ROUNDS = tonumber(os.getenv("BENCH_ROUNDS")) or 5

local new_tab
do
  local ok, tn = pcall(require, "table.new")
  new_tab = ok and tn or function() return {} end
end

local CH = {}
for b = 0, 255 do CH[b] = string.char(b) end

local function split(s, w, h)
  local m = new_tab(h, 0)
  local p = 0
  for y = 1, h do
    local row = new_tab(w, 0)
    for x = 1, w do row[x] = CH[byte(s, p + x)] end
    m[y] = row
    p = p + w + 1
  end
  return m
end

local function checked_concat(m)
  local h = #m
  local first = rawget(m, 1)
  local w = #first
  local lines = new_tab(h, 0)
  for y = 1, h do
    local row = rawget(m, y)
    if type(row) ~= "table" or #row ~= w then error("bad row " .. y) end
    for x = 1, w do
      local c = rawget(row, x)
      if type(c) ~= "string" or #c ~= 1 then error("bad cell") end
    end
    lines[y] = concat(row)
  end
  return concat(lines, "\n")
end

local sink = 0
local function bench(fn)
  local n, spent = 1, 0
  while spent < ROUND_S do
    collectgarbage("collect")
    local t0 = clock()
    for i = 1, n do sink = sink + fn(i) end
    spent = clock() - t0
    if spent < ROUND_S then n = n * 2 end
  end
  local times = {}
  for r = 1, ROUNDS do
    collectgarbage("collect")
    local t0 = clock()
    for i = 1, n do sink = sink + fn(i) end
    times[r] = (clock() - t0) / n * 1e6
  end
  table.sort(times)
  return times[math.floor((ROUNDS + 1) / 2)]
end

local function fmt(us) return us >= 100 and string.format("%.0f", us) or string.format("%.2f", us) end

io.write(string.format("\n### %s: crossing routes (µs/op, median of %d rounds)\n\n", jit and jit.version or _VERSION,
  ROUNDS))
io.write("| size | build: C API | build: Lua const | build: Lua split",
  " | read: C API | read: Lua concat | read: Lua checked |\n")
io.write("| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n")
for _, size in ipairs { { 60, 20 }, { 200, 60 }, { 1000, 1000 } } do
  local w, h = size[1], size[2]
  local text = map.render(map.new_map(w, h))
  local m = map.new_map(w, h)
  local r = {
    bench(function() return #map.new_map(w, h) end),
    bench(function() return #B.new_map(w, h) end),
    bench(function() return #split(text, w, h) end),
    bench(function() return #map.render(m) end),
    bench(function() return #B.render(m) end),
    bench(function() return #checked_concat(m) end),
  }
  io.write(string.format("| %dx%d | %s | %s | %s | %s | %s | %s |\n", w, h, fmt(r[1]), fmt(r[2]), fmt(r[3]), fmt(r[4]),
    fmt(r[5]), fmt(r[6])))
end

-- reachable on 60x20 maps: the C API read vs a Lua read handing Rust one string.
local maps = {}
for s = 1, 100 do maps[s] = map.generate(60, 20, s) end
local reach_c = bench(function(i) return map.reachable(maps[(i - 1) % 100 + 1]) and 1 or 0 end)
local read_lua = bench(function(i) return #checked_concat(maps[(i - 1) % 100 + 1]) end)
local gen_text = bench(function(i) return #map.generate_text(60, 20, (i - 1) % 100 + 1) end)
local gen_table = bench(function(i) return #map.generate(60, 20, (i - 1) % 100 + 1) end)
local new_map = bench(function() return #map.new_map(60, 20) end)
local split_60 = bench(function(i) return #split(map.generate_text(60, 20, (i - 1) % 100 + 1), 60, 20) end)
io.write("\n| 60x20 | µs/op |\n| --- | ---: |\n")
io.write(string.format("| map.reachable(m) (C API read + Rust) | %s |\n", fmt(reach_c)))
io.write(string.format("| Lua checked concat of m (read only) | %s |\n", fmt(read_lua)))
io.write(string.format("| map.generate(60, 20, s) (table) | %s |\n", fmt(gen_table)))
io.write(string.format("| map.generate_text(60, 20, s) | %s |\n", fmt(gen_text)))
io.write(string.format("| map.new_map(60, 20) | %s |\n", fmt(new_map)))
io.write(string.format("| split(map.generate_text(60, 20, s)) in Lua | %s |\n", fmt(split_60)))
io.write(string.format("\n(sink %d)\n", sink % 10))
