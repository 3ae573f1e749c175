-- bench/example.sh's Lua side: the example generator, and the plain-Lua
-- WFC of spec/reference/wfc.lua, timed on the built-in samples (read from
-- src/generators/example/samples.rs; the sample not wrapping, n as given)
-- or, with BENCH_EXAMPLE_SAMPLES=DIR, on mxgmn's samples as that directory
-- holds them (/work/shared/example: test data, not in the repository;
-- their samples.xml settings: the sample wrapping, n 3 but simplemaze's 2,
-- all symmetries), one line per sample and size:
--   <side> <sample> <w>x<h> <made> <tried> <seconds> <patterns>
-- and the report of all lines (bench/example.sh's table).
--   lua5.4 bench/example_side.lua samples DIR          -- each sample as DIR/<name>.txt, "<name> <n>" lines out
--   lua5.4 bench/example_side.lua module LABEL FIRST COUNT N SYMMETRY
--   lua5.4 bench/example_side.lua lua FIRST COUNT N SYMMETRY
--   lua5.4 bench/example_side.lua report FILE
-- `module` makes each level with map.generate_text (its defaults but the
-- sample, n and symmetry: wraps off, the sample's border kept, up to 20
-- attempts, connected); `lua` with wfc.solve, one attempt (a contradiction
-- is a failure), no border or connection.
package.path = "./?.lua;" .. package.path
local wfc = require "spec.reference.wfc"
local unpack = table.unpack or unpack

local REAL_DIR = os.getenv("BENCH_EXAMPLE_SAMPLES")
-- name, n (nil: as given), blocking, whether the sample wraps.
local SAMPLES = REAL_DIR and {
  { "cave", 3, "#", true }, { "rooms", 3, "#", true }, { "dungeon", 3, "#", true },
  { "simplemaze", 2, "#", true }, { "sewers", 3, "#", true }, { "lake", 3, "#~", true }, { "town", 3, "#", true },
} or {
  { "caves" }, { "caverns" }, { "rooms" }, { "dungeon" }, { "overworld" }, { "maze" },
}
-- BENCH_EXAMPLE_ONLY: the samples to run, by name (all when unset).
local ONLY = os.getenv("BENCH_EXAMPLE_ONLY")
if ONLY then
  local kept = {}
  for _, case in ipairs(SAMPLES) do
    if (" " .. ONLY .. " "):find(" " .. case[1] .. " ", 1, true) then kept[#kept + 1] = case end
  end
  SAMPLES = kept
end
local SIZES = { { 48, 32 }, { 96, 64 } }
local clock = os.clock

local function file_rows(name)
  local rows = {}
  for row in io.lines(REAL_DIR .. "/" .. name .. ".txt") do rows[#rows + 1] = row end
  return rows
end

-- A built-in sample's rows, read from its Rust source.
local function sample_rows(name)
  if REAL_DIR then return file_rows(name) end
  local source = assert(io.open("src/generators/example/samples.rs")):read("a")
  local body = assert(source:match('"' .. name .. '",%s*"[^"]*",%s*"\\\n(.-)",\n'), name)
  local rows = {}
  for row in body:gmatch("([^\n]-)\\n\\\n") do rows[#rows + 1] = row end
  rows[#rows + 1] = body:match("([^\n]*)$")
  for i, row in ipairs(rows) do rows[i] = row:gsub('\\"', '"'):gsub("\\\\", "\\") end
  return rows
end

local function line(side, name, w, h, made, tried, seconds, patterns)
  print(("%s %s %dx%d %d %d %.6f %d"):format(side, name, w, h, made, tried, seconds, patterns))
end

local function module_side(label, first, count, given_n, symmetry)
  local map = require "map"
  for _, case in ipairs(SAMPLES) do
    local name, n, blocking, wraps = case[1], case[2] or given_n, case[3], case[4] or false
    local rows = sample_rows(name)
    local sample = REAL_DIR and table.concat(rows, "\n") or name
    local patterns = #wfc.patterns(rows, n, symmetry, wraps)
    for _, size in ipairs(SIZES) do
      local w, h = size[1], size[2]
      local made, t = 0, clock()
      for seed = first, first + count - 1 do
        local ok = pcall(map.generate_text, { width = w, height = h, seed = seed, algorithm = "example",
          sample = sample, n = n, symmetry = symmetry, blocking = blocking, wraps = wraps })
        if ok then made = made + 1 end
      end
      line(label, name, w, h, made, count, clock() - t, patterns)
    end
  end
end

local function lua_side(first, count, given_n, symmetry)
  for _, case in ipairs(SAMPLES) do
    local name, n = case[1], case[2] or given_n
    local list, weights = wfc.patterns(sample_rows(name), n, symmetry, case[4] or false)
    for _, size in ipairs(SIZES) do
      local w, h = size[1], size[2]
      local made, t = 0, clock()
      for seed = first, first + count - 1 do
        math.randomseed(seed)
        if wfc.solve(list, weights, n, w, h, 1) then made = made + 1 end
      end
      line("plain-lua", name, w, h, made, count, clock() - t, #list)
    end
  end
end

-- A sample's blocking characters: mxgmn's as listed, a built-in one's own
-- (its Rust source).
local function sample_blocking(case)
  if REAL_DIR then return case[3] end
  local source = assert(io.open("src/generators/example/samples.rs")):read("a")
  return assert(source:match('"' .. case[1] .. '",%s*"([^"]*)"'), case[1])
end

local function write_samples(dir, given_n)
  for _, case in ipairs(SAMPLES) do
    local f = assert(io.open(dir .. "/" .. case[1] .. ".txt", "w"))
    f:write(table.concat(sample_rows(case[1]), "\n"), "\n")
    f:close()
    print(case[1], case[2] or given_n, (sample_blocking(case)), case[4] and 1 or 0)
  end
end

-- The table: per sample and size, each side's ms per call over all its
-- rounds (the range of the rounds' in brackets) and the levels made of
-- those tried; then the ratios of the time per level made (a call's time
-- over the share of calls that made one), to the module on Lua 5.4.
local SIDES = { "lua5.4", "luajit", "wfc-crate", "wfc-crate-each", "wfc-crate-kept", "plain-lua" }
local function report(file)
  local by = {}
  for l in io.lines(file) do
    local side, name, size, made, tried, seconds, patterns = l:match("^(%S+) (%S+) (%S+) (%d+) (%d+) (%S+) (%d+)$")
    if side then
      local key = name .. " " .. size
      by[key] = by[key] or {}
      local s = by[key][side] or { made = 0, tried = 0, seconds = 0, rounds = {}, patterns = patterns }
      s.made, s.tried, s.seconds = s.made + made, s.tried + tried, s.seconds + seconds
      s.rounds[#s.rounds + 1] = seconds * 1000 / tried
      by[key][side] = s
    end
  end
  print("| sample | size | " .. table.concat(SIDES, " | ")
    .. " | plain Lua / 5.4 | crate / 5.4 | crate / LuaJIT | crate-each / 5.4"
    .. " | crate-kept / 5.4 | crate-kept / LuaJIT |")
  print("| --- | --- |" .. (" --- |"):rep(#SIDES + 6))
  for _, case in ipairs(SAMPLES) do
    local name = case[1]
    for _, size in ipairs(SIZES) do
      local sides = by[("%s %dx%d"):format(name, size[1], size[2])]
      if sides then
        local cells, made = {}, {}
        for i, side in ipairs(SIDES) do
          local s = sides[side]
          if s then
            table.sort(s.rounds)
            made[side] = s.made > 0 and s.seconds * 1000 / s.made or nil
            cells[i] = ("%.1f [%.1f-%.1f], %d/%d"):format(s.seconds * 1000 / s.tried, s.rounds[1],
              s.rounds[#s.rounds], s.made, s.tried)
          else
            cells[i] = "-"
          end
        end
        local function ratio(a, b)
          if not (made[a] and made[b]) then return "-" end
          return ("%.1fx"):format(made[a] / made[b])
        end
        print(("| %s | %dx%d | %s | %s | %s | %s | %s | %s | %s |"):format(name, size[1], size[2],
          table.concat(cells, " | "), ratio("plain-lua", "lua5.4"), ratio("wfc-crate", "lua5.4"),
          ratio("wfc-crate", "luajit"), ratio("wfc-crate-each", "lua5.4"), ratio("wfc-crate-kept", "lua5.4"),
          ratio("wfc-crate-kept", "luajit")))
      end
    end
  end
  print()
  print("Each side: ms per call [the rounds' range], levels made / tried. Ratios: ms per level made, the other"
    .. " side's over the module's (- where a side made none). Patterns (the module's and plain Lua's; the crate's,"
    .. " whose sample wraps):")
  for _, case in ipairs(SAMPLES) do
    local name = case[1]
    local sides = by[("%s %dx%d"):format(name, SIZES[1][1], SIZES[1][2])] or {}
    print(("- %s: %s; %s"):format(name, sides["lua5.4"] and sides["lua5.4"].patterns or "-",
      sides["wfc-crate"] and sides["wfc-crate"].patterns or "-"))
  end
end

local mode = arg[1]
if mode == "samples" then
  write_samples(arg[2], tonumber(arg[3]))
elseif mode == "module" then
  local label, first, count, n, symmetry = unpack(arg, 2, 6)
  module_side(label, tonumber(first), tonumber(count), tonumber(n), symmetry)
elseif mode == "lua" then
  local first, count, n, symmetry = unpack(arg, 2, 5)
  lua_side(tonumber(first), tonumber(count), tonumber(n), symmetry)
elseif mode == "report" then
  report(arg[2])
else
  error("usage: bench/example_side.lua samples DIR | module LABEL FIRST COUNT N SYMMETRY | lua FIRST COUNT N"
    .. " SYMMETRY | report FILE")
end
