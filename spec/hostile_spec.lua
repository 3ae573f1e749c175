-- Every exported function against hostile arguments, on Lua 5.4 and LuaJIT.
-- Each call must either succeed with a correct result or raise a string error
-- that names the function and the bad argument; every case is asserted.
local map = require "map"

local mininteger = math.mininteger or -2 ^ 63

-- A table whose metamethods raise: the module must read it raw.
local function trap()
  local boom = function() error("metamethod called") end
  return setmetatable({}, { __index = boom, __newindex = boom, __len = boom, __pairs = boom })
end

-- Values that are not valid sizes, with how the error describes them.
local BAD_NUMBERS = {
  { nil, "nil" }, { true, "boolean" }, { "60", 'string "60"' }, { "abc", 'string "abc"' },
  { print, "function" }, { coroutine.create(print), "thread" }, { io.stdout, "userdata" },
  { 0, "0" }, { -1, "-1" }, { 0.5, "0.5" }, { 0 / 0, "nan" }, { 1 / 0, "inf" }, { -1 / 0, "-inf" },
  { mininteger, "-9223372036854775808" }, { 2 ^ 63, "9223372036854776000" },
}

-- Numbers that are integers but too large for a map.
local HUGE = { 2 ^ 53, 2 ^ 40, 1e15, 4000001 }

local function fails(pattern, f, ...)
  local ok, err = pcall(f, ...)
  assert(not ok, "expected an error matching " .. pattern)
  assert(type(err) == "string", "error is a " .. type(err) .. ", not a string")
  assert(err:find(pattern, 1, true), ("%q does not contain %q"):format(err, pattern))
end

describe("hostile sizes", function()
  for _, fn in ipairs({ "new_map", "generate", "generate_text", "generate_json" }) do
    local min = fn == "new_map" and 1 or 6
    it(fn .. " rejects every bad width and height", function()
      for _, case in ipairs(BAD_NUMBERS) do
        local value, shown = case[1], case[2]
        if type(value) ~= "number" or value < min or value ~= value or value % 1 ~= 0 or value > 2 ^ 62 then
          fails(("map.%s: width must be an integer >= %d, got %s"):format(fn, min, shown), map[fn], value, 20)
          fails(("map.%s: height must be an integer"):format(fn), map[fn], 60, value)
        end
      end
      for _, n in ipairs(HUGE) do
        fails(("map.%s: width*height must be at most 4000000 cells"):format(fn), map[fn], n, 60)
      end
      fails(("map.%s: expected at most"):format(fn), map[fn], 60, 20, 1, 2)
    end)
  end

  it("generate takes a table with raising metamethods as empty options", function()
    fails("map.generate: width must be an integer >= 6, got nil", map.generate, trap())
  end)
end)

describe("hostile seeds", function()
  it("accepts nil and every integer with |seed| <= 2^53", function()
    for _, seed in ipairs({ 0, -1, 1, 2 ^ 53, -2 ^ 53, 2 ^ 53 - 1, 12345.0 }) do
      local m = map.generate(60, 20, seed)
      assert.are.equal(seed, m.seed)
      assert.is_true(map.reachable(m))
    end
    assert.is_true(map.generate(60, 20, nil).seed >= 0)
  end)

  it("rejects everything else", function()
    local bad = { true, "42", 0.5, 0 / 0, 1 / 0, -1 / 0, 2 ^ 53 + 2, -2 ^ 53 - 2, 2 ^ 63, mininteger, {}, print }
    for _, seed in ipairs(bad) do
      for _, fn in ipairs({ "generate", "generate_text", "generate_json" }) do
        fails(("map.%s: seed must be an integer with |seed| <= 2^53, got "):format(fn), map[fn], 60, 20, seed)
      end
    end
  end)
end)

