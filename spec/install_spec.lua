-- What `make install` installs, used as a user would: the module and its
-- Lua side (every file of lua/map/: map.args, map.server and its parts) under PREFIX for both interpreters, the
-- CLI with the installed module, the map command, and map.server in an nginx app of its own:
-- docs/server.md's recipe, its own `location = /`, the maps under /maps/.
-- (The rock's trees are .ci/run's: tests/rock.sh.)
local map = require "map"
local json = require "dkjson"
local support = require "spec.support"

local read_file, run, shell_quote = support.read_file, support.run, support.shell_quote
local ROOT = run("pwd"):gsub("\n$", "")
local FLAVOUR = jit and "5.1" or "5.4"
-- The module's Lua side: every file of lua/map/, by name ("args", ...).
local LUA_MODULES = {}
for name in run("ls lua/map"):gmatch("([%w_]+)%.lua\n") do LUA_MODULES[#LUA_MODULES + 1] = name end

-- The recipe of docs/server.md, as it is written there.
local function recipe()
  local doc = read_file("docs/server.md")
  return assert(doc:match("<!%-%- recipe: begin[^\n]*\n```nginx\n(.-)```\n<!%-%- recipe: end %-%->"),
    "no recipe in docs/server.md")
end

describe("make install", function()
  local dir, prefix -- DESTDIR, and the installed PREFIX in it

  lazy_setup(function()
    dir = run("mktemp -d /tmp/map-install-spec.XXXXXX"):gsub("\n$", "")
    prefix = dir .. "/usr/local"
    local out = run(("make -s install DESTDIR=%s PREFIX=/usr/local 2>&1; echo \"exit=$?\""):format(shell_quote(dir)))
    assert(out:find("exit=0\n$"), "make install failed: " .. out)
  end)

  lazy_teardown(function()
    if dir then os.execute("rm -rf " .. shell_quote(dir)) end
  end)

  it("installs both flavours, every file of lua/map/ beside each, and the type definitions", function()
    assert.is_true(#LUA_MODULES >= 4, "lua/map/ read")
    for _, version in ipairs({ "5.4", "5.1" }) do
      assert.are.equal(read_file("build/lib/lua/" .. version .. "/map.so"),
        read_file(prefix .. "/lib/lua/" .. version .. "/map.so"), version)
      for _, name in ipairs(LUA_MODULES) do
        assert.are.equal(read_file("lua/map/" .. name .. ".lua"),
          read_file(prefix .. "/share/lua/" .. version .. "/map/" .. name .. ".lua"), version .. " " .. name)
      end
    end
    assert.are.equal(read_file("types/map.d.lua"), read_file(prefix .. "/share/map/types/map.d.lua"))
  end)

  it("lists every file of lua/map/ in the rock too", function()
    -- The rockspec of Cargo.toml's version (dist.sh's rule): nothing here to change at a release.
    local version = read_file("Cargo.toml"):match('\nversion = "([^"]+)"')
    local rockspec = read_file("map-" .. version .. "-1.rockspec")
    for _, name in ipairs(LUA_MODULES) do
      assert.truthy(rockspec:find(('["map.%s"] = "lua/map/%s.lua"'):format(name, name), 1, true), name)
    end
  end)

  it("runs the CLI with the installed module, out of a checkout", function()
    local copy = dir .. "/main.lua"
    assert(os.execute("cp lua/main.lua " .. shell_quote(copy)))
    local out, err, code = support.run_main({ main = copy, cwd = dir,
      cpath = prefix .. "/lib/lua/" .. FLAVOUR .. "/?.so", path = prefix .. "/share/lua/" .. FLAVOUR .. "/?.lua" },
      "60", "20", "42", "--format=json")
    assert.are.equal(0, code, err)
    assert.are.equal(map.generate_json(60, 20, 42) .. "\n", out)
  end)

  it("installs the map command, which runs the module installed beside it, from anywhere", function()
    local command = prefix .. "/bin/map"
    assert.are.equal("#!/usr/bin/env lua5.4\n", read_file(command):match("^[^\n]*\n"))
    assert.are.equal("755", run("stat -c %a " .. shell_quote(command)):gsub("\n$", ""))
    -- No path of the environment holds a module: only PREFIX's can answer.
    local nowhere = "/nonexistent/?"
    local out = run(("cd /tmp && LUA_PATH=%s LUA_CPATH=%s LUA_PATH_5_4=%s LUA_CPATH_5_4=%s %s 60 20 42 2>&1; "
      .. "echo \"exit=$?\""):format(nowhere, nowhere, nowhere, nowhere, shell_quote(command)))
    assert.are.equal(map.generate_text(60, 20, 42) .. "\nexit=0\n", out)
    out = run(shell_quote(command) .. " --version")
    assert.are.equal("map " .. map.VERSION .. " (Lua 5.4)\n", out)
    out = run(shell_quote(command) .. " 3 2>&1; echo \"exit=$?\"")
    assert.are.equal("map: width must be an integer >= 6, got 3 (map --help for usage)\nexit=2\n",
      out)
  end)

  describe("map.server in an app's own nginx config (docs/server.md's recipe)", function()
    local app -- support.start_server's

    local function get(path, extra) return app.get(path, extra) end

    lazy_setup(function()
      app = support.start_server(ROOT, {
        maps = "/maps/",
        config = function(run_dir, port)
          -- The recipe with its paths at the installed tree and its port one of the tests'.
          local text, paths = recipe():gsub('"/usr/local/', '"' .. prefix .. "/")
          local listen
          text, listen = text:gsub("\n    listen 8080;\n", "\n    listen 127.0.0.1:" .. port .. ";\n")
          assert(paths == 2 and listen == 1, "the recipe's paths or listen line changed")
          local file = run_dir .. "/app.conf"
          local f = assert(io.open(file, "wb"))
          f:write(text)
          f:close()
          return file
        end,
      })
    end)

    lazy_teardown(function()
      if app then app.remove() end
    end)

    it("leaves the app's own locations alone", function()
      local home = get("")
      assert.are.same({ 200, "my app\n" }, { home.status, home.body })
      local first, last = support.test_ports()
      assert.is_true(app.port >= first and app.port <= last, "port " .. app.port)
    end)

    it("serves the page, the text and the JSON under /maps/, with links that stay there", function()
      local page = get("maps/?seed=42")
      assert.are.equal(200, page.status)
      assert.are.equal("text/html; charset=utf-8", page.headers["content-type"])
      local pre = assert(page.body:match('<pre id="map">(.-)</pre>'))
      assert.are.equal(map.generate_text(60, 20, 42), (pre:gsub("<[^>]*>", ""):gsub("&gt;", ">")))
      local links = {}
      for id, href in page.body:gmatch('<a id="(%w+)" href="([^"]*)"') do links[id] = href:gsub("&amp;", "&") end
      assert.are.equal("?seed=42&width=60&height=20&algorithm=rooms&format=text", links.text)
      assert.are.equal(map.generate_text(60, 20, 42) .. "\n", get("maps/" .. links.text).body)
      assert.are.equal(map.generate_json(60, 20, 42), get("maps/" .. links.json).body)
      assert.are.equal(page.body, get("maps/" .. links.permalink).body)
      local path = get("maps/" .. links.path)
      assert.are.equal(200, path.status)
      assert.truthy(path.body:find('id="path" name="path" checked', 1, true))
      local level = json.decode(get("maps/?seed=7&algorithm=cave&format=json").body)
      assert.are.same({ "cave", 7 }, { level.algorithm, level.seed })
    end)

    it("redirects /maps to /maps/ and answers other paths under the prefix with 404s", function()
      for _, case in ipairs({ { "maps", "/maps/" }, { "maps?seed=42&format=text", "/maps/?seed=42&format=text" } }) do
        local response = get(case[1])
        assert.are.equal(301, response.status, case[1])
        assert.are.equal(case[2], response.headers.location:match("^https?://[^/]+(/.*)$") or response.headers.location)
      end
      -- Followed, the redirect lands on the page, whose links stay under the prefix.
      local location = get("maps?seed=42").headers.location
      local page = get((location:gsub("^https?://[^/]+/", ""):gsub("^/", "")))
      assert.are.equal(200, page.status)
      assert.truthy(page.body:find('id="text" href="?seed=42&amp;width=60', 1, true))
      for _, path in ipairs({ "maps/foo", "maps/maps/", "mapsfoo", "maps/.." }) do
        local response = get(path)
        if path == "maps/.." then
          assert.are.same({ 200, "my app\n" }, { response.status, response.body }, path) -- "/": the app's
        else
          assert.are.same({ 404, "not found: maps are served at /maps/\n" }, { response.status, response.body }, path)
        end
      end
    end)

    it("sends the CORS header its cors setting asks for, and answers preflights", function()
      for _, path in ipairs({ "maps/?seed=1&format=json", "maps/?seed=x&format=text", "maps", "maps/foo" }) do
        assert.are.equal("*", get(path).headers["access-control-allow-origin"], path)
      end
      local preflight = get("maps/", "-X OPTIONS -H 'Origin: https://game.example'"
        .. " -H 'Access-Control-Request-Method: GET'")
      assert.are.same({ 204, "*", "GET, HEAD" }, { preflight.status, preflight.headers["access-control-allow-origin"],
        preflight.headers["access-control-allow-methods"] })
      assert.is_nil(get("").headers["access-control-allow-origin"]) -- the app's own location: none
    end)

    it("takes the limits its init_by_lua_block set, and answers bad requests with 400s", function()
      assert.are.equal(200, get("maps/?seed=1&width=120&height=80&format=text").status)
      local cases = {
        { "maps/?width=121&format=text", "width must be an integer of at most 120 (server limit), got '121'\n" },
        { "maps/?height=81&format=text", "height must be an integer of at most 80 (server limit), got '81'\n" },
        { "maps/?width=abc&format=text", "width must be an integer, got 'abc'\n" },
        { "maps/?seed=abc&format=json", '{"error":"seed must be an integer from -2^53 to 2^53, got \'abc\'"}' },
        { "maps/?colour=red&format=text", nil },
      }
      for _, case in ipairs(cases) do
        local response = get(case[1])
        assert.are.equal(400, response.status, case[1])
        if case[2] then assert.are.equal(case[2], response.body, case[1]) end
      end
      local page = get("maps/?width=121")
      assert.are.equal(400, page.status)
      assert.truthy(page.body:find("width must be an integer of at most 120 (server limit), got &#39;121&#39;", 1,
        true))
      assert.are.equal(405, get("maps/?seed=1", "-X POST").status)
      assert.are.equal(405, get("maps/?seed=1", "-X DELETE").status)
    end)

    it("logs no error", function()
      for line in read_file(app.dir .. "/error.log"):gmatch("[^\n]+") do
        assert.is_nil(line:find("%[error%]") or line:find("%[crit%]") or line:find("%[alert%]")
          or line:find("%[emerg%]") or line:find("exited on signal", 1, true), line)
      end
    end)
  end)
end)
