-- bench/peers/world_report.lua: the tables of bench/peers/world_run.sh from
-- its work directory: for each workload, each program's median over the
-- rounds and its range, and `map`'s ratio to each peer (taken within a
-- round, then its median; above 1: the peer takes longer).
--
--   lua5.4 bench/peers/world_report.lua WORK ROUNDS

local work, rounds = arg[1], tonumber(arg[2])

local PROGRAMS = { "map-lua54", "map-lua54inc", "map-luajit", "tcod", "rot" }
local NAMES = { ["map-lua54"] = "map, Lua 5.4", ["map-lua54inc"] = "map, Lua 5.4 incremental",
  ["map-luajit"] = "map, LuaJIT", tcod = "libtcod (C)", rot = "rot.js (node)" }
local FILES = { ["map-lua54"] = "lua54", ["map-lua54inc"] = "lua54inc", ["map-luajit"] = "luajit", tcod = "c",
  rot = "node" }
local WORKLOADS = {
  { "grid1", "1000x1000 grid, simplex, 1 octave", "ms" },
  { "grid4", "1000x1000 grid, simplex, 4 octaves", "ms" },
  { "grid1v", "the same, libtcod's vectorized call", "ms" },
  { "grid4v", "the same, libtcod's vectorized call, 4 octaves", "ms" },
  { "pgrid1", "1000x1000 grid, Perlin, 1 octave", "ms" },
  { "pgrid4", "1000x1000 grid, Perlin, 4 octaves", "ms" },
  { "get1", "a sample in a loop, simplex, 1 octave", "ns" },
  { "get4", "a sample in a loop, simplex, 4 octaves", "ns" },
  { "pget1", "a sample in a loop, Perlin, 1 octave", "ns" },
  { "light", "light: 10 lights of radius 8, 80x50 cave (rot.js: its cache reset)", "µs" },
  { "light_cached", "rot.js's lighting, its fields of view cached", "µs" },
  { "lvl_light", "lvl:light on the level (map)", "µs" },
}

-- value[workload][program][round]
local value = {}
for r = 1, rounds do
  for _, p in ipairs(PROGRAMS) do
    local f = io.open(string.format("%s/round-%d-%s.out", work, r, FILES[p]))
    if f then
      for line in f:lines() do
        local impl, w, v = line:match("^time (%S+) (%S+) (%S+)")
        if impl == p then
          value[w] = value[w] or {}
          value[w][p] = value[w][p] or {}
          value[w][p][r] = tonumber(v)
        end
      end
      f:close()
    end
  end
end

local function median(xs)
  local s = {}
  for _, x in pairs(xs) do s[#s + 1] = x end
  if #s == 0 then return nil end
  table.sort(s)
  local n = #s
  if n % 2 == 1 then return s[(n + 1) / 2], s[1], s[n] end
  return (s[n / 2] + s[n / 2 + 1]) / 2, s[1], s[n]
end

local function fmt(x)
  if x >= 100 then return string.format("%.0f", x) end
  if x >= 10 then return string.format("%.1f", x) end
  return string.format("%.2f", x)
end

print("| workload | unit | " .. table.concat((function()
  local h = {}
  for i, p in ipairs(PROGRAMS) do h[i] = NAMES[p] end
  return h
end)(), " | ") .. " |")
print("| --- | --- |" .. string.rep(" ---: |", #PROGRAMS))
for _, w in ipairs(WORKLOADS) do
  local by = value[w[1]]
  if by then
    local cells = {}
    for i, p in ipairs(PROGRAMS) do
      local m, lo, hi = median(by[p] or {})
      cells[i] = m and string.format("%s (%s-%s)", fmt(m), fmt(lo), fmt(hi)) or "—"
    end
    print(string.format("| %s | %s | %s |", w[2], w[3], table.concat(cells, " | ")))
  end
end
print()
print("Ratios, peer / map (above 1: map is faster), median over the rounds of each round's ratio (range):")
print()
print("| workload | map | libtcod / map | rot.js / map |")
print("| --- | --- | ---: | ---: |")
for _, w in ipairs(WORKLOADS) do
  local by = value[w[1]]
  for _, p in ipairs({ "map-lua54", "map-lua54inc", "map-luajit" }) do
    if by and by[p] and (by.tcod or by.rot) then
      local cells = {}
      for k, peer in ipairs({ "tcod", "rot" }) do
        local ratios = {}
        for r = 1, rounds do
          if by[peer] and by[peer][r] and by[p][r] then ratios[#ratios + 1] = by[peer][r] / by[p][r] end
        end
        local m, lo, hi = median(ratios)
        cells[k] = m and string.format("%.2fx (%.2f-%.2f)", m, lo, hi) or "—"
      end
      print(string.format("| %s | %s | %s | %s |", w[2], NAMES[p], cells[1], cells[2]))
    end
  end
end
print()
print("Light: rot.js / map, each of map's calls against each of rot.js's, median over the rounds (range):")
print()
print("| map | rot.js, its cache reset / map | rot.js, its cache kept / map |")
print("| --- | ---: | ---: |")
for _, mine in ipairs({ "light", "lvl_light" }) do
  for _, p in ipairs({ "map-lua54", "map-lua54inc", "map-luajit" }) do
    local cells = {}
    for k, theirs in ipairs({ "light", "light_cached" }) do
      local ratios = {}
      for r = 1, rounds do
        local a, b = value[mine] and value[mine][p] and value[mine][p][r],
          value[theirs] and value[theirs].rot and value[theirs].rot[r]
        if a and b then ratios[#ratios + 1] = b / a end
      end
      local m, lo, hi = median(ratios)
      cells[k] = m and string.format("%.2fx (%.2f-%.2f)", m, lo, hi) or "—"
    end
    print(string.format("| %s, %s | %s | %s |", mine == "light" and "map.light" or "lvl:light", NAMES[p], cells[1],
      cells[2]))
  end
end
