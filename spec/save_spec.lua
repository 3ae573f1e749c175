-- map.save / map.load of a value graph (docs/api.md, "map.save"): random
-- graphs go and come back the same (spec/reference/values.lua), with their
-- shared tables and cycles; the bytes do not depend on the order the
-- tables were filled in, and are the ones pinned in
-- spec/golden_toolbox/save-1.txt on both interpreters; the natives come
-- back working as they were; no code runs on either side; every
-- truncation, bit flip and foreign string is an error.
local map = require "map"
local support = require "spec.support"
local values = require "spec.reference.values"

-- Natives compared by what they hold: their own saved forms.
local function equal_native(x, y)
  local kind = getmetatable(x)
  if kind ~= getmetatable(y) then return false end
  if kind == "map.level" or kind == "map.field" then return x:save() == y:save() end
  if kind == "map.rng" or kind == "map.scheduler" then return x:state() == y:state() end
  if kind == "map.noise" then return x:get(1.25, 7.5) == y:get(1.25, 7.5) end
  if kind == "map.names" then return x:name(5) == y:name(5) and tostring(x) == tostring(y) end
  return false
end

local function assert_same(a, b)
  local ok, why = values.same(a, b, equal_native)
  assert(ok, why)
end

-- Numbers whose bits matter: signed zeros, infinities, NaN, the edges of
-- 2^53, tiny and huge, fractions.
local NUMBERS = { 0, -0.0, 1, -1, 0.5, -2.75, 1 / 0, -1 / 0, 0 / 0, 2 ^ 53, -(2 ^ 53), 2 ^ 53 + 2, 2 ^ 60,
  1e308, 5e-324, 2.2250738585072014e-308, 0.1, 1 / 3, 4294967296, 123456789 }
local STRINGS = { "", "a", "hp", "with space", "\0binary\255\1", ("x"):rep(300), "é ü", "1", "true" }

