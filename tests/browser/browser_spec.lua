-- The map page in a real browser: headless Chromium (Debian's `chromium`)
-- loads pages from the map server, started as spec/server_spec.lua starts it
-- (spec/support.lua: nginx/serve.sh on a free 127.0.0.1 port), and this spec
-- checks what the browser made of them:
--
-- - the DOM Chromium dumps (--dump-dom): title, seed, the <pre>'s text equal
--   to map.generate_text for the request, the links, the path toggle, the
--   map box's overflow:auto, and no Content-Security-Policy violation or
--   script error in the browser's console;
-- - the form: the GET URL it sends for every algorithm, with an empty seed
--   and with a too-small size (built from the dumped form, as the page's
--   script leaves it when the algorithm changes), and the page each one gets;
-- - a 200-wide map scrolls in its box, not the page, at both sizes (measured
--   by a script added to a copy of the page on disk);
-- - screenshots at desktop (1280x900) and phone (390x844) size: valid PNGs
--   of that size. Pixels are not compared (they change with Chromium and
--   its fonts); with SCREENSHOT_DIR set they are kept there as page.png and
--   page-phone.png (`SCREENSHOT_DIR=docs make test-browser`).
--
-- `make test-browser` runs it (busted, LuaJIT; `busted --run=lua54
-- tests/browser` works too); it needs `chromium` (setup.sh installs it) or
-- CHROMIUM naming another binary. 13 Chromium runs of 1-2 s each.
local map = require "map"
local support = require "spec.support"

local run, shell_quote, read_file = support.run, support.shell_quote, support.read_file
local ROOT = run("pwd"):gsub("\n$", "")
local CHROMIUM = os.getenv("CHROMIUM") or "chromium"
local FLAGS = "--headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking"
  .. " --disable-component-update --disable-sync --hide-scrollbars --enable-logging=stderr --v=0"

-- The page the checks and the desktop screenshot load (and the form starts
-- from): every glyph, doors, the path shown. The phone screenshot shows a
-- map as wide as a phone (46 columns); wider ones scroll in their box.
local SEED = 26
local PAGE = "?seed=" .. SEED .. "&width=88&height=34&algorithm=rooms&doors=on&path=on"
local PHONE_PAGE = "?seed=3&width=46&height=30&algorithm=rooms&doors=on&path=on"
local PAGE_OPTIONS = { width = 88, height = 34, seed = SEED, algorithm = "rooms", doors = true }

local ENTITIES = { amp = "&", lt = "<", gt = ">", quot = '"', ["#39"] = "'", nbsp = "\194\160" }
local function unescape(s)
  return (s:gsub("&(#?%w+);", function(name) return assert(ENTITIES[name], "entity " .. name) end))
end

-- Runs Chromium on `url` with `options`, in a fresh profile. Returns its
-- stdout and its log (stderr), and fails on any console message that is a
-- CSP violation or a script error.
local function chromium(options, url)
  local profile = run("mktemp -d /tmp/map-browser-spec.XXXXXX"):gsub("\n$", "")
  local out, log = profile .. ".out", profile .. ".log"
  os.execute(string.format("timeout 60 %s %s --user-data-dir=%s %s %s >%s 2>%s", CHROMIUM, FLAGS,
    shell_quote(profile), options, shell_quote(url), shell_quote(out), shell_quote(log)))
  local stdout, stderr = read_file(out), read_file(log)
  os.execute("rm -rf " .. shell_quote(profile) .. " " .. shell_quote(out) .. " " .. shell_quote(log))
  for line in stderr:gmatch("[^\n]+") do
    assert.is_nil(line:find("Content Security Policy", 1, true), line)
    assert.is_nil(line:find("Uncaught", 1, true), line)
  end
  return stdout, stderr
end

local function dump_dom(url)
  local dom, log = chromium("--dump-dom", url)
  assert.truthy(dom:find("</html>", 1, true), "no DOM from Chromium for " .. url .. ": " .. log:sub(-2000))
  return dom
end

-- A tag's attributes: name -> value ("" for a bare one, as Chromium
-- serializes boolean attributes).
local function attributes(text)
  local found = {}
  for name, value in text:gmatch('([%w-]+)="([^"]*)"') do found[name] = unescape(value) end
  for name in text:gsub('[%w-]+="[^"]*"', ""):gmatch("[%w-]+") do found[name] = "" end
  return found
