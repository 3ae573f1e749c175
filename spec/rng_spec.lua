-- map.rng: a random source a game keeps and saves. Its sequences are
-- pinned (spec/golden_toolbox/, the same on Lua 5.4 and LuaJIT), its
-- draws unbiased (chi-square at p = 0.001 on fixed seeds: each statistic
-- is a fixed number, and a biased source fails the same test), its state
-- continues the sequence, and generate, map.level and sample draw their
-- seed from it. Bad arguments are hostile_spec.lua's.
local map = require "map"
local support = require "spec.support"
local draws = require "spec.golden_toolbox.draws"

-- Pearson's statistic of `counts` against `expected` each.
local function chi_square(counts, expected)
  local sum = 0
  for _, c in ipairs(counts) do sum = sum + (c - expected) ^ 2 / expected end
  return sum
end

-- Critical values at p = 0.001 by degrees of freedom.
local CRITICAL = { [3] = 16.27, [5] = 20.52, [6] = 22.46, [23] = 49.73, [63] = 103.44 }

-- The counts of `bins` bins over `n` draws of `draw()` (1..bins).
local function counts(bins, n, draw)
  local c = {}
  for i = 1, bins do c[i] = 0 end
  for _ = 1, n do
    local b = draw()
    c[b] = c[b] + 1
  end
  return c
end

