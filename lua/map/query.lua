-- The server's query strings: split, decoded, checked into a request, and
-- made again from one (`map.query`, a part of map.server; see server.lua for
-- the URL's form). Plain Lua, no `ngx`, like map.args, which reads the
-- values by type as the CLI does.
local args = require "map.args"

local find, sub = string.find, string.sub
local shown = args.shown

local M = {}

M.DEFAULT_WIDTH = args.DEFAULT_WIDTH -- /?seed=42 is `lua main.lua 60 20 42`
M.DEFAULT_HEIGHT = args.DEFAULT_HEIGHT
M.DEFAULT_ALGORITHM = args.DEFAULT_ALGORITHM
-- The page's own parameters, booleans (true, on or false) that text and JSON
-- ignore: `path` shows the path from @ to > when the page opens; `form` says
-- the page's form sent the request (see check).
M.PARAMETERS = { "seed", "width", "height", "algorithm", "format", "path", "form" }
for _, name in ipairs(args.OPTIONS) do M.PARAMETERS[#M.PARAMETERS + 1] = name end
M.FORMATS = { html = "text/html; charset=utf-8", text = "text/plain; charset=utf-8", json = "application/json" }

local KNOWN = {}
for _, name in ipairs(M.PARAMETERS) do KNOWN[name] = true end

-- Which options each algorithm takes: TAKES[algorithm][name].
local TAKES = {}
for _, algorithm in ipairs(args.ALGORITHMS) do
  TAKES[algorithm] = {}
  for _, option in ipairs(args.DESCRIPTIONS[algorithm].options) do TAKES[algorithm][option.name] = true end
end

local function hex_byte(h) return string.char(tonumber(h, 16)) end

-- Decodes one name or value of a query string: "+" is a space, %XX a byte.
-- Returns nil when a "%" is not followed by two hex digits.
local function unescape(s)
  -- Most names and values have nothing to decode; plain finds are cheap
  -- (LuaJIT compiles them), the gsubs below are not. (No closure is made
  -- here: LuaJIT would not compile this function, nor the loops calling it.)
  if not find(s, "%", 1, true) and not find(s, "+", 1, true) then return s end
  if s:gsub("%%%x%x", ""):find("%", 1, true) then return nil end
  s = s:gsub("%+", " ")
  return (s:gsub("%%(%x%x)", hex_byte))
end

-- The step of `pieces`: the piece after the "&" at `last_amp` (0 before the
-- first piece), as the next "&"'s offset (past the end for the last piece),
-- its raw name and raw value (nil without "="); nil after the last piece.
local function next_piece(query, last_amp)
  if last_amp > #query then return nil end
  local from = last_amp + 1
  local amp = find(query, "&", from, true) or #query + 1
  local eq = find(query, "=", from, true)
  if eq and eq < amp then return amp, sub(query, from, eq - 1), sub(query, eq + 1, amp - 1) end
  return amp, sub(query, from, amp - 1), nil
end

-- The one splitter of raw query strings (nil: none): the pieces between
-- "&"s, each split at its first "=", undecoded, in order, as
--   for _, raw_name, raw_value in pieces(query) do ... end
-- ("a&" has two pieces, the second empty). A stateless iterator of plain
-- finds, with no closure: LuaJIT compiles the loops that use it.
function M.pieces(query)
  return next_piece, query or "", 0
end

-- Parses a raw query string (without "?"; nil when the URL has none) into a
-- table of decoded values. Returns nil and a message when it is not strictly
-- `name=value` pairs of known, distinct names joined by "&".
function M.parse_query(query)
  local params = {}
  if query == nil or query == "" then return params end
  for _, raw_name, raw_value in M.pieces(query) do
    if not raw_value and raw_name == "" then return nil, "empty parameter in query (stray '&')" end
    local name = unescape(raw_name)
    if not name then return nil, "bad percent-encoding in parameter name " .. shown(raw_name) end
    if not KNOWN[name] then
      return nil, "unknown parameter " .. shown(name) .. " (known: " .. table.concat(M.PARAMETERS, ", ") .. ")"
    end
    if not raw_value then return nil, "parameter " .. name .. " needs a value: " .. name .. "=..." end
    local value = unescape(raw_value)
    if not value then return nil, "bad percent-encoding in " .. name .. " value " .. shown(raw_value) end
    if params[name] ~= nil then return nil, "parameter " .. name .. " given more than once" end
    params[name] = value
  end
  for name, value in pairs(params) do
    if value == "" then params[name] = nil end
  end
  return params
end

-- What a query that parse_query refused still says, for the error page's
-- form: the first non-empty value of each known parameter, decoded
-- (pieces that cannot be decoded are left out).
function M.sent(query)
  local sent = {}
  for _, raw_name, raw_value in M.pieces(query) do
    local name, value = unescape(raw_name), raw_value and unescape(raw_value)
    if name and KNOWN[name] and value and value ~= "" and sent[name] == nil then sent[name] = value end
  end
  return sent
end

-- The format a refused request gets its message in: "json" when every
-- format it gives is json, "html" (the error page) when it gives none
-- other than html (it came from the page or a browser), else "text" (a
-- format that is another or cannot be read).
function M.asked_format(query)
  local json, html = false, false
  for _, raw_name, raw_value in M.pieces(query) do
    if unescape(raw_name) == "format" then
      local value = raw_value and unescape(raw_value)
      if value == "json" then
        json = true
      elseif value == "html" then
        html = true
      elseif value ~= "" then
        return "text"
      end
    end
  end
  return json and (html and "text" or "json") or "html"
end

-- Whether a refused request gets the HTML error page (asked_format).
function M.wants_html(query)
  return M.asked_format(query) == "html"
end

-- The sizes a request may give (name, default, its limit in the server's
-- config) and its flags, made once: check() runs on every request.
local SIZES = { { "width", M.DEFAULT_WIDTH, "max_width" }, { "height", M.DEFAULT_HEIGHT, "max_height" } }
local FLAGS = { "path", "form" }

-- The size `name` from its text (nil: not given), at most `limit`: the
-- value (the default when not given), or nil and a message.
local function size(name, text, default, limit)
  if not text then return default end
  local value, why = args.integer(text)
  if why == "syntax" then return nil, name .. " must be an integer, got " .. shown(text) end
  if not (value and value <= limit) then
    return nil, name .. " must be an integer of at most " .. limit .. " (server limit), got " .. shown(text)
  end
  return value
end

-- The options given, read by type into request.options (and counted in
-- request.option_count); nil and a message for the first one that is not
-- of its type. `takes`: the options to keep (nil: all).
local function read_options(request, params, takes)
  request.options, request.option_count = {}, 0
  for _, name in ipairs(args.OPTIONS) do
    local text = params[name]
    if text and not (takes and not takes[name]) then
      local value, problem = args.option(name, text)
      if value == nil then return nil, problem end
      request.options[name] = value
      request.option_count = request.option_count + 1
    end
  end
  return request
end

-- Checks decoded parameters against the server's rules, with the size
-- limits of `config` (max_width, max_height). Returns a request {seed=,
-- width=, height=, algorithm=, format=, options=, option_count=, path=}
-- (seed nil when none was given, path nil unless given), or nil and a
-- message. Sizes are only checked against the server's limit here; the
-- module checks the rest (minimums depend on the algorithm), and the
-- options' ranges.
--
-- `form=on` comes from the page's form, whose fieldset of options for the
-- algorithm shown is still sent when another algorithm is picked without
-- JavaScript: options the chosen algorithm does not take are then left out
-- (reset), not refused.
function M.check(params, config)
  local request = { format = params.format or "html", algorithm = params.algorithm or M.DEFAULT_ALGORITHM }
  if not M.FORMATS[request.format] then
    return nil, "format must be html, text or json, got " .. shown(request.format)
  end
  if params.seed then
    local seed, problem = args.seed(params.seed)
    if not seed then return nil, problem end
    request.seed = seed
  end
  for _, dim in ipairs(SIZES) do
    local name = dim[1]
    local value, problem = size(name, params[name], dim[2], config[dim[3]])
    if not value then return nil, problem end
    request[name] = value
  end
  if #request.algorithm > 32 or not request.algorithm:match("^[%w_-]+$") then
    return nil, "unknown algorithm " .. shown(request.algorithm) .. " (this server has: "
      .. table.concat(args.ALGORITHMS, ", ") .. ")"
  end
  for _, name in ipairs(FLAGS) do
    if params[name] then
      local value, problem = args.read(name, "boolean", params[name])
      if value == nil then return nil, problem end
      request[name] = value
    end
  end
  return read_options(request, params, request.form and TAKES[request.algorithm])
end

-- A seed as text, exactly (LuaJIT's tostring would round it).
function M.seed_text(seed)
  return string.format("%d", seed)
end

-- The query string of the options given, in the module's order:
-- "&name=value"..., each "&" as `amp` ("&amp;" in HTML; "&" by default).
function M.options_query(request, amp)
  if request.option_count == 0 then return "" end
  amp = amp or "&"
  local parts = {}
  for _, name in ipairs(args.OPTIONS) do
    local value = request.options and request.options[name]
    if value ~= nil then
      if args.OPTION_TYPES[name] == "integer" then value = string.format("%d", value) end
      if args.OPTION_TYPES[name] == "string" then -- a sample's text: every byte but letters and digits escaped
        value = value:gsub("[^%w]", function(c) return string.format("%%%02X", c:byte()) end)
      end
      parts[#parts + 1] = amp .. name .. "=" .. tostring(value)
    end
  end
  return table.concat(parts)
end

-- The query string that reproduces a request (format left out: the HTML
-- page), each "&" as `amp` (see options_query).
function M.permalink(request, amp)
  amp = amp or "&"
  return "?seed=" .. (request.seed_text or M.seed_text(request.seed)) .. amp .. "width=" .. request.width
    .. amp .. "height=" .. request.height .. amp .. "algorithm=" .. request.algorithm .. M.options_query(request, amp)
end

return M
