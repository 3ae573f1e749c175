-- bench/peers/floor_report.lua: the table of bench/peers/floor.sh from the
-- raw output in its work directory (round-<r>-<prog>.out, counts-<prog>.out).
--
--   lua5.4 bench/peers/floor_report.lua WORK ROUNDS
--
-- Figures: medians over the rounds with their ranges; each ratio (the
-- floor's time, or libtcod's, over the module's: above 1 the module is
-- faster) is taken within a round, then its median and range.

local work, rounds = arg[1], tonumber(arg[2])
local PROGS = { "c", "tcod", "lua54", "luajit" }

local function median(xs)
  local s = {}
  for i = 1, #xs do s[i] = xs[i] end
  table.sort(s)
  local n = #s
  if n == 0 then return nil end
  if n % 2 == 1 then return s[(n + 1) / 2] end
  return (s[n / 2] + s[n / 2 + 1]) / 2
end

local function num(x)
  if x >= 100 then return string.format("%.0f", x) end
  if x >= 10 then return string.format("%.1f", x) end
  if x >= 1 then return string.format("%.2f", x) end
  return string.format("%.3f", x)
end

local function stat(xs)
  if #xs == 0 then return "—" end
  local lo, hi = math.huge, -math.huge
  for _, x in ipairs(xs) do lo, hi = math.min(lo, x), math.max(hi, x) end
  return string.format("%s (%s-%s)", num(median(xs)), num(lo), num(hi))
end

