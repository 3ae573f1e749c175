-- lua/main.lua, the command line, run under the interpreter that runs the
-- specs with the module it loaded (spec/support.lua's cli).
local map = require "map"
local support = require "spec.support"

package.path = "lua/?.lua;" .. package.path
local args = require "map.args"

local cli, from_text, read_file, run = support.cli, support.from_text, support.read_file, support.run
local unpack = table.unpack or unpack

local ROOT = run("pwd"):gsub("\n$", "")
local HINT = " (lua main.lua --help for usage)"

-- The one line a usage error prints, and its exit status.
local function assert_usage_error(message, ...)
  local out, err, code = cli(...)
  local what = table.concat({ ... }, " ")
  assert.are.equal(2, code, what)
  assert.are.equal("", out, what)
  assert.are.equal("main.lua: " .. message .. HINT .. "\n", err, what)
end

describe("main.lua", function()
  it("prints the golden maps, byte for byte, in the positional form", function()
    local files = run("ls spec/golden")
    local n = 0
    for name in files:gmatch("[^\n]+") do
      local algorithm, w, h, seed = name:match("^(%a+)%-(%d+)x(%d+)%-(%-?%d+)%.txt$")
      assert.truthy(algorithm, name)
      local out, err, code = cli(w, h, seed, algorithm)
      assert.are.equal(0, code, err)
      assert.are.equal("", err)
      assert.are.equal(read_file("spec/golden/" .. name):gsub("\n$", "") .. "\n", out, name)
      n = n + 1
    end
    assert.is_true(n >= 30)
  end)

  it("prints the module's map for the same arguments", function()
    local cases = { { 60, 20, 42 }, { 80, 25, 1 }, { 6, 5, -3 }, { 80, 50, 666, "cave" }, { 5, 40, 2, "cave" } }
    for _, case in ipairs(cases) do
      local out, err, code = cli(unpack(case))
      assert.are.equal(0, code, err)
      assert.are.equal("", err)
      local m = map.generate { width = case[1], height = case[2], seed = case[3], algorithm = case[4] }
      assert.are.equal(map.render(m) .. "\n", out)
    end
  end)

  it("takes any algorithm's name", function()
    for i, algorithm in ipairs(map.ALGORITHMS) do
      for _, case in ipairs({ { 80, 50, 7 }, { 30, 12, -i } }) do
        local out, err, code = cli(case[1], case[2], case[3], algorithm)
        assert.are.equal(0, code, algorithm .. ": " .. err)
        assert.are.equal("", err)
        local m = map.generate { width = case[1], height = case[2], seed = case[3], algorithm = algorithm }
        assert.are.equal(map.render(m) .. "\n", out, algorithm)
      end
    end
  end)

  it("defaults to 60x20 and a fresh seed, which it prints on stderr so the map can be made again", function()
    local out, err, code = cli()
    assert.are.equal(0, code)
    assert.are.equal("\n", out:sub(-1))
    local m = from_text(out:sub(1, -2))
    assert.are.same({ 20, 60 }, { #m, #m[1] })
    local seed = assert(err:match("^seed: (%d+)\n$"), err)
    assert.are.equal(out, (cli("60", "20", seed)))
    local _, other = cli()
    assert.are_not.equal(err, other)
    -- Any unseeded form: the seed on stderr, the map alone on stdout.
    out, err = cli("--format=json", "--algorithm=cave", "30", "10")
    seed = assert(err:match("^seed: (%d+)\n$"), err)
    assert.are.equal(map.generate_json { width = 30, height = 10, seed = tonumber(seed), algorithm = "cave" } .. "\n",
      out)
  end)

  it("prints its usage with every algorithm and option of the registry for --help and -h", function()
    for _, flag in ipairs({ { "--help" }, { "-h" }, { "60", "20", "--help" }, { "-h", "--colour" } }) do
      local out, err, code = cli(unpack(flag))
      assert.are.equal(0, code, flag[1])
      assert.are.equal("", err)
      assert.are.equal("usage: lua main.lua [width] [height] [seed] [algorithm] [--name=value ...]\n",
        out:match("^[^\n]*\n"))
      assert.truthy(out:find("--format=text|json", 1, true))
      for _, algorithm in ipairs(map.ALGORITHMS) do
        local about = map.describe(algorithm)
        assert.truthy(out:find(("\n%s: %s (smallest %dx%d)\n"):format(algorithm, about.doc, about.min_width,
          about.min_height), 1, true), algorithm)
        local heading = "\n" .. algorithm .. ": [^\n]*\n"
        local block = out:match(heading .. "(.-)\n\n") or out:match(heading .. "(.*)$")
        for _, option in ipairs(about.options) do
          local form = "--" .. option.name .. (option.type == "integer" and "=N" or option.type == "number" and "=X"
            or option.type == "string" and "=TEXT" or "[=BOOL]")
          local line = block:match("\n?  (" .. form:gsub("%p", "%%%0") .. " +[^\n]*)")
          assert.truthy(line, algorithm .. " " .. option.name)
          assert.truthy(line:find(args.allowed(option) .. ", default " .. option.default_text .. ": " .. option.doc, 1,
            true), line)
        end
      end
    end
  end)

  it("follows the Unix conventions: --, -v and --version, options as -x, negative numbers as values", function()
    local golden = map.generate_text(60, 20, 1) .. "\n"
    assert.are.same({ golden, "", 0 }, { cli("--", "60", "20", "1") })
    assert.are.same({ golden, "", 0 }, { cli("60", "--", "20", "1") })
    assert.are.same({ map.generate_text(60, 20, -5) .. "\n", "", 0 }, { cli("60", "20", "-5") })
    assert.are.same({ map.generate_text(60, 20, -5) .. "\n", "", 0 }, { cli("--", "60", "20", "-5") })
    local version = ("map %s (%s)\n"):format(map.VERSION, jit and jit.version or _VERSION)
    for _, flag in ipairs({ "-v", "--version" }) do
      assert.are.same({ version, "", 0 }, { cli(flag) })
      assert.are.same({ version, "", 0 }, { cli("60", flag, "--colour") })
    end
    -- After "--" nothing is an option; "--" itself only once.
    assert_usage_error("width must be an integer, got '--doors'", "--", "--doors")
    assert_usage_error("width must be an integer, got '-v'", "--", "-v")
    assert_usage_error("height must be an integer, got '--'", "--", "60", "--")
    assert_usage_error("unknown option '-x'", "-x")
    assert_usage_error("unknown option '-V'", "60", "-V")
    assert_usage_error("width must be an integer, got '-'", "-")
  end)

  it("exits 1 with one line on stderr when stdout cannot be written, whatever it prints", function()
    for _, case in ipairs({ { ">/dev/full", "No space left on device" }, { ">&-", "Bad file descriptor" } }) do
      for _, arguments in ipairs({ "60 20 1", "--help", "--version", "30 10 1 --format=json" }) do
        local err_path = os.tmpname()
        local code = run(("%s lua/main.lua %s %s 2>%s; echo $?"):format(support.INTERPRETER, arguments, case[1],
          err_path))
        local err = read_file(err_path)
        os.remove(err_path)
        local what = arguments .. " " .. case[1]
        assert.are.equal("1\n", code, what)
        assert.are.equal("main.lua: cannot write to stdout: " .. case[2] .. "\n", err, what)
      end
    end
  end)

  it("exits 130, with nothing on stderr, on Ctrl-C (SIGINT)", function()
    -- The signal lands while the command is blocked writing a 4 MB map into a
    -- pipe nobody reads yet, so it cannot have finished before it.
    local dir = run("mktemp -d /tmp/map-cli-spec.XXXXXX"):gsub("\n$", "")
    finally(function() os.execute("rm -rf " .. support.shell_quote(dir)) end)
    local script = ([[
      mkfifo %s/out
      %s lua/main.lua 2000 2000 1 >%s/out 2>%s/err & pid=$!
      exec 3<%s/out
      head -c 1 <&3 >/dev/null
      sleep 0.2
      kill -INT $pid
      cat <&3 >/dev/null
      wait $pid; echo "exit=$?"
    ]]):format(dir, support.INTERPRETER, dir, dir, dir)
    local out = run("bash -c " .. support.shell_quote(script))
    assert.are.equal("exit=130\n", out)
    assert.are.equal("", read_file(dir .. "/err"))
  end)

  it("takes every argument by name too, mixing freely with the positional ones", function()
    local same = {
      { { "--width=30", "--height=12", "--seed=5", "--algorithm=cave" }, { 30, 12, 5, "cave" } },
      { { "--seed=5", "30", "12" }, { 30, 12, 5 } },
      { { "30", "--algorithm=maze", "12", "5" }, { 30, 12, 5, "maze" } },
      { { "--height=12", "30" }, { 30, 12 } }, -- width is the first positional one left
    }
    for _, case in ipairs(same) do
      local named, err, code = cli(unpack(case[1]))
      assert.are.equal(0, code, err)
      local w, h, seed, algorithm = unpack(case[2])
      if seed then
        assert.are.equal("", err)
        assert.are.equal(map.generate_text { width = w, height = h, seed = seed, algorithm = algorithm } .. "\n", named)
      else
        seed = tonumber(err:match("^seed: (%d+)\n$"))
        assert.are.equal(map.generate_text { width = w, height = h, seed = seed } .. "\n", named)
      end
    end
    local out = cli("60", "20", "42", "rooms", "--doors")
    assert.are.equal(map.generate_text { width = 60, height = 20, seed = 42, doors = true } .. "\n", out)
    assert.truthy(out:find("+", 1, true))
    assert.are.equal(out, (cli("--doors=true", "60", "20", "42")))
    assert.are.equal(out, (cli("60", "20", "42", "--doors=on")))
    assert.are.equal(map.generate_text(60, 20, 42) .. "\n", (cli("60", "20", "42", "--doors=false")))
  end)

  it("takes every option of every algorithm as --OPTION=VALUE, as the module does", function()
    for _, algorithm in ipairs(map.ALGORITHMS) do
      for _, option in ipairs(map.describe(algorithm).options) do
        local text = support.other_value(option)
        local opts = { width = 40, height = 20, seed = 3, algorithm = algorithm,
          [option.name] = support.option_value(option, text) }
        local out, err, code = cli("40", "20", "3", algorithm, "--" .. option.name .. "=" .. text)
        local ok, expected = pcall(map.generate_text, opts)
        if ok then
          assert.are.equal(0, code, err)
          assert.are.equal(expected .. "\n", out, algorithm .. " " .. option.name)
        else
          assert.are.equal(2, code)
          assert.are.equal("main.lua: " .. args.unprefixed(expected) .. HINT .. "\n", err)
        end
      end
    end
  end)

  it("reads values by type as the server does, with its messages", function()
    package.path = ROOT .. "/lua/?.lua;" .. package.path
    local server = require "map.server"
    local TEXTS = { "3", "-2", "007", "+4", "9007199254740992", "9007199254740993", "0.25", ".5", "2.", "1e3",
      "0x10", "abc", " 3", "true", "on", "false", "yes", "TRUE", "1", "" }
    local cases = { { "items", "rooms" }, { "fill", "cave" }, { "doors", "rooms" } } -- one option of each type
    for _, case in ipairs(cases) do
      local name, algorithm = case[1], case[2]
      for _, text in ipairs(TEXTS) do
        local request, problem = server.check({ [name] = text ~= "" and text or nil, algorithm = algorithm })
        local out, err, code = cli("30", "12", "1", algorithm, "--" .. name .. "=" .. text)
        local what = name .. "=" .. text
        if text == "" then
          assert.are.equal("main.lua: " .. select(2, args.option(name, "")) .. HINT .. "\n", err, what)
        elseif request then
          local ok, expected = pcall(map.generate_text, { width = 30, height = 12, seed = 1, algorithm = algorithm,
            [name] = request.options[name] })
          if ok then
            assert.are.equal(0, code, what .. ": " .. err)
            assert.are.equal(expected .. "\n", out, what)
          else
            assert.are.equal("main.lua: " .. args.unprefixed(expected) .. HINT .. "\n", err, what)
          end
        else
          assert.are.equal(2, code, what)
          assert.are.equal("main.lua: " .. problem .. HINT .. "\n", err, what)
        end
      end
    end
  end)

  it("takes --name value as --name=value, a boolean option alone as true", function()
    local expected = map.generate_text { width = 40, height = 15, seed = -5, algorithm = "cave", fill = 0.3 } .. "\n"
    for _, list in ipairs({
      { "--width", "40", "--height", "15", "--seed", "-5", "--algorithm", "cave", "--fill", "0.3" },
      { "40", "15", "-5", "cave", "--fill", "0.3" },
      { "--fill=0.3", "--algorithm", "cave", "40", "15", "--seed", "-5" },
    }) do
      local out, err, code = cli(unpack(list))
      assert.are.same({ 0, "" }, { code, err }, table.concat(list, " "))
      assert.are.equal(expected, out, table.concat(list, " "))
    end
    -- A boolean option takes no value apart: "60" stays the width.
    assert.are.equal(map.generate_text { width = 60, height = 20, seed = 1, doors = true } .. "\n",
      (cli("--doors", "60", "20", "1")))
    assert.are.equal(map.generate_json(30, 12, 7) .. "\n", (cli("--format", "json", "30", "12", "7")))
    assert_usage_error("width must be an integer, got '--height'", "--width", "--height")
  end)

  it("prints generate_json's JSON with --format=json", function()
    local out, err, code = cli("30", "12", "7", "bsp", "--doors", "--format=json")
    assert.are.equal(0, code, err)
    assert.are.equal(map.generate_json { width = 30, height = 12, seed = 7, algorithm = "bsp", doors = true } .. "\n",
      out)
    assert.are.equal(map.generate_text(30, 12, 7) .. "\n", (cli("30", "12", "7", "--format=text")))
  end)

  it("exits 2 with one line on stderr on bad usage; the module's refusals keep their message", function()
    local bad = {
      { "width must be an integer, got 'abc'", "abc" },
      { "seed must be an integer from -2^53 to 2^53, got '1.5'", 60, 20, 1.5 },
      { "seed must be an integer from -2^53 to 2^53, got '9007199254740993'", 60, 20, "9007199254740993" },
      { "seed must be an integer from -2^53 to 2^53, got ''", "--seed=" },
      { "too many arguments: '5'", 1, 2, 3, 4, 5 },
      { "unknown option --colour", "--colour=red" },
      { "unknown option --Doors", "--Doors" },
      { "'--=3' names no option", "--=3" },
      { "--width needs a value: --width=N", "--width" },
      { "--fill needs a value: --fill=X", "--algorithm=cave", "--fill" },
      { "--algorithm needs a value: --algorithm=NAME", "--algorithm" },
      { "--format needs a value: --format=text|json", "--format" },
      { "width given twice", "60", "--width=60" },
      { "doors given twice", "--doors", "--doors=false" },
      { "doors must be a boolean, got 'maybe'", "--doors=maybe" },
      { "format must be text or json, got 'html'", "--format=html" },
      { "width must be an integer >= 6, got 4", 4, 20, 1 },
      { "height must be an integer >= 5, got -20", 60, -20 },
      { "algorithm must be " .. support.ALGORITHM_LIST .. ', got string "labyrinth"', 60, 20, 1,
        "labyrinth" },
      { 'option fill applies only to algorithms "cave" and "drunkard"', 60, 20, 1, "--fill=0.5" },
      { "rooms must be an integer from 1 to 10000, got 0", "--rooms=0", "--format=json", 60, 20, 1 },
    }
    for _, case in ipairs(bad) do assert_usage_error(unpack(case)) end
  end)

  it("exits 1 on a module bug (map.INTERNAL_ERROR after the name), 2 on a refusal that quotes its words", function()
    -- The module as a map.lua first in the path: the real one, but
    -- generate_text fails as a bug in it would.
    local dir = run("mktemp -d /tmp/map-cli-spec.XXXXXX"):gsub("\n$", "")
    finally(function() os.execute("rm -rf " .. support.shell_quote(dir)) end)
    local so = assert(package.searchpath("map", package.cpath))
    local f = assert(io.open(dir .. "/map.lua", "wb"))
    f:write(("local real = assert(package.loadlib(%q, 'luaopen_map'))()\n"):format(so),
      "return setmetatable({ generate_text = function()\n",
      "  error('map.generate_text: ' .. real.INTERNAL_ERROR .. ': boom', 0)\n",
      "end }, { __index = real })\n")
    f:close()
    local out, err, code = support.run_main({ path = dir .. "/?.lua;" .. package.path }, "60", "20", "1")
    assert.are.same({ 1, "", "main.lua: map.generate_text: " .. map.INTERNAL_ERROR .. ": boom\n" }, { code, out, err })
    -- The module's own refusal of an algorithm named like the marker.
    for _, name in ipairs({ "internal error", map.INTERNAL_ERROR }) do
      local _, expected = pcall(map.generate_text, { width = 60, height = 20, seed = 1, algorithm = name })
      assert_usage_error(args.unprefixed(expected), "60", "20", "1", name)
    end
  end)

  it("runs itself on the LuaJIT it was built for when started by plain Lua 5.1 (the rock's wrapper)", function()
    local dir = run("mktemp -d /tmp/map-cli-spec.XXXXXX"):gsub("\n$", "")
    finally(function() os.execute("rm -rf " .. support.shell_quote(dir)) end)
    local luajit = run("command -v luajit"):gsub("\n$", "")
    local main, count = support.read_file("lua/main.lua"):gsub("\nlocal BUILT_FOR = nil\n",
      ("\nlocal BUILT_FOR = %q\n"):format(luajit))
    assert.are.equal(1, count, "lua/main.lua has no BUILT_FOR line for the Makefile's rock target")
    local f = assert(io.open(dir .. "/map", "wb"))
    f:write(main)
    f:close()
    local how = { main = dir .. "/map", interpreter = "lua5.1", cwd = "/tmp", cpath = ROOT .. "/build/lib/lua/5.1/?.so",
      path = ROOT .. "/lua/?.lua" }
    local out, err, code = support.run_main(how, "60", "20", "42", "--algorithm", "cave")
    assert.are.same({ 0, "", map.generate_text { width = 60, height = 20, seed = 42, algorithm = "cave" } .. "\n" },
      { code, err, out })
    out, err, code = support.run_main(how, "3", "it's")
    assert.are.same({ 2, "", "map: height must be an integer, got 'it's' (map --help for usage)\n" },
      { code, out, err })
    out = support.run_main(how, "--version")
    assert.truthy(out:find("(LuaJIT ", 1, true), out)
    -- Without BUILT_FOR (a checkout's main.lua), plain Lua 5.1 is refused.
    how.main = ROOT .. "/lua/main.lua"
    out, err, code = support.run_main(how, "60", "20", "42")
    assert.are.same({ 1, "", "main.lua: needs Lua 5.4 or LuaJIT, this is Lua 5.1 (see the README)\n" },
      { code, out, err })
  end)

  it("finds the module `make` built from any directory, and the installed one without a checkout", function()
    -- From elsewhere, with paths that hold no module: it finds build/ beside itself.
    local nowhere = "/nonexistent/?.so"
    local out, err, code = support.run_main({ main = ROOT .. "/lua/main.lua", cwd = "/tmp", cpath = nowhere,
      path = "/nonexistent/?.lua" }, "60", "20", "42")
    assert.are.equal(0, code, err)
    assert.are.equal(map.generate_text(60, 20, 42) .. "\n", out)
    -- A copy without a checkout around it: the module and map.args where
    -- `make install` puts them (spec/install_spec.lua runs the real install).
    local dir = run("mktemp -d /tmp/map-cli-spec.XXXXXX"):gsub("\n$", "")
    finally(function() os.execute("rm -rf " .. support.shell_quote(dir)) end)
    local flavour = jit and "5.1" or "5.4"
    assert(os.execute(("mkdir -p %s/lib %s/share/map && cp lua/main.lua %s/ && cp lua/map/args.lua %s/share/map/"
      .. " && cp build/lib/lua/%s/map.so %s/lib/"):format(dir, dir, dir, dir, flavour, dir)))
    out, err, code = support.run_main({ main = dir .. "/main.lua", cwd = dir, cpath = dir .. "/lib/?.so",
      path = dir .. "/share/?.lua" }, "80", "50", "7", "bsp")
    assert.are.equal(0, code, err)
    assert.are.equal(map.generate_text { width = 80, height = 50, seed = 7, algorithm = "bsp" } .. "\n", out)
    out, err, code = support.run_main({ main = dir .. "/main.lua", cwd = dir, cpath = nowhere, path = nowhere })
    assert.are.same({ 1, "" }, { code, out })
    assert.truthy(err:find("module 'map' not found", 1, true), err)
  end)
end)

describe("map.INTERNAL_ERROR", function()
  it("is the marker every internal error carries after the function's name, on this interpreter", function()
    assert.are.equal("string", type(map.INTERNAL_ERROR))
    -- Rust builds its message from the constant it exports (src/input.rs).
    local rust = run("cat src/input.rs src/lua/stack/call.rs")
    assert.are.equal(map.INTERNAL_ERROR, rust:match('\n[%w_() ]*const INTERNAL_ERROR: &str = "([^"]*)";'))
    assert.truthy(rust:find('format!("{INTERNAL_ERROR}: {what}")', 1, true))
    -- The documented form, which a caller may match too.
    assert.truthy(read_file("docs/api.md"):find("`map.<fn>: " .. map.INTERNAL_ERROR .. ": ...`", 1, true))
    -- A panic inside the module, where a build still has the probe.
    if map._panic_probe then
      local ok, err = pcall(map._panic_probe)
      assert.is_false(ok)
      assert.are.equal("map._panic_probe: " .. map.INTERNAL_ERROR .. ": probe", err)
      assert.is_true(args.is_internal(err))
    end
  end)

  it("is read by map.args.is_internal right after the name only", function()
    assert.is_true(args.is_internal("map.generate: " .. map.INTERNAL_ERROR .. ": a part could not be joined"))
    assert.is_true(args.is_internal("map.path: " .. map.INTERNAL_ERROR))
    for _, message in ipairs({ "", "map.generate_text: width must be an integer >= 6, got 4",
      "map.generate_text: algorithm must be a name, got string \"" .. map.INTERNAL_ERROR .. "\"",
      "map.generate_text: internal error", map.INTERNAL_ERROR .. ": no function's name" }) do
      assert.is_false(args.is_internal(message), message)
    end
  end)
end)

describe("map.args' texts of numbers and ranges, shared by --help, the docs and the page", function()
  it("writes integers exactly and numbers as %.14g, on either interpreter", function()
    assert.are.same({ "9007199254740992", "-3", "0.45", "1", "100", "0.1" }, {
      args.number_text(2 ^ 53, "integer"), args.number_text(-3, "integer"), args.number_text(0.45, "number"),
      args.number_text(1.0, "number"), args.number_text(100, "number"), args.number_text(0.1, "number") })
  end)

  it("words a range for --help and for the page's titles from one description", function()
    local cases = {
      { { type = "integer", min = 1, max = 10000 }, "integer from 1 to 10000", "1 to 10000" },
      { { type = "number", min = 0.0, max = 1.0, open_min = true }, "number in (0, 1]", "over 0, up to 1" },
      { { type = "number", min = 1.0, max = 100.0, open_min = false }, "number in [1, 100]", "1 to 100" },
      { { type = "boolean" }, "boolean", "boolean" },
    }
    for _, case in ipairs(cases) do
      assert.are.same({ case[2], case[3] }, { args.allowed(case[1]), args.allowed(case[1], "title") })
    end
  end)
end)
