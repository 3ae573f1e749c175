-- Helpers shared by the specs: require "spec.support" from the repository root.
-- (The pure-Lua oracles are in spec/reference/.)
local map = require "map"
local char_set = require("spec.reference.grid").char_set

local M = {}

M.INTERPRETER = jit and "luajit" or "lua5.4"

-- A value whose finalizer calls `later`. Made before the natives a test
-- then makes and collected with them, it is finalized after them (Lua
-- runs finalizers in the reverse order their objects were marked for
-- finalization), so `later` meets them resurrected.
function M.finalizer(later)
  if newproxy then
    local proxy = newproxy(true)
    getmetatable(proxy).__gc = later
    return proxy
  end
  return setmetatable({}, { __gc = later })
end

-- What `use(made)` returns when a finalizer calls it after the natives in
-- `made = make()` were finalized (resurrected: their own finalizers have
-- run). The finalizer's value is made first, so it is finalized last; both
-- are made in a frame of their own, gone before the collections.
function M.after_finalized(make, use)
  local got
  local function arm()
    local made
    M.finalizer(function() got = use(made) end)
    made = make()
  end
  arm()
  collectgarbage()
  collectgarbage()
  return got
end

-- The collector at its most eager (a step at every allocation), so that
-- finalizers made with the collector stopped run inside the next call. On
-- LuaJIT the compiler is off meanwhile: before luajit2 2.1-20230911
-- (Debian 12 has 2.1-20230119), an error raised by a finalizer is thrown
-- again from wherever the collector stepped, and from compiled code with
-- a wrong frame, which crashes LuaJIT itself with no module involved
-- (docs/hardening.md, "LuaJIT's own crashes").
function M.eager_collector()
  if jit then
    jit.off()
    jit.flush()
    collectgarbage("setpause", 0)
    collectgarbage("setstepmul", 100000)
  else
    collectgarbage("incremental", 1, 1000, 1)
  end
end

