-- Every export and every method of a native against bad and hostile
-- arguments, on Lua 5.4 and LuaJIT, read from the manifests
-- (spec/exports/<name>.lua, spec/natives/<kind>.lua; spec/manifests.lua):
-- each bad call must raise exactly its message (a string that names the
-- function and the bad argument), and what a function must take (traps
-- read raw, bounds) it takes. Then the sweeps that are about no one
-- function, over the manifests and map.describe: every algorithm's options,
-- maps that are not maps (for every function that reads one), designs;
-- objects of every native kind; a panic; and a finalizer storm inside
-- every call. No export or method is named here.
local map = require "map"
local support = require "spec.support"
local manifests = require "spec.manifests"
local fixtures = require "spec.exports.fixtures"
local hostile = require "spec.hostile_cases"

local word_list, quoted = support.word_list, support.quoted
local trap = hostile.trap

local ENTRIES = manifests.entries()
-- The exports whose with_options takes generate's options table, and the
-- functions that read a map.
local GENERATING, READERS = {}, {}
for _, entry in ipairs(ENTRIES) do
  if entry.fields.generate_options then GENERATING[#GENERATING + 1] = entry end
  if type(entry.fields.reads_map) == "function" then READERS[#READERS + 1] = entry end
end

-- The entry's call with generate's options, on fresh fixtures.
local function with_options(entry)
  return function(options) return entry.fields.with_options(fixtures.fresh(), options) end
end

-- Every option name, in the order the module lists them: each algorithm's
-- own, then items, which every algorithm takes (last in each description).
local OPTION_NAMES = hostile.option_names()

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

describe("the bad calls of every export and method (its manifest's bad)", function()
  assert(#ENTRIES > 0)
  for _, entry in ipairs(ENTRIES) do
    it(entry.label .. " raises each bad call's exact message", function()
      local bad = entry.fields.bad
      assert(type(bad) == "table" and #bad > 0, ("%s: %s has no bad calls"):format(entry.path, entry.label))
      for i, case in ipairs(bad) do
        local where = ("%s: %s, bad call %d"):format(entry.path, entry.label, i)
        assert(type(case[1]) == "string" and type(case[2]) == "function",
          where .. ' is not { "<exact message>", function(f) }')
        local ok, err = pcall(case[2], fixtures.fresh())
        assert(not ok, ("%s returned, where it must raise %q"):format(where, tostring(case[1])))
        assert(type(err) == "string", ("%s raised a %s, not a string"):format(where, type(err)))
        assert(err == case[1], ("%s raised %q, not %q"):format(where, err, tostring(case[1])))
      end
    end)
    if entry.fields.accepts then
      it(entry.label .. " takes what it must (traps read raw, bounds; its manifest's accepts)", function()
        for _, accept in ipairs(entry.fields.accepts) do accept(fixtures.fresh()) end
      end)
    end
  end
end)

describe("hostile options of every algorithm (from map.describe)", function()
  -- Values of the wrong type for each kind of option, with how errors show them.
  local WRONG = {
    integer = { { "5", 'string "5"' }, { true, "boolean" }, { 1.5, "1.5" }, { 0 / 0, "nan" }, { 1 / 0, "inf" },
      { -1 / 0, "-inf" }, { {}, "table" }, { print, "function" } },
    number = { { "0.5", 'string "0.5"' }, { true, "boolean" }, { 0 / 0, "nan" }, { 1 / 0, "inf" },
      { -1 / 0, "-inf" }, { {}, "table" }, { print, "function" } },
    boolean = { { 1, "1" }, { 0, "0" }, { "true", 'string "true"' }, { "false", 'string "false"' },
      { 0 / 0, "nan" }, { {}, "table" } },
    string = { { 1, "1" }, { true, "boolean" }, { 0 / 0, "nan" }, { {}, "table" }, { print, "function" } },
  }
  local function number_text(x) return string.format("%.14g", x) end

  for _, algorithm in ipairs(map.ALGORITHMS) do
    local d = map.describe(algorithm)

    it(algorithm .. ": names each option given a bad type or a value out of range", function()
      for _, option in ipairs(d.options) do
        local bad, expected = {}
        for _, case in ipairs(WRONG[option.type]) do
          -- A table is an array of rows where the option takes rows (example_rows_spec.lua).
          if not (option.rows and type(case[1]) == "table") then bad[#bad + 1] = case end
        end
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
        elseif option.type == "string" then
          -- One that takes rows (map.describe's rows) says so.
          expected = option.name .. (option.rows and " must be a string or an array of strings (its rows), got "
            or " must be a string, got ")
        else
          expected = option.name .. " must be a boolean, got "
        end
        for _, case in ipairs(bad) do
          for _, entry in ipairs(GENERATING) do
            local opts = { width = 30, height = 12, seed = 1, algorithm = algorithm, [option.name] = case[1] }
            fails(("%s: %s%s"):format(entry.label, expected, case[2]), with_options(entry), opts)
          end
        end
      end
    end)

    it(algorithm .. ": refuses sizes below its minimum and options of other algorithms", function()
      for _, entry in ipairs(GENERATING) do
        fails(("%s: width must be an integer >= %d, got %d"):format(entry.label, d.min_width, d.min_width - 1),
          with_options(entry), { width = d.min_width - 1, height = 40, algorithm = algorithm })
        fails(("%s: height must be an integer >= %d, got %d"):format(entry.label, d.min_height, d.min_height - 1),
          with_options(entry), { width = 40, height = d.min_height - 1, algorithm = algorithm })
      end
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
            for _, entry in ipairs(GENERATING) do
              assert.are.same(with_options(entry)(plain), with_options(entry)(given), name)
            end
            value = support.option_value(option, support.other_value(option))
          end
          local message = ("option %s applies only to algorithm%s %s"):format(name, #takers == 1 and "" or "s",
            word_list(quoted(takers)))
          for _, entry in ipairs(GENERATING) do
            local ok, err = pcall(with_options(entry), { width = 30, height = 12, algorithm = algorithm,
              [name] = value })
            assert.is_false(ok)
            assert.are.equal(("%s: %s"):format(entry.label, message), err)
          end
        end
      end
    end)
  end

  it("reports the bytewise smallest unknown option name, whatever the table's order", function()
    local unknown = { "zeta", "alpha", "beta", "_x", "a b", "\255", "Zz", "Beta", "colour", "ROOMS" }
    local message = 'unknown option "Beta" (options: width, height, seed, algorithm, '
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
          for _, entry in ipairs(GENERATING) do
            local ok, err = pcall(with_options(entry), opts)
            assert.is_false(ok)
            assert.are.equal(entry.label .. ": " .. message, err)
          end
        end
      end
    end
  end)
end)

describe("maps that are not maps", function()
  local NOT_MAPS = hostile.not_maps()
  assert(#READERS > 0)
  -- Every function that reads a map (its manifest's reads_map: the call
  -- with the map alone).
  for _, entry in ipairs(READERS) do
    it(entry.label .. " names what is wrong", function()
      for _, case in ipairs(NOT_MAPS) do
        fails(("%s: %s"):format(entry.label, case[2]), entry.fields.reads_map, case[1])
      end
    end)
  end

  it("refuses a map of aliased rows over MAX_CELLS without copying it", function()
    local wide = {}
    for x = 1, 2001 do wide[x] = "." end
    local rows = {}
    for y = 1, 2000 do rows[y] = wide end
    for _, entry in ipairs(READERS) do
      fails(("%s: map has more than 4000000 cells (2001x2000)"):format(entry.label), entry.fields.reads_map, rows)
    end
  end)
end)

describe("the natives of every kind (map.METHODS)", function()
  -- The objects the samples of a kind's methods are called on.
  local objects = {}
  for _, entry in ipairs(ENTRIES) do
    if entry.method then
      for _, sample in ipairs(entry.fields.samples or {}) do
        local object = sample(fixtures.fresh())
        objects[entry.kind] = objects[entry.kind] or {}
        table.insert(objects[entry.kind], object)
      end
    end
  end
  for _, kind in ipairs(manifests.kinds()) do
    it(kind .. ": every method is named in map.METHODS, and each object has them all", function()
      assert.is_true(#map.METHODS[kind] >= 1)
      assert.is_true(#(objects[kind] or {}) >= 1, kind .. ": no sample object")
      for _, object in ipairs(objects[kind]) do
        for _, name in ipairs(map.METHODS[kind]) do
          assert.are.equal("function", type(object[name]), kind .. ":" .. name)
        end
      end
    end)
  end
end)

describe("hostile vaults, arrive and place", function()
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
  local designs = {
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
    { { place = "M" }, "place must be an array of {char=, count=, min=, hidden=, per_room=, choose=}, got string" },
    { { place = { char = "M" } }, 'place must be an array, but has the key "char"' },
    { { place = { "M" } }, "place[1] must be a table {char=, count=, min=, hidden=, per_room=, choose=}, got string" },
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
      'place[1] has an unknown field "kind" (fields: char, count, min, hidden, per_room, choose)' },
    { { place = { { char = "M", count = 6000 }, { char = "N", count = 4001 } } },
      "place asks for 10001 cells in all, at most 10000" },
    { { place = many }, "place has 101 entries, at most 100" },
    { { place = { { char = "M", count = 5000 } } }, 'place[1]: cannot place 5000 "M": only ' },
    { { place = { { char = "M", count = 1, min = 4000000 } } },
      'place[1]: cannot place 1 "M": only 0 free floor cells at walking distance >= 4000000 from @' },
    { { items = 300, place = { { char = "M", count = 300 } } }, 'place[1]: cannot place 300 "M": only ' },
  }
  for _, entry in ipairs(GENERATING) do
    it(entry.label .. " names what is wrong, the same on every interpreter", function()
      for _, case in ipairs(designs) do
        local opts = { width = 40, height = 20, seed = 1 }
        for k, v in pairs(case[1]) do opts[k] = v end
        fails(("%s: %s"):format(entry.label, case[2]), with_options(entry), opts)
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
    for _, entry in ipairs(GENERATING) do
      assert.are.same(with_options(entry)(plain), with_options(entry)(opts), entry.label)
    end
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
-- The module still works: every sample call of every export.
local manifests, fixtures = require "spec.manifests", require "spec.exports.fixtures"
local ok = true
for _, entry in ipairs(manifests.exports()) do
  for _, sample in ipairs(entry.fields.samples) do ok = pcall(sample, fixtures.fresh()) and ok end
end
print(ok)
]]

  it("is not in the normal build", function()
    assert.is_nil(map._panic_probe)
    assert.is_nil(map._reads)
    assert.is_nil(map._faults)
  end)

  it("surfaces as a string error, prints nothing, and the interpreter keeps running", function()
    local out, err, code = support.run_with_probe(CHILD)
    local raised = "false\tstring\tmap._panic_probe: internal error (please report): probe\n"
    assert.are.same({ raised:rep(3) .. "true\n", "", 0 }, { out, err, code })
  end)
end)

describe("an error a debug hook raises inside a call", function()
  -- The hook errs at the first line it sees of the module's own Lua code,
  -- inside the call (Lua 5.4's row maker, LuaJIT's route: "=map/...").
  it("is prefixed by the call's name, on both interpreters", function()
    debug.sethook(function()
      if debug.getinfo(2, "S").source:sub(1, 5) == "=map/" then
        debug.sethook()
        error("from the hook", 0)
      end
    end, "", 1)
    local ok, err = pcall(map.generate, { width = 20, height = 10, seed = 1, algorithm = "cave" })
    debug.sethook()
    assert.are.same({ false, "map.generate: from the hook" }, { ok, err })
  end)
end)

describe("a finalizer storm", function()
  -- Thousands of finalizers are pending while the collector steps at every
  -- allocation, so some run inside each call. Armed, the first to run
  -- changes what the call is reading (fixtures.change: a map shrinks, an
  -- option turns into a number, a source vanishes) or raises an error. The
  -- call must return a result or a string error: no crash, no abort, no
  -- internal error. The calls are every manifest's storm (an export's, its
  -- method form's, every method's), on the fixtures it reads, made before
  -- it is armed.
  local PENDING, ROUNDS = 300, 20
  local inside = 0 -- calls inside which a finalizer ran

  local CHANGES = {
    change = fixtures.change,
    raise = function() error("raised by a finalizer") end,
  }
  local CHANGE_ORDER = { "change", "raise" }

  for _, entry in ipairs(ENTRIES) do
    local storm = entry.fields.storm
    local calls = type(storm) == "function" and { storm } or type(storm) == "table" and storm or {}
    for i, call in ipairs(calls) do
      local label = #calls > 1 and ("%s #%d"):format(entry.label, i) or entry.label
      for _, change_name in ipairs(CHANGE_ORDER) do
        local change = CHANGES[change_name]
        it(label .. ": a finalizer that does " .. change_name, function()
          local keys = fixtures.reads(call)
          local errors = {}
          support.eager_collector()
          for _ = 1, ROUNDS do
            local a, armed = fixtures.fresh(keys), false
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
  end

  it("ran finalizers inside the calls", function()
    assert.is_true(inside > 0)
  end)
end)
