-- The server's HTML page (format=html) and its error page, as plain Lua
-- (`map.page`, a part of map.server; no `ngx`): one stylesheet and one small
-- script, both inline, the map's text in a <pre> with its glyphs coloured,
-- and a form made from the module's registry (map.describe, through
-- map.args).
local map = require "map"
local args = require "map.args"
local query = require "map.query"

local DESCRIPTIONS = args.DESCRIPTIONS
local number_text = args.number_text

local M = {}

local ESCAPES = { ["&"] = "&amp;", ["<"] = "&lt;", [">"] = "&gt;", ['"'] = "&quot;", ["'"] = "&#39;" }

function M.escape_html(s)
  return (tostring(s):gsub("[&<>\"']", ESCAPES))
end

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
-- `form=on`: map.query's check then leaves out the options the new one does
-- not take.
M.SCRIPT = '(function(){var f=document.forms[0],a=f.elements.algorithm;function u(){'
  .. 'var s=f.querySelectorAll("fieldset[data-algorithm]");for(var i=0;i<s.length;i++){'
  .. 'var e=s[i],on=e.getAttribute("data-algorithm")==a.value;e.disabled=!on;if(on){'
  .. 'f.elements.width.min=e.getAttribute("data-min-width");'
  .. 'f.elements.height.min=e.getAttribute("data-min-height")}}}'
  .. 'a.addEventListener("change",u);addEventListener("pageshow",u);u()})();'
M.SCRIPT_HASH = "sha256-fQTcgFD9FEgz20NMKZxsuB5v3n8ru+KbraxTlGC2DHw="
M.CSP = "default-src 'none'; style-src 'unsafe-inline'; script-src '" .. M.SCRIPT_HASH .. "'; form-action 'self'"

-- The glyphs' colours: each glyph's cells are wrapped in a span of its class
-- (@ u, > s, $ g, ! o, + d; the overworld's water ~ w, forest " t,
-- mountains ^ m, bridges = b); walls (#), floor (.) and any other byte keep
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
  ".w{color:#3d7fd6}.t{color:#3fae5c}.m{color:#d3d8e2}.b{color:#c0904f}",
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
local CLASSES = { ["@"] = "u", [">"] = "s", ["$"] = "g", ["!"] = "o", ["+"] = "d", ["~"] = "w", ['"'] = "t",
  ["^"] = "m", ["="] = "b" }
local find, byte, sub, rep = string.find, string.byte, string.sub, string.rep
local SPANNED, OPEN, OPEN_ON_PATH, CELL = {}, {}, {}, {} -- OPEN*, CELL: by byte
for b = 0, 255 do
  CELL[b] = ESCAPES[string.char(b)] or string.char(b)
  OPEN_ON_PATH[b] = '<span class="p">'
end
OPEN_ON_PATH[byte(".")] = '<span class="f p">'
for _, glyph in ipairs({ "@", ">", "$", "!", "+", "~", '"', "^", "=" }) do
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
  elseif option.type == "string" then
    -- A line of text: a built-in sample's name, symmetry's word, a blocking set.
    local before = string.format('<label>%s <input name="%s" type="text" maxlength="%d" placeholder="%s" title="%s"',
      name, name, option.max, e(option.default_text or ""), e(args.allowed(option, "title")))
    local after = ">" .. doc .. "</label>"
    return function(value) return value and before .. ' value="' .. e(value) .. '"' .. after or before .. after end
  end
  local before = string.format('<label>%s <input name="%s" type="number" min="%s" max="%s" step="%s" placeholder="%s"'
    .. ' title="%s"', name, name, number_text(option.min, option.type), number_text(option.max, option.type),
    option.type == "integer" and "1" or "any", e(option.default_text or ""), e(args.allowed(option, "title")))
  local after = ">" .. doc .. "</label>"
  return function(value) return value and before .. ' value="' .. value .. '"' .. after or before .. after end
end

local INPUTS = {} -- option (a table of DESCRIPTIONS) -> its option_input
for _, algorithm in ipairs(args.ALGORITHMS) do
  for _, option in ipairs(DESCRIPTIONS[algorithm].options) do INPUTS[option] = option_input(option) end
end

-- The start of an algorithm's fieldset, its legend and doc: enabled (the
-- algorithm shown) or disabled. HEADS[enabled][name], made once.
local HEADS = { [true] = {}, [false] = {} }
for _, name in ipairs(args.ALGORITHMS) do
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
  for i, name in ipairs(args.ALGORITHMS) do disabled[i] = fieldset(name, false) end
  for i, name in ipairs(args.ALGORITHMS) do
    local choices = {}
    for k, other in ipairs(args.ALGORITHMS) do
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
-- map.query's check that the form sent the request. `config`: the server's,
-- whose size limits the form shows.
local function form_fields(out, values, path_toggle, config)
  local current = DESCRIPTIONS[values.algorithm]
  local parts = FORM_PARTS[values.algorithm]
  local n = #out
  out[n + 1] = '<div class="controls">\n<fieldset><legend>map</legend>\n<label>seed <input name="seed" value="'
  out[n + 2] = values.seed or ""
  out[n + 3] = '" inputmode="numeric" pattern="[+\\-]?[0-9]+" placeholder="random"'
    .. ' title="an integer; leave empty for a random map"></label>\n<div class="pair">\n'
  out[n + 4] = string.format('<label>width <input name="width" type="number" min="%d" max="%d" value="%s">'
    .. '</label>\n<label>height <input name="height" type="number" min="%d" max="%d" value="%s"></label>\n</div>\n',
    current.min_width, config.max_width, values.width, current.min_height, config.max_height, values.height)
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

