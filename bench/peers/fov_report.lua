-- bench/peers/fov_report.lua: the tables of bench/peers/run.sh from the raw
-- output in its work directory (round-<r>-<prog>.out, counts-<prog>.out).
--
--   lua5.4 bench/peers/fov_report.lua WORK ROUNDS
--
-- Each figure is the median over the rounds, with the range in brackets;
-- each ratio is taken within a round (the two programs of one round ran
-- minutes apart at most) and then its median and range over the rounds.

local work, rounds = arg[1], tonumber(arg[2])
local PROGS = { "c", "lua54", "lua54inc", "luajit" }
-- The Lua programs, as the tables name them.
local LUAS = { { "lua54", "Lua 5.4" }, { "lua54inc", "Lua 5.4 incremental" }, { "luajit", "LuaJIT" } }

local function median(xs)
  local s = {}
  for i = 1, #xs do s[i] = xs[i] end
  table.sort(s)
  local n = #s
  if n == 0 then return nil end
  if n % 2 == 1 then return s[(n + 1) / 2] end
  return (s[n / 2] + s[n / 2 + 1]) / 2
end

local function range(xs)
  local lo, hi = math.huge, -math.huge
  for _, x in ipairs(xs) do lo, hi = math.min(lo, x), math.max(hi, x) end
  return lo, hi
end

local function num(x)
  if x >= 100 then return string.format("%.0f", x) end
  if x >= 10 then return string.format("%.1f", x) end
  return string.format("%.2f", x)
end

local function stat(xs) -- "median (lo-hi)"
  if #xs == 0 then return "—" end
  local lo, hi = range(xs)
  return string.format("%s (%s-%s)", num(median(xs)), num(lo), num(hi))
end

