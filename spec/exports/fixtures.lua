-- The arguments the manifests' calls use (not a manifest): `fresh()` gives
-- a new table of them for every use, so that a call may change what it is
-- given. Each is made the first time a call reads it (makers below), so
-- that a call pays only for what it reads; `fresh(keys)` makes `keys` at
-- once (the finalizer storm makes what a call reads before arming it).
-- This is the one place fixtures are made: a manifest's functions take the
-- table as their argument (`f`, `a`); so are the arguments of its memory
-- cases (`shape(w, h)`, `fixed()`: `s`) and of its big cases
-- (`host(side, many)`: `h`).
--
-- `change(a)` is what an armed finalizer of the storm (spec/hostile_spec.lua)
-- does to what a call is reading: each fixture made so far is changed by
-- its `change` (a map shrinks, an option turns into a number, a source
-- vanishes); none is made there.
local map = require "map"
local support = require "spec.support"

local from_text = support.from_text

local M = {}

local EXAMPLES = { "Aerandir", "Amroth", "Aranwe", "Beleg", "Celeborn", "Cirdan", "Daeron", "Earwen" }

-- name = { make = function(f) ... end, change = function(value, a) ... end }
local FIXTURES = {
  -- The storm's arguments: a 4x3 map, its options, sources, a level's
  -- options, distances, what is known, the searches' limits, text, a
  -- design, a level of the map, movers and a saved level.
  m = { make = function() return from_text("....\n.#..\n....") end,
    change = function(m)
      m[2], m[3] = nil, nil
      m[1] = { "." }
    end },
  options = { make = function() return { cost = { ["."] = 2 }, blocked = "#", diagonal = true } end,
    change = function(o)
      o.cost = 1
      o.blocked = {}
    end },
  sources = { make = function() return { { x = 1, y = 1 }, { x = 4, y = 3 } } end,
    change = function(s)
      s[2] = 7
      s[1].x = "far"
    end },
  level = { make = function() return { width = 20, height = 10, seed = 1, algorithm = "cave", fill = 0.5 } end,
    change = function(l)
      l.width = "wide"
      l.fill = {}
    end },
  d = { make = function(f) return map.distances(f.m, { x = 1, y = 1 }) end,
    change = function(d) d[1], d[2] = "gone", nil end },
  known = { make = function() return { { true, true, true, true }, { true, true }, {} } end,
    change = function(k) k[1] = 5 end },
  limits = { make = function()
    return { avoid = { { x = 2, y = 1 }, { x = 3, y = 3 } }, max = 4, known = { { true, true, true }, { true } },
      diagonal = true }
  end, change = function(l)
    l.avoid[2] = "here"
    l.known = 0
    l.max = -1
  end },
  text = { make = function() return "....\n.#..\n...." end },
  design = { make = function()
    return { width = 30, height = 14, seed = 1, arrive = { x = 3, y = 3 },
      vaults = { { rows = { "#+#", "+.+", "#+#" }, count = 2 } }, place = { { char = "M", count = 2 } } }
  end, change = function(d)
    d.vaults[1].rows[2] = 5
    d.place[1].char = {}
    d.arrive.x = "far"
  end },
  lvl = { make = function(f) return map.level(f.m) end },
  movers = { make = function() return { { x = 1, y = 1 }, { x = 4, y = 3 } } end,
    change = function(m)
      m[1] = "gone"
      m[2].x = {}
    end },
  saved = { make = function(f) return map.level(f.m):save() end, change = function(_, a) a.saved = 7 end },
  -- The toolbox's: a source, arrays it reads, a scheduler and its saved
  -- state with the actors, examples to learn names from, a noise's
  -- options and a noise, lights and their options.
  r = { make = function() return map.rng(1) end },
  array = { make = function() return { "a", "b", "c", "d" } end,
    change = function(a) a[2], a[5] = nil, "e" end },
  weights = { make = function() return { 1, 2, 0, 3 } end,
    change = function(w) w[1], w[4] = -1, nil end },
  filled = { make = function() return { 1, 2 } end, change = function(t) t[1] = nil end },
  seeded = { make = function() return { width = 20, height = 10, algorithm = "cave", rng = map.rng(2) } end,
    change = function(s) s.rng = "gone" end },
  sampled = { make = function() return { rng = map.rng(3), from = { x = 1, y = 1 } } end,
    change = function(s) s.rng = 5 end },
  actors = { make = function() return { {}, "two", 3 } end,
    change = function(a) a[1], a[3] = nil, 0 / 0 end },
  s = { make = function(f)
    local scheduler = map.scheduler()
    for i, actor in ipairs(f.actors) do scheduler:add(actor, i) end
    return scheduler
  end },
  actor = { make = function() return { "hero" } end },
  scheduled = { make = function(f) return f.s:state() end, change = function(_, a) a.scheduled = {} end },
  examples = { make = function() return { (table.unpack or unpack)(EXAMPLES) } end,
    change = function(e) e[2], e[9] = 5, "Ecthelion" end },
  names_options = { make = function() return { order = 2, min = 3 } end,
    change = function(o) o.order = "high" end },
  g = { make = function() return map.names(EXAMPLES) end },
  noise = { make = function() return { seed = 1, kind = "perlin", octaves = 3, frequency = 0.1 } end,
    change = function(n)
      n.octaves = "many"
      n.kind = {}
    end },
  source = { make = function() return map.noise { seed = 2, octaves = 2 } end },
  lights = { make = function()
    return { { x = 2, y = 2, radius = 3, color = { 1, 0.5, 0 } }, { x = 4, y = 3, radius = 2, intensity = 0.5 } }
  end, change = function(l)
    l[1].x = "far"
    l[1].color[2] = {}
    l[2] = 5
  end },
  light = { make = function() return { ambient = { 0.1, 0.1, 0.2 }, opaque = "#" } end,
    change = function(l) l.ambient = "dark" end },
  world = { make = function()
    return { width = 30, height = 14, seed = 1, algorithm = "overworld", water = 0.4,
      place = { { char = "M", count = 2, min = 3 } } }
  end, change = function(w)
    w.water = "deep"
    w.place[1] = 5
  end },
  walled = { make = function()
    local w = from_text("@.~.\n.#~>\n..=.")
    w.blocked = "#~"
    return w
  end, change = function(w)
    w.blocked = {}
    w[2] = nil
  end },

  -- The sample calls' (spec/types_spec.lua): the README's map, what its
  -- player sees, its distances to the stairs, its level saved and a field
  -- of it saved.
  gen = { make = function() return map.generate(60, 20, 42) end },
  gen_known = { make = function(f) return map.fov(f.gen, f.gen.player.x, f.gen.player.y, 6) end },
  gen_d = { make = function(f) return map.distances(f.gen, f.gen.stairs) end },
  -- A designed level (arrive, a vault with its own creatures, placed
  -- things), its fields, a memory marked by two fields of view, a plain
  -- generated table's level, overworld levels (generated, and from the
  -- generated table), a scheduler of two actors and an empty one, a noise,
  -- a source's state, a scheduler's.
  designed = { make = function()
    return map.level { width = 60, height = 20, seed = 3, arrive = { x = 5, y = 5 }, things = "k",
      place = { { char = "k", count = 2 } }, vaults = { { rows = { "...", ".k.", "..." } } } }
  end },
  -- A level with keys and locks (`locks`).
  locked = { make = function()
    return map.level { width = 40, height = 20, seed = 7, algorithm = "maze", locks = 3 }
  end },
  designed_d = { make = function(f) return f.designed:distances(f.designed.player) end },
  designed_away = { make = function(f) return f.designed:flee(f.designed.player, { max = 5 }) end },
  designed_seen = { make = function(f) return f.designed:fov(f.designed.player, 6) end },
  designed_memory = { make = function(f)
    local memory = f.designed:field()
    f.designed:fov(f.designed.player, 8, { into = memory })
    return memory
  end },
  plain_lvl = { make = function() return map.level(map.generate(30, 10, 1)) end },
  world_lvl = { make = function() return map.level { width = 40, height = 20, seed = 2, algorithm = "overworld" } end },
  world_table_lvl = { make = function()
    return map.level(map.generate { width = 40, height = 20, seed = 2, algorithm = "overworld" })
  end },
  two_actors = { make = function()
    local scheduler = map.scheduler()
    scheduler:add("a", 1)
    scheduler:add("b", 2)
    return scheduler
  end },
  empty_scheduler = { make = function() return map.scheduler() end },
  noise1 = { make = function() return map.noise { seed = 1, octaves = 2 } end },
  rng2_state = { make = function() return map.rng(2):state() end },
  a_state = { make = function()
    local scheduler = map.scheduler()
    scheduler:add("a", 1)
    return scheduler:state()
  end },
  gen_saved = { make = function(f) return map.level(f.gen):save() end },
  gen_field_saved = { make = function(f) return map.level(f.gen):distances(f.gen.player, { max = 5 }):save() end },

  -- The bad calls' (spec/hostile_spec.lua): a 5x3 room, an open 3x3 map
  -- with its distances from the centre, a 20x10 generated map, its level,
  -- that level's distances and field of view, a generated level of the
  -- same size, the room's level, a memory and distances of 3x3, a
  -- scheduler of one actor, a map of 2000x2000 cells.
  small = { make = function() return from_text("#####\n#...#\n#####") end },
  tiled = { make = function(f) return map.to_tiled(f.small) end },
  xp = { make = function(f) return map.to_xp(f.small) end },
  open3 = { make = function() return { { ".", ".", "." }, { ".", "@", "." }, { ".", ".", "." } } end },
  open3_d = { make = function(f) return map.distances(f.open3, { x = 2, y = 2 }) end },
  m20 = { make = function() return map.generate { width = 20, height = 10, seed = 1 } end },
  lvl20 = { make = function(f) return map.level(f.m20) end },
  lvl20_d = { make = function(f) return f.lvl20:distances(f.m20.player) end },
  lvl20_seen = { make = function(f) return f.lvl20:fov(2, 2) end },
  generated20 = { make = function() return map.level { width = 20, height = 10, seed = 1 } end },
  small_lvl = { make = function(f) return map.level(f.small) end },
  field3 = { make = function() return map.field(3, 3) end },
  lvl3_d = { make = function() return map.level(map.new_map(3, 3)):distances({ x = 1, y = 1 }) end },
  one_actor = { make = function()
    local scheduler = map.scheduler()
    scheduler:add("a", 1)
    return scheduler
  end },
  -- 2000 rows aliasing one row of 2000 floor cells: 4,000,000 cells for
  -- little Lua memory.
  aliased2000 = { make = function()
    local row, rows = {}, {}
    for x = 1, 2000 do row[x] = "." end
    for y = 1, 2000 do rows[y] = row end
    return rows
  end },
}

