-- The HTTP server: first lua/map/server.lua (`map.server`) on its own, then the
-- real thing: Debian's nginx started through nginx/serve.sh on a free
-- 127.0.0.1 port, queried with curl. Runs on Lua 5.4 and LuaJIT (see .busted);
-- nginx itself always uses build/lib/lua/5.1/map.so.
local map = require "map"
local json = require "dkjson"
local support = require "spec.support"

local read_file, shell_quote, run = support.read_file, support.shell_quote, support.run

local ROOT = run("pwd"):gsub("\n$", "")
package.path = ROOT .. "/lua/?.lua;" .. package.path
local server = require "map.server"

-- lua/main.lua's stdout, run with the module this process loaded.
local function cli(...)
  return (support.cli(...))
end

local HTML_ENTITIES = { amp = "&", lt = "<", gt = ">", quot = '"', ["#39"] = "'" }

local function unescape_html(s)
  return (s:gsub("&(#?%w+);", function(name) return assert(HTML_ENTITIES[name], name) end))
end

-- The map in a page, as the page's <pre> holds it (still escaped), without
-- the spans that colour its glyphs.
local function pre(body)
  local html = body:match('<pre id="map">(.-)</pre>')
  return html and (html:gsub("</?span[^>]*>", ""))
end

-- The message of an HTML error page (unescaped), or nil.
local function error_message(body)
  local message = body:match('<p id="error" role="alert"><b>Bad request</b>(.-)</p>')
  return message and unescape_html(message)
end

