#!/usr/bin/env lua
-- Prints a generated map: lua main.lua [width] [height] [seed] [algorithm] [--name=value ...]
-- (`lua main.lua --help` lists everything; docs/cli.md). Arguments are read
-- by map.args, as the server reads its query. `make install` and the rock
-- install this file as the `map` command.

-- The command's name in messages: main.lua in a checkout, map installed.
local NAME = (arg and arg[0] or ""):match("[^/]+$") or "main.lua"
local HINT = " (" .. (NAME:match("%.lua$") and "lua " .. NAME or NAME) .. " --help for usage)"

-- The LuaJIT the rock was built with, or nil: the Makefile's `rock` target
-- writes its path here in the copy it installs. luarocks' wrapper for a
-- LuaJIT tree starts plain lua5.1 unless luarocks is configured otherwise
-- (its lua_interpreter), and this file then runs itself again on LuaJIT.
---@type string?
local BUILT_FOR = nil

-- A word for sh, quoted.
local function quoted(s)
  return "'" .. s:gsub("'", "'\\''") .. "'"
end

-- Runs this file with the same arguments and paths on `lua`; its exit status.
local function run_on(lua)
  local words = { "exec env", "LUA_PATH=" .. quoted(package.path), "LUA_CPATH=" .. quoted(package.cpath),
    "MAP_RERUN=1", quoted(lua), quoted(arg[0]) }
  for i = 1, #arg do words[#words + 1] = quoted(arg[i]) end
  local status = os.execute(table.concat(words, " "))
  -- Lua 5.1's os.execute gives system()'s status: the exit code times 256,
  -- or the signal that ended the command.
  if status % 256 ~= 0 then return 128 + status % 128 end
  return math.floor(status / 256)
end

---@diagnostic disable-next-line: unnecessary-if (type checkers assume LuaJIT; plain Lua 5.1 gets here)
if _VERSION == "Lua 5.1" and not jit then
  if BUILT_FOR and not os.getenv("MAP_RERUN") then os.exit(run_on(BUILT_FOR)) end
  io.stderr:write(NAME, ": needs Lua 5.4 or LuaJIT, this is Lua 5.1 (see the README)\n")
  os.exit(1)
end