-- A random graph of `n` tables from `r` (a map.rng): keys of every kind,
-- values of every kind, tables named again (shared) and back up the graph
-- (cycles).
local function random_graph(r, n)
  local tables = { {} }
  local function scalar()
    local pick = r:random(4)
    if pick == 1 then return NUMBERS[r:random(#NUMBERS)] end
    if pick == 2 then return STRINGS[r:random(#STRINGS)] end
    if pick == 3 then return r:random(2) == 1 end
    return r:random(-1000, 1000)
  end
  while #tables < n do
    local t = tables[r:random(#tables)]
    local key
    local pick = r:random(4)
    if pick == 1 then key = r:random(1, 20)
    elseif pick == 2 then key = STRINGS[r:random(#STRINGS)]
    elseif pick == 3 then key = r:random(2) == 1
    else
      key = NUMBERS[r:random(#NUMBERS)]
      if key ~= key then key = 7 end
    end
    local value
    local v = r:random(3)
    if v == 1 then
      value = {}
      tables[#tables + 1] = value
    elseif v == 2 then
      value = tables[r:random(#tables)]
    else
      value = scalar()
    end
    t[key] = value
  end
  return tables[1]
end

-- A copy of graph `g` whose tables are filled in another order (keys
-- sorted the other way, arrays from the end, hash parts pre-sized).
local function refilled(g)
  local copies = {}
  local function copy(t)
    if type(t) ~= "table" then return t end
    if copies[t] then return copies[t] end
    local keys = {}
    for k in pairs(t) do keys[#keys + 1] = k end
    table.sort(keys, function(a, b)
      return tostring(a) .. type(a) > tostring(b) .. type(b)
    end)
    local c = {}
    copies[t] = c
    for i = 1, 8 do c["pad" .. i] = true end
    for _, k in ipairs(keys) do c[k] = copy(t[k]) end
    for i = 1, 8 do c["pad" .. i] = nil end
    return c
  end
  return copy(g)
end

-- Every kind of native, a scheduler whose actors are tables of the graph.
local function game()
  local lvl = map.level { width = 30, height = 12, seed = 4 }
  local memory = lvl:field()
  lvl:fov(lvl.player.x, lvl.player.y, 6, { into = memory })
  local hero, goblin = { name = "hero", hp = 20 }, { name = "goblin", hp = 6 }
  hero.foe, goblin.foe = goblin, hero
  local turns = map.scheduler()
  turns:add(hero, 1)
  turns:add(goblin, 1.5)
  turns:add("a trap", 0.25)
  local r = map.rng(9)
  r:random(100)
  return {
    level = lvl, memory = memory, distances = lvl:distances(lvl.player), rng = r, turns = turns,
    names = map.names({ "Bree", "Bree", "Hobbiton", "Bywater", "Michel Delving" }, { order = 2 }),
    noise = map.noise { seed = 3, octaves = 2, kind = "perlin" },
    actors = { hero, goblin }, log = { "You enter.", "A goblin!" }, turn = 12,
  }
end

local function hex(s)
  return (s:gsub(".", function(c) return ("%02x"):format(c:byte()) end))
end

describe("map.save and map.load", function()
  it("bring back random graphs as they were, and save them again to the same bytes", function()
    local r = map.rng(1)
    for round = 1, 60 do
      local g = random_graph(r, round * 3)
      local saved = map.save(g)
      local back = map.load(saved)
      assert_same(g, back)
      assert.are.equal(saved, map.save(back), "round " .. round)
      assert.are.equal(saved, map.save(refilled(g)), "round " .. round .. ": another filling order")
    end
  end)

  it("keeps shared tables shared and cycles as cycles", function()
    local shared = { 1, 2 }
    local g = { a = shared, b = shared, list = { shared } }
    g.self, g.list.up = g, g
    local back = map.load(map.save(g))
    assert.are.equal(back.a, back.b)
    assert.are.equal(back.a, back.list[1])
    assert.are.equal(back, back.self)
    assert.are.equal(back, back.list.up)
  end)

  it("writes numbers by value: the same bytes on both interpreters (pinned), -0.0 and NaN kept", function()
    local g = { 1, 2.5, -0.0, 0 / 0, 1 / 0, 2 ^ 53, 2 ^ 60, 3.0, "\0\255", true, false,
      nested = { x = 1, y = 2, [0.5] = "half", [-3] = "minus" } }
    local saved = map.save(g)
    assert.are.equal(support.read_file("spec/golden_toolbox/save-1.txt"), hex(saved) .. "\n")
    local back = map.load(saved)
    assert.are.equal(-1 / 0, 1 / back[3])
    assert.is_true(back[4] ~= back[4])
    assert.are.equal(3, back[8])
    if math.type then assert.are.equal("integer", math.type(back[8])) end
    if math.type then
      assert.are.equal(math.maxinteger, map.load(map.save(math.maxinteger)))
      assert.are.equal("float", math.type(map.load(map.save(2 ^ 60))))
    end
  end)

  it("brings back every kind of native, working on where it was", function()
    local g = game()
    local saved = map.save(g)
    local back = map.load(saved)
    assert_same(g, back)
    assert.are.equal(saved, map.save(back))
    -- the scheduler's actors are the graph's own tables
    for _ = 1, 7 do
      local a, t1 = g.turns:next()
      local b, t2 = back.turns:next()
      assert.are.equal(t1, t2)
      assert.are.equal(type(a) == "table" and a.name or a, type(b) == "table" and b.name or b)
      if type(b) == "table" then assert.is_true(b == back.actors[1] or b == back.actors[2]) end
    end
    assert.are.equal(g.rng:random(1e6), back.rng:random(1e6))
    assert.are.equal(g.names:name(g.rng), back.names:name(back.rng))
    assert.are.equal(g.memory:get(3, 3), back.memory:get(3, 3))
    assert.are.equal(g.level:render(), back.level:render())
  end)

  it("gives the text form with text = true, which map.load takes too", function()
    local g = game()
    local saved, text = map.save(g), map.save(g, { text = true })
    assert.are.equal("mapvalue1:", text:sub(1, 10))
    assert.is_nil(text:find("[^%w+/=:]"))
    assert.are.equal(saved, map.save(map.load(text)))
    assert.are.equal(saved, map.save(g, { text = false }))
  end)

  it("still loads the levels and fields lvl:save() and f:save() wrote", function()
    local lvl = map.level { width = 20, height = 8, seed = 2 }
    assert.are.equal(lvl:save(), map.load(lvl:save()):save())
    local f = lvl:field()
    assert.are.equal(f:save(), map.load(f:save()):save())
  end)

  it("runs no code: metamethods are not called when saving, and nothing has a metatable when loaded", function()
    local trap = function() error("a metamethod ran") end
    local t = setmetatable({ 1, 2, x = 3 }, { __index = trap, __newindex = trap, __pairs = trap, __len = trap,
      __eq = trap, __lt = trap, __le = trap })
    local back = map.load(map.save({ t = t }))
    assert_same({ t = { 1, 2, x = 3 } }, back)
    assert.is_nil(getmetatable(back.t))
  end)

  it("names what it cannot save by its path", function()
    local cases = {
      { "value.player.act is a function", { player = { act = print } } },
      { "value is a function", print },
      { "value[3] is a thread", { 1, 2, coroutine.create(print) } },
      { 'value["a b"][1] is a userdata', { ["a b"] = { io.stdout } } },
      { "value.set has a table as a key (keys must be booleans, numbers or strings)", { set = { [{}] = true } } },
      { "value.turns:actors()[1] is a function", { turns = (function()
        local s = map.scheduler()
        s:add(print, 1)
        return s
      end)() } },
    }
    for _, case in ipairs(cases) do
      local ok, err = pcall(map.save, case[2])
      assert.are.same({ false, "map.save: " .. case[1] }, { ok, err })
    end
    assert.are.same({ false, "map.save: text must be a boolean, got 1" }, { pcall(map.save, {}, { text = 1 }) })
    assert.are.same({ false, "map.save: expected at most 2 arguments, got 3" }, { pcall(map.save, {}, nil, 1) })
  end)

  it("refuses every truncation, every flipped bit and foreign strings, clearly", function()
    local saved = map.save(game())
    for n = 0, #saved - 1 do
      local ok, err = pcall(map.load, saved:sub(1, n))
      assert(not ok and err:find("^map%.load: "), n)
    end
    local small = map.save({ 1, "two", { three = 3.5 } })
    for i = 1, #small do
      for bit = 0, 7 do
        local b, mask = small:byte(i), 2 ^ bit
        local v = math.floor(b / mask) % 2 == 1 and b - mask or b + mask
        local flipped = small:sub(1, i - 1) .. string.char(v) .. small:sub(i + 1)
        assert.is_false(pcall(map.load, flipped), i .. ":" .. bit)
      end
    end
    local foreign = {
      { "", "not a saved value, level or field (no MAPVALUE, MAPLEVEL or MAPFIELD header)" },
      { "return {}", "not a saved value, level or field (no MAPVALUE, MAPLEVEL or MAPFIELD header)" },
      { "MAPVALUE", "truncated or corrupted saved string" },
      { "mapvalue1:%%%%", "not a saved value (mapvalue1: not followed by base64)" },
      { "mapvalue1:", "not a saved value (no MAPVALUE header)" },
      { saved:sub(1, 8) .. "\2\0\0\0" .. saved:sub(13), "saved format 2 is not supported (this module reads 1)" },
      { saved .. "x", "truncated or corrupted saved string" },
    }
    for _, case in ipairs(foreign) do
      assert.are.same({ false, "map.load: " .. case[2] }, { pcall(map.load, case[1]) })
    end
  end)

  it("saves and loads graphs deeper than any stack: a chain of 200,000 tables", function()
    local head = {}
    local at = head
    for i = 1, 200000 do
      at.next = { i = i }
      at = at.next
    end
    local back = map.load(map.save(head))
    local n = 0
    at = back
    while at.next do
      at, n = at.next, n + 1
    end
    assert.are.equal(200000, n)
    assert.are.equal(200000, at.i)
  end)
end)
