-- map.names: names from a Markov chain over the characters of example
-- words. Pinned (spec/golden_toolbox/names-*.txt, both interpreters),
-- novel, within their bounds, and the same from the same source. Bad
-- arguments are hostile_spec.lua's.
local map = require "map"
local support = require "spec.support"
local draws = require "spec.golden_toolbox.draws"

local ELVES, TOWNS = draws.ELVES, draws.TOWNS

local function length(s)
  local _, n = s:gsub("[^\128-\191]", "")
  return n
end

local function is_example(name, examples)
  for _, e in ipairs(examples) do
    if e == name then return true end
  end
  return false
end

describe("map.names", function()
  it("draws the pinned names from seeds 1 and 42", function()
    for _, seed in ipairs(draws.SEEDS) do
      local path = "spec/golden_toolbox/names-" .. seed .. ".txt"
      assert.are.equal(support.read_file(path), draws.names(seed), path)
    end
  end)

  it("gives novel names by default, as long as the examples (shortest to longest)", function()
    local g, r = map.names(ELVES), map.rng(1)
    assert.are.equal("map.names: 5 to 10 characters", tostring(g))
    local distinct, count = {}, 0
    for _ = 1, 2000 do
      local name = g:name(r)
      assert.is_false(is_example(name, ELVES), name)
      assert.is_true(length(name) >= 5 and length(name) <= 10, name)
      assert.matches("^%u%l+$", name)
      if not distinct[name] then
        distinct[name] = true
        count = count + 1
      end
    end
    assert.is_true(count > 1000, count .. " distinct names")
  end)

  it("keeps min and max, and novel = false gives examples too", function()
    local r = map.rng(2)
    for _, bounds in ipairs({ { 3, 3 }, { 2, 4 }, { 8, 8 }, { 12, 20 } }) do
      local g = map.names(ELVES, { min = bounds[1], max = bounds[2] })
      for _ = 1, 300 do
        local n = length(g:name(r))
        assert.is_true(n >= bounds[1] and n <= bounds[2], n)
      end
    end
    local g, examples = map.names(ELVES, { novel = false }), 0
    for _ = 1, 1000 do
      if is_example(g:name(r), ELVES) then examples = examples + 1 end
    end
    assert.is_true(examples > 0)
  end)

  it("puts ', - and spaces inside names only, never two together", function()
    local g, r = map.names(TOWNS, { order = 2 }), map.rng(3)
    local separated = 0
    for _ = 1, 1000 do
      local name = g:name(r)
      assert.is_nil(name:find("^[-' ]"), name)
      assert.is_nil(name:find("[-' ]$"), name)
      assert.is_nil(name:find("[-' ][-' ]"), name)
      if name:find("[-' ]") then separated = separated + 1 end
    end
    assert.is_true(separated > 100)
  end)

  it("is deterministic: the same source gives the same names; name(seed) is name(map.rng(seed))", function()
    local g = map.names(ELVES, { order = 2 })
    local a, b = map.rng(9), map.rng(9)
    for _ = 1, 100 do assert.are.equal(g:name(a), g:name(b)) end
    assert.are.equal(a:state(), b:state())
    assert.are.equal(g:name(map.rng(123)), g:name(123))
    -- A second generator from the same examples is the same generator.
    assert.are.equal(map.names(ELVES, { order = 2 }):name(5), g:name(5))
  end)

  it("trains on letters beyond ASCII (UTF-8)", function()
    local g, r = map.names({ "Zoë", "Élodie", "Ðórr", "Ærin", "Søren", "Ångström", "Bjørn", "Åse" }), map.rng(4)
    for _ = 1, 200 do
      local name = g:name(r)
      assert.is_true(length(name) >= 3 and length(name) <= 8, name)
    end
  end)

  it("says why it cannot learn: too few examples, impossible bounds", function()
    assert.has_error(function() map.names({ "Bob" }) end,
      "map.names: too little training data: no name that is not an example in 1000 tries "
      .. "(give more examples, a lower order, other bounds or novel = false)")
    assert.has_error(function() map.names({ "Bob", "Alice" }, { min = 6, max = 4 }) end,
      "map.names: min (6) is above max (4): no name fits")
    assert.are.equal("Bob", map.names({ "Bob" }, { novel = false }):name(1))
  end)

  it("is a userdata with a protected metatable and one method", function()
    local g = map.names(ELVES)
    assert.are.equal("userdata", type(g))
    assert.are.equal("map.names", getmetatable(g))
    assert.are.same({ "name" }, map.METHODS.names)
  end)
end)
