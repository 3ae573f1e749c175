-- generate's arguments read from text: the one reading that the CLI
-- (lua/main.lua, `--rooms=3`) and the server (map/server.lua, `?rooms=3`)
-- share, so the same text means the same map, or the same message, in both.
--
-- Everything about the options comes from the module's registry
-- (map.ALGORITHMS, map.describe): an option a generator adds is read here
-- with no change. Plain Lua, no `ngx`: it runs on Lua 5.4 and LuaJIT.
local map = require "map"

local M = {}

M.DEFAULT_WIDTH = 60 -- `lua main.lua` and `/` both make a 60x20 map
M.DEFAULT_HEIGHT = 20
M.ALGORITHMS = map.ALGORITHMS
M.DEFAULT_ALGORITHM = map.ALGORITHMS[1]

-- Each algorithm's description (map.describe), read once.
---@type table<string, map.Description>
M.DESCRIPTIONS = {}
-- Every option of every algorithm, in the module's order, each once, and its
-- type ("integer", "number", "boolean" or "string"; options of one name share
-- a type).
M.OPTIONS, M.OPTION_TYPES = {}, {}
for _, algorithm in ipairs(M.ALGORITHMS) do
  M.DESCRIPTIONS[algorithm] = map.describe(algorithm)
  for _, option in ipairs(M.DESCRIPTIONS[algorithm].options) do
    if not M.OPTION_TYPES[option.name] then
      M.OPTION_TYPES[option.name] = option.type
      M.OPTIONS[#M.OPTIONS + 1] = option.name
    end
  end
end

-- A user-supplied string, shortened and made printable, for messages.
function M.shown(s)
  local out = s:sub(1, 40):gsub("[^%w%p ]", function(c) return string.format("\\x%02X", c:byte()) end)
  if #s > 40 then out = out .. "..." end
  return "'" .. out .. "'"
end

local LIMIT = "9007199254740992" -- 2^53, as text

-- An integer literal read exactly: an optional sign, decimal digits (leading
-- zeros allowed), |n| <= 2^53, range-checked as text before LuaJIT's doubles
-- could round it. Returns the number, or nil and "syntax" (not an integer
-- literal) or "range" (one beyond 2^53).
function M.integer(text)
  local sign, digits = text:match("^([+-]?)0*(%d+)$")
  if not digits then return nil, "syntax" end
  if #digits > #LIMIT or (#digits == #LIMIT and digits > LIMIT) then return nil, "range" end
  return tonumber(sign .. digits)
end

-- A value from its text, by type; nil when the text is not of that type.
-- Ranges are the module's to check.
M.READERS = {
  integer = function(text) return (M.integer(text)) end,
  number = function(text) -- a decimal number: no exponent, no hex, no nan or inf
    if text:match("^[+-]?%d+%.?%d*$") or text:match("^[+-]?%.%d+$") then return tonumber(text) end
  end,
  boolean = function(text)
    if text == "true" or text == "on" then return true end -- "on": what a checked checkbox sends
    if text == "false" then return false end
  end,
  string = function(text) return text end, -- the module checks its length and meaning
}

local A = { integer = "an integer", number = "a number", boolean = "a boolean", string = "a string" }

-- `text` read as a value of type `kind`, named `name` in the message: the
-- value, or nil and "<name> must be <a kind>, got '<text>'".
function M.read(name, kind, text)
  local value = M.READERS[kind](text)
  if value == nil then return nil, name .. " must be " .. A[kind] .. ", got " .. M.shown(text) end
  return value
end

-- An option of any algorithm from its text (which algorithm takes it is the
-- module's to say). Returns the value, or nil and a message.
function M.option(name, text)
  return M.read(name, M.OPTION_TYPES[name], text)
end

-- A seed from its text: the number, or nil and a message.
function M.seed(text)
  local seed = M.integer(text)
  if not seed then return nil, "seed must be an integer from -2^53 to 2^53, got " .. M.shown(text) end
  return seed
end

-- A fresh seed in 0 .. 2^53-1, from /dev/urandom (53 bits from 7 bytes).
---@return integer
function M.random_seed()
  local f = io.open("/dev/urandom", "rb")
  local bytes = f and f:read(7)
  if f then f:close() end
  if not bytes or #bytes ~= 7 then
    return math.random(0, 2 ^ 26 - 1) * 2 ^ 27 + math.random(0, 2 ^ 27 - 1) -- no urandom: best effort
  end
  local n = bytes:byte(1) % 32
  for i = 2, 7 do n = n * 256 + bytes:byte(i) end
  return n
end

-- A number as text, by its type: an integer with "%d" (exact up to 2^53 on
-- LuaJIT too, where tostring would round it), a number with "%.14g" (what
-- tostring gives for non-integers on both interpreters, but "1" for 1.0).
-- The one form of the CLI's --help, the page's inputs and the values the
-- page shows.
function M.number_text(x, kind)
  if kind == "integer" then return string.format("%d", x) end
  return (string.format("%.14g", x))
end

-- An option's range in words, from its description (map.describe), in one
-- of three wordings. "allowed" (the default: the CLI's --help): "integer
-- from 1 to 10000", "number in (0, 1]", "boolean". "lua" (the types' docs,
-- docs/generators.md): the same, and for a string option that takes rows
-- (option.rows) ", or an array of its rows", which only a Lua caller can
-- give. "title" (the page's inputs, said rather than written): "1 to
-- 10000", "over 0, up to 1". Rust's check() words its messages itself.
local WORDINGS = {
  allowed = { integer = "integer from %s to %s", closed = "number in [%s, %s]", open = "number in (%s, %s]" },
  title = { integer = "%s to %s", closed = "%s to %s", open = "over %s, up to %s" },
}
function M.allowed(option, wording)
  if option.type == "boolean" then return "boolean" end
  if option.type == "string" then
    local rows = wording == "lua" and option.rows and ", or an array of its rows" or ""
    return ("string of at most %d bytes%s"):format(option.max, rows)
  end
  local forms = WORDINGS[wording == "title" and "title" or "allowed"]
  local form = option.type == "integer" and forms.integer or option.open_min and forms.open or forms.closed
  return form:format(M.number_text(option.min, option.type), M.number_text(option.max, option.type))
end

-- An option's type as the types declare it: its description's type, and
-- "string|string[]" for a string option that takes its rows as an array.
function M.lua_type(option)
  if option.type == "string" and option.rows then return "string|string[]" end
  return option.type
end

-- The value of an option that asks for nothing, which every algorithm takes
-- (and ignores) so that one table of options serves every algorithm: false
-- for a switch off by default, 0 for an option whose default and least
-- value are 0 (docs/api.md); nil where every value asks for something. The
-- module's rule, for the types and the docs (spec/types_spec.lua checks
-- that the module agrees).
function M.nothing(option)
  if option.default == false then return false end
  if option.default == 0 and option.min == 0 and not option.open_min then return 0 end
  return nil
end

-- Whether a module's error is an internal one (a bug in the module, not in
-- the arguments): map.INTERNAL_ERROR right after the function's name
-- ("map.generate_text: internal error (please report): ..."). Only there:
-- a message about the arguments may quote the caller's text, which could
-- hold the marker too (`lua main.lua 60 20 1 'internal error'`).
function M.is_internal(err)
  local colon = err:find(": ", 1, true)
  return colon ~= nil and err:sub(colon + 2, colon + 1 + #map.INTERNAL_ERROR) == map.INTERNAL_ERROR
end

-- A module's refusal without the function's name in front
-- ("map.generate_text: width must be ..." -> "width must be ..."): the CLI
-- and the server speak of their own arguments, not of the module's calls.
function M.unprefixed(err)
  return (err:gsub("^map%.[%w_]+: ", ""))
end

return M
