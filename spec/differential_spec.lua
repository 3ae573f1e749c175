-- The differential harness: the same calls on Lua 5.4 and on LuaJIT, each
-- in a process of its own, must give byte-equal results and messages. The
-- cases call every export on ordinary maps and on holey, sparse, float-keyed,
-- out-of-order and large-capacity tables, with good and bad arguments; a
-- map's shape is its probe border on both (docs/hardening.md).
--
-- Run as a script (`lua5.4 spec/differential_spec.lua cases`), this file
-- prints one line per case: its name, then `ok` and the results, or
-- `error` and the message, each value written in one canonical form.

local map -- required only when run as a script
local support = require "spec.support"

local function pack(...) return { n = select("#", ...), ... } end

-- Values in one canonical form: tables by their keys in sorted order,
-- numbers as integers where integral (both interpreters then print them
-- alike), strings quoted with every other byte escaped, one line each.
local function shown(v, depth)
  depth = depth or 0
  local t = type(v)
  if t == "number" then
    if v == math.floor(v) and v > -2 ^ 53 and v < 2 ^ 53 then return string.format("%d", v) end
    return string.format("%.17g", v)
  elseif t == "string" then
    -- Control bytes, quotes, backslashes and bytes over 127 as \ddd: no interpreter's %q.
    return '"' .. v:gsub('[%c"\\\128-\255]', function(c) return string.format("\\%03d", c:byte()) end) .. '"'
  elseif t ~= "table" then
    return tostring(v)
  elseif depth > 6 then
    return "{...}"
  end
  local keys = {}
  for k in pairs(v) do keys[#keys + 1] = k end
  table.sort(keys, function(a, b)
    local ta, tb = type(a), type(b)
    if ta ~= tb then return ta < tb end
    if ta == "number" or ta == "string" then return a < b end
    return tostring(a) < tostring(b)
  end)
  local parts = {}
  for _, k in ipairs(keys) do parts[#parts + 1] = shown(k, depth + 1) .. "=" .. shown(v[k], depth + 1) end
  return "{" .. table.concat(parts, ",") .. "}"
end

-- The maps of the cases, made afresh for each call: name, maker.
local function maps()
  local rows = support.from_text
  local TEXT = "@..#\n.#..\n...>"
  -- A table that held `n` entries and keeps only the first `keep`: its
  -- capacity stays.
  local function slack(fill, n, keep)
    local t = {}
    for i = 1, n do t[i] = fill(i) end
    for i = n, keep + 1, -1 do t[i] = nil end
    return t
  end
  return {
    { "normal", function() return rows(TEXT) end },
    { "aliased", function()
      local r = { ".", ".", ".", "." }
      return { r, r, r }
    end },
    { "row hole", function()
      local m = rows(TEXT)
      m[2][2] = nil
      return m
    end },
    { "row 1 hole", function()
      local m = rows(TEXT)
      m[1][2] = nil
      return m
    end },
    { "row short", function()
      local m = rows(TEXT)
      m[2][4] = nil
      return m
    end },
    { "map hole", function()
      local m = rows(TEXT .. "\n....")
      m[3] = nil
      return m
    end },
    -- `#` is 3 on Lua 5.4 and 1 on LuaJIT for this one.
    { "map # differs", function()
      local m = rows(TEXT .. "\n....")
      m[4], m[2] = nil, nil
      return m
    end },
    { "map sparse tail", function()
      local m = rows(TEXT)
      m[5] = m[1]
      return m
    end },
    { "row sparse tail", function()
      local m = rows(TEXT)
      m[2][9] = "."
      return m
    end },
    { "float keys", function()
      local m = rows(TEXT)
      m[1][2.5], m[2][math.huge], m[1.5], m[math.huge] = "#", "#", m[1], m[2]
      return m
    end },
    { "out of order", function()
      local m = rows(TEXT)
      return { [3] = m[3], [1] = m[1] }
    end },
    { "backwards", function()
      local m, src = {}, rows(TEXT)
      for y = 3, 1, -1 do
        local r = {}
        for x = 4, 1, -1 do r[x] = src[y][x] end
        m[y] = r
      end
      return m
    end },
    { "row capacity", function()
      local r = slack(function() return "." end, 4096, 4)
      return { r, r, r }
    end },
    { "map capacity", function()
      local m = rows(TEXT)
      local big = slack(function() return m[1] end, 4096, 3)
      big[2], big[3] = m[2], m[3]
      return big
    end },
    { "empty", function() return {} end },
    { "nil row 1", function() return { nil, { "." } } end },
    { "empty row", function() return { {} } end },
    { "bad cell", function() return { { ".", 5 } } end },
    { "fields", function()
      local r = { ".", ".", name = "row" }
      return { r, r, note = "map" }
    end },
    -- A walking rule of its own: every walking function takes it (LuaJIT's
    -- routes hand such a map to the C function).
    { "blocked", function()
      local m = rows("@.~#\n.#..\n..~>")
      m.blocked = "#~"
      return m
    end },
    { "blocked bad", function()
      local m = rows(TEXT)
      m.blocked = 5
      return m
    end },
  }
end

-- The calls on one map `m`: name, function of m.
local function calls_on()
  local P = { x = 1, y = 1 }
  return {
    { "render", function(m) return map.render(m) end },
    { "reachable", function(m) return map.reachable(m) end },
    { "fov", function(m) return map.fov(m, 1, 1) end },
    { "fov r0 row 3", function(m) return map.fov(m, 1, 3, 0) end },
    { "fov r1", function(m) return map.fov(m, P, 1) end },
    { "fov bad radius", function(m) return map.fov(m, 1, 1, -1) end },
    { "distances", function(m) return map.distances(m, P) end },
    { "distances max 1", function(m) return map.distances(m, P, { max = 1 }) end },
    { "distances holey sources", function(m) return map.distances(m, { P, nil, P }) end },
    { "distances sparse sources", function(m) return map.distances(m, { [2] = P }) end },
    { "distances holey avoid", function(m) return map.distances(m, P, { avoid = { P, nil, { x = 2, y = 1 } } }) end },
    { "flee", function(m) return map.flee(m, P) end },
    { "flee max 1 cost", function(m) return map.flee(m, P, { max = 1, cost = { ["."] = 2 } }) end },
    { "path", function(m) return map.path(m, 1, 1, 3, 3) end },
    { "path max 1", function(m) return map.path(m, 1, 1, 2, 1, { max = 1 }) end },
    { "path bad x2", function(m) return map.path(m, 1, 1, 0, 1) end },
    { "autotile", function(m) return map.autotile(m) end },
    { "step", function(m) return map.step(m, { { 0, 1, 2 }, { 1, 1, 2 }, { 2, 2, 2 } }, 2, 2) end },
    { "step holey d", function(m) return map.step(m, { { 0, nil, 2 } }, 1, 1) end },
    { "explore", function(m) return map.explore(m, { { true }, nil, { true } }, 1, 1) end },
    { "sample", function(m) return map.sample(m, 2, { seed = 1 }) end },
    { "visible", function(m) return map.visible(m, 1, 1, 3, 3) end },
    { "visible row 3", function(m) return map.visible(m, 1, 3, 2, 3) end },
    { "visible bad x1", function(m) return map.visible(m, 0, 1, 2, 2) end },
    { "light", function(m)
      return map.light(m, { { x = 1, y = 1, radius = 3 }, { x = 2, y = 2, radius = 1, color = { 1, 0.5, 0 } } },
        { ambient = 0.1 })
    end },
  }
end

-- The calls on a level made from one map `m` (a level's methods, where
-- LuaJIT takes its own route through the FFI for get, set, occupancy, a
-- field's get and steps, handing anything else to the C method).
local function level_calls()
  local P, F = { x = 1, y = 1 }, { x = 2, y = 1 }
  local function movers() return { { x = 1, y = 1 }, { x = 2, y = 1 }, { x = 1, y = 2 } } end
  return {
    { "level", function(l) return l:render(), l.width, l.height, l.player end },
    { "get", function(l) return l:get(1, 1), l:get(P), l:get(2.0, 1), l:get(F) end },
    { "get nan", function(l) return l:get(0 / 0, 1) end },
    { "get huge", function(l) return l:get(2 ^ 53, 1) end },
    { "get string", function(l) return l:get("1", 1) end },
    { "get extra nil", function(l) return l:get(1, 1, nil) end },
    { "get position and nil", function(l) return l:get(P, nil) end },
    { "get float position", function(l) return l:get({ x = 1.5, y = 1 }) end },
    { "set", function(l)
      l:set(1, 1, "x")
      l:set(F, "y")
      return l:get(1, 1), l:get(F), l:render()
    end },
    { "set two bytes", function(l) return l:set(1, 1, "xy") end },
    { "set no char", function(l) return l:set(1, 1) end },
    { "occupancy", function(l)
      l:occupy(1, 1)
      l:occupy(F)
      local a, b = l:occupied(P), l:occupied(2, 1)
      l:vacate(P)
      return a, b, l:occupied(1, 1), l:occupied(F)
    end },
    { "occupy bad", function(l) return l:occupy(1, -1) end },
    { "occupants", function(l)
      l:occupy(1, 1, 5)
      l:occupy(F, 2 ^ 53)
      l:occupy(P)
      local a, b = l:occupant(P), l:occupant(2, 1)
      l:vacate(1, 1)
      l:occupy(P)
      return a, b, l:occupant(1, 1), l:occupant(F), l:occupant(l.width, l.height), map.load(l:save()):occupant(F)
    end },
    { "occupant bad id", function(l) return l:occupy(1, 1, 0.5) end },
    { "steps carry ids", function(l)
      local d, m = l:distances({ x = l.width, y = l.height }), movers()
      for i, p in ipairs(m) do l:occupy(p, 10 * i) end
      local moved = l:steps(d, m, { occupied = true })
      local ids = {}
      for i, p in ipairs(m) do ids[i] = l:occupant(p) end
      return moved, m, ids
    end },
    { "fov", function(l) return l:fov(1, 1):table(), l:fov(P, 1):table() end },
    { "fov into", function(l)
      local memory = l:field()
      return l:fov(1, 1, 2, { into = memory }), memory:table()
    end },
    { "distances", function(l)
      local d = l:distances(P)
      return d:table(), d:get(1, 1), d:get(P), d:get(l.width, l.height), d:get(1.0, 1)
    end },
    { "field get bad", function(l) return l:distances(P):get(0, 1) end },
    { "field get extra", function(l) return l:distances(P):get(P, 1) end },
    { "steps", function(l)
      local d, m = l:distances({ x = l.width, y = l.height }), movers()
      for _, p in ipairs(m) do l:occupy(p) end
      return l:steps(d, m, { occupied = true }), m, l:steps(d, movers(), { diagonal = true, blocked = "#x" })
    end },
    { "steps float mover", function(l) return l:steps(l:distances(P), { { x = 1.5, y = 1 } }) end },
    { "steps holey movers", function(l)
      local m = movers()
      m[2] = nil
      return l:steps(l:distances(P), m), m
    end },
    { "steps bad option", function(l) return l:steps(l:distances(P), movers(), { diagonal = 1 }) end },
    { "steps avoid", function(l) return l:steps(l:distances(P), movers(), { avoid = { F } }) end },
    { "steps flags", function(l) return l:steps(l:fov(1, 1), movers()) end },
    { "flee", function(l) return l:flee(P):table(), l:flee(l:distances(P)):table() end },
    { "path", function(l) return l:path(1, 1, l.width, l.height) end },
    { "save and load", function(l) return map.load(l:save()):render(), map.load(l:distances(P):save()):table() end },
    { "light", function(l) return l:light({ { x = 1, y = 1, radius = 2, intensity = 0.7 } }) end },
    { "blocked", function(l) return l.blocked, l:table(), map.load(l:save()).blocked, l:reachable() end },
  }
end

-- Every case: name, function.
local function cases()
  local out = {
    { "new_map", function() return map.new_map(3, 2) end },
    { "new_map bad", function() return map.new_map(0, 2) end },
    { "generate", function() return map.generate(12, 8, 3) end },
    { "generate design", function()
      return map.generate { width = 30, height = 14, seed = 1, place = { { char = "k", count = 2 } } }
    end },
    { "generate bad", function() return map.generate(3, 3) end },
    { "generate_text", function() return map.generate_text(12, 8, 3) end },
    { "generate_json", function() return map.generate_json(12, 8, 3) end },
    { "describe", function() return map.describe("bsp") end },
    { "line", function() return map.line(1, 1, 5, 3) end },
    { "line bad", function() return map.line(1, 1, 0.5, 3) end },
    { "parse", function() return map.parse("@.\n.>") end },
    { "parse bad", function() return map.parse(5) end },
    { "generate overworld", function()
      return map.generate { width = 24, height = 10, seed = 3, algorithm = "overworld", place = { { char = "k",
        count = 2, min = 3 } } }
    end },
    { "generate_json overworld", function() return map.generate_json { width = 24, height = 10, seed = 3,
      algorithm = "overworld" } end },
    { "level overworld", function()
      local l = map.level { width = 24, height = 10, seed = 4, algorithm = "overworld" }
      return l.blocked, l:render(), l:distances(l.player):table(), l:reachable(), l:save()
    end },
    { "noise", function()
      local n = map.noise { seed = 5, kind = "perlin", octaves = 3, frequency = 0.3 }
      return n:get(1.5, -2.25), n:get { x = 7, y = 2 ^ 40 }, n:grid(4, 3, 0.5, 7), n:grid(2, 2), n.seed, tostring(n)
    end },
    { "noise simplex", function()
      local n = map.noise { seed = -9, octaves = 16, lacunarity = 1.5, persistence = 1 }
      return n:get(2 ^ 53, -2 ^ 53), n:get(0.1, 0.2), n:grid(3, 2, { x = -0.5, y = 1e6 })
    end },
    { "noise bad", function() return map.noise { octaves = 0 } end },
    { "noise get bad", function() return map.noise { seed = 1 }:get(0 / 0, 1) end },
    { "noise get extra", function() return map.noise { seed = 1 }:get(1, 1, nil) end },
  }
  for _, made in ipairs(maps()) do
    for _, call in ipairs(calls_on()) do
      out[#out + 1] = { made[1] .. ": " .. call[1], function() return call[2](made[2]()) end }
    end
    for _, call in ipairs(level_calls()) do
      out[#out + 1] = { made[1] .. ": level " .. call[1], function() return call[2](map.level(made[2]())) end }
    end
  end
  return out
end

-- One line per case.
local function run_cases()
  local lines = {}
  for _, case in ipairs(cases()) do
    local results = pack(pcall(case[2]))
    local ok = results[1]
    local parts = {}
    for i = 2, results.n do parts[i - 1] = shown(results[i]) end
    lines[#lines + 1] = case[1] .. "\t" .. (ok and "ok " or "error ") .. table.concat(parts, " ")
  end
  return table.concat(lines, "\n") .. "\n"
end

if arg and arg[1] == "cases" and arg[0]:match("differential_spec%.lua$") then
  map = require "map"
  io.write(run_cases())
  return
end

-- The cases' lines printed by `lua` with the module of `cpath`.
local function lines_of(lua, cpath_var, cpath)
  local command = string.format("%s=%s %s spec/differential_spec.lua cases", cpath_var, support.shell_quote(cpath), lua)
  local pipe = assert(io.popen(command, "r"))
  local text = pipe:read("*a")
  pipe:close()
  local out = {}
  for line in text:gmatch("[^\n]*\n") do out[#out + 1] = line end
  return out
end

describe("Lua 5.4 and LuaJIT", function()
  it("give byte-equal results and messages for every case", function()
    local lua54 = lines_of("lua5.4", "LUA_CPATH_5_4", "build/lib/lua/5.4/?.so")
    local luajit = lines_of("luajit", "LUA_CPATH", "build/lib/lua/5.1/?.so")
    assert.is_true(#lua54 > 400, "the cases did not run on Lua 5.4")
    for i = 1, math.max(#lua54, #luajit) do
      if lua54[i] ~= luajit[i] then
        error(("case %d differs:\nLua 5.4: %s\nLuaJIT:  %s"):format(i, tostring(lua54[i]), tostring(luajit[i])))
      end
    end
  end)
end)
