-- types/map.d.lua, the editors' definitions, against the module itself, with
-- no drift either way: the exports, each algorithm's options as map.describe
-- lists them (with the same words), the options each function takes (as its
-- "unknown option" message lists them), and what every function returns,
-- every declared field of the level and the descriptions met at least once;
-- and the same of the methods of every native kind (map.METHODS). The
-- calls are the manifests' (spec/exports/, spec/natives/: their samples
-- and with_options): no export or method is named here.
-- tests/types/check.sh runs a type checker with them over the code.
local map = require "map"
local json = require "dkjson"
local support = require "spec.support"
local manifests = require "spec.manifests"
local fixtures = require "spec.exports.fixtures"
local definitions = require "tests.types.definitions"
package.path = "lua/?.lua;" .. package.path
local args = require "map.args"

local defs = definitions.read(support.read_file("types/map.d.lua"))
local pack, unpack = manifests.pack, manifests.unpack

local EXPORTS, METHODS = manifests.exports(), manifests.methods()
-- The exports whose with_options takes generate's options table.
local GENERATING = {}
for _, entry in ipairs(EXPORTS) do
  if entry.fields.generate_options then GENERATING[#GENERATING + 1] = entry end
end
assert(#GENERATING > 0, "no manifest says generate_options")
local GENERATE = GENERATING[1]

-- `entry`'s call with these options, on fresh fixtures.
local function with_options(entry)
  return function(options) return entry.fields.with_options(fixtures.fresh(), options) end
end

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
        assert.are.equal(args.lua_type(option), field.type, name .. "." .. field.name)
        assert.is_true(field.optional, name .. "." .. field.name .. " has a default")
        assert.are.equal(("%s, default %s: %s"):format(args.allowed(option, "lua"), option.default_text, option.doc),
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
      for _, entry in ipairs(GENERATING) do
        local call = with_options(entry)
        local plain = call { width = 61, height = 21, seed = 9, algorithm = algorithm }
        for _, other in ipairs(map.ALGORITHMS) do
          for _, option in ipairs(map.describe(other).options) do
            local field = declared[option.name]
            local value = args.nothing(option)
            if value == nil then value = option.default end
            if value ~= nil and (not field or field.type ~= args.lua_type(option)) then
              local ok, result = pcall(call, { width = 61, height = 21, seed = 9, algorithm = algorithm,
                [option.name] = value })
              local what = ("%s: %s with %s = %s"):format(entry.label, algorithm, option.name, tostring(value))
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
        assert.truthy(tostring(err):find("^map%.%w+: ") or tostring(err):find("^level:%w+: "), tostring(err))
      elseif not line:find("^print") then
        before[#before + 1] = line
      end
    end
    assert.is_true(marked >= 6)
    local quiet = setmetatable({ print = function() end }, { __index = _G })
    assert(loadfile("tests/types/game/uses.lua", "t", quiet))()
  end)

  it("declares in map.Options the options every algorithm takes, which generate lists beside theirs", function()
    local listed = listed_options(with_options(GENERATE), { width = 60, height = 20, unknown = 1 })
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
    -- Those whose manifest has with_options.
    local with, by_name = {}, {}
    for _, entry in ipairs(EXPORTS) do
      if entry.fields.with_options then
        with[#with + 1] = entry.name
        by_name[entry.name] = entry
      end
    end
    local declared = {}
    for name in pairs(taking) do declared[#declared + 1] = name end
    assert.are.same(sorted(with), sorted(declared))
    for name, type in pairs(taking) do
      if type:match("%.Exact$") then
        local listed = listed_options(with_options(by_name[name]), { unknown = 1 })
        assert.are.same(sorted(listed), sorted(names_of(definitions.fields(defs, exact_class(type)))), "map." .. name)
      else
        -- generate's options: a union of the algorithms' classes (checked above).
        for _, part in ipairs(definitions.split_top(assert(defs.aliases[type], type), "|")) do
          assert.truthy(part:match("%.Exact$"), type .. ": " .. part)
        end
      end
    end
  end)

  it("declares the entries of generate's vaults and place as their messages list them", function()
    -- "vaults[1] has an unknown field "x" (fields: rows, count, ...)".
    local function listed_fields(options)
      local ok, err = pcall(with_options(GENERATE), options)
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

  -- Calls of every function, each form (its manifest's samples); their
  -- arguments must fit the declaration (or one of its overloads), their
  -- results its returns.

  -- Runs sample `sample` of export `name` with map[name] wrapped: the
  -- arguments and results of its last call (the sample's own; fixtures
  -- made on the way may call it before), checked to be what the sample
  -- returns.
  local function captured(name, sample, number)
    local original, calls = map[name], {}
    map[name] = function(...)
      local call = { args = pack(...) }
      call.results = pack(original(...))
      calls[#calls + 1] = call
      return unpack(call.results, 1, call.results.n)
    end
    local ok, returned = pcall(function() return pack(sample(fixtures.fresh())) end)
    map[name] = original
    assert(ok, returned)
    local last = calls[#calls]
    assert(last, ("map.%s: sample call %d does not call it"):format(name, number))
    assert(last.results.n == returned.n, ("map.%s: sample call %d returns what its call does not"):format(name, number))
    for i = 1, returned.n do
      assert(rawequal(last.results[i], returned[i]), ("map.%s: sample call %d returns what its call does not"):format(
        name, number))
    end
    return last.args, last.results
  end

  -- The signature (the declaration or an overload) that the arguments fit.
  local function signature_for(name, call, number)
    local f = defs.functions[name]
    for _, signature in ipairs({ f, table.unpack(f.overloads) }) do
      local fits = call.n <= #signature.params
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
    for _, entry in ipairs(EXPORTS) do
      local name = entry.name
      assert(defs.functions[name], "types/map.d.lua declares no map." .. name)
      local samples = entry.fields.samples
      assert(type(samples) == "table" and #samples > 0, "no sample call of map." .. name)
      for i, sample in ipairs(samples) do
        local call, results = captured(name, sample, i)
        local signature = signature_for(name, call, i)
        assert.is_true(results.n <= math.max(1, #signature.returns), "map." .. name .. " returns more")
        for j, type in ipairs(signature.returns) do assert_type(results[j], type, seen, "map." .. name) end
        -- A manifest's `json`: its results are JSON of that class, rows aside.
        if entry.fields.json then
          local decoded = json.decode(results[1])
          assert.are.equal("table", type(decoded.rows))
          decoded.rows = nil
          assert_type(decoded, entry.fields.json, seen, "map." .. name)
        end
      end
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
describe("types/map.d.lua: the methods of every native kind", function()
  -- Each kind's class, as its natives file names it.
  local CLASSES = {}
  for _, kind in ipairs(manifests.kinds()) do CLASSES[kind] = manifests.natives(kind).class end

  it("declares every method of map.METHODS, and no other", function()
    for kind, class in pairs(CLASSES) do
      assert(defs.classes[class], "types/map.d.lua declares no class " .. tostring(class))
      assert.are.same(sorted(map.METHODS[kind]), sorted(defs.classes[class].method_order), class)
    end
  end)

  it("declares the options of every method that takes them, as its message lists them", function()
    local taking = {}
    for kind, class in pairs(CLASSES) do
      for name, f in pairs(defs.classes[class].methods) do
        for _, param in ipairs(f.params) do
          if param.name == "options" then taking[kind .. ":" .. name] = param.type end
        end
      end
    end
    local with, by_label = {}, {}
    for _, entry in ipairs(METHODS) do
      if entry.fields.with_options then
        with[#with + 1] = entry.label
        by_label[entry.label] = entry
      end
    end
    local declared = {}
    for label in pairs(taking) do declared[#declared + 1] = label end
    assert.are.same(sorted(with), sorted(declared))
    for label, type in pairs(taking) do
      -- An .Exact alias of an (exact) class, so that a misspelt option is flagged.
      local listed = listed_options(with_options(by_label[label]), { unknown = 1 })
      assert.are.same(sorted(listed), sorted(names_of(definitions.fields(defs, exact_class(type)))), label)
    end
  end)

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

  -- Calls of every method, each form, on each object (its manifest entry's
  -- samples: the object and the arguments); the results must be what one
  -- of the forms the arguments fit declares (fov's forms with `into`
  -- return a count).
  it("declares what every method returns, for every form, and the objects' fields", function()
    local met = {}
    for _, entry in ipairs(METHODS) do
      local kind, name = entry.kind, entry.name
      local class = CLASSES[kind]
      local f = assert(defs.classes[class].methods[name], class .. " declares no " .. name)
      local samples = entry.fields.samples
      assert(type(samples) == "table" and #samples > 0, "no sample call of " .. entry.label)
      for i, sample in ipairs(samples) do
        local where = ("%s, sample call %d"):format(entry.label, i)
        local results, object, call = manifests.run_sample(entry, sample, fixtures.fresh())
        assert_type(object, class, met, kind)
        local n = call.n
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
        assert(fits, where .. ": no declared form takes it and returns what it does: " .. table.concat(problems, "; "))
      end
    end
    local classes = { "map.Thing" }
    for _, class in pairs(CLASSES) do classes[#classes + 1] = class end
    for _, class in ipairs(classes) do
      for _, field in ipairs(definitions.fields(defs, class)) do
        assert.is_true(met[class] ~= nil and met[class][field.name], class .. "." .. field.name .. " never met")
      end
    end
  end)
end)
