-- bench/worst_all.lua: the worst valid call of every export and of every
-- native method, at its maximum sizes, timed. The entries are the
-- manifests' (spec/manifests.lua: every function of the module, every
-- method of map.METHODS); each has its worst calls in WORST below, and its
-- manifest's `big` cases (on maps at the cell cap: fixtures.host) are timed
-- with them. An entry with no worst case, or a worst case of no entry, is
-- named and fails the run before anything is timed.
--
--   lua5.4 bench/worst_all.lua [pattern]    (from the repository root)
--   luajit bench/worst_all.lua [pattern]
--   lua5.4 bench/worst_all.lua --check       (the check alone)
--
-- `pattern` (Lua patterns, separated by commas) keeps the entries whose
-- label matches one ("^level:", "^map%.explore$,^level:explore$").
--
-- The worst calls are the slowest valid ones found by bench/worst.lua's
-- search (over shapes and options, for the table functions) and by
-- bench/worst_design.lua (generate's designer tables), and the limits
-- documented (docs/hardening.md, "Time"). Each is timed once with os.clock
-- (CPU time) after a full collection: again when the first run made what
-- calls share (made once, kept, and not timed), and twice more when over
-- 0.8 s, its median reported. Prints a markdown table (each entry's
-- slowest valid call and its seconds) and the ten slowest calls; a call
-- that raises fails the run (a worst case must be valid).
local here = (arg and arg[0] or ""):match("^(.*)/[^/]*$") or "."
package.path = here .. "/?.lua;" .. here .. "/../?.lua;" .. package.path
local BUILT = jit and "build/lib/lua/5.1/?.so;" or "build/lib/lua/5.4/?.so;"
package.cpath = (os.getenv(jit and "LUA_CPATH" or "LUA_CPATH_5_4") and "" or BUILT) .. package.cpath
local map = require "map"
local manifests = require "spec.manifests"
local maps = require "worst_maps"

local CAP, MAX_COST, idiv = maps.CAP, maps.MAX_COST, maps.idiv
local make_map, avoid_list, known_but_last, text_of = maps.make_map, maps.avoid_list, maps.known_but_last, maps.text_of
local clock = os.clock
local fmt = string.format
local unpack = table.unpack or unpack

-- The first argument: the command line's, or what bench/worst_level.lua
-- passes.
local first = ...
local ONLY = first ~= "--check" and first or nil
local function wanted(label)
  if not ONLY then return true end
  for pattern in ONLY:gmatch("[^,]+") do
    if label:match(pattern) then return true end
  end
  return false
end
local CHECK_ONLY = first == "--check"
-- A call slower than this is timed twice more (its median reported).
local AGAIN = 0.8

-- The shapes at the cap where the calls over a map cost most (bench/worst.lua).
local TALL, WIDE, SQUARE = { 1, CAP }, { CAP, 1 }, { 2000, 2000 }
local SHAPES = { TALL, WIDE, SQUARE }
local function shape_name(s) return fmt("%dx%d", s[1], s[2]) end

------------------------------------------------------------------------------
-- What the calls share, made once when first asked for (not timed).

local memo = {}
-- How many things were made: a call that made one is timed again.
local made = 0
local function once(key, make)
  if memo[key] == nil then
    memo[key] = make()
    made = made + 1
  end
  return memo[key]
end
-- Drops what an entry made for itself alone.
local function forget(prefix)
  for key in pairs(memo) do
    if key:sub(1, #prefix) == prefix then memo[key] = nil end
  end
end

local function mapped(kind, s, marks)
  return once(fmt("map %s %s %s", kind, shape_name(s), tostring(marks)), function()
    return make_map(kind, s[1], s[2], marks)
  end)
end
local function level(kind, s, marks)
  return once(fmt("level %s %s %s", kind, shape_name(s), tostring(marks)), function()
    return map.level(mapped(kind, s, marks))
  end)
end
-- A level whose every cell is a thing.
local function things_level(s)
  return once("things " .. shape_name(s), function() return map.level(mapped("floor", s), { things = "." }) end)
end
local function distances_field(s)
  return once("field " .. shape_name(s), function() return level("floor", s):distances({ x = 1, y = 1 }) end)
end
-- A distance table of rows: x in each cell.
local function d_rows(s)
  return once("d rows " .. shape_name(s), function()
    local values = maps.row_of(s[1], function(x) return x end)
    local d = {}
    for y = 1, s[2] do d[y] = values end
    return maps.described(d, "<d " .. shape_name(s) .. ": x in each cell>")
  end)
end
-- `n` positions, the same table each (every entry is read all the same).
local function spots(n)
  return once("spots " .. n, function()
    local one, list = { x = 1, y = 1 }, {}
    for i = 1, n do list[i] = one end
    return maps.described(list, fmt("<%d x {x=1, y=1}>", n))
  end)
end
-- Every cell of a shape, each its own position (a level's movers).
local function every_cell(s)
  return once("movers " .. shape_name(s), function()
    local w, list = s[1], {}
    for i = 1, s[1] * s[2] do list[i] = { x = (i - 1) % w + 1, y = idiv(i - 1, w) + 1 } end
    return list
  end)
end
-- An array of CAP numbers.
local function array()
  return once("array", function()
    local t = {}
    for i = 1, CAP do t[i] = i end
    return maps.described(t, fmt("<array of %d numbers>", CAP))
  end)
end
-- Lights at their bound: 16 over the whole square map, coloured; or
-- 931,506 of radius 1.
local function big_lights()
  return once("lights big", function()
    local list = {}
    for i = 1, 16 do list[i] = { x = 1000, y = 1000, radius = 4000, color = { 1, 0.5, i / 16 } } end
    return maps.described(list, "<16 coloured lights of radius 4000>")
  end)
end
local function many_lights()
  return once("lights many", function()
    local list, one = {}, { x = 1000, y = 1000, radius = 1 }
    for i = 1, 931506 do list[i] = one end
    return maps.described(list, "<931,506 lights of radius 1>")
  end)
end
-- Words of 8 letters, 1,000,000 characters in all (the most names take).
local function words()
  return once("words", function()
    local list = {}
    for i = 1, 125000 do
      list[i] = (("%08x"):format(i * 2654435761 % 4294967296):gsub("%x", function(d)
        return ("gklmnprstvabcdef"):sub(tonumber(d, 16) + 1, tonumber(d, 16) + 1)
      end))
    end
    return maps.described(list, "<125,000 words of 8 letters>")
  end)
end
-- A scheduler of the most actors (MAX_ACTORS in src/toolbox/scheduler.rs,
-- 2^20, less one: one more fits), and its state.
local MAX_ACTORS = 2 ^ 20 - 1
local function scheduler()
  return once("scheduler", function()
    local s = map.scheduler()
    for i = 1, MAX_ACTORS do s:add(i, i % 10 + 1) end
    return s
  end)
end
local function scheduler_saved()
  return once("scheduler saved", function()
    local s = scheduler()
    return { state = s:state(), actors = maps.described(s:actors(), fmt("<%d actors>", MAX_ACTORS)) }
  end)
end
local GENERATED = { width = 2000, height = 2000, seed = 1, algorithm = "rooms", rooms = 10000, items = 10000 }

-- The configurations of generate found slowest (bench/worst.lua,
-- bench/worst_design.lua, docs/hardening.md).
local function configurations()
  return {
    { width = 1333333, height = 3, seed = 1, algorithm = "drunkard", fill = 1, lifetime = 1000, items = 10000 },
    { width = 2000, height = 2000, seed = 1, algorithm = "drunkard", fill = 1 },
    { width = 4, height = 1000000, seed = 1, algorithm = "cellular", generations = 20, items = 0 },
    { width = 2000, height = 2000, seed = 1, algorithm = "cave", fill = 1 },
    { width = 2000, height = 2000, seed = 1, algorithm = "overworld", octaves = 8, scale = 1 },
    { width = 2000, height = 2000, seed = 1, algorithm = "cellular", locks = 26 },
    { width = 2000, height = 2000, seed = 1, algorithm = "rooms", rooms = 10000, loops = 1000, doors = true,
      vaults = maps.VAULTS.doors, place = maps.PLACE },
    { width = 2000, height = 2000, seed = 1, algorithm = "cave", fill = 1, vaults = maps.VAULTS.doors,
      place = maps.PLACE_MIN },
    -- example at the largest sizes it accepts (positions x patterns at
    -- its cap), the slowest of src/generators/example/tests.rs'
    -- worst_calls: failures after the work cap, and one pattern.
    { width = 87, height = 87, seed = 1, algorithm = "example", sample = "overworld" },
    { width = 230, height = 230, seed = 1, algorithm = "example", sample = "maze" },
    { width = 144, height = 144, seed = 1, algorithm = "example", sample = "caves" },
    { width = 2000, height = 1500, seed = 1, algorithm = "example", sample = "###\n#.#\n###" },
  }
end

------------------------------------------------------------------------------
-- The worst calls: WORST[label] returns a list of {what, function}.

local function call(what, f) return { what, f } end
-- One call of `f(...)` on each shape, `what` naming it.
local function on_shapes(what, f, shapes)
  local list = {}
  for _, s in ipairs(shapes or SHAPES) do
    list[#list + 1] = call(what .. " on " .. shape_name(s), function() return f(s) end)
  end
  return list
end
local function centre(s) return idiv(s[1] + 1, 2), idiv(s[2] + 1, 2) end

local WORST = {}

-- The table functions (and their level forms, by `on`: a map's rows or a
-- level over the same cells).
local function with_map(on)
  local M = {}
  M.autotile = function()
    return {
      call("a checkerboard 1x4000000, index", function()
        return on("checker", TALL):autotile({ chars = ".,", index = true })
      end),
      call("pillars 1x4000000, mode 8", function()
        return on("pillars", TALL):autotile({ chars = "#.,", mode = "8", edge = false })
      end),
      call("pillars 2000x2000", function() return on("pillars", SQUARE):autotile() end),
    }
  end
  M.distances = function()
    return {
      call("open 1x4000000, cost", function()
        return on("floor", TALL):distances({ x = 1, y = 1 }, { cost = { ["."] = 1, [","] = MAX_COST } })
      end),
      call("serpentine 1x4000000, cost, diagonal", function()
        return on("serpentine", TALL):distances({ x = 1, y = 1 },
          { cost = { ["."] = 1, [","] = 7, ["#"] = 3 }, blocked = "", diagonal = true })
      end),
      call("serpentine 2000x2000, from a corner", function()
        return on("serpentine", SQUARE):distances({ x = 1, y = 1 })
      end),
      call("open 2000x2000, 4,000,000 sources", function() return on("floor", SQUARE):distances(spots(CAP)) end),
    }
  end
  M.explore = function()
    local function k(s) return once("known " .. shape_name(s), function() return known_but_last(s[1], s[2]) end) end
    local costly = { cost = { ["."] = MAX_COST }, diagonal = true }
    return {
      call("open 1x4000000, all known but the last cell", function()
        return on("floor", TALL):explore(k(TALL), 1, 1)
      end),
      call("open 1x4000000, all known but the last, cost, diagonal", function()
        return on("floor", TALL):explore(k(TALL), 1, 1, costly)
      end),
      call("open 1x4000000, all known but the last, cost, diagonal, avoid of 4,000,000", function()
        return on("floor", TALL):explore(k(TALL), 1, 1, { cost = costly.cost, diagonal = true, avoid = avoid_list() })
      end),
      call("open 2000x2000, all known but the last, cost, diagonal, an avoid of 4,000,000", function()
        return on("floor", SQUARE):explore(k(SQUARE), 1, 1,
          { cost = costly.cost, diagonal = true, avoid = avoid_list() })
      end),
      call("serpentine 2000x2000, all known but the last", function()
        return on("serpentine", SQUARE):explore(k(SQUARE), 1, 1)
      end),
    }
  end
  M.flee = function()
    local many = once("flee sources", function()
      local list = {}
      for x = 1, 455941, 455 do list[#list + 1] = { x = x, y = 1 } end
      return list
    end)
    return {
      call("open 1x4000000, cost, factor -0.1", function()
        return on("floor", TALL):flee({ x = 1, y = 1 }, { factor = -0.1, cost = { ["."] = 1, [","] = MAX_COST } })
      end),
      call("open 455941x8, 1,000 sources, cost", function()
        return on("floor", { 455941, 8 }):flee(many, { cost = { ["."] = MAX_COST, [","] = 1 } })
      end),
      call("open 2000x2000, 4,000,000 sources", function() return on("floor", SQUARE):flee(spots(CAP)) end),
      call("serpentine 1x4000000, cost, diagonal", function()
        return on("serpentine", TALL):flee({ x = 1, y = 1 },
          { cost = { ["."] = MAX_COST, [","] = 7, ["#"] = 3 }, blocked = "", diagonal = true })
      end),
    }
  end
  M.fov = function()
    return on_shapes("open, from the middle, no radius", function(s)
      local x, y = centre(s)
      return on("floor", s):fov(x, y)
    end)
  end
  M.frame = function()
    return on_shapes("open, the whole map, bytes, a thing", function(s)
      local m = on("floor", s)
      return m:frame(1, 1, s[1], s[2], { bytes = true, things = { { x = 1, y = 1, char = "@" } } })
    end)
  end
  M.light = function()
    return {
      call("open 2000x2000, 16 coloured lights of radius 4000", function()
        return on("floor", SQUARE):light(big_lights())
      end),
      call("open 2000x2000, 931,506 lights of radius 1", function()
        return on("floor", SQUARE):light(many_lights())
      end),
    }
  end
  M.path = function()
    return {
      call("open 1x4000000, end to end, diagonal", function()
        return on("floor", TALL):path(1, 1, 1, CAP, { diagonal = true })
      end),
      call("open 1x4000000, end to end, cost", function()
        return on("floor", TALL):path(1, 1, 1, CAP, { cost = { ["."] = 1, [","] = 7 } })
      end),
      call("serpentine 2000x2000, end to end", function() return on("serpentine", SQUARE):path(1, 1, 1, 1999) end),
    }
  end
  -- Every cell of a corridor is a chokepoint that cuts the rest off.
  M.analyze = function()
    return {
      call("open 1x4000000, @ and >", function() return on("floor", TALL, true):analyze() end),
      call("serpentine 2000x2000, @ and >", function() return on("serpentine", { 2000, 1999 }, true):analyze() end),
      call("pillars 2000x2000, @ and >, diagonal", function()
        return on("pillars", SQUARE, true):analyze({ diagonal = true })
      end),
    }
  end
  M.reachable = function()
    return {
      call("open 2x2000000, @ and >", function() return on("floor", { 2, 2000000 }, true):reachable() end),
      call("pillars 3x1333333, @ and >", function() return on("pillars", { 3, 1333333 }, true):reachable() end),
      call("serpentine 2000x2000, @ and >", function() return on("serpentine", { 2000, 1999 }, true):reachable() end),
    }
  end
  M.sample = function()
    return {
      call("open 1x4000000, every cell, from its middle", function()
        return on("floor", TALL):sample(CAP, { seed = 1, from = { x = 1, y = 2000000 }, diagonal = true })
      end),
      call("open 675x5925, every cell, from its middle", function()
        return on("floor", { 675, 5925 }):sample(675 * 5925, { seed = 1, from = { x = 338, y = 2963 } })
      end),
      call("pillars 2000x2000, one hidden cell", function()
        return on("pillars", SQUARE):sample(1, { seed = 1, from = { x = 1, y = 1 }, hidden = true, opaque = "#" })
      end),
    }
  end
  M.step = function()
    return on_shapes("a d of x in each cell, an avoid of 4,000,000 and known", function(s)
      local x, y = centre(s)
      return on("floor", s):step(d_rows(s), x, y, { diagonal = true, avoid = avoid_list(), known = mapped("floor", s) })
    end)
  end
  -- The longest texts: 4,000,000 cells, and the Lua export's row of one
  -- cell on a tall map.
  M.to_tiled = function()
    return {
      call("pillars 2000x2000, JSON", function() return on("pillars", SQUARE):to_tiled() end),
      call("pillars 1x4000000, Lua export", function() return on("pillars", TALL):to_tiled({ format = "lua" }) end),
    }
  end
  M.to_xp = function()
    return {
      call("pillars 2000x2000", function() return on("pillars", SQUARE):to_xp() end),
      call("checker 1x4000000, glyphs", function() return on("checker", TALL):to_xp({ glyphs = "#█.·" }) end),
    }
  end
  M.visible = function()
    return {
      call("open 1x4000000, end to end", function() return on("floor", TALL):visible(1, 1, 1, CAP) end),
      call("open 4000000x1, end to end", function() return on("floor", WIDE):visible(1, 1, CAP, 1) end),
      call("pillars 1x4000000, end to end, radius", function()
        return on("pillars", TALL):visible(1, 1, 1, CAP, { radius = CAP })
      end),
    }
  end
  return M
end

-- The table functions take the map first: `on(kind, s)` gives an object
-- whose methods call map.<name>(rows, ...).
local TABLE = with_map(function(kind, s, marks)
  local m = mapped(kind, s, marks)
  return setmetatable({}, { __index = function(_, name) return function(_, ...) return map[name](m, ...) end end })
end)
local LEVEL = with_map(level)
for name, calls in pairs(TABLE) do
  WORST["map." .. name] = calls
  WORST["level:" .. name] = LEVEL[name]
end

WORST["map.new_map"] = function()
  return on_shapes("new_map", function(s) return map.new_map(s[1], s[2]) end)
end
WORST["map.render"] = function()
  return {
    call("open 1x4000000", function() return map.render(mapped("floor", TALL)) end),
    call("pillars 2x2000000", function() return map.render(mapped("pillars", { 2, 2000000 })) end),
    call("open 2000x2000", function() return map.render(mapped("floor", SQUARE)) end),
  }
end
WORST["map.line"] = function()
  local far = 2 ^ 53 - CAP
  return {
    call("4,000,000 cells along x", function() return map.line(1, 1, CAP, 1) end),
    call("4,000,000 cells diagonal", function() return map.line(1, 1, CAP, CAP) end),
    call("4,000,000 cells steep, far out", function() return map.line(far, -far, far + CAP - 1, -far + 7) end),
  }
end
WORST["map.parse"] = function()
  return on_shapes("a text of 4,000,000 cells", function(s)
    return map.parse(once("text " .. shape_name(s), function() return text_of(s[1], s[2]) end))
  end)
end
WORST["map.from_tiled"] = function()
  return {
    call("a JSON map of 2000x2000 pillars", function()
      return map.from_tiled(once("tiled pillars", function() return map.to_tiled(mapped("pillars", SQUARE)) end))
    end),
    call("a JSON map of 1x4000000 pillars", function()
      return map.from_tiled(once("tiled tall", function() return map.to_tiled(mapped("pillars", TALL)) end))
    end),
  }
end
WORST["map.from_xp"] = function()
  return {
    call("an image of 2000x2000 pillars", function()
      return map.from_xp(once("xp pillars", function() return map.to_xp(mapped("pillars", SQUARE)) end))
    end),
    call("an image of 1x4000000 checker", function()
      return map.from_xp(once("xp tall", function() return map.to_xp(mapped("checker", TALL)) end))
    end),
  }
end
WORST["map.describe"] = function()
  local list = {}
  for _, algorithm in ipairs(map.ALGORITHMS) do
    list[#list + 1] = call(algorithm, function() return map.describe(algorithm) end)
  end
  return list
end
for _, name in ipairs({ "generate", "generate_text", "generate_json" }) do
  WORST["map." .. name] = function()
    local list = {}
    for _, o in ipairs(configurations()) do
      local what, keys = fmt("%s %dx%d", o.algorithm, o.width, o.height), {}
      for k in pairs(o) do
        if k ~= "width" and k ~= "height" and k ~= "seed" and k ~= "algorithm" then keys[#keys + 1] = k end
      end
      table.sort(keys)
      for _, k in ipairs(keys) do
        local v = o[k]
        what = what .. fmt(", %s = %s", k, type(v) == "table" and "<" .. #v .. " entries>" or tostring(v))
      end
      -- example's largest calls may end in its clear error (no level
      -- within the work cap): that is their worst case, a valid answer.
      local run = o.algorithm == "example" and function() return select(2, pcall(map[name], o)) end
        or function() return map[name](o) end
      list[#list + 1] = call(what:gsub("\n", "\\n"), run)
    end
    return list
  end
end
WORST["map.level"] = function()
  local list = on_shapes("map.level(rows)", function(s) return map.level(mapped("floor", s)) end)
  local things = on_shapes("every cell a thing", function(s) return map.level(mapped("floor", s), { things = "." }) end)
  for _, c in ipairs(things) do
    list[#list + 1] = c
  end
  list[#list + 1] = call("a text of 2000x2000", function()
    return map.level(once("text 2000x2000", function() return text_of(2000, 2000) end))
  end)
  list[#list + 1] = call("generated overworld 2000x2000, every floor cell a thing", function()
    return map.level { width = 2000, height = 2000, seed = 1, algorithm = "overworld", things = "." }
  end)
  return list
end
-- A million small tables, each named twice (a list and a chain), with
-- strings: the most nodes and entries a save of this size holds.
local function many_tables()
  local list, at = {}, {}
  for i = 1, 1000000 do
    local t = { i = i, name = "n" .. i % 1000, up = at }
    list[i], at = t, t
  end
  return list
end
WORST["map.load"] = function()
  local list = on_shapes("a saved level, every cell a thing", function(s)
    return map.load(once("saved " .. shape_name(s), function() return things_level(s):save() end))
  end)
  list[#list + 1] = call("a saved distance field 1x4000000", function()
    return map.load(once("saved field", function() return distances_field(TALL):save() end))
  end)
  list[#list + 1] = call("a saved value of 1,000,000 tables", function()
    return map.load(once("saved tables", function() return map.save(many_tables()) end))
  end)
  return list
end
WORST["map.save"] = function()
  local list = on_shapes("a level, every cell a thing", function(s)
    return map.save({ level = things_level(s) })
  end)
  list[#list + 1] = call("1,000,000 tables, each named twice", function()
    return map.save(once("many tables", many_tables))
  end)
  list[#list + 1] = call("1,000,000 tables, text form", function()
    return map.save(once("many tables", many_tables), { text = true })
  end)
  return list
end
WORST["map.field"] = function()
  return on_shapes("map.field", function(s) return map.field(s[1], s[2]) end)
end
WORST["map.names"] = function()
  return { call("1,000,000 characters, order 8", function() return map.names(words(), { order = 8 }) end) }
end
WORST["map.noise"] = function()
  return {
    call("16 octaves, simplex", function() return map.noise { seed = 1, octaves = 16 } end),
    call("16 octaves, perlin", function() return map.noise { seed = 1, octaves = 16, kind = "perlin" } end),
  }
end
WORST["map.rng"] = function()
  local state = map.rng(1):state()
  return {
    call("from a state", function() return map.rng(state) end),
    call("seed 2^53", function() return map.rng(2 ^ 53) end),
  }
end
WORST["map.scheduler"] = function()
  return {
    call(fmt("from a state of %d actors", MAX_ACTORS), function()
      local saved = scheduler_saved()
      return map.scheduler(saved.state, saved.actors)
    end),
  }
end

-- A level's own methods.
local function far_cell(s) return s[1], s[2] end
WORST["level:get"] = function()
  return on_shapes("the far corner", function(s) return level("floor", s):get(far_cell(s)) end)
end
WORST["level:set"] = function()
  return on_shapes("the far corner", function(s) return level("floor", s):set(s[1], s[2], ".") end)
end
WORST["level:occupy"] = function()
  return on_shapes("the far corner", function(s) return level("floor", s):occupy(far_cell(s)) end)
end
WORST["level:vacate"] = function()
  return on_shapes("the far corner", function(s) return level("floor", s):vacate(far_cell(s)) end)
end
WORST["level:occupied"] = function()
  return on_shapes("the far corner", function(s) return level("floor", s):occupied(far_cell(s)) end)
end
WORST["level:things"] = function()
  return on_shapes("every cell a thing", function(s) return things_level(s):things() end)
end
WORST["level:table"] = function()
  local list = on_shapes("open", function(s) return level("floor", s):table() end)
  list[#list + 1] = call("generated rooms 2000x2000, 10,000 rooms and items", function()
    return once("generated", function() return map.level(GENERATED) end):table()
  end)
  return list
end
WORST["level:save"] = function()
  return on_shapes("every cell a thing", function(s) return things_level(s):save() end)
end
WORST["level:field"] = function()
  return on_shapes("a memory", function(s) return level("floor", s):field() end)
end
WORST["level:render"] = function()
  return on_shapes("every cell a thing", function(s) return things_level(s):render() end)
end
-- A level whose every cell is occupied, each by its own id, for steps and
-- occupant (not timed): the most ids a level can hold.
local function steps_level(s)
  return once("steps " .. shape_name(s), function()
    local lvl = map.level(mapped("floor", s))
    for i, p in ipairs(every_cell(s)) do lvl:occupy(p, i) end
    return lvl
  end)
end
WORST["level:occupant"] = function()
  return on_shapes("the far corner, every cell an id", function(s) return steps_level(s):occupant(far_cell(s)) end)
end
WORST["level:steps"] = function()
  local list = {}
  for _, s in ipairs(SHAPES) do
    list[#list + 1] = call("every cell a mover, occupied, on " .. shape_name(s), function()
      return steps_level(s):steps(distances_field(s), every_cell(s), { occupied = true })
    end)
    list[#list + 1] = call("every cell a mover, diagonal, avoid every cell, on " .. shape_name(s), function()
      return steps_level(s):steps(distances_field(s), every_cell(s), { diagonal = true, avoid = every_cell(s) })
    end)
  end
  return list
end

-- Every cell a mover, as two arrays of coordinates.
local function every_xy(s)
  local xs, ys = {}, {}
  for i, p in ipairs(every_cell(s)) do xs[i], ys[i] = p.x, p.y end
  return xs, ys
end
WORST["level:steps_xy"] = function()
  local list = {}
  for _, s in ipairs(SHAPES) do
    list[#list + 1] = call("every cell a mover, occupied, on " .. shape_name(s), function()
      local xs, ys = every_xy(s)
      return steps_level(s):steps_xy(distances_field(s), xs, ys, { occupied = true })
    end)
    list[#list + 1] = call("every cell a mover, diagonal, avoid every cell, on " .. shape_name(s), function()
      local xs, ys = every_xy(s)
      return steps_level(s):steps_xy(distances_field(s), xs, ys, { diagonal = true, avoid = every_cell(s) })
    end)
  end
  return list
end
WORST["level:can_step"] = function()
  return on_shapes("the far corner, diagonal, occupied", function(s)
    return level("floor", s):can_step({ x = s[1], y = s[2] }, -1, -1, { diagonal = true, occupied = true })
  end)
end

-- A field's methods.
WORST["field:get"] = function()
  return on_shapes("the far corner", function(s) return distances_field(s):get(far_cell(s)) end)
end
WORST["field:table"] = function()
  return on_shapes("a distance field", function(s) return distances_field(s):table() end)
end
WORST["field:save"] = function()
  return on_shapes("a distance field", function(s) return distances_field(s):save() end)
end

-- The toolbox's methods.
WORST["names:name"] = function()
  local g = once("names", function() return map.names(words(), { order = 8 }) end)
  local long = once("names long", function() return map.names(words(), { order = 1, min = 1024, max = 1024 }) end)
  return {
    call("trained on 1,000,000 characters, order 8", function() return g:name(1) end),
    call("order 1, names of 1024 characters", function() return long:name(1) end),
  }
end
WORST["noise:get"] = function()
  local n = once("noise", function() return map.noise { seed = 1, octaves = 16 } end)
  return { call("16 octaves", function() return n:get(2 ^ 40, -2 ^ 40) end) }
end
-- At most 2^24 samples (an octave a cell): 16 octaves of 2^20 cells, or 4
-- octaves of every cell.
WORST["noise:grid"] = function()
  local n = once("noise", function() return map.noise { seed = 1, octaves = 16 } end)
  local four = once("noise4", function() return map.noise { seed = 1, octaves = 4 } end)
  local list = on_shapes("16 octaves", function(s) return n:grid(s[1], s[2]) end,
    { { 1, 2 ^ 20 }, { 2 ^ 20, 1 }, { 1024, 1024 } })
  for _, c in ipairs(on_shapes("4 octaves", function(s) return four:grid(s[1], s[2]) end)) do list[#list + 1] = c end
  return list
end
local function rng() return once("rng", function() return map.rng(1) end) end
WORST["rng:random"] = function()
  return { call("-2^53 to 2^53", function() return rng():random(-2 ^ 53, 2 ^ 53) end) }
end
WORST["rng:normal"] = function() return { call("mean and sd", function() return rng():normal(1e300, 1e300) end) } end
WORST["rng:dice"] = function()
  return {
    call("1000 dice of 2^31 - 1 sides, + 2^31 - 1", function() return rng():dice("1000d2147483647+2147483647") end),
  }
end
WORST["rng:pick"] = function()
  return { call("an array of 4,000,000", function() return rng():pick(array()) end) }
end
WORST["rng:weighted"] = function()
  return { call("4,000,000 weights", function() return rng():weighted(array()) end) }
end
WORST["rng:shuffle"] = function()
  return { call("an array of 4,000,000", function() return rng():shuffle(array()) end) }
end
WORST["rng:fill"] = function()
  return {
    call("2^24 values from -2^53 to 2^53", function() return rng():fill({}, 2 ^ 24, -2 ^ 53, 2 ^ 53) end),
    call("2^24 floats", function() return rng():fill({}, 2 ^ 24) end),
  }
end
WORST["rng:state"] = function() return { call("a state", function() return rng():state() end) } end
WORST["rng:clone"] = function() return { call("a copy", function() return rng():clone() end) } end
local ACTORS = fmt("%d actors", MAX_ACTORS)
WORST["scheduler:add"] = function()
  return { call("the last actor into " .. ACTORS, function()
    local s = scheduler()
    local ok = s:add(MAX_ACTORS + 1, 2 ^ -20)
    s:remove(MAX_ACTORS + 1)
    return ok
  end) }
end
WORST["scheduler:next"] = function() return { call(ACTORS, function() return scheduler():next() end) } end
WORST["scheduler:remove"] = function()
  return { call("one of " .. ACTORS, function()
    local s = scheduler()
    s:remove(2 ^ 23)
    return s:add(2 ^ 23, 3)
  end) }
end
WORST["scheduler:delay"] = function()
  return { call("one of " .. ACTORS .. " by 2^40", function() return scheduler():delay(7, 2 ^ 40) end) }
end
WORST["scheduler:time"] = function() return { call(ACTORS, function() return scheduler():time() end) } end
WORST["scheduler:state"] = function() return { call(ACTORS, function() return scheduler():state() end) } end
WORST["scheduler:actors"] = function() return { call(ACTORS, function() return scheduler():actors() end) } end

------------------------------------------------------------------------------
-- The check: every manifest entry has its worst case, and every worst case
-- is an entry's.

local entries = manifests.entries()
local failures = {}
local labels = {}
for _, entry in ipairs(entries) do
  labels[entry.label] = true
  if not WORST[entry.label] then
    failures[#failures + 1] = fmt("%s (%s) has no worst case in bench/worst_all.lua", entry.label, entry.path)
  end
end
for label in pairs(WORST) do
  if not labels[label] then failures[#failures + 1] = fmt("bench/worst_all.lua: %s is no manifest entry", label) end
end
if #failures > 0 then
  table.sort(failures)
  for _, f in ipairs(failures) do io.stderr:write(f, "\n") end
  os.exit(1)
end
if CHECK_ONLY then
  print(fmt("every one of the %d entries has a worst case", #entries))
  os.exit(0)
end

------------------------------------------------------------------------------
-- The run.

local started = clock()
local function log(...)
  io.stderr:write(fmt("[%6.1f s] ", clock() - started), ...)
  io.stderr:write("\n")
end

-- Seconds of f() (os.clock, after a full collection); ok, error.
local function timed(f)
  collectgarbage()
  collectgarbage()
  local t0 = clock()
  local ok, err = pcall(f)
  return clock() - t0, ok, not ok and tostring(err) or nil
end

local function median(list)
  table.sort(list)
  return list[idiv(#list + 1, 2)]
end

-- The big cases of the manifests, on maps at the cap.
local host
local function big_calls(entry)
  local big = manifests.applies(entry, "big")
  if not big then return {} end
  host = host or require("spec.exports.fixtures").host(2000, CAP)
  local callable, list = manifests.callable(entry), {}
  for _, case in ipairs(big(host)) do
    local args = { n = #case }
    for i = 1, #case do args[i] = case[i] end
    list[#list + 1] = call("the manifest's big case" .. (case.what and ", " .. case.what or ""), function()
      return callable(unpack(args, 1, args.n))
    end)
  end
  return list
end

local rows, all, invalid = {}, {}, {}
for _, entry in ipairs(entries) do
  if wanted(entry.label) then
    local calls = WORST[entry.label]()
    for _, c in ipairs(big_calls(entry)) do calls[#calls + 1] = c end
    local worst = { seconds = -1 }
    for _, c in ipairs(calls) do
      local before = made
      local seconds, ok, err = timed(c[2])
      -- What it shares with other calls was made during the first run.
      if ok and made ~= before then seconds, ok, err = timed(c[2]) end
      local runs = 1
      if ok and seconds > AGAIN then
        local times = { seconds }
        for _ = 1, 2 do times[#times + 1] = (timed(c[2])) end
        seconds, runs = median(times), 3
      end
      local record = { label = entry.label, what = c[1], seconds = seconds, ok = ok, err = err, runs = runs }
      all[#all + 1] = record
      log(fmt("%.3f s %s: %s%s", seconds, entry.label, c[1], ok and "" or "  -> " .. err))
      if not ok then invalid[#invalid + 1] = record end
      if ok and seconds > worst.seconds then worst = record end
    end
    rows[#rows + 1] = worst
    -- What one entry or kind needs alone (2^20 actors: 256 MB on Lua 5.4).
    forget("movers")
    forget("steps")
    if entry.kind ~= "scheduler" then forget("scheduler") end
  end
end

local load = io.open("/proc/loadavg")
local loadavg = load and load:read("*l"):match("^(%S+ %S+ %S+)") or "?"
if load then load:close() end
print(fmt("### The worst valid call of every entry (%s, %s, %.0f s CPU, load average %s)", map.VERSION,
  jit and jit.version or _VERSION, clock() - started, loadavg))
print()
print("| entry | worst valid call | seconds |")
print("| --- | --- | ---: |")
for _, r in ipairs(rows) do
  local median_of = r.runs == 3 and " (median of 3)" or ""
  print(fmt("| `%s` | %s | %.3f%s |", r.label, r.what or "none valid", r.seconds, median_of))
end
print()
table.sort(all, function(a, b) return a.seconds > b.seconds end)
print("### The ten slowest calls")
print()
print("| entry | call | seconds |")
print("| --- | --- | ---: |")
for i = 1, math.min(10, #all) do
  print(fmt("| `%s` | %s | %.3f |", all[i].label, all[i].what, all[i].seconds))
end
if #invalid > 0 then
  for _, r in ipairs(invalid) do io.stderr:write(fmt("invalid worst case: %s: %s: %s\n", r.label, r.what, r.err)) end
  os.exit(1)
end
