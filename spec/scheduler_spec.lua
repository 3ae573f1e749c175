-- map.scheduler: rot.js's Speed scheduler with exact times. Its turns are
-- pinned (spec/golden_toolbox/scheduler.txt, both interpreters), checked
-- against a binary heap in plain Lua (spec/reference/scheduler.lua) over
-- random operations, and saved and loaded with the game's own actors.
-- Bad arguments are hostile_spec.lua's.
local map = require "map"
local support = require "spec.support"
local draws = require "spec.golden_toolbox.draws"
local Reference = require "spec.reference.scheduler"

-- The actors of the next `n` turns, as a list.
local function turns(s, n)
  local list = {}
  for i = 1, n do list[i] = (s:next()) end
  return list
end

describe("map.scheduler", function()
  it("gives the pinned turns: speeds 1, 1.5, 0.8, 2/3, 3, 100/7, a delay, a removal", function()
    assert.are.equal(support.read_file("spec/golden_toolbox/scheduler.txt"), draws.scheduler())
  end)

  it("lets each actor act in proportion to its speed over 10,000 turns", function()
    local s, count = map.scheduler(), {}
    local speeds = { slow = 1, normal = 2, fast = 3, quick = 4 }
    for _, name in ipairs({ "slow", "normal", "fast", "quick" }) do
      s:add(name, speeds[name])
      count[name] = 0
    end
    for _ = 1, 10000 do
      local actor = s:next()
      count[actor] = count[actor] + 1
    end
    -- 10,000 turns are 1,000 turns of speed 1: exactly, times being exact.
    assert.are.same({ slow = 1000, normal = 2000, fast = 3000, quick = 4000 }, count)
    assert.are.equal(1000, s:time())
  end)

  it("first acts 1/speed after the time it was added, then every 1/speed", function()
    local s = map.scheduler()
    s:add("a", 4)
    assert.are.same({ "a", 0.25 }, { s:next() })
    assert.are.same({ "a", 0.5 }, { s:next() })
    s:add("b", 0.5) -- at 0.5: first at 2.5
    assert.are.same({ "a", 0.75 }, { s:next() })
    for _ = 1, 6 do s:next() end
    assert.are.same({ "a", 2.5 }, { s:next() }, "a tie at 2.5: a was added first")
    assert.are.same({ "b", 2.5 }, { s:next() })
    assert.are.same({ "a", 2.75 }, { s:next() })
    assert.are.equal(2.75, s:time())
  end)

  it("breaks ties by the order of add, whatever the speeds, and the same on both interpreters", function()
    local s = map.scheduler()
    for _, name in ipairs({ "c", "a", "b" }) do s:add(name, 1) end
    assert.are.same({ "c", "a", "b", "c", "a", "b" }, turns(s, 6))
    s = map.scheduler()
    s:add("fast", 2)
    s:add("slow", 1)
    -- At 1 both are due: fast was added first (rot.js would give slow,
    -- queued before fast's second turn).
    assert.are.same({ "fast", "fast", "slow", "fast", "fast", "slow" }, turns(s, 6))
    -- Removed and added again, an actor goes after those added before.
    s = map.scheduler()
    for _, name in ipairs({ "x", "y", "z" }) do s:add(name, 1) end
    s:remove("x")
    s:add("x", 1)
    assert.are.same({ "y", "z", "x", "y", "z", "x" }, turns(s, 6))
  end)

  it("keeps times exact over millions of turns: thirds, sevenths, 0.1", function()
    local s = map.scheduler()
    s:add("third", 3)
    s:add("seventh", 7)
    s:add("tenth", 0.1)
    s:add("one", 1)
    local count = { third = 0, seventh = 0, tenth = 0, one = 0 }
    -- 11.1 turns a unit of time: up to T = 180180, 1,999,998 turns.
    local T = 180180
    local actor, t
    while true do
      actor, t = s:next()
      if t > T then break end
      count[actor] = count[actor] + 1
    end
    assert.are.same({ third = 3 * T, seventh = 7 * T, tenth = T / 10, one = T }, count)
    assert.are.same({ "seventh", (7 * T + 1) / 7 }, { actor, t })
  end)

  it("removes and delays: a removed actor never acts, a delayed one acts t later", function()
    local s = map.scheduler()
    for _, name in ipairs({ "a", "b", "c" }) do s:add(name, 1) end
    assert.is_true(s:remove("b"))
    assert.is_false(s:remove("b"))
    assert.is_false(s:remove("nobody"))
    assert.are.equal(2, #s)
    assert.are.same({ "a", "c", "a", "c" }, turns(s, 4))
    s:delay("a", 1.5)
    -- a's next turn was at 3, now 4.5; c's at 3, 4, 5.
    assert.are.same({ { "c", 3 }, { "c", 4 }, { "a", 4.5 }, { "c", 5 } }, (function()
      local out = {}
      for i = 1, 4 do out[i] = { s:next() } end
      return out
    end)())
    s:delay("c", 0)
    assert.are.same({ "a", 5.5 }, { s:next() })
    assert.is_true(s:remove("a"))
    assert.is_true(s:remove("c"))
    assert.are.equal(0, #s)
    -- No value at all, as on both interpreters (LuaJIT's route once gave one nil).
    assert.are.equal(0, select("#", s:next()))
    assert.are.equal(5.5, s:time(), "the time stays at the last turn")
  end)

  it("takes any Lua value as an actor, never running a metamethod", function()
    local boom = function() error("metamethod called") end
    local trap = setmetatable({}, { __index = boom, __newindex = boom, __eq = boom, __len = boom, __lt = boom,
      __le = boom, __call = boom, __tostring = boom })
    local values = { trap, "name", 42, 2.5, true, false, print, coroutine.create(print), io.stdout, {},
      map.rng(1) }
    if jit then
      local ffi = require "ffi"
      values[#values + 1] = ffi.new("int[1]")
      values[#values + 1] = ffi.cast("void *", 0) -- a NULL pointer, which == nil on LuaJIT
    end
    local s = map.scheduler()
    for i, v in ipairs(values) do s:add(v, i) end
    assert.are.equal(#values, #s)
    local seen = {}
    for _ = 1, 1000 do
      local actor = s:next()
      seen[actor] = true
    end
    for _, v in ipairs(values) do assert.is_true(seen[v] ~= nil) end
    for _, v in ipairs(values) do assert.is_true(s:remove(v)) end
    assert.are.equal(0, #s)
    -- 1 and 1.0 are one key in a table, and one actor here.
    s:add(1, 1)
    assert.has_error(function() s:add(1.0, 1) end, "scheduler:add: actor is already in the scheduler (remove it first)")
  end)

  it("matches a binary heap in plain Lua over random adds, removes, delays and turns", function()
    local L = 2520 -- the reference's unit: 1/L of a turn, so that speeds 1..10 and delays k/L are exact
    for seed = 1, 20 do
      local r = map.rng(seed)
      local s, ref = map.scheduler(), Reference.new()
      local actors, present = {}, {}
      for i = 1, 40 do actors[i] = { id = i } end
      for _ = 1, 600 do
        local op = r:random(10)
        local actor = r:pick(actors)
        if op <= 3 and not present[actor] then
          local speed = r:random(10)
          s:add(actor, speed)
          ref:add(actor, L / speed)
          present[actor] = true
        elseif op == 4 then
          assert.are.equal(ref:remove(actor), s:remove(actor))
          present[actor] = nil
        elseif op == 5 and present[actor] then
          local units = r:random(0, 3 * L)
          s:delay(actor, units / L)
          ref:delay(actor, units)
        else
          local a, t = s:next()
          local b, u = ref:next()
          assert.are.equal(b, a)
          if b then assert.are.equal(u / L, t) end
        end
        assert.are.equal(ref:len(), #s)
      end
    end
  end)

  it("saves mid-game and loads back with the game's actors: the same turns after", function()
    local s = map.scheduler()
    local monsters = {}
    for i = 1, 30 do
      monsters[i] = { name = "m" .. i }
      s:add(monsters[i], i % 7 + 0.5)
    end
    for _ = 1, 517 do s:next() end
    s:remove(monsters[4])
    s:delay(monsters[9], 1 / 3)
    s:add(monsters[4], 2)
    local state, order = s:state(), s:actors()
    assert.are.equal(30, #order)
    assert.are.equal(monsters[1], order[1])
    assert.are.equal(monsters[4], order[30], "re-added last")
    -- The game saves its actors by name, in s:actors()'s order, and maps
    -- them back to its own values when loading.
    local names = {}
    for i, m in ipairs(order) do names[i] = m.name end
    local by_name = {}
    for _, m in ipairs(monsters) do by_name[m.name] = m end
    local loaded = {}
    for i, name in ipairs(names) do loaded[i] = by_name[name] end
    local back = map.scheduler(state, loaded)
    assert.are.equal(state, back:state())
    assert.are.equal(s:time(), back:time())
    assert.are.equal(#s, #back)
    for _ = 1, 2000 do
      local a, t = s:next()
      local b, u = back:next()
      assert.are.equal(a, b)
      assert.are.equal(t, u)
    end
    -- An empty scheduler loads without actors.
    assert.are.equal(0, #map.scheduler(map.scheduler():state()))
  end)

  it("refuses a damaged state and actors that do not fit it", function()
    local s = map.scheduler()
    s:add("a", 1)
    s:add("b", 2)
    s:next()
    local state = s:state()
    for i = 1, #state do
      local c = state:sub(i, i)
      local damaged = state:sub(1, i - 1) .. (c == "1" and "2" or "1") .. state:sub(i + 1)
      local ok, err = pcall(map.scheduler, damaged, { "a", "b" })
      assert.is_false(ok, damaged)
      assert.matches("^map%.scheduler: ", err)
    end
    assert.has_error(function() map.scheduler(state, { "a" }) end,
      "map.scheduler: actors has 1 actors, the state names 2")
    assert.has_error(function() map.scheduler(state) end,
      "map.scheduler: actors must be an array of the state's 2 actors (in the order of scheduler:actors()), got nil")
    assert.has_error(function() map.scheduler(state, { "a", "a" }) end,
      "map.scheduler: actors[2] is actors[1] again: each actor once")
    assert.has_error(function() map.scheduler(state, { "a", 0 / 0 }) end, "map.scheduler: actors[2] is NaN")
  end)

  it("is a userdata with a protected metatable, its length its actors", function()
    local s = map.scheduler()
    assert.are.equal("userdata", type(s))
    assert.are.equal("map.scheduler", getmetatable(s))
    assert.are.equal("map.scheduler: 0 actors", tostring(s))
    s:add("x", 1)
    assert.are.equal(1, #s)
    assert.are.equal("map.scheduler: 1 actors", tostring(s))
    assert.are.equal(0, s:time())
    assert.are.same({ "add", "next", "remove", "delay", "time", "state", "actors" }, map.METHODS.scheduler)
  end)
end)
