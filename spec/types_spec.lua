-- types/map.d.lua, the editors' definitions, against the module itself, with
-- no drift either way: the exports, each algorithm's options as map.describe
-- lists them (with the same words), the options each function takes (as its
-- "unknown option" message lists them), and what every function returns,
-- every declared field of the level and the descriptions met at least once.
-- tests/types/check.sh runs a type checker with them over the code.
local map = require "map"
local json = require "dkjson"
local support = require "spec.support"
local definitions = require "tests.types.definitions"
package.path = "lua/?.lua;" .. package.path
local args = require "map.args"

local defs = definitions.read(support.read_file("types/map.d.lua"))

local function names_of(fields)
  local out = {}
  for i, field in ipairs(fields) do out[i] = field.name end
  return out
end

local function sorted(list)
  local out = { table.unpack(list) }
  table.sort(out)
  return out
end

local function assert_type(value, type, seen, where)
  local ok, problem = definitions.check(defs, value, type, seen, where)
  assert(ok, problem)
end

-- "map.generate: unknown option "x" (options: a, b)" as {"a", "b"}.
local function listed_options(f, ...)
  local ok, err = pcall(f, ...)
  assert.is_false(ok)
  local list = assert(tostring(err):match("unknown option \"[^\"]*\" %(options: (.*)%)$"), err)
  return definitions.split_top(list, ",")
end

-- The class an algorithm's options are declared in: "rooms" -> map.RoomsOptions.
local function options_class(algorithm)
  return "map." .. algorithm:sub(1, 1):upper() .. algorithm:sub(2) .. "Options"
end