describe("hostile options", function()
  local cases = {
    { { width = 60, height = 20, colour = "red" }, 'unknown option "colour"' },
    { { width = 60, height = 20, [1] = 5 }, "option names must be strings, got 1" },
    { { width = 60, height = 20, [true] = 5 }, "option names must be strings, got boolean" },
    { { width = "60", height = 20 }, 'width must be an integer >= 6, got string "60"' },
    { { width = 60, height = 20, items = "5" }, 'items must be an integer from 0 to 4000000, got string "5"' },
    { { width = 60, height = 20, rooms = true }, "rooms must be an integer from 1 to 10000, got boolean" },
    { { width = 60, height = 20, rooms = 10001 }, "rooms must be an integer from 1 to 10000, got 10001" },
    { { width = 60, height = 20, algorithm = 1 }, 'algorithm must be "rooms" or "cave", got 1' },
    { { width = 60, height = 20, algorithm = "CAVE" }, 'algorithm must be "rooms" or "cave", got string "CAVE"' },
    { { width = 60, height = 20, algorithm = "cave", fill = "x" }, 'fill must be a number in (0, 1], got string "x"' },
    { { width = 60, height = 20, algorithm = "cave", max_frontier = {} },
      "max_frontier must be an integer from 1 to 4000000, got table" },
    { { width = 60, height = 20, items = 1e9 }, "items must be an integer from 0 to 4000000, got 1000000000" },
  }
  for _, fn in ipairs({ "generate", "generate_text", "generate_json" }) do
    it(fn .. " names the bad option", function()
      for _, case in ipairs(cases) do
        fails(("map.%s: %s"):format(fn, case[2]), map[fn], case[1])
      end
      fails(("map.%s: expected at most 1 argument, got 2"):format(fn), map[fn], { width = 60, height = 20 }, 1)
    end)
  end
end)

describe("maps that are not maps", function()
  local row = { "#", "#" }
  local cases = {
    { nil, "map must be a table of rows, got nil" },
    { "##", "map must be a table of rows, got string" },
    { 42, "map must be a table of rows, got number" },
    { print, "map must be a table of rows, got function" },
    { {}, "map has no rows" },
    { trap(), "map has no rows" },
    { { [1e9] = {} }, "map has no rows" },
    { { "##" }, "row 1 must be a table, got string" },
    { { row, 5 }, "row 2 must be a table, got number" },
    { { {} }, "row 1 is empty" },
    { { row, { "#" } }, "row 2 has 1 cells, row 1 has 2" },
    { { row, { "#", "#", "#" } }, "row 2 has 3 cells, row 1 has 2" },
    { { { "#", 7 } }, "cell [1][2] must be a one-character string, got number" },
    { { { "#", "" } }, "cell [1][2] must be a one-character string, got a 0-byte string" },
    { { { "##", "#" } }, "cell [1][1] must be a one-character string, got a 2-byte string" },
    { { { "#", true } }, "cell [1][2] must be a one-character string, got boolean" },
    { { { "#", trap() } }, "cell [1][2] must be a one-character string, got table" },
  }
  for _, fn in ipairs({ "render", "reachable" }) do
    it(fn .. " names what is wrong", function()
      for _, case in ipairs(cases) do
        fails(("map.%s: %s"):format(fn, case[2]), map[fn], case[1])
      end
      fails(("map.%s: expected at most 1 argument, got 2"):format(fn), map[fn], { row }, 1)
    end)
  end

  it("refuses a map of aliased rows over MAX_CELLS without copying it", function()
    local wide = {}
    for x = 1, 2001 do wide[x] = "." end
    local rows = {}
    for y = 1, 2000 do rows[y] = wide end
    fails("map.render: map has more than 4000000 cells (2001x2000)", map.render, rows)
    fails("map.reachable: map has more than 4000000 cells (2001x2000)", map.reachable, rows)
  end)

  it("reads rows raw, ignoring metatables on the map and rows", function()
    local m = setmetatable({ setmetatable({ "@", ">" }, getmetatable(trap())) }, getmetatable(trap()))
    assert.are.equal("@>", map.render(m))
    assert.is_true(map.reachable(m))
  end)

  it("handles maps without @ and odd cells", function()
    assert.are.same({ false, "no @ on the map" }, { map.reachable({ { ".", ">" } }) })
    assert.are.equal("\0\255", map.render({ { "\0", "\255" } }))
    assert.is_true(map.reachable({ { "@", "\0", "$" } }))
  end)
end)

describe("a panic inside the module", function()
  it("surfaces as a Lua error and the interpreter keeps running", function()
    for _ = 1, 3 do
      fails("map._panic_probe: internal error (please report): probe", map._panic_probe)
    end
    local ok, err = pcall(map._panic_probe)
    assert.is_false(ok)
    assert.are.equal("string", type(err))
    assert.are.equal(map.render(map.generate(60, 20, 1)), map.generate_text(60, 20, 1))
  end)
end)
