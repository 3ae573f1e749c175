-- Hostile values and the bad calls several manifests share (spec/exports/,
-- spec/natives/): each builder returns a list of bad calls, {message,
-- function(f)}, for the manifest's `bad`, made for the export or method
-- whose label it is given ("map.fov", "level:fov"). The cases are those
-- spec/hostile_spec.lua made in its loops.
local support = require "spec.support"

local M = {}

M.mininteger = math.mininteger or -2 ^ 63

-- A table whose metamethods raise: the module must read it raw.
function M.trap()
  local boom = function() error("metamethod called") end
  return setmetatable({}, { __index = boom, __newindex = boom, __len = boom, __pairs = boom })
end

-- A table given trap()'s metatable.
function M.trapped(t) return setmetatable(t, getmetatable(M.trap())) end

-- Values that are not valid sizes, with how the error describes them.
M.BAD_NUMBERS = {
  { nil, "nil" }, { true, "boolean" }, { "60", 'string "60"' }, { "abc", 'string "abc"' },
  { print, "function" }, { coroutine.create(print), "thread" }, { io.stdout, "userdata" },
  { 0, "0" }, { -1, "-1" }, { 0.5, "0.5" }, { 0 / 0, "nan" }, { 1 / 0, "inf" }, { -1 / 0, "-inf" },
  { M.mininteger, "-9223372036854775808" }, { 2 ^ 63, "9223372036854776000" },
}

-- Numbers that are integers but too large for a map, as errors show them.
M.HUGE = { { 2 ^ 53, "9007199254740992" }, { 2 ^ 40, "1099511627776" }, { 1e15, "1000000000000000" },
  { 4000001, "4000001" } }

-- Coordinates outside the 5x3 room, not integers or not numbers: x, y and
-- the message that names them (as "x"; a caller renames it).
M.COORDS = {
  { 0, 1, "x must be an integer from 1 to 5, got 0" },
  { 6, 1, "x must be an integer from 1 to 5, got 6" },
  { 1, 0, "y must be an integer from 1 to 3, got 0" },
  { 1, 4, "y must be an integer from 1 to 3, got 4" },
  { 1.5, 1, "x must be an integer from 1 to 5, got 1.5" },
  { 2, 0.5, "y must be an integer from 1 to 3, got 0.5" },
  { -2 ^ 53, 1, "x must be an integer from 1 to 5, got -9007199254740992" },
  { "2", 2, 'x must be an integer from 1 to 5, got string "2"' },
  { nil, 2, "x must be an integer from 1 to 5, got nil" },
  { 2, true, "y must be an integer from 1 to 3, got boolean" },
  { 0 / 0, 2, "x must be an integer from 1 to 5, got nan" },
  { 1 / 0, 2, "x must be an integer from 1 to 5, got inf" },
}

