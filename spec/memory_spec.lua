-- The Lua side of each call's memory bound (docs/hardening.md): what a result
-- adds to the Lua heap, measured with the collector stopped so that nothing
-- is freed while it is counted. The Rust side is tests/memory.rs.
local map = require "map"

-- A table of rows costs per cell (a value in a row's array) and per row (the
-- row's table): measured at most 16 B a cell and 72 a row on Lua 5.4, 18 and
-- 80 on LuaJIT. fov's rows hold a hash entry per visible cell, rounded up
-- to a power of two (41 B/cell measured with every cell of a 600-wide row
-- visible). A path is a table per position (120 B measured on both). The
-- fixed part covers a level's lists (at most 10,000 rooms, 10,000 items,
-- 10,000 placed cells and 100 vaults); each room's exits and links are
-- counted on their own, as an exit is a position table and a level may have
-- hundreds of thousands (rooms = 10000: 112,454 exits and 93,054 links, 76 B
-- each on average with the rooms' own growth, on both interpreters).
local BOUND = { -- bytes per cell and per row
  rows = { cell = 24, row = 96 },
  fov = { cell = 64, row = 128 },
  path = { cell = 128, row = 0 },
  text = { cell = 4, row = 0 },
  native = { cell = 0, row = 0 }, -- a level or field: its cells are not on the Lua heap
  channels = { cell = 3 * 24, row = 3 * 96 }, -- a coloured light map: three tables of rows
}
local FIXED = 4 * 1024 * 1024
local EXIT, LINK = 128, 24

-- Large, wide and narrow: a row of one cell costs the most per cell.
local SHAPES = { { 600, 600 }, { 1, 100000 }, { 100000, 1 }, { 3, 30000 } }

-- The bytes the Lua heap grew by while `f` built its result (kept alive).
local function growth(f)
  collectgarbage("collect")
  collectgarbage("stop")
  local before = collectgarbage("count")
  local result = f()
  local grew = (collectgarbage("count") - before) * 1024
  collectgarbage("restart")
  assert(result ~= nil)
  return grew
end

-- The exits and links of a level's rooms.
local function exits_and_links(m)
  local exits, links = 0, 0
  for _, room in ipairs(m.rooms or {}) do
    exits, links = exits + #room.exits, links + #room.links
  end
  return exits, links
end

local function within_bound(name, f, kind, w, h)
  local result
  local grew = growth(function()
    result = f()
    return result
  end)
  local exits, links = 0, 0
  if type(result) == "table" then exits, links = exits_and_links(result) end
  local bound = BOUND[kind].cell * w * h + BOUND[kind].row * h + FIXED + EXIT * exits + LINK * links
  assert(grew <= bound, ("%s %dx%d: %d bytes, bound %d"):format(name, w, h, grew, bound))
  assert(grew > 0, name .. ": nothing measured")
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

describe("the Lua result of every call stays within its bound per cell and per row", function()
  for _, shape in ipairs(SHAPES) do
    local w, h = shape[1], shape[2]
    local m = open(w, h)
    local from, to = { x = math.min(2, w), y = math.min(2, h) }, { x = math.max(w - 1, 1), y = math.max(h - 1, 1) }

    it(("levels and fields at %dx%d: their cells held natively, their tables as rows"):format(w, h), function()
      local lvl = map.level(m)
      -- Measured first: LuaJIT interns every string, so a second save of
      -- the same level allocates nothing.
      within_bound("level:save", function() return lvl:save() end, "text", w, h)
      local saved = lvl:save()
      within_bound("level", function() return map.level(m) end, "native", w, h)
      within_bound("field", function() return map.field(w, h) end, "native", w, h)
      within_bound("load", function() return map.load(saved) end, "native", w, h)
      within_bound("level:distances", function() return lvl:distances(from) end, "native", w, h)
      within_bound("level:table", function() return lvl:table() end, "rows", w, h)
      within_bound("field:table", function() return lvl:distances(from):table() end, "rows", w, h)
    end)

    it(("noise and light at %dx%d: rows of numbers"):format(w, h), function()
      local n = map.noise { seed = 1, octaves = 3 }
      within_bound("noise", function() return map.noise { seed = 2, octaves = 16 } end, "native", w, h)
      within_bound("noise:grid", function() return n:grid(w, h) end, "rows", w, h)
      local lights = { { x = from.x, y = from.y, radius = w + h } }
      within_bound("light", function() return map.light(m, lights) end, "rows", w, h)
      lights[1].color = { 1, 0.5, 0 }
      within_bound("light, coloured", function() return map.light(m, lights) end, "channels", w, h)
      within_bound("level:light", function() return map.level(m):light(lights) end, "channels", w, h)
    end)

    it(("tables of rows at %dx%d: new_map, distances, autotile"):format(w, h), function()
      within_bound("new_map", function() return map.new_map(w, h) end, "rows", w, h)
      within_bound("distances", function() return map.distances(m, from) end, "rows", w, h)
      -- Every cell in the class: a mask in each.
      within_bound("autotile", function() return map.autotile(m, { chars = ".#" }) end, "rows", w, h)
    end)

    it(("fov, a long path and render at %dx%d"):format(w, h), function()
      within_bound("fov", function() return map.fov(m, from.x, from.y) end, "fov", w, h)
      within_bound("path", function() return map.path(m, from.x, from.y, to.x, to.y) end, "path", w, h)
      within_bound("render", function() return map.render(m) end, "text", w, h)
    end)

    it(("the turn functions at %dx%d: flee, distances within max, parse, explore, sample"):format(w, h), function()
      within_bound("flee", function() return map.flee(m, from) end, "rows", w, h)
      within_bound("distances within max", function() return map.distances(m, from, { max = 5 }) end, "rows", w, h)
      within_bound("parse", function() return map.parse(map.render(m)) end, "rows", w, h)
      -- Everything known but the far cell: the longest way to a frontier.
      local known = {}
      for y = 1, h do
        local row = {}
        for x = 1, w do row[x] = x ~= to.x or y ~= to.y end
        known[y] = row
      end
      within_bound("explore", function() return map.explore(m, known, from) end, "path", w, h)
      within_bound("sample", function() return map.sample(m, 10000, { seed = 1 }) end, "path", w, h)
      within_bound("line", function() return map.line(1, 1, w * h, 7) end, "path", w * h, 1)
    end)
  end

  it("generate with the most rooms and items, and on narrow maps", function()
    local most = { width = 600, height = 600, seed = 1, rooms = 10000, items = 10000 }
    within_bound("generate", function() return map.generate(most) end, "rows", 600, 600)
    local rows = {}
    for y = 1, 12 do rows[y] = (y == 1 or y == 12) and string.rep(".", 12) or "." .. string.rep("#", 10) .. "." end
    local vaults = {}
    for i = 1, 10 do vaults[i] = { rows = rows, count = 10, rotate = true, required = false } end
    local directed = { width = 600, height = 600, seed = 1, rooms = 10000, items = 10000, loops = 100,
      arrive = { x = 300, y = 300 }, vaults = vaults, place = { { char = "M", count = 10000 } } }
    within_bound("generate, directed", function() return map.generate(directed) end, "rows", 600, 600)
    within_bound("generate_text", function() return map.generate_text(most) end, "text", 600, 600)
    within_bound("generate_json", function() return map.generate_json(most) end, "text", 600, 600)
    for _, shape in ipairs({ { 3, 30000 }, { 30000, 3 }, { 6, 20000 } }) do
      local w, h = shape[1], shape[2]
      for _, algorithm in ipairs(map.ALGORITHMS) do
        local d = map.describe(algorithm)
        if w >= d.min_width and h >= d.min_height then
          local options = { width = w, height = h, seed = 1, algorithm = algorithm, items = 0 }
          within_bound("generate " .. algorithm, function() return map.generate(options) end, "rows", w, h)
        end
      end
    end
  end)

  it("the toolbox: a source and a generator held natively, a scheduler's tables, fill's values", function()
    local n = 100000
    within_bound("rng", function() return map.rng(1) end, "native", 1, 1)
    local examples = {}
    for i = 1, 2000 do examples[i] = ("Name%sabcdefgh"):format(string.char(97 + i % 26)):sub(1, 4 + i % 8) end
    within_bound("names", function() return map.names(examples, { order = 8, novel = false }) end, "native", 1, 1)
    local s, actors = map.scheduler(), {}
    for i = 1, n do
      actors[i] = { i }
      s:add(actors[i], i % 10 + 1)
    end
    -- An actor's slot and index entries, its part of the state and of the
    -- actors' array, each within a path's 128 bytes a cell. The state is
    -- measured first: LuaJIT interns strings, so a second one is free.
    within_bound("scheduler:state", function() return s:state() end, "path", n, 1)
    local state = s:state()
    within_bound("scheduler", function() return map.scheduler(state, actors) end, "path", n, 1)
    within_bound("scheduler:actors", function() return s:actors() end, "path", n, 1)
    within_bound("rng:fill", function() return map.rng(1):fill({}, n, 6) end, "path", n, 1)
  end)

  it("items are capped, so no call builds millions of item tables", function()
    local ok, err = pcall(map.generate_json, { width = 2000, height = 2000, seed = 2, algorithm = "cave",
      fill = 1, items = 3992000 })
    assert.is_false(ok)
    assert.are.equal("map.generate_json: items must be an integer from 0 to 10000, got 3992000", err)
  end)
end)
