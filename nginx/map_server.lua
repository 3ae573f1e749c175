-- The map server's request handling, as a plain Lua module.
--
-- nginx.conf loads it once, in init_by_lua (workers inherit it), and calls
-- `serve(ngx)` from content_by_lua. Everything except `serve` is plain Lua
-- that never touches `ngx`, so spec/server_spec.lua can test it on Lua 5.4
-- and LuaJIT without a server.
--
--   GET /?seed=N&width=W&height=H&algorithm=A&format=F[&option=value...][&path=on]
--
-- The options are those of `map.describe(algorithm).options`, any
-- algorithm's. All parameters are optional; an empty value (`seed=`, as an empty form
-- field sends it) is the same as leaving the parameter out. Anything else that
-- is not exactly right is a 400: for format=text and json a one-line
-- plain-text message, for the page (format=html) an HTML page with the
-- message and the form.
local map = require "map"

local M = {}

M.DEFAULT_WIDTH = 60 -- the CLI's defaults: /?seed=42 is `lua main.lua 60 20 42`
M.DEFAULT_HEIGHT = 20
M.DEFAULT_ALGORITHM = "rooms"
-- `path` is the page's own: a boolean (true, on or false) that shows the path
-- from @ to > on the map when the page opens; text and JSON ignore it.
M.PARAMETERS = { "seed", "width", "height", "algorithm", "format", "path" }
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
-- {seed=, width=, height=, algorithm=, format=, options=, path=} (seed nil
-- when none was given, path nil unless given), or nil and a message. Sizes are only checked against the
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
  if params.path then -- page only: text and JSON ignore it
    request.path = READERS.boolean(params.path)
    if request.path == nil then return nil, "path must be a boolean, got " .. shown(params.path) end
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