-- t[r][prog][impl size variant] = µs
local t, loads = {}, {}
for r = 1, rounds do
  t[r] = {}
  for _, p in ipairs(PROGS) do
    t[r][p] = {}
    for line in io.lines(string.format("%s/round-%d-%s.out", work, r, p)) do
      local impl, size, variant, us = line:match("^time (%S+) (%S+) (%S+) (%S+)")
      if impl then t[r][p][impl .. " " .. size .. " " .. variant] = tonumber(us) end
      local load = line:match("^load (%S+)")
      if load then loads[#loads + 1] = tonumber(load) end
    end
  end
end

local function series(p, key)
  local xs = {}
  for r = 1, rounds do xs[#xs + 1] = t[r][p][key] end
  return xs
end

local function ratios(np, nk, dp, dk)
  local xs = {}
  for r = 1, rounds do
    local a, b = t[r][np][nk], t[r][dp][dk]
    if a and b then xs[#xs + 1] = a / b end
  end
  return xs
end

-- { label, module key, floor key, libtcod key or nil }
local ROWS = {
  { "`lvl:distances(p)` 80x50", "lvl_distances 80x50 all", "c_bfs 80x50 all" },
  { "`lvl:distances(p, {max = 10})` 80x50", "lvl_distances 80x50 max10", "c_bfs 80x50 max10" },
  { "`lvl:distances(p)` 1000x1000", "lvl_distances 1000x1000 all", "c_bfs 1000x1000 all" },
  { "`lvl:distances(p, {max = 10})` 1000x1000", "lvl_distances 1000x1000 max10", "c_bfs 1000x1000 max10" },
  { "`lvl:distances(ten far apart, {max = 10})` 1000x1000", "lvl_distances 1000x1000 far10max10",
    "c_bfs 1000x1000 far10max10" },
  { "`lvl:fov(p, 8, {into = memory})` 80x50", "lvl_fov_into 80x50 8", "c_fov 80x50 8", "tcod_sym 80x50 8" },
  { "`lvl:fov(p, nil, {into = memory})` 80x50", "lvl_fov_into 80x50 unlimited", "c_fov 80x50 unlimited",
    "tcod_sym 80x50 unlimited" },
  { "`lvl:fov(p, 8, {into = memory})` 1000x1000", "lvl_fov_into 1000x1000 8", "c_fov 1000x1000 8",
    "tcod_sym 1000x1000 8" },
  { "`lvl:fov(p, nil, {into = memory})` 1000x1000", "lvl_fov_into 1000x1000 unlimited",
    "c_fov 1000x1000 unlimited", "tcod_sym 1000x1000 unlimited" },
  -- flee beside the floor's breadth-first search alone (flee rescans too).
  { "`lvl:flee(p, {max = 10})` 80x50", "lvl_flee 80x50 max10", "c_bfs 80x50 max10" },
  { "`lvl:flee(p, {max = 10})` 1000x1000", "lvl_flee 1000x1000 max10", "c_bfs 1000x1000 max10" },
  { "`lvl:flee(ten far apart, {max = 10})` 1000x1000", "lvl_flee 1000x1000 far10max10",
    "c_bfs 1000x1000 far10max10" },
  { "`lvl:path(p, lvl.stairs)` 80x50", "lvl_path 80x50 stairs", "c_path 80x50 stairs" },
  { "`lvl:path(p, lvl.stairs)` 1000x1000", "lvl_path 1000x1000 stairs", "c_path 1000x1000 stairs" },
  { "`lvl:explore(seen, p)` 80x50", "lvl_explore 80x50 seen", "c_explore 80x50 seen" },
  { "`lvl:explore(seen, p)` 1000x1000", "lvl_explore 1000x1000 seen", "c_explore 1000x1000 seen" },
}

print("µs per call, median (range) over the rounds; floor/map and libtcod/map: the other's time over the")
print("module's, within a round (above 1: the module is faster).")
print()
print("| workload | floor (C) µs | libtcod sym µs | Lua 5.4 µs | LuaJIT µs | floor/map 5.4 | floor/map JIT"
  .. " | libtcod/map 5.4 | libtcod/map JIT |")
print("|---|---|---|---|---|---|---|---|---|")
for _, row in ipairs(ROWS) do
  local label, mk, fk, tk = row[1], row[2], row[3], row[4]
  print(string.format("| %s | %s | %s | %s | %s | %s | %s | %s | %s |", label,
    stat(series("c", fk)), tk and stat(series("tcod", tk)) or "—",
    stat(series("lua54", mk)), stat(series("luajit", mk)),
    stat(ratios("c", fk, "lua54", mk)), stat(ratios("c", fk, "luajit", mk)),
    tk and stat(ratios("tcod", tk, "lua54", mk)) or "—", tk and stat(ratios("tcod", tk, "luajit", mk)) or "—"))
end

-- Counts: the module's cells (or a path's length) against the floor's,
-- level by level; flee reaches the cells its breadth-first search does.
local KIND = { c_bfs = "bfs", lvl_distances = "bfs", lvl_flee = "bfs", c_fov = "fov", lvl_fov_into = "fov",
  c_path = "path", lvl_path = "path", c_explore = "explore", lvl_explore = "explore" }
local counts = {}
for _, p in ipairs { "c", "lua54", "luajit" } do
  counts[p] = {}
  for line in io.lines(string.format("%s/counts-%s.out", work, p)) do
    local impl, size, seed, variant, c = line:match("^count (%S+) (%S+) (%S+) (%S+) (%S+)")
    counts[p][#counts[p] + 1] = { KIND[impl] .. " " .. size .. " " .. seed .. " " .. variant, impl, tonumber(c) }
  end
end
local floor_counts = {}
for _, e in ipairs(counts.c) do floor_counts[e[1]] = e[3] end
local checked, differ = 0, {}
for _, p in ipairs { "lua54", "luajit" } do
  for _, e in ipairs(counts[p]) do
    local key, impl, c = e[1], e[2], e[3]
    checked = checked + 1
    if floor_counts[key] ~= c then
      differ[#differ + 1] = string.format("%s %s %s: %d against %s", p, impl, key, c, tostring(floor_counts[key]))
    end
  end
end
print()
print(string.format("Counts (cells reached within the distance, cells seen, a path's cells): %d compared with the"
  .. " floor's, %d differ.", checked, #differ))
table.sort(differ)
for _, d in ipairs(differ) do print("- " .. d) end
local lo, hi = math.huge, -math.huge
for _, l in ipairs(loads) do lo, hi = math.min(lo, l), math.max(hi, l) end
print()
print(string.format("1-minute load average over the run: %.2f-%.2f.", lo, hi))