describe("map.rng", function()
  it("draws the pinned sequences of every method from seeds 1 and 42", function()
    for _, seed in ipairs(draws.SEEDS) do
      local path = "spec/golden_toolbox/rng-" .. seed .. ".txt"
      assert.are.equal(support.read_file(path), draws.rng(seed), path)
    end
  end)

  it("is the generators' own sequence: seed 42's first draws are those src/rng.rs pins", function()
    local r, got = map.rng(42), {}
    for i = 1, 6 do got[i] = r:random(1000) - 1 end
    assert.are.same({ 226, 239, 760, 527, 970, 375 }, got)
  end)

  it("gives what math.random gives: a float in [0, 1), an integer in 1..n and in m..n", function()
    local r = map.rng(7)
    local lowest, highest = 1, 0
    for _ = 1, 10000 do
      local x = r:random()
      assert.is_true(x >= 0 and x < 1)
      lowest, highest = math.min(lowest, x), math.max(highest, x)
      local n = r:random(3)
      assert.is_true(n == 1 or n == 2 or n == 3)
      local m = r:random(-2, 2)
      assert.is_true(m >= -2 and m <= 2 and m % 1 == 0)
    end
    assert.is_true(lowest < 0.001 and highest > 0.999)
    assert.are.equal(5, r:random(5, 5))
    assert.are.equal(1, r:random(1))
    local big = r:random(2 ^ 53)
    assert.is_true(big >= 1 and big <= 2 ^ 53)
    assert.are.equal(2 ^ 53, r:random(2 ^ 53, 2 ^ 53))
    assert.are.equal(-2 ^ 53, r:random(-2 ^ 53, -2 ^ 53))
    if math.type then
      assert.are.equal("integer", math.type(r:random(6)))
      assert.are.equal("float", math.type(r:random()))
    end
  end)

  describe("without bias", function()
    it("random(6), random(7) and random(2^31): chi-square under the 0.001 critical value", function()
      local r = map.rng(1)
      local c6 = counts(6, 60000, function() return r:random(6) end)
      assert.is_true(chi_square(c6, 10000) < CRITICAL[5], chi_square(c6, 10000))
      local c7 = counts(7, 70000, function() return r:random(7) end)
      assert.is_true(chi_square(c7, 10000) < CRITICAL[6], chi_square(c7, 10000))
      local c31 = counts(64, 64000, function() return math.floor((r:random(2 ^ 31) - 1) / 2 ^ 25) + 1 end)
      assert.is_true(chi_square(c31, 1000) < CRITICAL[63], chi_square(c31, 1000))
    end)

    it("the same test fails a biased source: random(8) folded onto 6 faces", function()
      local r = map.rng(1)
      local c = counts(6, 60000, function() return (r:random(8) - 1) % 6 + 1 end)
      assert.is_true(chi_square(c, 10000) > CRITICAL[5])
    end)

    it("normal: mean and deviation as asked", function()
      for _, case in ipairs({ { 0, 1 }, { 10, 2 }, { -5, 0.5 } }) do
        local r, mean, sd = map.rng(3), case[1], case[2]
        local n, sum, squares, beyond = 100000, 0, 0, 0
        for _ = 1, n do
          local x = case[1] == 0 and r:normal() or r:normal(mean, sd)
          sum, squares = sum + x, squares + x * x
          if math.abs(x - mean) > 1.96 * sd then beyond = beyond + 1 end
        end
        local m = sum / n
        local s = math.sqrt(squares / n - m * m)
        assert.is_true(math.abs(m - mean) < 0.015 * sd, ("mean %s"):format(m))
        assert.is_true(math.abs(s - sd) < 0.01 * sd, ("sd %s"):format(s))
        assert.is_true(math.abs(beyond / n - 0.05) < 0.003, ("beyond 1.96 sd: %s"):format(beyond / n))
      end
      assert.are.equal(7, map.rng(1):normal(7, 0))
    end)

    it("weighted: each index in proportion to its weight, a zero weight never", function()
      local r = map.rng(5)
      local c = counts(5, 100000, function() return r:weighted({ 1, 2, 3, 0, 4 }) end)
      assert.are.equal(0, c[4])
      local stat = 0
      for i, w in ipairs({ 1, 2, 3, 0, 4 }) do
        if w > 0 then stat = stat + (c[i] - 10000 * w) ^ 2 / (10000 * w) end
      end
      assert.is_true(stat < CRITICAL[3], stat)
      c = counts(3, 80000, function() return r:weighted({ 0.5, 0.25, 0.25 }) end)
      stat = (c[1] - 40000) ^ 2 / 40000 + (c[2] - 20000) ^ 2 / 20000 + (c[3] - 20000) ^ 2 / 20000
      assert.is_true(stat < 13.82, stat) -- df 2
      assert.are.equal(2, r:weighted({ 0, 1e-300, 0 }))
      assert.are.equal(1, r:weighted({ 1e308 }))
    end)

    it("shuffle: the 24 orders of 4 elements equally likely", function()
      local r = map.rng(9)
      local seen, orders = {}, 0
      for _ = 1, 24000 do
        local key = table.concat(r:shuffle({ 1, 2, 3, 4 }))
        if not seen[key] then
          seen[key] = 0
          orders = orders + 1
        end
        seen[key] = seen[key] + 1
      end
      assert.are.equal(24, orders)
      local list = {}
      for _, c in pairs(seen) do list[#list + 1] = c end
      assert.is_true(chi_square(list, 1000) < CRITICAL[23], chi_square(list, 1000))
    end)
  end)

  it("shuffles in place, returning the array; picks an element; rolls dice within their range", function()
    local r = map.rng(2)
    local t = { "a", "b", "c", "d", "e" }
    assert.are.equal(t, r:shuffle(t))
    table.sort(t)
    assert.are.same({ "a", "b", "c", "d", "e" }, t)
    assert.are.same({}, r:shuffle({}))
    assert.are.same({ 5 }, r:shuffle({ 5 }))
    local picked = {}
    for _ = 1, 200 do picked[r:pick(t)] = true end
    assert.are.same({ a = true, b = true, c = true, d = true, e = true }, picked)
    local low, high = math.huge, -math.huge
    for _ = 1, 5000 do
      local v = r:dice("3d6+2")
      low, high = math.min(low, v), math.max(high, v)
    end
    assert.are.same({ 5, 20 }, { low, high })
    for _ = 1, 1000 do
      local v = r:dice("d%")
      assert.is_true(v >= 1 and v <= 100)
      v = r:dice(" 2D4 - 3 ")
      assert.is_true(v >= -1 and v <= 5)
    end
  end)

  it("fill writes count values from t[1] on, as random's forms, and returns t", function()
    local a, b = map.rng(4), map.rng(4)
    local t = { "old", "old", "old", "keep", x = 1 }
    assert.are.equal(t, a:fill(t, 3, 10, 12))
    for i = 1, 3 do assert.are.equal(b:random(10, 12), t[i]) end
    assert.are.same({ "keep", 1 }, { t[4], t.x })
    a:fill(t, 2, 6)
    for i = 1, 2 do assert.are.equal(b:random(6), t[i]) end
    a:fill(t, 2)
    for i = 1, 2 do assert.are.equal(b:random(), t[i]) end
    assert.are.equal(t, a:fill(t, 0))
    assert.are.equal(a:state(), b:state())
    -- Raw writes: no __newindex runs.
    local trap = setmetatable({}, { __newindex = function() error("__newindex") end })
    a:fill(trap, 3, 6)
    assert.are.equal(3, #trap)
  end)

  it("saves its state mid-sequence: map.rng(state) and clone continue it, every method alike", function()
    local r = map.rng(11)
    for round = 1, 5 do
      for _ = 1, round * 37 do r:random(1000) end
      local back, copy = map.rng(r:state()), r:clone()
      assert.are.equal(r:state(), back:state())
      for _, s in ipairs({ back, copy }) do
        assert.are.equal(r:state(), s:state())
      end
      local function sequence(s)
        return table.concat({ s:random(), s:random(9), s:random(-4, 4), s:normal(), s:dice("4d8-2"),
          s:pick({ "x", "y", "z" }), s:weighted({ 3, 1 }), table.concat(s:shuffle({ 1, 2, 3, 4, 5 }), ","),
          table.concat(s:fill({}, 3, 6), ",") }, " ")
      end
      local expected = sequence(r)
      assert.are.equal(expected, sequence(back))
      assert.are.equal(expected, sequence(copy))
    end
    assert.are.equal(80, #r:state())
    assert.matches("^maprng1:[0-9a-f]+$", r:state())
  end)

  it("refuses a damaged state: any character changed, cut or added, another version", function()
    local state = map.rng(1):state()
    for i = 1, #state do
      local was = state:sub(i, i)
      local other = was == "0" and "1" or "0"
      local damaged = state:sub(1, i - 1) .. other .. state:sub(i + 1)
      local ok, err = pcall(map.rng, damaged)
      assert.is_false(ok, damaged)
      assert.matches("^map%.rng: state is not a saved rng %(", err)
    end
    for _, bad in ipairs({ state:sub(1, -2), state .. "0", "", "maprng2:" .. state:sub(9), state:upper() }) do
      local ok, err = pcall(map.rng, bad)
      assert.is_false(ok, bad)
      assert.matches("^map%.rng: state is not a saved rng %(", err)
    end
  end)

  it("seeds generate, generate_text, generate_json, map.level and sample with rng = r: one draw each", function()
    local r = map.rng(21)
    local before = r:clone()
    local m = map.generate { width = 40, height = 15, algorithm = "cave", rng = r }
    -- The seed drawn is what r:random(2^53) - 1 would have been.
    assert.are.equal(before:random(2 ^ 53) - 1, m.seed)
    assert.are.equal(before:state(), r:state())
    assert.are.equal(map.render(map.generate { width = 40, height = 15, algorithm = "cave", seed = m.seed }),
      map.render(m))
    local seed = before:random(2 ^ 53) - 1
    assert.are.equal(map.generate_text { width = 40, height = 15, seed = seed }, map.generate_text {
      width = 40, height = 15, rng = r })
    seed = before:random(2 ^ 53) - 1
    assert.are.equal(map.generate_json { width = 40, height = 15, seed = seed }, map.generate_json {
      width = 40, height = 15, rng = r })
    seed = before:random(2 ^ 53) - 1
    local lvl = map.level { width = 40, height = 15, rng = r }
    assert.are.equal(seed, lvl.seed)
    seed = before:random(2 ^ 53) - 1
    assert.are.same(map.sample(m, 4, { seed = seed }), map.sample(m, 4, { rng = r }))
    seed = before:random(2 ^ 53) - 1
    assert.are.same(map.sample(m, 4, { seed = seed }), map.level(m):sample(4, { rng = r }))
    assert.are.equal(before:state(), r:state())
  end)

  it("leaves r as it was when the call fails", function()
    local r = map.rng(3)
    local state = r:state()
    local m = map.generate(20, 8, 1)
    for _, call in ipairs({
      function() return map.generate { width = 2, height = 2, rng = r } end,
      function() return map.generate { width = 20, height = 8, rng = r, items = 10000 } end,
      function() return map.level { width = 20, height = 8, rng = r, things = 5 } end,
      function() return map.sample(m, 1000, { rng = r }) end,
      function() return map.sample(m, 2, { rng = r, min = 3 }) end,
    }) do
      assert.is_false(pcall(call))
      assert.are.equal(state, r:state())
    end
    -- A hole inside the array (its length is 4): picks until one lands on it.
    local holey = { 1, 2, nil, 4 }
    local ok, err
    repeat
      state = r:state()
      ok, err = pcall(r.pick, r, holey)
    until not ok
    assert.are.equal("rng:pick: array[3] is nil: pick takes an array without holes", err)
    assert.are.equal(state, r:state())
  end)

  it("holds no Lua value: a userdata with a protected metatable, printed as map.rng", function()
    local r = map.rng(1)
    assert.are.equal("userdata", type(r))
    assert.are.equal("map.rng", getmetatable(r))
    assert.are.equal("map.rng", tostring(r))
    assert.are.same({ "random", "normal", "dice", "pick", "weighted", "shuffle", "fill", "state", "clone" },
      map.METHODS.rng)
    assert.are_not.equal(map.rng():state(), map.rng():state(), "no seed: a fresh one each time")
  end)
end)
