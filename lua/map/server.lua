-- The map server's request handling, as a plain Lua module: `map.server`.
--
-- nginx loads it once, in init_by_lua (workers inherit it), and calls
-- `serve(ngx)` from content_by_lua, in any location: the page's links are
-- relative to it. Everything except `serve` is plain Lua that never touches
-- `ngx`, so spec/server_spec.lua can test it on Lua 5.4 and LuaJIT without a
-- server.
--
--   GET /?seed=N&width=W&height=H&algorithm=A&format=F[&option=value...][&path=on]
--
-- The options are those of `map.describe(algorithm).options`, any
-- algorithm's, read from text by map.args, as the CLI reads them. All
-- parameters are optional; an empty value (`seed=`, as an empty form field
-- sends it) is the same as leaving the parameter out. Anything else that is
-- not exactly right is a 400: for format=text and json a one-line plain-text
-- message, for the page (format=html) an HTML page with the message and the
-- form.
local map = require "map"
local args = require "map.args"

local M = {}

M.DEFAULT_WIDTH = args.DEFAULT_WIDTH -- /?seed=42 is `lua main.lua 60 20 42`
M.DEFAULT_HEIGHT = args.DEFAULT_HEIGHT
M.DEFAULT_ALGORITHM = args.DEFAULT_ALGORITHM
-- The page's own parameters, booleans (true, on or false) that text and JSON
-- ignore: `path` shows the path from @ to > when the page opens; `form` says
-- the page's form sent the request (see check).
M.PARAMETERS = { "seed", "width", "height", "algorithm", "format", "path", "form" }
M.ALGORITHMS = args.ALGORITHMS
M.OPTION_TYPES = args.OPTION_TYPES
M.OPTIONS = args.OPTIONS
for _, name in ipairs(M.OPTIONS) do M.PARAMETERS[#M.PARAMETERS + 1] = name end
M.FORMATS = { html = "text/html; charset=utf-8", text = "text/plain; charset=utf-8", json = "application/json" }

-- Which options each algorithm takes: TAKES[algorithm][name].
local DESCRIPTIONS = args.DESCRIPTIONS
local TAKES = {}
for _, algorithm in ipairs(M.ALGORITHMS) do
  TAKES[algorithm] = {}
  for _, option in ipairs(DESCRIPTIONS[algorithm].options) do TAKES[algorithm][option.name] = true end
end

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
      error("map.server.configure: unknown setting " .. tostring(k), 2)
    end
    if type(v) ~= "number" or v ~= math.floor(v) or v < 1 or v > 2 ^ 31 then
      error("map.server.configure: " .. k .. " must be a positive integer, got " .. tostring(v), 2)
    end
    new[k] = v
  end
  M.config = new
end

local shown = args.shown

local function hex_byte(h) return string.char(tonumber(h, 16)) end

-- Decodes one name or value of a query string: "+" is a space, %XX a byte.
-- Returns nil when a "%" is not followed by two hex digits.
local function unescape(s)
  -- Most names and values have nothing to decode; plain finds are cheap
  -- (LuaJIT compiles them), the gsubs below are not. (No closure is made
  -- here: LuaJIT would not compile this function, nor the loops calling it.)
  if not s:find("%", 1, true) and not s:find("+", 1, true) then return s end
  if s:gsub("%%%x%x", ""):find("%", 1, true) then return nil end
  s = s:gsub("%+", " ")
  return (s:gsub("%%(%x%x)", hex_byte))
end

-- Parses a raw query string (without "?"; nil when the URL has none) into a
-- table of decoded values. Returns nil and a message when it is not strictly
-- `name=value` pairs of known, distinct names joined by "&".
function M.parse_query(query)
  local params = {}
  if query == nil or query == "" then return params end
  -- Split with plain finds, which LuaJIT compiles (gmatch and match it does
  -- not): pieces between "&"s, each split at its first "=".
  local from = 1
  while from <= #query + 1 do
    local amp = query:find("&", from, true) or #query + 1
    local piece = query:sub(from, amp - 1)
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

-- The sizes a request may give (name, default, its limit in M.config) and
-- its flags, made once: check() runs on every request.
local SIZES = { { "width", M.DEFAULT_WIDTH, "max_width" }, { "height", M.DEFAULT_HEIGHT, "max_height" } }
local FLAGS = { "path", "form" }

-- Checks decoded parameters against the server's rules. Returns a request
-- {seed=, width=, height=, algorithm=, format=, options=, path=} (seed nil
-- when none was given, path nil unless given), or nil and a message. Sizes
-- are only checked against the server's limit here; the module checks the
-- rest (minimums depend on the algorithm), and the options' ranges.
--
-- `form=on` comes from the page's form, whose fieldset of options for the
-- algorithm shown is still sent when another algorithm is picked without
-- JavaScript: options the chosen algorithm does not take are then left out
-- (reset), not refused.
function M.check(params)
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
    local name, default = dim[1], dim[2]
    local limit = M.config[dim[3]]
    local text = params[name]
    local value, why = nil, nil
    if text then value, why = args.integer(text) end
    if why == "syntax" then return nil, name .. " must be an integer, got " .. shown(text) end
    if text and not (value and value <= limit) then
      return nil, name .. " must be an integer of at most " .. limit .. " (server limit), got " .. shown(text)
    end
    request[name] = value or default
  end
  if #request.algorithm > 32 or not request.algorithm:match("^[%w_-]+$") then
    return nil, "unknown algorithm " .. shown(request.algorithm) .. " (this server has: "
      .. table.concat(M.ALGORITHMS, ", ") .. ")"
  end
  for _, name in ipairs(FLAGS) do
    if params[name] then
      local value, problem = args.read(name, "boolean", params[name])
      if value == nil then return nil, problem end
      request[name] = value
    end
  end
  local takes = request.form and TAKES[request.algorithm]
  request.options, request.option_count = {}, 0
  for _, name in ipairs(M.OPTIONS) do
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

M.random_seed = args.random_seed

local function seed_text(seed)
  return string.format("%d", seed)
end

local ESCAPES = { ["&"] = "&amp;", ["<"] = "&lt;", [">"] = "&gt;", ['"'] = "&quot;", ["'"] = "&#39;" }

function M.escape_html(s)
  return (tostring(s):gsub("[&<>\"']", ESCAPES))
end

-- The query string of the options given, in the module's order:
-- "&name=value"..., each "&" as `amp` ("&amp;" in HTML; "&" by default).
local function options_query(request, amp)
  if request.option_count == 0 then return "" end
  amp = amp or "&"
  local parts = {}
  for _, name in ipairs(M.OPTIONS) do
    local value = request.options and request.options[name]
    if value ~= nil then
      if M.OPTION_TYPES[name] == "integer" then value = string.format("%d", value) end
      parts[#parts + 1] = amp .. name .. "=" .. tostring(value)
    end
  end
  return table.concat(parts)
end

-- The query string that reproduces a request (format left out: the HTML
-- page), each "&" as `amp` (see options_query).
function M.permalink(request, amp)
  amp = amp or "&"
  return "?seed=" .. (request.seed_text or seed_text(request.seed)) .. amp .. "width=" .. request.width
    .. amp .. "height=" .. request.height .. amp .. "algorithm=" .. request.algorithm .. options_query(request, amp)
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
-- request gave (defaults are placeholders). The script, when the algorithm
-- changes, enables that algorithm's fieldset instead (and its minimum width
-- and height). Without it the old algorithm's fieldset is sent, with
-- `form=on`: check() then leaves out the options the new one does not take.
M.SCRIPT = '(function(){var f=document.forms[0],a=f.elements.algorithm;function u(){'
  .. 'var s=f.querySelectorAll("fieldset[data-algorithm]");for(var i=0;i<s.length;i++){'
  .. 'var e=s[i],on=e.getAttribute("data-algorithm")==a.value;e.disabled=!on;if(on){'
  .. 'f.elements.width.min=e.getAttribute("data-min-width");'
  .. 'f.elements.height.min=e.getAttribute("data-min-height")}}}'
  .. 'a.addEventListener("change",u);addEventListener("pageshow",u);u()})();'
M.SCRIPT_HASH = "sha256-fQTcgFD9FEgz20NMKZxsuB5v3n8ru+KbraxTlGC2DHw="
M.CSP = "default-src 'none'; style-src 'unsafe-inline'; script-src '" .. M.SCRIPT_HASH .. "'; form-action 'self'"

-- The glyphs' colours: each glyph's cells are wrapped in a span of its class
-- (@ u, > s, $ g, ! o, + d); walls (#), floor (.) and any other byte keep
-- the map's own colour and get no span. With path=on, the cells on the path
-- from @ to > get one too, with class p (floor "f p"), which the page's
-- "show the path" checkbox colours.
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
  ".u{color:#fff;font-weight:bold;text-shadow:0 0 7px #ffffffb0}",
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

-- The glyphs that get a span of their class off the path: all but walls and
-- floor, which keep the map's own colour. On the path every cell gets one,
-- with class p added (floor "f p"). Few cells have a span, so the <pre> is
-- built from plain finds and a few pieces, not cell by cell (docs/server.md,
-- Speed).
local CLASSES = { ["@"] = "u", [">"] = "s", ["$"] = "g", ["!"] = "o", ["+"] = "d" }
local find, byte, sub, rep = string.find, string.byte, string.sub, string.rep
local SPANNED, OPEN, OPEN_ON_PATH, CELL = {}, {}, {}, {} -- OPEN*, CELL: by byte
for b = 0, 255 do
  CELL[b] = ESCAPES[string.char(b)] or string.char(b)
  OPEN_ON_PATH[b] = '<span class="p">'
end
OPEN_ON_PATH[byte(".")] = '<span class="f p">'
for _, glyph in ipairs({ "@", ">", "$", "!", "+" }) do
  SPANNED[#SPANNED + 1] = glyph
  OPEN[byte(glyph)] = '<span class="' .. CLASSES[glyph] .. '">'
  OPEN_ON_PATH[byte(glyph)] = '<span class="' .. CLASSES[glyph] .. ' p">'
end

-- Whether the map's text holds a character HTML needs escaped outside the
-- spans (as no generator's map does).
local function needs_escape(text)
  return find(text, "&", 1, true) or find(text, "<", 1, true) or find(text, '"', 1, true) or find(text, "'", 1, true)
end

-- Puts the cells `from` to `to` of `text`, bare, as out[m + 1] (none when
-- `from` > `to`); returns the new end of `out`.
local function put_bare(out, m, text, from, to, escape)
  if from > to then return m end
  local bare = sub(text, from, to)
  out[m + 1] = escape and M.escape_html(bare) or bare
  return m + 1
end

-- Appends to `out` the map's text as the <pre>'s HTML: each run of cells of
-- one class in one span, the others bare. Without the tags, and unescaped,
-- it is `text` exactly. `on_path[i]` is true for the path's cells, by byte
-- offset.
local function map_html_with_path(out, text, on_path)
  local e = M.escape_html
  -- The offsets of the cells that get a span, in order.
  local at, n = {}, 0
  for k = 1, #SPANNED do
    local i = find(text, SPANNED[k], 1, true)
    while i do
      n = n + 1
      at[n] = i
      i = find(text, SPANNED[k], i + 1, true)
    end
  end
  for i in pairs(on_path) do
    if not OPEN[byte(text, i)] then
      n = n + 1
      at[n] = i
    end
  end
  table.sort(at)
  local escape = needs_escape(text)
  local m = #out
  local bare_from, k = 1, 1
  while k <= n do
    -- A run: at[k] and the cells right after it with the same span.
    local first = at[k]
    local b = byte(text, first)
    local open = on_path[first] and OPEN_ON_PATH[b] or OPEN[b]
    local last, same = first, true
    while k < n and at[k + 1] == last + 1 do
      local c = byte(text, last + 1)
      if (on_path[last + 1] and OPEN_ON_PATH[c] or OPEN[c]) ~= open then break end
      if c ~= b then same = false end
      last, k = last + 1, k + 1
    end
    k = k + 1
    m = put_bare(out, m, text, bare_from, first - 1, escape)
    local cells = last == first and CELL[b] or same and rep(CELL[b], last - first + 1)
      or e(sub(text, first, last))
    out[m + 1], out[m + 2], out[m + 3] = open, cells, "</span>"
    m = m + 3
    bare_from = last + 1
  end
  put_bare(out, m, text, bare_from, #text, escape)
end

-- The same without a path, as every page is unless it asks for one: the
-- spanned cells found in order by a plain find per glyph (NEXT[k]: the next
-- offset of SPANNED[k]), the earliest taken each time, so that nothing is
-- sorted and the loop compiles; the same bytes as map_html_with_path.
local NEXT, NONE = {}, math.huge
local function map_html(out, text, on_path)
  if on_path then return map_html_with_path(out, text, on_path) end
  local escape = needs_escape(text)
  for k = 1, #SPANNED do NEXT[k] = find(text, SPANNED[k], 1, true) or NONE end
  local m, bare_from = #out, 1
  while true do
    local first, g = NONE, 0
    for k = 1, #SPANNED do
      if NEXT[k] < first then first, g = NEXT[k], k end
    end
    if g == 0 then break end
    local b = byte(text, first)
    local last = first
    while byte(text, last + 1) == b do last = last + 1 end
    NEXT[g] = find(text, SPANNED[g], last + 1, true) or NONE
    m = put_bare(out, m, text, bare_from, first - 1, escape)
    out[m + 1], out[m + 2], out[m + 3] = OPEN[b], last == first and CELL[b] or rep(CELL[b], last - first + 1),
      "</span>"
    m = m + 3
    bare_from = last + 1
  end
  put_bare(out, m, text, bare_from, #text, escape)
end

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

-- One option's input, as a function of its value (HTML text; nil leaves the
-- input empty, its default shown as the placeholder). The rest is made once.
local function option_input(option)
  local e = M.escape_html
  local name = e(option.name)
  local doc = option.doc and "<small>" .. e(option.doc) .. "</small>" or ""
  if option.type == "boolean" and not option.default then
    -- A checkbox: it sends name=on when checked, nothing when not.
    local label = '<label class="check"><input type="checkbox" name="' .. name
    local off = label .. '"> ' .. name .. "</label>" .. doc
    local on = label .. '" checked> ' .. name .. "</label>" .. doc
    return function(value) return (value == "true" or value == "on") and on or off end
  elseif option.type == "boolean" then
    local variants = {} -- by the value selected ("none": another one)
    for _, selected in ipairs({ "", "true", "false", "none" }) do
      local choices = {}
      for i, choice in ipairs({ { "", "default (true)" }, { "true", "true" }, { "false", "false" } }) do
        choices[i] = string.format('<option value="%s"%s>%s</option>', choice[1],
          selected == choice[1] and " selected" or "", choice[2])
      end
      variants[selected] = string.format('<label>%s <select name="%s">%s</select>%s</label>', name, name,
        table.concat(choices), doc)
    end
    return function(value) return variants[value or ""] or variants.none end
  end
  local before = string.format('<label>%s <input name="%s" type="number" min="%s" max="%s" step="%s" placeholder="%s"'
    .. ' title="%s"', name, name, number_text(option.min, option.type), number_text(option.max, option.type),
    option.type == "integer" and "1" or "any", e(option.default_text or ""), e(range_text(option)))
  local after = ">" .. doc .. "</label>"
  return function(value) return value and before .. ' value="' .. value .. '"' .. after or before .. after end
end

local INPUTS = {} -- option (a table of DESCRIPTIONS) -> its option_input
for _, algorithm in ipairs(M.ALGORITHMS) do
  for _, option in ipairs(DESCRIPTIONS[algorithm].options) do INPUTS[option] = option_input(option) end
end

-- The start of an algorithm's fieldset, its legend and doc: enabled (the
-- algorithm shown) or disabled. HEADS[enabled][name], made once.
local HEADS = { [true] = {}, [false] = {} }
for _, name in ipairs(M.ALGORITHMS) do
  local e = M.escape_html
  local description = DESCRIPTIONS[name]
  for enabled, heads in pairs(HEADS) do
    heads[name] = string.format('<fieldset data-algorithm="%s" data-min-width="%d" data-min-height="%d"%s>'
      .. "<legend>%s options</legend>", e(name), description.min_width, description.min_height,
      enabled and "" or " disabled", e(name)) .. '\n<p class="doc">' .. e(description.doc or "") .. "</p>"
  end
end

-- An algorithm's fieldset of options: enabled (the algorithm shown) with
-- `values` (name -> HTML text, or nil), or disabled and empty.
local function fieldset(name, enabled, values)
  local out = { HEADS[enabled][name] }
  for _, option in ipairs(DESCRIPTIONS[name].options) do
    out[#out + 1] = INPUTS[option](values and values[option.name])
  end
  out[#out + 1] = "</fieldset>"
  return table.concat(out, "\n")
end

-- The parts of the form that do not depend on the request, made once each:
-- each algorithm's <select> with it chosen, and its fieldsets (disabled, and
-- enabled without values). FORM_PARTS[algorithm] = {select=, before=, empty=,
-- after=}: `before` and `after` are the other algorithms' disabled fieldsets
-- (with the form's text that comes before and after them).
local FORM_PARTS = {}
do
  local disabled = {}
  for i, name in ipairs(M.ALGORITHMS) do disabled[i] = fieldset(name, false) end
  for i, name in ipairs(M.ALGORITHMS) do
    local choices = {}
    for k, other in ipairs(M.ALGORITHMS) do
      choices[k] = string.format("<option%s>%s</option>", other == name and " selected" or "", M.escape_html(other))
    end
    FORM_PARTS[name] = {
      select = '<label>algorithm <select name="algorithm">' .. table.concat(choices) .. "</select></label>\n"
        .. '<input type="hidden" name="form" value="on">',
      before = "\n</fieldset>\n" .. table.concat(disabled, "\n", 1, i - 1) .. (i > 1 and "\n" or ""),
      empty = fieldset(name, true),
      after = (i < #disabled and "\n" or "") .. table.concat(disabled, "\n", i + 1, #disabled)
        .. '\n<button type="submit">Generate</button>\n</div>',
    }
  end
end

-- Appends the form's fields to `out`, from `values` (all HTML text: seed,
-- width, height, algorithm, options = {name = text} or nil; and path =
-- true/false). `path_toggle` puts the "show the path" checkbox among them
-- (the error page has no map to put it beside). The hidden `form=on` tells
-- check() that the form sent the request.
local function form_fields(out, values, path_toggle)
  local current = DESCRIPTIONS[values.algorithm]
  local parts = FORM_PARTS[values.algorithm]
  local n = #out
  out[n + 1] = '<div class="controls">\n<fieldset><legend>map</legend>\n<label>seed <input name="seed" value="'
  out[n + 2] = values.seed or ""
  out[n + 3] = '" inputmode="numeric" pattern="[+\\-]?[0-9]+" placeholder="random"'
    .. ' title="an integer; leave empty for a random map"></label>\n<div class="pair">\n'
  out[n + 4] = string.format('<label>width <input name="width" type="number" min="%d" max="%d" value="%s">'
    .. '</label>\n<label>height <input name="height" type="number" min="%d" max="%d" value="%s"></label>\n</div>\n',
    current.min_width, M.config.max_width, values.width, current.min_height, M.config.max_height, values.height)
  out[n + 5] = parts.select
  out[n + 6] = path_toggle and string.format('\n<label class="check"><input type="checkbox" name="path"%s> show the'
    .. " path from @ to &gt;</label>", values.path and " checked" or "") or ""
  out[n + 7] = parts.before
  out[n + 8] = values.options and fieldset(values.algorithm, true, values.options) or parts.empty
  out[n + 9] = parts.after
end

-- The page's constant parts, around its title, its header and its body.
local DOCUMENT = {
  table.concat({
    "<!DOCTYPE html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    "<title>",
  }, "\n"),
  "</title>\n" .. table.concat({
    "<style>\n" .. STYLE .. "\n</style>",
    "</head>",
    "<body>",
    "<header>",
    "<h1>map <small>roguelike maps</small></h1>",
    "",
  }, "\n"),
  "\n</header>\n<form method=\"get\">\n",
  table.concat({ "", "</form>", "<script>" .. M.SCRIPT .. "</script>", "</body>", "</html>", "" }, "\n"),
}

-- The cells of the path from @ to > (both left out), as on_path[i] = true
-- by their offset in the map's text, and its length in steps; nil when the
-- map has no such path.
local function path_cells(m)
  if not (m.player and m.stairs) then return nil end
  local ok, path = pcall(map.path, m, m.player.x, m.player.y, m.stairs.x, m.stairs.y)
  if not (ok and path) then return nil end
  local on_path, row = {}, m.width + 1
  for i = 2, #path - 1 do
    local cell = path[i]
    on_path[(cell.y - 1) * row + cell.x] = true
  end
  return on_path, #path - 1
end

local LEGEND = '<span class="legend"><span class="u">@</span> you <span class="s">&gt;</span> stairs'
  .. ' <span class="g">$</span> gold <span class="o">!</span> potion <span class="d">+</span> door</span>'

-- The page for a request, as a list of strings: `text` the map's text; `m`
-- its table (map.generate), needed only to show the path (request.path).
-- ngx.print writes the list without joining it into one more string.
local function page(request, text, m)
  local link = M.permalink(request, "&amp;")
  local seed, algorithm = request.seed_text, request.algorithm
  local size = request.width .. "x" .. request.height
  local on_path, steps = nil, nil
  if m then on_path, steps = path_cells(m) end
  -- The form's values: numbers, booleans and a name of M.ALGORITHMS, which
  -- need no escaping.
  local values = { seed = seed, width = tostring(request.width), height = tostring(request.height),
    algorithm = algorithm, path = request.path }
  if request.option_count > 0 then
    values.options = {}
    for _, name in ipairs(M.OPTIONS) do
      local value = request.options[name]
      if value ~= nil then
        values.options[name] = type(value) == "number" and number_text(value, M.OPTION_TYPES[name]) or tostring(value)
      end
    end
  end
  local toggle
  if on_path then -- the path, shown or hidden by CSS
    toggle = '<label><input type="checkbox" id="path" name="path"' .. (request.path and " checked" or "")
      .. "> show the path from @ to &gt; (" .. steps .. " steps)</label>"
  elseif request.path then
    toggle = '<input type="hidden" name="path" value="on"><span>no path from @ to &gt;</span>'
  else -- finding the path costs more than the rest of the page: only on request
    toggle = '<a id="path" href="' .. link .. '&amp;path=on">show the path from @ to &gt;</a>'
  end
  local path_param = request.path and "&amp;path=on" or ""
  local out = {
    DOCUMENT[1],
    "map " .. algorithm .. " " .. size .. ", seed " .. seed,
    DOCUMENT[2],
    '<p id="meta">' .. algorithm .. " " .. size .. ', seed <b id="seed">' .. seed .. "</b>"
      .. ' &middot; <a id="permalink" href="' .. link .. path_param .. '">permalink</a>'
      .. ' &middot; <a id="text" href="' .. link .. '&amp;format=text">text</a>'
      .. ' &middot; <a id="json" href="' .. link .. '&amp;format=json">JSON</a>'
      .. ' &middot; <a id="random" href="?width=' .. request.width .. "&amp;height=" .. request.height
      .. "&amp;algorithm=" .. algorithm .. options_query(request, "&amp;") .. path_param
      .. '">new random map</a></p>',
    DOCUMENT[3],
    '<div class="panel">\n<div class="bar">' .. LEGEND,
    toggle,
    '</div>\n<div class="box" tabindex="0" role="region" aria-label="the map"><pre id="map">',
  }
  map_html(out, text, on_path)
  out[#out + 1] = "</pre></div>\n</div>\n"
  form_fields(out, values, false)
  out[#out + 1] = DOCUMENT[4]
  return out
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
local function each_parameter(query, visit)
  for piece in ((query or "") .. "&"):gmatch("([^&]*)&") do
    local eq = piece:find("=", 1, true)
    local name = unescape(eq and piece:sub(1, eq - 1) or piece)
    if name then visit(name, eq and unescape(piece:sub(eq + 1)) or nil) end
  end
end

-- Whether a refused request gets the HTML error page: unless it asked for
-- another format (a format value other than html, or one that cannot be
-- read), it came from the page or a browser.
local function wants_html(query)
  local html = true
  each_parameter(query, function(name, value)
    if name == "format" and value ~= "" and value ~= "html" then html = false end
  end)
  return html
end

-- The HTML error page: the message, and the form holding what was sent (the
-- first value of each known parameter; options only in the fieldset of the
-- algorithm asked for, or the default one).
function M.error_page(query, message)
  local e = M.escape_html
  local sent = {}
  each_parameter(query, function(name, value)
    if KNOWN[name] and value and value ~= "" and sent[name] == nil then sent[name] = value end
  end)
  local values = { seed = sent.seed and e(sent.seed), width = e(sent.width or tostring(M.DEFAULT_WIDTH)),
    height = e(sent.height or tostring(M.DEFAULT_HEIGHT)), algorithm = M.DEFAULT_ALGORITHM,
    path = sent.path == "on" or sent.path == "true" }
  if sent.algorithm and DESCRIPTIONS[sent.algorithm] then values.algorithm = sent.algorithm end
  for _, option in ipairs(DESCRIPTIONS[values.algorithm].options) do
    if sent[option.name] then
      values.options = values.options or {}
      values.options[option.name] = e(sent[option.name])
    end
  end
  local out = {
    DOCUMENT[1], "map: bad request", DOCUMENT[2],
    '<p id="meta">That request could not make a map. Change it below, or start from'
      .. ' <a id="random" href="?">a random map</a>.</p>',
    DOCUMENT[3],
    '<p id="error" role="alert"><b>Bad request</b>' .. e(message) .. "</p>\n",
  }
  form_fields(out, values, true)
  out[#out + 1] = DOCUMENT[4]
  return table.concat(out)
end

-- A 400 for a refused request: the HTML error page, or for format=text and
-- json (and unknown formats) a one-line plain-text message.
local function refuse(query, message)
  if not wants_html(query) then return plain(400, message) end
  return 400, {
    ["Content-Type"] = M.FORMATS.html,
    ["Cache-Control"] = "no-store",
    ["X-Content-Type-Options"] = "nosniff",
    ["Content-Security-Policy"] = M.CSP,
  }, M.error_page(query, message)
end

-- What a seeded response's body is made from besides its request: the code
-- of this file and of map.args, the module's version and the size limits
-- (the form shows them). The ETag is the hash of this and the request, not
-- of the body: hashing the 13 KB page costs more than serving it
-- (docs/server.md, Caching).
local function source_of(f)
  local source = debug.getinfo(f, "S").source
  local file = source:sub(1, 1) == "@" and io.open(source:sub(2), "rb")
  if not file then return source end -- not from a file: its name only
  local code = file:read("*a")
  file:close()
  return code
end
local CODE = source_of(page) .. "\0" .. source_of(args.read) .. "\0" .. map.VERSION
local revisions = setmetatable({}, { __mode = "k" }) -- hash function -> the hash of CODE

local function etag(hash, key)
  local revision = revisions[hash]
  if not revision then
    revision = hash(CODE)
    revisions[hash] = revision
  end
  return '"' .. hash(revision .. "\0" .. M.config.max_width .. "x" .. M.config.max_height .. "\0" .. key) .. '"'
end

-- Handles one GET request. `query` is the raw query string (or nil); `deps`
-- may supply `hash(text)` (a hex digest for the ETag; none without it) and
-- `random_seed()`. Returns status, headers (table), body (a string, or for
-- the page a list of strings: table.concat(body) is the page), and for a 500
-- the message to log.
function M.respond(query, deps)
  deps = deps or {}
  local params, problem = M.parse_query(query)
  local request
  if params then request, problem = M.check(params) end
  if not request then return refuse(query, problem) end

  local seeded = request.seed ~= nil
  if not seeded then request.seed = (deps.random_seed or M.random_seed)() end
  request.seed_text = seed_text(request.seed)
  local options = {
    width = request.width, height = request.height, seed = request.seed, algorithm = request.algorithm,
  }
  for _, name in ipairs(M.OPTIONS) do options[name] = request.options[name] end
  -- The page shows the path only when asked: that needs the map's table
  -- (map.path reads one); its text is map.render of it, which is
  -- generate_text's, byte for byte.
  local format = request.format
  local with_table = format == "html" and request.path
  local generate = format == "json" and map.generate_json or with_table and map.generate or map.generate_text
  local ok, result = pcall(generate, options)
  if not ok then
    result = tostring(result)
    if result:find("internal error", 1, true) then -- a bug in the module, not in the request
      local status, headers, body = plain(500, "internal error")
      return status, headers, body, result
    end
    return refuse(query, (result:gsub("^map%.[%w_]+: ", "")))
  end

  local body
  if format == "html" then
    if with_table then body = page(request, map.render(result), result) else body = page(request, result) end
  elseif format == "text" then
    body = result .. "\n" -- exactly the CLI's stdout
  else
    body = result
  end
  local headers = {
    ["Content-Type"] = M.FORMATS[format],
    ["X-Content-Type-Options"] = "nosniff",
    ["X-Map-Seed"] = request.seed_text,
  }
  if format == "html" then
    headers["Content-Security-Policy"] = M.CSP
  end
  if seeded then
    headers["Cache-Control"] = "public, max-age=" .. M.config.cache_max_age
    if deps.hash then
      headers["ETag"] = etag(deps.hash, M.permalink(request) .. "&format=" .. format
        .. (request.path and format == "html" and "&path=on" or ""))
    end
  else
    headers["Cache-Control"] = "no-store"
  end
  return 200, headers, body
end

-- The nginx side: content_by_lua_block { require("map.server").serve(ngx) },
-- in any location.
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
  if log then ngx.log(ngx.ERR, "map.server: ", log) end
  local length = 0
  if type(body) == "table" then
    for i = 1, #body do length = length + #body[i] end
  else
    length = #body
  end
  ngx.status = status
  for name, value in pairs(headers) do ngx.header[name] = value end
  ngx.header["Content-Length"] = length
  ngx.print(body)
end

return M
