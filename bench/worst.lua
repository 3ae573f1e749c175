-- bench/worst.lua: a search for the slowest valid call of every export
-- (the bound on each call's time is documented with the worst valid shape
-- found by a search over shapes and options, not by guessing: docs/hardening.md).
--
--   lua5.4 bench/worst.lua [budget_seconds]     (from the repository root)
--   luajit bench/worst.lua [budget_seconds]
--
-- Loads build/lib/lua/5.4/map.so on Lua 5.4, build/lib/lua/5.1/map.so on
-- LuaJIT (or whatever package.cpath finds first when LUA_CPATH_5_4, or on
-- LuaJIT LUA_CPATH, is set). For each export:
-- - new_map, render, reachable: every shape at the cell cap, log-spaced from
--   the narrowest to the widest (1x4000000 ... 4000000x1), then the shapes
--   between the slowest one's neighbours; render and reachable on maps of
--   several kinds (open floor, pillars, a serpentine corridor; see MAPS).
-- - generate_text, for each algorithm of map.ALGORITHMS with its options
--   from map.describe(name).options: the shapes at the cap with default
--   options; every option at its min, default and max (one at a time) on
--   every shape; then, from the slowest calls found, a coordinate ascent
--   over the options (their extremes and values between) and over the shape
--   (widths between the slowest one's neighbours), until nothing is slower;
--   then seeds 2 to 6 for the slowest (seed 1 elsewhere).
--   generate and generate_json then time the slowest configurations found
--   for generate_text, and sweep the shapes with those options (building
--   the Lua table costs more with more rows).
-- - fov, distances, path: every shape and map kind, with the origin,
--   sources and ends far apart or central, and their options (radius,
--   opaque, diagonal, cost) at their extremes; then shape refinement.
-- - flee, explore, sample, visible, autotile, parse: the same shape search,
--   each with its options at their extremes (flee's factor and costs;
--   explore with every cell known but the last, far from the start, costs
--   and the longest `avoid`; sample drawing every cell, from a cell, hidden;
--   visible along the ray and over the rectangle; autotile's modes and
--   classes; parse of texts at the cap).
-- - step (which reads 3x3 cells) with the longest `avoid` and `known`; line
--   of MAX_CELLS cells, along each axis, diagonal, steep, and far out.
-- The designer's table options of generate (vaults, arrive, place) are
-- bench/worst_design.lua's.
-- Each call is timed once, with os.clock (CPU time), after a full garbage
-- collection. A call over LIMIT seconds is not aborted (C code cannot be
-- interrupted) but ends the search around it: no slower neighbour of it is
-- tried. Calls that raise (invalid combinations, such as more items than
-- floor) are listed too, marked, since a slow refusal is as bad as a slow
-- map. The total is bounded by the budget (default 300 s), shared among the
-- exports in proportion to their number of searches; a search stops when its
-- share is spent. Prints the 10 slowest calls per export, each with its exact
-- arguments, the generators' slowest valid call per algorithm, then the
-- slowest valid call of each export. Progress and every call over 1 s go to
-- stderr.
local here = (arg and arg[0] or ""):match("^(.*)/[^/]*$") or "."
package.path = here .. "/?.lua;" .. package.path
local BUILT = jit and "build/lib/lua/5.1/?.so;" or "build/lib/lua/5.4/?.so;"
package.cpath = (os.getenv(jit and "LUA_CPATH" or "LUA_CPATH_5_4") and "" or BUILT) .. package.cpath
local map = require "map"

local BUDGET = tonumber(arg and arg[1]) or 300
local LIMIT = 5 -- seconds: a call slower than this is not explored further
local CAP = map.MAX_CELLS
local TOP = 10

local clock = os.clock

-- a // b for positive integers, which LuaJIT's syntax lacks (an integer on
-- Lua 5.4, as math.floor gives one).
local function idiv(a, b) return math.floor(a / b) end
local started = clock()

-- Results: per export, a list of {seconds=, ok=, args=, err=}.
local results = {}
local EXPORTS = { "new_map", "render", "reachable", "generate", "generate_text", "generate_json", "fov", "distances",
  "path", "step", "flee", "explore", "sample", "line", "visible", "autotile", "parse" }