-- t[r][prog][impl .. " " .. size .. " " .. radius] = µs; loads = {1-min load}
local t, loads, heaps, peak = {}, {}, {}, {}
for r = 1, rounds do
  t[r], peak[r] = {}, {}
  for _, p in ipairs(PROGS) do
    t[r][p] = {}
    for line in io.lines(string.format("%s/round-%d-%s.out", work, r, p)) do
      local impl, size, radius, us = line:match("^time (%S+) (%S+) (%S+) (%S+)")
      if impl then t[r][p][impl .. " " .. size .. " " .. radius] = tonumber(us) end
      local load = line:match("^load (%S+)")
      if load then loads[#loads + 1] = tonumber(load) end
      local what, kib = line:match("^heap (%S+) (%S+)")
      if what then heaps[p .. " " .. what] = tonumber(kib) end
      local hwm = line:match("^peak levels (%d+)")
      if hwm then peak[r][p] = tonumber(hwm) end
    end
  end
end

local function series(prog, key)
  local xs = {}
  for r = 1, rounds do xs[#xs + 1] = t[r][prog][key] end
  return xs
end

local function ratios(num_prog, num_key, den_prog, den_key)
  local xs = {}
  for r = 1, rounds do
    local a, b = t[r][num_prog][num_key], t[r][den_prog][den_key]
    if a and b then xs[#xs + 1] = a / b end
  end
  return xs
end

local WORKLOADS = {
  { "80x50", "8", "radius 8, 80x50" },
  { "80x50", "unlimited", "unlimited, 80x50" },
  { "1000x1000", "8", "radius 8, 1000x1000" },
  { "1000x1000", "unlimited", "unlimited, 1000x1000" },
}

local lo_load, hi_load = range(loads)
print(string.format("Load (1-minute average, before and after each program): %.2f-%.2f.", lo_load, hi_load))
print()
print("µs per call, median over the rounds (range). Ratios: libtcod's time ÷ `lvl:fov`'s, within a round;")
print("above 1, `lvl:fov` is faster. Target: symmetric ÷ `lvl:fov` >= 1 on both interpreters. \"Lua 5.4\" is")
print("lua5.4 as it starts (its collector in generational mode, as lua.c sets it); \"Lua 5.4 incremental\"")
print("the same after collectgarbage(\"incremental\"), the mode a host's own lua_State starts in.")
print()
local head = { "workload", "libtcod symmetric", "libtcod shadow", "libtcod basic" }
local rule = { "---", "---:", "---:", "---:" }
for _, l in ipairs(LUAS) do head[#head + 1] = "`lvl:fov` " .. l[2]; rule[#rule + 1] = "---:" end
for _, l in ipairs(LUAS) do head[#head + 1] = "symmetric ÷ `lvl:fov` " .. l[2]; rule[#rule + 1] = "---:" end
head[#head + 1] = "shadow ÷ `lvl:fov` (" .. LUAS[1][2] .. " / " .. LUAS[2][2] .. " / " .. LUAS[3][2] .. ")"
rule[#rule + 1] = "---:"
head[#head + 1] = "target (symmetric)"; rule[#rule + 1] = "---"
print("| " .. table.concat(head, " | ") .. " |")
print("| " .. table.concat(rule, " | ") .. " |")
for _, w in ipairs(WORKLOADS) do
  local size, radius, label = w[1], w[2], w[3]
  local function k(impl) return impl .. " " .. size .. " " .. radius end
  local row = { label }
  for _, impl in ipairs { "tcod_sym", "tcod_shadow", "tcod_basic" } do row[#row + 1] = stat(series("c", k(impl))) end
  for _, l in ipairs(LUAS) do row[#row + 1] = stat(series(l[1], k("lvl_fov"))) end
  local verdict, shadow = {}, {}
  for _, l in ipairs(LUAS) do
    local x = ratios("c", k("tcod_sym"), l[1], k("lvl_fov"))
    row[#row + 1] = stat(x)
    local m, lo = median(x), (range(x))
    verdict[#verdict + 1] = l[2] .. ": " .. (m >= 1 and "met" or string.format("missed (%.2fx)", m))
      .. ((m >= 1 and lo < 1) and " (not in every round)" or "")
    shadow[#shadow + 1] = num(median(ratios("c", k("tcod_shadow"), l[1], k("lvl_fov"))))
  end
  row[#row + 1] = table.concat(shadow, " / ")
  row[#row + 1] = table.concat(verdict, "; ")
  print("| " .. table.concat(row, " | ") .. " |")
end

print()
print("Beside it, other forms of the call (µs per call, medians; "
  .. LUAS[1][2] .. " / " .. LUAS[2][2] .. " / " .. LUAS[3][2]
  .. "; in brackets, libtcod symmetric ÷ it, medians of the within-round ratios):")
print()
print("| workload | `lvl:fov(lvl.player, r)` | `lvl:fov` with generate's tables alive"
  .. " | `lvl:fov(p, r, {into = seen})` | `map.fov(m, m.player, r)` (table) |")
print("| --- | ---: | ---: | ---: | ---: |")
for _, w in ipairs(WORKLOADS) do
  local size, radius, label = w[1], w[2], w[3]
  local function k(impl) return impl .. " " .. size .. " " .. radius end
  local cells = {}
  for _, impl in ipairs { "lvl_fov_lit", "lvl_fov_bigheap", "lvl_fov_into", "table_fov" } do
    local us, rs = {}, {}
    for _, l in ipairs(LUAS) do
      us[#us + 1] = num(median(series(l[1], k(impl))))
      rs[#rs + 1] = num(median(ratios("c", k("tcod_sym"), l[1], k(impl))))
    end
    cells[#cells + 1] = string.format("%s (%s)", table.concat(us, " / "), table.concat(rs, " / "))
  end
  print(string.format("| %s | %s |", label, table.concat(cells, " | ")))
end
print()
local function heap(p, what)
  local kib = heaps[p .. " " .. what]
  return kib and string.format("%.1f MB", kib / 1024) or "?"
end
local function peaks(p)
  local xs = {}
  for r = 1, rounds do xs[#xs + 1] = peak[r][p] end
  if #xs == 0 then return "?" end
  local lo, hi = range(xs)
  return string.format("%.0f-%.0f MB", lo / 1024, hi / 1024)
end
local hl, ht, pk = {}, {}, {}
for _, l in ipairs(LUAS) do
  hl[#hl + 1], ht[#ht + 1], pk[#pk + 1] = heap(l[1], "levels"), heap(l[1], "tables"), peaks(l[1])
end
print(string.format("Lua heap (collectgarbage \"count\", %s / %s / %s): levels only %s; with generate's tables %s."
  .. " Peak resident memory of the process after the `lvl:fov` workloads (before the tables; VmHWM, range over"
  .. " the rounds): %s.", LUAS[1][2], LUAS[2][2], LUAS[3][2], table.concat(hl, " / "), table.concat(ht, " / "),
  table.concat(pk, " / ")))
print()

-- Visible cells.
local counts = {} -- counts[impl][size .. " " .. radius][seed] = n, from every program
for _, p in ipairs(PROGS) do
  for line in io.lines(string.format("%s/counts-%s.out", work, p)) do
    local impl, size, seed, radius, n = line:match("^count (%S+) (%S+) (%S+) (%S+) (%S+)")
    if impl then
      local key = (p == "c" and impl or impl .. "@" .. p)
      counts[key] = counts[key] or {}
      counts[key][size .. " " .. radius] = counts[key][size .. " " .. radius] or {}
      counts[key][size .. " " .. radius][tonumber(seed)] = tonumber(n)
    end
  end
end

print()
print("Visible cells from the player (libtcod with light_walls; `map` reveals walls too). `lvl:fov` against")
print("`map.fov` and across the interpreters; against libtcod, the maps on which the counts differ and the")
print("median and extremes of (libtcod - `lvl:fov`):")
print()
print("| workload | maps | `lvl:fov` mean | = `map.fov`, every interpreter | symmetric differs"
  .. " | symmetric - map | shadow - map | basic - map |")
print("| --- | ---: | ---: | --- | ---: | --- | --- | --- |")
for _, w in ipairs(WORKLOADS) do
  local key = w[1] .. " " .. w[2]
  local ref = counts["lvl_fov@lua54"][key]
  local same = true
  for _, other in ipairs { "lvl_fov@luajit", "lvl_fov@lua54inc", "table_fov@lua54", "table_fov@luajit" } do
    for s, n in pairs(ref) do same = same and counts[other][key][s] == n end
  end
  local n, sum = 0, 0
  for _, v in pairs(ref) do n, sum = n + 1, sum + v end
  local function diff(impl)
    local xs, differ = {}, 0
    for s, v in pairs(ref) do
      local d = counts[impl][key][s] - v
      xs[#xs + 1] = d
      if d ~= 0 then differ = differ + 1 end
    end
    local lo, hi = range(xs)
    return string.format("%g (%d to %d)", median(xs), lo, hi), differ
  end
  local sym, differ = diff("tcod_sym")
  print(string.format("| %s | %d | %.0f | %s | %d of %d | %s | %s | %s |", w[3], n, sum / n, same and "yes" or "**no**",
    differ, n, sym, (diff("tcod_shadow")), (diff("tcod_basic"))))
end