end

-- The <pre id="map">'s text content, as a copy from the page gives it.
local function map_text(dom)
  local html = assert(dom:match('<pre id="map">(.-)</pre>'), "no <pre id=\"map\">")
  return unescape(html:gsub("<[^>]*>", ""))
end

local function element_text(dom, id)
  local text = dom:match('id="' .. id .. '"[^>]*>(.-)</')
  return text and unescape(text)
end

-- The form's controls in document order: {tag=, attrs=, fieldset=
-- (data-algorithm of the fieldset holding it), disabled= (whether that
-- fieldset is), options= (a select's)}.
local function form_controls(dom)
  local form = assert(dom:match('<form method="get">(.-)</form>'), "no form")
  local controls, fieldset, disabled, at = {}, nil, false, 1
  while true do
    local _, stop, close, tag, attrs = form:find("<(/?)(%a+)([^>]*)>", at)
    if not stop then break end
    at = stop + 1
    if tag == "fieldset" then
      fieldset = close == "" and attributes(attrs)["data-algorithm"] or nil
      disabled = close == "" and attributes(attrs).disabled ~= nil
    elseif close == "" and (tag == "input" or tag == "select") then
      local control = { tag = tag, attrs = attributes(attrs), fieldset = fieldset, disabled = disabled }
      if tag == "select" then
        control.options = {}
        for option_attrs, text in form:match("^(.-)</select>", at):gmatch("<option([^>]*)>(.-)</option>") do
          local a = attributes(option_attrs)
          control.options[#control.options + 1] = { value = a.value or unescape(text), selected = a.selected }
        end
      end
      controls[#controls + 1] = control
    end
  end
  return controls
end

local function url_encode(s)
  return (s:gsub("[^%w%-%._~]", function(c) return c == " " and "+" or string.format("%%%02X", c:byte()) end))
end

-- The query the form sends (application/x-www-form-urlencoded, as a GET
-- form does) after the user sets the fields in `set` (name -> text, or for a
-- checkbox true/false). Choosing an algorithm enables its fieldset of
-- options and disables the others', as the page's script does, unless
-- `no_script` (the fieldsets stay as the page made them); controls in a
-- disabled fieldset, unchecked checkboxes and controls without a name are
-- not sent.
local function form_query(controls, set, no_script)
  local algorithm
  for _, control in ipairs(controls) do
    if control.attrs.name == "algorithm" then
      for _, option in ipairs(control.options) do
        if option.selected then algorithm = option.value end
      end
    end
  end
  algorithm = set.algorithm or algorithm
  local parts = {}
  for _, control in ipairs(controls) do
    local name, value = control.attrs.name, nil
    local enabled = control.fieldset == nil or control.fieldset == algorithm
    if no_script then enabled = not control.disabled end
    if name and enabled and control.attrs.disabled == nil then
      if control.attrs.type == "checkbox" then
        local checked = control.attrs.checked ~= nil
        if set[name] ~= nil then checked = set[name] end
        if checked then value = control.attrs.value or "on" end
      elseif control.tag == "select" then
        value = set[name]
        for _, option in ipairs(control.options) do
          if value == nil and option.selected then value = option.value end
        end
        value = value or control.options[1].value
      else
        value = set[name] or control.attrs.value or ""
      end
    end
    if value then parts[#parts + 1] = url_encode(name) .. "=" .. url_encode(value) end
  end
  return "?" .. table.concat(parts, "&")
end

-- A PNG's width and height, or nil when the bytes are not a PNG.
local function png_size(bytes)
  if bytes:sub(1, 8) ~= "\137PNG\r\n\26\n" or bytes:sub(13, 16) ~= "IHDR" then return nil end
  local function u32(at)
    local a, b, c, d = bytes:byte(at, at + 3)
    return ((a * 256 + b) * 256 + c) * 256 + d
  end
  return u32(17), u32(21)
end

describe("the page in headless Chromium", function()
  local server, page_dom

  lazy_setup(function()
    assert(os.execute("command -v " .. CHROMIUM .. " >/dev/null 2>&1"),
      CHROMIUM .. " not found: install Debian's chromium (setup.sh does) or set CHROMIUM")
    server = support.start_server(ROOT)
    page_dom = dump_dom(server.url .. PAGE)
  end)

  lazy_teardown(function()
    if server then server.remove() end
  end)

  it("shows the map's exact text, the seed, the title and working links", function()
    assert.are.equal("map rooms 88x34, seed " .. SEED, page_dom:match("<title>(.-)</title>"))
    assert.are.equal(tostring(SEED), element_text(page_dom, "seed"))
    local text = map.generate_text(PAGE_OPTIONS)
    assert.are.equal(text, map_text(page_dom))
    local links = {}
    for attrs in page_dom:gmatch("<a ([^>]*)>") do
      local a = attributes(attrs)
      if a.id then links[a.id] = a.href end
    end
    local permalink = "?seed=" .. SEED .. "&width=88&height=34&algorithm=rooms&doors=true"
    assert.are.same({ permalink = permalink .. "&path=on", text = permalink .. "&format=text",
      json = permalink .. "&format=json", random = "?width=88&height=34&algorithm=rooms&doors=true&path=on" }, links)
    local again = server.get(links.permalink)
    assert.are.equal(200, again.status)
    assert.are.equal(text, unescape(again.body:match('<pre id="map">(.-)</pre>'):gsub("<[^>]*>", "")))
    assert.are.equal(text .. "\n", server.get(links.text).body)
    assert.are.equal(map.generate_json(PAGE_OPTIONS), server.get(links.json).body)
    local random = server.get(links.random)
    assert.are.equal(200, random.status)
    assert.are.equal("no-store", random.headers["cache-control"])
  end)

  it("colours the glyphs, marks the path and scrolls the map in its own box", function()
    local classes = {}
    for class in page_dom:match('<pre id="map">(.-)</pre>'):gmatch('<span class="([^"]*)">') do
      classes[class] = true
    end
    for _, class in ipairs({ "u", "s", "g", "o", "d", "f p" }) do assert.truthy(classes[class], class) end
    assert.is_nil(classes.f) -- floor off the path keeps the map's colour, as walls do
    local m = map.generate(PAGE_OPTIONS)
    local path = assert(map.path(m, m.player.x, m.player.y, m.stairs.x, m.stairs.y))
    assert.truthy(page_dom:find('<input type="checkbox" id="path" name="path" checked="">', 1, true))
    assert.truthy(page_dom:find(("show the path from @ to &gt; (%d steps)"):format(#path - 1), 1, true))
    local style = assert(page_dom:match("<style>(.-)</style>"))
    assert.truthy(style:find(".box{overflow:auto;", 1, true))
    assert.truthy(style:find(".panel:has(#path:checked) .p{background:", 1, true))
    assert.truthy(page_dom:find('<div class="box"[^>]*><pre id="map">'))
  end)

  it("shows an overworld: water, forest, mountains and bridges each in its colour", function()
    local options = { width = 88, height = 34, seed = SEED, algorithm = "overworld" }
    local body = server.get("?seed=" .. SEED .. "&width=88&height=34&algorithm=overworld").body
    local pre_html = assert(body:match('<pre id="map">(.-)</pre>'))
    assert.are.equal(map.generate_text(options), unescape(pre_html:gsub("<[^>]*>", "")))
    local classes = {}
    for class in pre_html:gmatch('<span class="([^"]*)">') do classes[class] = true end
    for _, class in ipairs({ "u", "s", "w", "t", "m" }) do assert.truthy(classes[class], class) end
    local style = assert(body:match("<style>(.-)</style>"))
    for _, class in ipairs({ "w", "t", "m", "b" }) do
      assert.truthy(style:find("." .. class .. "{color:#", 1, true), class)
    end
    assert.truthy(body:find("<title>map overworld 88x34, seed " .. SEED .. "</title>", 1, true))
  end)

  it("scrolls a 200-wide map in its box, not the page, at desktop and phone width", function()
    -- The page has no script to measure with (its CSP allows only its own),
    -- so a copy of it, on disk, gets one more that writes the page's and the
    -- box's widths into the DOM.
    local body = server.get("?seed=5&width=200&height=60&algorithm=maze").body
    local probe = '<script>var d=document.documentElement,b=document.querySelector(".box");'
      .. 'document.body.setAttribute("data-scroll",[d.scrollWidth,d.clientWidth,b.scrollWidth,b.clientWidth,'
      .. 'getComputedStyle(b).overflowX].join(" "))</script>'
    local at = assert(body:find("</body>", 1, true))
    local copy = os.tmpname() -- Lua 5.4 creates it: use its name plus .html
    os.remove(copy)
    copy = copy .. ".html"
    finally(function() os.remove(copy) end)
    local f = assert(io.open(copy, "wb"))
    f:write(body:sub(1, at - 1), probe, body:sub(at))
    f:close()
    for _, size in ipairs({ "1280,900", "390,844" }) do
      local dom = chromium("--dump-dom --window-size=" .. size, "file://" .. copy)
      local page_width, page_view, box_width, box_view, overflow =
        dom:match('data%-scroll="(%d+) (%d+) (%d+) (%d+) (%a+)"')
      assert.truthy(overflow, "no measure at " .. size)
      assert.are.equal("auto", overflow, size)
      assert.is_true(tonumber(page_width) <= tonumber(page_view), size .. ": the page scrolls sideways")
      assert.is_true(tonumber(box_width) > tonumber(box_view), size .. ": the map does not scroll in its box")
    end
  end)

  it("takes screenshots at desktop and phone size", function()
    local keep = os.getenv("SCREENSHOT_DIR")
    local files = {}
    finally(function()
      for _, file in ipairs(files) do os.remove(file) end
    end)
    for _, shot in ipairs({ { "page.png", 1280, 900, PAGE }, { "page-phone.png", 390, 844, PHONE_PAGE } }) do
      local base = os.tmpname() -- Lua 5.4 creates it: use its name plus .png
      os.remove(base)
      local file = base .. ".png"
      files[#files + 1] = file
      chromium(("--screenshot=%s --window-size=%d,%d"):format(shell_quote(file), shot[2], shot[3]),
        server.url .. shot[4])
      local f = io.open(file, "rb")
      assert.truthy(f, "no screenshot " .. shot[1])
      local bytes = f:read("*a")
      f:close()
      local width, height = png_size(bytes)
      assert.are.same({ shot[2], shot[3] }, { width, height }, shot[1])
      assert.is_true(#bytes > 10000, shot[1] .. " is nearly empty")
      if keep and keep ~= "" then
        assert(os.execute("cp " .. shell_quote(file) .. " " .. shell_quote(keep .. "/" .. shot[1])))
      end
    end
  end)

  it("sends a form that gets every algorithm's map", function()
    local controls = form_controls(page_dom)
    for _, algorithm in ipairs(map.ALGORITHMS) do
      local query = form_query(controls, { algorithm = algorithm })
      local expected = ("?path=on&seed=%d&width=88&height=34&algorithm=%s"):format(SEED, algorithm)
      assert.are.equal(expected, query:sub(1, #expected), query)
      local response = server.get(query)
      assert.are.equal(200, response.status, query .. ": " .. response.body:sub(1, 300))
      local dom = dump_dom(server.url .. query)
      local options = { width = 88, height = 34, seed = SEED, algorithm = algorithm }
      if algorithm == "rooms" then options.doors = true end -- the page's own checkbox, still checked
      assert.are.equal(map.generate_text(options), map_text(dom), query)
      assert.truthy(dom:find("<title>map " .. algorithm .. " 88x34, seed " .. SEED .. "</title>", 1, true), query)
      assert.truthy(dom:find("<option selected=\"\">" .. algorithm .. "</option>", 1, true), query)
      -- The page for it has that algorithm's options, the others' disabled.
      for _, other in ipairs(map.ALGORITHMS) do
        local tag = assert(dom:match('<fieldset data%-algorithm="' .. other .. '"[^>]*>'), other)
        assert.are.equal(other ~= algorithm, tag:find(' disabled=""', 1, true) ~= nil, query .. " " .. tag)
      end
      local min_width = map.describe(algorithm).min_width
      assert.truthy(dom:find(('<input name="width" type="number" min="%d" max="200" value="88">'):format(min_width),
        1, true), query)
    end
  end)

  it("sends, without its script, a form whose old options the new algorithm does not take are reset", function()
    -- The rooms fieldset (doors ticked) is still enabled: the server leaves
    -- out what the chosen algorithm does not take (form=on).
    local controls = form_controls(page_dom)
    for _, algorithm in ipairs(map.ALGORITHMS) do
      local query = form_query(controls, { algorithm = algorithm }, true)
      assert.truthy(query:find("&doors=on", 1, true) and query:find("&form=on", 1, true), query)
      local takes_doors = false
      for _, option in ipairs(map.describe(algorithm).options) do
        takes_doors = takes_doors or option.name == "doors"
      end
      local response = server.get(query)
      assert.are.equal(200, response.status, query .. ": " .. response.body:sub(1, 300))
      local options = { width = 88, height = 34, seed = SEED, algorithm = algorithm, doors = takes_doors or nil }
      assert.are.equal(map.generate_text(options), map_text(response.body), query)
    end
  end)

  it("sends an empty seed, which gets a random map", function()
    local query = form_query(form_controls(page_dom), { seed = "" })
    assert.truthy(query:find("&seed=&", 1, true), query)
    local dom = dump_dom(server.url .. query)
    local seed = assert(tonumber(element_text(dom, "seed")), "no seed")
    assert.is_true(seed >= 0 and seed < 2 ^ 53 and seed ~= SEED)
    local options = { width = 88, height = 34, seed = seed, algorithm = "rooms", doors = true }
    assert.are.equal(map.generate_text(options), map_text(dom))
  end)

  it("sends a too-small size, which gets the module's message in a 400 page with the form", function()
    local min_width = map.describe("rooms").min_width
    local query = form_query(form_controls(page_dom), { width = tostring(min_width - 1) })
    local response = server.get(query)
    assert.are.equal(400, response.status)
    assert.are.equal("text/html; charset=utf-8", response.headers["content-type"])
    local _, refusal = pcall(map.generate_text, { width = min_width - 1, height = 34, seed = SEED, doors = true })
    local message = refusal:gsub("^map%.generate_text: ", "")
    assert.are.equal(("width must be an integer >= %d, got %d"):format(min_width, min_width - 1), message)
    local dom = dump_dom(server.url .. query)
    assert.truthy(dom:find("<title>map: bad request</title>", 1, true))
    assert.are.equal("Bad request" .. message, unescape(dom:match('<p id="error"[^>]*>(.-)</p>'):gsub("<[^>]*>", "")))
    assert.is_nil(dom:find('<pre id="map">', 1, true))
    local controls = form_controls(dom)
    -- The form again, as it was sent: resending it sends the same fields.
    local function fields(q)
      local found = {}
      for name, value in q:gmatch("([^?&=]+)=([^&]*)") do found[name] = value end
      return found
    end
    assert.are.same(fields(query), fields(form_query(controls, {})))
    assert.are.equal(200, server.get(form_query(controls, { width = tostring(min_width) })).status)
  end)
end)