for _, name in ipairs(EXPORTS) do results[name] = {} end

local function log(...)
  io.stderr:write(string.format("[%6.1f s] ", clock() - started), ...)
  io.stderr:write("\n")
end

-- Arguments as Lua source, for the report (maps are described by `desc`).
local function show(v)
  if type(v) == "table" then
    if v.desc then return v.desc end
    local keys = {}
    for k in pairs(v) do keys[#keys + 1] = k end
    table.sort(keys, function(a, b)
      if type(a) == type(b) then return a < b end
      return type(a) == "number"
    end)
    local parts = {}
    for _, k in ipairs(keys) do
      local key = type(k) == "string" and k:match("^[%a_][%w_]*$") and k or "[" .. show(k) .. "]"
      parts[#parts + 1] = (type(k) == "number" and k == #parts + 1) and show(v[k]) or key .. "=" .. show(v[k])
    end
    return "{" .. table.concat(parts, ", ") .. "}"
  elseif type(v) == "string" and #v > 80 then
    return string.format("<text of %d bytes>", #v)
  elseif type(v) == "string" then
    return string.format("%q", v)
  elseif math.type and math.type(v) == "float" then
    return string.format("%.17g", v)
  end
  return tostring(v)
end

-- A search's share of the budget: `deadline` is when it must stop.
local deadline = math.huge
local function out_of_time() return clock() > deadline end

-- Times export(...) once; records and returns seconds, ok. nil when the
-- search is out of time. `unpack` of the arguments keeps map descriptions
-- (a `desc` field in the map table) for the report.
local unpack = table.unpack or unpack
local function time(export, ...)
  if out_of_time() then return nil end
  local args = { n = select("#", ...), ... }
  while args.n > 0 and args[args.n] == nil do args.n = args.n - 1 end
  collectgarbage("collect")
  local t0 = clock()
  local ok, err = pcall(map[export], unpack(args, 1, args.n))
  local seconds = clock() - t0
  local shown = {}
  for i = 1, args.n do shown[i] = show(args[i]) end
  local record = { seconds = seconds, ok = ok, args = "map." .. export .. "(" .. table.concat(shown, ", ") .. ")",
    err = not ok and tostring(err) or nil }
  table.insert(results[export], record)
  if seconds > 1 then log(string.format("%.2f s  %s%s", seconds, record.args, ok and "" or "  -> " .. record.err)) end
  err = nil -- luacheck: ignore (drop the result before the next collection)
  return seconds, ok
end

-- Shapes w x h with w * h at most the cap (h = floor(CAP / w)), w log-spaced
-- from min_w to the widest that leaves min_h rows, plus 2000x2000.
local function shapes(min_w, min_h, count)
  local max_w = idiv(CAP, min_h)
  local list, seen = {}, {}
  local function add(w)
    w = math.max(min_w, math.min(max_w, math.floor(w + 0.5)))
    local h = idiv(CAP, w)
    if h >= min_h and not seen[w] then
      seen[w] = true
      list[#list + 1] = { w, h }
    end
  end
  for i = 0, count - 1 do add(min_w * (max_w / min_w) ^ (i / (count - 1))) end
  add(2000)
  table.sort(list, function(a, b) return a[1] < b[1] end)
  return list
end

-- Widths between w's neighbours in log space (factor f each side), for
-- refining a shape.
local function around(w, f, min_w, min_h)
  local list = {}
  for _, k in ipairs({ 1 / f, 1 / math.sqrt(f), math.sqrt(f), f }) do
    local nw = math.max(min_w, math.min(idiv(CAP, min_h), math.floor(w * k + 0.5)))
    if nw ~= w then list[#list + 1] = { nw, idiv(CAP, nw) } end
  end
  return list
end

-- Maps, `avoid`, `known` and texts: bench/worst_maps.lua.
local maps = require "worst_maps"
local row_of, make_map, avoid_list = maps.row_of, maps.make_map, maps.avoid_list
local known_but_last, text_of = maps.known_but_last, maps.text_of


------------------------------------------------------------------------------
-- new_map and render: shapes from 1x4000000 to 4000000x1.

-- Sweeps `run(w, h)` over the shapes, then refines around the slowest
-- (twice); returns the slowest shape's seconds.
local function shape_search(run, min_w, min_h, count)
  local best_s, best_w = -1, nil
  local function try(w, h)
    local s = run(w, h)
    if s and s > best_s then best_s, best_w = s, w end
    return s
  end
  for _, shape in ipairs(shapes(min_w, min_h, count or 15)) do
    local s = try(shape[1], shape[2])
    if s == nil then break end
  end
  for _, f in ipairs({ 2.5, 1.5 }) do
    if best_w == nil or best_s > LIMIT then break end
    for _, shape in ipairs(around(best_w, f, min_w, min_h)) do try(shape[1], shape[2]) end
  end
  return best_s
end

local searches = {}

searches[#searches + 1] = { "new_map", 2, function()
  shape_search(function(w, h) return time("new_map", w, h) end, 1, 1)
end }

searches[#searches + 1] = { "render", 3, function()
  for _, kind in ipairs({ "floor", "pillars" }) do
    shape_search(function(w, h) return time("render", make_map(kind, w, h)) end, 1, 1, 12)
  end
end }

searches[#searches + 1] = { "reachable", 4, function()
  for _, kind in ipairs({ "floor", "pillars", "serpentine" }) do
    shape_search(function(w, h) return time("reachable", make_map(kind, w, h, true)) end, 2, 1, 12)
  end
end }

------------------------------------------------------------------------------
-- The generators.

-- Candidate values of an option: its extremes and default, and for the
-- ascent, values between (log-spaced for integers).
local function candidates(option, fine)
  if option.type == "boolean" then return { false, true } end
  local lo, hi = option.min, option.max
  if option.type == "number" and option.open_min then lo = lo + (hi - lo) * 1e-3 end
  local list, seen = {}, {}
  local function add(v)
    if option.type == "integer" then v = math.floor(v + 0.5) end
    if v >= option.min and v <= hi and not seen[v] and not (option.open_min and v <= option.min) then
      seen[v] = true
      list[#list + 1] = v
    end
  end
  add(lo)
  if option.default ~= nil then add(option.default) end
  add(hi)
  if fine then
    for i = 1, 7 do
      if option.type == "integer" and lo >= 1 then
        add(lo * (hi / lo) ^ (i / 8))
      else
        add(lo + (hi - lo) * i / 8)
      end
    end
  end
  return list
end

local function options_of(algorithm, w, h, values)
  local o = { width = w, height = h, seed = 1, algorithm = algorithm }
  for k, v in pairs(values) do o[k] = v end
  return o
end

local function copy(t)
  local c = {}
  for k, v in pairs(t) do c[k] = v end
  return c
end

-- The slowest configurations found for each algorithm, for generate and
-- generate_json: list of {seconds, w, h, values}.
local slowest = {}

local function generator_search(algorithm)
  local d = map.describe(algorithm)
  local specs = d.options
  local found = {}
  local function try(w, h, values)
    local s, ok = time("generate_text", options_of(algorithm, w, h, values))
    if s then found[#found + 1] = { s, w, h, copy(values), ok } end
    return s, ok
  end
  -- 1. Shapes with default options.
  local sweep = shapes(d.min_width, d.min_height, 13)
  for _, shape in ipairs(sweep) do try(shape[1], shape[2], {}) end
  -- 2. Each option at its min, default and max, one at a time, on every
  -- shape; an option whose value passed LIMIT on a shape is not pushed
  -- further there.
  for _, shape in ipairs(sweep) do
    for _, option in ipairs(specs) do
      for _, v in ipairs(candidates(option)) do
        if v ~= option.default then
          local s = try(shape[1], shape[2], { [option.name] = v })
          if s == nil or s > LIMIT then break end
        end
      end
    end
  end
  -- 3. Coordinate ascent from the two slowest valid configurations: each
  -- option over its candidates (fine), then the width, until no change.
  table.sort(found, function(a, b) return a[1] > b[1] end)
  local starts = {}
  for _, f in ipairs(found) do
    if f[5] and #starts < 2 then starts[#starts + 1] = f end
  end
  for _, start in ipairs(starts) do
    local best = { start[1], start[2], start[3], copy(start[4]) }
    for _ = 1, 3 do
      local improved = false
      for _, option in ipairs(specs) do
        if best[1] > LIMIT then break end
        for _, v in ipairs(candidates(option, true)) do
          if best[4][option.name] ~= v then
            local values = copy(best[4])
            values[option.name] = v
            local s, ok = try(best[2], best[3], values)
            if s and ok and s > best[1] * 1.05 then best, improved = { s, best[2], best[3], values }, true end
          end
        end
      end
      for _, f in ipairs({ 2, 1.3 }) do
        for _, shape in ipairs(around(best[2], f, d.min_width, d.min_height)) do
          if best[1] > LIMIT then break end
          local s, ok = try(shape[1], shape[2], best[4])
          if s and ok and s > best[1] * 1.05 then best, improved = { s, shape[1], shape[2], best[4] }, true end
        end
      end
      if not improved or out_of_time() then break end
    end
    -- Other seeds for the slowest configuration.
    for seed = 2, 6 do
      if best[1] > LIMIT then break end
      local values = copy(best[4])
      values.seed = seed
      local s, ok = try(best[2], best[3], values)
      if s and ok and s > best[1] then best = { s, best[2], best[3], values } end
    end
  end
  table.sort(found, function(a, b) return a[1] > b[1] end)
  local top = {}
  for _, f in ipairs(found) do
    if f[5] and #top < 5 then top[#top + 1] = f end
  end
  slowest[algorithm] = top
end

for _, algorithm in ipairs(map.ALGORITHMS) do
  searches[#searches + 1] = { "generate_text " .. algorithm, 6, function() generator_search(algorithm) end }
end

-- generate and generate_json: the slowest generate_text configurations of
-- each algorithm, then the shapes with the slowest one's options.
for _, export in ipairs({ "generate", "generate_json" }) do
  searches[#searches + 1] = { export, 6, function()
    -- Every algorithm's slowest first, then the others, then the shapes.
    for rank = 1, 5 do
      for _, algorithm in ipairs(map.ALGORITHMS) do
        local f = (slowest[algorithm] or {})[rank]
        if f then time(export, options_of(algorithm, f[2], f[3], f[4])) end
      end
    end
    for _, algorithm in ipairs(map.ALGORITHMS) do
      local d = map.describe(algorithm)
      local worst = (slowest[algorithm] or {})[1]
      if worst and worst[1] <= LIMIT then
        for _, shape in ipairs(shapes(d.min_width, d.min_height, 9)) do
          time(export, options_of(algorithm, shape[1], shape[2], worst[4]))
        end
      end
    end
  end }
end

------------------------------------------------------------------------------
-- fov, distances, path.

local MAX_COST = maps.MAX_COST

searches[#searches + 1] = { "fov", 5, function()
  for _, kind in ipairs({ "floor", "pillars", "serpentine" }) do
    shape_search(function(w, h)
      local m = make_map(kind, w, h)
      local worst = -1
      for _, call in ipairs({
        { idiv(w + 1, 2), idiv(h + 1, 2) },
        { 1, 1 },
        { idiv(w + 1, 2), idiv(h + 1, 2), w + h },
        { 1, 1, nil, { opaque = "" } },
      }) do
        local s = time("fov", m, call[1], call[2], call[3], call[4])
        if s == nil then return nil end
        worst = math.max(worst, s)
        if s > LIMIT then break end
      end
      return worst
    end, 1, 1, 10)
  end
end }

searches[#searches + 1] = { "distances", 6, function()
  for _, kind in ipairs({ "floor", "serpentine", "checker" }) do
    shape_search(function(w, h)
      local m = make_map(kind, w, h)
      local many = {}
      for x = 1, w, math.max(1, idiv(w, 1000)) do many[#many + 1] = { x = x, y = 1 } end
      local worst = -1
      for _, call in ipairs({
        { { x = 1, y = 1 } },
        { { x = 1, y = 1 }, { diagonal = true } },
        { { x = 1, y = 1 }, { cost = { ["."] = 1, [","] = MAX_COST } } },
        { { x = 1, y = 1 }, { cost = { ["."] = 1, [","] = 7, ["#"] = 3 }, blocked = "", diagonal = true } },
        { many },
      }) do
        local s = time("distances", m, call[1], call[2])
        if s == nil then return nil end
        worst = math.max(worst, s)
        if s > LIMIT then break end
      end
      return worst
    end, 1, 1, 10)
  end
end }

searches[#searches + 1] = { "path", 6, function()
  for _, kind in ipairs({ "floor", "serpentine", "checker", "walled" }) do
    shape_search(function(w, h)
      local m = make_map(kind, w, h)
      local x2, y2 = w, h
      if kind == "serpentine" then x2 = (h % 4 == 1 or h % 4 == 2) and w or 1 end
      local worst = -1
      for _, opts in ipairs({
        false,
        { diagonal = true },
        { cost = { ["."] = 1, [","] = 7 } },
        { cost = { ["."] = MAX_COST, [","] = 1, ["#"] = 1 }, blocked = "", diagonal = true },
      }) do
        local s = time("path", m, 1, 1, x2, y2, opts or nil)
        if s == nil then return nil end
        worst = math.max(worst, s)
        if s > LIMIT then break end
      end
      return worst
    end, 1, 1, 10)
  end
end }

------------------------------------------------------------------------------
-- step, flee, explore, sample, line, visible, autotile, parse.


-- Tries each call of `calls(w, h)` (a list of argument lists) on a shape;
-- the slowest one's seconds, or nil when out of time.
local function each_call(export, calls)
  return function(w, h)
    local worst = -1
    for _, call in ipairs(calls(w, h)) do
      local s = time(export, unpack(call, 1, call.n or #call))
      if s == nil then return nil end
      worst = math.max(worst, s)
      if s > LIMIT then break end
    end
    return worst
  end
end

searches[#searches + 1] = { "step", 2, function()
  -- step reads the cell and its neighbours only: the work is in the options'
  -- lists (`avoid` at its longest) and `known`.
  local m = make_map("floor", 2000, 2000)
  local d = setmetatable({}, { __index = { desc = "<d 2000x2000: x in each cell>" } })
  local values = row_of(2000, function(x) return x end)
  for y = 1, 2000 do d[y] = values end
  for _, x in ipairs({ 1, 1000 }) do
    time("step", m, d, x, x)
    time("step", m, d, x, x, { diagonal = true, avoid = avoid_list(), known = m })
  end
end }

searches[#searches + 1] = { "flee", 6, function()
  for _, kind in ipairs({ "floor", "serpentine", "checker" }) do
    shape_search(each_call("flee", function(w, h)
      local m = make_map(kind, w, h)
      local many = {}
      for x = 1, w, math.max(1, idiv(w, 1000)) do many[#many + 1] = { x = x, y = 1 } end
      return {
        { m, { x = 1, y = 1 } },
        { m, { x = 1, y = 1 }, { factor = -10, diagonal = true } },
        { m, { x = 1, y = 1 }, { factor = -0.1, cost = { ["."] = 1, [","] = MAX_COST } } },
        { m, { x = 1, y = 1 }, { cost = { ["."] = MAX_COST, [","] = 7, ["#"] = 3 }, blocked = "", diagonal = true } },
        { m, many, { cost = { ["."] = MAX_COST, [","] = 1 } } },
      }
    end), 1, 1, 8)
  end
end }

searches[#searches + 1] = { "explore", 6, function()
  for _, kind in ipairs({ "floor", "serpentine" }) do
    shape_search(each_call("explore", function(w, h)
      local m, k = make_map(kind, w, h), known_but_last(w, h)
      local costly = { cost = { ["."] = MAX_COST }, diagonal = true }
      return {
        { m, k, 1, 1 },
        { m, k, 1, 1, costly },
        { m, k, 1, 1, { cost = { ["."] = MAX_COST }, diagonal = true, avoid = avoid_list() } },
        { m, k, 1, 1, { blocked = "", avoid = avoid_list() } },
      }
    end), 1, 1, 8)
  end
end }

searches[#searches + 1] = { "sample", 5, function()
  for _, kind in ipairs({ "floor", "pillars" }) do
    shape_search(each_call("sample", function(w, h)
      local m = make_map(kind, w, h)
      local floor = kind == "floor" and w * h or (w * h) - idiv(h, 2) * idiv(w, 2)
      local mid = { x = idiv(w + 1, 2), y = idiv(h + 1, 2) }
      if kind == "pillars" then mid = { x = 1, y = 1 } end
      return {
        { m, floor, { seed = 1 } },
        { m, floor, { seed = 1, from = mid, diagonal = true } },
        { m, floor, { seed = 1, from = mid, max = w + h, min = 0, chars = ".#", blocked = "" } },
        { m, 1, { seed = 1, from = mid, hidden = true, opaque = "#" } },
      }
    end), 1, 1, 8)
  end
end }

searches[#searches + 1] = { "line", 2, function()
  local far = 2 ^ 53 - CAP
  for _, call in ipairs({
    { 1, 1, CAP, 1 },
    { 1, 1, 1, CAP },
    { 1, 1, CAP, CAP },
    { 1, 1, CAP, idiv(CAP, 3) },
    { far, -far, far + CAP - 1, -far + 7 },
  }) do
    if time("line", unpack(call)) == nil then break end
  end
end }

searches[#searches + 1] = { "visible", 5, function()
  for _, kind in ipairs({ "floor", "pillars" }) do
    shape_search(each_call("visible", function(w, h)
      local m = make_map(kind, w, h)
      return {
        { m, 1, 1, w, h },
        { m, 1, 1, w, h, { opaque = "." } },
        { m, idiv(w + 1, 2), idiv(h + 1, 2), w, h, { opaque = "." } },
        { m, 1, 1, w, h, { radius = w + h } },
      }
    end), 1, 1, 8)
  end
end }

searches[#searches + 1] = { "autotile", 4, function()
  for _, kind in ipairs({ "pillars", "checker" }) do
    shape_search(each_call("autotile", function(w, h)
      local m = make_map(kind, w, h)
      return {
        { m },
        { m, { chars = "#.,", mode = "8", edge = false } },
        { m, { chars = ".,", index = true } },
      }
    end), 1, 1, 8)
  end
end }


searches[#searches + 1] = { "parse", 3, function()
  shape_search(function(w, h) return time("parse", text_of(w, h)) end, 1, 1, 10)
end }

------------------------------------------------------------------------------
-- Run the searches, each within its share of the budget.

local total_weight = 0
for _, s in ipairs(searches) do total_weight = total_weight + s[2] end
local remaining_weight = total_weight
for _, s in ipairs(searches) do
  local left = BUDGET - (clock() - started)
  local share = left * s[2] / remaining_weight
  remaining_weight = remaining_weight - s[2]
  deadline = clock() + share
  log(string.format("searching %s (%.0f s)", s[1], share))
  s[3]()
end
deadline = math.huge

local function report(export)
  local list = results[export]
  table.sort(list, function(a, b) return a.seconds > b.seconds end)
  print(string.format("### %s: the %d slowest of %d calls", export, math.min(TOP, #list), #list))
  print()
  print("| seconds | call | result |")
  print("| ---: | --- | --- |")
  for i = 1, math.min(TOP, #list) do
    local r = list[i]
    print(string.format("| %.3f | `%s` | %s |", r.seconds, r.args, r.ok and "ok" or "error: " .. r.err:sub(1, 80)))
  end
  print()
end

print(string.format("# Slowest calls found (%s, %s, budget %d s, %.0f s CPU used)", map.VERSION, _VERSION, BUDGET,
  clock() - started))
print()
for _, export in ipairs(EXPORTS) do report(export) end
-- The generators' slowest per algorithm (one algorithm may fill the top 10).
for _, export in ipairs({ "generate_text", "generate", "generate_json" }) do
  print(string.format("### %s: the slowest valid call per algorithm", export))
  print()
  print("| algorithm | seconds | call |")
  print("| --- | ---: | --- |")
  for _, algorithm in ipairs(map.ALGORITHMS) do
    for _, r in ipairs(results[export]) do
      if r.ok and r.args:find('algorithm="' .. algorithm .. '"', 1, true) then
        print(string.format("| %s | %.3f | `%s` |", algorithm, r.seconds, r.args))
        break
      end
    end
  end
  print()
end

print("### The slowest valid call of each export")
print()
print("| export | seconds | call |")
print("| --- | ---: | --- |")
for _, export in ipairs(EXPORTS) do
  for _, r in ipairs(results[export]) do
    if r.ok then
      print(string.format("| %s | %.3f | `%s` |", export, r.seconds, r.args))
      break
    end
  end
end
