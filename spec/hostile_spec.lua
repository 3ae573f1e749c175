-- Every exported function against bad and hostile arguments, on Lua 5.4 and
-- LuaJIT: each call must either succeed with a correct result or raise a
-- string error that names the function and the bad argument; every case is
-- asserted. The level API's own messages are api_spec.lua's; here, the
-- sweeps over every kind of value, every algorithm's options, maps that are
-- not maps (for every function that reads one), every argument of fov,
-- distances and path, and a panic.
local map = require "map"
local support = require "spec.support"

local from_text, word_list, quoted, ALGORITHM_LIST = support.from_text, support.word_list, support.quoted,
  support.ALGORITHM_LIST
local unpack = table.unpack or unpack

local mininteger = math.mininteger or -2 ^ 63

-- Every option name, in the order the module lists them: each algorithm's
-- own, then items, which every algorithm takes (last in each description).
local OPTION_NAMES = {}
do
  local seen = { items = true }
  for _, algorithm in ipairs(map.ALGORITHMS) do
    for _, option in ipairs(map.describe(algorithm).options) do
      if not seen[option.name] then
        seen[option.name] = true
        OPTION_NAMES[#OPTION_NAMES + 1] = option.name
      end
    end
  end
  OPTION_NAMES[#OPTION_NAMES + 1] = "items"
end

-- The algorithms whose description lists option `name`, in map.ALGORITHMS order.
local function owners(name)
  local found = {}
  for _, algorithm in ipairs(map.ALGORITHMS) do
    for _, option in ipairs(map.describe(algorithm).options) do
      if option.name == name then found[#found + 1] = algorithm end
    end
  end
  return found
end

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

-- Asserts that f(...) raises a string error that starts with `expected`; or,
-- when `expected` is a list, that starts with its first string and contains
-- the others after it (plain text).
local function fails(expected, f, ...)
  local parts = type(expected) == "table" and expected or { expected }
  local ok, err = pcall(f, ...)
  assert(not ok, "expected an error starting " .. parts[1])
  assert(type(err) == "string", "error is a " .. type(err) .. ", not a string")
  assert(err:sub(1, #parts[1]) == parts[1], ("%q does not start with %q"):format(err, parts[1]))
  for i = 2, #parts do
    assert(err:find(parts[i], #parts[1] + 1, true), ("%q does not contain %q"):format(err, parts[i]))
  end
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
  it("rejects anything but nil or an integer with |seed| <= 2^53", function()
    local bad = { true, "42", 0.5, 0 / 0, 1 / 0, -1 / 0, 2 ^ 53 + 2, -2 ^ 53 - 2, 2 ^ 63, mininteger, {}, print }
    for _, seed in ipairs(bad) do
      for _, fn in ipairs({ "generate", "generate_text", "generate_json" }) do
        fails(("map.%s: seed must be an integer with |seed| <= 2^53, got "):format(fn), map[fn], 60, 20, seed)
      end
    end
  end)
end)

describe("hostile options", function()
  -- The ranges as map.describe gives them.
  local function range(algorithm, name)
    for _, option in ipairs(map.describe(algorithm).options) do
      if option.name == name then return ("from %d to %d"):format(option.min, option.max) end
    end
  end
  local items, max_frontier = range("rooms", "items"), range("cave", "max_frontier")
  local cases = {
    { { width = 60, height = 20, colour = "red" }, 'unknown option "colour"' },
    { { width = 60, height = 20, [1] = 5 }, "option names must be strings, got 1" },
    { { width = 60, height = 20, [true] = 5 }, "option names must be strings, got boolean" },
    { { width = "60", height = 20 }, 'width must be an integer >= 6, got string "60"' },
    { { width = 60, height = 20, items = "5" }, "items must be an integer " .. items .. ', got string "5"' },
    { { width = 60, height = 20, rooms = true }, "rooms must be an integer from 1 to 10000, got boolean" },
    { { width = 60, height = 20, rooms = 10001 }, "rooms must be an integer from 1 to 10000, got 10001" },
    { { width = 60, height = 20, algorithm = 1 }, "algorithm must be " .. ALGORITHM_LIST .. ", got 1" },
    { { width = 60, height = 20, algorithm = "CAVE" },
      "algorithm must be " .. ALGORITHM_LIST .. ', got string "CAVE"' },
    { { width = 60, height = 20, algorithm = "" }, "algorithm must be " .. ALGORITHM_LIST .. ', got string ""' },
    { { width = 60, height = 20, algorithm = "rooms\0" }, "algorithm must be " .. ALGORITHM_LIST .. ", got string " },
    { { width = 60, height = 20, algorithm = {} }, "algorithm must be " .. ALGORITHM_LIST .. ", got table" },
    { { width = 60, height = 20, algorithm = "cave", fill = "x" }, 'fill must be a number in (0, 1], got string "x"' },
    { { width = 60, height = 20, algorithm = "cave", max_frontier = {} },
      "max_frontier must be an integer " .. max_frontier .. ", got table" },
    { { width = 60, height = 20, items = 1e9 }, "items must be an integer " .. items .. ", got 1000000000" },
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

describe("hostile options of every algorithm (from map.describe)", function()
  local FNS = { "generate", "generate_text", "generate_json" }
  -- Values of the wrong type for each kind of option, with how errors show them.
  local WRONG = {
    integer = { { "5", 'string "5"' }, { true, "boolean" }, { 1.5, "1.5" }, { 0 / 0, "nan" }, { 1 / 0, "inf" },
      { -1 / 0, "-inf" }, { {}, "table" }, { print, "function" } },
    number = { { "0.5", 'string "0.5"' }, { true, "boolean" }, { 0 / 0, "nan" }, { 1 / 0, "inf" },
      { -1 / 0, "-inf" }, { {}, "table" }, { print, "function" } },
    boolean = { { 1, "1" }, { 0, "0" }, { "true", 'string "true"' }, { "false", 'string "false"' },
      { 0 / 0, "nan" }, { {}, "table" } },
  }
  local function number_text(x) return string.format("%.14g", x) end

  for _, algorithm in ipairs(map.ALGORITHMS) do
    local d = map.describe(algorithm)

    it(algorithm .. ": names each option given a bad type or a value out of range", function()
      for _, option in ipairs(d.options) do
        local bad, expected = {}
        for i, case in ipairs(WRONG[option.type]) do bad[i] = case end
        if option.type == "integer" then
          expected = ("%s must be an integer from %d to %d, got "):format(option.name, option.min, option.max)
          bad[#bad + 1] = { option.min - 1, string.format("%d", option.min - 1) }
          bad[#bad + 1] = { option.max + 1, string.format("%d", option.max + 1) }
        elseif option.type == "number" then
          expected = ("%s must be a number in %s%s, %s], got "):format(option.name, option.open_min and "(" or "[",
            number_text(option.min), number_text(option.max))
          local below = option.open_min and option.min or option.min - 1
          bad[#bad + 1] = { below, number_text(below) }
          bad[#bad + 1] = { option.max + 1, number_text(option.max + 1) }
        else
          expected = option.name .. " must be a boolean, got "
        end
        for _, case in ipairs(bad) do
          for _, fn in ipairs(FNS) do
            local opts = { width = 30, height = 12, seed = 1, algorithm = algorithm, [option.name] = case[1] }
            fails(("map.%s: %s%s"):format(fn, expected, case[2]), map[fn], opts)
          end
        end
      end
    end)

    it(algorithm .. ": refuses sizes below its minimum and options of other algorithms", function()
      fails(("map.generate: width must be an integer >= %d, got %d"):format(d.min_width, d.min_width - 1),
        map.generate, { width = d.min_width - 1, height = 40, algorithm = algorithm })
      fails(("map.generate: height must be an integer >= %d, got %d"):format(d.min_height, d.min_height - 1),
        map.generate, { width = 40, height = d.min_height - 1, algorithm = algorithm })
      local own = {}
      for _, option in ipairs(d.options) do own[option.name] = true end
      for _, name in ipairs(OPTION_NAMES) do
        if not own[name] then
          local takers = owners(name)
          local option
          for _, o in ipairs(map.describe(takers[1]).options) do
            if o.name == name then option = o end
          end
          local value = option.default
          if value == nil then value = option.min end
          local message = ("option %s applies only to algorithm%s %s"):format(name, #takers == 1 and "" or "s",
            word_list(quoted(takers)))
          for _, fn in ipairs(FNS) do
            local ok, err = pcall(map[fn], { width = 30, height = 12, algorithm = algorithm, [name] = value })
            assert.is_false(ok)
            assert.are.equal(("map.%s: %s"):format(fn, message), err)
          end
        end
      end
    end)
  end

  it("reports the bytewise smallest unknown option name, whatever the table's order", function()
    local unknown = { "zeta", "alpha", "beta", "_x", "a b", "\255", "Zz", "Beta", "colour", "ROOMS" }
    local message = 'map.generate: unknown option "Beta" (options: width, height, seed, algorithm, '
      .. table.concat(OPTION_NAMES, ", ") .. ", vaults, arrive, place)"
    for shift = 0, #unknown - 1 do
      for _, extra in ipairs({ {}, { seed = "bad", items = -1 }, { fill = 0.5, rooms = 3, doors = 1 } }) do
        local opts = {}
        for i = 1, #unknown do
          local name = unknown[(i + shift - 1) % #unknown + 1]
          opts[name] = i
        end
        for _, algorithm in ipairs(map.ALGORITHMS) do
          opts.width, opts.height, opts.algorithm = 30, 12, algorithm
          for k, v in pairs(extra) do opts[k] = v end
          local ok, err = pcall(map.generate, opts)
          assert.is_false(ok)
          assert.are.equal(message, err)
        end
      end
    end
  end)
end)

describe("maps that are not maps", function()
  local row = { "#", "#" }
  local cases = {
    { nil, "map must be a table of rows, got nil" },
    { "#", "map must be a table of rows, got string" },
    { "##", "map must be a table of rows, got string" },
    { 42, "map must be a table of rows, got number" },
    { print, "map must be a table of rows, got function" },
    { {}, "map has no rows" },
    { trap(), "map has no rows" },
    { { [1e9] = {} }, "row 1 must be a table, got nil" },
    { { "##" }, "row 1 must be a table, got string" },
    { { { "#" }, "#" }, "row 2 must be a table, got string" },
    { { row, 5 }, "row 2 must be a table, got number" },
    { { {} }, "row 1 is empty" },
    { { row, { "#" } }, "row 2 has 1 cells, row 1 has 2" },
    { { row, { "#", "#", "#" } }, "row 2 has 3 cells, row 1 has 2" },
    { { { "#", 1 } }, "cell [1][2] must be a one-character string, got number" },
    { { { "#", 7 } }, "cell [1][2] must be a one-character string, got number" },
    { { { "#", "" } }, "cell [1][2] must be a one-character string, got a 0-byte string" },
    { { { "#", "ab" } }, "cell [1][2] must be a one-character string, got a 2-byte string" },
    { { { "##", "#" } }, "cell [1][1] must be a one-character string, got a 2-byte string" },
    { { { "#", true } }, "cell [1][2] must be a one-character string, got boolean" },
    { { { "#", trap() } }, "cell [1][2] must be a one-character string, got table" },
  }
  -- Every function that reads a map, called with the map `m` alone.
  local readers = {
    { "render", function(m) return map.render(m) end },
    { "reachable", function(m) return map.reachable(m) end },
    { "fov", function(m) return map.fov(m, 1, 1) end },
    { "distances", function(m) return map.distances(m, { x = 1, y = 1 }) end },
    { "path", function(m) return map.path(m, 1, 1, 1, 1) end },
    { "flee", function(m) return map.flee(m, { x = 1, y = 1 }) end },
    { "explore", function(m) return map.explore(m, {}, 1, 1) end },
    { "sample", function(m) return map.sample(m, 0) end },
    -- step reads the cell's 3x3 window, which holds every bad cell here.
    { "step", function(m) return map.step(m, { { 0, 0 }, { 0, 0 } }, 1, 1) end },
    { "autotile", function(m) return map.autotile(m) end },
  }
  for _, reader in ipairs(readers) do
    local fn, call = reader[1], reader[2]
    it(fn .. " names what is wrong", function()
      for _, case in ipairs(cases) do
        fails(("map.%s: %s"):format(fn, case[2]), call, case[1])
      end
    end)
  end

  it("render and reachable count arguments", function()
    for _, fn in ipairs({ "render", "reachable" }) do
      fails(("map.%s: expected at most 1 argument, got 2"):format(fn), map[fn], { row }, 1)
    end
  end)

  it("refuses a map of aliased rows over MAX_CELLS without copying it", function()
    local wide = {}
    for x = 1, 2001 do wide[x] = "." end
    local rows = {}
    for y = 1, 2000 do rows[y] = wide end
    for _, reader in ipairs(readers) do
      fails(("map.%s: map has more than 4000000 cells (2001x2000)"):format(reader[1]), reader[2], rows)
    end
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

describe("the toolkit's own arguments", function()
  local m = from_text("#####\n#...#\n#####") -- 5x3
  local open = { { ".", ".", "." }, { ".", "@", "." }, { ".", ".", "." } }

  it("fov, distances and path name coordinates outside the map, not integers or not numbers", function()
    local BAD = {
      { 0, 1, "x must be an integer from 1 to 5, got 0" },
      { 6, 1, "x must be an integer from 1 to 5, got 6" },
      { 1, 0, "y must be an integer from 1 to 3, got 0" },
      { 1, 4, "y must be an integer from 1 to 3, got 4" },
      { 1.5, 1, "x must be an integer from 1 to 5, got 1.5" },
      { 2, 0.5, "y must be an integer from 1 to 3, got 0.5" },
      { -2 ^ 53, 1, "x must be an integer from 1 to 5, got -" },
      { "2", 2, 'x must be an integer from 1 to 5, got string "2"' },
      { nil, 2, "x must be an integer from 1 to 5, got nil" },
      { 2, true, "y must be an integer from 1 to 3, got boolean" },
      { 0 / 0, 2, "x must be an integer from 1 to 5, got " },
      { 1 / 0, 2, "x must be an integer from 1 to 5, got " },
    }
    for _, case in ipairs(BAD) do
      local x, y, message = case[1], case[2], case[3]
      fails("map.fov: " .. message, map.fov, m, x, y)
      fails("map.distances: sources." .. message, map.distances, m, { x = x, y = y })
      fails("map.distances: sources[2]." .. message, map.distances, m, { { x = 2, y = 2 }, { x = x, y = y } })
      -- path names its four coordinates x1, y1, x2, y2.
      local start = message:gsub("^(%a)", "%11")
      local goal = message:gsub("^(%a)", "%12")
      fails("map.path: " .. start, map.path, m, x, y, 2, 2)
      fails("map.path: " .. goal, map.path, m, 2, 2, x, y)
    end
    for _, case in ipairs(BAD_NUMBERS) do
      local value, shown = case[1], case[2]
      if value ~= nil then
        fails("map.fov: x must be an integer from 1 to 3, got " .. shown, map.fov, open, value, 1)
        fails("map.fov: y must be an integer from 1 to 3, got " .. shown, map.fov, open, 1, value)
        fails("map.path: x2 must be an integer from 1 to 3, got " .. shown, map.path, open, 1, 1, value, 1)
        fails("map.distances: sources.x must be an integer from 1 to 3, got " .. shown,
          map.distances, open, { x = value, y = 1 })
      end
    end
    for _, huge in ipairs(HUGE) do
      fails("map.fov: x must be an integer from 1 to 3", map.fov, open, huge, 1)
    end
  end)

  it("fov names a bad radius, and takes any radius >= 0 (no limit)", function()
    local BAD = { { -1, "-1" }, { 1.5, "1.5" }, { "3", 'string "3"' }, { true, "boolean" }, { {}, "table" },
      { 0 / 0, "" }, { 1 / 0, "" }, { -2 ^ 53, "-" } }
    for _, case in ipairs(BAD) do
      fails("map.fov: radius must be an integer >= 0, got " .. case[2], map.fov, m, 2, 2, case[1])
    end
    for _, case in ipairs(BAD_NUMBERS) do
      local value, shown = case[1], case[2]
      if value ~= nil and shown ~= "0" then
        fails("map.fov: radius must be an integer >= 0, got " .. shown, map.fov, open, 1, 1, value)
      end
    end
    for _, huge in ipairs(HUGE) do assert.is_table(map.fov(open, 2, 2, huge)) end
  end)

  it("fov names bad options, reading them raw", function()
    for _, case in ipairs({ { 5, "5" }, { true, "boolean" }, { {}, "table" } }) do
      fails("map.fov: opaque must be a string of characters, got " .. case[2], map.fov, m, 2, 2, nil,
        { opaque = case[1] })
    end
    fails('map.fov: unknown option "colour"', map.fov, m, 2, 2, nil, { colour = 1 })
    fails('map.fov: unknown option "blocked"', map.fov, m, 2, 2, 3, { blocked = "#" })
    fails('map.fov: unknown option "radius"', map.fov, open, 1, 1, nil, { radius = 2 })
    fails("map.fov: options must be a table, got string", map.fov, m, 2, 2, 3, "#")
    -- A trap is read raw: no metamethod runs, and an empty trap is empty.
    assert.is_table(map.fov(open, 2, 2, nil, trap()))
  end)

  it("distances names bad sources, an empty array among them, reading them raw", function()
    local ANY = "map.distances: sources must be a position {x=, y=} or a non-empty array of them, got "
    local BAD = {
      { 5, ANY .. "number" }, { "x", ANY .. "string" }, { true, ANY .. "boolean" }, { {}, ANY .. "an empty table" },
      { print, ANY .. "function" }, { trap(), ANY .. "an empty table" },
      { { 5 }, "map.distances: sources[1] must be a position {x=, y=}, got number" },
      { { { x = 2 } }, "map.distances: sources[1].y must be an integer from 1 to 3, got nil" },
      { { x = 2 }, "map.distances: sources.y must be an integer from 1 to 3, got nil" },
      { { { x = 2, y = 2 }, "x" }, "map.distances: sources[2] must be a position {x=, y=}, got string" },
      { { { x = 1, y = 1 }, 5 }, "map.distances: sources[2] must be a position {x=, y=}, got number" },
    }
    fails(ANY .. "nil", map.distances, m, nil)
    for _, case in ipairs(BAD) do fails(case[2], map.distances, m, case[1]) end
  end)

  it("distances and path name bad options, reading them raw", function()
    local COST = 'cost["."] must be an integer from 1 to '
    local KEYS = "cost keys must be one-character strings, got "
    local BAD = {
      { { cost = { ["."] = 0 } }, COST, ", got 0" },
      { { cost = { ["."] = -1 } }, COST, ", got -1" },
      { { cost = { ["."] = 1.5 } }, COST, ", got 1.5" },
      { { cost = { ["."] = "2" } }, COST, ', got string "2"' },
      { { cost = { [".."] = 2 } }, KEYS .. 'string ".."' },
      { { cost = { [""] = 2 } }, KEYS .. 'string ""' },
      { { cost = { [1] = 2 } }, KEYS .. "1" },
      { { cost = "." }, "cost must be a table" },
      { { cost = 1 }, "cost must be a table from characters to integers, got number" },
      { { blocked = 5 }, "blocked must be a string of characters, got 5" },
      { { blocked = {} }, "blocked must be a string of characters, got table" },
      { { diagonal = "yes" }, 'diagonal must be a boolean, got string "yes"' },
      { { opaque = "#" }, 'unknown option "opaque"' },
      { { colour = 1 }, 'unknown option "colour"' },
    }
    for _, case in ipairs(BAD) do
      local first, rest = case[2], { unpack(case, 3) }
      fails({ "map.distances: " .. first, unpack(rest) }, map.distances, m, { x = 2, y = 2 }, case[1])
      fails({ "map.path: " .. first, unpack(rest) }, map.path, m, 2, 2, 4, 2, case[1])
    end
    for _, case in ipairs({ { 0, "0" }, { -1, "-1" }, { 0.5, "0.5" }, { 0 / 0, "nan" }, { 2 ^ 31, "2147483648" } }) do
      fails('map.distances: cost["."] must be an integer from 1 to 1073741824, got ' .. case[2],
        map.distances, open, { x = 1, y = 1 }, { cost = { ["."] = case[1] } })
    end
    fails("map.distances: options must be a table, got number", map.distances, m, { x = 2, y = 2 }, 5)
    fails("map.path: options must be a table, got boolean", map.path, m, 2, 2, 4, 2, true)
    -- A trap is read raw: no metamethod runs, and an empty trap is empty.
    assert.is_table(map.distances(open, { x = 1, y = 1 }, trap()))
  end)

  it("fov, distances and path count arguments, trailing nils included", function()
    fails("map.fov: expected at most 5 arguments, got 6", map.fov, m, 2, 2, 3, {}, 1)
    fails("map.fov: expected at most 5 arguments, got 6", map.fov, m, 2, 2, nil, nil, nil)
    fails("map.distances: expected at most 3 arguments, got 4", map.distances, m, { x = 2, y = 2 }, {}, 1)
    fails("map.path: expected at most 6 arguments, got 7", map.path, m, 2, 2, 4, 2, {}, 1)
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

describe("a finalizer storm", function()
  -- Thousands of finalizers are pending while the collector steps at every
  -- allocation, so some run inside each call. Armed, the first to run
  -- changes what the call is reading (a map shrinks, an option turns into a
  -- number, a source vanishes) or raises an error. The call must return a
  -- result or a string error: no crash, no abort, no internal error.
  local PENDING, ROUNDS = 300, 20
  local inside = 0 -- calls inside which a finalizer ran

  local function finalizable(fn)
    if newproxy then -- LuaJIT: finalizers on userdata only
      local p = newproxy(true)
      getmetatable(p).__gc = fn
      return p
    end
    return setmetatable({}, { __gc = fn })
  end

  -- On LuaJIT the compiler is off meanwhile: before luajit2 2.1-20230911
  -- (Debian 12 has 2.1-20230119), an error raised by a finalizer is thrown
  -- again from wherever the collector stepped, and from compiled code with
  -- a wrong frame, which crashes LuaJIT itself with no module involved
  -- (docs/hardening.md, "LuaJIT's own crashes").
  local function eager_collector()
    if jit then
      jit.off()
      jit.flush()
      collectgarbage("setpause", 0)
      collectgarbage("setstepmul", 100000)
    else
      collectgarbage("incremental", 1, 1000, 1)
    end
  end

  local function usual_collector()
    if jit then
      jit.on()
      collectgarbage("setpause", 200)
      collectgarbage("setstepmul", 200)
    else
      collectgarbage("incremental", 200, 100, 13)
    end
  end

  -- What a call reads, made afresh each round.
  local function arguments()
    local m = from_text("....\n.#..\n....")
    return {
      m = m,
      options = { cost = { ["."] = 2 }, blocked = "#", diagonal = true },
      sources = { { x = 1, y = 1 }, { x = 4, y = 3 } },
      level = { width = 20, height = 10, seed = 1, algorithm = "cave", fill = 0.5 },
      d = map.distances(m, { x = 1, y = 1 }),
      known = { { true, true, true, true }, { true, true }, {} },
      limits = { avoid = { { x = 2, y = 1 }, { x = 3, y = 3 } }, max = 4, known = { { true, true, true }, { true } },
        diagonal = true },
      text = "....\n.#..\n....",
      design = { width = 30, height = 14, seed = 1, arrive = { x = 3, y = 3 },
        vaults = { { rows = { "#+#", "+.+", "#+#" }, count = 2 } }, place = { { char = "M", count = 2 } } },
    }
  end

  local CALLS = {
    new_map = function() return map.new_map(30, 20) end,
    render = function(a) return map.render(a.m) end,
    reachable = function(a) return map.reachable(a.m) end,
    generate = function(a) return map.generate(a.level) end,
    generate_text = function(a) return map.generate_text(a.level) end,
    generate_json = function(a) return map.generate_json(a.level) end,
    generate_design = function(a) return map.generate(a.design) end,
    describe = function() return map.describe("bsp") end,
    fov = function(a) return map.fov(a.m, 2, 2, 3, { opaque = "#" }) end,
    distances = function(a) return map.distances(a.m, a.sources, a.options) end,
    distances_one = function(a) return map.distances(a.m, a.sources[1], a.options) end,
    path = function(a) return map.path(a.m, 1, 1, 4, 3, a.options) end,
    distances_limits = function(a) return map.distances(a.m, a.sources, a.limits) end,
    path_limits = function(a) return map.path(a.m, a.sources[1], a.sources[2], a.limits) end,
    step = function(a) return map.step(a.m, a.d, a.sources[1], a.limits) end,
    flee = function(a) return map.flee(a.m, a.sources, a.limits) end,
    explore = function(a) return map.explore(a.m, a.known, 1, 1, a.options) end,
    sample = function(a) return map.sample(a.m, 2, { seed = 1, from = a.sources[1], min = 1, hidden = true }) end,
    line = function(a) return map.line(a.sources[1], a.sources[2]) end,
    visible = function(a) return map.visible(a.m, a.sources[1], 4, 3) end,
    parse = function(a) return map.parse(a.text) end,
    autotile = function(a) return map.autotile(a.m, { chars = "#.", mode = "8" }) end,
  }

  local CHANGES = {
    change = function(a)
      a.m[2], a.m[3] = nil, nil
      a.m[1] = { "." }
      a.options.cost = 1
      a.options.blocked = {}
      a.sources[2] = 7
      a.sources[1].x = "far"
      a.level.width = "wide"
      a.level.fill = {}
      a.d[1], a.d[2] = "gone", nil
      a.known[1] = 5
      a.limits.avoid[2] = "here"
      a.limits.known = 0
      a.limits.max = -1
      a.design.vaults[1].rows[2] = 5
      a.design.place[1].char = {}
      a.design.arrive.x = "far"
    end,
    raise = function() error("raised by a finalizer") end,
  }

  for name, call in pairs(CALLS) do
    for change_name, change in pairs(CHANGES) do
      it(name .. ": a finalizer that does " .. change_name, function()
        local errors = {}
        eager_collector()
        for _ = 1, ROUNDS do
          local a, armed = arguments(), false
          local function act()
            if armed then
              armed = false
              change(a)
            end
          end
          -- Made with the collector stopped, so that none is finalized
          -- before the call: the eager collector then finishes a cycle and
          -- runs them at the next allocations, the call's own.
          collectgarbage("stop")
          for _ = 1, PENDING do finalizable(act) end
          armed = true
          collectgarbage("restart")
          local ok, err = pcall(call, a)
          -- A finalizer ran inside the call unless the call left it armed.
          if not armed then inside = inside + 1 end
          armed = false
          if not ok then errors[#errors + 1] = err end
        end
        usual_collector()
        collectgarbage()
        for _, err in ipairs(errors) do
          assert.are.equal("string", type(err))
          assert.is_nil(err:find("internal error", 1, true), err)
        end
      end)
    end
  end

  it("ran finalizers inside the calls", function()
    assert.is_true(inside > 0)
  end)
end)

describe("the turn functions' own arguments", function()
  local m = from_text("#####\n#...#\n#####") -- 5x3
  local open = { { ".", ".", "." }, { ".", "@", "." }, { ".", ".", "." } }
  local d = map.distances(open, { x = 2, y = 2 })
  local P = { x = 2, y = 2 }
  -- Each function that takes cells: called with a bad cell as x, y and as
  -- a position, the names its messages give, the map's size.
  local CELL_TAKERS = {
    { "fov", function(x, y) return map.fov(m, x, y) end, function(c) return map.fov(m, c) end, "origin", "x", "y" },
    { "step", function(x, y) return map.step(open, d, x, y) end, function(c) return map.step(open, d, c) end,
      "from", "x", "y", 3, 3 },
    { "explore", function(x, y) return map.explore(m, {}, x, y) end, function(c) return map.explore(m, {}, c) end,
      "start", "x", "y" },
    { "path", function(x, y) return map.path(m, x, y, 2, 2) end, function(c) return map.path(m, c, 2, 2) end,
      "start", "x1", "y1" },
    { "path", function(x, y) return map.path(m, P, x, y) end, function(c) return map.path(m, P, c) end,
      "goal", "x2", "y2" },
    { "visible", function(x, y) return map.visible(m, x, y, 2, 2) end, function(c) return map.visible(m, c, P) end,
      "from", "x1", "y1" },
    { "visible", function(x, y) return map.visible(m, 2, 2, x, y) end, function(c) return map.visible(m, P, c) end,
      "to", "x2", "y2" },
  }

  it("name a bad cell, as coordinates or as a position, by what it stands for", function()
    for _, taker in ipairs(CELL_TAKERS) do
      local fn, xy, pos, name, xn, yn = taker[1], taker[2], taker[3], taker[4], taker[5], taker[6]
      local X = ("must be an integer from 1 to %d, got "):format(taker[7] or 5)
      local Y = ("must be an integer from 1 to %d, got "):format(taker[8] or 3)
      for _, case in ipairs(BAD_NUMBERS) do
        local value, shown = case[1], case[2]
        if value ~= nil then
          fails(("map.%s: %s %s%s"):format(fn, xn, X, shown), xy, value, 1)
          fails(("map.%s: %s %s%s"):format(fn, yn, Y, shown), xy, 1, value)
          fails(("map.%s: %s.x %s%s"):format(fn, name, X, shown), pos, { x = value, y = 1 })
          fails(("map.%s: %s.y %s%s"):format(fn, name, Y, shown), pos, { x = 1, y = value })
        end
      end
      fails(("map.%s: %s %snil"):format(fn, yn, Y), xy, 1, nil)
      fails(("map.%s: %s.x %snil"):format(fn, name, X), pos, {})
      fails(("map.%s: %s.x %snil"):format(fn, name, X), pos, trap())
      fails(("map.%s: %s.x %sstring \"2\""):format(fn, name, X), pos, { x = "2", y = 2 })
      for _, huge in ipairs(HUGE) do
        fails(("map.%s: %s.x %s"):format(fn, name, X), pos, { x = huge, y = 1 })
      end
    end
  end)

  it("step names a bad distance map, reading only the cell and its neighbours", function()
    local V = "must be false or an integer with |v| <= 2^53, got "
    fails("map.step: d must be a table of rows, got nil", map.step, open, nil, 2, 2)
    fails("map.step: d must be a table of rows, got number", map.step, open, 5, 2, 2)
    fails("map.step: d[1] must be a table, got nil", map.step, open, {}, 2, 2)
    fails("map.step: d[3] must be a table, got string", map.step, open, { { 1, 1, 1 }, { 1, 1, 1 }, "row" }, 2, 2)
    local bad = { { true, "boolean" }, { "1", 'string "1"' }, { 1.5, "1.5" }, { 0 / 0, "nan" }, { 1 / 0, "inf" },
      { 2 ^ 53 + 2, "9007199254740994" }, { -2 ^ 54, "-18014398509481984" }, { {}, "table" }, { nil, "nil" },
      { print, "function" } }
    for _, case in ipairs(bad) do
      local rows = { { 1, 1, 1 }, { 1, 1, 1 }, { 1, 1, 1 } }
      rows[2][3] = case[1]
      fails("map.step: d[2][3] " .. V .. case[2], map.step, open, rows, 2, 2)
    end
    assert.are.same({ 1, 1 }, { map.step(open, { { 0, 1, 1 }, { 2 ^ 53, 2, 1 }, { 1, 1, 1 } }, 1, 2) })
    assert.are.same({ 2, 1 }, { map.step(open, { { 5, -2 ^ 53 }, { 1, 1 } }, 1, 1) })
    -- A trap is read raw.
    assert.is_nil(map.step(open, { setmetatable({ 1, 1 }, getmetatable(trap())), { 1, 1 } }, 1, 1))
  end)

  it("distances, path and flee name bad avoid, known and max, reading them raw", function()
    local AVOID = "avoid must be a position {x=, y=} or an array of them, got "
    local BAD = {
      { { avoid = 5 }, AVOID .. "number" }, { { avoid = "x" }, AVOID .. "string" },
      { { avoid = true }, AVOID .. "boolean" },
      { { avoid = { 5 } }, "avoid[1] must be a position {x=, y=}, got number" },
      { { avoid = { P, { x = 0, y = 1 } } }, "avoid[2].x must be an integer from 1 to 5, got 0" },
      { { avoid = { x = 2 } }, "avoid.y must be an integer from 1 to 3, got nil" },
      { { avoid = { P, nil, P } }, "avoid[2] must be a position {x=, y=}, got nil" },
      { { avoid = { [2] = P } }, "avoid[1] must be a position {x=, y=}, got nil" },
      { { known = 5 }, "known must be a table of rows, got number" },
      { { known = "x" }, "known must be a table of rows, got string" },
      { { known = { 5 } }, "known[1] must be a table or nil, got number" },
      { { known = { {}, {}, true } }, "known[3] must be a table or nil, got boolean" },
      { { max = -1 }, "max must be an integer >= 0, got -1" },
      { { max = 1.5 }, "max must be an integer >= 0, got 1.5" },
      { { max = "3" }, 'max must be an integer >= 0, got string "3"' },
      { { max = 0 / 0 }, "max must be an integer >= 0, got nan" },
      { { max = 1 / 0 }, "max must be an integer >= 0, got inf" },
      { { max = {} }, "max must be an integer >= 0, got table" },
      { { factor = -1 }, 'unknown option "factor"' },
    }
    for _, case in ipairs(BAD) do
      fails("map.distances: " .. case[2], map.distances, m, P, case[1])
      if case[2]:sub(1, 7) ~= "unknown" then
        fails("map.path: " .. case[2], map.path, m, 2, 2, 4, 2, case[1])
        fails("map.flee: " .. case[2], map.flee, m, P, case[1])
      end
    end
    -- Traps are read raw: an empty avoid, an empty known (nothing known).
    assert.is_table(map.distances(m, P, { avoid = trap(), known = trap() }))
    assert.are.equal(0, map.distances(m, P, { known = trap() })[2][2])
    assert.is_false(map.distances(m, P, { known = trap() })[2][3])
  end)

  it("distances and flee name a bad start value", function()
    local V = "must be an integer with |value| <= 2^53, got "
    local bad = { { 1.5, "1.5" }, { "1", 'string "1"' }, { true, "boolean" }, { {}, "table" }, { 0 / 0, "nan" },
      { 2 ^ 53 + 2, "9007199254740994" }, { -2 ^ 54, "-18014398509481984" }, { 1 / 0, "inf" } }
    for _, case in ipairs(bad) do
      for _, fn in ipairs({ "distances", "flee" }) do
        fails(("map.%s: sources.value %s%s"):format(fn, V, case[2]), map[fn], m, { x = 2, y = 2, value = case[1] })
        fails(("map.%s: sources[2].value %s%s"):format(fn, V, case[2]), map[fn], m,
          { P, { x = 3, y = 2, value = case[1] } })
      end
    end
    fails("map.distances: sources[2] must be a position {x=, y=}, got nil", map.distances, m, { P, nil, P })
  end)

  it("flee names a bad factor", function()
    local F = "map.flee: factor must be a number from -10 to -0.1, got "
    local bad = { { 0, "0" }, { -0.05, "-0.05" }, { -10.5, "-10.5" }, { 1, "1" }, { "x", 'string "x"' },
      { true, "boolean" }, { 0 / 0, "nan" }, { -1 / 0, "-inf" }, { {}, "table" } }
    for _, case in ipairs(bad) do fails(F .. case[2], map.flee, m, P, { factor = case[1] }) end
    assert.is_table(map.flee(m, P, { factor = -10 }))
    assert.is_table(map.flee(m, P, { factor = -0.1 }))
  end)

  it("step and explore name bad options and known rows", function()
    fails('map.step: unknown option "cost" (options: avoid, blocked, diagonal, known)', map.step, open, d, 2, 2,
      { cost = {} })
    fails('map.step: unknown option "max"', map.step, open, d, 2, 2, { max = 1 })
    fails("map.step: options must be a table, got number", map.step, open, d, 2, 2, 5)
    fails("map.step: known[1] must be a table or nil, got number", map.step, open, d, 2, 2, { known = { 7 } })
    fails('map.explore: unknown option "known" (options: avoid, blocked, cost, diagonal)', map.explore, m, {}, 2, 2,
      { known = {} })
    fails("map.explore: known must be a table of rows, got nil", map.explore, m, nil, 2, 2)
    fails("map.explore: known must be a table of rows, got string", map.explore, m, "k", 2, 2)
    fails("map.explore: known[2] must be a table or nil, got number", map.explore, m, { {}, 5 }, 2, 2)
    fails("map.explore: avoid[1] must be a position {x=, y=}, got number", map.explore, m, {}, 2, 2, { avoid = { 1 } })
    fails("map.explore: expected at most 5 arguments, got 6", map.explore, m, {}, 2, 2, {}, 1)
    assert.are.same({ { x = 2, y = 2 } }, map.explore(m, { {}, { [2] = true } }, 2, 2))
    assert.are.same({ nil, "explored" }, { map.explore(m, { trap(), trap(), trap() }, 2, 2) })
  end)

  it("sample names a bad count and bad options", function()
    for _, case in ipairs(BAD_NUMBERS) do
      local value, shown = case[1], case[2]
      if value ~= 0 then
        fails("map.sample: count must be an integer >= 0, got " .. shown, map.sample, m, value)
      end
    end
    local cases = {
      { { seed = 1.5 }, "seed must be an integer with |seed| <= 2^53, got 1.5" },
      { { seed = "1" }, 'seed must be an integer with |seed| <= 2^53, got string "1"' },
      { { chars = 5 }, "chars must be a string of characters, got 5" },
      { { from = 5 }, "from must be a position {x=, y=}, got number" },
      { { from = { x = 0, y = 1 } }, "from.x must be an integer from 1 to 5, got 0" },
      { { from = trap() }, "from.x must be an integer from 1 to 5, got nil" },
      { { from = P, min = -1 }, "min must be an integer >= 0, got -1" },
      { { from = P, max = 0.5 }, "max must be an integer >= 0, got 0.5" },
      { { from = P, hidden = 1 }, "hidden must be a boolean, got 1" },
      { { from = P, diagonal = "yes" }, 'diagonal must be a boolean, got string "yes"' },
      { { from = P, blocked = {} }, "blocked must be a string of characters, got table" },
      { { min = 3 }, "min needs from" }, { { max = 3 }, "max needs from" }, { { hidden = true }, "hidden needs from" },
      { { blocked = "#" }, "blocked needs from" }, { { diagonal = true }, "diagonal needs from" },
      { { from = P, opaque = "#" }, "opaque needs hidden = true" },
      { { colour = 1 }, 'unknown option "colour" (options: blocked, chars, diagonal, from, hidden, max, min, opaque, '
        .. "seed)" },
    }
    for _, case in ipairs(cases) do fails("map.sample: " .. case[2], map.sample, m, 1, case[1]) end
    fails("map.sample: count is 4 but only 3 cells can be drawn", map.sample, m, 4)
    fails("map.sample: count is 1000000000 but only 3 cells can be drawn", map.sample, m, 1e9)
    fails("map.sample: expected at most 3 arguments, got 4", map.sample, m, 1, {}, 1)
    assert.are.equal(3, #map.sample(m, 3, { hidden = false, diagonal = false, seed = 1 }))
    assert.are.equal(1, #map.sample(m, 1, trap()))
  end)

  it("line names bad points and refuses a line of more than MAX_CELLS cells", function()
    local V = " must be an integer with |v| <= 2^53, got "
    local bad = { { nil, "nil" }, { true, "boolean" }, { "1", 'string "1"' }, { 1.5, "1.5" }, { 0 / 0, "nan" },
      { 1 / 0, "inf" }, { 2 ^ 53 + 2, "9007199254740994" }, { mininteger, "-9223372036854775808" },
      { print, "function" } }
    for _, case in ipairs(bad) do
      fails("map.line: x1" .. V .. case[2], map.line, case[1], 1, 2, 2)
      fails("map.line: y2" .. V .. case[2], map.line, 1, 1, 2, case[1])
      fails("map.line: from.y" .. V .. case[2], map.line, { x = 1, y = case[1] }, 2, 2)
      fails("map.line: to.x" .. V .. case[2], map.line, 1, 1, { x = case[1], y = 1 })
    end
    fails("map.line: from.x" .. V .. "nil", map.line, trap(), 1, 1)
    fails("map.line: line has more than 4000000 cells (4000000 steps)", map.line, 1, 1, 4000001, 1)
    fails("map.line: line has more than 4000000 cells (18014398509481984 steps)", map.line, -2 ^ 53, 0, 2 ^ 53, 0)
  end)

  it("visible names bad options", function()
    for _, case in ipairs({ { -1, "-1" }, { 1.5, "1.5" }, { "3", 'string "3"' }, { true, "boolean" } }) do
      fails("map.visible: radius must be an integer >= 0, got " .. case[2], map.visible, m, P, P, { radius = case[1] })
    end
    fails("map.visible: opaque must be a string of characters, got 5", map.visible, m, P, P, { opaque = 5 })
    fails('map.visible: unknown option "blocked" (options: opaque, radius)', map.visible, m, P, P, { blocked = "#" })
    fails("map.visible: options must be a table, got string", map.visible, m, 2, 2, 3, 2, "#")
    assert.is_true(map.visible(m, P, P, trap()))
  end)

  it("parse names what is not a text", function()
    local bad = { { nil, "nil" }, { 5, "number" }, { {}, "table" }, { true, "boolean" }, { print, "function" } }
    for _, case in ipairs(bad) do
      fails("map.parse: text must be a string, got " .. case[2], map.parse, case[1])
    end
    fails("map.parse: expected at most 1 argument, got 2", map.parse, "#", nil)
    fails("map.parse: text must be a string, got nil", map.parse)
  end)
end)

describe("hostile vaults, arrive and place", function()
  local FNS = { "generate", "generate_text", "generate_json" }
  local T = "a table {rows=, count=, rotate=, required=}"
  local VAULTS = "vaults must be an array of templates {rows=, count=, rotate=, required=}, got "
  local CHAR = "place[1].char must be one printable ASCII character but # . @ > + and space, got "
  local BORDER = "arrive must be inside the border (x from 2 to 39, y from 2 to 19), got "
  local PRINTABLE = "only printable ASCII (32 to 126)"
  local tall, long, huge = {}, string.rep(".", 65), {}
  for i = 1, 65 do tall[i] = "." end
  for i = 1, 100000 do huge[i] = { rows = { "." } } end
  local many = {}
  for i = 1, 101 do many[i] = { char = "M" } end
  local cases = {
    { { vaults = 5 }, VAULTS .. "number" },
    { { vaults = "#.#" }, VAULTS .. "string" },
    { { vaults = true }, VAULTS .. "boolean" },
    { { vaults = { rows = { "." } } }, 'vaults must be an array, but has the key "rows"' },
    { { vaults = { [0] = { rows = { "." } } } }, "vaults must be an array, but has the key 0" },
    { { vaults = { [1.5] = { rows = { "." } } } }, "vaults must be an array, but has the key 1.5" },
    { { vaults = { [1] = { rows = { "." } }, [3] = { rows = { "." } } } }, "vaults[2] must be " .. T .. ", got nil" },
    { { vaults = { 5 } }, "vaults[1] must be " .. T .. ", got number" },
    { { vaults = { trap() } }, "vaults[1].rows must be an array of strings, got nil" },
    { { vaults = { {} } }, "vaults[1].rows must be an array of strings, got nil" },
    { { vaults = { { rows = "..." } } }, "vaults[1].rows must be an array of strings, got string" },
    { { vaults = { { rows = {} } } }, "vaults[1].rows is empty" },
    { { vaults = { { rows = { "" } } } }, "vaults[1].rows[1] is empty" },
    { { vaults = { { rows = { "...", ".." } } } }, "vaults[1].rows[2] has 2 characters, rows[1] has 3" },
    { { vaults = { { rows = { "...", 7 } } } }, "vaults[1].rows[2] must be a string, got number" },
    { { vaults = { { rows = { ".", {} } } } }, "vaults[1].rows[2] must be a string, got table" },
    { { vaults = { { rows = { long } } } }, "vaults[1].rows[1] is longer than 64 characters (65)" },
    { { vaults = { { rows = { string.rep("#", 2 ^ 20) } } } },
      "vaults[1].rows[1] is longer than 64 characters (1048576)" },
    { { vaults = { { rows = tall } } }, "vaults[1].rows has more than 64 rows (65)" },
    { { vaults = { { rows = { ".\0." } } } }, "vaults[1].rows[1] has byte 0 at column 2: " .. PRINTABLE },
    { { vaults = { { rows = { ".\255." } } } }, "vaults[1].rows[1] has byte 255 at column 2: only printable ASCII" },
    { { vaults = { { rows = { "###", "#.#", "###" } } } },
      "vaults[1] has no entrance (no walkable cell on its outer ring)" },
    { { vaults = { { rows = { "   " } } } }, "vaults[1] has no entrance (no walkable cell on its outer ring)" },
    { { vaults = { { rows = { "#.###", "#.#.#", "#####" } } } },
      "vaults[1]: its cell (4,2) is walled in (no entrance reaches it)" },
    { { vaults = { { rows = { "." }, count = 0 } } }, "vaults[1].count must be an integer from 1 to 100, got 0" },
    { { vaults = { { rows = { "." }, count = 101 } } }, "vaults[1].count must be an integer from 1 to 100, got 101" },
    { { vaults = { { rows = { "." }, count = 1.5 } } }, "vaults[1].count must be an integer from 1 to 100, got 1.5" },
    { { vaults = { { rows = { "." }, count = "2" } } },
      'vaults[1].count must be an integer from 1 to 100, got string "2"' },
    { { vaults = { { rows = { "." }, rotate = 1 } } }, "vaults[1].rotate must be a boolean, got 1" },
    { { vaults = { { rows = { "." }, required = "no" } } }, 'vaults[1].required must be a boolean, got string "no"' },
    { { vaults = { { rows = { "." }, rotation = 2, Rows = 1 } } },
      'vaults[1] has an unknown field "Rows" (fields: rows, count, rotate, required)' },
    { { vaults = { { rows = { "." }, [1] = 2 } } },
      "vaults[1] has an unknown field 1 (fields: rows, count, rotate, required)" },
    { { vaults = { { rows = { "." }, count = 60 }, { rows = { "." }, count = 41 } } },
      "vaults ask for 101 copies in all, at most 100" },
    { { vaults = { { rows = { "@." }, count = 2 } } }, "vaults hold 2 @ in all (copies counted), at most one" },
    { { vaults = { { rows = { ">" } }, { rows = { ".>" } } } },
      "vaults hold 2 > in all (copies counted), at most one" },
    { { vaults = huge }, "vaults has 100000 templates, at most 100" },
    { { vaults = { { rows = { string.rep(".", 40) } } } }, "vault 1 does not fit in 40x20" },
    { { vaults = { { rows = { "." } }, { rows = { ".........." }, count = 30 } } }, "vault 2 (copy " },
    { { arrive = 5 }, "arrive must be a position {x=, y=}, got number" },
    { { arrive = {} }, "arrive.x must be an integer, got nil" },
    { { arrive = trap() }, "arrive.x must be an integer, got nil" },
    { { arrive = { x = 2, y = 0.5 } }, "arrive.y must be an integer, got 0.5" },
    { { arrive = { x = "2", y = 2 } }, 'arrive.x must be an integer, got string "2"' },
    { { arrive = { x = 1, y = 5 } }, BORDER .. "(1,5)" },
    { { arrive = { x = 40, y = 5 } }, BORDER .. "(40,5)" },
    { { arrive = { x = 5, y = 2 ^ 53 } }, BORDER .. "(5," },
    { { arrive = { x = 3, y = 3 }, vaults = { { rows = { "@" } } } },
      "arrive and a vault's @ both say where @ starts" },
    { { place = "M" }, "place must be an array of {char=, count=, min=, hidden=}, got string" },
    { { place = { char = "M" } }, 'place must be an array, but has the key "char"' },
    { { place = { "M" } }, "place[1] must be a table {char=, count=, min=, hidden=}, got string" },
    { { place = { {} } }, CHAR .. "nil" },
    { { place = { trap() } }, CHAR .. "nil" },
    { { place = { { char = "#" } } }, CHAR .. 'string "#"' },
    { { place = { { char = " " } } }, CHAR .. 'string " "' },
    { { place = { { char = "MM" } } }, CHAR .. 'string "MM"' },
    { { place = { { char = 77 } } }, CHAR .. "77" },
    { { place = { { char = "M", count = -1 } } }, "place[1].count must be an integer from 0 to 10000, got -1" },
    { { place = { { char = "M", count = 10001 } } }, "place[1].count must be an integer from 0 to 10000, got 10001" },
    { { place = { { char = "M", min = 0 / 0 } } }, "place[1].min must be an integer from 0 to 4000000, got nan" },
    { { place = { { char = "M", hidden = 1 } } }, "place[1].hidden must be a boolean, got 1" },
    { { place = { { char = "M", kind = "x" } } },
      'place[1] has an unknown field "kind" (fields: char, count, min, hidden)' },
    { { place = { { char = "M", count = 6000 }, { char = "N", count = 4001 } } },
      "place asks for 10001 cells in all, at most 10000" },
    { { place = many }, "place has 101 entries, at most 100" },
    { { place = { { char = "M", count = 5000 } } }, 'place[1]: cannot place 5000 "M": only ' },
    { { place = { { char = "M", count = 1, min = 4000000 } } },
      'place[1]: cannot place 1 "M": only 0 free floor cells at walking distance >= 4000000 from @' },
    { { items = 300, place = { { char = "M", count = 300 } } }, 'place[1]: cannot place 300 "M": only ' },
  }
  for _, fn in ipairs(FNS) do
    it(fn .. " names what is wrong, the same on every interpreter", function()
      for _, case in ipairs(cases) do
        local opts = { width = 40, height = 20, seed = 1 }
        for k, v in pairs(case[1]) do opts[k] = v end
        fails(("map.%s: %s"):format(fn, case[2]), map[fn], opts)
      end
    end)
  end

  it("reads every table raw: metatables on the options, the arrays and the entries change nothing", function()
    local function trapped(t) return setmetatable(t, getmetatable(trap())) end
    local opts = trapped { width = 40, height = 20, seed = 3,
      vaults = trapped { trapped { rows = trapped { "#+#", "+.+", "#+#" }, count = 2 } },
      arrive = trapped { x = 4, y = 4 }, place = trapped { trapped { char = "M", count = 3 } } }
    local plain = { width = 40, height = 20, seed = 3, vaults = { { rows = { "#+#", "+.+", "#+#" }, count = 2 } },
      arrive = { x = 4, y = 4 }, place = { { char = "M", count = 3 } } }
    assert.are.equal(map.generate_text(plain), map.generate_text(opts))
    assert.are.equal(3, #map.generate(opts).placed)
  end)

  it("takes the largest demands at once: 100 templates of 64x64, 100 copies, 10,000 placed cells", function()
    local rows = {}
    for y = 1, 64 do
      rows[y] = (y == 1 or y == 64) and string.rep(".", 64) or "." .. string.rep("#", 62) .. "."
    end
    local templates = {}
    for i = 1, 100 do templates[i] = { rows = rows, required = false, rotate = true } end
    local m = map.generate { width = 400, height = 400, seed = 1, algorithm = "cave", vaults = templates,
      place = { { char = "M", count = 10000 } } }
    assert.is_true(#m.vaults >= 10)
    assert.are.equal(10000, #m.placed)
    assert.is_true(map.reachable(m))
  end)
end)
