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

describe("hostile algorithm names", function()
  it("describe names anything but an algorithm's name, reading nothing else", function()
    local refused = "map.describe: algorithm must be " .. ALGORITHM_LIST .. ", got "
    for _, case in ipairs(BAD_NUMBERS) do
      if case[1] ~= nil then fails(refused .. case[2], map.describe, case[1]) end
    end
    fails(refused .. "table", map.describe, trap())
    fails(refused .. 'string "CAVE"', map.describe, "CAVE")
    fails(refused .. "string ", map.describe, "rooms\0")
    fails("map.describe: expected at most 1 argument, got 2", map.describe, "rooms", nil)
  end)
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
          -- The value that asks for nothing (false, or 0 where the default
          -- and least value are 0) is taken and changes nothing; any other is
          -- refused, the default of an option with no such value included.
          local nothing = option.default == false or option.default == 0 and option.min == 0
            and not option.open_min
          local value = option.default
          if value == nil then value = option.min end
          if nothing then
            local plain = { width = 30, height = 12, seed = 3, algorithm = algorithm }
            local given = { width = 30, height = 12, seed = 3, algorithm = algorithm, [name] = value }
            for _, fn in ipairs(FNS) do assert.are.same(map[fn](plain), map[fn](given), name) end
            value = support.option_value(option, support.other_value(option))
          end
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
      .. table.concat(OPTION_NAMES, ", ") .. ", vaults, arrive, place, rng)"
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
    -- A map's length is its probe border (docs/hardening.md): no key past
    -- it is read, and a map without a row 1 has no rows.
    { { [1e9] = {} }, "map has no rows" },
    { { nil, row }, "map has no rows" },
    { { row, { "#", nil, "#" } }, "row 2 has 1 cells, row 1 has 2" },
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
    -- A light at (1,1) reaches every bad cell here.
    { "light", function(m) return map.light(m, { { x = 1, y = 1, radius = 3 } }) end },
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

describe("hostile noise, light and m.blocked", function()
  local m = from_text("#####\n#...#\n#####") -- 5x3
  local n = map.noise { seed = 1 }

  it("map.noise names a bad setting, reading the options raw", function()
    local cases = {
      { { kind = "wavelet" }, 'kind must be "simplex" or "perlin", got string "wavelet"' },
      { { kind = 1 }, 'kind must be "simplex" or "perlin", got 1' },
      { { octaves = 0 }, "octaves must be an integer from 1 to 16, got 0" },
      { { octaves = 17 }, "octaves must be an integer from 1 to 16, got 17" },
      { { octaves = 1.5 }, "octaves must be an integer from 1 to 16, got 1.5" },
      { { octaves = "4" }, 'octaves must be an integer from 1 to 16, got string "4"' },
      { { frequency = 0 }, "frequency must be a number in (0, 1048576], got 0" },
      { { frequency = -1 }, "frequency must be a number in (0, 1048576], got -1" },
      { { frequency = 0 / 0 }, "frequency must be a number in (0, 1048576], got nan" },
      { { frequency = 1 / 0 }, "frequency must be a number in (0, 1048576], got inf" },
      { { frequency = 2 ^ 21 }, "frequency must be a number in (0, 1048576], got 2097152" },
      { { persistence = -0.1 }, "persistence must be a number in [0, 1], got -0.1" },
      { { persistence = 1.5 }, "persistence must be a number in [0, 1], got 1.5" },
      { { persistence = true }, "persistence must be a number in [0, 1], got boolean" },
      { { lacunarity = 0.5 }, "lacunarity must be a number in [1, 16], got 0.5" },
      { { lacunarity = 17 }, "lacunarity must be a number in [1, 16], got 17" },
      { { seed = 0.5 }, "seed must be an integer with |seed| <= 2^53, got 0.5" },
      { { seed = 2 ^ 53 + 2 }, "seed must be an integer with |seed| <= 2^53, got 9007199254740994" },
      { { seed = "1" }, 'seed must be an integer with |seed| <= 2^53, got string "1"' },
      { { colour = 1 }, 'unknown option "colour" (options: frequency, kind, lacunarity, octaves, persistence, seed)' },
      { { [1] = 5 }, "unknown option 1 (options: frequency, kind, lacunarity, octaves, persistence, seed)" },
    }
    for _, case in ipairs(cases) do fails("map.noise: " .. case[2], map.noise, case[1]) end
    fails("map.noise: options must be a table, got number", map.noise, 5)
    fails("map.noise: options must be a table, got string", map.noise, "simplex")
    fails("map.noise: expected at most 1 argument, got 2", map.noise, {}, {})
    assert.are.equal("simplex", map.noise(trap()).kind)
    local given = map.noise { seed = 3, octaves = 16, frequency = 2 ^ 20, persistence = 0, lacunarity = 16 }
    assert.is_true(given:get(1, 1) >= -1 and given:get(1, 1) <= 1)
  end)

  it("noise:get and noise:grid name a bad point, size or origin", function()
    local V = " must be a number with |v| <= 2^53, got "
    local bad = { { nil, "nil" }, { true, "boolean" }, { "1", 'string "1"' }, { 0 / 0, "nan" }, { 1 / 0, "inf" },
      { -1 / 0, "-inf" }, { 2 ^ 53 + 2, "9007199254740994" }, { mininteger, "-9223372036854775808" },
      { print, "function" } }
    for _, case in ipairs(bad) do
      fails("noise:get: x" .. V .. case[2], n.get, n, case[1], 1)
      fails("noise:get: y" .. V .. case[2], n.get, n, 1, case[1])
      fails("noise:get: point.y" .. V .. case[2], n.get, n, { x = 1, y = case[1] })
      fails("noise:grid: x0" .. V .. case[2], n.grid, n, 2, 2, case[1], 1)
      fails("noise:grid: origin.x" .. V .. case[2], n.grid, n, 2, 2, { x = case[1], y = 1 })
      if case[1] ~= nil then fails("noise:grid: y0" .. V .. case[2], n.grid, n, 2, 2, 1, case[1]) end
    end
    fails("noise:get: point.x" .. V .. "nil", n.get, n, trap())
    fails("noise:get: expected at most 3 arguments, got 4", n.get, n, 1, 1, 1)
    fails("noise:get: expected at most 2 arguments, got 3", n.get, n, { x = 1, y = 1 }, 1)
    for _, case in ipairs(BAD_NUMBERS) do
      local value, shown = case[1], case[2]
      fails("noise:grid: width must be an integer >= 1, got " .. shown, n.grid, n, value, 2)
      fails("noise:grid: height must be an integer >= 1, got " .. shown, n.grid, n, 2, value)
    end
    fails("noise:grid: width*height must be at most 4000000 cells, got 2000x2001", n.grid, n, 2000, 2001)
    fails("noise:grid: expected at most 5 arguments, got 6", n.grid, n, 2, 2, 1, 1, 1)
    fails("noise:grid: expected at most 4 arguments, got 5", n.grid, n, 2, 2, { x = 1, y = 1 }, 1)
    fails("noise:get: self must be a noise, got nil", n.get, nil, 1, 1)
    fails("noise:grid: self must be a noise, got table", n.grid, {}, 1, 1)
    -- At the bounds an integral origin is added to as an integer, on both
    -- interpreters (where a double would round 2^53 + 1 - 1 to 2^53 - 1).
    assert.are.equal(n:get(2 ^ 53, -2 ^ 53), n:grid(1, 1, 2 ^ 53, -2 ^ 53)[1][1])
  end)

  it("light names a bad light, option or reach, reading them raw", function()
    local L = function(t)
      local l = { x = 2, y = 2, radius = 2 }
      for k, v in pairs(t) do l[k] = v end
      return l
    end
    local cases = {
      { 5, "lights must be an array of lights {x=, y=, radius=}, got number" },
      { nil, "lights must be an array of lights {x=, y=, radius=}, got nil" },
      { { 5 }, "lights[1] must be a light {x=, y=, radius=}, got number" },
      { { L {}, "lamp" }, "lights[2] must be a light {x=, y=, radius=}, got string" },
      { { L { x = 0 } }, "lights[1].x must be an integer from 1 to 5, got 0" },
      { { L { y = 4 } }, "lights[1].y must be an integer from 1 to 3, got 4" },
      { { L { x = 1.5 } }, "lights[1].x must be an integer from 1 to 5, got 1.5" },
      { { L { radius = -1 } }, "lights[1].radius must be an integer >= 0, got -1" },
      { { { x = 2, y = 2 } }, "lights[1].radius must be an integer >= 0, got nil" },
      { { L { radius = 0.5 } }, "lights[1].radius must be an integer >= 0, got 0.5" },
      { { L { radius = 0 / 0 } }, "lights[1].radius must be an integer >= 0, got nan" },
      { { L { intensity = -1 } }, "lights[1].intensity must be a finite number >= 0, got -1" },
      { { L { intensity = 0 / 0 } }, "lights[1].intensity must be a finite number >= 0, got nan" },
      { { L { intensity = 1 / 0 } }, "lights[1].intensity must be a finite number >= 0, got inf" },
      { { L { intensity = "1" } }, 'lights[1].intensity must be a finite number >= 0, got string "1"' },
      { { L { color = 5 } }, "lights[1].color must be a colour {r, g, b} or {r=, g=, b=}, got number" },
      { { L { color = {} } }, "lights[1].color[1] must be a number from 0 to 1, got nil" },
      { { L { color = { 1, 0.5 } } }, "lights[1].color[3] must be a number from 0 to 1, got nil" },
      { { L { color = { 1, 2, 0 } } }, "lights[1].color[2] must be a number from 0 to 1, got 2" },
      { { L { color = { 1, 0 / 0, 0 } } }, "lights[1].color[2] must be a number from 0 to 1, got nan" },
      { { L { color = { r = 1, b = 0 } } }, "lights[1].color.g must be a number from 0 to 1, got nil" },
      { { L { color = { r = -0.5, g = 0, b = 0 } } }, "lights[1].color.r must be a number from 0 to 1, got -0.5" },
      { { L { color = trap() } }, "lights[1].color[1] must be a number from 0 to 1, got nil" },
      { { trap() }, "lights[1].x must be an integer from 1 to 5, got nil" },
    }
    for _, case in ipairs(cases) do fails("map.light: " .. case[2], map.light, m, case[1]) end
    local options = {
      { { opaque = 5 }, "opaque must be a string of characters, got 5" },
      { { ambient = -0.1 }, "ambient must be a number from 0 to 1 or a colour {r, g, b}, got -0.1" },
      { { ambient = 2 }, "ambient must be a number from 0 to 1 or a colour {r, g, b}, got 2" },
      { { ambient = "dim" }, 'ambient must be a number from 0 to 1 or a colour {r, g, b}, got string "dim"' },
      { { ambient = { 1, 1, 2 } }, "ambient[3] must be a number from 0 to 1, got 2" },
      { { ambient = { r = 0.5 } }, "ambient.g must be a number from 0 to 1, got nil" },
      { { radius = 3 }, 'unknown option "radius" (options: ambient, opaque)' },
    }
    for _, case in ipairs(options) do fails("map.light: " .. case[2], map.light, m, {}, case[1]) end
    fails("map.light: options must be a table, got string", map.light, m, {}, "#")
    fails("map.light: expected at most 3 arguments, got 4", map.light, m, {}, {}, 1)
    -- The reach: the squares within the lights' radii, clipped, and 64 a
    -- light, at most 17 x MAX_CELLS cells in all: 16 lights over the whole map.
    local row = {}
    for x = 1, 2000 do row[x] = "." end
    local big = {}
    for y = 1, 2000 do big[y] = row end
    local lights = {}
    for i = 1, 17 do lights[i] = { x = i, y = 1, radius = 1e6 } end
    fails("map.light: lights reach 68001088 cells in all (the squares within their radii, and 64 a light), at most "
      .. "68000000", map.light, big, lights)
    lights[17] = nil
    assert.are.equal(1, map.light(big, lights)[1][1])
    local lvl = map.level(m)
    fails("level:light: lights[1].x must be an integer from 1 to 5, got 6", lvl.light, lvl, { L { x = 6 } })
    fails("level:light: self must be a level, got noise", lvl.light, n, {})
  end)

  it("every walking function names a bad m.blocked, and takes a good one", function()
    local bad = from_text("@.>")
    bad.blocked = 5
    local M = "m.blocked must be a string of characters, got number"
    local P = { x = 1, y = 1 }
    fails("map.reachable: " .. M, map.reachable, bad)
    fails("map.distances: " .. M, map.distances, bad, P)
    fails("map.flee: " .. M, map.flee, bad, P)
    fails("map.path: " .. M, map.path, bad, 1, 1, 3, 1)
    fails("map.step: " .. M, map.step, bad, { { 1, 0, 1 } }, 1, 1)
    fails("map.explore: " .. M, map.explore, bad, {}, 1, 1)
    fails("map.sample: " .. M, map.sample, bad, 1)
    fails("map.level: " .. M, map.level, bad)
    bad.blocked = { "#" }
    fails("map.distances: m.blocked must be a string of characters, got table", map.distances, bad, P)
    bad.blocked = "~"
    assert.is_true(map.reachable(bad))
    bad[1][2] = "~"
    assert.are.same({ false, "not reachable from @ at (1,1): > at (3,1)" }, { map.reachable(bad) })
    -- Cells of the table with raising metamethods are not consulted.
    local trapped = setmetatable(from_text("@.>"), getmetatable(trap()))
    assert.is_true(map.reachable(trapped))
  end)
end)

describe("a panic inside the module", function()
  -- Only the probe modules (`make probe`, cargo feature probe) export
  -- map._panic_probe, which panics on purpose; one runs in a child of the
  -- interpreter that runs this spec.
  local CHILD = [[
local map = require "map"
for _ = 1, 3 do
  local ok, err = pcall(map._panic_probe)
  print(ok, type(err), err)
end
print(map.render(map.generate(60, 20, 1)) == map.generate_text(60, 20, 1))
]]

  it("is not in the normal build", function()
    assert.is_nil(map._panic_probe)
    assert.is_nil(map._reads)
  end)

  it("surfaces as a string error, prints nothing, and the interpreter keeps running", function()
    local out, err, code = support.run_with_probe(CHILD)
    local raised = "false\tstring\tmap._panic_probe: internal error (please report): probe\n"
    assert.are.same({ raised:rep(3) .. "true\n", "", 0 }, { out, err, code })
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

  -- What a call reads, made afresh each round.
  local function arguments()
    local m = from_text("....\n.#..\n....")
    local scheduler, actors = map.scheduler(), { {}, "two", 3 }
    for i, actor in ipairs(actors) do scheduler:add(actor, i) end
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
      lvl = map.level(m),
      movers = { { x = 1, y = 1 }, { x = 4, y = 3 } },
      saved = map.level(m):save(),
      -- The toolbox's: a source, arrays it reads, a scheduler and its
      -- saved state with the actors, examples to learn names from.
      r = map.rng(1),
      array = { "a", "b", "c", "d" },
      weights = { 1, 2, 0, 3 },
      filled = { 1, 2 },
      seeded = { width = 20, height = 10, algorithm = "cave", rng = map.rng(2) },
      sampled = { rng = map.rng(3), from = { x = 1, y = 1 } },
      s = scheduler,
      actor = { "hero" },
      actors = actors,
      scheduled = scheduler:state(),
      examples = { "Aerandir", "Amroth", "Aranwe", "Beleg", "Celeborn", "Cirdan", "Daeron", "Earwen" },
      names_options = { order = 2, min = 3 },
      g = map.names({ "Aerandir", "Amroth", "Aranwe", "Beleg", "Celeborn", "Cirdan", "Daeron", "Earwen" }),
      noise = { seed = 1, kind = "perlin", octaves = 3, frequency = 0.1 },
      source = map.noise { seed = 2, octaves = 2 },
      lights = { { x = 2, y = 2, radius = 3, color = { 1, 0.5, 0 } }, { x = 4, y = 3, radius = 2, intensity = 0.5 } },
      light = { ambient = { 0.1, 0.1, 0.2 }, opaque = "#" },
      world = { width = 30, height = 14, seed = 1, algorithm = "overworld", water = 0.4,
        place = { { char = "M", count = 2, min = 3 } } },
      walled = (function()
        local w = from_text("@.~.\n.#~>\n..=.")
        w.blocked = "#~"
        return w
      end)(),
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
    level = function(a) return map.level(a.m, { things = "." }) end,
    level_text = function(a) return map.level(a.text) end,
    level_generated = function(a) return map.level(a.design) end,
    load = function(a) return map.load(a.saved) end,
    field = function() return map.field(30, 20) end,
    -- The methods: every one of map.METHODS, on the level and its fields.
    level_get = function(a) return a.lvl:get(a.sources[1]), a.lvl:set(2, 2, "+") end,
    level_occupy = function(a) return a.lvl:occupy(a.sources[1]), a.lvl:vacate(1, 1), a.lvl:occupied(1, 1) end,
    level_tables = function(a) return a.lvl:things(), a.lvl:table(), a.lvl:render(), a.lvl:save(), a.lvl:field() end,
    level_fov = function(a) return a.lvl:fov(2, 2, 3, { into = a.lvl:field() }), a.lvl:visible(1, 1, 4, 3) end,
    level_searches = function(a)
      return a.lvl:distances(a.sources, a.limits), a.lvl:flee(a.sources, a.options),
        a.lvl:path(1, 1, 4, 3, a.limits)
    end,
    level_steps = function(a)
      local d = a.lvl:distances(a.sources[1])
      local options = { occupied = true, avoid = a.limits.avoid }
      return a.lvl:step(d, a.sources[2], a.limits), a.lvl:steps(d, a.movers, options),
        a.lvl:can_step(1, 1, 1, 0, { occupied = true })
    end,
    level_rest = function(a)
      return a.lvl:explore(a.known, 1, 1, a.options), a.lvl:sample(2, { seed = 1, occupied = true }),
        a.lvl:reachable(), a.lvl:autotile({ mode = "4" })
    end,
    field_methods = function(a)
      local f = a.lvl:distances(a.sources[1])
      return f:get(1, 1), f:table(), f:save()
    end,
    -- The toolbox: map.rng, map.scheduler, map.names and every method.
    rng = function(a) return map.rng(1), map.rng(a.r:state()) end,
    rng_draws = function(a)
      local r = a.r
      return r:random(), r:random(6), r:random(-2, 2), r:normal(1, 2), r:dice("3d6+2"), r:state(), r:clone()
    end,
    rng_arrays = function(a)
      local r = a.r
      return r:pick(a.array), r:weighted(a.weights), r:shuffle(a.array), r:fill(a.filled, 50, 6), r:fill(a.filled, 9)
    end,
    rng_seeds = function(a) return map.generate(a.seeded), map.sample(a.m, 2, a.sampled) end,
    scheduler = function(a) return map.scheduler(), map.scheduler(a.scheduled, a.actors) end,
    scheduler_methods = function(a)
      local s = a.s
      s:add(a.actor, 2)
      s:delay(a.actor, 0.5)
      return s:next(), s:next(), s:time(), #s, s:state(), s:actors(), s:remove(a.actor), s:remove(a.actors[2])
    end,
    names = function(a) return map.names(a.examples, a.names_options) end,
    names_methods = function(a) return a.g:name(a.r), a.g:name(7), a.g:name() end,
    noise = function(a) return map.noise(a.noise) end,
    noise_methods = function(a) return a.source:get(a.sources[1]), a.source:grid(20, 10, a.sources[2]) end,
    light = function(a) return map.light(a.m, a.lights, a.light) end,
    level_light = function(a) return a.lvl:light(a.lights, a.light) end,
    overworld = function(a) return map.generate(a.world), map.level(a.world) end,
    walled = function(a)
      return map.reachable(a.walled), map.distances(a.walled, a.sources[1]), map.path(a.walled, 1, 1, 4, 2),
        map.flee(a.walled, a.sources[1]), map.explore(a.walled, a.known, 1, 1), map.level(a.walled):reachable()
    end,
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
      a.movers[1] = "gone"
      a.movers[2].x = {}
      a.saved = 7
      a.array[2], a.array[5] = nil, "e"
      a.weights[1], a.weights[4] = -1, nil
      a.filled[1] = nil
      a.seeded.rng, a.sampled.rng = "gone", 5
      a.actors[1], a.actors[3] = nil, 0 / 0
      a.scheduled = {}
      a.examples[2], a.examples[9] = 5, "Ecthelion"
      a.names_options.order = "high"
      a.noise.octaves = "many"
      a.noise.kind = {}
      a.lights[1].x = "far"
      a.lights[1].color[2] = {}
      a.lights[2] = 5
      a.light.ambient = "dark"
      a.world.water = "deep"
      a.world.place[1] = 5
      a.walled.blocked = {}
      a.walled[2] = nil
    end,
    raise = function() error("raised by a finalizer") end,
  }

  for name, call in pairs(CALLS) do
    for change_name, change in pairs(CHANGES) do
      it(name .. ": a finalizer that does " .. change_name, function()
        local errors = {}
        support.eager_collector()
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
          for _ = 1, PENDING do support.finalizer(act) end
          armed = true
          collectgarbage("restart")
          local ok, err = pcall(call, a)
          -- A finalizer ran inside the call unless the call left it armed.
          if not armed then inside = inside + 1 end
          armed = false
          if not ok then errors[#errors + 1] = err end
        end
        support.usual_collector()
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
      -- An array's length is its probe border: { P, nil, P } is one entry
      -- long, { [2] = P } none; a nil before the border is named.
      { { avoid = { P, P, nil, P } }, "avoid[3] must be a position {x=, y=}, got nil" },
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
    -- { [2] = P } is an empty avoid, { P, nil, P } avoids P alone.
    assert.are.same(map.distances(m, P), map.distances(m, P, { avoid = { [2] = P } }))
    assert.are.same(map.distances(m, P, { avoid = { x = 3, y = 2 } }),
      map.distances(m, P, { avoid = { { x = 3, y = 2 }, nil, P } }))
    -- Traps are read raw: an empty avoid, an empty known (nothing known).
    assert.is_table(map.distances(m, P, { avoid = trap(), known = trap() }))
    assert.are.equal(0, map.distances(m, P, { known = trap() })[2][2])
    assert.is_false(map.distances(m, P, { known = trap() })[2][3])
  end)

  it("distances and flee name a bad start value", function()
    local V = "must be an integer with |value| <= 2^52, got "
    local bad = { { 1.5, "1.5" }, { "1", 'string "1"' }, { true, "boolean" }, { {}, "table" }, { 0 / 0, "nan" },
      { 2 ^ 53 + 2, "9007199254740994" }, { -2 ^ 54, "-18014398509481984" }, { 1 / 0, "inf" } }
    for _, case in ipairs(bad) do
      for _, fn in ipairs({ "distances", "flee" }) do
        fails(("map.%s: sources.value %s%s"):format(fn, V, case[2]), map[fn], m, { x = 2, y = 2, value = case[1] })
        fails(("map.%s: sources[2].value %s%s"):format(fn, V, case[2]), map[fn], m,
          { P, { x = 3, y = 2, value = case[1] } })
      end
    end
    fails("map.distances: sources[3] must be a position {x=, y=}, got nil", map.distances, m, { P, P, nil, P })
    -- An array's length is its probe border: { P, nil, P } is one position
    -- long, { [2] = P } empty.
    assert.are.same(map.distances(m, P), map.distances(m, { P, nil, P }))
    fails("map.distances: sources must be a position {x=, y=} or a non-empty array of them, got an empty table",
      map.distances, m, { [2] = P })
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
        .. "rng, seed)" },
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

describe("hostile levels and fields", function()
  local m = map.generate { width = 20, height = 10, seed = 1 }
  local lvl = map.level(m)
  local d = lvl:distances(m.player)
  local seen = lvl:fov(2, 2)

  it("map.level, map.load and map.field name what is wrong", function()
    fails("map.level: width must be an integer >= 6, got nil", map.level)
    fails("map.level: things must be a string of characters, got 1", map.level, m, { things = 1 })
    fails('map.level: unknown option "x" (options: things)', map.level, m, { x = 1 })
    fails("map.level: expected at most 2 arguments, got 3", map.level, m, {}, 3)
    fails("map.level: row 2 has 1 cells, row 1 has 2", map.level, "ab\nc")
    fails("map.level: things must be a string of characters, got 5", map.level,
      { width = 10, height = 10, things = 5 })
    fails({ 'map.level: unknown option "thngs"', ", place, rng, things)" }, map.level,
      { width = 10, height = 10, thngs = 5 })
    fails("map.load: s must be a string, got nil", map.load)
    fails("map.load: not a saved level or field (no MAPLEVEL or MAPFIELD header)", map.load, "")
    fails("map.load: expected at most 1 argument, got 2", map.load, "x", 1)
    fails("map.field: width must be an integer >= 1, got 0", map.field, 0, 5)
    fails("map.field: width*height must be at most 4000000 cells, got 5000x5000", map.field, 5000, 5000)
    fails("map.field: width must be an integer >= 1, got 1.5", map.field, 1.5, 2)
  end)

  it("a level's methods name a bad self, cell, character or option", function()
    fails("level:get: self must be a level, got nil", lvl.get, nil, 1, 1)
    fails("level:get: self must be a level, got field", lvl.get, d, 1, 1)
    fails("level:get: x must be an integer from 1 to 20, got nil", lvl.get, lvl)
    fails("level:get: x must be an integer from 1 to 20, got 1.5", lvl.get, lvl, 1.5, 1)
    fails("level:get: expected at most 3 arguments, got 4", lvl.get, lvl, 1, 1, 1)
    fails("level:get: cell.x must be an integer from 1 to 20, got 0", lvl.get, lvl, { x = 0, y = 1 })
    fails("level:set: ch must be a one-character string, got nil", lvl.set, lvl, 1, 1)
    fails("level:set: ch must be a one-character string, got 5", lvl.set, lvl, 1, 1, 5)
    fails("level:set: expected at most 4 arguments, got 5", lvl.set, lvl, 1, 1, "#", 1)
    fails("level:occupy: x must be an integer from 1 to 20, got 21", lvl.occupy, lvl, 21, 1)
    fails("level:vacate: y must be an integer from 1 to 10, got 0", lvl.vacate, lvl, 1, 0)
    fails('level:occupied: x must be an integer from 1 to 20, got string "a"', lvl.occupied, lvl, "a", 1)
    for _, name in ipairs({ "things", "table", "render", "save", "field", "reachable" }) do
      fails("level:" .. name .. ": expected at most 1 argument, got 2", lvl[name], lvl, 1)
    end
    fails("level:fov: into must be a memory (map.field or level:field()), got number",
      lvl.fov, lvl, 2, 2, 3, { into = 5 })
    fails('level:fov: unknown option "colour" (options: into, opaque)', lvl.fov, lvl, 2, 2, 3, { colour = 1 })
    fails("level:steps: movers must be an array of positions {x=, y=}, got nil", lvl.steps, lvl, d)
    fails("level:steps: movers[1] must be a position {x=, y=}, got number", lvl.steps, lvl, d, { 5 })
    fails("level:steps: movers[1].x must be an integer from 1 to 20, got 99", lvl.steps, lvl, d, { { x = 99, y = 1 } })
    fails("level:steps: d must be a field of values (distances, flee), got a field of flags", lvl.steps, lvl, seen, {})
    fails("level:steps: d is a field of 3x3, the level is 20x10", lvl.steps, lvl,
      map.level(map.new_map(3, 3)):distances({ x = 1, y = 1 }), {})
    fails("level:steps: d must be a table of rows or a field, got number", lvl.steps, lvl, 3, {})
    fails('level:steps: unknown option "max" (options: avoid, blocked, diagonal, known, occupied)', lvl.steps, lvl,
      d, {}, { max = 3 })
    fails("level:can_step: dx must be an integer from -1 to 1, got 2", lvl.can_step, lvl, 2, 2, 2, 0)
    fails("level:can_step: dy must be an integer from -1 to 1, got nil", lvl.can_step, lvl, 2, 2, 1)
    fails('level:can_step: unknown option "avoid" (options: blocked, diagonal, occupied)', lvl.can_step, lvl, 2, 2, 1,
      0, { avoid = {} })
    fails("level:step: d must be a field of values (distances, flee), got a field of flags", lvl.step, lvl, seen, 2, 2)
    fails("level:explore: known must be a field of flags (fov, a memory), got a field of values", lvl.explore, lvl, d,
      2, 2)
    fails("level:distances: known is a field of 3x3, the level is 20x10", lvl.distances, lvl, m.player,
      { known = map.field(3, 3) })
    fails('level:sample: occupied must be a boolean, got string "yes"', lvl.sample, lvl, 1, { occupied = "yes" })
    for _, name in ipairs({ "flee", "path", "visible", "autotile" }) do
      fails("level:" .. name .. ": self must be a level, got number", lvl[name], 1)
    end
  end)

  it("a field's methods name a bad self or cell", function()
    fails("field:get: self must be a field, got number", d.get, 5, 1, 1)
    fails("field:get: self must be a field, got level", d.get, lvl, 1, 1)
    fails("field:get: x must be an integer from 1 to 20, got nil", d.get, d)
    fails("field:get: y must be an integer from 1 to 10, got 11", d.get, d, 1, 11)
    fails("field:table: expected at most 1 argument, got 2", d.table, d, 1)
    fails("field:save: expected at most 1 argument, got 2", d.save, d, 1)
  end)

  it("refuses a stolen metatable: a value given the level's by the debug library is not a level", function()
    local stolen = io.tmpfile()
    local own = debug.getmetatable(stolen)
    debug.setmetatable(stolen, debug.getmetatable(lvl))
    fails("level:get: self must be a level, got userdata", lvl.get, stolen, 1, 1)
    fails("level:get: self must be a level, got userdata", lvl.get, newproxy and newproxy(true) or stolen, 1, 1)
    debug.setmetatable(stolen, own)
    stolen:close()
  end)

  it("refuses a level used from a finalizer after its own ran (resurrected), with a message", function()
    local got = support.after_finalized(function() return map.level { width = 10, height = 10, seed = 1 } end,
      function(freed)
        local got = { pcall(freed.get, freed, 1, 1) }
        got[3] = tostring(freed)
        return got
      end)
    assert.are.same({ false, "level:get: the level was freed by the collector (used from a finalizer)",
      "map.level: freed" }, got)
  end)

  it("every method and property of a level and a field is named in map.METHODS", function()
    for kind, object in pairs({ level = lvl, field = d }) do
      assert.is_true(#map.METHODS[kind] >= 3)
      for _, name in ipairs(map.METHODS[kind]) do assert.are.equal("function", type(object[name]), name) end
    end
  end)
end)

describe("hostile toolbox: map.rng, map.scheduler, map.names", function()
  local r = map.rng(1)
  local lvl = map.level { width = 20, height = 10, seed = 1 }

  it("map.rng names a bad seed or state", function()
    for _, seed in ipairs({ 0.5, 0 / 0, 1 / 0, -1 / 0, 2 ^ 53 + 2, -2 ^ 53 - 2, 2 ^ 63, mininteger }) do
      fails("map.rng: seed must be an integer with |seed| <= 2^53, got ", map.rng, seed)
    end
    for _, value in ipairs({ true, {}, print, io.stdout, coroutine.create(print) }) do
      fails("map.rng: expected a seed (an integer with |seed| <= 2^53) or a state (rng:state()), got " .. type(value),
        map.rng, value)
    end
    fails("map.rng: state is not a saved rng (no maprng1: prefix)", map.rng, "42")
    fails("map.rng: state is not a saved rng (a version this module does not read)", map.rng, "maprng9:00")
    fails("map.rng: state is not a saved rng (79 bytes, not 80)", map.rng, r:state():sub(1, -2))
    fails("map.rng: expected at most 1 argument, got 2", map.rng, 1, 2)
  end)

  it("a source's methods name a bad self and bad arguments as math.random does, reading arrays raw", function()
    fails("rng:random: self must be an rng, got nil", r.random)
    fails("rng:random: self must be an rng, got level", r.random, lvl, 6)
    fails("rng:state: self must be an rng, got table", r.state, {})
    fails("rng:random: interval is empty (n = 0)", r.random, r, 0)
    fails("rng:random: interval is empty (n = -1)", r.random, r, -1)
    fails("rng:random: interval is empty (m = 5 > n = 3)", r.random, r, 5, 3)
    for _, case in ipairs({ { 0 / 0, "nan" }, { 1 / 0, "inf" }, { 2.5, "2.5" }, { 2 ^ 53 + 2, "9007199254740994" },
      { mininteger, "-9223372036854775808" }, { "6", 'string "6"' }, { {}, "table" }, { nil, "nil" } }) do
      fails("rng:random: n must be an integer with |n| <= 2^53, got " .. case[2], r.random, r, case[1])
      fails("rng:random: m must be an integer with |m| <= 2^53, got " .. case[2], r.random, r, case[1], 6)
      fails("rng:random: n must be an integer with |n| <= 2^53, got " .. case[2], r.random, r, 1, case[1])
    end
    fails("rng:random: expected at most 3 arguments, got 4", r.random, r, 1, 2, 3)
    fails("rng:normal: mean must be a finite number, got nan", r.normal, r, 0 / 0)
    fails("rng:normal: mean must be a finite number, got string", r.normal, r, "1")
    fails("rng:normal: sd must be a finite number, got inf", r.normal, r, 0, 1 / 0)
    fails("rng:normal: sd must be a finite number >= 0, got -1", r.normal, r, 0, -1)
    fails('rng:dice: dice must be a string like "3d6+2", got nil', r.dice, r)
    fails('rng:dice: dice must be a string like "3d6+2", got number', r.dice, r, 6)
    fails('rng:dice: "3x6" is not dice (no d): NdS, NdS+K or NdS-K, like "3d6+2" or "d%"', r.dice, r, "3x6")
    fails('rng:dice: "3d6+" is not dice (no number after the sign)', r.dice, r, "3d6+")
    fails('rng:dice: "0d6": the number of dice must be from 1 to 1000, got 0', r.dice, r, "0d6")
    fails('rng:dice: "1001d6": the number of dice must be from 1 to 1000, got 1001', r.dice, r, "1001d6")
    fails('rng:dice: "1d0": the sides must be from 1 to 2147483647, got 0', r.dice, r, "1d0")
    fails('rng:dice: "99999999999d6" is not dice (a number too long)', r.dice, r, "99999999999d6")
    fails("rng:pick: array must be an array (a table), got nil", r.pick, r)
    fails("rng:pick: array is empty: nothing to pick", r.pick, r, {})
    fails("rng:pick: array is empty: nothing to pick", r.pick, r, trap())
    fails("rng:weighted: weights must be an array (a table), got number", r.weighted, r, 1)
    fails("rng:weighted: weights is empty: nothing to draw", r.weighted, r, {})
    fails("rng:weighted: weights are all zero: nothing to draw", r.weighted, r, { 0, 0, 0 })
    fails("rng:weighted: weights[2] must be a finite number >= 0, got -1", r.weighted, r, { 1, -1 })
    fails("rng:weighted: weights[1] must be a finite number >= 0, got nan", r.weighted, r, { 0 / 0 })
    fails("rng:weighted: weights[1] must be a finite number >= 0, got inf", r.weighted, r, { 1 / 0 })
    fails('rng:weighted: weights[1] must be a finite number >= 0, got string "1"', r.weighted, r, { "1" })
    fails("rng:weighted: weights[3] must be a finite number >= 0, got nil", r.weighted, r, { 1, 2, nil, 4 })
    fails("rng:shuffle: array must be an array (a table), got string", r.shuffle, r, "abc")
    fails("rng:shuffle: array[3] is nil: shuffle takes an array without holes", r.shuffle, r, { 1, 2, nil, 4 })
    fails("rng:fill: t must be a table, got nil", r.fill, r)
    fails("rng:fill: count must be an integer from 0 to 16777216, got -1", r.fill, r, {}, -1)
    fails("rng:fill: count must be an integer from 0 to 16777216, got 16777217", r.fill, r, {}, 2 ^ 24 + 1)
    fails("rng:fill: count must be an integer from 0 to 16777216, got nan", r.fill, r, {}, 0 / 0)
    fails("rng:fill: interval is empty (n = 0)", r.fill, r, {}, 3, 0)
    fails("rng:fill: m must be an integer with |m| <= 2^53, got 0.5", r.fill, r, {}, 3, 0.5, 2)
    fails("rng:fill: expected at most 5 arguments, got 6", r.fill, r, {}, 3, 1, 2, 3)
    fails("rng:state: expected at most 1 argument, got 2", r.state, r, 1)
    fails("rng:clone: expected at most 1 argument, got 2", r.clone, r, 1)
  end)

  it("generate, map.level and sample name a bad rng, and rng given with seed", function()
    for _, fn in ipairs({ "generate", "generate_text", "generate_json", "level" }) do
      fails(("map.%s: rng must be a random source (map.rng), got number"):format(fn), map[fn],
        { width = 20, height = 10, rng = 5 })
      fails(("map.%s: rng must be a random source (map.rng), got level"):format(fn), map[fn],
        { width = 20, height = 10, rng = lvl })
      fails(("map.%s: seed and rng are exclusive: give one"):format(fn), map[fn],
        { width = 20, height = 10, rng = r, seed = 1 })
    end
    local m = map.generate(20, 10, 1)
    fails("map.sample: rng must be a random source (map.rng), got table", map.sample, m, 2, { rng = {} })
    fails("map.sample: seed and rng are exclusive: give one", map.sample, m, 2, { rng = r, seed = 1 })
    fails("level:sample: rng must be a random source (map.rng), got string", lvl.sample, lvl, 2, { rng = "r" })
  end)

  it("map.scheduler and a scheduler's methods name a bad state, actor, speed or delay", function()
    fails("map.scheduler: state must be a string from scheduler:state(), got number", map.scheduler, 5)
    fails("map.scheduler: state must be a string from scheduler:state(), got nil", map.scheduler, nil, {})
    fails("map.scheduler: state is not a saved scheduler (no mapsched1: prefix)", map.scheduler, "x", {})
    fails("map.scheduler: state is not a saved scheduler (checksum mismatch: damaged)", map.scheduler,
      "mapsched1:0:00000000", {})
    fails("map.scheduler: expected at most 2 arguments, got 3", map.scheduler, "x", {}, 1)
    local s = map.scheduler()
    s:add("a", 1)
    fails("scheduler:next: self must be a scheduler, got number", s.next, 5)
    fails("scheduler:add: self must be a scheduler, got rng", s.add, r, "b", 1)
    fails("scheduler:add: actor must not be nil", s.add, s, nil, 1)
    fails("scheduler:add: actor must not be NaN", s.add, s, 0 / 0, 1)
    for _, case in ipairs({ { nil, "nil" }, { 0, "0" }, { -1, "-1" }, { 0 / 0, "nan" }, { 1 / 0, "inf" },
      { 2 ^ 21, "2097152" }, { 2 ^ -21, "0.000000476837158203125" }, { "1", 'string "1"' }, { {}, "table" } }) do
      fails("scheduler:add: speed must be a number from 2^-20 to 2^20, got " .. case[2], s.add, s, "b", case[1])
    end
    fails("scheduler:add: actor is already in the scheduler (remove it first)", s.add, s, "a", 2)
    fails("scheduler:add: expected at most 3 arguments, got 4", s.add, s, "b", 1, 1)
    fails("scheduler:remove: actor must not be nil", s.remove, s)
    fails("scheduler:delay: actor is not in the scheduler", s.delay, s, "b", 1)
    fails("scheduler:delay: t must be a number from 0 to 2^53, got -1", s.delay, s, "a", -1)
    fails("scheduler:delay: t must be a number from 0 to 2^53, got nan", s.delay, s, "a", 0 / 0)
    fails("scheduler:delay: t must be a number from 0 to 2^53, got 18014398509481984", s.delay, s, "a", 2 ^ 54)
    fails("scheduler:delay: the time would pass 9007199254740992 turns", s.delay, s, "a", 2 ^ 53)
    fails("scheduler:time: expected at most 1 argument, got 2", s.time, s, 1)
    assert.are.same({ "a", 1 }, { s:next() }, "every refused call left it as it was")
  end)

  it("map.names and g:name name bad examples, options and sources", function()
    fails("map.names: examples must be an array of words (strings), got nil", map.names)
    fails("map.names: examples is empty: give at least one word", map.names, {})
    fails("map.names: examples is empty: give at least one word", map.names, trap())
    fails("map.names: examples[2] must be a string, got number", map.names, { "Ab", 5 })
    fails("map.names: examples[1] is empty", map.names, { "" })
    fails("map.names: examples[1] is not UTF-8 text", map.names, { "\255" })
    fails('map.names: examples[1] has "2": words are of letters, \', - and spaces', map.names, { "R2D2" })
    fails("map.names: examples[1] has no letter", map.names, { "--" })
    fails("map.names: order must be an integer from 1 to 8, got 0", map.names, { "Ab" }, { order = 0 })
    fails("map.names: order must be an integer from 1 to 8, got 9", map.names, { "Ab" }, { order = 9 })
    fails("map.names: min must be an integer from 1 to 1024, got 0", map.names, { "Ab" }, { min = 0 })
    fails("map.names: max must be an integer from 1 to 1024, got 2000", map.names, { "Ab" }, { max = 2000 })
    fails("map.names: novel must be a boolean, got 1", map.names, { "Ab" }, { novel = 1 })
    fails('map.names: unknown option "colour" (options: max, min, novel, order)', map.names, { "Ab" }, { colour = 1 })
    fails("map.names: options must be a table, got number", map.names, { "Ab" }, 5)
    fails("map.names: expected at most 2 arguments, got 3", map.names, { "Ab" }, {}, 1)
    local g = map.names({ "Aerandir", "Amroth", "Aranwe", "Beleg", "Celeborn", "Cirdan", "Daeron" })
    fails("names:name: self must be a names generator, got nil", g.name)
    fails("names:name: self must be a names generator, got rng", g.name, r)
    fails("names:name: expected a random source (map.rng) or a seed, got string", g.name, g, "x")
    fails("names:name: expected a random source (map.rng) or a seed, got level", g.name, g, lvl)
    fails("names:name: seed must be an integer with |seed| <= 2^53, got 0.5", g.name, g, 0.5)
    fails("names:name: expected at most 2 arguments, got 3", g.name, g, 1, 2)
  end)

  it("refuses a source, scheduler or generator used from a finalizer after its own ran", function()
    local function make()
      return { r = map.rng(1), s = map.scheduler(),
        g = map.names({ "Aerandir", "Amroth", "Aranwe", "Beleg", "Celeborn", "Cirdan", "Daeron" }) }
    end
    local got = support.after_finalized(make, function(freed)
      return {
        select(2, pcall(freed.r.random, freed.r)),
        select(2, pcall(freed.s.next, freed.s)),
        select(2, pcall(freed.g.name, freed.g, 1)),
        select(2, pcall(map.generate, { width = 20, height = 10, rng = freed.r })),
        tostring(freed.r) .. ", " .. tostring(freed.s) .. ", " .. tostring(freed.g),
      }
    end)
    assert.are.same({ "rng:random: the rng was freed by the collector (used from a finalizer)",
      "scheduler:next: the scheduler was freed by the collector (used from a finalizer)",
      "names:name: the names generator was freed by the collector (used from a finalizer)",
      "map.generate: rng must be a random source (map.rng), got a freed rng",
      "map.rng: freed, map.scheduler: freed, map.names: freed" }, got)
  end)

  it("every method of a source, a scheduler and a generator is named in map.METHODS", function()
    local s, g = map.scheduler(), map.names({ "Aerandir", "Amroth", "Aranwe", "Beleg", "Celeborn", "Cirdan" })
    for kind, object in pairs({ rng = r, scheduler = s, names = g }) do
      for _, name in ipairs(map.METHODS[kind]) do assert.are.equal("function", type(object[name]), name) end
    end
  end)
end)