-- The HTML page (format=html) ------------------------------------------------
--
-- One stylesheet and one small script, both inline. The Content-Security-
-- Policy allows no other source: style-src 'unsafe-inline' for the
-- stylesheet, and script-src the SHA-256 of SCRIPT, so this exact script and
-- nothing else runs. (spec/server_spec.lua checks the hash; change SCRIPT
-- and it fails with the new one.)
--
-- The page works without the script. The form has one <fieldset> of options
-- per algorithm; only the one of the algorithm shown is enabled (a disabled
-- fieldset's inputs are not sent), and its inputs hold only the options the
-- request gave (defaults are placeholders), so picking another algorithm and
-- submitting sends no option of the old one unless one was typed in. The
-- script makes that exact: when the algorithm changes, it enables that
-- algorithm's fieldset instead (and its minimum width and height).
M.SCRIPT = '(function(){var f=document.forms[0],a=f.elements.algorithm;function u(){'
  .. 'var s=f.querySelectorAll("fieldset[data-algorithm]");for(var i=0;i<s.length;i++){'
  .. 'var e=s[i],on=e.getAttribute("data-algorithm")==a.value;e.disabled=!on;if(on){'
  .. 'f.elements.width.min=e.getAttribute("data-min-width");'
  .. 'f.elements.height.min=e.getAttribute("data-min-height")}}}'
  .. 'a.addEventListener("change",u);addEventListener("pageshow",u);u()})();'
M.SCRIPT_HASH = "sha256-fQTcgFD9FEgz20NMKZxsuB5v3n8ru+KbraxTlGC2DHw="
M.CSP = "default-src 'none'; style-src 'unsafe-inline'; script-src '" .. M.SCRIPT_HASH .. "'; form-action 'self'"

-- The glyphs' colours: each glyph's cells are wrapped in a span of its class
-- (floor f, @ u, > s, $ g, ! o, + d); walls (#) and any other byte keep the
-- map's own colour and get no span. Cells on the path from @ to > also get
-- class p, which the page's "show the path" checkbox colours.
local STYLE = table.concat({
  ":root{color-scheme:dark}",
  "*{box-sizing:border-box}",
  "body{margin:0;background:#16181d;color:#dfe3ea;font:15px/1.5 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif}",
  "header,form{max-width:1500px;margin:0 auto;padding:0 16px}",
  "header{padding-top:14px}",
  "h1{font-size:22px;margin:0;letter-spacing:.02em}",
  "h1 small{font-size:15px;font-weight:normal;color:#8e97a8;margin-left:.4em}",
  "#meta{margin:2px 0 14px;color:#aab2c0}",
  "#meta b{color:#fff}",
  "a{color:#7cc4ff}",
  "form{display:grid;grid-template-columns:minmax(0,1fr) 290px;gap:16px;align-items:start;padding-bottom:24px}",
  "@media (max-width:860px){form{grid-template-columns:minmax(0,1fr)}}",
  ".panel{min-width:0;background:#0c0d11;border:1px solid #2b2f39;border-radius:10px;padding:10px 12px 8px}",
  ".box{overflow:auto;max-width:100%}",
  "#map{margin:0 auto;padding:4px 0 8px;font:15px/1.3 ui-monospace,'DejaVu Sans Mono',Menlo,Consolas,monospace;"
    .. "color:#56607a;width:max-content}",
  "@media (max-width:600px){header,form{padding:0 10px}.panel{padding:8px}#map{font-size:12px}}",
  ".f{color:#3f475a}.u{color:#fff;font-weight:bold;text-shadow:0 0 7px #ffffffb0}",
  ".s{color:#5ee0ff;font-weight:bold;text-shadow:0 0 6px #5ee0ff99}",
  ".g{color:#ffc23d}.o{color:#e87cff}.d{color:#e0704f}",
  ".panel:has(#path:checked) .p{background:#163a2b}.panel:has(#path:checked) .f.p{color:#74f0aa}",
  ".bar{display:flex;flex-wrap:wrap;justify-content:space-between;gap:4px 18px;margin:0 0 8px;color:#aab2c0;"
    .. "font-size:14px}",
  ".bar label{display:flex;gap:7px;align-items:center;cursor:pointer;color:#dfe3ea}",
  ".legend span{font:bold 15px ui-monospace,'DejaVu Sans Mono',monospace;margin:0 2px 0 8px}",
  ".legend span:first-child{margin-left:0}",
  "fieldset{border:1px solid #2b2f39;border-radius:10px;margin:0 0 12px;padding:8px 12px 2px;background:#1d2027}",
  "fieldset[disabled]{display:none}",
  "legend{padding:0 6px;color:#aab2c0;font-size:13px;text-transform:uppercase;letter-spacing:.06em}",
  ".controls label{display:block;margin:0 0 10px;font-size:14px}",
  "input,select,button{font:inherit;color:inherit}",
  "input:not([type=checkbox]),select{display:block;width:100%;margin-top:2px;padding:5px 8px;background:#101216;"
    .. "border:1px solid #3a3f4b;border-radius:6px}",
  "input:focus,select:focus{outline:2px solid #7cc4ff;outline-offset:0}",
  "input:invalid{border-color:#e0646a}",
  "::placeholder{color:#6b7385}",
  ".controls label.check{display:flex;gap:8px;align-items:center;margin-bottom:2px}",
  "input[type=checkbox]{width:16px;height:16px;margin:0;accent-color:#2f7ddb}",
  ".controls small,.doc{display:block;color:#8e97a8;font-size:12.5px;line-height:1.35;margin:2px 0 0}",
  ".doc{margin:0 0 10px}.controls label.check+small{margin:0 0 10px}",
  ".pair{display:grid;grid-template-columns:1fr 1fr;gap:0 10px}",
  "button{width:100%;padding:9px;border:0;border-radius:8px;background:#2f7ddb;color:#fff;font-weight:600;"
    .. "cursor:pointer}",
  "button:hover{background:#3b8ef0}",
  "#error{margin:0;min-width:0;background:#2a1619;border:1px solid #83373d;border-radius:10px;padding:12px 14px;"
    .. "color:#ffc2c2;overflow-wrap:anywhere}",
  "#error b{display:block;color:#fff;margin-bottom:4px}",
}, "\n")

M.GLYPH_CLASSES = { ["."] = "f", ["@"] = "u", [">"] = "s", ["$"] = "g", ["!"] = "o", ["+"] = "d" }
local CLASS_OF_BYTE = {}
for glyph, class in pairs(M.GLYPH_CLASSES) do CLASS_OF_BYTE[glyph:byte()] = class end
local PATH_CLASS = {} -- a glyph's class with " p" added
for byte, class in pairs(CLASS_OF_BYTE) do PATH_CLASS[byte] = class .. " p" end

-- The map's text as the <pre>'s HTML: each run of cells of one class in one
-- span, walls bare, newlines between rows. Without the tags, and unescaped,
-- it is `text` exactly. `on_path[y][x]` marks the path's cells.
function M.map_html(text, on_path)
  local e = M.escape_html
  local out, n = {}, 0
  local from, y = 1, 0
  while from <= #text + 1 do
    local stop = text:find("\n", from, true) or #text + 1
    y = y + 1
    local row_path = on_path and on_path[y]
    local run_start, run_class = from, nil
    for i = from, stop do
      local class
      if i < stop then
        local byte = text:byte(i)
        class = CLASS_OF_BYTE[byte]
        if row_path and row_path[i - from + 1] then class = PATH_CLASS[byte] or "p" end
      end
      if i == stop or class ~= run_class then
        if i > run_start then
          local cells = e(text:sub(run_start, i - 1))
          n = n + 1
          out[n] = run_class and '<span class="' .. run_class .. '">' .. cells .. "</span>" or cells
        end
        run_start, run_class = i, class
      end
    end
    if stop <= #text then
      n = n + 1
      out[n] = "\n"
    end
    from = stop + 1
  end
  return table.concat(out)
end

-- Each algorithm's description, read once.
local DESCRIPTIONS = {}
for _, algorithm in ipairs(M.ALGORITHMS) do DESCRIPTIONS[algorithm] = map.describe(algorithm) end

local function number_text(value, kind)
  if kind == "integer" then return string.format("%d", value) end
  return (string.format("%.14g", value))
end

-- The range of a number option, for its input's title: "1 to 10000", "over 0, up to 1".
local function range_text(option)
  local low, high = number_text(option.min, option.type), number_text(option.max, option.type)
  if option.open_min then return "over " .. low .. ", up to " .. high end
  return low .. " to " .. high
end

-- One option's input, holding `value` (text; nil leaves it empty, its default
-- shown as the placeholder).
local function option_input(option, value)
  local e = M.escape_html
  local doc = option.doc and "<small>" .. e(option.doc) .. "</small>" or ""
  if option.type == "boolean" then
    local on = value == "true" or value == "on"
    if not option.default then -- a checkbox sends name=on when checked, nothing when not
      return string.format('<label class="check"><input type="checkbox" name="%s"%s> %s</label>%s',
        e(option.name), on and " checked" or "", e(option.name), doc)
    end
    local choices = {}
    for i, choice in ipairs({ { "", "default (true)" }, { "true", "true" }, { "false", "false" } }) do
      choices[i] = string.format('<option value="%s"%s>%s</option>', choice[1],
        (value or "") == choice[1] and " selected" or "", choice[2])
    end
    return string.format('<label>%s <select name="%s">%s</select>%s</label>', e(option.name), e(option.name),
      table.concat(choices), doc)
  end
  return string.format('<label>%s <input name="%s" type="number" min="%s" max="%s" step="%s" placeholder="%s"'
    .. ' title="%s"%s>%s</label>', e(option.name), e(option.name), number_text(option.min, option.type),
    number_text(option.max, option.type), option.type == "integer" and "1" or "any",
    e(option.default_text or ""), e(range_text(option)), value and ' value="' .. e(value) .. '"' or "", doc)
end

-- The form's fields, from `values` (all text: seed, width, height,
-- algorithm, options = {name = text}, path = true/false). `path_toggle`
-- puts the "show the path" checkbox among them (the error page has no map
-- to put it beside).
local function form_fields(values, path_toggle)
  local e = M.escape_html
  local current = DESCRIPTIONS[values.algorithm]
  local choices = {}
  for i, name in ipairs(M.ALGORITHMS) do
    choices[i] = string.format("<option%s>%s</option>", name == values.algorithm and " selected" or "", e(name))
  end
  local out = {
    '<div class="controls">',
    "<fieldset><legend>map</legend>",
    string.format('<label>seed <input name="seed" value="%s" inputmode="numeric" pattern="[+\\-]?[0-9]+"'
      .. ' placeholder="random" title="an integer; leave empty for a random map"></label>', e(values.seed or "")),
    '<div class="pair">',
    string.format('<label>width <input name="width" type="number" min="%d" max="%d" value="%s"></label>',
      current.min_width, M.config.max_width, e(values.width)),
    string.format('<label>height <input name="height" type="number" min="%d" max="%d" value="%s"></label>',
      current.min_height, M.config.max_height, e(values.height)),
    "</div>",
    '<label>algorithm <select name="algorithm">' .. table.concat(choices) .. "</select></label>",
  }
  if path_toggle then
    out[#out + 1] = string.format('<label class="check"><input type="checkbox" name="path"%s> show the path'
      .. " from @ to &gt;</label>", values.path and " checked" or "")
  end
  out[#out + 1] = "</fieldset>"
  for _, name in ipairs(M.ALGORITHMS) do
    local description, shown_now = DESCRIPTIONS[name], name == values.algorithm
    out[#out + 1] = string.format('<fieldset data-algorithm="%s" data-min-width="%d" data-min-height="%d"%s>'
      .. "<legend>%s options</legend>", e(name), description.min_width, description.min_height,
      shown_now and "" or " disabled", e(name))
    out[#out + 1] = '<p class="doc">' .. e(description.doc or "") .. "</p>"
    for _, option in ipairs(description.options) do
      out[#out + 1] = option_input(option, shown_now and values.options[option.name] or nil)
    end
    out[#out + 1] = "</fieldset>"
  end
  out[#out + 1] = '<button type="submit">Generate</button>'
  out[#out + 1] = "</div>"
  return table.concat(out, "\n")
end

local function document(title, header, body)
  return table.concat({
    "<!DOCTYPE html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    "<title>" .. title .. "</title>",
    "<style>\n" .. STYLE .. "\n</style>",
    "</head>",
    "<body>",
    "<header>",
    "<h1>map <small>roguelike maps</small></h1>",
    header,
    "</header>",
    '<form method="get">',
    body,
    "</form>",
    "<script>" .. M.SCRIPT .. "</script>",
    "</body>",
    "</html>",
    "",
  }, "\n")
end

-- The cells of the path from @ to > (both left out), as on_path[y][x] = true,
-- and its length in steps; nil when the map has no such path.
local function path_cells(m)
  if not (m.player and m.stairs) then return nil end
  local ok, path = pcall(map.path, m, m.player.x, m.player.y, m.stairs.x, m.stairs.y)
  if not (ok and path) then return nil end
  local on_path = {}
  for i = 2, #path - 1 do
    local cell = path[i]
    on_path[cell.y] = on_path[cell.y] or {}
    on_path[cell.y][cell.x] = true
  end
  return on_path, #path - 1
end

-- The page for a request: `m` the map (map.generate), `text` its text.
function M.page(request, text, m)
  local e = M.escape_html
  local link = M.permalink(request)
  local path_param = request.path and "&path=on" or ""
  local random_link = string.format("?width=%d&height=%d&algorithm=%s",
    request.width, request.height, request.algorithm) .. options_query(request) .. path_param
  local on_path, steps = nil, nil
  if m then on_path, steps = path_cells(m) end
  local values = { seed = seed_text(request.seed), width = tostring(request.width),
    height = tostring(request.height), algorithm = request.algorithm, path = request.path, options = {} }
  for name, value in pairs(request.options) do
    values.options[name] = type(value) == "number" and number_text(value, M.OPTION_TYPES[name]) or tostring(value)
  end
  local legend = '<span class="legend"><span class="u">@</span> you <span class="s">&gt;</span> stairs'
    .. ' <span class="g">$</span> gold <span class="o">!</span> potion <span class="d">+</span> door</span>'
  local toggle = on_path and string.format('<label><input type="checkbox" id="path" name="path"%s>'
    .. " show the path from @ to &gt; (%d steps)</label>", request.path and " checked" or "", steps)
    or (request.path and '<input type="hidden" name="path" value="on">' or "") .. "<span>no path from @ to &gt;</span>"
  return document(
    string.format("map %s %dx%d, seed %s", e(request.algorithm), request.width, request.height,
      seed_text(request.seed)),
    string.format('<p id="meta">%s %dx%d, seed <b id="seed">%s</b> &middot; <a id="permalink" href="%s">permalink</a>'
      .. ' &middot; <a id="text" href="%s&amp;format=text">text</a>'
      .. ' &middot; <a id="json" href="%s&amp;format=json">JSON</a>'
      .. ' &middot; <a id="random" href="%s">new random map</a></p>',
      e(request.algorithm), request.width, request.height, seed_text(request.seed),
      e(link .. path_param), e(link), e(link), e(random_link)),
    table.concat({
      '<div class="panel">',
      '<div class="bar">' .. legend .. toggle .. "</div>",
      '<div class="box" tabindex="0" role="region" aria-label="the map">'
        .. '<pre id="map">' .. M.map_html(text, on_path) .. "</pre></div>",
      "</div>",
      form_fields(values, false),
    }, "\n"))
end

local function plain(status, message)
  return status, {
    ["Content-Type"] = "text/plain; charset=utf-8",
    ["Cache-Control"] = "no-store",
    ["X-Content-Type-Options"] = "nosniff",
  }, message .. "\n"
end

-- The pieces of a raw query string, decoded where they can be: calls
-- visit(name, value) for each "name=value" (value nil without "=").
local function each_parameter(args, visit)
  for piece in ((args or "") .. "&"):gmatch("([^&]*)&") do
    local eq = piece:find("=", 1, true)
    local name = unescape(eq and piece:sub(1, eq - 1) or piece)
    if name then visit(name, eq and unescape(piece:sub(eq + 1)) or nil) end
  end
end

-- Whether a refused request gets the HTML error page: unless it asked for
-- another format (a format value other than html, or one that cannot be
-- read), it came from the page or a browser.
local function wants_html(args)
  local html = true
  each_parameter(args, function(name, value)
    if name == "format" and value ~= "" and value ~= "html" then html = false end
  end)
  return html
end

-- The HTML error page: the message, and the form holding what was sent (the
-- first value of each known parameter; options only in the fieldset of the
-- algorithm asked for, or the default one).
function M.error_page(args, message)
  local e = M.escape_html
  local sent = {}
  each_parameter(args, function(name, value)
    if KNOWN[name] and value and value ~= "" and sent[name] == nil then sent[name] = value end
  end)
  local values = { seed = sent.seed, width = sent.width or tostring(M.DEFAULT_WIDTH),
    height = sent.height or tostring(M.DEFAULT_HEIGHT), algorithm = M.DEFAULT_ALGORITHM,
    path = sent.path == "on" or sent.path == "true", options = {} }
  if sent.algorithm and DESCRIPTIONS[sent.algorithm] then values.algorithm = sent.algorithm end
  for _, option in ipairs(DESCRIPTIONS[values.algorithm].options) do
    values.options[option.name] = sent[option.name]
  end
  return document("map: bad request",
    '<p id="meta">That request could not make a map. Change it below, or start from'
      .. ' <a id="random" href="?">a random map</a>.</p>',
    '<p id="error" role="alert"><b>Bad request</b>' .. e(message) .. "</p>\n" .. form_fields(values, true))
end

-- A 400 for a refused request: the HTML error page, or for format=text and
-- json (and unknown formats) a one-line plain-text message.
local function refuse(args, message)
  if not wants_html(args) then return plain(400, message) end
  return 400, {
    ["Content-Type"] = M.FORMATS.html,
    ["Cache-Control"] = "no-store",
    ["X-Content-Type-Options"] = "nosniff",
    ["Content-Security-Policy"] = M.CSP,
  }, M.error_page(args, message)
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
  if not request then return refuse(args, problem) end

  request.seeded = request.seed ~= nil
  if not request.seeded then request.seed = (deps.random_seed or M.random_seed)() end
  local options = {
    width = request.width, height = request.height, seed = request.seed, algorithm = request.algorithm,
  }
  for name, value in pairs(request.options) do options[name] = value end
  -- The page needs the map's table too (for its path); its text is
  -- map.render of it, which is generate_text's, byte for byte.
  local generate = request.format == "json" and map.generate_json
    or request.format == "html" and map.generate or map.generate_text
  local ok, result = pcall(generate, options)
  if not ok then
    result = tostring(result)
    if result:find("internal error", 1, true) then -- a bug in the module, not in the request
      local status, headers, body = plain(500, "internal error")
      return status, headers, body, result
    end
    return refuse(args, (result:gsub("^map%.[%w_]+: ", "")))
  end

  local body
  if request.format == "html" then
    body = M.page(request, map.render(result), result)
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
    headers["Content-Security-Policy"] = M.CSP
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
--
-- Maps have no modification date, so If-Unmodified-Since is ignored (RFC
-- 9110, 13.1.4): nginx's not_modified filter would answer it with 412 on any
-- 200 without Last-Modified, so the header is cleared before the response.
-- Requests that carry content are refused without reading it: other methods
-- with 405, GET and HEAD with 413. nginx.conf sets no body size limit, as
-- nginx logs its own refusal ("client intended to send too large body") at
-- error level; the unread body is discarded (for at most lingering_time).
function M.serve(ngx)
  local status, headers, body, log
  local method = ngx.req.get_method()
  local var = ngx.var
  local content = var.http_transfer_encoding ~= nil or (tonumber(var.http_content_length) or 0) > 0
  if var.http_if_unmodified_since ~= nil then ngx.req.clear_header("If-Unmodified-Since") end
  if method ~= "GET" and method ~= "HEAD" then
    status, headers, body = plain(405, "method not allowed: use GET or HEAD")
    headers["Allow"] = "GET, HEAD"
  elseif content then
    status, headers, body = plain(413, "request content not accepted: parameters go in the query string")
  else
    status, headers, body, log = M.respond(var.args, { hash = ngx.md5 })
  end
  if content then ngx.req.discard_body() end
  if log then ngx.log(ngx.ERR, "map_server: ", log) end
  ngx.status = status
  for name, value in pairs(headers) do ngx.header[name] = value end
  ngx.header["Content-Length"] = #body
  ngx.print(body)
end

return M