-- 25 seeds (as text: LuaJIT's doubles print 2^53 as 9.007199254741e+15) and
-- sizes to cycle through.
local SEEDS = {
  "0", "1", "2", "3", "7", "42", "99", "100", "255", "256", "1000", "4242", "12345", "65535",
  "2147483647", "2147483648", "4294967297", "987654321012", "9007199254740991", "9007199254740992",
  "-1", "-42", "-123456789012345", "-9007199254740991", "-9007199254740992",
}
local SIZES = { { 6, 5 }, { 30, 12 }, { 120, 40 }, { 200, 200 }, { 200, 5 }, { 7, 199 }, { 80, 25 } }

-- The algorithms as the module's messages list them: "rooms", "cave" or "maze".
local ALGORITHM_LIST = support.ALGORITHM_LIST

-- Every option of every algorithm, once, in the module's order: name -> the
-- description (of the first algorithm that takes it) and its takers.
local OPTIONS, OPTION = {}, {}
for _, algorithm in ipairs(map.ALGORITHMS) do
  for _, option in ipairs(map.describe(algorithm).options) do
    if not OPTION[option.name] then
      OPTIONS[#OPTIONS + 1] = option.name
      OPTION[option.name] = { spec = option, takers = {} }
    end
    table.insert(OPTION[option.name].takers, algorithm)
  end
end

-- The module's message for these generate{} options, as the server shows it
-- (without the function's name), or nil when the module makes the map.
local function module_error(opts)
  local ok, err = pcall(map.generate_text, opts)
  if not ok then return (err:gsub("^map%.generate_text: ", "")) end
end

local other_value, option_value = support.other_value, support.option_value

describe("map.server (no nginx)", function()
  describe("parse_query", function()
    it("decodes name=value pairs; an empty value counts as absent", function()
      assert.are.same({}, server.parse_query(nil))
      assert.are.same({}, server.parse_query(""))
      assert.are.same({ seed = "42", width = "6" }, server.parse_query("seed=42&width=6"))
      assert.are.same({ seed = "-5" }, server.parse_query("%73eed=%2D5"))
      assert.are.same({ seed = " 5" }, server.parse_query("seed=+5")) -- "+" is a space
      assert.are.same({ seed = "+5" }, server.parse_query("seed=%2B5"))
      assert.are.same({ format = "text" }, server.parse_query("seed=&format=text&width="))
    end)

    it("splits queries with map.query.pieces, the one splitter of parse_query and the error page", function()
      local query = require "map.query"
      local function split(raw)
        local out = {}
        for _, name, value in query.pieces(raw) do out[#out + 1] = { name, value or false } end
        return out
      end
      assert.are.same({ { "", false } }, split(nil))
      assert.are.same({ { "", false } }, split(""))
      assert.are.same({ { "a", "1" }, { "b", "" }, { "c", false }, { "", false }, { "d", "x=y" }, { "", false } },
        split("a=1&b=&c&&d=x=y&"))
      assert.are.same({ { "%73eed", "%2D5" }, { "", "" } }, split("%73eed=%2D5&="))
      -- What the error page's form shows of a refused query: the first
      -- decodable value of each known name.
      assert.are.same({ seed = "7", algorithm = "<b>" },
        query.sent("seed=7&seed=8&width=%zz&x=1&algorithm=%3Cb%3E&path&format="))
    end)

    it("knows every option of every algorithm as a parameter", function()
      assert.are.same(OPTIONS, server.OPTIONS)
      local query, expected = {}, {}
      for i, name in ipairs(OPTIONS) do
        query[i] = name .. "=" .. i
        expected[name] = tostring(i)
      end
      assert.are.same(expected, server.parse_query(table.concat(query, "&")))
      local _, err = server.parse_query("colour=red")
      for _, name in ipairs(OPTIONS) do assert.truthy(err:find(name, 1, true), name) end
    end)

    it("refuses repeated, unknown, valueless and badly encoded parameters", function()
      for query, message in pairs({
        ["seed=1&seed=1"] = "parameter seed given more than once",
        ["seed=&seed=1"] = "parameter seed given more than once",
        ["format=text&format=json"] = "parameter format given more than once",
        ["Seed=1"] = "unknown parameter 'Seed'",
        ["colour=3"] = "unknown parameter 'colour'",
        ["Rooms=3"] = "unknown parameter 'Rooms'",
        ["seed"] = "parameter seed needs a value",
        ["seed=1&&width=6"] = "empty parameter",
        ["seed=1&"] = "empty parameter",
        ["seed=%4"] = "bad percent-encoding in seed value '%4'",
        ["se%ged=1"] = "bad percent-encoding in parameter name",
        ["x%00y=1"] = "unknown parameter 'x\\x00y'",
      }) do
        local params, err = server.parse_query(query)
        assert.is_nil(params, query)
        assert.are.equal(1, select(2, err:gsub("\n", "")) + 1, query)
        assert.truthy(err:find(message, 1, true), query .. " -> " .. err)
      end
    end)
  end)

  describe("check", function()
    after_each(function() server.configure() end)

    it("reads seeds as exact integer literals up to 2^53, like the CLI", function()
      for text, seed in pairs({ ["42"] = "42", ["-0"] = "0", ["007"] = "7", ["+7"] = "7",
        ["9007199254740992"] = "9007199254740992", ["-9007199254740992"] = "-9007199254740992" }) do
        local request = assert(server.check({ seed = text }))
        assert.are.equal(seed, string.format("%d", request.seed), text)
      end
      for _, bad in ipairs({ "1.5", "1e3", "0x10", " 42", "42 ", "--1", "abc", "42abc", "inf", "nan",
        "9007199254740993", "-9007199254740993", "99999999999999999999999" }) do
        local request, err = server.check({ seed = bad })
        assert.is_nil(request, bad)
        assert.truthy(err:find("seed must be an integer", 1, true), err)
      end
    end)

    it("applies the defaults and the configured size limit", function()
      assert.are.same({ width = 60, height = 20, algorithm = "rooms", format = "html", options = {}, option_count = 0 },
        server.check({}))
      assert.truthy(server.check({ width = "200", height = "200" }))
      assert.truthy(select(2, server.check({ width = "201" })):find("at most 200", 1, true))
      assert.truthy(select(2, server.check({ height = "201" })):find("at most 200", 1, true))
      server.configure({ max_width = 10, max_height = 8 })
      assert.truthy(server.check({ width = "10", height = "8" }))
      assert.truthy(select(2, server.check({ width = "11" })):find("at most 10", 1, true))
      assert.truthy(select(2, server.check({ height = "9" })):find("at most 8", 1, true))
    end)

    it("says a size that is no integer is none, and one above the limit is above it", function()
      assert.are.equal("width must be an integer, got 'abc'", select(2, server.check({ width = "abc" })))
      assert.are.equal("height must be an integer, got '1.5'", select(2, server.check({ height = "1.5" })))
      assert.are.equal("width must be an integer of at most 200 (server limit), got '201'",
        select(2, server.check({ width = "201" })))
      assert.are.equal("height must be an integer of at most 200 (server limit), got '99999999999999999999'",
        select(2, server.check({ height = "99999999999999999999" })))
    end)

    it("refuses unknown formats and malformed algorithm names", function()
      assert.truthy(select(2, server.check({ format = "xml" })):find("format must be html, text or json", 1, true))
      assert.truthy(select(2, server.check({ format = "TEXT" })):find("format must be", 1, true))
      assert.truthy(select(2, server.check({ algorithm = "<x>" })):find("unknown algorithm", 1, true))
      for _, algorithm in ipairs(map.ALGORITHMS) do
        assert.are.equal(algorithm, server.check({ algorithm = algorithm }).algorithm)
      end
    end)

    it("reads every option by the type map.describe gives it", function()
      local GOOD = {
        integer = { ["3"] = 3, ["-2"] = -2, ["007"] = 7, ["+4"] = 4, ["9007199254740992"] = 2 ^ 53 },
        number = { ["0.25"] = 0.25, ["1"] = 1, [".5"] = 0.5, ["-3"] = -3, ["2."] = 2, ["+0.75"] = 0.75 },
        boolean = { ["true"] = true, ["on"] = true, ["false"] = false },
        string = { ["rooms"] = "rooms", ["#~^"] = "#~^", [""] = "" },
      }
      local BAD = {
        integer = { "abc", "1.5", "1e3", "0x10", " 3", "3 ", "--1", "9007199254740993", "true" },
        number = { "abc", "1e3", "0x10", "nan", "inf", " 1", "1..2", ".", "-", "true" },
        boolean = { "yes", "1", "0", "TRUE", "off", "True", " true" },
        string = {}, -- any text is a string: its meaning is the module's to check
      }
      local A = { integer = "an integer", number = "a number", boolean = "a boolean" }
      for _, name in ipairs(OPTIONS) do
        local kind = OPTION[name].spec.type
        assert.are.equal(kind, server.OPTION_TYPES[name], name)
        for text, value in pairs(GOOD[kind]) do
          local request, err = server.check({ [name] = text })
          assert.truthy(request, err)
          assert.are.same({ [name] = value }, request.options, name .. "=" .. text)
        end
        for _, text in ipairs(BAD[kind]) do
          local request, err = server.check({ [name] = text })
          assert.is_nil(request, name .. "=" .. text)
          assert.are.equal(("%s must be %s, got '%s'"):format(name, A[kind], text), err)
        end
      end
    end)
  end)

  it("configure refuses unknown settings and bad values", function()
    assert.has_error(function() server.configure({ max_widht = 10 }) end,
      "map.server.configure: unknown setting max_widht")
    assert.has_error(function() server.configure({ max_width = 0 }) end,
      "map.server.configure: max_width must be a positive integer, got 0")
    assert.has_error(function() server.configure({ cache_max_age = 1.5 }) end)
    local must_path = "map.server.configure: path must be a path from / to a final / (letters, digits, - . _ ~), got "
    for _, bad in ipairs({ "maps/", "/maps", "//", "/a//b/", "/a b/", "/a?b/", 3 }) do
      assert.has_error(function() server.configure({ path = bad }) end,
        must_path .. (type(bad) == "string" and ("%q"):format(bad) or tostring(bad)))
    end
    for _, bad in ipairs({ true, "", "example.org", "https://example.org/", "https://a.org\r\nX: y" }) do
      assert.has_error(function() server.configure({ cors = bad }) end)
    end
    server.configure({ path = "/a/b-c.d_e~/", cors = "http://localhost:8080" })
    assert.are.same({ "/a/b-c.d_e~/", "http://localhost:8080" }, { server.config.path, server.config.cors })
    server.configure({ path = "/x/" })
    assert.are.same({ "/x/", false }, { server.config.path, server.config.cors }) -- settings not given: defaults
    assert.are.equal("/x/", server.config_for("/").path) -- the defaults at / gave way
    pcall(server.configure, { path = "/y/", max_width = 0 })
    assert.are.equal("/x/", server.config.path) -- unchanged by a failed call
    server.configure()
    assert.are.equal(200, server.config.max_width) -- unchanged by the failed calls
  end)

  it("escape_html escapes the five HTML-special characters", function()
    assert.are.equal("&lt;a href=&quot;x&quot;&gt;&amp;&#39;#.@$!", server.escape_html([[<a href="x">&'#.@$!]]))
  end)

  it("random_seed gives distinct integers in 0 .. 2^53-1", function()
    local seen = {}
    for _ = 1, 50 do
      local seed = server.random_seed()
      assert.is_true(seed >= 0 and seed < 2 ^ 53 and seed == math.floor(seed))
      seen[seed] = true
    end
    local n = 0
    for _ in pairs(seen) do n = n + 1 end
    assert.is_true(n > 45)
  end)

  describe("respond", function()
    local function hash(body) return string.format("%08x", #body) end

    it("serves the module's text plus a newline, with caching headers when seeded", function()
      local status, headers, body = server.respond("seed=9007199254740992&format=text&width=30&height=12",
        { hash = hash })
      assert.are.equal(200, status)
      assert.are.equal(map.generate_text(30, 12, 9007199254740992) .. "\n", body)
      assert.are.equal("text/plain; charset=utf-8", headers["Content-Type"])
      assert.are.equal("public, max-age=31536000", headers["Cache-Control"])
      assert.truthy(headers["ETag"]:match('^"%x+"$'), headers["ETag"])
      assert.are.equal("9007199254740992", headers["X-Map-Seed"])
    end)

    it("derives the ETag from the request and the server's code, not by hashing the body", function()
      -- An injective "hash" (hex), recording what it is given.
      local given = {}
      local function hex(text)
        given[#given + 1] = text
        return (text:gsub(".", function(c) return string.format("%02x", c:byte()) end))
      end
      local function etag(query)
        local status, headers = server.respond(query, { hash = hex })
        assert.are.equal(200, status, query)
        return headers["ETag"]
      end
      local first = etag("seed=7")
      local revision = given[1]
      for _, file in ipairs({ "server", "query", "page" }) do
        assert.truthy(revision:find(read_file("lua/map/" .. file .. ".lua"), 1, true), "map." .. file .. "'s code")
      end
      assert.truthy(revision:find(read_file("lua/map/args.lua"), 1, true), "map.args' code")
      assert.truthy(revision:find(map.VERSION, 1, true), "the module's version")
      given = {}
      -- The same body, the same ETag; another body, another one.
      assert.are.equal(first, etag("seed=7"))
      assert.are.equal(first, etag("seed=007&width=60&algorithm=rooms"))
      local seen = { [first] = "seed=7" }
      for _, query in ipairs({ "seed=8", "seed=-7", "seed=7&format=text", "seed=7&format=json", "seed=7&width=61",
        "seed=7&height=21", "seed=7&algorithm=cave", "seed=7&doors=on", "seed=7&items=4", "seed=7&path=on" }) do
        local tag = etag(query)
        assert.is_nil(seen[tag], query .. " has the ETag of " .. tostring(seen[tag]))
        seen[tag] = query
      end
      -- text and JSON ignore path, and so does their ETag.
      assert.are.equal(etag("seed=7&format=text"), etag("seed=7&format=text&path=on"))
      -- The size limits are in the page's form: another limit, another ETag.
      server.configure({ max_width = 150 })
      local limited = etag("seed=7")
      server.configure()
      assert.are_not.equal(first, limited)
      -- No body was hashed: the revision (the hash of the code, made once) and
      -- a short key, without the map.
      local map_text = map.generate_text(60, 20, 7)
      for _, text in ipairs(given) do
        assert.is_true(#text < 2 * #revision + 400, #text)
        assert.is_nil(text:find(map_text, 1, true))
      end
    end)

    it("uses random_seed when no seed is given, without caching", function()
      local status, headers, body = server.respond("format=json",
        { hash = hash, random_seed = function() return 77 end })
      assert.are.equal(200, status)
      assert.are.equal(map.generate_json({ width = 60, height = 20, seed = 77, algorithm = "rooms" }), body)
      assert.are.equal("no-store", headers["Cache-Control"])
      assert.is_nil(headers["ETag"])
      assert.are.equal("77", headers["X-Map-Seed"])
    end)

    it("turns the module's refusals into 400s without the function name", function()
      local status, headers, body = server.respond("width=5&format=text")
      assert.are.equal(400, status)
      assert.are.equal("text/plain; charset=utf-8", headers["Content-Type"])
      assert.are.equal("width must be an integer >= 6, got 5\n", body)
      status, headers, body = server.respond("width=5") -- the page's requests get the page
      assert.are.equal(400, status)
      assert.are.equal("text/html; charset=utf-8", headers["Content-Type"])
      assert.are.equal("width must be an integer >= 6, got 5", error_message(body))
      for _, name in ipairs(OPTIONS) do
        local spec, takers = OPTION[name].spec, OPTION[name].takers
        -- Out of range, for an algorithm that takes it.
        local past = (spec.type == "boolean" or spec.type == "string") and ""
          or string.format(spec.type == "integer" and "%d" or "%.14g",
          spec.max + 1)
        if past ~= "" then
          local opts = { width = 60, height = 20, seed = 1, algorithm = takers[1], [name] = tonumber(past) }
          status, _, body = server.respond(("seed=1&algorithm=%s&%s=%s&format=text"):format(takers[1], name, past))
          assert.are.equal(400, status, name)
          assert.are.equal(assert(module_error(opts)) .. "\n", body)
          assert.truthy(body:find("^" .. name .. " must be"), body)
        end
        -- Given to an algorithm that does not take it.
        for _, algorithm in ipairs(map.ALGORITHMS) do
          local takes = false
          for _, taker in ipairs(takers) do takes = takes or taker == algorithm end
          if not takes then
            local text = other_value(spec)
            local opts = { width = 60, height = 20, seed = 1, algorithm = algorithm, [name] = option_value(spec, text) }
            status, _, body = server.respond(("seed=1&algorithm=%s&%s=%s&format=text"):format(algorithm, name, text))
            assert.are.equal(400, status, name)
            assert.are.equal(assert(module_error(opts)) .. "\n", body)
            assert.truthy(body:find("^option " .. name .. " applies only to algorithm"), body)
          end
        end
      end
    end)

    it("passes every option to the module and puts it in the permalink", function()
      for _, algorithm in ipairs(map.ALGORITHMS) do
        for _, option in ipairs(map.describe(algorithm).options) do
          local text = other_value(option)
          -- A string's every byte but letters and digits escaped, as the permalink has it.
          local function escaped(c) return ("%%%02X"):format(c:byte()) end
          local sent = option.type == "string" and text:gsub("[^%w]", escaped) or text
          local query = ("seed=3&width=40&height=20&algorithm=%s&%s=%s"):format(algorithm, option.name, sent)
          local opts = { width = 40, height = 20, seed = 3, algorithm = algorithm,
            [option.name] = option_value(option, text) }
          local status, _, body = server.respond(query .. "&format=text")
          local refused = module_error(opts)
          if refused then
            assert.are.equal(400, status)
            assert.are.equal(refused .. "\n", body)
          else
            assert.are.equal(200, status, query .. ": " .. body)
            assert.are.equal(map.generate_text(opts) .. "\n", body, query)
            local request = assert(server.check(assert(server.parse_query(query))))
            assert.are.equal("?" .. query, server.permalink(request))
          end
        end
      end
    end)

    -- respond's answer when map.generate_text raises `message`.
    local function respond_raising(message, query)
      local real = map.generate_text
      map.generate_text = function() error(message, 0) end
      local answer = table.pack(pcall(server.respond, query))
      map.generate_text = real
      assert.is_true(answer[1], answer[2])
      return table.unpack(answer, 2, answer.n)
    end

    it("turns a module bug (map.INTERNAL_ERROR after the name) into a 500 and a message to log", function()
      local status, _, body, log = respond_raising("map.generate_text: " .. map.INTERNAL_ERROR .. ": boom",
        "seed=1&format=text")
      assert.are.equal(500, status)
      assert.are.equal("internal error\n", body)
      assert.truthy(log:find("boom", 1, true))
    end)

    it("keeps a refusal that only quotes the marker's words a 400", function()
      -- A message about the arguments may quote the caller's text; only the
      -- marker right after the function's name is a bug.
      for _, message in ipairs({ "map.generate_text: algorithm must be a name, got 'internal error'",
        "map.generate_text: algorithm must be a name, got '" .. map.INTERNAL_ERROR .. "'" }) do
        local status, _, body, log = respond_raising(message, "seed=1&format=text")
        assert.are.equal(400, status, message)
        assert.are.equal(message:gsub("^map%.generate_text: ", "") .. "\n", body)
        assert.is_nil(log)
      end
    end)
  end)

  describe("the page", function()
    -- The page's body: respond gives it as a list of strings.
    local function page(query)
      local status, headers, body = server.respond(query)
      assert.are.equal(200, status, query)
      assert.are.equal("table", type(body), query)
      return table.concat(body), headers
    end

    -- The <pre>'s cells as rows of {glyph=, class=} (class "" outside spans).
    local function cells(body)
      local html = assert(body:match('<pre id="map">(.-)</pre>'))
      local row = {}
      local rows = { row }
      local function add(text, class)
        for c in unescape_html(text):gmatch(".") do
          if c == "\n" then
            row = {}
            rows[#rows + 1] = row
          else
            row[#row + 1] = { glyph = c, class = class or "" }
          end
        end
      end
      local at = 1
      while at <= #html do
        local _, stop, class, text = html:find('^<span class="([^"]*)">([^<]*)</span>', at)
        if stop then
          assert.truthy(#text > 0 and not text:find("\n"), "empty span or one across rows")
          add(text, class)
          at = stop + 1
        else
          stop = html:find("<", at, true) or #html + 1
          assert.truthy(stop > at, "stray tag in the <pre>: " .. html:sub(at, at + 40))
          add(html:sub(at, stop - 1))
          at = stop
        end
      end
      return rows
    end

    it("reads path as a page-only boolean: text and JSON ignore it", function()
      assert.is_true(server.check({ path = "on" }).path)
      assert.is_true(server.check({ path = "true" }).path)
      assert.is_false(server.check({ path = "false" }).path)
      assert.are.equal("path must be a boolean, got '1'", select(2, server.check({ path = "1" })))
      for _, format in ipairs({ "text", "json" }) do
        local _, _, plain = server.respond("seed=5&format=" .. format)
        assert.are.equal(plain, select(3, server.respond("seed=5&path=on&format=" .. format)))
      end
      assert.truthy(page("seed=5&path=on"):find('<input type="checkbox" id="path" name="path" checked>', 1, true))
      -- Without path, the page does not look for the path (that costs more than
      -- the rest of the page): a link asks for it.
      local without = page("seed=5")
      assert.is_nil(without:find('id="path" name="path"', 1, true))
      assert.truthy(without:find('<a id="path" href="?seed=5&amp;width=60&amp;height=20&amp;algorithm=rooms'
        .. '&amp;path=on">show the path from @ to &gt;</a>', 1, true))
      assert.is_nil(without:match('<pre id="map">(.-)</pre>'):find(' p"', 1, true))
      assert.truthy(page("seed=5&path=on"):find('id="permalink" href="?seed=5&amp;width=60&amp;height=20'
        .. '&amp;algorithm=rooms&amp;path=on"', 1, true))
    end)

    it("colours each glyph and, with path=on, marks map.path's cells, in spans around the exact map", function()
      -- Walls and floor keep the map's colour; on the path, floor is "f p";
      -- the overworld's water, forest, mountains and bridges have theirs.
      local CLASS = { ["@"] = "u", [">"] = "s", ["$"] = "g", ["!"] = "o", ["+"] = "d", ["~"] = "w", ['"'] = "t",
        ["^"] = "m", ["="] = "b" }
      for _, algorithm in ipairs(map.ALGORITHMS) do
        for _, seed in ipairs({ 1, 42, -7 }) do
          local opts = { width = 70, height = 25, seed = seed, algorithm = algorithm }
          if algorithm == "rooms" or algorithm == "bsp" then opts.doors = true end
          local query = ("seed=%d&width=70&height=25&algorithm=%s%s"):format(seed, algorithm,
            opts.doors and "&doors=on" or "")
          local m = map.generate(opts)
          local path = assert(map.path(m, m.player.x, m.player.y, m.stairs.x, m.stairs.y))
          local on_path = {}
          for i = 2, #path - 1 do on_path[path[i].y * 1000 + path[i].x] = true end -- @ and > left out
          for _, shown in ipairs({ false, true }) do
            local body = page(query .. (shown and "&path=on" or ""))
            assert.are.equal(map.generate_text(opts), unescape_html(pre(body)), query)
            for y, row in ipairs(cells(body)) do
              for x, cell in ipairs(row) do
                local class = CLASS[cell.glyph] or ""
                if shown and on_path[y * 1000 + x] then
                  class = class == "" and (cell.glyph == "." and "f p" or "p") or class .. " p"
                end
                assert.are.equal(class, cell.class, ("%s (%d,%d) %s"):format(query, x, y, cell.glyph))
              end
            end
            assert.are.equal(shown, body:find(("show the path from @ to &gt; (%d steps)"):format(#path - 1), 1, true)
              ~= nil, query)
          end
        end
      end
    end)

    it("keeps runs of one class in one span, and escapes what is not a glyph", function()
      -- A hand-made map through the page's own code: adjacent items merge,
      -- other bytes are escaped and left bare.
      local m = map.new_map(8, 3)
      local rows = { "#$$!>@&#", "#..<..'#", "########" }
      for y, row in ipairs(rows) do
        for x = 1, #row do m[y][x] = row:sub(x, x) end
      end
      local real = map.generate_text
      map.generate_text = function() return map.render(m) end
      local ok, status, _, body = pcall(server.respond, "seed=1&width=8&height=3")
      map.generate_text = real
      assert.is_true(ok, status)
      local html = table.concat(body):match('<pre id="map">(.-)</pre>')
      assert.are.equal('#<span class="g">$$</span><span class="o">!</span><span class="s">&gt;</span>'
        .. '<span class="u">@</span>&amp;#\n#..&lt;..&#39;#\n########', html)
    end)

    it("resets, for its form (form=on), the options the chosen algorithm does not take", function()
      -- Without JavaScript, a rooms page's form still sends the rooms
      -- fieldset when cave is picked: its options that cave does not take
      -- are left out; the ones it takes stay.
      local sent = "seed=4&algorithm=cave&doors=on&rooms=abc&items=2&form=on"
      local body = page(sent)
      assert.are.equal(map.generate_text { width = 60, height = 20, seed = 4, algorithm = "cave", items = 2 },
        unescape_html(pre(body)))
      assert.truthy(body:find('id="permalink" href="?seed=4&amp;width=60&amp;height=20&amp;algorithm=cave'
        .. '&amp;items=2"', 1, true))
      assert.are.equal(page("seed=4&algorithm=cave&items=2"), body)
      assert.are.equal(page("seed=4&algorithm=bsp&doors=on"), page("seed=4&algorithm=bsp&doors=on&form=on"))
      -- A value the algorithm takes is still read, and a request without
      -- form=on is still refused.
      assert.are.equal("items must be an integer, got 'x'", error_message(select(3,
        server.respond("seed=4&algorithm=cave&doors=on&items=x&form=on"))))
      assert.are.equal('option doors applies only to algorithms "rooms" and "bsp"\n',
        select(3, server.respond("seed=4&algorithm=cave&doors=on&format=text")))
      assert.are.equal("form must be a boolean, got 'yes'", select(2, server.check({ form = "yes" })))
      -- The form says it is the form.
      assert.truthy(page("seed=4"):find('<input type="hidden" name="form" value="on">', 1, true))
      assert.truthy(select(3, server.respond("width=3")):find('<input type="hidden" name="form" value="on">', 1, true))
    end)

    it("runs only its own script (by its hash) and keeps the map box scrolling", function()
      local body, headers = page("seed=5")
      assert.are.equal(server.CSP, headers["Content-Security-Policy"])
      assert.are.equal("default-src 'none'; style-src 'unsafe-inline'; script-src '" .. server.SCRIPT_HASH
        .. "'; form-action 'self'", server.CSP)
      local digest = run("printf '%s' " .. shell_quote(server.SCRIPT) .. " | openssl dgst -sha256 -binary | base64")
      assert.are.equal("sha256-" .. digest:gsub("\n$", ""), server.SCRIPT_HASH)
      assert.are.equal(1, select(2, body:gsub("<script", "")))
      assert.truthy(body:find("<script>" .. server.SCRIPT .. "</script>", 1, true))
      assert.truthy(body:find(".box{overflow:auto;", 1, true))
      assert.truthy(body:find('<div class="box"[^>]*><pre id="map">'))
    end)

    it("has a form with every algorithm's options and limits from map.describe", function()
      for _, algorithm in ipairs(map.ALGORITHMS) do
        local d = map.describe(algorithm)
        local body = page("seed=5&algorithm=" .. algorithm)
        assert.truthy(body:find(('<input name="width" type="number" min="%d" max="200" value="60">'):format(
          d.min_width), 1, true), algorithm)
        assert.truthy(body:find(('<input name="height" type="number" min="%d" max="200" value="20">'):format(
          d.min_height), 1, true), algorithm)
        for _, other in ipairs(map.ALGORITHMS) do
          local fieldset = body:match('<fieldset data%-algorithm="' .. other .. '"[^>]*>.-</fieldset>')
          assert.truthy(fieldset, other)
          assert.are.equal(other ~= algorithm, fieldset:match("^[^>]*>"):find(" disabled>", 1, true) ~= nil)
          for _, option in ipairs(map.describe(other).options) do
            if option.type == "boolean" then
              assert.truthy(fieldset:find('<input type="checkbox" name="' .. option.name .. '">', 1, true))
            elseif option.type == "string" then
              assert.truthy(fieldset:find(('<input name="%s" type="text" maxlength="%d" placeholder="%s"'):format(
                option.name, option.max, server.escape_html(option.default_text)), 1, true),
                other .. " " .. option.name)
            else
              local fmt = option.type == "integer" and "%d" or "%.14g"
              assert.truthy(fieldset:find(('<input name="%s" type="number" min="%s" max="%s" step="%s"'
                .. ' placeholder="%s"'):format(option.name, fmt:format(option.min), fmt:format(option.max),
                option.type == "integer" and "1" or "any", server.escape_html(option.default_text)), 1, true),
                other .. " " .. option.name)
            end
          end
        end
      end
      -- The options given show in the current algorithm's fieldset, and only there.
      local body = page("seed=5&algorithm=bsp&depth=3&doors=on&max_ratio=2.5")
      local fieldset = body:match('<fieldset data%-algorithm="bsp"[^>]*>.-</fieldset>')
      assert.truthy(fieldset:find('name="depth" [^>]* value="3">'))
      assert.truthy(fieldset:find('name="max_ratio" [^>]* value="2.5">'))
      assert.truthy(fieldset:find('<input type="checkbox" name="doors" checked>', 1, true))
      local given = select(2, body:gsub(' value="[^"]', "")) -- seed, width, height, form, depth, max_ratio
      assert.are.equal(6, given)
    end)

    it("shows a refused request's message in the page, with the form as it was sent", function()
      local status, headers, body = server.respond("seed=12&width=3&algorithm=bsp&depth=3&path=on")
      assert.are.equal(400, status)
      assert.are.equal(server.CSP, headers["Content-Security-Policy"])
      assert.are.equal("width must be an integer >= 4, got 3", error_message(body))
      assert.truthy(body:find('<input name="seed" value="12"', 1, true))
      assert.truthy(body:find('<input name="width" type="number" min="4" max="200" value="3">', 1, true))
      assert.truthy(body:find("<option selected>bsp</option>", 1, true))
      assert.truthy(body:find('<input type="checkbox" name="path" checked>', 1, true))
      local bsp = body:match('<fieldset data%-algorithm="bsp"[^>]*>.-</fieldset>')
      assert.truthy(bsp:find('name="depth" [^>]* value="3">'))
      body = select(3, server.respond("seed=12&algorithm=bsp&depth=3&rooms=4"))
      assert.are.equal('option rooms applies only to algorithm "rooms"', error_message(body))
      assert.truthy(body:find('name="depth" [^>]* value="3">'))
      assert.is_nil(body:find('value="4"', 1, true)) -- rooms=4 is not bsp's: left out
      -- Unparsable queries still show what could be read.
      body = select(3, server.respond("seed=7&seed=8&width=%zz&algorithm=%3Cb%3E"))
      assert.are.equal("parameter seed given more than once", error_message(body))
      assert.truthy(body:find('<input name="seed" value="7"', 1, true))
      assert.are.equal(1, select(2, body:gsub("<b>", ""))) -- <b>Bad request</b>; algorithm=<b> is escaped
      assert.truthy(body:find("<option selected>rooms</option>", 1, true))
      assert.are.equal(400, (server.respond("format=xml")))
      assert.are.equal("text/plain; charset=utf-8", select(2, server.respond("format=xml"))["Content-Type"])
      for _, query in ipairs({ "format=json&format=html", "format=html&format=json", "format=json&format" }) do
        assert.are.equal("text/plain; charset=utf-8", select(2, server.respond(query))["Content-Type"], query)
      end
    end)

    it("refuses a request for JSON with the message as JSON", function()
      local cases = {
        { "seed=x&format=json", "seed must be an integer from -2^53 to 2^53, got 'x'" },
        { "seed=1&format=json&format=json", "parameter format given more than once" },
        { "seed=1&format=json&width=3", "width must be an integer >= 6, got 3" },
        { "seed=1&format=json&algorithm=%C3%BC",
          "unknown algorithm '\\xC3\\xBC' (this server has: " .. table.concat(map.ALGORITHMS, ", ") .. ")" },
      }
      for _, case in ipairs(cases) do
        local status, headers, body = server.respond(case[1])
        assert.are.same({ 400, "application/json", "no-store" },
          { status, headers["Content-Type"], headers["Cache-Control"] }, case[1])
        assert.are.same({ error = case[2] }, json.decode(body), case[1])
      end
    end)

    it("writes JSON strings a decoder reads back: escapes, and bad UTF-8 as U+FFFD", function()
      local cases = {
        { 'a"b\\c\n\t\1\127', 'a"b\\c\n\t\1\127' },
        { "\195\188 \226\130\172 \240\159\152\128", "\195\188 \226\130\172 \240\159\152\128" },
        { "\255", "\239\191\189" },
        { "\195", "\239\191\189" },
        { "\195\188\188", "\195\188\239\191\189" },
        { "\224\128\128", ("\239\191\189"):rep(3) }, -- overlong
        { "\237\160\128", ("\239\191\189"):rep(3) }, -- a surrogate
        { "\244\144\128\128", ("\239\191\189"):rep(4) }, -- beyond U+10FFFF
      }
      for _, case in ipairs(cases) do
        local text = server.json_string(case[1])
        assert.is_nil(text:find("%c"), "a control character left: " .. text)
        assert.are.equal(case[2], json.decode(text), ("%q"):format(case[1]))
      end
    end)
  end)

  it("serve(ngx) sends respond's answer, and 405 for other methods", function()
    local function fake_ngx(method, args, uri)
      local sent = { header = {} }
      return sent, {
        req = { get_method = function() return method end },
        var = { args = args, uri = uri or "/" },
        md5 = function(s) return string.format("%032x", #s) end,
        header = sent.header,
        print = function(body) -- a string, or a list of them
          sent.body = (sent.body or "") .. (type(body) == "table" and table.concat(body) or body)
        end,
        log = function(...) sent.log = table.concat({ ... }) end,
        ERR = 4,
      }
    end
    local sent, ngx = fake_ngx("GET", "seed=42&format=text")
    server.serve(ngx)
    assert.are.equal(200, ngx.status)
    assert.are.equal(map.generate_text(60, 20, 42) .. "\n", sent.body)
    assert.are.equal(#sent.body, sent.header["Content-Length"])
    assert.are.equal(select(2, server.respond("seed=42&format=text", { hash = ngx.md5 }))["ETag"],
      sent.header["ETag"])

    sent, ngx = fake_ngx("GET", "seed=42")
    server.serve(ngx)
    assert.are.equal(200, ngx.status)
    assert.are.equal(table.concat(select(3, server.respond("seed=42"))), sent.body)
    assert.are.equal(#sent.body, sent.header["Content-Length"])

    sent, ngx = fake_ngx("POST", "seed=42")
    server.serve(ngx)
    assert.are.equal(405, ngx.status)
    assert.are.equal("GET, HEAD", sent.header["Allow"])
    assert.are.equal("method not allowed: use GET or HEAD\n", sent.body)
    sent, ngx = fake_ngx("OPTIONS", nil)
    server.serve(ngx)
    assert.are.same({ 405, nil }, { ngx.status, sent.header["Access-Control-Allow-Origin"] })

    -- The maps at their path only: its form without the final slash
    -- redirects there, query kept; any other path is a 404.
    sent, ngx = fake_ngx("GET", "seed=42", "/foo")
    server.serve(ngx)
    assert.are.same({ 404, "not found: maps are served at /\n" }, { ngx.status, sent.body })
    finally(function() server.configure() end)
    server.configure({ path = "/maps/" })
    local cases = {
      { "/maps/", "seed=42&format=text", 200 },
      { "/maps", "seed=42&format=text", 301, "/maps/?seed=42&format=text" },
      { "/maps", nil, 301, "/maps/" },
      { "/maps/foo", "seed=42", 404 },
      { "/maps/maps/", nil, 404 },
      { "/mapsfoo", nil, 404 },
      { "/", "seed=42", 404 },
    }
    for _, case in ipairs(cases) do
      sent, ngx = fake_ngx("GET", case[2], case[1])
      server.serve(ngx)
      assert.are.same({ case[3], case[4] }, { ngx.status, sent.header["Location"] }, case[1])
      if case[3] == 404 then assert.are.equal("not found: maps are served at /maps/\n", sent.body) end
      assert.is_nil(sent.header["Access-Control-Allow-Origin"])
    end

    -- cors: the header on every answer, and preflights answered.
    server.configure({ path = "/maps/", cors = "*" })
    for _, case in ipairs({ { "GET", "/maps/", 200 }, { "GET", "/maps", 301 }, { "GET", "/x", 404 },
      { "POST", "/maps/", 405 }, { "OPTIONS", "/maps/", 204 } }) do
      sent, ngx = fake_ngx(case[1], "seed=1&format=text", case[2])
      server.serve(ngx)
      assert.are.same({ case[3], "*" }, { ngx.status, sent.header["Access-Control-Allow-Origin"] }, case[2])
    end
    sent, ngx = fake_ngx("OPTIONS", nil, "/maps/")
    server.serve(ngx)
    assert.are.same({ 204, "GET, HEAD", "If-None-Match", "86400", "" }, { ngx.status,
      sent.header["Access-Control-Allow-Methods"], sent.header["Access-Control-Allow-Headers"],
      sent.header["Access-Control-Max-Age"], sent.body })
    sent, ngx = fake_ngx("GET", "seed=1", "/maps/")
    server.serve(ngx)
    assert.are.same({ "X-Map-Seed, ETag", nil }, { sent.header["Access-Control-Expose-Headers"], sent.header["Vary"] })
    server.configure({ cors = "https://example.org" })
    sent, ngx = fake_ngx("GET", "seed=x&format=text")
    server.serve(ngx)
    assert.are.same({ 400, "https://example.org", "X-Map-Seed, ETag", "Origin" }, { ngx.status,
      sent.header["Access-Control-Allow-Origin"], sent.header["Access-Control-Expose-Headers"], sent.header["Vary"] })
    -- /maps/ kept its own settings beside /'s.
    sent, ngx = fake_ngx("GET", "seed=1", "/maps/")
    server.serve(ngx)
    assert.are.same({ 200, "*" }, { ngx.status, sent.header["Access-Control-Allow-Origin"] })
  end)

  it("serve(ngx) answers each configured path with its own settings", function()
    finally(function() server.configure() end)
    server.configure({ path = "/small/", max_width = 10, max_height = 10 })
    server.configure({ path = "/big/", max_width = 100, max_height = 50, cors = "*" })
    server.configure({ path = "/big/deeper/", max_width = 20 })
    local function serve(uri, args)
      local sent = { header = {} }
      local ngx = {
        req = { get_method = function() return "GET" end },
        var = { args = args, uri = uri },
        md5 = function(s) return string.format("%032x", #s) end,
        header = sent.header,
        print = function(body) sent.body = type(body) == "table" and table.concat(body) or body end,
      }
      server.serve(ngx)
      return ngx.status, sent.header, sent.body
    end
    local cases = {
      { "/small/", "width=10&height=10&seed=1&format=text", 200 },
      { "/small/", "width=11&seed=1&format=text", 400,
        "width must be an integer of at most 10 (server limit), got '11'" },
      { "/big/", "width=100&height=50&seed=1&format=text", 200 },
      { "/big/", "width=101&seed=1&format=text", 400,
        "width must be an integer of at most 100 (server limit), got '101'" },
      { "/big/deeper/", "width=21&seed=1&format=text", 400,
        "width must be an integer of at most 20 (server limit), got '21'" },
      { "/small", nil, 301 },
      { "/big/other", nil, 404, "not found: maps are served at /big/" },
      { "/big/deeper/x", nil, 404, "not found: maps are served at /big/deeper/" },
      { "/small/x", nil, 404, "not found: maps are served at /small/" },
    }
    for _, case in ipairs(cases) do
      local status, headers, body = serve(case[1], case[2])
      assert.are.equal(case[3], status, case[1] .. "?" .. tostring(case[2]))
      if case[4] then assert.are.equal(case[4] .. "\n", body, case[1]) end
      local cors = case[1]:find("^/big/") and not case[1]:find("deeper") and "*" or nil
      assert.are.equal(cors, headers["Access-Control-Allow-Origin"], case[1])
    end
    assert.are.equal("/small/", select(2, serve("/small", "seed=1")).Location:match("^[^?]*"))
    -- Their ETags differ: the limits are part of what a page is made from.
    assert.are_not.equal(select(2, serve("/small/", "seed=1&width=8"))["ETag"],
      select(2, serve("/big/", "seed=1&width=8"))["ETag"])
  end)
end)

describe("the server (Debian nginx via nginx/serve.sh)", function()
  local dir, port, pid, server_process -- luacheck: ignore port pid

  -- The server's start-up, requests and stopping are spec/support.lua's.
  local function get(query, extra) return server_process.get(query, extra) end
  local function stop(signal) return server_process.stop(signal) end

  lazy_setup(function()
    server_process = support.start_server(ROOT)
    dir, port, pid = server_process.dir, server_process.port, server_process.pid
  end)

  lazy_teardown(function()
    if server_process then server_process.remove() end
  end)

  it("serves /?seed=N as `lua main.lua W H N` prints it, for 25 seeds and 7 sizes", function()
    for i, seed in ipairs(SEEDS) do
      local expected = cli("60", "20", seed)
      assert.are.equal(map.generate_text(60, 20, tonumber(seed)) .. "\n", expected) -- the CLI's one newline
      local page = get("?seed=" .. seed)
      assert.are.equal(200, page.status)
      assert.are.equal(expected, unescape_html(assert(pre(page.body), "no <pre> for seed " .. seed)) .. "\n",
        "seed " .. seed)

      local w, h = SIZES[i % #SIZES + 1][1], SIZES[i % #SIZES + 1][2]
      page = get(string.format("?width=%d&height=%d&seed=%s", w, h, seed))
      assert.are.equal(200, page.status)
      assert.are.equal(cli(w, h, seed), unescape_html(pre(page.body)) .. "\n", w .. "x" .. h .. " seed " .. seed)
    end
  end)

  it("serves every algorithm as `lua main.lua W H N A` prints it, in each format", function()
    for _, algorithm in ipairs(map.ALGORITHMS) do
      for _, case in ipairs({ { 60, 20, "42" }, { 80, 50, "-7" }, { 30, 12, "9007199254740992" } }) do
        local w, h, seed = case[1], case[2], case[3]
        local query = string.format("?seed=%s&width=%d&height=%d&algorithm=%s", seed, w, h, algorithm)
        local expected = cli(w, h, seed, algorithm)
        local page = get(query)
        assert.are.equal(200, page.status, query)
        assert.are.equal(expected, unescape_html(pre(page.body)) .. "\n", query)
        assert.truthy(page.body:find("<title>map " .. algorithm .. " ", 1, true), query)
        assert.are.equal(expected, get(query .. "&format=text").body, query)
        local options = { width = w, height = h, seed = tonumber(seed), algorithm = algorithm }
        assert.are.equal(map.generate_json(options), get(query .. "&format=json").body, query)
      end
    end
  end)

  it("takes any option as a query parameter, as the module does", function()
    for _, algorithm in ipairs(map.ALGORITHMS) do
      local changed = 0
      for _, option in ipairs(map.describe(algorithm).options) do
        local text = other_value(option)
        for _, seed in ipairs({ 1, 2 }) do
          local sent = text:gsub("[^%w.%-]", function(c) return ("%%%02X"):format(c:byte()) end)
          local query = ("?seed=%d&width=60&height=20&algorithm=%s&%s=%s"):format(seed, algorithm, option.name, sent)
          local opts = { width = 60, height = 20, seed = seed, algorithm = algorithm,
            [option.name] = option_value(option, text) }
          local response = get(query .. "&format=text")
          local refused = module_error(opts)
          if refused then
            assert.are.equal(400, response.status, query)
            assert.are.equal(refused .. "\n", response.body, query)
          else
            assert.are.equal(200, response.status, query .. ": " .. response.body)
            assert.are.equal(map.generate_text(opts) .. "\n", response.body, query)
            local default = map.generate_text { width = 60, height = 20, seed = seed, algorithm = algorithm }
            if response.body ~= default .. "\n" then changed = changed + 1 end
            assert.are.equal(map.generate_json(opts), get(query .. "&format=json").body, query)
            local page = get(query)
            assert.are.equal(response.body, unescape_html(pre(page.body)) .. "\n", query)
            local href = unescape_html(page.body:match('<a id="permalink" href="([^"]*)">'))
            assert.are.equal(query, href)
          end
        end
      end
      assert.is_true(changed > 0, algorithm .. ": no option changed the map")
    end
    local on = get("?seed=4&doors=on&format=text")
    assert.are.equal(map.generate_text { width = 60, height = 20, seed = 4, doors = true } .. "\n", on.body)
    assert.truthy(on.body:find("+", 1, true))
  end)

  it("answers bad option values with a 400: the type by the server, the range by the module", function()
    local A = { integer = "an integer", number = "a number", boolean = "a boolean" }
    for _, name in ipairs(OPTIONS) do
      local spec, taker = OPTION[name].spec, OPTION[name].takers[1]
      -- Any text is a string: its meaning is the module's (a 400 too, spec above).
      for _, text in ipairs(spec.type == "string" and {} or { "abc", "1e3", "%3Cb%3E" }) do
        local response = get(("?algorithm=%s&%s=%s&format=text"):format(taker, name, text))
        assert.are.equal(400, response.status, name .. "=" .. text)
        local decoded = text:gsub("%%3C", "<"):gsub("%%3E", ">")
        assert.are.equal(("%s must be %s, got '%s'\n"):format(name, A[spec.type], decoded), response.body)
      end
      if spec.type ~= "boolean" and spec.type ~= "string" then
        for _, value in ipairs({ spec.min - 1, spec.max + 1 }) do
          local text = string.format(spec.type == "integer" and "%d" or "%.14g", value)
          local response = get(("?algorithm=%s&%s=%s&format=text"):format(taker, name, text))
          local opts = { width = 60, height = 20, algorithm = taker, [name] = tonumber(text) }
          assert.are.equal(400, response.status, name .. "=" .. text)
          assert.are.equal(assert(module_error(opts)) .. "\n", response.body)
        end
      end
    end
  end)

  it("serves caves as `lua main.lua W H N cave` prints them", function()
    for _, case in ipairs({ { 60, 20, "42" }, { 80, 50, "666" }, { 3, 200, "1" }, { 200, 60, "-3" } }) do
      local page = get(string.format("?seed=%s&width=%d&height=%d&algorithm=cave", case[3], case[1], case[2]))
      assert.are.equal(200, page.status)
      assert.are.equal(cli(case[1], case[2], case[3], "cave"), unescape_html(pre(page.body)) .. "\n")
    end
  end)

  it("format=text is exactly the CLI's stdout: generate_text plus one newline", function()
    for i, seed in ipairs({ "0", "42", "-7", "9007199254740992", "-9007199254740992" }) do
      local w, h = SIZES[i][1], SIZES[i][2]
      local response = get(string.format("?seed=%s&width=%d&height=%d&format=text", seed, w, h))
      assert.are.equal(200, response.status)
      assert.are.equal("text/plain; charset=utf-8", response.headers["content-type"])
      assert.are.equal(map.generate_text(w, h, tonumber(seed)) .. "\n", response.body)
      assert.are.equal(cli(w, h, seed), response.body)
    end
    assert.are.equal(read_file("spec/golden/rooms-60x20-42.txt"):gsub("\n$", "") .. "\n",
      get("?seed=42&format=text").body)
  end)

  it("format=json is exactly generate_json, with every field", function()
    for _, case in ipairs({ { 60, 20, "42", "rooms" }, { 30, 12, "9007199254740992", "rooms" },
      { 80, 50, "-666", "cave" } }) do
      local w, h, seed, algorithm = case[1], case[2], case[3], case[4]
      local response = get(string.format("?seed=%s&width=%d&height=%d&algorithm=%s&format=json", seed, w, h, algorithm))
      assert.are.equal(200, response.status)
      assert.are.equal("application/json", response.headers["content-type"])
      local options = { width = w, height = h, seed = tonumber(seed), algorithm = algorithm }
      assert.are.equal(map.generate_json(options), response.body)
      local level = assert(json.decode(response.body))
      local m = map.generate(options)
      assert.are.equal(w, level.width)
      assert.are.equal(h, level.height)
      assert.are.equal(seed, string.format("%d", level.seed))
      assert.are.equal(algorithm, level.algorithm)
      assert.are.same({ x = m.player.x, y = m.player.y }, level.player)
      assert.are.same({ x = m.stairs.x, y = m.stairs.y }, level.stairs)
      assert.are.same(m.doors, level.doors)
      assert.are.equal(#m.rooms, #level.rooms)
      assert.are.equal(#m.items, #level.items)
      assert.are.equal(map.render(m), table.concat(level.rows, "\n"))
    end
  end)

  it("carries the doors in the JSON", function()
    local response = get("?seed=3&doors=true&format=json")
    local level = assert(json.decode(response.body))
    local m = map.generate { width = 60, height = 20, seed = 3, doors = true }
    assert.is_true(#m.doors > 0)
    assert.are.same(m.doors, level.doors)
    assert.are.equal(map.generate_json { width = 60, height = 20, seed = 3, doors = true }, response.body)
  end)

  it("sends a valid HTML5 page with the map escaped, the seed and a permalink", function()
    local page = get("?seed=42")
    assert.are.equal("text/html; charset=utf-8", page.headers["content-type"])
    local body = page.body
    local start = '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
    assert.are.equal(start, body:sub(1, #start))
    assert.truthy(body:find("<title>map rooms 60x20, seed 42</title>", 1, true))
    assert.truthy(body:find("</html>\n$"))
    local escaped = pre(body)
    assert.is_nil(escaped:find("[<>]"), "raw < or > in the <pre>")
    assert.truthy(escaped:find("&gt;", 1, true)) -- the stairs
    assert.are.equal(1, select(2, unescape_html(escaped):gsub(">", "")))
    assert.truthy(body:find('<b id="seed">42</b>', 1, true))
    local href = body:match('<a id="permalink" href="([^"]*)">')
    assert.are.equal("?seed=42&amp;width=60&amp;height=20&amp;algorithm=rooms", href)
    assert.are.equal(escaped, pre(get(unescape_html(href)).body))
    assert.truthy(body:find('<form method="get">', 1, true))
    assert.truthy(body:find('<input name="seed" value="42"', 1, true))
    local choices = {}
    for i, name in ipairs(map.ALGORITHMS) do
      choices[i] = (i == 1 and "<option selected>" or "<option>") .. name .. "</option>"
    end
    assert.truthy(body:find('<select name="algorithm">' .. table.concat(choices) .. "</select>", 1, true))
    for _, name in ipairs(map.ALGORITHMS) do
      local other = get("?seed=42&algorithm=" .. name).body
      assert.truthy(other:find("<option selected>" .. name .. "</option>", 1, true), name)
    end
  end)

  it("lets seeded responses be cached (long max-age, ETag) and answers If-None-Match", function()
    for format, content_type in pairs(server.FORMATS) do
      local query = "?seed=42&format=" .. format
      local first, again, other = get(query), get(query), get("?seed=43&format=" .. format)
      assert.are.equal(content_type, first.headers["content-type"])
      assert.are.equal("public, max-age=31536000", first.headers["cache-control"])
      assert.are.equal("nosniff", first.headers["x-content-type-options"])
      assert.are.equal("42", first.headers["x-map-seed"])
      local etag = first.headers["etag"]
      assert.truthy(etag and etag:match('^"%x+"$'), format)
      assert.are.equal(etag, again.headers["etag"])
      assert.are.equal(first.body, again.body)
      assert.are_not.equal(etag, other.headers["etag"])

      local cached = get(query, "-H " .. shell_quote("If-None-Match: " .. etag))
      assert.are.equal(304, cached.status)
      assert.are.equal("", cached.body)
      assert.are.equal(200, get(query, "-H 'If-None-Match: \"stale\"'").status)

      local head = get(query, "-I")
      assert.are.equal(200, head.status)
      assert.are.equal("", head.body)
      assert.are.equal(etag, head.headers["etag"])
      assert.are.equal(tostring(#first.body), head.headers["content-length"])
    end
  end)

  it("picks and shows a random seed when none is given, with no-store and a working permalink", function()
    local one, two = get(""), get("?seed=&width=&height=&algorithm=&format=")
    for _, page in ipairs({ one, two }) do
      assert.are.equal(200, page.status)
      assert.are.equal("no-store", page.headers["cache-control"])
      assert.is_nil(page.headers["etag"])
    end
    local seed = one.body:match('<b id="seed">(%d+)</b>')
    assert.are.equal(one.headers["x-map-seed"], seed)
    assert.are_not.equal(seed, two.body:match('<b id="seed">(%d+)</b>'))
    local href = one.body:match('<a id="permalink" href="([^"]*)">')
    assert.are.equal("?seed=" .. seed .. "&amp;width=60&amp;height=20&amp;algorithm=rooms", href)
    local again = get(unescape_html(href))
    assert.are.equal(pre(one.body), pre(again.body))
    assert.truthy(again.headers["etag"])

    local text = get("?format=text&width=30&height=10")
    assert.are.equal("no-store", text.headers["cache-control"])
    assert.are.equal(map.generate_text(30, 10, tonumber(text.headers["x-map-seed"])) .. "\n", text.body)
    local level = json.decode(get("?format=json").body)
    assert.is_true(level.seed >= 0 and level.seed < 2 ^ 53)
  end)

  it("answers every bad input with a 400: a short plain message, or for the page the page", function()
    local cases = {
      { "?seed=abc", "seed must be an integer" },
      { "?seed=1.5", "seed must be an integer" },
      { "?seed=1e3", "seed must be an integer" },
      { "?seed=0x10", "seed must be an integer" },
      { "?seed=42abc", "seed must be an integer" },
      { "?seed=42%20", "seed must be an integer" },
      { "?seed=42%00", "seed must be an integer" },
      { "?seed=42;width=6", "seed must be an integer" },
      { "?seed=+42", "seed must be an integer" },
      { "?seed=--1", "seed must be an integer" },
      { "?seed=nan", "seed must be an integer" },
      { "?seed=9007199254740993", "seed must be an integer" },
      { "?seed=-9007199254740993", "seed must be an integer" },
      { "?seed=123456789012345678901234567890", "seed must be an integer" },
      { "?seed=%ZZ", "bad percent-encoding" },
      { "?seed=%", "bad percent-encoding" },
      { "?width=5", "width must be an integer >= 6" },
      { "?height=4", "height must be an integer >= 5" },
      { "?width=0", "width must be an integer >= 6" },
      { "?width=-60", "width must be an integer >= 6" },
      { "?width=201", "width must be an integer of at most 200" },
      { "?height=201", "height must be an integer of at most 200" },
      { "?width=99999999999999999999", "width must be an integer of at most 200" },
      { "?width=60.0", "width must be an integer, got '60.0'" },
      { "?width=abc", "width must be an integer, got 'abc'" },
      { "?height=abc", "height must be an integer, got 'abc'" },
      { "?form=1", "form must be a boolean, got '1'" },
      { "?width=2&algorithm=cave", "width must be an integer >= 3" },
      { "?algorithm=nope", "algorithm must be " .. ALGORITHM_LIST .. ', got string "nope"' },
      { "?algorithm=%3Cscript%3E", "unknown algorithm" },
      { "?algorithm=rooms%0A", "unknown algorithm" },
      { "?format=xml", "format must be html, text or json" },
      { "?format=TEXT", "format must be html, text or json" },
      { "?seed=1&seed=1", "parameter seed given more than once" },
      { "?seed=1&seed=2", "parameter seed given more than once" },
      { "?width=60&width=60", "parameter width given more than once" },
      { "?format=text&format=json", "parameter format given more than once" },
      { "?algorithm=rooms&algorithm=cave", "parameter algorithm given more than once" },
      { "?foo=1", "unknown parameter 'foo'" },
      { "?colour=5", "unknown parameter 'colour'" },
      { "?rooms=0", "rooms must be an integer from 1 to 10000, got 0" },
      { "?rooms=x", "rooms must be an integer, got 'x'" },
      { "?doors=yes", "doors must be a boolean, got 'yes'" },
      { "?algorithm=cave&fill=0", "fill must be a number in (0, 1], got 0" },
      { "?algorithm=cave&fill=half", "fill must be a number, got 'half'" },
      { "?fill=0.5", "option fill applies only to algorithm" },
      { "?algorithm=cave&rooms=3", 'option rooms applies only to algorithm "rooms"' },
      { "?rooms=3&rooms=4", "parameter rooms given more than once" },
      { "?seed", "parameter seed needs a value" },
      { "?seed=1&&width=6", "empty parameter" },
    }
    for _, case in ipairs(cases) do
      -- format=text (and json) get the message in plain text; the page
      -- (format=html, the default) gets an HTML page with it and the form.
      local query = case[1]:find("format=", 1, true) and case[1] or case[1] .. "&format=text"
      if query ~= case[1] then
        local page = get(case[1])
        local plain = get(query).body
        assert.are.equal(400, page.status, case[1])
        assert.are.equal("text/html; charset=utf-8", page.headers["content-type"], case[1])
        assert.are.equal("no-store", page.headers["cache-control"], case[1])
        assert.are.equal(plain, error_message(page.body) .. "\n", case[1])
        assert.truthy(page.body:find('<form method="get">', 1, true), case[1])
        assert.are.equal(1, select(2, page.body:gsub("<script", "")), case[1]) -- only the page's own
      end
      local response = get(query)
      local what = query .. " -> " .. response.status .. " " .. response.body
      assert.are.equal(400, response.status, what)
      assert.are.equal("text/plain; charset=utf-8", response.headers["content-type"], what)
      assert.are.equal("no-store", response.headers["cache-control"], what)
      assert.truthy(response.body:find(case[2], 1, true), what)
      -- One line; the unknown-parameter message lists every parameter, so it grows with the options.
      assert.truthy(response.body:match("^[^\n]+\n$") and #response.body < 400, what)
      assert.is_nil(response.body:find("traceback", 1, true), what)
      assert.is_nil(response.body:find("%.lua:%d"), what)
    end
  end)

  it("serves the largest allowed map, 404s other paths and 405s other methods", function()
    local big = get("?seed=5&width=200&height=200&format=text")
    assert.are.equal(200, big.status)
    assert.are.equal(200 * 201, #big.body)
    assert.are.equal(404, get("nope?seed=1").status)
    for _, method in ipairs({ "POST", "PUT", "DELETE" }) do
      local response = get("?seed=1", "-X " .. method)
      assert.are.equal(405, response.status, method)
      assert.are.equal("GET, HEAD", response.headers["allow"])
    end
  end)

  it("logs no crash, alert or Lua error in error.log", function()
    assert.are.equal(200, get("?seed=1").status) -- still serving after all of the above
    local log = read_file(dir .. "/error.log")
    assert.truthy(log:find("start worker process", 1, true), "not the server's error.log?")
    for line in log:gmatch("[^\n]+") do
      assert.is_nil(line:find("%[emerg%]") or line:find("%[alert%]") or line:find("%[crit%]")
        or line:find("%[error%]") or line:find("exited on signal", 1, true)
        or line:find("traceback", 1, true), line)
    end
    assert.truthy(read_file(dir .. "/access.log"):find("GET /?seed=1 ", 1, true))
  end)

  it("stops on SIGINT, as Ctrl-C in `make serve` sends it", function()
    assert.is_true(stop("INT"))
    assert.truthy(read_file(dir .. "/error.log"):find("%[notice%] %d+#%d+: exit\n$"))
  end)
end)

-- Two prefixes in one server block (docs/server.md, "Several locations"):
-- Debian's nginx with an http block of its own, on a free port.
describe("two locations of one nginx server block, each its own configuration", function()
  local nginx -- support.start_server's

  lazy_setup(function()
    nginx = support.start_server(ROOT, {
      maps = "/small/",
      config = function(dir, port)
        local file = dir .. "/two.conf"
        local f = assert(io.open(file, "wb"))
        f:write(([[
lua_package_path "%s/lua/?.lua;;";
lua_package_cpath "%s/build/lib/lua/5.1/?.so";
init_by_lua_block {
    local map_server = require "map.server"
    map_server.configure({ path = "/small/", max_width = 30, max_height = 10 })
    map_server.configure({ path = "/open/", cors = "https://game.example", max_width = 80 })
}
server {
    listen 127.0.0.1:%d;
    location /small { content_by_lua_block { require("map.server").serve(ngx) } }
    location /open { content_by_lua_block { require("map.server").serve(ngx) } }
}
]]):format(ROOT, ROOT, port))
        f:close()
        return file
      end,
    })
  end)

  lazy_teardown(function()
    if nginx then nginx.remove() end
  end)

  it("serves each prefix with its own limits, CORS and 404s", function()
    local cases = {
      { "small/?seed=1&width=30&height=10&format=text", 200, nil },
      { "small/?seed=1&width=31&format=text", 400,
        "width must be an integer of at most 30 (server limit), got '31'\n" },
      { "open/?seed=1&width=80&format=text", 200, nil },
      { "open/?seed=1&width=81&format=text", 400,
        "width must be an integer of at most 80 (server limit), got '81'\n" },
      { "small/x", 404, "not found: maps are served at /small/\n" },
      { "open/x", 404, "not found: maps are served at /open/\n" },
    }
    for _, case in ipairs(cases) do
      local response = nginx.get(case[1])
      assert.are.equal(case[2], response.status, case[1])
      if case[3] then assert.are.equal(case[3], response.body, case[1]) end
      local open = case[1]:find("^open") ~= nil
      assert.are.equal(open and "https://game.example" or nil, response.headers["access-control-allow-origin"], case[1])
      assert.are.equal(open and "X-Map-Seed, ETag" or nil, response.headers["access-control-expose-headers"], case[1])
    end
    assert.are.equal("/open/?seed=2", nginx.get("open?seed=2").headers["location"])
    local small = nginx.get("small/?seed=1&width=30&height=10&format=text")
    assert.are.equal(map.generate_text(30, 10, 1) .. "\n", small.body)
  end)

  it("answers a preflight with the headers a conditional fetch needs, and JSON errors as JSON", function()
    local preflight = nginx.get("open/", "-X OPTIONS -H 'Origin: https://game.example'"
      .. " -H 'Access-Control-Request-Method: GET' -H 'Access-Control-Request-Headers: if-none-match'")
    assert.are.same({ 204, "GET, HEAD", "If-None-Match", "86400", "Origin" }, { preflight.status,
      preflight.headers["access-control-allow-methods"], preflight.headers["access-control-allow-headers"],
      preflight.headers["access-control-max-age"], preflight.headers["vary"] })
    assert.are.equal(405, nginx.get("small/", "-X OPTIONS").status) -- no cors there
    local refused = nginx.get("small/?seed=abc&format=json")
    assert.are.same({ 400, "application/json" }, { refused.status, refused.headers["content-type"] })
    assert.are.same({ error = "seed must be an integer from -2^53 to 2^53, got 'abc'" }, json.decode(refused.body))
  end)
end)

-- HTTP cases from docs/hardening.md, on a server of their own: conditional
-- headers nginx would answer wrongly, request content, and the bench location.
describe("the server's answers to conditional headers and request content", function()
  local nginx -- support.start_server's

  -- curl's answers to requests made on one connection when it can (curl's
  -- --next): `requests` is a list of curl arguments, one string a request.
  -- Returns a {status=, headers=, body=} per request and how many
  -- connections curl opened.
  local function curl(requests)
    local each = {}
    for i, args in ipairs(requests) do
      each[i] = "-sS -i --globoff --max-time 10 -w 'connects=%{num_connects}\\n' " .. args
    end
    local out = run("curl " .. table.concat(each, " --next ") .. " 2>&1"):gsub("HTTP/1%.1 100 Continue\r\n\r\n", "")
    local responses, connects = {}, 0
    for head, body, count in out:gmatch("(HTTP/[%d.]+ %d+.-)\r\n\r\n(.-)connects=(%d+)\n") do
      local response = { status = tonumber(head:match("^HTTP/[%d.]+ (%d+)")), headers = {}, body = body }
      for name, value in head:gmatch("\r\n([^:\r\n]+): ([^\r\n]*)") do response.headers[name:lower()] = value end
      responses[#responses + 1] = response
      connects = connects + tonumber(count)
    end
    assert(#responses == #requests, "expected " .. #requests .. " responses, got: " .. out)
    return responses, connects
  end

  local function url(query) return shell_quote(nginx.url .. query) end
  local function get(query, extra) return curl({ (extra or "") .. " " .. url(query) })[1] end

  -- error.log's lines at level error or above (nginx logs at notice here).
  local function serious_log_lines()
    local lines = {}
    for line in read_file(nginx.dir .. "/error.log"):gmatch("[^\n]+") do
      if line:find("%[error%]") or line:find("%[crit%]") or line:find("%[alert%]") or line:find("%[emerg%]") then
        lines[#lines + 1] = line
      end
    end
    return lines
  end

  lazy_setup(function()
    nginx = support.start_server(ROOT)
  end)

  lazy_teardown(function()
    if nginx then nginx.remove() end
  end)

  it("ignores If-Unmodified-Since: maps have no modification date (RFC 9110, 13.1.4)", function()
    for _, query in ipairs({ "?seed=7&format=text", "?seed=7&format=json", "?seed=7", "?format=text" }) do
      local plain_get = get(query)
      assert.are.equal(200, plain_get.status, query)
      for _, date in ipairs({ "Sat, 01 Jan 2000 00:00:00 GMT", "Fri, 01 Jan 2100 00:00:00 GMT", "not a date" }) do
        local response = get(query, "-H " .. shell_quote("If-Unmodified-Since: " .. date))
        assert.are.equal(200, response.status, query .. " with If-Unmodified-Since: " .. date)
        if query:find("seed=", 1, true) then assert.are.equal(plain_get.body, response.body, query) end
      end
    end
    -- The other conditions still hold: a matching If-None-Match is a 304,
    -- If-Unmodified-Since or not; a failing If-Match is still a 412.
    local first = get("?seed=7&format=text")
    local cached = get("?seed=7&format=text", "-H " .. shell_quote("If-None-Match: " .. first.headers["etag"])
      .. " -H 'If-Unmodified-Since: Sat, 01 Jan 2000 00:00:00 GMT'")
    assert.are.equal(304, cached.status)
    assert.are.equal(412, get("?seed=7&format=text", "-H 'If-Match: \"stale\"'").status)
    local matching = "-H " .. shell_quote("If-Match: " .. first.headers["etag"])
    assert.are.equal(200, get("?seed=7&format=text", matching).status)
  end)

  it("refuses request content with a 4xx, without reading it, and keeps the connection usable", function()
    local body = os.tmpname()
    local f = assert(io.open(body, "wb"))
    f:write(string.rep("a", 2048))
    f:close()
    local data = "--data-binary @" .. shell_quote(body)
    local cases = {
      { "POST", data, 405, "method not allowed: use GET or HEAD\n" },
      { "PUT", data .. " -H 'Transfer-Encoding: chunked'", 405, "method not allowed: use GET or HEAD\n" },
      { "GET", data, 413, "request content not accepted: parameters go in the query string\n" },
      { "GET", data .. " -H 'Transfer-Encoding: chunked'", 413,
        "request content not accepted: parameters go in the query string\n" },
      { "GET", "--data-binary x", 413, "request content not accepted: parameters go in the query string\n" },
    }
    for _, case in ipairs(cases) do
      local method, extra, status, message = case[1], case[2], case[3], case[4]
      local what = method .. " " .. extra
      -- The refused request, then a GET on the same connection.
      local responses, connects = curl({ "-X " .. method .. " " .. extra .. " " .. url("?seed=1&format=text"),
        url("?seed=2&format=text") })
      assert.are.equal(2, #responses, what)
      assert.are.equal(status, responses[1].status, what)
      assert.are.equal(message, responses[1].body, what)
      assert.are.equal("text/plain; charset=utf-8", responses[1].headers["content-type"], what)
      if status == 405 then assert.are.equal("GET, HEAD", responses[1].headers["allow"], what) end
      assert.are.equal(200, responses[2].status, what)
      assert.are.equal(map.generate_text(60, 20, 2) .. "\n", responses[2].body, what)
      assert.are.equal(1, connects, what .. ": the connection was not kept alive")
    end
    os.remove(body)
    -- Content announced but never sent: refused at once all the same.
    local announced = get("?seed=1", "-X POST -H 'Content-Length: 1000000000' --data-binary x")
    assert.are.equal(405, announced.status)
    -- Content-Length: 0 is no content.
    assert.are.equal(200, get("?seed=1&format=text", "-H 'Content-Length: 0'").status)
    -- Other paths answer 404 whatever they are sent.
    assert.are.equal(404, get("nope", data).status)
    assert.are.same({}, serious_log_lines())
  end)

  it("serves the maps only: /bench/constant is in bench/http.sh's config, not this one", function()
    assert.are.equal(404, get("bench/constant").status)
    local conf = read_file("nginx/nginx.conf")
    assert.is_nil(conf:find("/bench/", 1, true))
    assert.truthy(read_file("nginx/bench.conf"):find("location = /bench/constant", 1, true))
    assert.are.same({}, serious_log_lines())
  end)
end)
