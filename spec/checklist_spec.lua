-- The toolkit checklist of docs/architecture.md, enforced: every function
-- the module exports (the functions of `require "map"`, read at run time,
-- so that a new export is checked with no edit here) has its manifest,
-- spec/exports/<name>.lua, and every method of map.METHODS its entry (an
-- export's manifest's `method`, or spec/natives/<kind>.lua's
-- `methods[<name>]`), read as tables (spec/manifests.lua): each has every
-- field, of its type or a reason why it does not apply; no manifest or
-- entry names what does not exist. Then the lists that stay outside the
-- manifests: CHANGELOG.md and docs/api.md (the type declaration is
-- spec/types_spec.lua's). A missing entry fails, naming the manifest, the
-- export or method and the field (or the file). `_panic_probe` is not
-- checked: it is a test hook, leaving normal builds. The Rust entries (a
-- bound measured, a module fuzzed) are read from src/ the same way, at the
-- end.
local map = require "map"
local support = require "spec.support"
local manifests = require "spec.manifests"

-- The set of names matched by `pattern` (one capture) in `text`.
local function matches(text, pattern, set)
  set = set or {}
  for name in text:gmatch(pattern) do set[name] = true end
  return set
end

local CALLED = "map%.([%a_][%w_]*)"  -- map.fov, map.fov(...)
local QUOTED = '"([%a_][%w_]*)"'     -- "fov", as in a list of function names
local METHOD = ":([%a_][%w_]*)%("    -- lvl:fov(...)

local function files(glob)
  local list = {}
  local ls = assert(io.popen("ls " .. glob .. " 2>/dev/null"))
  for path in ls:lines() do list[#list + 1] = path end
  ls:close()
  return list
end

local function read_or_nil(path)
  local f = io.open(path, "rb")
  if not f then return nil end
  local text = f:read("*a")
  f:close()
  return text
end

-- What a value is, for messages: "a number", "an empty list", "nil".
local function what(value)
  if value == nil then return "nil" end
  if type(value) == "table" and next(value) == nil then return "an empty table" end
  local t = type(value)
  return (t:match("^[aeiou]") and "an " or "a ") .. t
end

-- Whether `text` names the export or method `entry` (a call, or its name
-- in quotes); a method form of an export, either (its spec may be the
-- export's: spec/level_spec.lua compares the two).
local function names_it(text, entry)
  local called = entry.method and matches(text, METHOD)[entry.name]
  if not entry.method or entry.export then called = called or matches(text, CALLED)[entry.name] end
  return called or matches(text, QUOTED)[entry.name]
end

-- The fields' checks: nil when `value` is of the field's type, else what
-- it should be. A reason (a non-empty string) is taken where `reason`.
local function is_list_of(value, item)
  if type(value) ~= "table" or #value == 0 then return false end
  for _, v in ipairs(value) do
    if not item(v) then return false end
  end
  return true
end
local function is_function(v) return type(v) == "function" end
local function is_bad(v) return type(v) == "table" and type(v[1]) == "string" and v[1] ~= "" and is_function(v[2]) end
local function is_memory(v) return type(v) == "table" and type(v.kind) == "string" and is_function(v.call) end

local FIELD = {
  samples = { list = true, item = is_function,
    expected = "a list of function(f) returning the call (a method's: the object and the arguments)",
    item_expected = "function(f)" },
  bad = { list = true, item = is_bad, expected = 'a list of { "<exact message>", function(f) }',
    item_expected = '{ "<exact message>", function(f) }' },
  storm = { reason = true, expected = "a function(a), a list of them or a reason",
    ok = function(v) return is_function(v) or is_list_of(v, is_function) end },
  big = { reason = true, expected = "a function(h) or a reason", ok = is_function },
  memory = { reason = true, expected = "{ kind =, call = function(s) }, a list of them or a reason",
    ok = function(v) return is_memory(v) or is_list_of(v, is_memory) end },
  reference = { expected = "{ spec = <path>, bench = <path or workload> }",
    ok = function(v) return type(v) == "table" and type(v.spec) == "string"
      and (type(v.bench) == "string" or type(v.bench) == "table") end },
  method = { reason = true, expected = "its level-method form (a table) or a reason",
    ok = function(v) return type(v) == "table" end },
  cases = { expected = "a function(m, rand, lvl) returning argument lists", ok = is_function },
}

-- The problems of one manifest or entry: a field missing, of the wrong
-- type, an empty list or reason; its references that do not exist or do
-- not name it.
local function check_fields(entry, fields)
  local problems = {}
  local function say(fmt, ...) problems[#problems + 1] = (fmt):format(entry.path, entry.label, ...) end
  for _, field in ipairs(fields) do
    local value, rule = entry.fields[field], FIELD[field]
    if value == nil then
      say('%s: %s has no "%s"', field)
    elseif type(value) == "string" and rule.reason then
      if not value:find("%S") then say('%s: %s\'s "%s" is an empty reason', field) end
    elseif rule.list and type(value) == "table" and #value == 0 then
      say('%s: %s\'s "%s" is an empty list', field)
    elseif rule.list and type(value) == "table" then
      for i, item in ipairs(value) do
        if not rule.item(item) then
          say('%s: %s\'s "%s"[%d] is %s, not %s', field, i, what(item), rule.item_expected)
        end
      end
    elseif rule.list or not rule.ok(value) then
      say('%s: %s\'s "%s" is %s, not %s', field, what(value), rule.expected)
    end
  end
  local reference = entry.fields.reference
  if FIELD.reference.ok(reference) then
    local text = read_or_nil(reference.spec)
    if not text then
      say("%s: %s's reference.spec, %s, does not exist", reference.spec)
    elseif not names_it(text, entry) then
      say("%s: %s's reference.spec, %s, does not name it", reference.spec)
    end
    local bench = reference.bench
    if type(bench) == "string" then
      text = bench:find("^bench/") and read_or_nil(bench)
      if not bench:find("^bench/") then
        say("%s: %s's reference.bench, %s, is not a file of bench/", bench)
      elseif not text then
        say("%s: %s's reference.bench, %s, does not exist", bench)
      elseif not names_it(text, entry) then
        say("%s: %s's reference.bench, %s, does not name it", bench)
      end
    elseif not (is_function(bench.run) and is_function(bench.lua)) then
      say("%s: %s's reference.bench is a workload without run and lua")
    end
  end
  return problems
end

-- The lists outside the manifests: where each is, what it holds, how its
-- names are read (a set of names).
local LISTS = {
  {
    file = "CHANGELOG.md",
    what = "a line saying map.<name> was added",
    names = function() return matches(support.read_file("CHANGELOG.md"), CALLED) end,
  },
  {
    file = "docs/api.md",
    what = "a section (## `map.<name>(...)`)",
    names = function()
      local set = {}
      for heading in support.read_file("docs/api.md"):gmatch("\n## ([^\n]*)") do matches(heading, CALLED, set) end
      return set
    end,
  },
}

local function append(list, more)
  for _, item in ipairs(more) do list[#list + 1] = item end
  return list
end

-- The problems of the exports `names` (and of every method of
-- map.METHODS, when `methods`): their manifests, the manifests that name
-- no export, their entries in the lists outside.
local function missing(names, methods)
  local problems, exported = {}, {}
  for _, name in ipairs(names) do exported[name] = true end
  for _, name in ipairs(names) do
    local path = manifests.export_path(name)
    local manifest = manifests.load(path)
    if not manifest then problems[#problems + 1] = ("map.%s has no manifest (%s)"):format(name, path) end
    local entry = { label = "map." .. name, name = name, path = path, fields = manifest or {} }
    append(problems, check_fields(entry, manifests.FIELDS))
    if manifest and type(manifest.method) == "table" then
      local form = manifests.method_entry("level", name)
      if not form or not form.export then
        problems[#problems + 1] = ('%s: map.%s\'s "method" is level:%s, which map.METHODS.level does not have')
          :format(path, name, name)
      end
    end
  end
  for _, path in ipairs(files(manifests.EXPORTS_DIR .. "*.lua")) do
    local name = path:match("([%w_]+)%.lua$")
    if name ~= "fixtures" and not exported[name] then
      problems[#problems + 1] = ("%s names no exported function (map.%s)"):format(path, name)
    end
  end
  if methods then
    for _, kind in ipairs(manifests.kinds()) do
      local path = manifests.native_path(kind)
      local natives = manifests.load(path)
      if not natives then
        problems[#problems + 1] = ("map.METHODS.%s has no manifest (%s)"):format(kind, path)
      elseif type(natives.class) ~= "string" then
        problems[#problems + 1] = ('%s has no "class" (the class types/map.d.lua declares its methods in)'):format(path)
      end
      local own = natives and type(natives.methods) == "table" and natives.methods or {}
      local listed = {}
      for _, name in ipairs(map.METHODS[kind]) do
        listed[name] = true
        local entry = manifests.method_entry(kind, name)
        if not entry then
          problems[#problems + 1] = ("%s:%s has no entry (%s's methods.%s, or %s's method)"):format(kind, name, path,
            name, manifests.export_path(name))
        else
          if entry.export and own[name] then
            problems[#problems + 1] = ("%s:%s has two entries: %s's method and %s's methods.%s"):format(kind, name,
              entry.path, path, name)
          end
          append(problems, check_fields(entry, entry.export and append({ "cases" }, manifests.METHOD_FIELDS)
            or manifests.METHOD_FIELDS))
        end
      end
      for name in pairs(own) do
        if not listed[name] then
          problems[#problems + 1] = ("%s: methods.%s names no method of map.METHODS.%s"):format(path, name, kind)
        end
      end
    end
    local kinds = {}
    for _, kind in ipairs(manifests.kinds()) do kinds[kind] = true end
    for _, path in ipairs(files(manifests.NATIVES_DIR .. "*.lua")) do
      local kind = path:match("([%w_]+)%.lua$")
      if not kinds[kind] then
        problems[#problems + 1] = ("%s names no kind of map.METHODS (map.METHODS.%s)"):format(path, kind)
      end
    end
  end
  for _, list in ipairs(LISTS) do
    local found = list.names()
    for _, name in ipairs(names) do
      if not found[name] then
        problems[#problems + 1] = ("map.%s is missing from %s (%s)"):format(name, list.file, list.what)
      end
    end
  end
  return problems
end

-- `fields` without `field`: a copy.
local function without(fields, field)
  local copy = {}
  for k, v in pairs(fields) do copy[k] = v end
  copy[field] = nil
  return copy
end

describe("the toolkit checklist (docs/architecture.md)", function()
  it("every export has its manifest, every method its entry, each of every field, and the lists have them", function()
    assert.are.same({}, missing(manifests.export_names(), true))
  end)

  -- bench/worst_all.lua's own check, which runs before it times anything.
  it("every entry has its worst valid call in bench/worst_all.lua", function()
    local out, err, code = support.run_main({ main = "bench/worst_all.lua" }, "--check")
    assert.are.same({ "", 0 }, { err, code })
    assert.truthy(out:find("every one of the %d+ entries has a worst case"), out)
  end)

  it("reports an export that nothing has, naming each file and each field of its manifest", function()
    local names = manifests.export_names()
    names[#names + 1] = "fake_export"
    local problems = {}
    for _, problem in ipairs(missing(names)) do
      if problem:find("fake_export", 1, true) then problems[#problems + 1] = problem end
    end
    local path = "spec/exports/fake_export.lua"
    local expected = { "map.fake_export has no manifest (" .. path .. ")" }
    for _, field in ipairs(manifests.FIELDS) do
      expected[#expected + 1] = ('%s: map.fake_export has no "%s"'):format(path, field)
    end
    for _, list in ipairs(LISTS) do
      expected[#expected + 1] = ("map.fake_export is missing from %s (%s)"):format(list.file, list.what)
    end
    assert.are.same(expected, problems)
  end)

  it("reports each field missing from a manifest or a method's entry, naming the manifest, the entry and the field",
    function()
      for _, entry in ipairs(manifests.entries()) do
        local fields = entry.method and (entry.export and append({ "cases" }, manifests.METHOD_FIELDS)
          or manifests.METHOD_FIELDS) or manifests.FIELDS
        assert.are.same({}, check_fields(entry, fields), entry.label)
        for _, field in ipairs(fields) do
          local stripped = { label = entry.label, name = entry.name, path = entry.path, method = entry.method,
            export = entry.export,
            fields = without(entry.fields, field) }
          local expected = { ('%s: %s has no "%s"'):format(entry.path, entry.label, field) }
          assert.are.same(expected, check_fields(stripped, fields))
        end
      end
    end)

  it("reports an empty list of samples or bad calls, a bad call without its message, a reference that does not name it",
    function()
      local entry = manifests.exports()[1]
      local function problems(changes)
        local fields = {}
        for k, v in pairs(entry.fields) do fields[k] = v end
        for k, v in pairs(changes) do fields[k] = v end
        return check_fields({ label = entry.label, name = entry.name, path = entry.path, fields = fields },
          manifests.FIELDS)
      end
      local where = entry.path .. ": " .. entry.label
      assert.are.same({ where .. '\'s "samples" is an empty list' }, problems({ samples = {} }))
      assert.are.same({ where .. '\'s "bad" is an empty list' }, problems({ bad = {} }))
      assert.are.same({ where .. '\'s "bad"[2] is a table, not { "<exact message>", function(f) }' },
        problems({ bad = { entry.fields.bad[1], { function() end } } }))
      assert.are.same({ where .. '\'s "samples" is a string, not ' .. FIELD.samples.expected },
        problems({ samples = "none" }))
      assert.are.same({ where .. '\'s "storm" is an empty reason' }, problems({ storm = " " }))
      local fake = { label = "map.fake_export", name = "fake_export", path = "spec/exports/fake_export.lua" }
      fake.fields = { reference = { spec = "spec/api_spec.lua", bench = "bench/bench.lua" } }
      assert.are.same({
        "spec/exports/fake_export.lua: map.fake_export's reference.spec, spec/api_spec.lua, does not name it",
        "spec/exports/fake_export.lua: map.fake_export's reference.bench, bench/bench.lua, does not name it",
      }, check_fields(fake, {}))
      fake.fields = { reference = { spec = "spec/none_spec.lua", bench = { run = print } } }
      assert.are.same({
        "spec/exports/fake_export.lua: map.fake_export's reference.spec, spec/none_spec.lua, does not exist",
        "spec/exports/fake_export.lua: map.fake_export's reference.bench is a workload without run and lua",
      }, check_fields(fake, {}))
    end)

  it("reads every list: each holds most exports", function()
    local names = manifests.export_names()
    for _, list in ipairs(LISTS) do
      local found, count = list.names(), 0
      for _, name in ipairs(names) do
        if found[name] then count = count + 1 end
      end
      assert(count >= #names / 2, list.file .. ": " .. count .. " exports read")
    end
  end)
end)

-- The names a fuzz target uses from `map::<module>::`, alone or in braces
-- (`map::toolkit::fov`, `map::toolkit::{fov, flee}`), as a set.
local function named_in_fuzz_targets(module)
  local set = {}
  for _, path in ipairs(files("fuzz/fuzz_targets/*.rs")) do
    local text = support.read_file(path)
    matches(text, module .. "::([%w_]+)", set)
    for group in text:gmatch(module .. "::(%b{})") do matches(group, "([%w_]+)", set) end
  end
  return set
end

-- Every memory bound of src/ outside the binding (a `pub fn bound` or
-- `pub fn bound_<what>` beside the code it bounds), as the name
-- tests/memory.rs calls it by: `<module>::<name>` (the file's name; a
-- mod.rs's, its folder's), or `.<module>.<name>` for a method (`&self`:
-- `params.design.bound(cells)`).
local function bounds_of_src()
  local set = {}
  for _, path in ipairs(files("src/*.rs src/*/*.rs src/*/*/*.rs")) do
    if not path:find("^src/lua/") then
      local module = path:match("([%w_]+)/mod%.rs$") or path:match("([%w_]+)%.rs$")
      for name, params in support.read_file(path):gmatch("pub fn (bound[%w_]*)(%b())") do
        if name == "bound" or name:find("^bound_") then
          local method = params:find("^%(&self") ~= nil
          set[(method and "." .. module .. "." or module .. "::") .. name] = path
        end
      end
    end
  end
  return set
end

-- The toolkit modules whose doc says why no fuzz target drives them
-- (`//! Not fuzzed: <why>`), as a set.
local function not_fuzzed()
  local set = {}
  for _, path in ipairs(files("src/toolkit/*.rs")) do
    if support.read_file(path):find("\n//! Not fuzzed: [^\n]*%S") then set[path:match("([%w_]+)%.rs$")] = true end
  end
  return set
end

-- The checklist's Rust entries, read from src/: each memory bound is
-- measured in tests/memory.rs, and each toolkit module and each file of
-- src/native/ is driven by a fuzz target (or, a toolkit module, says why
-- not), or is exempt here with the reason.
local RUST = {
  {
    what = "memory bound",
    file = "tests/memory.rs",
    have = bounds_of_src,
    names = function()
      local text, set = support.read_file("tests/memory.rs"), {}
      for name in pairs(bounds_of_src()) do
        local call = name:gsub("%.", "%%.") .. "%("
        -- A function's module starts a name; a method's follows a value.
        local start = name:sub(1, 1) == "." and "" or "[^%w_]"
        if text:find(start .. call) then set[name] = true end
      end
      return set
    end,
    exempt = {},
  },
  {
    what = "toolkit module",
    file = "fuzz/fuzz_targets/*.rs",
    have = function()
      local set = {}
      for _, path in ipairs(files("src/toolkit/*.rs")) do set[path:match("([%w_]+)%.rs$")] = true end
      set.mod = nil
      return set
    end,
    names = function()
      local set = named_in_fuzz_targets("toolkit")
      for name in pairs(not_fuzzed()) do set[name] = true end
      return set
    end,
    exempt = { radix_heap = "Dijkstra's queue: fuzzed through distances and path" },
  },
  {
    -- A file of src/native/ is named as `native::<file>` in a target; its
    -- mod.rs is the level itself, named as `native::NativeLevel`.
    what = "native module",
    file = "fuzz/fuzz_targets/*.rs",
    have = function()
      local set = {}
      for _, path in ipairs(files("src/native/*.rs")) do set[path:match("([%w_]+)%.rs$")] = true end
      return set
    end,
    names = function()
      local set = named_in_fuzz_targets("native")
      set.mod = set.NativeLevel
      return set
    end,
    exempt = {},
  },
}

describe("the checklist's Rust entries", function()
  for _, list in ipairs(RUST) do
    local have, found = list.have(), list.names()
    local names = {}
    for name in pairs(have) do names[#names + 1] = name end
    table.sort(names)
    it(list.file .. ": every " .. list.what .. " of src/", function()
      assert(#names >= 3, "read " .. #names .. " of " .. list.what)
      for _, name in ipairs(names) do
        assert(found[name] or list.exempt[name], ("%s %s is missing from %s"):format(list.what, name, list.file))
      end
      for name in pairs(list.exempt) do
        assert(have[name], ("%s exempts %s %s, which src/ does not have"):format(list.file, list.what, name))
      end
    end)
  end
end)

-- The generator checklist's hand-made entries (the rest is made from the
-- registry, spec/readme_spec.lua, and golden files are spec/generators_spec.lua's):
-- every file of src/generators/ is a generator in the list, or a part
-- they share, exempt here; every generator is named in CHANGELOG.md.
local SHARED = {
  mod = "the Generator type and the list",
  shared = "what several generators use while carving",
  loops = "the loops option's corridors, for rooms and bsp",
  touches = "what each room's exits touch",
}

describe("the generator checklist (docs/architecture.md)", function()
  it("every file of src/generators/ is in the list, or shared", function()
    local listed = {}
    for _, name in ipairs(map.ALGORITHMS) do listed[name] = true end
    local read = 0
    for _, path in ipairs(files("src/generators/*.rs")) do
      local name = path:match("([%w_]+)%.rs$")
      read = read + 1
      assert(listed[name] or SHARED[name], path .. " is no generator of generators! (src/generators/mod.rs)")
    end
    assert(read > #map.ALGORITHMS, "read " .. read .. " files")
    for name in pairs(SHARED) do
      assert(not listed[name], "src/generators/" .. name .. ".rs is a generator: take it off SHARED")
    end
  end)

  it("CHANGELOG.md names every generator", function()
    local named = matches(support.read_file("CHANGELOG.md"), "`([%a_][%w_]*)`")
    for _, name in ipairs(map.ALGORITHMS) do
      assert(named[name], "CHANGELOG.md does not name the generator `" .. name .. "`")
    end
  end)
end)
