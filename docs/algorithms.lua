-- What the docs and the types say about each generator, made from the
-- module itself (map.ALGORITHMS, map.describe), so that adding a generator
-- changes none of them by hand; and the lists of the natives' methods
-- (map.METHODS), so that adding a method does not either. Each part is the
-- text between two markers of one file:
--   docs/generators.md  the reference: doc line, minimum size, options and a
--                       sample map of every algorithm;
--   README.md           the table of generators;
--   docs/api.md         the list of names in the `algorithm` option's row;
--                       the level's methods that are table functions (its
--                       methods that are the method form of an export, by
--                       their manifests, spec/exports/<name>.lua, each
--                       written as the export's heading there without `m`);
--                       the table of every native's methods;
--   types/map.d.lua     map.Algorithm, each algorithm's options class (ranges
--                       and defaults in map.describe's words, other
--                       algorithms' options at the value that asks for
--                       nothing), its `.Exact` alias and map.GenerateOptions.
--
--   dofile("docs/algorithms.lua")  --> the parts: {path=, begin=, finish=, text=}
--   lua5.4 docs/algorithms.lua write  -- rewrites them in their files (`make readme`)
--
-- spec/readme_spec.lua checks that every file holds its part exactly.
package.path = "lua/?.lua;" .. package.path -- map.args, from the repository's root
local map = require "map"
local args = require "map.args"
-- The Lua caller's wording: a string option that takes rows says so.
local function allowed(option) return args.allowed(option, "lua") end

local function lines(list) return table.concat(list, "\n") end

local function read_text(path)
  local f = assert(io.open(path, "rb"))
  local text = f:read("*a")
  f:close()
  return text
end
local function capitalized(text) return (text:gsub("^%l", string.upper)) end

-- The sample shown for every algorithm: `lua main.lua 48 15 7 <name>`.
local SAMPLE = { width = 48, height = 15, seed = 7 }