describe("types/map.d.lua", function()
  it("declares every function the module exports, and no other", function()
    local exported = {}
    for name, value in pairs(map) do
      if type(value) == "function" then exported[#exported + 1] = name end
    end
    assert.are.same(sorted(exported), sorted(defs.function_order))
  end)

  it("declares the module's other fields as class map, with their types", function()
    local others = {}
    for name, value in pairs(map) do
      if type(value) ~= "function" then others[#others + 1] = name end
    end
    local fields = definitions.fields(defs, "map")
    assert.are.same(sorted(others), sorted(names_of(fields)))
    for _, field in ipairs(fields) do assert_type(map[field.name], field.type, {}, "map." .. field.name) end
  end)

  it("names the algorithms of map.ALGORITHMS, in their order", function()
    local names = {}
    for i, literal in ipairs(definitions.split_top(defs.aliases["map.Algorithm"], "|")) do
      names[i] = literal:match('^"(.*)"$')
    end
    assert.are.same(map.ALGORITHMS, names)
  end)

  it("declares each algorithm's options as map.describe lists them: names, order, types, words", function()
    local classes = {}
    for i, algorithm in ipairs(map.ALGORITHMS) do
      local name = options_class(algorithm)
      classes[i] = name
      local class = assert(defs.classes[name], "no class " .. name)
      assert.are.equal("map.Options", class.parent)
      local own = {}
      for _, field in ipairs(class.fields) do
        if field.name == "algorithm" then
          assert.are.equal('"' .. algorithm .. '"', field.type)
          assert.are.equal(i == 1, field.optional, name .. ".algorithm: optional only for the default")
        else
          own[#own + 1] = field
        end
      end
      local options = map.describe(algorithm).options
      assert.are.same(names_of(options), names_of(own))
      for j, option in ipairs(options) do
        local field = own[j]
        assert.are.equal(option.type, field.type, name .. "." .. field.name)
        assert.is_true(field.optional, name .. "." .. field.name .. " has a default")
        assert.are.equal(("%s, default %s: %s"):format(args.allowed(option), option.default_text, option.doc),
          field.doc, name .. "." .. field.name)
      end
    end
    assert.are.same(classes, definitions.split_top(defs.aliases["map.GenerateOptions"], "|"))
  end)

  it("declares in map.Options the options every algorithm takes, which generate lists beside theirs", function()
    local listed = listed_options(map.generate, { width = 60, height = 20, unknown = 1 })
    local algorithms_own = {}
    for _, algorithm in ipairs(map.ALGORITHMS) do
      for _, option in ipairs(map.describe(algorithm).options) do algorithms_own[option.name] = true end
    end
    local common = {}
    for _, name in ipairs(listed) do
      if not algorithms_own[name] then common[#common + 1] = name end
    end
    assert.are.same(common, names_of(definitions.fields(defs, "map.Options")))
  end)

  -- A call of each function taking an options table, with these options.
  local m = map.generate(60, 20, 42)
  local known = map.fov(m, m.player.x, m.player.y, 6)
  local d = map.distances(m, m.stairs)
  local WITH_OPTIONS = {
    generate = function(o) return map.generate(o) end,
    generate_text = function(o) return map.generate_text(o) end,
    generate_json = function(o) return map.generate_json(o) end,
    fov = function(o) return map.fov(m, m.player.x, m.player.y, 4, o) end,
    distances = function(o) return map.distances(m, m.player, o) end,
    path = function(o) return map.path(m, m.player.x, m.player.y, m.stairs.x, m.stairs.y, o) end,
    autotile = function(o) return map.autotile(m, o) end,
    step = function(o) return map.step(m, d, m.player, o) end,
    flee = function(o) return map.flee(m, m.player, o) end,
    explore = function(o) return map.explore(m, known, m.player, o) end,
    sample = function(o) return map.sample(m, 2, o) end,
    visible = function(o) return map.visible(m, m.player, m.stairs, o) end,
  }

  it("declares the options of every function that takes them, as its message lists them", function()
    local taking = {}
    for _, name in ipairs(defs.function_order) do
      local f = defs.functions[name]
      for _, signature in ipairs({ f, table.unpack(f.overloads) }) do
        for _, param in ipairs(signature.params) do
          if param.name == "options" and not taking[name] then
            taking[name] = param.type
          end
        end
      end
    end
    local with_options = {}
    for name in pairs(WITH_OPTIONS) do with_options[#with_options + 1] = name end
    local declared = {}
    for name in pairs(taking) do declared[#declared + 1] = name end
    assert.are.same(sorted(with_options), sorted(declared))
    for name, type in pairs(taking) do
      if not name:match("^generate") then
        local listed = listed_options(WITH_OPTIONS[name], { unknown = 1 })
        assert.are.same(sorted(listed), sorted(names_of(definitions.fields(defs, type))), "map." .. name)
      end
    end
  end)

  it("declares the entries of generate's vaults and place as their messages list them", function()
    -- "vaults[1] has an unknown field "x" (fields: rows, count, ...)".
    local function listed_fields(options)
      local ok, err = pcall(map.generate, options)
      assert.is_false(ok)
      return definitions.split_top(assert(tostring(err):match("%(fields: (.*)%)$"), err), ",")
    end
    local options = definitions.fields(defs, "map.Options")
    local entry_types = {}
    for _, field in ipairs(options) do entry_types[field.name] = field.type:match("^(map%.[%w_]+)%[%]$") end
    assert.are.same(names_of(definitions.fields(defs, entry_types.vaults)),
      listed_fields({ width = 60, height = 20, vaults = { { rows = { "." }, unknown = 1 } } }))
    assert.are.same(names_of(definitions.fields(defs, entry_types.place)),
      listed_fields({ width = 60, height = 20, place = { { char = "k", unknown = 1 } } }))
  end)

  -- Calls of every function, each form; their arguments must fit the
  -- declaration (or one of its overloads), their results its returns.
  local levels = {}
  for _, algorithm in ipairs(map.ALGORITHMS) do
    local options = { width = 40, height = 20, seed = 7, algorithm = algorithm }
    for _, option in ipairs(map.describe(algorithm).options) do
      if option.type == "boolean" then options[option.name] = not option.default end
    end
    levels[#levels + 1] = { options }
  end
  -- The design options, whose fields the level then has.
  levels[#levels + 1] = { { width = 60, height = 20, seed = 3, vaults = { { rows = { "#####", "#.$.#", "##.##" },
    count = 2, rotate = true } }, arrive = { x = 5, y = 5 }, place = { { char = "k", count = 2, min = 3 } } } }
  local CALLS = {
    new_map = { { 3, 2 } },
    render = { { m }, { { { "#", "." } } } },
    generate = { { 60, 20, 42 }, { 60, 20 }, table.unpack(levels) },
    generate_text = { { 60, 20, 42 }, { { width = 30, height = 10, algorithm = "maze" } } },
    generate_json = { { 60, 20, 42 }, { { width = 30, height = 10, algorithm = "bsp", doors = true } } },
    reachable = { { m }, { { { "@", "#", ">" } } } },
    describe = {},
    fov = { { m, m.player.x, m.player.y }, { m, 2, 2, 3, { opaque = "#" } } },
    distances = { { m, m.player }, { m, m.items, { diagonal = true, cost = { ["."] = 2 } } } },
    path = { { m, m.player.x, m.player.y, m.stairs.x, m.stairs.y }, { { { "@", "#", ">" } }, 1, 1, 3, 1 } },
    autotile = { { m }, { m, { mode = "4", edge = false } } },
    step = { { m, d, m.player.x, m.player.y }, { m, d, m.player, { diagonal = true } }, { m, d, m.stairs } },
    flee = { { m, m.player }, { m, { { x = 2, y = 2, value = 3 }, m.stairs }, { factor = -2, max = 30 } } },
    explore = { { m, known, m.player.x, m.player.y }, { m, known, m.player, { diagonal = true } },
      { m, { [m.player.y] = { [m.player.x] = true } }, m.player } },
    sample = { { m, 3 }, { m, 2, { seed = 1, from = m.player, min = 5, hidden = true } } },
    line = { { 1, 1, 5, 3 }, { m.player, m.stairs }, { m.player, -3, 7 }, { 0, 0, m.stairs } },
    visible = { { m, m.player.x, m.player.y, m.stairs.x, m.stairs.y }, { m, m.player, m.stairs, { radius = 4 } },
      { m, m.player, 2, 2 }, { m, 2, 2, m.stairs } },
    parse = { { "#@#>\n@.>." }, { "..\n..\n" } },
  }
  for _, algorithm in ipairs(map.ALGORITHMS) do CALLS.describe[#CALLS.describe + 1] = { algorithm } end

  -- The signature (the declaration or an overload) that the arguments fit.
  local function signature_for(name, call, number)
    local f = defs.functions[name]
    for _, signature in ipairs({ f, table.unpack(f.overloads) }) do
      local fits = #call <= #signature.params
      for j, param in ipairs(signature.params) do
        local type = param.optional and param.type .. "?" or param.type
        fits = fits and definitions.check(defs, call[j], type, {}, "", true)
      end
      if fits then return signature end
    end
    error(("map.%s: no declared form takes sample call %d"):format(name, number))
  end

  it("declares what every function returns, for every form, and every field met", function()
    local seen = {}
    for _, name in ipairs(defs.function_order) do
      if name ~= "_panic_probe" then
        local calls = assert(CALLS[name], "no sample call of map." .. name)
        for i, call in ipairs(calls) do
          local signature = signature_for(name, call, i)
          local results = table.pack(map[name](table.unpack(call, 1, #signature.params)))
          assert.is_true(results.n <= math.max(1, #signature.returns), "map." .. name .. " returns more")
          for j, type in ipairs(signature.returns) do assert_type(results[j], type, seen, "map." .. name) end
        end
      end
    end
    -- What generate_json's levels hold is map.Level's fields, rows aside.
    for _, call in ipairs(levels) do
      local level = json.decode(map.generate_json(table.unpack(call)))
      assert.are.equal("table", type(level.rows))
      level.rows = nil
      assert_type(level, "map.Level", seen, "map.generate_json")
    end
    for _, class in ipairs({ "map.Level", "map.Room", "map.Position", "map.Item", "map.Vault", "map.Placed",
      "map.Description", "map.OptionDescription", "map.Parsed" }) do
      for _, field in ipairs(definitions.fields(defs, class)) do
        assert.is_true(seen[class] ~= nil and seen[class][field.name], class .. "." .. field.name .. " never met")
      end
    end
  end)

  it("declares _panic_probe, which raises the module's internal error", function()
    local ok, err = pcall(map._panic_probe)
    assert.is_false(ok)
    assert.truthy(tostring(err):find("internal error", 1, true))
  end)
end)