-- `name`'s fixture, made for `f`.
local function make(f, name)
  local fixture = FIXTURES[name]
  if not fixture then error("spec/exports/fixtures.lua has no fixture " .. tostring(name), 3) end
  local value = fixture.make(f)
  rawset(f, name, value)
  return value
end

local LAZY = { __index = function(f, name) return make(f, name) end }

-- A new table of fixtures, each made when first read; `keys` (a list) made now.
function M.fresh(keys)
  local f = setmetatable({}, LAZY)
  for _, name in ipairs(keys or {}) do local _ = f[name] end
  return f
end

-- The names of the fixtures `use(f)` reads (made), in the order made.
function M.reads(use)
  local order = {}
  local f = setmetatable({}, { __index = function(f, name)
    local value = make(f, name)
    order[#order + 1] = name
    return value
  end })
  pcall(use, f)
  return order
end

-- The storm's change: every fixture made so far in `a`, changed.
function M.change(a)
  for name, fixture in pairs(FIXTURES) do
    local value = rawget(a, name)
    if value ~= nil and fixture.change then fixture.change(value, a) end
  end
end

-- A map of floor cells in a wall border (all floor when too thin for one).
local function open(w, h)
  local m = map.new_map(w, h)
  for y = 1, h do
    for x = 1, w do
      local edge = w > 2 and h > 2 and (x == 1 or y == 1 or x == w or y == h)
      if not edge then m[y][x] = "." end
    end
  end
  return m
end

-- What the memory cases of spec/memory_spec.lua read at each shape (their
-- `s`): the map `m` (`open`), its size `w`, `h`, two cells far apart,
-- `from` and `to`, its level `lvl`, a level of it `saved` (occupied at
-- `from`: not the string a save of `lvl` gives, which LuaJIT would intern
-- and not count), `known`, everything but the far cell (the longest way to
-- a frontier), `lights`, a light over it all, `coloured`, the same
-- coloured, a `noise`.
function M.shape(w, h)
  local m = open(w, h)
  local from, to = { x = math.min(2, w), y = math.min(2, h) }, { x = math.max(w - 1, 1), y = math.max(h - 1, 1) }
  local occupied = map.level(m)
  occupied:occupy(from)
  local known = {}
  for y = 1, h do
    local row = {}
    for x = 1, w do row[x] = x ~= to.x or y ~= to.y end
    known[y] = row
  end
  return { m = m, w = w, h = h, from = from, to = to, lvl = map.level(m), saved = occupied:save(), known = known,
    lights = { { x = from.x, y = from.y, radius = w + h } },
    coloured = { { x = from.x, y = from.y, radius = w + h, color = { 1, 0.5, 0 } } },
    noise = map.noise { seed = 1, octaves = 3 } }
end

-- What the memory cases of fixed size read (their `s`): `n` actors in a
-- `scheduler`, a `state` of it (taken before a turn, so that its state now
-- differs: LuaJIT interns strings), the `actors`, 2000 `examples` of names.
function M.fixed()
  local n = 100000
  local scheduler, actors = map.scheduler(), {}
  for i = 1, n do
    actors[i] = { i }
    scheduler:add(actors[i], i % 10 + 1)
  end
  local state = scheduler:state()
  scheduler:next()
  local examples = {}
  for i = 1, 2000 do examples[i] = ("Name%sabcdefgh"):format(string.char(97 + i % 26)):sub(1, 4 + i % 8) end
  return { n = n, scheduler = scheduler, actors = actors, state = state, examples = examples }
end

-- A `width` x `height` map of `cell` whose rows all alias one row table.
local aliased = require("tests.host.lib").aliased_map

-- The largest side example takes from its default sample (149 patterns:
-- 138 x 138 positions x 149 within its bound of 3 x 2^20); it refuses more.
M.EXAMPLE_SIDE = 140

-- generate's big cases: every algorithm on h's side x side (example on
-- the largest it takes).
function M.every_algorithm(h)
  local list = {}
  for _, algorithm in ipairs(map.ALGORITHMS) do
    local side = algorithm == "example" and math.min(h.side, M.EXAMPLE_SIDE) or h.side
    list[#list + 1] = { { width = side, height = side, seed = 1, algorithm = algorithm }, what = algorithm }
  end
  return list
end

-- What the big cases of tests/host/lib.lua's every_export read (their
-- `h`): `side` and `many` (default side x side); `open`, an open map of
-- side x side floor cells (`half` its middle); `narrow`, a one-cell-wide
-- map of `many` cells; `one`, a map of one cell, `spot` its cell;
-- `sources`, `many` sources on it; `costs`, weighted costs; `known`, every
-- cell of the open map known; `limits` (avoid the sources, known, max);
-- `text`, the open map's text; `saved`, a level of the open map saved,
-- `things`, a level of it whose every cell is a thing, and `noise`, a
-- noise (each nil when it cannot be made); `words`, `many`
-- words (at most 100,000) to learn names from; a `scheduler` of as many
-- actors, its `state` and `actors`. The rows alias one table each: the
-- maps cost Lua little; the one-wide map and the sources are Lua arrays of
-- `many` entries (16 bytes each on Lua 5.4).
function M.host(side, many)
  many = many or side * side
  local h = { side = side, many = many, half = math.floor(side / 2) }
  h.open = aliased(side, side, ".")
  h.narrow = aliased(1, many, ".")
  h.one, h.spot = { { "." } }, { x = 1, y = 1 }
  h.sources = {}
  for i = 1, many do h.sources[i] = h.spot end
  h.costs = { cost = { ["."] = 2 } }
  h.known = aliased(side, side, true)
  h.limits = { avoid = h.sources, known = h.known, max = side }
  h.text = string.rep(string.rep(".", side) .. "\n", side)
  local made, noise = pcall(map.noise, { seed = 1, octaves = 4 })
  if made then h.noise = noise end
  local ok, saved = pcall(function() return map.level(h.open):save() end)
  if ok then h.saved = saved end
  local made_things, things = pcall(map.level, h.open, { things = "." })
  if made_things then h.things = things end
  h.words, h.actors, h.scheduler = {}, {}, map.scheduler()
  for i = 1, math.min(many, 100000) do
    h.words[i] = ("%08x"):format(i * 2654435761 % 4294967296):gsub("%d", function(d) return ("gklmnprstv"):sub(d + 1,
      d + 1) end)
    h.actors[i] = i
    h.scheduler:add(i, i % 10 + 1)
  end
  h.state = h.scheduler:state()
  return h
end

-- Options of generate for sample calls: every algorithm with its boolean
-- options the other way, and the design options (whose fields the level
-- then has). A new list at each call.
function M.levels()
  local list = {}
  for _, algorithm in ipairs(map.ALGORITHMS) do
    local options = { width = 40, height = 20, seed = 7, algorithm = algorithm }
    for _, option in ipairs(map.describe(algorithm).options) do
      if option.type == "boolean" then options[option.name] = not option.default end
    end
    list[#list + 1] = options
  end
  list[#list + 1] = { width = 60, height = 20, seed = 3, vaults = { { rows = { "#####", "#.$.#", "##.##" },
    count = 2, rotate = true } }, arrive = { x = 5, y = 5 }, place = { { char = "k", count = 2, min = 3 } } }
  list[#list + 1] = { width = 40, height = 20, seed = 7, algorithm = "maze", locks = 3 }
  list[#list + 1] = { width = 60, height = 30, seed = 2, room_min_width = 5, room_max_width = 9,
    place = { { choose = { { "o", 3 }, { "T", 1 } }, per_room = { 0, 2 } }, { char = "k", per_room = { 1, 1 } } } }
  return list
end

return M