-- The module `make` built beside this file comes first (a checkout:
-- lua/main.lua, ../build/lib/lua/V/), then the one installed with it
-- (PREFIX/bin/map: PREFIX/lib/lua/V/, PREFIX/share/lua/V/), then the usual
-- paths (a copy elsewhere, or the rock's command, whose wrapper sets them).
local here = (arg and arg[0] or ""):match("^(.*)/[^/]*$") or "."
local version = jit and "5.1" or "5.4"
package.path = here .. "/?.lua;" .. here .. "/../share/lua/" .. version .. "/?.lua;" .. package.path
package.cpath = here .. "/../build/lib/lua/" .. version .. "/?.so;" .. here .. "/../lib/lua/" .. version .. "/?.so;"
  .. package.cpath

local map = require "map"
local args = require "map.args"

local POSITIONAL = { "width", "height", "seed", "algorithm" }

-- Bad usage: one line on stderr, exit status 2.
local function usage_error(message)
  io.stderr:write(NAME, ": ", message, HINT, "\n")
  os.exit(2)
end

-- Writes the output and makes sure it arrived: a full disk, a closed
-- stdout or a vanished reader is one line on stderr and status 1, never a
-- map lost in silence (io.write buffers; the error shows at the flush).
local function output(text)
  local written, problem = io.stdout:write(text)
  ---@type true?
  local flushed = nil
  if written then flushed, problem = io.stdout:flush() end
  if not flushed then
    io.stderr:write(NAME, ": cannot write to stdout: ", tostring(problem), "\n")
    os.exit(1)
  end
end

-- Ctrl-C: the interpreter turns SIGINT into the error "interrupted!",
-- which a call into the module passes on after its name. It ends the
-- command with the status a shell gives a process stopped by SIGINT (128 +
-- 2), no usage hint: nothing was wrong with the arguments.
local function interrupted(message)
  return tostring(message):match("interrupted!$") ~= nil
end

-- What a named argument takes, for --help and messages, by name or type.
local PLACEHOLDER = { integer = "N", number = "X", string = "TEXT", seed = "N", algorithm = "NAME",
  format = "text|json" }

-- The help text, from the registry: every algorithm, its doc, its smallest
-- size, its options with their types, ranges, defaults and docs.
local function help()
  local command = NAME:match("%.lua$") and "lua " .. NAME or NAME
  local lines = {
    "usage: " .. command .. " [width] [height] [seed] [algorithm] [--name=value ...]",
    "",
    "Prints a map (map.generate_text, or map.generate_json with --format=json) and a newline on stdout.",
    "",
    "  width, height     integers (default " .. args.DEFAULT_WIDTH .. " " .. args.DEFAULT_HEIGHT
      .. "; each algorithm has a smallest size)",
    "  seed              an integer with |seed| <= 2^53 (default: a fresh one, shown on stderr as \"seed: N\")",
    "  algorithm         " .. table.concat(args.ALGORITHMS, ", ") .. " (default " .. args.DEFAULT_ALGORITHM .. ")",
    "  --width=N --height=N --seed=N --algorithm=NAME",
    "                    the same, by name (--width 80 too); named and positional arguments mix freely",
    "  --format=text|json",
    "                    the text (default) or the level as JSON",
    "  --OPTION=VALUE    an option of the algorithm, below; a boolean one alone (--doors) is true",
    "  stats ... --seeds=A..B [--csv]",
    "                    the seed catalogue: each seed's level analysed, one JSON (or CSV) line (docs/cli.md)",
    "  -h, --help        this text",
    "  -v, --version     the module's version and the interpreter",
    "  --                the arguments after it are positional (a seed such as -5 is one anyway)",
    "",
    "Values are read as the server reads them: integers exactly, numbers as decimals (0.45),",
    "booleans as true, on or false. Bad arguments print one line on stderr and exit with status 2;",
    "an output that cannot be written, one line and status 1; Ctrl-C, status 130.",
  }
  for _, name in ipairs(args.ALGORITHMS) do
    local about = args.DESCRIPTIONS[name]
    lines[#lines + 1] = ""
    lines[#lines + 1] = ("%s: %s (smallest %dx%d)"):format(name, about.doc, about.min_width, about.min_height)
    for _, option in ipairs(about.options) do
      local form = "--" .. option.name .. (PLACEHOLDER[option.type] and "=" .. PLACEHOLDER[option.type] or "[=BOOL]")
      lines[#lines + 1] = ("  %-17s %s, default %s: %s"):format(form, args.allowed(option), option.default_text,
        option.doc)
    end
  end
  return table.concat(lines, "\n") .. "\n"
end

-- Whether `--name` takes a value (`--name=value` or `--name value`): all
-- but the boolean options, which alone mean true.
local function takes_value(name)
  local kind = args.OPTION_TYPES[name]
  return name == "width" or name == "height" or name == "seed" or name == "algorithm" or name == "format"
    or kind ~= nil and kind ~= "boolean"
end

-- One "--" argument `a`: its name and value, and how many arguments it
-- took (2 when its value is `following`, given apart: `--fill 0.3`).
---@param a string
---@param following string?
---@return string name
---@return string|true value
---@return integer taken
local function named(a, following)
  local name, value = a:match("^%-%-([^=]*)=(.*)$")
  if name == "" then usage_error("'" .. a .. "' names no option") end
  if name and value then return name, value, 1 end
  name = a:sub(3)
  if takes_value(name) and following ~= nil then return name, following, 2 end
  return name, true, 1
end

-- The arguments as texts by name, positional and named alike: given[name]
-- is the text, or true for a named one without a value (--doors). After
-- "--" every argument is positional; before it, "-" and a letter is an
-- option, and "-" and a digit a negative number.
local function collect(list)
  local given, next_position, options_end = {}, 1, false
  local i = 1
  while list[i] ~= nil do
    local a, name, value, taken = list[i], nil, nil, 1
    if a == "--" and not options_end then
      options_end = true
    elseif options_end or not a:match("^%-") or a:match("^%-[%d.]") or a == "-" then
      name, value = POSITIONAL[next_position], a
      if not name then usage_error("too many arguments: " .. args.shown(a)) end
      next_position = next_position + 1
    elseif a == "-h" or a == "--help" then
      output(help())
      os.exit(0)
    elseif a == "-v" or a == "--version" then
      output(("map %s (%s)\n"):format(map.VERSION, jit and jit.version or _VERSION))
      os.exit(0)
    elseif a:sub(1, 2) ~= "--" then
      usage_error("unknown option " .. args.shown(a))
    else
      name, value, taken = named(a, list[i + 1])
    end
    if name then
      if given[name] ~= nil then usage_error(name .. " given twice") end
      given[name] = value
    end
    i = i + taken
  end
  return given
end

-- generate's options and the format from the texts, read by type (in the
-- names' order, so that of two bad arguments the same one is named).
local function read(given)
  local options, format = {}, "text"
  local names = {}
  for name in pairs(given) do names[#names + 1] = name end
  table.sort(names)
  for _, name in ipairs(names) do
    local text = given[name]
    local kind = (name == "width" or name == "height") and "integer" or args.OPTION_TYPES[name]
    if name ~= "seed" and name ~= "algorithm" and name ~= "format" and not kind then
      usage_error("unknown option --" .. name)
    end
    if text == true then
      if kind ~= "boolean" then
        usage_error("--" .. name .. " needs a value: --" .. name .. "=" .. (PLACEHOLDER[name] or PLACEHOLDER[kind]))
      end
      text = "true"
    end
    local value, problem = text, nil
    if name == "seed" then
      value, problem = args.seed(text)
    elseif name == "format" then
      if text ~= "text" and text ~= "json" then problem = "format must be text or json, got " .. args.shown(text) end
    elseif name ~= "algorithm" then
      value, problem = args.read(name, kind, text)
    end
    if problem then usage_error(problem) end
    if name == "format" then format = value else options[name] = value end
  end
  return options, format
end

-- `map stats [width] [height] [algorithm] --seeds=A..B [--csv] [--OPTION=VALUE ...]`:
-- the seed catalogue (map.stats), one line per seed.
local function stats(list)
  local rest, seeds, csv = {}, nil, false
  local i = 1
  while list[i] ~= nil do
    local a = list[i]
    if a:match("^%-%-seeds=") then
      seeds = a:sub(9)
    elseif a == "--seeds" then -- --seeds A..B
      i = i + 1
      seeds = list[i]
    elseif a == "--csv" then
      csv = true
    else
      rest[#rest + 1] = a
    end
    i = i + 1
  end
  local first, last = (seeds or ""):match("^(%-?%d+)%.%.(%-?%d+)$")
  local from, to = tonumber(first), tonumber(last)
  if not from or not to or to < from or to - from >= 1e7 then
    usage_error("stats needs --seeds=A..B, A <= B, at most 10^7 seeds")
  end
  if rest[3] and not rest[3]:match("^%-") then table.insert(rest, 3, "0") end
  local options = read(collect(rest))
  options.width = options.width or args.DEFAULT_WIDTH
  options.height = options.height or args.DEFAULT_HEIGHT
  local ok, problem = pcall(require("map.stats").catalogue, options, from, to, csv, output)
  if not ok then
    if interrupted(problem) then os.exit(130) end
    usage_error(args.unprefixed(tostring(problem)))
  end
end

local function main()
  if arg[1] == "stats" then return stats({ (table.unpack or unpack)(arg, 2) }) end
  local options, format = read(collect(arg))
  options.width = options.width or args.DEFAULT_WIDTH
  options.height = options.height or args.DEFAULT_HEIGHT
  local fresh = options.seed == nil
  if fresh then options.seed = args.random_seed() end

  local ok, result = pcall(format == "json" and map.generate_json or map.generate_text, options)
  if not ok then
    result = tostring(result)
    if interrupted(result) then os.exit(130) end
    if args.is_internal(result) then -- a bug in the module, not in the arguments
      io.stderr:write(NAME, ": ", result, "\n")
      os.exit(1)
    end
    usage_error(args.unprefixed(result))
  end
  -- An unseeded map can be made again: its seed goes to stderr, stdout stays the map.
  if fresh then io.stderr:write(("seed: %d\n"):format(options.seed)) end
  output(result .. "\n")
end

-- Ctrl-C outside the module's calls ends the command the same way; any
-- other error is a bug here, shown with its traceback as the interpreter
-- would.
local ok, problem = xpcall(main, function(message)
  if interrupted(message) then os.exit(130) end
  return debug.traceback(tostring(message), 2)
end)
if not ok then
  io.stderr:write(NAME, ": ", tostring(problem), "\n")
  os.exit(1)
end
