-- map.level on Lua 5.4 and LuaJIT (see .busted): a level in native memory
-- and its fields give what the table functions give on the same map, with
-- the same options and messages (`map.<fn>` read as `level:<fn>`), for
-- every method that is the method form of an export (the cases are its
-- manifest's, spec/exports/<fn>.lua's `method`); the level's own methods
-- (get, set, things, occupancy, save) round-trip. Bad arguments and the
-- finalizer storm: hostile_spec.lua.
local map = require "map"
local support = require "spec.support"
local manifests = require "spec.manifests"

local fmt = string.format

-- Every cell of two tables of rows equal (rows 1..#b, cells 1..#b[1]).
local function same_rows(a, b, what)
  assert.are.equal(#b, #a, what .. ": rows")
  for y = 1, #b do
    for x = 1, #b[1] do
      if a[y][x] ~= b[y][x] then
        error(fmt("%s: cell (%d,%d) is %s, the table function's %s", what, x, y, tostring(a[y][x]),
          tostring(b[y][x])), 2)
      end
    end
  end
end

-- The levels the comparisons run on: every algorithm at two sizes, and
-- (each_level) the toolkit specs' levels, some with doors.
local function each_map(f)
  for _, algorithm in ipairs(map.ALGORITHMS) do
    for seed = 1, 3 do
      local size = seed == 3 and { 23, 11 } or { 50, 30 }
      local m = map.generate { width = size[1], height = size[2], seed = seed, algorithm = algorithm }
      f(m, fmt("%s %dx%d seed %d", algorithm, size[1], size[2], seed), support.generator(seed))
    end
  end
  local n = 0
  support.each_level(function(m, name, rand)
    n = n + 1
    if n % 6 == 0 then f(m, name, rand) end
  end)
end

-- A cell of m that is not a wall, drawn with rand.
local open_cell = support.open_cell

local pack = manifests.pack
local unpack = manifests.unpack

-- The methods that are the method forms of exports: their manifests'
-- `method`, with the argument lists to give both.
local FORMS = {}
for _, entry in ipairs(manifests.methods()) do
  if entry.export then FORMS[#FORMS + 1] = entry end
end

-- map.<fn>(m, ...) and lvl:<fn>(...) with a case's arguments (the level's
-- own, `case.level`, where it takes a field in place of a table), each
-- packed after pcall; the table function's message read as the method's.
-- A native the method returns (a field) is compared by its table, its
-- cells read one by one and its size.
local function compare(fn, m, lvl, case, where)
  local args = pack(unpack(case, 1, case.n or #case))
  local own = case.level and pack(unpack(case.level, 1, case.level.n or #case.level)) or args
  local a, b = pack(pcall(map[fn], m, unpack(args, 1, args.n))), pack(pcall(lvl[fn], lvl, unpack(own, 1, own.n)))
  if not a[1] then a[2] = a[2]:gsub("^map%." .. fn .. ":", "level:" .. fn .. ":") end
  if case.fails then assert(not b[1], where .. ": no error") end
  for i = 2, b.n do
    local value = b[i]
    if type(value) == "userdata" then
      local t = a[i]
      assert.are.same({ #m[1], #m }, { value.width, value.height }, where)
      for y = 1, #m, 3 do
        for x = 1, #m[1], 2 do
          if (t[y] and t[y][x]) ~= value:get(x, y) then
            error(fmt("%s: cell (%d,%d) reads %s, the table function's %s", where, x, y, tostring(value:get(x, y)),
              tostring(t[y] and t[y][x])), 2)
          end
        end
      end
      same_rows(value:table(), t, where)
      b[i] = value:table()
    end
  end
  assert.are.same(a, b, where)
end

describe("a level's methods equal the table functions (their manifests' method cases)", function()
  assert(#FORMS > 0)
  for _, entry in ipairs(FORMS) do
    local fn = entry.name
    it(("lvl:%s gives what map.%s gives on the same map, its messages named level:%s"):format(fn, fn, fn), function()
      each_map(function(m, name, rand)
        local lvl = map.level(m)
        for i, case in ipairs(entry.fields.cases(m, rand, lvl)) do
          compare(fn, m, lvl, case, ("%s: %s, case %d"):format(name, entry.label, i))
        end
      end)
    end)
  end
end)

describe("a level made by map.level{...}", function()
  -- The module's heap while one property is read (the probe build's
  -- `map._faults` counts it): each once copied the whole metadata, 52-57
  -- ms a read on a level of 10,000 rooms and items, and aborted when that
  -- copy did not fit.
  it("reads a property at the cost of that property alone #probe", function()
    local script = [[
local map = require "map"
local lvl = map.level { width = 400, height = 400, seed = 1, algorithm = "cave", items = 5000 }
assert(#lvl.items == 5000)
for _, key in ipairs({ "seed", "algorithm", "blocked", "player", "stairs", "up", "width", "height" }) do
  collectgarbage()
  map._faults(0)
  local _ = lvl[key]
  local _, _, peak = map._faults(0)
  print(key, peak)
end
]]
    local out, err, code = support.run_with_probe(script)
    assert.are.same({ "", 0 }, { err, code })
    local read = 0
    for key, peak in out:gmatch("(%w+)\t(%-?%d+)\n") do
      assert(tonumber(peak) <= 256, key .. ": " .. peak .. " bytes of the module's heap")
      read = read + 1
    end
    assert.are.equal(8, read)
  end)

  it("holds the terrain; its things laid back are generate_text's map, its table generate's", function()
    for _, algorithm in ipairs(map.ALGORITHMS) do
      for seed = 1, 4 do
        local options = { width = 40, height = 20, seed = seed, algorithm = algorithm }
        local lvl = map.level(options)
        local m = map.generate(options)
        assert.are.equal(map.generate_text(options), lvl:render())
        assert.are.same(m, lvl:table())
        assert.are.same({ map.reachable(m) }, { lvl:reachable() })
        for _, key in ipairs({ "player", "stairs", "rooms", "items", "vaults", "placed", "seed", "algorithm" }) do
          assert.are.same(m[key], lvl[key], key)
        end
        assert.are.same({ 40, 20, nil }, { lvl.width, lvl.height, lvl.up })
        local things, last = lvl:things(), 0
        for _, t in ipairs(things) do
          assert.is_truthy(("@$!"):find(t.char, 1, true))
          assert.are.equal(t.char, m[t.y][t.x])
          assert.are.equal(".", lvl:get(t))
          local at = (t.y - 1) * 40 + t.x
          assert(at > last, "things in row order")
          last = at
        end
        assert.are.equal(1 + #m.items, #things)
      end
    end
  end)

  it("moves out the option things (a vault's own creatures) and writes < under @ with arrive", function()
    local vault = { rows = { ".....", ".#M#.", "....." }, count = 2 }
    local options = { width = 60, height = 30, seed = 3, vaults = { vault }, arrive = { x = 10, y = 10 },
      place = { { char = "k", count = 2 } }, things = "M" }
    local lvl = map.level(options)
    options.things = nil
    assert.are.equal(map.generate_text(options), lvl:render())
    local chars = {}
    for _, t in ipairs(lvl:things()) do chars[t.char] = (chars[t.char] or 0) + 1 end
    assert.are.same({ ["@"] = 1, k = 2, M = #lvl.vaults }, { ["@"] = chars["@"], k = chars.k, M = chars.M })
    assert.are.equal("<", lvl:get(lvl.up))
    assert.are.same(lvl.player, lvl.up)
  end)

  it("takes a table or text as it is, moving out only the characters of options.things", function()
    local m = map.generate { width = 30, height = 12, seed = 2 }
    local text = map.render(m)
    -- A generated table names its algorithm: its level keeps the metadata
    -- (spec/level_meta_spec.lua), its cells stay where they are.
    local levels = { { map.level(m), m.player }, { map.level(text) }, { map.level(map.parse(text)) } }
    for _, made in ipairs(levels) do
      local lvl, player = made[1], made[2]
      assert.are.equal(text, lvl:render())
      assert.are.same({}, lvl:things())
      assert.are.same(player, lvl.player)
      assert.are.equal("@", lvl:get(m.player))
    end
    local lvl = map.level(m, { things = "@$" })
    assert.are.equal(text, lvl:render())
    assert.are.equal(".", lvl:get(m.player))
    assert.are.equal(1 + support.count_cells(m, "$"), #lvl:things())
  end)
end)

-- A string as lines of 64 hexadecimal digits.
local function hex(s)
  local lines = {}
  for i = 1, #s, 32 do
    lines[#lines + 1] = s:sub(i, i + 31):gsub(".", function(c) return fmt("%02x", c:byte()) end)
  end
  return table.concat(lines, "\n")
end

-- Saved forms pinned across releases (new files only: golden files never
-- change; MAP_WRITE_GOLDEN=1 writes a missing one).
local GOLDEN = {
  { file = "level-rooms-40x20-9.hex", make = function()
    local lvl = map.level { width = 40, height = 20, seed = 9, vaults = { { rows = { "...", ".M.", "..." } } },
      things = "M", arrive = { x = 5, y = 5 } }
    lvl:occupy(lvl.stairs)
    return lvl:save()
  end },
  { file = "field-cave-30x15-4.hex", make = function()
    local lvl = map.level { width = 30, height = 15, seed = 4, algorithm = "cave" }
    return lvl:distances(lvl.player, { max = 6 }):save() .. lvl:fov(lvl.player, 5):save()
  end },
}

describe("a level's own methods", function()
  it("get and set a cell in place, occupy and vacate it, and step by the step rule", function()
    local lvl = map.level(support.from_text("#####\n#.+.#\n#...#\n#####"))
    assert.are.same({ "+", "." }, { lvl:get(3, 2), lvl:get({ x = 2, y = 3 }) })
    lvl:set(3, 2, "'")
    assert.are.equal("'", lvl:get(3, 2))
    assert.are.equal("#####\n#.'.#\n#...#\n#####", lvl:render())
    assert.is_false(lvl:occupied(2, 2))
    lvl:occupy(2, 2)
    assert.is_true(lvl:occupied(2, 2))
    assert.is_false(lvl:can_step(3, 3, -1, -1, { diagonal = true, occupied = true }))
    assert.is_true(lvl:can_step(3, 3, -1, -1, { diagonal = true }))
    assert.is_false(lvl:can_step(3, 3, -1, -1), "no diagonal steps by default")
    assert.is_false(lvl:can_step(2, 3, -1, 0), "a wall")
    assert.is_false(lvl:can_step(4, 3, -1, -1, { diagonal = true, blocked = "#'" }), "a corner")
    lvl:vacate(2, 2)
    assert.is_false(lvl:occupied(2, 2))
    assert.has_error(function() lvl:can_step(2, 2, 0, 0) end, "level:can_step: dx and dy are both 0: a step must move")
    assert.has_error(function() lvl:set(2, 2, "ab") end,
      'level:set: ch must be a one-character string, got string "ab"')
  end)

  it("occupied = true closes occupied cells as avoid does", function()
    each_map(function(m, name, rand)
      local lvl = map.level(m)
      local others = {}
      for i = 1, 4 do
        others[i] = open_cell(m, rand)
        lvl:occupy(others[i])
      end
      local p = open_cell(m, rand)
      local d = lvl:distances(p, { occupied = true })
      same_rows(d:table(), map.distances(m, p, { avoid = others }), name .. " distances")
      -- A path may end on an occupied cell (the goal), as it may start on one.
      local others_but_goal = {}
      for _, o in ipairs(others) do
        if o.x ~= m.stairs.x or o.y ~= m.stairs.y then others_but_goal[#others_but_goal + 1] = o end
      end
      assert.are.same({ map.path(m, p, m.stairs, { avoid = others_but_goal }) },
        { lvl:path(p, m.stairs, { occupied = true }) }, name .. " path")
      assert.are.same({ map.step(m, d:table(), m.stairs, { avoid = others }) },
        { lvl:step(d, m.stairs, { occupied = true }) }, name .. " step")
      local known = {}
      for y = 1, #m do known[y] = {} end
      for _, c in ipairs(support.cells_not_in(m, "")) do
        if math.abs(c[1] - p.x) + math.abs(c[2] - p.y) < 12 then known[c[2]][c[1]] = true end
      end
      assert.are.same({ map.explore(m, known, p, { avoid = others }) },
        { lvl:explore(known, p, { occupied = true }) }, name .. " explore")
      local free = 0
      for _, c in ipairs(support.cells_not_in(m, "#")) do
        if m[c[2]][c[1]] == "." and not lvl:occupied(c[1], c[2]) then free = free + 1 end
      end
      local ok, err = pcall(lvl.sample, lvl, free + 1, { seed = 1, occupied = true })
      assert(not ok and err:find("only " .. free .. " cell", 1, true), name .. ": " .. tostring(err))
    end)
  end)

  it("explore does not walk into an occupied cell", function()
    local lvl = map.level(support.from_text("#######\n#.....#\n#######"))
    local row = { true, true, true, true }
    local known = { row, row, row }
    lvl:occupy(3, 2)
    assert.are.same({ nil, "explored" }, { lvl:explore(known, { x = 2, y = 2 }, { occupied = true }) })
    assert.are.same({ { x = 2, y = 2 }, { x = 3, y = 2 }, { x = 4, y = 2 } }, lvl:explore(known, { x = 2, y = 2 }))
    lvl:vacate(3, 2)
    lvl:occupy(2, 2)
    -- The start may be occupied (the explorer stands there).
    assert.are.same({ { x = 2, y = 2 }, { x = 3, y = 2 }, { x = 4, y = 2 } },
      lvl:explore(known, { x = 2, y = 2 }, { occupied = true }))
    local memory = lvl:field()
    lvl:fov({ x = 2, y = 2 }, 1, { into = memory })
    lvl:occupy(3, 2)
    assert.are.same({ nil, "explored" }, { lvl:explore(memory, { x = 2, y = 2 }, { occupied = true }) })
  end)

  it("steps moves each mover in order as step would, each seeing the moves before it", function()
    each_map(function(m, name, rand)
      local lvl = map.level(m)
      local d = lvl:distances(m.stairs, { diagonal = true })
      local movers, expected = {}, {}
      while #movers < 8 do
        local c = open_cell(m, rand)
        if not lvl:occupied(c) then
          movers[#movers + 1], expected[#movers + 1] = { x = c.x, y = c.y }, { x = c.x, y = c.y }
          lvl:occupy(c)
        end
      end
      local moved = 0
      for i, e in ipairs(expected) do
        local others = {}
        for j, o in ipairs(expected) do if j ~= i then others[#others + 1] = o end end
        local x, y = map.step(m, d:table(), e, { diagonal = true, avoid = others })
        if x then e.x, e.y, moved = x, y, moved + 1 end
      end
      assert.are.equal(moved, lvl:steps(d, movers, { diagonal = true, occupied = true }), name)
      assert.are.same(expected, movers, name)
      for _, e in ipairs(expected) do assert.is_true(lvl:occupied(e), name) end
    end)
  end)

  -- Each mover's cell is read before any moves, and only a mover that
  -- moved is written: a table given twice ends where its last move put it
  -- (LuaJIT's route once wrote back the second mover's unmoved cell).
  it("steps writes back only the movers that moved, a table given twice included", function()
    local lvl = map.level(support.from_text("#######\n#.....#\n#######"))
    local d = lvl:distances({ x = 2, y = 2 })
    local p = { x = 4, y = 2 }
    lvl:occupy(p)
    -- The first moves to (3,2), which the second (read at (4,2)) then finds occupied.
    assert.are.equal(1, lvl:steps(d, { p, p }, { occupied = true }))
    assert.are.same({ x = 3, y = 2 }, p)
    assert.is_true(lvl:occupied(3, 2))
    assert.is_false(lvl:occupied(4, 2))
    -- Without occupied both move, from (3,2) to (2,2).
    assert.are.equal(2, lvl:steps(d, { p, p }))
    assert.are.same({ x = 2, y = 2 }, p)
  end)

  -- Sources far apart within `max` are searched each in its own window (a
  -- field in parts); a `known` table that knows every cell is read over
  -- the window round them all, so the same search with it is one window.
  it("searches sources far apart within max in parts, which answer as one window", function()
    local m = map.generate { width = 160, height = 90, seed = 4, algorithm = "cave" }
    local lvl = map.level(m)
    local everything = {}
    for y = 1, m.height do
      everything[y] = {}
      for x = 1, m.width do everything[y][x] = true end
    end
    local function same(parts, one, what)
      for y = 1, m.height do
        for x = 1, m.width do
          if parts:get(x, y) ~= one:get(x, y) then
            error(fmt("%s: cell (%d,%d) is %s, in one window %s", what, x, y, tostring(parts:get(x, y)),
              tostring(one:get(x, y))))
          end
        end
      end
      same_rows(parts:table(), one:table(), what)
      assert.are.equal(one:save(), parts:save(), what)
    end
    local rand = support.generator(35)
    for case = 1, 12 do
      local sources = {}
      for i = 1, 1 + case % 6 do
        local c = open_cell(m, rand)
        sources[i] = { x = c.x, y = c.y, value = rand(4) - 1 }
      end
      local avoid = {}
      for i = 1, case % 3 * 40 do avoid[i] = open_cell(m, rand) end
      local options = { max = 2 + case % 9, diagonal = case % 2 == 0, avoid = avoid }
      local whole = { max = options.max, diagonal = options.diagonal, avoid = avoid, known = everything }
      local parts, one = lvl:distances(sources, options), lvl:distances(sources, whole)
      local what = fmt("case %d", case)
      same(parts, one, what .. " distances")
      same(lvl:flee(sources, options), lvl:flee(sources, whole), what .. " flee")
      same(lvl:flee(parts, { diagonal = options.diagonal, avoid = avoid }),
        lvl:flee(one, { diagonal = options.diagonal, avoid = avoid }), what .. " flee from the field")
      local movers, again = {}, {}
      for i = 1, 20 do
        local c = open_cell(m, rand)
        movers[i], again[i] = { x = c.x, y = c.y }, { x = c.x, y = c.y }
      end
      assert.are.equal(lvl:steps(one, again), lvl:steps(parts, movers), what)
      assert.are.same(again, movers, what)
    end
    -- A value too large for flee is named at the first such cell in row
    -- order, as in one window, whichever source's part comes first.
    local first, last = open_cell(m, function() return 1 end), nil
    for y = m.height, 1, -1 do
      for x = m.width, 1, -1 do
        if not last and m[y][x] ~= "#" then last = { x = x, y = y } end
      end
    end
    local big = 2 ^ 51
    local sources = { { x = last.x, y = last.y, value = big - 3 }, { x = first.x, y = first.y, value = big } }
    local message = fmt("level:flee: distance %d at (%d,%d) times factor is beyond 2^53 in magnitude", big, first.x,
      first.y)
    for _, whole in ipairs { {}, { known = everything } } do
      whole.max, whole.factor = big + 4, -10
      assert.has_error(function() lvl:flee(sources, whole) end, message)
      local d = lvl:distances(sources, { max = big + 4, known = whole.known })
      assert.has_error(function() lvl:flee(d, { factor = -10 }) end, message)
    end
  end)

  it("marks a field of view into a memory and counts the cells seen", function()
    local m = map.generate { width = 60, height = 30, seed = 5, algorithm = "cave" }
    local lvl = map.level(m)
    local memory, union = map.field(60, 30), {}
    for y = 1, 30 do union[y] = {} end
    local route = map.path(m, m.player, m.stairs)
    for i = 1, #route, 5 do
      local seen, n = map.fov(m, route[i], 7), 0
      for y, row in pairs(seen) do
        for x in pairs(row) do union[y][x], n = true, n + 1 end
      end
      assert.are.equal(n, lvl:fov(route[i], 7, { into = memory }))
    end
    same_rows(memory:table(), union, "memory")
    assert.has_error(function() lvl:fov(m.player, 7, { into = map.field(5, 5) }) end,
      "level:fov: into is a memory of 5x5, the level is 60x30")
    assert.has_error(function() lvl:fov(m.player, 7, { into = lvl:fov(m.player, 3) }) end,
      "level:fov: into must be a memory (map.field or level:field()), got a field of 7x7")
    assert.has_error(function() lvl:fov(m.player, 7, { into = lvl:distances(m.player) }) end,
      "level:fov: into must be a memory (map.field or level:field()), got a field of values")
  end)

  it("saves a level and its fields and loads them back equal, on either interpreter", function()
    local lvl = map.level { width = 40, height = 20, seed = 9, vaults = { { rows = { "...", ".M.", "..." } } },
      things = "M" }
    lvl:occupy(lvl.stairs)
    lvl:set(1, 1, "~")
    local saved = lvl:save()
    local back = map.load(saved)
    assert.are.equal(saved, back:save())
    assert.are.same(lvl:table(), back:table())
    assert.are.same(lvl:things(), back:things())
    assert.is_true(back:occupied(lvl.stairs))
    for _, f in ipairs({ lvl:distances(lvl.player), lvl:flee(lvl.player, { max = 5 }), lvl:fov(lvl.player, 4),
      lvl:field() }) do
      local g = map.load(f:save())
      assert.are.same(f:table(), g:table())
      assert.are.equal(f:save(), g:save())
    end
    -- A generator's own blocked characters too (lost before: the level fuzz target).
    local overworld = map.level { width = 40, height = 20, seed = 9, algorithm = "overworld" }
    assert.are.same(overworld:table(), map.load(overworld:save()):table())
    assert.are.equal("#~^", map.load(overworld:save()):table().blocked)
  end)

  it("saves the bytes pinned in spec/golden_native/, on both interpreters", function()
    for _, case in ipairs(GOLDEN) do
      local path = "spec/golden_native/" .. case.file
      local bytes = hex(case.make())
      if os.getenv("MAP_WRITE_GOLDEN") then
        local f = io.open(path, "rb")
        if not f then
          f = assert(io.open(path, "wb"))
          f:write(bytes, "\n")
        end
        f:close()
      end
      assert.are.equal(support.read_file(path), bytes .. "\n", path)
    end
  end)

  it("refuses a damaged, truncated or foreign string with a message", function()
    local saved = map.level { width = 20, height = 10, seed = 1 }:save()
    assert.has_error(function() map.load(saved:sub(1, -2)) end, "map.load: truncated or corrupted saved string")
    local flipped = saved:sub(1, 30) .. string.char((saved:byte(31) + 1) % 256) .. saved:sub(32)
    assert.has_error(function() map.load(flipped) end, "map.load: saved string is corrupted (checksum mismatch)")
    assert.has_error(function() map.load("hello") end,
      "map.load: not a saved value, level or field (no MAPVALUE, MAPLEVEL or MAPFIELD header)")
    assert.has_error(function() map.load(1) end, "map.load: s must be a string, got number")
  end)

  it("checks self: a field as a level, a level as a field, anything else", function()
    local lvl = map.level { width = 20, height = 10, seed = 1 }
    local f = lvl:distances(lvl.player)
    assert.has_error(function() lvl.get(f, 1, 1) end, "level:get: self must be a level, got field")
    assert.has_error(function() f.get(lvl, 1, 1) end, "field:get: self must be a field, got level")
    assert.has_error(function() lvl.get({}, 1, 1) end, "level:get: self must be a level, got table")
    assert.has_error(function() lvl.get(io.stdout, 1, 1) end, "level:get: self must be a level, got userdata")
    assert.are.equal("map.level", getmetatable(lvl))
    assert.are.equal("map.field", getmetatable(f))
    assert.are.equal("map.level: 20x10", tostring(lvl))
    assert.is_nil(lvl.no_such_field)
  end)
end)
