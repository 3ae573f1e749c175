-- Prints a generated map: lua main.lua [width] [height] [seed] [algorithm]
if _VERSION == "Lua 5.1" and not jit then
  io.stderr:write("main.lua: needs Lua 5.4 or LuaJIT, this is Lua 5.1 (see the README)\n")
  os.exit(1)
end

local map = require "map"

local USAGE = "usage: lua main.lua [width] [height] [seed] [" .. table.concat(map.ALGORITHMS, "|") .. "]"
  .. " (default 60 20, seed from the clock, " .. map.ALGORITHMS[1] .. "; seed: integer, |seed| <= 2^53)"

local function fail(message)
  io.stderr:write("main.lua: ", message, "; ", USAGE, "\n")
  os.exit(1)
end

-- An integer argument, read exactly: LuaJIT's numbers are doubles, so a
-- long digit string is range-checked as text before it can round.
local function integer(name, text)
  local sign, digits = text:match("^([+-]?)0*(%d+)$")
  if not digits then
    fail(name .. " must be an integer, got '" .. text .. "'")
  end
  local limit = "9007199254740992" -- 2^53
  if #digits > #limit or (#digits == #limit and digits > limit) then
    fail(name .. " must have absolute value <= 2^53, got " .. text)
  end
  return tonumber(sign .. digits)
end

if #arg > 4 then
  fail("too many arguments")
end

local width = arg[1] and integer("width", arg[1]) or 60
local height = arg[2] and integer("height", arg[2]) or 20
local seed = arg[3] and integer("seed", arg[3])

local ok, result = pcall(map.generate, { width = width, height = height, seed = seed, algorithm = arg[4] })
if not ok then
  fail(tostring(result))
end
io.write(map.render(result), "\n")
