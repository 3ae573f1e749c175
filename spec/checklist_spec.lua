-- The toolkit checklist of docs/architecture.md, enforced: every function
-- the module exports (the functions of `require "map"`, read at run time,
-- so that a new export is checked with no edit here) has its entry in each
-- list below, read from the list's own file, or is exempt from that list
-- here, with the reason. A missing entry fails, naming the export and the
-- file. `_panic_probe` is not checked: it is a test hook, leaving normal
-- builds. The Rust entries (a bound measured, a module fuzzed) are read
-- from src/ the same way, at the end.
local map = require "map"
local support = require "spec.support"
local host = require "tests.host.lib"

local NOT_CHECKED = { _panic_probe = true }

local function exports()
  local names = {}
  for name, value in pairs(map) do
    if type(value) == "function" and not NOT_CHECKED[name] then names[#names + 1] = name end
  end
  table.sort(names)
  return names
end

-- The set of names matched by `pattern` (one capture) in `text`.
local function matches(text, pattern, set)
  set = set or {}
  for name in text:gmatch(pattern) do set[name] = true end
  return set
end

local CALLED = "map%.([%a_][%w_]*)"  -- map.fov, map.fov(...)
local QUOTED = '"([%a_][%w_]*)"'     -- "fov", as in a list of function names
local LABEL = '"map%.([%a_][%w_]*)"' -- "map.fov", the label of a host case

-- The text of the table constructor `opening` (e.g. "local CALLS = {")
-- found after `after` in `text`, braces matched (the lists read here hold
-- no unmatched brace in a string). Errors when either is missing, so that a
-- list renamed is noticed, not read as empty.
local function table_text(text, after, opening)
  local from = assert(text:find(after, 1, true), "no " .. after)
  local at = assert(text:find(opening, from, true), "no " .. opening .. " after " .. after)
  return text:match("%b{}", at + #opening - 1)
end

-- The arguments of every call of `fn` in `text`, as one string, parentheses
-- matched outside string literals (hostile messages hold unmatched ones).
local function arguments_of(fn, text)
  local out, at = {}, 1
  while true do
    local from, open = text:find("%f[%w_]" .. fn .. "%(", at)
    if not from then break end
    local depth, i, quote = 1, open + 1, nil
    while depth > 0 and i <= #text do
      local c = text:sub(i, i)
      if quote then
        if c == "\\" then i = i + 1 elseif c == quote then quote = nil end
      elseif c == '"' or c == "'" then
        quote = c
      elseif c == "(" then
        depth = depth + 1
      elseif c == ")" then
        depth = depth - 1
      end
      i = i + 1
    end
    out[#out + 1] = text:sub(open + 1, i - 2)
    at = i
  end
  return table.concat(out, "\n")
end

local function files(glob)
  local list = {}
  local ls = assert(io.popen("ls " .. glob))
  for path in ls:lines() do list[#list + 1] = path end
  ls:close()
  return list
end

-- The lists: where each is, what it holds, how its names are read (a set of
-- names), and the exports exempt from it with why.
local HOSTILE, HOST_CAPPED = "spec/hostile_spec.lua", "tests/host/capped_exports.lua"
local STORM = { 'describe("a finalizer storm"', "local CALLS = {" }
local LISTS = {
  {
    file = HOSTILE,
    what = "its hostile calls (a fails(...) of map.<name>, or \"<name>\" in a list of functions)",
    names = function()
      local text = support.read_file(HOSTILE)
      local storm = table_text(text, STORM[1], STORM[2])
      local from = text:find(storm, 1, true)
      local rest = text:sub(1, from - 1) .. text:sub(from + #storm)
      return matches(rest, QUOTED, matches(arguments_of("fails", rest), CALLED))
    end,
  },
  {
    file = HOSTILE,
    what = "the finalizer storm's CALLS",
    names = function() return matches(table_text(support.read_file(HOSTILE), STORM[1], STORM[2]), CALLED) end,
  },
  {
    file = "tests/host/lib.lua or " .. HOST_CAPPED,
    what = "every_export's cases or the capped cases",
    names = function()
      local by_function = {}
      for name, value in pairs(map) do by_function[value] = name end
      local set = matches(support.read_file(HOST_CAPPED), LABEL)
      for _, case in ipairs(host.every_export(map, 4, 8)) do set[by_function[case[2]] or case[1]] = true end
      return set
    end,
    exempt = {
      describe = "a description of fixed size: no argument makes it large",
      step = "reads the 3x3 cells around one cell and returns two integers, whatever the map",
      rng = "a source of fixed size (its block and 32 bytes of state): no argument makes it large",
      noise = "a userdata of fixed size (at most 16 octaves of 512-byte tables); its grid is the case that grows",
    },
  },
  {
    file = "spec/memory_spec.lua",
    what = 'a within_bound("<name> ...") of its Lua result',
    names = function() return matches(support.read_file("spec/memory_spec.lua"), 'within_bound%("([%a_][%w_]*)') end,
    exempt = {
      reachable = "true, or false and a short message: no result grows with the map",
      describe = "a description of fixed size",
      step = "two integers",
      visible = "a boolean",
    },
  },
  {
    file = "spec/types_spec.lua",
    what = "a sample call in CALLS",
    names = function()
      local calls = table_text(support.read_file("spec/types_spec.lua"), "Calls of every function", "local CALLS = {")
      return matches(calls, "\n%s*([%a_][%w_]*)%s*=")
    end,
  },
  {
    file = "bench/*.lua",
    what = 'a timed call (map.<name>, or "<name>" in a list of functions)',
    names = function()
      local set = {}
      for _, path in ipairs(files("bench/*.lua")) do
        local text = support.read_file(path)
        matches(text, QUOTED, matches(text, CALLED, set))
      end
      return set
    end,
  },
  {
    file = "spec/<name>_spec.lua or spec/api_spec.lua",
    what = 'a spec of its own, or a describe("<name> ...") of the level API\'s',
    exempt = {
      load = "spec/level_spec.lua: levels and fields saved and loaded back",
      field = "spec/level_spec.lua: a memory marked by fov, as known",
    },
    names = function()
      local set = {}
      for _, path in ipairs(files("spec/*_spec.lua")) do set[path:match("([%w_]+)_spec%.lua$")] = true end
      for title in support.read_file("spec/api_spec.lua"):gmatch('\ndescribe%("([^"]*)"') do
        matches(title, "([%a_][%w_]*)", set)
      end
      return set
    end,
  },
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

-- "map.<name> is missing from <file> (<what>)" for each of `names` that a
-- list lacks, and for each exemption that names no export (a stale one).
local function missing(names)
  local problems, exported = {}, {}
  for _, name in ipairs(names) do exported[name] = true end
  for _, list in ipairs(LISTS) do
    local found, exempt = list.names(), list.exempt or {}
    for _, name in ipairs(names) do
      if not found[name] and not exempt[name] then
        problems[#problems + 1] = ("map.%s is missing from %s (%s)"):format(name, list.file, list.what)
      end
    end
    for name in pairs(exempt) do
      if not exported[name] then
        problems[#problems + 1] = ("%s exempts map.%s, which is not exported"):format(list.file, name)
      end
    end
  end
  return problems
end

describe("the toolkit checklist (docs/architecture.md)", function()
  it("every export has its entry in every list, or is exempt from it here", function()
    assert.are.same({}, missing(exports()))
  end)

  it("reports an export that no list has, naming each file", function()
    local names = exports()
    names[#names + 1] = "fake_export"
    local problems = {}
    for _, problem in ipairs(missing(names)) do
      if problem:find("fake_export", 1, true) then problems[#problems + 1] = problem end
    end
    assert.are.equal(#LISTS, #problems)
    for i, list in ipairs(LISTS) do
      assert.are.equal(("map.fake_export is missing from %s (%s)"):format(list.file, list.what), problems[i])
    end
  end)

  it("reads every list: each holds most exports", function()
    local names = exports()
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

-- The checklist's Rust entries, read from src/: each bound of
-- src/memory.rs is measured in tests/memory.rs, and each toolkit module and
-- each file of src/native/ is driven by a fuzz target, or is exempt here
-- with the reason.
local RUST = {
  {
    what = "bound",
    file = "tests/memory.rs",
    have = function() return matches(support.read_file("src/memory.rs"), "pub fn (bound_[%w_]+)") end,
    names = function() return matches(support.read_file("tests/memory.rs"), "memory::(bound_[%w_]+)%(") end,
    exempt = { bound_design = "measured as the level's Design::bound, which is made of it" },
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
    names = function() return named_in_fuzz_targets("toolkit") end,
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
