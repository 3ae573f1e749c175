-- types/map.d.lua, the editors' definitions, against the module itself, with
-- no drift either way: the exports, each algorithm's options as map.describe
-- lists them (with the same words), the options each function takes (as its
-- "unknown option" message lists them), and what every function returns,
-- every declared field of the level and the descriptions met at least once;
-- and the same of the methods of a level and a field (map.METHODS).
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

-- The class an options type declares: "map.FovOptions.Exact" (an alias
-- "map.FovOptions & table<keyof map.FovOptions, any>") -> "map.FovOptions",
-- after checking that the alias is that, and the class `(exact)`.
local function exact_class(type)
  local class = assert(type:match("^(map%.[%w_]+)%.Exact$"), type .. " is not an .Exact alias")
  assert.are.equal(("%s & table<keyof %s, any>"):format(class, class), defs.aliases[type])
  assert.is_true(defs.classes[class].exact, class .. " is not (exact)")
  return class
end

-- The options of other algorithms that `algorithm` takes at the value that
-- asks for nothing (map.args.nothing), each once, in the module's order.
local function taken_as_nothing(algorithm)
  local own, out = {}, {}
  for _, option in ipairs(map.describe(algorithm).options) do own[option.name] = true end
  for _, other in ipairs(map.ALGORITHMS) do
    for _, option in ipairs(map.describe(other).options) do
      if not own[option.name] and args.nothing(option) ~= nil then
        own[option.name] = true
        out[#out + 1] = { name = option.name, value = args.nothing(option) }
      end
    end
  end
  return out
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
    local aliases = {}
    for i, algorithm in ipairs(map.ALGORITHMS) do
      local name = options_class(algorithm)
      aliases[i] = name .. ".Exact"
      assert.are.equal(name, exact_class(aliases[i]))
      local class = assert(defs.classes[name], "no class " .. name)
      assert.are.equal("map.Options", class.parent)
      local own, refused = {}, {}
      for _, field in ipairs(class.fields) do
        if field.name == "algorithm" then
          assert.are.equal('"' .. algorithm .. '"', field.type)
          assert.are.equal(i == 1, field.optional, name .. ".algorithm: optional only for the default")
        elseif field.type == "nil" then
          refused[#refused + 1] = field.name
        else
          own[#own + 1] = field
        end
      end
      -- The design options it refuses (off rock), declared nil.
      local takes, want = {}, {}
      for _, option in ipairs(map.describe(algorithm).design) do takes[option.name] = true end
      for _, option in ipairs(map.describe(map.ALGORITHMS[1]).design) do
        if not takes[option.name] then want[#want + 1] = option.name end
      end
      assert.are.same(want, refused, name)
      -- Its own options, then the others' it takes at the value that asks
      -- for nothing, declared as that literal.
      local options = map.describe(algorithm).options
      local taken = taken_as_nothing(algorithm)
      assert.are.same(names_of(options), { table.unpack(names_of(own), 1, #options) })
      assert.are.same(names_of(taken), { table.unpack(names_of(own), #options + 1) })
      for j, option in ipairs(options) do
        local field = own[j]
        assert.are.equal(option.type, field.type, name .. "." .. field.name)
        assert.is_true(field.optional, name .. "." .. field.name .. " has a default")
        assert.are.equal(("%s, default %s: %s"):format(args.allowed(option), option.default_text, option.doc),
          field.doc, name .. "." .. field.name)
      end
      for j, option in ipairs(taken) do
        local field = own[#options + j]
        assert.are.equal(tostring(option.value), field.type, name .. "." .. field.name)
        assert.is_true(field.optional, name .. "." .. field.name)
      end
    end
    aliases[#aliases + 1] = "map.AnyOptions.Exact"
    assert.are.same(aliases, definitions.split_top(defs.aliases["map.GenerateOptions"], "|"))
  end)

  it("declares as taken by every algorithm exactly the values the module takes from any algorithm", function()
    -- Every option of every algorithm given to every other, at its value
    -- that asks for nothing (map.args.nothing) and at its default: taken,
    -- giving the map made without it, exactly where the types say so.
    for _, algorithm in ipairs(map.ALGORITHMS) do
      local declared = {}
      for _, field in ipairs(definitions.fields(defs, options_class(algorithm))) do declared[field.name] = field end
      local plain = map.generate_text { width = 61, height = 21, seed = 9, algorithm = algorithm }
      for _, other in ipairs(map.ALGORITHMS) do
        for _, option in ipairs(map.describe(other).options) do
          local field = declared[option.name]
          local value = args.nothing(option)
          if value == nil then value = option.default end
          if value ~= nil and (not field or field.type ~= option.type) then
            local ok, result = pcall(map.generate_text, { width = 61, height = 21, seed = 9, algorithm = algorithm,
              [option.name] = value })
            local what = ("%s with %s = %s"):format(algorithm, option.name, tostring(value))
            if field then
              assert.are.equal(tostring(value), field.type, what)
              assert.are.same({ true, plain }, { ok, result }, what)
            else
              assert.is_false(ok, what)
              assert.truthy(result:find("applies only to algorithm", 1, true), result)
            end
          end
        end
      end
    end
    -- map.AnyOptions, for an algorithm chosen at run time: beyond
    -- map.Options', the fields every algorithm's class declares, each of a
    -- type (or a literal value) that every one of them takes.
    local base = {}
    for _, field in ipairs(definitions.fields(defs, "map.Options")) do base[field.name] = true end
    local any = {}
    for _, field in ipairs(definitions.fields(defs, exact_class("map.AnyOptions.Exact"))) do
      if not base[field.name] then any[field.name] = field.type end
    end
    local in_all
    for _, algorithm in ipairs(map.ALGORITHMS) do
      local here = {}
      for _, field in ipairs(definitions.fields(defs, options_class(algorithm))) do
        if not base[field.name] then here[field.name] = field.type end
      end
      for name, type in pairs(any) do
        local literal = tonumber(type)
        if type == "false" then literal = false end
        assert.is_true(here[name] == type or literal ~= nil and definitions.check(defs, literal, here[name] or "nil"),
          ("map.AnyOptions.%s: %s, in %s: %s"):format(name, type, options_class(algorithm), tostring(here[name])))
      end
      if not in_all then
        in_all = here
      else
        for name in pairs(in_all) do
          if not here[name] then in_all[name] = nil end
        end
      end
    end
    local names = {}
    for name in pairs(in_all) do names[#names + 1] = name end
    local declared = {}
    for name in pairs(any) do declared[#declared + 1] = name end
    assert.are.same(sorted(names), sorted(declared))
    assert.is_true(#names >= 4, "items, doors, loops, braid")
  end)

  it("declares the misuses tests/types/game/misuses.lua marks as what the module refuses", function()
    -- Each marked line, run after the lines before it that are not marked:
    -- an error from the module. uses.lua runs through.
    local source = support.read_file("tests/types/game/misuses.lua")
    local before, marked = {}, 0
    for line in source:gmatch("[^\n]+") do
      if line:find("-- expect: ", 1, true) then
        marked = marked + 1
        local chunk = table.concat(before, "\n") .. "\n" .. line:gsub("^local ", "")
        local ok, err = pcall(assert(load(chunk, "=misuses.lua", "t", _G)))
        assert.is_false(ok, line)
        assert.truthy(tostring(err):find("^map%.%w+: "), tostring(err))
      elseif not line:find("^print") then
        before[#before + 1] = line
      end
    end
    assert.is_true(marked >= 6)
    local quiet = setmetatable({ print = function() end }, { __index = _G })
    assert(loadfile("tests/types/game/uses.lua", "t", quiet))()
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
    level = function(o) return map.level(m, o) end,
    names = function(o) return map.names({ "Aerandir", "Amroth", "Aranwe", "Beleg", "Celeborn", "Cirdan" }, o) end,
    noise = function(o) return map.noise(o) end,
    light = function(o) return map.light(m, {}, o) end,
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
        assert.are.same(sorted(listed), sorted(names_of(definitions.fields(defs, exact_class(type)))), "map." .. name)
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
    for _, field in ipairs(options) do
      local entry = field.type:match("^(map%.[%w_.]+)%[%]$")
      entry_types[field.name] = entry and exact_class(entry)
    end
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
    level = { { m }, { "#@#\n#..", { things = "@" } }, { 40, 12, 5 }, { { width = 40, height = 12, algorithm = "cave",
      things = "M", vaults = { { rows = { "...", ".M.", "..." } } } } } },
    load = { { map.level(m):save() }, { map.level(m):distances(m.player, { max = 5 }):save() } },
    field = { { 60, 20 }, { 1, 1 } },
    rng = { { 1 }, { map.rng(2):state() }, {} },
    scheduler = { {}, { (function()
      local s = map.scheduler()
      s:add("a", 1)
      return s:state()
    end)(), { "a" } } },
    names = { { { "Aerandir", "Amroth", "Aranwe", "Beleg", "Celeborn", "Cirdan" } },
      { { "Aerandir", "Amroth", "Aranwe", "Beleg", "Celeborn", "Cirdan" }, { order = 2, min = 4, max = 9 } } },
    noise = { {}, { { seed = 3, kind = "perlin", octaves = 4, frequency = 0.1, persistence = 0.6,
      lacunarity = 2.5 } } },
    light = { { m, { { x = m.player.x, y = m.player.y, radius = 6 } } },
      { m, { { x = 2, y = 2, radius = 3, intensity = 0.5, color = { 1, 0.5, 0 } } }, { ambient = 0.1, opaque = "#" } },
      { m, {}, { ambient = { r = 0.1, g = 0.1, b = 0.3 } } } },
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
end)

-- The methods of a level (map.NativeLevel) and a field (map.Field), as the
-- module lists them in map.METHODS, against the classes' method
-- declarations: names, options, and what sample calls of every form return.
describe("types/map.d.lua: the methods of a level and a field", function()
  local CLASSES = { level = "map.NativeLevel", field = "map.Field", rng = "map.Rng", scheduler = "map.Scheduler",
    names = "map.Names", noise = "map.Noise" }
  local lvl = map.level { width = 60, height = 20, seed = 3, arrive = { x = 5, y = 5 }, things = "k",
    place = { { char = "k", count = 2 } }, vaults = { { rows = { "...", ".k.", "..." } } } }
  local plain = map.level(map.generate(30, 10, 1))
  local p, s = lvl.player, lvl.stairs
  local d, away = lvl:distances(p), lvl:flee(p, { max = 5 })
  local seen, memory = lvl:fov(p, 6), lvl:field()
  lvl:fov(p, 8, { into = memory })
  local source, scheduler = map.rng(1), map.scheduler()
  scheduler:add("a", 1)
  scheduler:add("b", 2)
  local g = map.names({ "Aerandir", "Amroth", "Aranwe", "Beleg", "Celeborn", "Cirdan" })

  it("declares every method of map.METHODS, and no other", function()
    for kind, class in pairs(CLASSES) do
      assert.are.same(sorted(map.METHODS[kind]), sorted(defs.classes[class].method_order), class)
    end
  end)

  -- A call of each method taking an options table, with these options.
  local WITH_OPTIONS = {
    fov = function(o) return lvl:fov(p, 4, o) end,
    visible = function(o) return lvl:visible(p, s, o) end,
    distances = function(o) return lvl:distances(p, o) end,
    flee = function(o) return lvl:flee(p, o) end,
    path = function(o) return lvl:path(p, s, o) end,
    step = function(o) return lvl:step(d, s, o) end,
    steps = function(o) return lvl:steps(d, { { x = s.x, y = s.y } }, o) end,
    can_step = function(o) return lvl:can_step(p, 1, 0, o) end,
    explore = function(o) return lvl:explore(memory, p, o) end,
    sample = function(o) return lvl:sample(2, o) end,
    autotile = function(o) return lvl:autotile(o) end,
    light = function(o) return lvl:light({}, o) end,
  }

  it("declares the options of every method that takes them, as its message lists them", function()
    local taking = {}
    for _, class in pairs(CLASSES) do
      for name, f in pairs(defs.classes[class].methods) do
        for _, param in ipairs(f.params) do
          if param.name == "options" then taking[name] = param.type end
        end
      end
    end
    local with_options, declared = {}, {}
    for name in pairs(WITH_OPTIONS) do with_options[#with_options + 1] = name end
    for name in pairs(taking) do declared[#declared + 1] = name end
    assert.are.same(sorted(with_options), sorted(declared))
    for name, type in pairs(taking) do
      local listed = listed_options(WITH_OPTIONS[name], { unknown = 1 })
      assert.are.same(sorted(listed), sorted(names_of(definitions.fields(defs, type))), "level:" .. name)
    end
  end)

  -- Calls of every method, each form, on each object; the results must be
  -- what one of the forms the arguments fit declares (fov's forms with
  -- `into` return a count).
  local CALLS = {
    level = {
      [lvl] = {
        get = { { 1, 1 }, { p } },
        set = { { 1, 1, "#" }, { { x = 1, y = 2 }, "#" } },
        occupy = { { 2, 2 }, { s } },
        vacate = { { 2, 2 }, { s } },
        occupied = { { 2, 2 }, { p } },
        things = { {} },
        table = { {} },
        render = { {} },
        save = { {} },
        field = { {} },
        fov = { { p.x, p.y }, { p, 4 }, { p.x, p.y, 3, { opaque = "#" } }, { p, 8, { into = memory } },
          { n = 4, p.x, p.y, nil, { into = lvl:field() } } },
        visible = { { p.x, p.y, s.x, s.y }, { p, s, { radius = 4 } }, { p, 2, 2 }, { 2, 2, s } },
        distances = { { p }, { { p, s }, { max = 6, occupied = true, known = memory } } },
        flee = { { p }, { { { x = p.x, y = p.y, value = 2 } }, { factor = -2, known = seen } } },
        path = { { p.x, p.y, s.x, s.y }, { p, s, { occupied = true } }, { p, s.x, s.y }, { p.x, p.y, s },
          { p, { x = 1, y = 1 } } },
        step = { { d, s.x, s.y }, { away, p, { occupied = true } }, { d:table(), s } },
        steps = { { d, { { x = s.x, y = s.y } } }, { away, { { x = p.x, y = p.y } }, { occupied = true } } },
        can_step = { { p.x, p.y, 1, 0 }, { p, -1, -1, { diagonal = true, occupied = true } } },
        explore = { { memory, p.x, p.y }, { seen, p }, { map.fov(lvl:table(), p, 3), p, { occupied = true } } },
        sample = { { 2 }, { 1, { seed = 1, from = p, min = 3, occupied = true } } },
        reachable = { {} },
        autotile = { {}, { { mode = "4" } } },
        light = { { { { x = p.x, y = p.y, radius = 5 } } },
          { { { x = p.x, y = p.y, radius = 5, color = { r = 1, g = 0.8, b = 0.5 } } }, { ambient = 0.1 } } },
      },
      [plain] = { table = { {} }, things = { {} }, reachable = { {} } },
      [map.level { width = 40, height = 20, seed = 2, algorithm = "overworld" }] = { table = { {} },
        reachable = { {} }, light = { { { { x = 2, y = 2, radius = 4 } } } } },
      [map.level(map.generate { width = 40, height = 20, seed = 2, algorithm = "overworld" })] = {
        table = { {} }, sample = { { 3 } } },
    },
    field = {
      [d] = { get = { { 1, 1 }, { s } }, table = { {} }, save = { {} } },
      [seen] = { get = { { p.x, p.y }, { 1, 1 } }, table = { {} }, save = { {} } },
      [memory] = { get = { { p } }, table = { {} } },
    },
    rng = {
      [source] = { random = { {}, { 6 }, { -3, 3 } }, normal = { {}, { 10 }, { 10, 2 } }, dice = { { "3d6+2" } },
        pick = { { { "a", "b" } } }, weighted = { { { 1, 0.5 } } }, shuffle = { { { 1, 2, 3 } } },
        fill = { { {}, 3 }, { {}, 3, 6 }, { {}, 3, 1, 6 } }, state = { {} }, clone = { {} } },
    },
    scheduler = {
      [scheduler] = { add = { { "c", 1.5 } }, next = { {} }, remove = { { "b" }, { "nobody" } },
        delay = { { "a", 0.5 } }, time = { {} }, state = { {} }, actors = { {} } },
      [map.scheduler()] = { next = { {} } },
    },
    names = {
      [g] = { name = { {}, { 7 }, { source } } },
    },
    noise = {
      [map.noise { seed = 1, octaves = 2 }] = { get = { { 1.5, -2 }, { { x = 3, y = 4 } } },
        grid = { { 3, 2 }, { 3, 2, 0.5, -1 }, { 2, 2, { x = 1, y = 1 } } } },
    },
  }

  -- The declaration's signature and its overloads, self left out of each.
  local function signatures(f)
    local list = { f }
    for _, overload in ipairs(f.overloads) do
      local params = { table.unpack(overload.params) }
      assert.are.equal("self", table.remove(params, 1).name)
      list[#list + 1] = { params = params, returns = overload.returns }
    end
    return list
  end

  it("declares what every method returns, for every form, and the objects' fields", function()
    local met = {}
    for kind, by_object in pairs(CALLS) do
      local class = CLASSES[kind]
      local called = {}
      for object, calls in pairs(by_object) do
        assert_type(object, class, met, kind)
        for name, list in pairs(calls) do
          called[name] = true
          local f = assert(defs.classes[class].methods[name], class .. " declares no " .. name)
          for i, call in ipairs(list) do
            local where = ("%s:%s, sample call %d"):format(kind, name, i)
            local n = call.n or #call
            local results = table.pack(object[name](object, table.unpack(call, 1, n)))
            local fits, problems = false, {}
            for _, signature in ipairs(signatures(f)) do
              local takes = n <= #signature.params
              for j, param in ipairs(signature.params) do
                local type = param.optional and param.type .. "?" or param.type
                takes = takes and definitions.check(defs, call[j], type, {}, "", true)
              end
              local gives = takes and results.n <= math.max(1, #signature.returns)
              for j, type in ipairs(takes and signature.returns or {}) do
                local ok, problem = definitions.check(defs, results[j], type, met, "result " .. j)
                gives = gives and ok
                problems[#problems + 1] = problem
              end
              fits = fits or gives
            end
            assert(fits, where .. ": no declared form takes it and returns what it does: "
              .. table.concat(problems, "; "))
          end
        end
      end
      for _, name in ipairs(map.METHODS[kind]) do assert(called[name], "no sample call of " .. kind .. ":" .. name) end
    end
    for _, class in ipairs({ "map.NativeLevel", "map.Field", "map.Thing", "map.Noise" }) do
      for _, field in ipairs(definitions.fields(defs, class)) do
        assert.is_true(met[class] ~= nil and met[class][field.name], class .. "." .. field.name .. " never met")
      end
    end
  end)
end)