-- Every option name of the algorithms, in the order the module lists
-- them: each algorithm's own, then items, which every algorithm takes (last
-- in each description).
function M.option_names()
  local map = require "map"
  local names, seen = {}, { items = true }
  for _, algorithm in ipairs(map.ALGORITHMS) do
    for _, option in ipairs(map.describe(algorithm).options) do
      if not seen[option.name] then
        seen[option.name] = true
        names[#names + 1] = option.name
      end
    end
  end
  names[#names + 1] = "items"
  return names
end

-- Appends the items of `more` to `list`; returns `list`.
function M.append(list, more)
  for _, item in ipairs(more) do list[#list + 1] = item end
  return list
end

-- A bad call of `call` with these arguments (a list; `n` its length when
-- it ends in nils).
function M.with(message, call, args)
  local n = args.n or #args
  return { message, function() return call((table.unpack or unpack)(args, 1, n)) end }
end

-- Bad widths and heights of `call(width, height, ...)` (the smallest
-- width `min`, height `min_height`, default `min`), sizes over MAX_CELLS
-- and one argument too many (of `most`).
function M.sizes(label, min, most, call, min_height)
  min_height = min_height or min
  local list = {}
  for _, case in ipairs(M.BAD_NUMBERS) do
    local value, shown = case[1], case[2]
    if type(value) ~= "number" or value < min or value ~= value or value % 1 ~= 0 or value > 2 ^ 62 then
      list[#list + 1] = M.with(("%s: width must be an integer >= %d, got %s"):format(label, min, shown), call,
        { value, 20 })
      list[#list + 1] = M.with(("%s: height must be an integer >= %d, got %s"):format(label, min_height, shown),
        call, { 60, value })
    end
  end
  for _, case in ipairs(M.HUGE) do
    list[#list + 1] = M.with(("%s: width*height must be at most 4000000 cells, got %sx60"):format(label, case[2]),
      call, { case[1], 60 })
  end
  list[#list + 1] = M.with(("%s: expected at most %d arguments, got 4"):format(label, most), call, { 60, 20, 1, 2 })
  return list
end

-- Seeds that are not nil or an integer with |seed| <= 2^53.
function M.seeds(label, call)
  local list = {}
  local bad = { { true, "boolean" }, { "42", 'string "42"' }, { 0.5, "0.5" }, { 0 / 0, "nan" }, { 1 / 0, "inf" },
    { -1 / 0, "-inf" }, { 2 ^ 53 + 2, "9007199254740994" }, { -2 ^ 53 - 2, "-9007199254740994" },
    { 2 ^ 63, "9223372036854776000" }, { M.mininteger, "-9223372036854775808" }, { {}, "table" },
    { print, "function" } }
  for _, case in ipairs(bad) do
    list[#list + 1] = M.with(("%s: seed must be an integer with |seed| <= 2^53, got %s"):format(label, case[2]), call,
      { 60, 20, case[1] })
  end
  return list
end

-- generate's options table: unknown names, names that are not strings,
-- values of the wrong type or out of range, unknown algorithms; one
-- argument too many.
function M.generate_options(label, call)
  local map = require "map"
  local list_text = support.ALGORITHM_LIST
  local function range(algorithm, name)
    for _, option in ipairs(map.describe(algorithm).options) do
      if option.name == name then return ("from %d to %d"):format(option.min, option.max) end
    end
  end
  local items, max_frontier = range("rooms", "items"), range("cave", "max_frontier")
  local cases = {
    { { width = 60, height = 20, [1] = 5 }, "option names must be strings, got 1" },
    { { width = 60, height = 20, [true] = 5 }, "option names must be strings, got boolean" },
    { { width = "60", height = 20 }, 'width must be an integer >= 6, got string "60"' },
    { { width = 60, height = 20, items = "5" }, "items must be an integer " .. items .. ', got string "5"' },
    { { width = 60, height = 20, rooms = true }, "rooms must be an integer from 1 to 10000, got boolean" },
    { { width = 60, height = 20, rooms = 10001 }, "rooms must be an integer from 1 to 10000, got 10001" },
    { { width = 60, height = 20, algorithm = 1 }, "algorithm must be " .. list_text .. ", got 1" },
    { { width = 60, height = 20, algorithm = "CAVE" }, "algorithm must be " .. list_text .. ', got string "CAVE"' },
    { { width = 60, height = 20, algorithm = "" }, "algorithm must be " .. list_text .. ', got string ""' },
    { { width = 60, height = 20, algorithm = "rooms\0" },
      "algorithm must be " .. list_text .. ', got string "rooms\\0"' },
    { { width = 60, height = 20, algorithm = {} }, "algorithm must be " .. list_text .. ", got table" },
    { { width = 60, height = 20, algorithm = "cave", fill = "x" }, 'fill must be a number in (0, 1], got string "x"' },
    { { width = 60, height = 20, algorithm = "cave", max_frontier = {} },
      "max_frontier must be an integer " .. max_frontier .. ", got table" },
    { { width = 60, height = 20, items = 1e9 }, "items must be an integer " .. items .. ", got 1000000000" },
  }
  local list = {}
  for _, case in ipairs(cases) do list[#list + 1] = M.with(label .. ": " .. case[2], call, { case[1] }) end
  list[#list + 1] = M.with(label .. ": expected at most 1 argument, got 2", call, { { width = 60, height = 20 }, 1 })
  return list
end

-- A bad cell of a function that takes one as x, y (`xy(x, y)`) and as a
-- position (`pos(cell)`): `name` what the cell stands for ("origin"), `xn`
-- and `yn` the coordinates' names, `w` and `h` the map's size.
function M.cells(label, xy, pos, name, xn, yn, w, h)
  local X = ("must be an integer from 1 to %d, got "):format(w)
  local Y = ("must be an integer from 1 to %d, got "):format(h)
  local list = {}
  local function add(message, f) list[#list + 1] = { message, f } end
  for _, case in ipairs(M.BAD_NUMBERS) do
    local value, shown = case[1], case[2]
    if value ~= nil then
      add(("%s: %s %s%s"):format(label, xn, X, shown), function(f) return xy(f, value, 1) end)
      add(("%s: %s %s%s"):format(label, yn, Y, shown), function(f) return xy(f, 1, value) end)
      add(("%s: %s.x %s%s"):format(label, name, X, shown), function(f) return pos(f, { x = value, y = 1 }) end)
      add(("%s: %s.y %s%s"):format(label, name, Y, shown), function(f) return pos(f, { x = 1, y = value }) end)
    end
  end
  add(("%s: %s %snil"):format(label, yn, Y), function(f) return xy(f, 1, nil) end)
  add(("%s: %s.x %snil"):format(label, name, X), function(f) return pos(f, {}) end)
  add(("%s: %s.x %snil"):format(label, name, X), function(f) return pos(f, M.trap()) end)
  add(("%s: %s.x %sstring \"2\""):format(label, name, X), function(f) return pos(f, { x = "2", y = 2 }) end)
  for _, case in ipairs(M.HUGE) do
    add(("%s: %s.x %s%s"):format(label, name, X, case[2]), function(f) return pos(f, { x = case[1], y = 1 }) end)
  end
  return list
end

-- Maps that are not maps, with what a function reading one says.
function M.not_maps()
  local row = { "#", "#" }
  return {
    { nil, "map must be a table of rows, got nil" },
    { "#", "map must be a table of rows, got string" },
    { "##", "map must be a table of rows, got string" },
    { 42, "map must be a table of rows, got number" },
    { print, "map must be a table of rows, got function" },
    { {}, "map has no rows" },
    { M.trap(), "map has no rows" },
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
    { { { "#", M.trap() } }, "cell [1][2] must be a one-character string, got table" },
  }
end

-- A map whose `blocked` is not a string (every function that walks names it).
function M.blocked_map(blocked)
  local m = support.from_text("@.>")
  m.blocked = blocked
  return m
end

-- The searches' avoid, known and max, bad: {options, message}; `unknown`
-- with the cases a function without `factor` names as unknown.
function M.limits(w, h)
  local P = { x = 2, y = 2 }
  local AVOID = "avoid must be a position {x=, y=} or an array of them, got "
  return {
    { { avoid = 5 }, AVOID .. "number" }, { { avoid = "x" }, AVOID .. "string" },
    { { avoid = true }, AVOID .. "boolean" },
    { { avoid = { 5 } }, "avoid[1] must be a position {x=, y=}, got number" },
    { { avoid = { P, { x = 0, y = 1 } } }, ("avoid[2].x must be an integer from 1 to %d, got 0"):format(w) },
    { { avoid = { x = 2 } }, ("avoid.y must be an integer from 1 to %d, got nil"):format(h) },
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
  }
end

-- Bad start values of the sources of distances and flee (`call(sources)`
-- on the 5x3 room).
function M.start_values(label, call)
  local V = "must be an integer with |value| <= 2^52, got "
  local P = { x = 2, y = 2 }
  local bad = { { 1.5, "1.5" }, { "1", 'string "1"' }, { true, "boolean" }, { {}, "table" }, { 0 / 0, "nan" },
    { 2 ^ 53 + 2, "9007199254740994" }, { -2 ^ 54, "-18014398509481984" }, { 1 / 0, "inf" } }
  local list = {}
  for _, case in ipairs(bad) do
    list[#list + 1] = { ("%s: sources.value %s%s"):format(label, V, case[2]),
      function(f) return call(f, { x = 2, y = 2, value = case[1] }) end }
    list[#list + 1] = { ("%s: sources[2].value %s%s"):format(label, V, case[2]),
      function(f) return call(f, { P, { x = 3, y = 2, value = case[1] } }) end }
  end
  return list
end

-- distances' and path's options, bad (`call(f, options)` on the 5x3 room):
-- costs, blocked, diagonal, options of another function.
-- With `charged` (distances and path), diagonal may be a step's cost,
-- and straight is one.
function M.walk_options(label, call, charged)
  local COST = 'cost["."] must be an integer from 1 to 1073741824, got '
  local KEYS = "cost keys must be one-character strings, got "
  local cases = {
    { { cost = { ["."] = 0 } }, COST .. "0" },
    { { cost = { ["."] = -1 } }, COST .. "-1" },
    { { cost = { ["."] = 1.5 } }, COST .. "1.5" },
    { { cost = { ["."] = "2" } }, COST .. 'string "2"' },
    { { cost = { [".."] = 2 } }, KEYS .. 'string ".."' },
    { { cost = { [""] = 2 } }, KEYS .. 'string ""' },
    { { cost = { [1] = 2 } }, KEYS .. "1" },
    { { cost = "." }, "cost must be a table from characters to integers, got string" },
    { { cost = 1 }, "cost must be a table from characters to integers, got number" },
    { { blocked = 5 }, "blocked must be a string of characters, got 5" },
    { { blocked = {} }, "blocked must be a string of characters, got table" },
    { { diagonal = "yes" }, 'diagonal must be a boolean, got string "yes"' },
  }
  if charged then
    local FACTOR = " must be an integer from 1 to 1073741824, got "
    cases[#cases] = { { diagonal = "yes" },
      'diagonal must be a boolean or an integer from 1 to 1073741824, got string "yes"' }
    cases[#cases + 1] = { { diagonal = 0 }, "diagonal must be a boolean or an integer from 1 to 1073741824, got 0" }
    cases[#cases + 1] = { { diagonal = 2 ^ 31 },
      "diagonal must be a boolean or an integer from 1 to 1073741824, got 2147483648" }
    cases[#cases + 1] = { { straight = -2 }, "straight" .. FACTOR .. "-2" }
    cases[#cases + 1] = { { straight = 2.5 }, "straight" .. FACTOR .. "2.5" }
    cases[#cases + 1] = { { straight = true }, "straight" .. FACTOR .. "boolean" }
    cases[#cases + 1] = { { straight = 2 ^ 20, diagonal = 1, cost = { ["."] = 2 ^ 11 } },
      "the costliest step (cost 2048, times 1048576) is 2147483648: it must be at most 1073741824" }
  end
  local list = {}
  for _, case in ipairs(cases) do
    list[#list + 1] = { label .. ": " .. case[2], function(f) return call(f, case[1]) end }
  end
  return list
end

-- generate's and map.level's rng option: not a source, a level, with a seed.
function M.rng_option(label, call)
  return {
    { label .. ": rng must be a random source (map.rng), got number",
      function() return call({ width = 20, height = 10, rng = 5 }) end },
    { label .. ": rng must be a random source (map.rng), got level",
      function(f) return call({ width = 20, height = 10, rng = f.generated20 }) end },
    { label .. ": seed and rng are exclusive: give one",
      function(f) return call({ width = 20, height = 10, rng = f.r, seed = 1 }) end },
  }
end

-- `use(object)` on an object of `make()` after its own finalizer ran (from
-- a later finalizer), raising what `use` raises; `use`'s results when it
-- does not.
function M.freed(make, use)
  local got = support.after_finalized(make, function(freed) return { pcall(use, freed) } end)
  if got[1] then return (table.unpack or unpack)(got, 2) end
  error(got[2], 0)
end

return M