-- The page for a request (query.check's, with seed_text), as a list of
-- strings: `text` the map's text; `m` its table (map.generate), needed only
-- to show the path (request.path); `config` the server's. ngx.print writes
-- the list without joining it into one more string.
function M.page(request, text, m, config)
  local link = query.permalink(request, "&amp;")
  local seed, algorithm = request.seed_text, request.algorithm
  local size = request.width .. "x" .. request.height
  local on_path, steps = nil, nil
  if m then on_path, steps = path_cells(m) end
  -- The form's values: numbers, booleans and a name of map.ALGORITHMS, which
  -- need no escaping.
  local values = { seed = seed, width = tostring(request.width), height = tostring(request.height),
    algorithm = algorithm, path = request.path }
  if request.option_count > 0 then
    values.options = {}
    for _, name in ipairs(args.OPTIONS) do
      local value = request.options[name]
      if value ~= nil then
        values.options[name] = type(value) == "number" and number_text(value, args.OPTION_TYPES[name])
          or tostring(value)
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
      .. "&amp;algorithm=" .. algorithm .. query.options_query(request, "&amp;") .. path_param
      .. '">new random map</a></p>',
    DOCUMENT[3],
    '<div class="panel">\n<div class="bar">' .. LEGEND,
    toggle,
    '</div>\n<div class="box" tabindex="0" role="region" aria-label="the map"><pre id="map">',
  }
  map_html(out, text, on_path)
  out[#out + 1] = "</pre></div>\n</div>\n"
  form_fields(out, values, false, config)
  out[#out + 1] = DOCUMENT[4]
  return out
end

-- The HTML error page: the message, and the form holding what was sent
-- (`sent`, query.sent's: the first value of each known parameter; options
-- only in the fieldset of the algorithm asked for, or the default one).
function M.error_page(sent, message, config)
  local e = M.escape_html
  local values = { seed = sent.seed and e(sent.seed), width = e(sent.width or tostring(query.DEFAULT_WIDTH)),
    height = e(sent.height or tostring(query.DEFAULT_HEIGHT)), algorithm = query.DEFAULT_ALGORITHM,
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
  form_fields(out, values, true, config)
  out[#out + 1] = DOCUMENT[4]
  return table.concat(out)
end

return M
