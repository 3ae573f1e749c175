-- The map server's request handling, as a plain Lua module.
--
-- nginx.conf loads it once, in init_by_lua (workers inherit it), and calls
-- `serve(ngx)` from content_by_lua. Everything except `serve` is plain Lua
-- that never touches `ngx`, so spec/server_spec.lua can test it on Lua 5.4
-- and LuaJIT without a server.
--
--   GET /?seed=N&width=W&height=H&algorithm=A&format=F[&option=value...]
--
-- The options are those of `map.describe(algorithm).options`, any
-- algorithm's. All parameters are optional; an empty value (`seed=`, as an empty form
-- field sends it) is the same as leaving the parameter out. Anything else that
-- is not exactly right is a 400 with a one-line plain-text message.
local map = require "map"

local M = {}

M.DEFAULT_WIDTH = 60 -- the CLI's defaults: /?seed=42 is `lua main.lua 60 20 42`
M.DEFAULT_HEIGHT = 20
M.DEFAULT_ALGORITHM = "rooms"
M.PARAMETERS = { "seed", "width", "height", "algorithm", "format" }
-- The algorithms and their options, as the module lists them: name -> the
-- type `map.describe` gives ("integer", "number" or "boolean").
M.ALGORITHMS = map.ALGORITHMS
M.OPTION_TYPES = {}
M.OPTIONS = {} -- option names, in the module's order, each once
for _, algorithm in ipairs(M.ALGORITHMS) do
  for _, option in ipairs(map.describe(algorithm).options) do
    if not M.OPTION_TYPES[option.name] then
      M.OPTION_TYPES[option.name] = option.type
      M.OPTIONS[#M.OPTIONS + 1] = option.name
      M.PARAMETERS[#M.PARAMETERS + 1] = option.name
    end
  end
end
M.FORMATS = { html = "text/html; charset=utf-8", text = "text/plain; charset=utf-8", json = "application/json" }

-- Server-side settings; nginx.conf sets them through configure().
local DEFAULT_CONFIG = {
  max_width = 200, -- largest width and height a request may ask for
  max_height = 200,
  cache_max_age = 31536000, -- seconds a seeded response may be cached (one year)
}
M.config = {}
for k, v in pairs(DEFAULT_CONFIG) do M.config[k] = v end

local KNOWN = {}
for _, name in ipairs(M.PARAMETERS) do KNOWN[name] = true end


-- Sets the server-side settings (nginx.conf's init_by_lua_block). Unknown
-- names and bad values are errors, so a typo stops nginx at start-up.
function M.configure(options)
  local new = {}
  for k, v in pairs(DEFAULT_CONFIG) do new[k] = v end
  for k, v in pairs(options or {}) do
    if DEFAULT_CONFIG[k] == nil then
      error("map_server.configure: unknown setting " .. tostring(k), 2)
    end
    if type(v) ~= "number" or v ~= math.floor(v) or v < 1 or v > 2 ^ 31 then
      error("map_server.configure: " .. k .. " must be a positive integer, got " .. tostring(v), 2)
    end
    new[k] = v
  end
  M.config = new
end

-- A user-supplied string, shortened and made printable, for error messages.
local function shown(s)
  local out = s:sub(1, 40):gsub("[^%w%p ]", function(c) return string.format("\\x%02X", c:byte()) end)
  if #s > 40 then out = out .. "..." end
  return "'" .. out .. "'"
end

-- Decodes one name or value of a query string: "+" is a space, %XX a byte.
-- Returns nil when a "%" is not followed by two hex digits.
local function unescape(s)
  -- Most names and values have nothing to decode; plain finds are cheap
  -- (LuaJIT compiles them), the gsubs below are not.
  if not s:find("%", 1, true) and not s:find("+", 1, true) then return s end
  if s:gsub("%%%x%x", ""):find("%", 1, true) then return nil end
  s = s:gsub("%+", " ")
  return (s:gsub("%%(%x%x)", function(h) return string.char(tonumber(h, 16)) end))
end

-- Parses a raw query string (without "?"; nil when the URL has none) into a
-- table of decoded values. Returns nil and a message when it is not strictly
-- `name=value` pairs of known, distinct names joined by "&".
function M.parse_query(args)
  local params = {}
  if args == nil or args == "" then return params end
  -- Split with plain finds, which LuaJIT compiles (gmatch and match it does
  -- not): pieces between "&"s, each split at its first "=".
  local from = 1
  while from <= #args + 1 do
    local amp = args:find("&", from, true) or #args + 1
    local piece = args:sub(from, amp - 1)
    from = amp + 1
    local raw_name, raw_value = piece, nil
    local eq = piece:find("=", 1, true)
    if eq then
      raw_name, raw_value = piece:sub(1, eq - 1), piece:sub(eq + 1)
    elseif piece == "" then
      return nil, "empty parameter in query (stray '&')"
    end
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

-- An integer literal, read exactly like the CLI reads its arguments: optional
-- sign, decimal digits, |n| <= 2^53 (checked as text, before LuaJIT's doubles
-- could round it). Returns the number, or nil.
local function integer(text)
  local sign, digits = text:match("^([+-]?)0*(%d+)$")
  if not digits then return nil end
  local limit = "9007199254740992" -- 2^53
  if #digits > #limit or (#digits == #limit and digits > limit) then return nil end
  return tonumber(sign .. digits)
end

-- An option's value from its text, by the option's type; nil when the text
-- is not of that type. The module checks ranges, and which algorithm takes it.
local READERS = {
  integer = integer,
  number = function(text)
    if text:match("^[+-]?%d+%.?%d*$") or text:match("^[+-]?%.%d+$") then return tonumber(text) end
  end,
  boolean = function(text)
    if text == "true" or text == "on" then return true end -- "on": a checked form checkbox
    if text == "false" then return false end
  end,
}

-- Checks decoded parameters against the server's rules. Returns a request
-- {seed=, width=, height=, algorithm=, format=, options=} (seed nil when none
-- was given), or nil and a message. Sizes are only checked against the
-- server's limit here; the module checks the rest (minimums depend on the
-- algorithm), and the options' ranges.
function M.check(params)
  local request = { format = params.format or "html", algorithm = params.algorithm or M.DEFAULT_ALGORITHM }
  if not M.FORMATS[request.format] then
    return nil, "format must be html, text or json, got " .. shown(request.format)
  end
  if params.seed then
    request.seed = integer(params.seed)
    if not request.seed then
      return nil, "seed must be an integer from -2^53 to 2^53, got " .. shown(params.seed)
    end
  end
  for _, dim in ipairs({ { "width", M.DEFAULT_WIDTH }, { "height", M.DEFAULT_HEIGHT } }) do
    local name, default = dim[1], dim[2]
    local limit = M.config["max_" .. name]
    local value = params[name] and integer(params[name])
    if params[name] and not (value and value <= limit) then
      return nil, name .. " must be an integer of at most " .. limit .. " (server limit), got " .. shown(params[name])
    end
    request[name] = value or default
  end
  if #request.algorithm > 32 or not request.algorithm:match("^[%w_-]+$") then
    return nil, "unknown algorithm " .. shown(request.algorithm) .. " (this server has: "
      .. table.concat(M.ALGORITHMS, ", ") .. ")"
  end
  request.options = {}
  for _, name in ipairs(M.OPTIONS) do
    local text = params[name]
    if text then
      local kind = M.OPTION_TYPES[name]
      local value = READERS[kind](text)
      if value == nil then
        return nil, name .. " must be " .. (kind == "integer" and "an integer" or "a " .. kind)
          .. ", got " .. shown(text)
      end
      request.options[name] = value
    end
  end
  return request
end

-- A fresh seed in 0 .. 2^53-1, from /dev/urandom (53 bits from 7 bytes).
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

local function seed_text(seed)
  return string.format("%d", seed)
end

local ESCAPES = { ["&"] = "&amp;", ["<"] = "&lt;", [">"] = "&gt;", ['"'] = "&quot;", ["'"] = "&#39;" }

function M.escape_html(s)
  return (tostring(s):gsub("[&<>\"']", ESCAPES))
end

-- The query string of the options given, in the module's order: "&name=value"...
local function options_query(request)
  local parts = {}
  for _, name in ipairs(M.OPTIONS) do
    local value = request.options and request.options[name]
    if value ~= nil then
      if M.OPTION_TYPES[name] == "integer" then value = string.format("%d", value) end
      parts[#parts + 1] = "&" .. name .. "=" .. tostring(value)
    end
  end
  return table.concat(parts)
end

-- The query string that reproduces a request (format left out: the HTML page).
function M.permalink(request)
  return string.format("?seed=%s&width=%d&height=%d&algorithm=%s",
    seed_text(request.seed), request.width, request.height, request.algorithm) .. options_query(request)
end

function M.page(request, text)
  local e = M.escape_html
  local link = M.permalink(request)
  local options = {}
  for _, name in ipairs(M.ALGORITHMS) do
    options[#options + 1] = string.format('<option%s>%s</option>',
      name == request.algorithm and " selected" or "", e(name))
  end
  local random_link = string.format("?width=%d&height=%d&algorithm=%s",
    request.width, request.height, request.algorithm) .. options_query(request)
  return table.concat({
    "<!DOCTYPE html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    string.format("<title>map %s %dx%d, seed %s</title>", e(request.algorithm), request.width, request.height,
      seed_text(request.seed)),
    "<style>body{font-family:sans-serif;margin:1em}pre{font-size:14px;line-height:1;background:#111;color:#ddd;"
      .. "padding:1em;display:inline-block}label{margin-right:1em}input{width:7em}</style>",
    "</head>",
    "<body>",
    string.format('<p>%s %dx%d, seed <b id="seed">%s</b>: <a id="permalink" href="%s">permalink</a>'
      .. ' | <a href="%s&amp;format=text">text</a> | <a href="%s&amp;format=json">JSON</a>'
      .. ' | <a href="%s">new random map</a></p>',
      e(request.algorithm), request.width, request.height, seed_text(request.seed),
      e(link), e(link), e(link), e(random_link)),
    '<pre id="map">' .. e(text) .. "</pre>",
    "<form method=\"get\">",
    string.format('<label>seed <input name="seed" value="%s" inputmode="numeric" pattern="[+\\-]?[0-9]+"'
      .. ' title="an integer; leave empty for a random map"></label>', seed_text(request.seed)),
    string.format('<label>width <input name="width" type="number" min="1" max="%d" value="%d"></label>',
      M.config.max_width, request.width),
    string.format('<label>height <input name="height" type="number" min="1" max="%d" value="%d"></label>',
      M.config.max_height, request.height),
    '<label>algorithm <select name="algorithm">' .. table.concat(options) .. "</select></label>",
    '<button type="submit">Generate</button>',
    "</form>",
    "</body>",
    "</html>",
    "",
  }, "\n")
end

local function plain(status, message)
  return status, {
    ["Content-Type"] = "text/plain; charset=utf-8",
    ["Cache-Control"] = "no-store",
    ["X-Content-Type-Options"] = "nosniff",
  }, message .. "\n"
end

-- Handles one GET request. `args` is the raw query string (or nil); `deps`
-- may supply `hash(body)` (a hex digest for the ETag; none without it) and
-- `random_seed()`. Returns status, headers (table), body, and for a 500 the
-- message to log.
function M.respond(args, deps)
  deps = deps or {}
  local params, problem = M.parse_query(args)
  local request
  if params then request, problem = M.check(params) end
  if not request then return plain(400, problem) end

  request.seeded = request.seed ~= nil
  if not request.seeded then request.seed = (deps.random_seed or M.random_seed)() end
  local options = {
    width = request.width, height = request.height, seed = request.seed, algorithm = request.algorithm,
  }
  for name, value in pairs(request.options) do options[name] = value end
  local generate = request.format == "json" and map.generate_json or map.generate_text
  local ok, result = pcall(generate, options)
  if not ok then
    result = tostring(result)
    if result:find("internal error", 1, true) then -- a bug in the module, not in the request
      local status, headers, body = plain(500, "internal error")
      return status, headers, body, result
    end
    return plain(400, (result:gsub("^map%.[%w_]+: ", "")))
  end

  local body
  if request.format == "html" then
    body = M.page(request, result)
  elseif request.format == "text" then
    body = result .. "\n" -- exactly the CLI's stdout
  else
    body = result
  end
  local headers = {
    ["Content-Type"] = M.FORMATS[request.format],
    ["X-Content-Type-Options"] = "nosniff",
    ["X-Map-Seed"] = seed_text(request.seed),
  }
  if request.format == "html" then
    headers["Content-Security-Policy"] = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'"
  end
  if request.seeded then
    headers["Cache-Control"] = "public, max-age=" .. M.config.cache_max_age
    if deps.hash then headers["ETag"] = '"' .. deps.hash(body) .. '"' end
  else
    headers["Cache-Control"] = "no-store"
  end
  return 200, headers, body
end

-- The nginx side: content_by_lua_block { require("map_server").serve(ngx) }.
function M.serve(ngx)
  local status, headers, body, log
  local method = ngx.req.get_method()
  if method == "GET" or method == "HEAD" then
    status, headers, body, log = M.respond(ngx.var.args, { hash = ngx.md5 })
  else
    status, headers, body = plain(405, "method not allowed: use GET or HEAD")
    headers["Allow"] = "GET, HEAD"
  end
  if log then ngx.log(ngx.ERR, "map_server: ", log) end
  ngx.status = status
  for name, value in pairs(headers) do ngx.header[name] = value end
  ngx.header["Content-Length"] = #body
  ngx.print(body)
end

return M