-- The collector (and LuaJIT's compiler) back to their defaults.
function M.usual_collector()
  if jit then
    jit.on()
    collectgarbage("setpause", 200)
    collectgarbage("setstepmul", 200)
  else
    collectgarbage("incremental", 200, 100, 13)
  end
end

function M.read_file(path)
  local f = assert(io.open(path, "rb"))
  local text = f:read("*a")
  f:close()
  return text
end

function M.shell_quote(s)
  return "'" .. tostring(s):gsub("'", "'\\''") .. "'"
end

-- A map as plain rows of one-character cells, from its text.
function M.from_text(text)
  local m = {}
  for line in (text .. "\n"):gmatch("([^\n]*)\n") do
    local row = {}
    for x = 1, #line do row[x] = line:sub(x, x) end
    m[#m + 1] = row
  end
  return m
end

-- "a", "a and b", "a, b and c" (with `last` instead of "and" when given).
function M.word_list(words, last)
  if #words == 1 then return words[1] end
  return table.concat(words, ", ", 1, #words - 1) .. " " .. (last or "and") .. " " .. words[#words]
end

-- The names, each in double quotes.
function M.quoted(names)
  local out = {}
  for i, name in ipairs(names) do out[i] = '"' .. name .. '"' end
  return out
end

-- The algorithms as the module's messages list them: "rooms", "cave" or "maze".
M.ALGORITHM_LIST = M.word_list(M.quoted(map.ALGORITHMS), "or")

-- How many cells of the map `m` equal `wanted`.
function M.count_cells(m, wanted)
  local n = 0
  for _, row in ipairs(m) do
    for _, cell in ipairs(row) do
      if cell == wanted then n = n + 1 end
    end
  end
  return n
end

-- An option's value other than its default, as text (a query's or the
-- CLI's): the value the module gets is read back from the text, as the
-- server and the CLI read it (option_value).
-- A string option's other value is the registry's to know: one each.
local OTHER_TEXT = { sample = "rooms", symmetry = "rotations", blocking = "#", fixed = "?" }
function M.other_value(option)
  if option.type == "boolean" then return tostring(not option.default) end
  if option.type == "string" then return assert(OTHER_TEXT[option.name], option.name) end
  if option.type == "integer" then
    local value = option.min + 1
    if value == option.default or value > option.max then value = option.min end
    return string.format("%d", value)
  end
  local value = (option.min + option.max) / 2
  if value == option.default then value = (option.default + option.max) / 2 end
  return (string.format("%.6f", value):gsub("0+$", ""):gsub("%.$", ""))
end

function M.option_value(option, text)
  if option.type == "boolean" then return text == "true" or text == "on" end
  if option.type == "string" then return text end
  return tonumber(text)
end

-- Runs a main.lua under the interpreter that runs the specs (or
-- `how.interpreter`, a shell word): `how.main` (the
-- file; lua/main.lua), from `how.cwd` (the repository's root), with
-- LUA_CPATH and LUA_PATH set to `how.cpath` and `how.path` (both
-- interpreters' variables; default: the module and paths this process
-- loaded), and these arguments. Returns stdout, stderr and the exit code.
function M.run_main(how, ...)
  local args = {}
  for i, a in ipairs({ ... }) do args[i] = M.shell_quote(a) end
  local err_path = os.tmpname()
  local cpath, path = M.shell_quote(how.cpath or package.cpath), M.shell_quote(how.path or package.path)
  local command = string.format("cd %s && LUA_CPATH_5_4=%s LUA_CPATH=%s LUA_PATH_5_4=%s LUA_PATH=%s LUA_INIT= "
    .. "LUA_INIT_5_4= %s %s %s 2>%s; echo \"exit=$?\"", M.shell_quote(how.cwd or "."), cpath, cpath, path, path,
    how.interpreter or M.INTERPRETER, M.shell_quote(how.main or "lua/main.lua"), table.concat(args, " "),
    M.shell_quote(err_path))
  local p = assert(io.popen(command))
  local out = p:read("*a")
  p:close()
  local err = M.read_file(err_path)
  os.remove(err_path)
  local body, code = out:match("^(.-)exit=(%d+)\n$")
  return body, err, tonumber(code)
end

-- Runs the Lua source `script` in a child interpreter like this one, with the
-- probe build (`make probe`: `map._panic_probe`, `map._reads`) as its `map`.
-- Returns stdout, stderr and the exit code.
function M.run_with_probe(script)
  local dir = jit and "build/probe/lib/lua/5.1/" or "build/probe/lib/lua/5.4/"
  local probe = io.open(dir .. "map.so")
  assert(probe, dir .. "map.so is missing: run make probe")
  probe:close()
  local path = os.tmpname()
  local file = assert(io.open(path, "w"))
  file:write(script)
  file:close()
  local out, err, code = M.run_main({ main = path, cpath = dir .. "?.so" })
  os.remove(path)
  return out, err, code
end

-- Runs lua/main.lua with these arguments and the module this process loaded,
-- under the same interpreter. Returns stdout, stderr and the exit code.
function M.cli(...)
  return M.run_main({}, ...)
end

-- Runs a shell command; returns its stdout.
function M.run(command)
  local p = assert(io.popen(command))
  local out = p:read("*a")
  p:close()
  return out
end

-- Whether a process is running (a zombie counts as gone).
function M.alive(id)
  local f = io.open("/proc/" .. id .. "/stat", "r")
  if not f then return false end
  local stat = f:read("*a")
  f:close()
  return stat:match("^%d+ %b() (%a)") ~= "Z"
end

-- The ports test servers may listen on: MAP_TEST_PORTS ("19000-19999"), by
-- default 20000-59999. Returns the first and the last.
function M.test_ports()
  local text = os.getenv("MAP_TEST_PORTS") or "20000-59999"
  local first, last = text:match("^(%d+)%-(%d+)$")
  first, last = tonumber(first), tonumber(last)
  if not (first and first >= 1024 and first <= last and last <= 65535) then
    error("MAP_TEST_PORTS must be a range of ports such as 19000-19999 (1024 to 65535), got '" .. text .. "'", 0)
  end
  return first, last
end

-- Starts the map server (nginx/serve.sh, Debian's nginx unless $NGINX says
-- otherwise) on a free 127.0.0.1 port of M.test_ports, its config, pid and
-- logs in a fresh temp folder; `root` is the repository. By default it
-- serves nginx/nginx.conf; `app`, when given, is {maps = the path of the
-- maps ("/maps/"), config = function(dir, port) that writes an http-block
-- file listening on 127.0.0.1:port and returns its path} (serve.sh's
-- HTTP_CONF). Returns a server:
--   server.dir, server.port, server.pid, server.url (http://127.0.0.1:PORT/)
--   server.get(query [, curl options]) -> {status=, headers={lowercase name=value}, body=}
--   server.stop([signal]) -> true if `signal` (TERM, or INT as Ctrl-C sends)
--     stopped it within 5 s; otherwise it is killed
--   server.remove() -> stops it (TERM) and deletes the temp folder
-- Errors (after cleaning up) when the server does not start.
function M.start_server(root, app)
  local server = {}
  local first_port, last_port = M.test_ports()
  local maps = app and app.maps or "/"
  local shell_quote, run, alive = M.shell_quote, M.run, M.alive
  local self_pid = tonumber(M.read_file("/proc/self/stat"):match("^%d+")) -- to vary the port

  function server.get(query, extra)
    local url = server.url .. (query or "")
    local out = run("curl -sS -i --globoff --max-time 10 " .. (extra or "") .. " " .. shell_quote(url) .. " 2>&1")
    local head, body = out:match("^(.-)\r\n\r\n(.*)$")
    assert(head, "no HTTP response from " .. url .. ": " .. out)
    local response = { status = tonumber(head:match("^HTTP/[%d.]+ (%d+)")), headers = {}, body = body }
    for name, value in head:gmatch("\r\n([^:\r\n]+): ([^\r\n]*)") do
      if response.headers[name:lower()] ~= nil then error("header " .. name .. " sent twice", 2) end
      response.headers[name:lower()] = value
    end
    return response
  end

  -- Signals the nginx master and waits (up to 5 s) for it to exit; true if it did.
  local function signal_and_wait(signal)
    os.execute("kill -" .. signal .. " " .. server.pid .. " 2>/dev/null")
    for _ = 1, 100 do
      if not alive(server.pid) then return true end
      os.execute("sleep 0.05")
    end
    return false
  end

  function server.stop(signal)
    local pid = server.pid
    if not (pid and alive(pid)) then return true end
    local workers = {}
    local children = io.open("/proc/" .. pid .. "/task/" .. pid .. "/children", "r")
    for worker in (children and children:read("*a") or ""):gmatch("%d+") do workers[#workers + 1] = worker end
    if children then children:close() end
    local stopped = signal_and_wait(signal or "TERM")
    if not stopped then signal_and_wait("KILL") end
    for _, worker in ipairs(workers) do
      if alive(worker) then os.execute("kill -KILL " .. worker .. " 2>/dev/null") end
    end
    return stopped
  end

  function server.remove()
    server.stop("TERM")
    if server.dir then os.execute("rm -rf " .. shell_quote(server.dir)) end
  end

  local dir = run("mktemp -d /tmp/map-server-spec.XXXXXX"):gsub("\n$", "")
  assert(dir:match("^/tmp/map%-server%-spec%.%w+$"), "mktemp failed: " .. dir)
  server.dir = dir
  local ready = map.generate_text(6, 5, 1) .. "\n"
  local probe = maps .. "?seed=1&width=6&height=5&format=text"
  for _ = 1, 5 do -- another port if this one is taken
    os.remove(dir .. "/error.log") -- a failed attempt's bind() errors
    os.remove(dir .. "/access.log")
    server.port = first_port + (math.random(0, 39999) + os.time() + self_pid) % (last_port - first_port + 1)
    server.url = "http://127.0.0.1:" .. server.port .. "/"
    local http_conf = app and "HTTP_CONF=" .. shell_quote(app.config(dir, server.port)) .. " " or ""
    server.pid = run(string.format("cd %s && PORT=%d ADDR=127.0.0.1 NGINX=%s LOG_DIR=%s RUN_DIR=%s %s"
      .. "nginx/serve.sh >%s/serve.out 2>&1 & echo $!",
      shell_quote(root), server.port, shell_quote(os.getenv("NGINX") or "nginx"), shell_quote(dir),
      shell_quote(dir), http_conf, shell_quote(dir))):match("^(%d+)")
    for _ = 1, 200 do
      if not alive(server.pid) then break end
      -- Ours, not some other server already on the port: the answer is the
      -- map, and our own access.log has the request.
      local out = run("curl -s --max-time 2 " .. shell_quote("http://127.0.0.1:" .. server.port .. probe))
      local log = io.open(dir .. "/access.log", "rb")
      local logged = log and log:read("*a"):find("GET " .. probe .. " ", 1, true)
      if log then log:close() end
      if out == ready and logged then return server end
      os.execute("sleep 0.05")
    end
    server.stop("TERM")
    local log = M.read_file(dir .. "/serve.out")
    if not log:find("Address already in use", 1, true) then
      server.remove()
      error("the server did not start: " .. log)
    end
  end
  server.remove()
  error("no free port found")
end

---------------------------------------------------------------------------
-- The toolkit specs' levels (fov_spec, distances_spec, path_spec).

-- A small deterministic generator (Park-Miller), exact on both interpreters:
-- rand(n) is an integer from 1 to n.
function M.generator(seed)
  local state = seed
  return function(n)
    state = state * 16807 % 2147483647
    return state % n + 1
  end
end

-- A path (an array of {x=, y=}, or nil) as text, "(x,y) (x,y) ...", for
-- messages and comparisons.
function M.path_text(p)
  if not p then return "nil" end
  local parts = {}
  for i, c in ipairs(p) do parts[i] = string.format("(%d,%d)", c.x, c.y) end
  return table.concat(parts, " ")
end

-- The cells of m whose character is not in `chars`, as {x, y} pairs.
function M.cells_not_in(m, chars)
  local set, out = char_set(chars), {}
  for y = 1, #m do
    for x = 1, #m[y] do
      if not set[m[y][x]] then out[#out + 1] = { x, y } end
    end
  end
  return out
end

-- A cell of m that is not a wall, drawn with rand, as {x=, y=}.
function M.open_cell(m, rand)
  local cells = M.cells_not_in(m, "#")
  local c = cells[rand(#cells)]
  return { x = c[1], y = c[2] }
end

-- The generated levels: 312 rooms and caves of several sizes, some with
-- doors ("+", opaque) put on floor cells next to walls.
local LEVELS = {
  { "rooms", 60, 20, 80 }, { "rooms", 30, 12, 40 }, { "rooms", 6, 5, 20 }, { "rooms", 120, 40, 12 },
  { "cave", 80, 50, 60 }, { "cave", 20, 20, 40 }, { "cave", 3, 30, 20 }, { "cave", 40, 10, 40 },
}

local function add_doors(m, rand)
  local h, w = #m, #m[1]
  for y = 2, h - 1 do
    for x = 2, w - 1 do
      if m[y][x] == "." and (m[y][x - 1] == "#" or m[y - 1][x] == "#") and rand(12) == 1 then m[y][x] = "+" end
    end
  end
end

-- Calls f(m, name, rand) for each level: the map, its name for messages, and
-- a generator of its own. Returns the number of levels.
function M.each_level(f)
  local n = 0
  for _, level in ipairs(LEVELS) do
    local algorithm, w, h, count = level[1], level[2], level[3], level[4]
    for seed = 1, count do
      local m = map.generate { width = w, height = h, seed = seed, algorithm = algorithm }
      local rand = M.generator(seed * 7919 + w * 31 + h)
      if seed % 3 == 0 then add_doors(m, rand) end
      n = n + 1
      f(m, string.format("%s %dx%d seed %d%s", algorithm, w, h, seed, seed % 3 == 0 and " (doors)" or ""), rand)
    end
  end
  return n
end

-- distances and path options as text, for messages.
function M.options_text(o)
  local parts = {}
  if o.blocked then parts[#parts + 1] = string.format("blocked=%q", o.blocked) end
  if o.diagonal then parts[#parts + 1] = o.diagonal == true and "diagonal" or "diagonal=" .. tostring(o.diagonal) end
  for _, k in ipairs({ "straight", "occupied", "max" }) do
    if o[k] ~= nil then parts[#parts + 1] = k .. "=" .. tostring(o[k]) end
  end
  if o.cost then
    local keys = {}
    for k, v in pairs(o.cost) do keys[#keys + 1] = string.format("%s=%d", k, v) end
    table.sort(keys)
    parts[#parts + 1] = "cost{" .. table.concat(keys, ",") .. "}"
  end
  return #parts > 0 and table.concat(parts, " ") or "defaults"
end

-- Nil when the tables of rows of values a (the module's) and b (a
-- reference's) agree, with every number in a an integer; else where not.
function M.rows_diff(a, b)
  for y = 1, #b do
    for x = 1, #b[y] do
      local v = a[y][x]
      if v ~= b[y][x] then
        return string.format("(%d,%d): module %s, reference %s", x, y, tostring(v), tostring(b[y][x]))
      end
      if math.type and v and math.type(v) ~= "integer" then return string.format("(%d,%d) is a float", x, y) end
    end
  end
end

return M