local function reference()
  local out = {}
  local function say(line) out[#out + 1] = line end
  for _, name in ipairs(map.ALGORITHMS) do
    local about = map.describe(name)
    say(("#### `%s`"):format(name))
    say("")
    say(("%s. Smallest map: %dx%d."):format(capitalized(about.doc), about.min_width, about.min_height))
    say("")
    say("| option | allowed | default | what it does |")
    say("| --- | --- | --- | --- |")
    for _, option in ipairs(about.options) do
      say(("| `%s` | %s | %s | %s |"):format(option.name, allowed(option), option.default_text, option.doc))
    end
    say("")
    local sample = { width = SAMPLE.width, height = SAMPLE.height, seed = SAMPLE.seed, algorithm = name }
    say("```")
    say(("$ lua main.lua %d %d %d %s"):format(SAMPLE.width, SAMPLE.height, SAMPLE.seed, name))
    say(map.generate_text(sample))
    say("```")
    say("")
  end
  return lines(out)
end

local function readme_table()
  local out = { "| `algorithm` | what it makes | minimum size |", "| --- | --- | --- |" }
  for i, name in ipairs(map.ALGORITHMS) do
    local about = map.describe(name)
    out[#out + 1] = ("| `%s`%s | %s | %dx%d |"):format(name, i == 1 and " (default)" or "", capitalized(about.doc),
      about.min_width, about.min_height)
  end
  return lines(out)
end

local function quoted_names(quote, separator)
  local out = {}
  for i, name in ipairs(map.ALGORITHMS) do out[i] = quote .. name .. quote end
  return table.concat(out, separator)
end

-- "rooms" -> "map.RoomsOptions".
local function options_class(name)
  return "map." .. name:sub(1, 1):upper() .. name:sub(2) .. "Options"
end

-- The options of other algorithms that `name` takes at the value that asks
-- for nothing (map.args.nothing), in the module's order: {option, value,
-- the algorithms that take it}.
local function taken_as_nothing(name)
  local own, out, at = {}, {}, {}
  for _, option in ipairs(map.describe(name).options) do own[option.name] = true end
  for _, algorithm in ipairs(map.ALGORITHMS) do
    for _, option in ipairs(map.describe(algorithm).options) do
      local nothing = args.nothing(option)
      if not own[option.name] and nothing ~= nil then
        if not at[option.name] then
          out[#out + 1] = { option = option, value = nothing, owners = {} }
          at[option.name] = out[#out]
        end
        local owners = at[option.name].owners
        owners[#owners + 1] = algorithm
      end
    end
  end
  return out
end

local function types()
  local out = {
    "---A generator's name, one of `map.ALGORITHMS`.",
    "---@alias map.Algorithm " .. quoted_names('"', "|"),
    "",
  }
  local exact = {}
  for i, name in ipairs(map.ALGORITHMS) do
    local class = options_class(name)
    exact[i] = class .. ".Exact"
    out[#out + 1] = ("---@class (exact) %s: map.Options"):format(class)
    -- The first algorithm is the default: only its name may be left out.
    out[#out + 1] = ('---@field algorithm%s "%s"'):format(i == 1 and "?" or "", name)
    for _, option in ipairs(map.describe(name).options) do
      out[#out + 1] = ("---@field %s? %s %s, default %s: %s"):format(option.name, args.lua_type(option),
        allowed(option), option.default_text, option.doc)
    end
    for _, taken in ipairs(taken_as_nothing(name)) do
      local owners = table.concat(taken.owners, " and ")
      out[#out + 1] = ("---@field %s? %s only %s here: it asks for nothing (an option of %s)"):format(
        taken.option.name, tostring(taken.value), tostring(taken.value), owners)
    end
    -- The design options it refuses (off rock: vaults and arrive).
    local takes = {}
    for _, option in ipairs(map.describe(name).design) do takes[option.name] = true end
    for _, option in ipairs(map.describe(map.ALGORITHMS[1]).design) do
      if not takes[option.name] then
        out[#out + 1] = ("---@field %s? nil not here: %s applies only to levels carved from rock"):format(
          option.name, option.name)
      end
    end
    out[#out + 1] = ""
    out[#out + 1] = ("---@alias %s %s & table<keyof %s, any>"):format(exact[i], class, class)
    out[#out + 1] = ""
  end
  -- An algorithm known at run time only (`algorithm = ALGORITHMS[depth]`):
  -- what every algorithm takes, any other option at the value that asks for
  -- nothing.
  out[#out + 1] = "---Options for any algorithm (`algorithm = ALGORITHMS[depth]`): what every algorithm"
  out[#out + 1] = "---takes, and the others' options only at the value that asks for nothing."
  out[#out + 1] = "---@class (exact) map.AnyOptions: map.Options"
  out[#out + 1] = "---@field algorithm? map.Algorithm"
  local everywhere, seen = {}, {}
  for _, option in ipairs(map.describe(map.ALGORITHMS[1]).options) do
    local all = true
    for _, name in ipairs(map.ALGORITHMS) do
      local takes = false
      for _, o in ipairs(map.describe(name).options) do takes = takes or o.name == option.name end
      all = all and takes
    end
    if all then
      everywhere[#everywhere + 1] = option.name
      out[#out + 1] = ("---@field %s? %s %s, default %s: %s"):format(option.name, args.lua_type(option),
        allowed(option), option.default_text, option.doc)
    end
  end
  for _, name in ipairs(everywhere) do seen[name] = true end
  for _, algorithm in ipairs(map.ALGORITHMS) do
    for _, option in ipairs(map.describe(algorithm).options) do
      local nothing = args.nothing(option)
      if nothing ~= nil and not seen[option.name] then
        seen[option.name] = true
        out[#out + 1] = ("---@field %s? %s only %s: it asks for nothing"):format(option.name, tostring(nothing),
          tostring(nothing))
      end
    end
  end
  out[#out + 1] = ""
  out[#out + 1] = "---@alias map.AnyOptions.Exact map.AnyOptions & table<keyof map.AnyOptions, any>"
  out[#out + 1] = ""
  out[#out + 1] = "---`map.generate`'s table form: the options of one algorithm, and no other key."
  out[#out + 1] = "---@alias map.GenerateOptions " .. table.concat(exact, "|") .. "|map.AnyOptions.Exact"
  out[#out + 1] = ""
  -- map.level{...}: the same, and `things`.
  local level_exact = {}
  for i, name in ipairs(map.ALGORITHMS) do level_exact[i] = options_class(name) end
  level_exact[#level_exact + 1] = "map.AnyOptions"
  for i, class in ipairs(level_exact) do
    local level_class = class:gsub("Options$", "LevelOptions")
    out[#out + 1] = ("---@class (exact) %s: %s"):format(level_class, class)
    out[#out + 1] = "---@field things? string characters moved out of the terrain into `lvl:things()` "
      .. "besides `@`, `$`, `!` and `place`'s"
    out[#out + 1] = ""
    out[#out + 1] = ("---@alias %s.Exact %s & table<keyof %s, any>"):format(level_class, level_class, level_class)
    out[#out + 1] = ""
    level_exact[i] = level_class .. ".Exact"
  end
  out[#out + 1] = "---`map.level{...}`'s table form: `map.generate`'s, and `things`."
  out[#out + 1] = "---@alias map.LevelGenerateOptions " .. table.concat(level_exact, "|")
  return lines(out)
end

-- Words joined into lines of at most `width` characters.
local function wrapped(text, width)
  local out, line = {}, ""
  for word in text:gmatch("%S+") do
    if line ~= "" and #line + 1 + #word > width then
      out[#out + 1] = line
      line = word
    else
      line = line == "" and word or line .. " " .. word
    end
  end
  out[#out + 1] = line
  return lines(out)
end

-- The level's methods that are the method form of an export (the
-- manifests say which), each with its arguments as docs/api.md's heading
-- of the export gives them, the map left out: `lvl:fov(x, y [, radius [,
-- options]])`.
local function level_methods()
  local manifests = require "spec.manifests"
  local api = read_text("docs/api.md")
  local forms = {}
  for _, name in ipairs(map.METHODS.level) do
    local entry = manifests.method_entry("level", name)
    if entry and entry.export then
      local params = assert(api:match("\n## `map%." .. name .. "%(m([^`]*)%)`"),
        "docs/api.md has no heading ## `map." .. name .. "(m...)`")
      params = params:gsub("^, ", ""):gsub("^ %[, ", "[")
      forms[#forms + 1] = ("`lvl:%s(%s)`"):format(name, params)
    end
  end
  local list = table.concat(forms, ", ", 1, #forms - 1) .. " and " .. forms[#forms]
  return wrapped(list .. " are the table functions with the level for the map (walking by `lvl.blocked` where it "
    .. "has one). What differs:", 75)
end

-- Every kind of native and its methods, in the module's order.
local function methods_table()
  local kinds = {}
  for kind in pairs(map.METHODS) do kinds[#kinds + 1] = kind end
  table.sort(kinds)
  local out = { "| kind | `map.METHODS.<kind>` |", "| --- | --- |" }
  for _, kind in ipairs(kinds) do
    local names = {}
    for i, name in ipairs(map.METHODS[kind]) do names[i] = "`" .. name .. "`" end
    out[#out + 1] = ("| `%s` | %s |"):format(kind, table.concat(names, ", "))
  end
  return lines(out)
end

local MADE = "(made from the module by `make readme`)"

-- Each part's text goes between `begin` and the first `finish` after it;
-- a part between marker lines starts and ends with a newline.
local parts = {
  { path = "docs/generators.md", begin = "<!-- algorithms: begin " .. MADE .. " -->",
    finish = "<!-- algorithms: end -->", text = "\n" .. reference() .. "\n" },
  { path = "README.md", begin = "<!-- generators: begin " .. MADE .. " -->",
    finish = "<!-- generators: end -->", text = "\n" .. readme_table() .. "\n" },
  { path = "docs/api.md", begin = "one of `map.ALGORITHMS`: ",
    finish = " |", text = quoted_names("`", ", ") },
  { path = "types/map.d.lua", begin = "-- algorithms: begin " .. MADE,
    finish = "-- algorithms: end", text = "\n" .. types() .. "\n" },
  { path = "docs/api.md", begin = "<!-- level methods: begin " .. MADE .. " -->",
    finish = "<!-- level methods: end -->", text = "\n" .. level_methods() .. "\n", drift = "light" },
  { path = "docs/api.md", begin = "<!-- methods: begin " .. MADE .. " -->",
    finish = "<!-- methods: end -->", text = "\n" .. methods_table() .. "\n", drift = "grid" },
}

-- `old` (a file's text) with `part`'s text in place; errors when a marker is missing.
local function with_part(part, old)
  local from = assert(old:find(part.begin, 1, true), "no begin marker in " .. part.path) + #part.begin
  local to = assert(old:find(part.finish, from, true), "no end marker in " .. part.path)
  return old:sub(1, from - 1) .. part.text .. old:sub(to)
end

local function read(path)
  local f = assert(io.open(path, "rb"))
  local text = f:read("*a")
  f:close()
  return text
end

local command = ...
assert(command == nil or command == "write", "usage: lua5.4 docs/algorithms.lua write")
if command == "write" then
  for _, part in ipairs(parts) do
    local text = with_part(part, read(part.path))
    local f = assert(io.open(part.path, "wb"))
    f:write(text)
    f:close()
  end
end

return { parts = parts, with_part = with_part, read = read }
