-- The table routes, on both interpreters: on LuaJIT, new_map, generate,
-- render, reachable, fov and distances build and read tables in Lua
-- (src/lua/luajit/tables.lua) and fall back to the C functions for anything they do
-- not take; on Lua 5.4 the C functions do it all. Either way the results and
-- the messages must be the same, including once LuaJIT has compiled the
-- loops; the toolkit's results hash to one digest on both.
local map = require "map"
local json = require "dkjson"
local support = require "spec.support"
local from_text = support.from_text

local unpack = table.unpack or unpack
local fmt = string.format

-- The digest of fov's, distances' and path's results for the fixed levels of
-- the last test, the same on Lua 5.4 and LuaJIT. (It lives here rather than
-- in spec/golden/: every file there is read by tests/golden.rs as
-- <algorithm>-<w>x<h>-<seed>.txt.)
local DIGEST = "3264512783 lv 24 vis 8882 dist 107748 path 2176"

local function fails(message, f, ...)
  local ok, err = pcall(f, ...)
  assert.is_false(ok)
  assert.are.equal("string", type(err))
  assert.are.equal(message, err)
end

-- The keys of `t`, sorted, as one string.
local function keys(t)
  local out = {}
  for k in pairs(t) do out[#out + 1] = tostring(k) end
  table.sort(out)
  return table.concat(out, " ")
end

describe("tables built by the module", function()
  it("generate matches generate_json field for field, rooms and caves", function()
    local cases = {
      { 60, 20, 1 }, { 6, 5, 0 }, { 200, 60, 7 },
      { { width = 40, height = 30, seed = 3, algorithm = "cave", items = 40 } },
      { { width = 3, height = 5, seed = 2, algorithm = "cave", fill = 1, items = 0 } },
      { { width = 100, height = 50, seed = -9, rooms = 40, items = 200 } },
      { { width = 80, height = 40, seed = 5, doors = true } },
      { { width = 80, height = 40, seed = 5, doors = true, loops = 4, arrive = { x = 3, y = 3 },
          vaults = { { rows = { "#+#", "+M+", "#+#" }, count = 3, rotate = true } },
          place = { { char = "k", count = 6, min = 4 }, { char = "g", count = 2, hidden = true } } } },
      { { width = 60, height = 30, seed = 8, algorithm = "cave", items = 20,
          vaults = { { rows = { "##.##", "#.>.#", "##.##" } }, { rows = { "  @  ", " ... " }, required = false } } } },
    }
    for _, args in ipairs(cases) do
      local m = map.generate(unpack(args))
      local v = json.decode(map.generate_json(unpack(args)))
      assert.are.same({ v.width, v.height, v.seed, v.algorithm }, { m.width, m.height, m.seed, m.algorithm })
      assert.are.same(v.rooms, m.rooms)
      assert.are.same(v.doors, m.doors)
      assert.are.same(v.player, m.player)
      assert.are.same(v.stairs, m.stairs)
      assert.are.same(v.items, m.items)
      assert.are.same(v.vaults, m.vaults)
      assert.are.same(v.placed, m.placed)
      assert.are.same(v.up, m.up)
      assert.are.equal(#v.rows, #m)
      for y, line in ipairs(v.rows) do
        assert.are.equal(#line, #m[y])
        assert.are.equal(line, table.concat(m[y]))
      end
      local fields = {}
      for y = 1, #m do fields[#fields + 1] = tostring(y) end
      for _, k in ipairs({ "width", "height", "seed", "algorithm", "rooms", "doors", "player", "stairs", "items",
        "vaults", "placed" }) do
        fields[#fields + 1] = k
      end
      if m.up then fields[#fields + 1] = "up" end
      table.sort(fields)
      assert.are.equal(table.concat(fields, " "), keys(m))
      assert.are.equal("x y", keys(m.player))
      for _, room in ipairs(m.rooms) do
        assert.are.equal("exits h links w x y", keys(room))
        for _, e in ipairs(room.exits) do assert.are.equal("x y", keys(e)) end
      end
      for _, vault in ipairs(m.vaults) do assert.are.equal("h index rotation w x y", keys(vault)) end
      for _, p in ipairs(m.placed) do assert.are.equal("char x y", keys(p)) end
      for _, item in ipairs(m.items) do assert.are.equal("kind x y", keys(item)) end
      for _, door in ipairs(m.doors) do assert.are.equal("x y", keys(door)) end
      assert.is_nil(getmetatable(m))
      assert.is_nil(getmetatable(m[1]))
    end
  end)

  it("new_map takes integral floats and builds plain rows of '#'", function()
    for _, size in ipairs({ { 1, 1 }, { 3.0, 2 }, { 1, 7 }, { 2000, 1 } }) do
      local m = map.new_map(size[1], size[2])
      assert.are.equal(size[2], #m)
      for k in pairs(m) do assert.are.equal("number", type(k)) end
      for y = 1, size[2] do
        assert.are.equal(string.rep("#", size[1]), table.concat(m[y]))
      end
    end
  end)

  it("new_map counts arguments, trailing nils included", function()
    fails("map.new_map: expected at most 2 arguments, got 3", map.new_map, 2, 3, nil)
    fails("map.new_map: width must be an integer >= 1, got nil", map.new_map)
    fails("map.new_map: height must be an integer >= 1, got nil", map.new_map, 2)
    fails("map.new_map: width*height must be at most 4000000 cells, got 2001x2000", map.new_map, 2001, 2000)
  end)
end)

describe("tables read by the module", function()
  it("render and reachable count arguments, trailing nils included", function()
    local m = map.new_map(2, 2)
    fails("map.render: map must be a table of rows, got nothing", map.render)
    fails("map.render: map must be a table of rows, got nil", map.render, nil)
    fails("map.render: expected at most 1 argument, got 2", map.render, m, nil)
    fails("map.reachable: map must be a table of rows, got nothing", map.reachable)
    fails("map.reachable: expected at most 1 argument, got 2", map.reachable, m, nil)
  end)

  it("renders every byte as it is, newlines and NULs included", function()
    local row = {}
    for b = 0, 255 do row[b + 1] = string.char(b) end
    local text = map.render({ row, row })
    assert.are.equal(513, #text)
    assert.are.equal(table.concat(row) .. "\n" .. table.concat(row), text)
    assert.are.equal("\n\n\n", map.render({ { "\n" }, { "\n" } }))
    assert.is_true(map.reachable({ { "@", "\n", "$" }, { "#", "#", ">" } }))
    assert.are.same({ false, "not reachable from @ at (1,1): > at (3,2)" },
      { map.reachable({ { "@", "\n", "#" }, { "#", "#", ">" } }) })
  end)

  it("reads aliased rows, up to exactly MAX_CELLS", function()
    local row = { "@", ".", ">" }
    assert.are.equal("@.>\n@.>\n@.>", map.render({ row, row, row }))
    assert.is_true(map.reachable({ row, row, row }))
    local wide = {}
    for x = 1, 2000 do wide[x] = "." end
    local rows = {}
    for y = 1, 2000 do rows[y] = wide end
    assert.are.equal(4000000 + 1999, #map.render(rows))
    assert.are.same({ false, "no @ on the map" }, { map.reachable(rows) })
  end)

  it("does not take cells from __index, nor lengths from __len", function()
    local mt = { __index = function() return "#" end, __len = function() return 2 end }
    local m = { setmetatable({ "@" }, mt), setmetatable({ ">" }, mt) }
    assert.are.equal("@\n>", map.render(m))
    assert.is_true(map.reachable(m))
    fails("map.render: row 2 has 0 cells, row 1 has 1", map.render, { { "#" }, setmetatable({}, mt) })
    fails("map.reachable: row 2 has 1 cells, row 1 has 2", map.reachable, { { "#", "#" }, setmetatable({ "#" }, mt) })
  end)

  it("gives the same results and messages once the loops are compiled", function()
    -- 300 rounds: LuaJIT compiles a loop after 56 iterations, and the bad
    -- maps then leave the compiled code at each check in turn.
    local good = map.generate(30, 10, 5)
    local text = map.generate_text(30, 10, 5)
    local bad = {
      { { "#", 7 } }, "cell [1][2] must be a one-character string, got number",
      { { "#" }, { "#", "#" } }, "row 2 has 2 cells, row 1 has 1",
      { { "#" }, "#" }, "row 2 must be a table, got string",
      { {} }, "row 1 is empty",
      {}, "map has no rows (#map == 0)",
      { { "##" } }, "cell [1][1] must be a one-character string, got a 2-byte string",
    }
    for i = 1, 300 do
      assert.are.equal(text, map.render(good))
      assert.is_true(map.reachable(good))
      local k = (i % (#bad / 2)) * 2 + 1
      fails("map.render: " .. bad[k + 1], map.render, bad[k])
      fails("map.reachable: " .. bad[k + 1], map.reachable, bad[k])
      local m = map.generate(20, 8, i)
      assert.are.equal(map.generate_text(20, 8, i), map.render(m))
      assert.are.same(from_text(map.generate_text(20, 8, i)), { unpack(m) })
      assert.is_true(map.reachable(m))
      m[m.stairs.y][m.stairs.x] = "."
      m[m.player.y][m.player.x] = "#"
      assert.are.same({ false, "no @ on the map" }, { map.reachable(m) })
    end
  end)

  -- A table's length is its probe border (docs/hardening.md): t[1], t[2],
  -- t[4], ... until one is nil, then halved down to an n with t[n] present
  -- and t[n + 1] nil. Lua 5.4 and LuaJIT may see other lengths (`#`) for a
  -- table with a hole ({".", nil, "."} is 3 cells long on Lua 5.4, 1 on
  -- LuaJIT); the border depends only on the keys present, so both read the
  -- same map, on every route; no key past it is looked at.
  local function readers()
    return {
      render = function(m) return map.render(m) end,
      reachable = function(m) return map.reachable(m) ~= nil end,
      fov = function(m) return map.render({ map.fov(m, 1, 1)[1] and { "v" } or { "-" } }) end,
      distances = function(m) return map.render({ { tostring(map.distances(m, { x = 1, y = 1 })[1][1]) } }) end,
      path = function(m) return #map.path(m, 1, 1, 1, 1) == 1 and "p" end,
      autotile = function(m) return tostring(map.autotile(m)[1][1]) end,
      sample = function(m) return #map.sample(m, 1, { seed = 1, chars = "." }) end,
    }
  end

  it("reads maps and rows by their probe border, alike whatever # gives", function()
    local row = { ".", "." }
    local wide = { ".", ".", "." }
    -- { map, what render gives, or the error every reader raises }
    local cases = {
      { { { ".", nil, "." } }, "." },
      { { { ".", nil, ".", "." } }, "." },
      { { { ".", ".", [9] = "." } }, ".." },
      { { row, { ".", nil, "." } }, nil, "row 2 has 1 cells, row 1 has 2" },
      { { wide, { ".", nil, "." } }, nil, "cell [2][2] must be a one-character string, got nil" },
      { { { 5, nil, "." } }, nil, "cell [1][1] must be a one-character string, got number" },
      { { row, nil, row }, ".." },
      { { row, row, nil, nil, row }, "..\n.." },
      { { row, row, nil, row }, nil, "row 3 must be a table, got nil" },
      { { nil, row }, nil, "map has no rows (#map == 0)" },
      -- Float keys are no part of a table's length.
      { { { ".", ".", [2.5] = "#", [math.huge] = "#" } }, ".." },
      { { row, [1.5] = row, [math.huge] = row }, ".." },
      -- Keys set out of order: the length is where the keys stop, not how they are stored.
      { { [1] = row, [3] = row }, ".." },
    }
    for _, case in ipairs(cases) do
      local m, text, message = case[1], case[2], case[3]
      if text then
        assert.are.equal(text, map.render(m))
        for _, read in pairs(readers()) do assert.is_truthy(read(m)) end
      else
        for name, read in pairs(readers()) do
          fails("map." .. name .. ": " .. message, read, m)
        end
      end
    end
    -- Other fields beside the cells are no part of the map either.
    local named = { ".", "@", name = "corridor" }
    assert.are.equal(".@\n.@", map.render({ named, named, note = "hand-made" }))
    -- Rows set from the last to the first make the same map.
    local backwards = {}
    for y = 3, 1, -1 do
      local r = {}
      for x = 4, 1, -1 do r[x] = (x + y) % 2 == 0 and "." or "#" end
      backwards[y] = r
    end
    assert.are.equal(".#.#\n#.#.\n.#.#", map.render(backwards))
  end)

  it("takes row 1's border as the width even where a call reads no row 1", function()
    -- Row 1 has a hole: 1 cell wide on both interpreters; a window without
    -- row 1 (fov with a radius, step, visible, max = 0) must say so too.
    local m = { { ".", nil, "." }, { ".", ".", "." }, { ".", ".", "." } }
    local message = "row 3 has 3 cells, row 1 has 1"
    fails("map.fov: " .. message, map.fov, m, 1, 3, 0)
    fails("map.visible: " .. message, map.visible, m, 1, 3, 1, 3)
    -- step reads rows 2 and 3 (its 3x3 window), and row 2 first.
    fails("map.step: row 2 has 3 cells, row 1 has 1", map.step, m, { { 0 }, { 0 }, { 0 } }, 1, 3)
    fails("map.distances: " .. message, map.distances, m, { x = 1, y = 3 }, { max = 0 })
    fails("map.path: " .. message, map.path, m, 1, 3, 1, 3, { max = 0 })
  end)

  it("checks the arguments in one order, whatever the map's holes", function()
    -- Row 3 is nil inside the map's border (4 rows): the whole-map readers
    -- name it, the others check their own arguments first, on both.
    local row = { ".", "." }
    local m = { row, row, nil, row }
    fails("map.visible: x1 must be an integer from 1 to 2, got 0", map.visible, m, 0, 1, 2, 2)
    fails("map.fov: radius must be an integer >= 0, got -1", map.fov, m, 1, 1, -1)
    fails("map.path: x2 must be an integer from 1 to 2, got 3", map.path, m, 1, 1, 3, 1)
    fails("map.distances: sources[1].x must be an integer from 1 to 2, got 9", map.distances, m, { { x = 9, y = 1 } })
    fails("map.render: row 3 must be a table, got nil", map.render, m)
    fails("map.distances: row 3 must be a table, got nil", map.distances, m, { x = 1, y = 1 })
    -- A window without row 3 reads no row 3, on both.
    assert.is_true(map.visible(m, 1, 1, 2, 2))
    assert.are.same({ { true, true }, { true, true }, {}, {} }, map.fov(m, 1, 1, 1))
    -- A table whose `#` differs: 3 on Lua 5.4, 1 on LuaJIT. Before, LuaJIT
    -- named the hole first (`row 2 must be a table, got nil`) and Lua 5.4
    -- the bad x1; now its border is 1 on both, a 1-row map.
    local holey = { row, row, row, row }
    holey[4], holey[2] = nil, nil
    fails("map.visible: x1 must be an integer from 1 to 2, got 0", map.visible, holey, 0, 1, 2, 1)
    fails("map.fov: y must be an integer from 1 to 1, got 3", map.fov, holey, 1, 3, 0)
    assert.are.equal("..", map.render(holey))
  end)

  it("reads a wide row, and rows of a large capacity, by the cells read alone", function()
    -- The time of these is bench material (tests/host/shape_cost.lua); here
    -- the results. A row of 131,073 cells built by appending.
    local long = {}
    for x = 1, 131073 do long[x] = "." end
    assert.is_true(map.visible({ long }, 1, 1, 131073, 1))
    -- Rows aliasing one 4-cell table that once held 2^20 cells.
    local slack = {}
    for x = 1, 1048576 do slack[x] = "." end
    for x = 1048576, 5, -1 do slack[x] = nil end
    local m = {}
    for y = 1, 1000 do m[y] = slack end
    assert.are.equal(4000 + 999, #map.render(m))
    assert.are.equal(1, #map.sample(m, 1, { seed = 1 }))
  end)

  -- The probe modules (`make probe`) count every raw read of a table entry
  -- (`map._reads`), so the reads are counted, not timed: a read a cell,
  -- three a row (the row and the two reads of its border), and a few dozen
  -- for the lengths; `visible` reads each cell of its ray with its row. A
  -- length worked out again for each row or cell fails here (before, each
  -- cell of `visible`'s ray read its row's length again). What no count
  -- sees, `lua_next` scanning a table's empty slots (before, every row's
  -- unused capacity was walked), tests/host/shape_cost.lua times. On LuaJIT
  -- only the C functions count (`visible`, `step`); its Lua routes read by
  -- the same rule.
  -- #probe: it runs the probe build of `make probe`, which a rock has not.
  it("reads a wide row, and rows of a large capacity, by the cells read alone: counted #probe", function()
    local CHILD = [[
local map = require "map"
-- Each call: its reads and its bound (a read a cell, three a row, 64 more).
local function count(name, cells, rows, f)
  map._reads()
  assert(f(), name)
  print(name, map._reads(), cells + 3 * rows + 64)
end
local W = 131073
local long = {}
for _ = 1, W do long[#long + 1] = "." end
count("visible across 1x131073", W, W, function() return map.visible({ long }, 1, 1, W, 1) end)
local slack = {}
for x = 1, 1048576 do slack[x] = "." end
for x = 1048576, 5, -1 do slack[x] = nil end
local H = 1000
local m = {}
for y = 1, H do m[y] = slack end
count("visible along slack rows", H, H, function() return map.visible(m, 1, 1, 1, H) end)
count("step on slack rows", 18, 6, function()
  return map.step(m, { { 2, 1, 2 }, { 1, 0, 1 }, { 2, 1, 2 } }, 2, 2) == nil
end)
if not jit then
  count("render 4x1000 slack rows", 4 * H, H, function() return #map.render(m) == 5 * H - 1 end)
  count("reachable 4x1000 slack rows", 4 * H, H, function() return map.reachable(m) == false end)
  count("fov radius 8 on slack rows", 4 * 17, 17, function() return map.fov(m, 2, H / 2, 8)[H / 2][4] end)
  count("distances max 8 on slack rows", 4 * 17, 17, function()
    return map.distances(m, { x = 2, y = H / 2 }, { max = 8 })[H / 2 + 8][2] == 8
  end)
end
]]
    local out, err, code = support.run_with_probe(CHILD)
    assert.are.same({ "", 0 }, { err, code })
    local calls = 0
    for name, reads, bound in out:gmatch("([^\t\n]+)\t(%d+)\t(%d+)\n") do
      assert(tonumber(reads) <= tonumber(bound), ("%s: %s reads, bound %s"):format(name, reads, bound))
      calls = calls + 1
    end
    assert.are.equal(jit and 3 or 7, calls)
  end)

  it("answers as the arguments stand when a finalizer changes them during a call", function()
    -- On LuaJIT, distances, flee and path read the sources and options in
    -- one helper (the window), then allocate, read the window's cells and
    -- read them again in another: a finalizer run at that allocation that
    -- changes opts.max or moves a source made the second read find another
    -- window ("internal error (please report): another window"). Now the
    -- call is answered as the arguments stand, one of the two answers.
    local m = from_text(string.rep(string.rep(".", 12) .. "\n", 11) .. string.rep(".", 12))
    local function finalizable(fn)
      if newproxy then
        local p = newproxy(true)
        getmetatable(p).__gc = fn
        return p
      end
      return setmetatable({}, { __gc = fn })
    end
    local calls = {
      { function(o, s) return map.distances(m, s, o) end, function(o, s) o.max = 5; s.x = 9 end },
      { function(o, s) return map.flee(m, s, o) end, function(o, s) o.max = 6; s.y = 10 end },
      { function(o, s) return map.path(m, s, { x = 9, y = 9 }, o) end, function(o) o.max = 12 end },
    }
    -- As in hostile_spec.lua's finalizer storm: a step at every allocation;
    -- on LuaJIT interpreted.
    local function eager_collector()
      if jit then
        collectgarbage("setpause", 0)
        collectgarbage("setstepmul", 100000)
      else
        collectgarbage("incremental", 1, 1000, 1)
      end
    end
    local function usual_collector()
      if jit then
        collectgarbage("setpause", 200)
        collectgarbage("setstepmul", 200)
      else
        collectgarbage("incremental", 200, 100, 13)
      end
    end
    if jit then
      jit.off()
      jit.flush()
    end
    local inside = 0 -- calls inside which the finalizer ran
    for _, c in ipairs(calls) do
      local call, change = c[1], c[2]
      local before = call({ max = 2 }, { x = 2, y = 2 })
      local o, s = { max = 2 }, { x = 2, y = 2 }
      change(o, s)
      local after = call(o, s)
      for _ = 1, 20 do
        local options, source, armed = { max = 2 }, { x = 2, y = 2 }, false
        collectgarbage("stop")
        for _ = 1, 100 do
          finalizable(function()
            if armed then
              armed = false
              change(options, source)
            end
          end)
        end
        -- Made with the collector stopped: the eager collector then runs
        -- them at the call's first allocations.
        eager_collector()
        armed = true
        collectgarbage("restart")
        local ok, got = pcall(call, options, source)
        if not armed then inside = inside + 1 end
        armed = false
        usual_collector()
        assert(ok, got)
        local same = pcall(assert.are.same, before, got) or pcall(assert.are.same, after, got)
        assert.is_true(same)
      end
    end
    -- The window is read twice on LuaJIT only, so only there must a finalizer
    -- have run inside a call (on Lua 5.4, after the specs before this one
    -- have grown the heap, the calls' few allocations may finish no cycle).
    if jit then
      jit.on()
      assert.is_true(inside > 0)
    end
  end)

  it("runs no user code for cdata arguments (LuaJIT)", function()
    if not jit then return end
    local ffi = require "ffi"
    local m = from_text("@..\n...")
    local null = ffi.cast("void *", 0)
    fails("map.fov: radius must be an integer >= 0, got cdata", map.fov, m, 1, 1, null)
    fails("map.fov: options must be a table, got cdata", map.fov, m, 1, 1, 2, null)
    fails("map.render: map must be a table of rows, got cdata", map.render, null)
    fails("map.distances: sources must be a position {x=, y=} or a non-empty array of them, got cdata",
      map.distances, m, null)
    -- A cdata whose __eq, __index and __len would raise: never called.
    pcall(ffi.cdef, "typedef struct { int v; } map_spec_trap;")
    local called = 0
    local trap = ffi.metatype("map_spec_trap", {
      __eq = function() called = called + 1; error({}) end,
      __index = function() called = called + 1; error({}) end,
      __len = function() called = called + 1; error({}) end,
    })()
    fails("map.fov: radius must be an integer >= 0, got cdata", map.fov, m, 1, 1, trap)
    fails("map.path: x2 must be an integer from 1 to 3, got cdata", map.path, m, 1, 1, trap, 1)
    fails("map.generate: width must be an integer >= 6, got cdata", map.generate, trap, 20)
    assert.are.equal(0, called)
    -- A map whose __metatable hides its metatable behind a NULL pointer is
    -- read raw, as any other.
    local hidden = setmetatable({ { "@", "." } }, { __metatable = null, __len = function() error("len") end })
    assert.are.equal("@.", map.render(hidden))
    assert.is_true(map.reachable(hidden))
  end)

  it("is not disturbed by finalizers that call the module", function()
    local calls = 0
    local function finalizer()
      calls = calls + 1
      map.render(map.generate(8, 6, calls))
      map.reachable(map.new_map(3, 3))
    end
    local make
    if newproxy then
      make = function()
        local p = newproxy(true)
        getmetatable(p).__gc = finalizer
        return p
      end
    else
      make = function() return setmetatable({}, { __gc = finalizer }) end
    end
    for i = 1, 2000 do
      make()
      local m = map.generate(12, 7, i)
      assert.are.equal(map.generate_text(12, 7, i), map.render(m))
      assert.is_true(map.reachable(m))
    end
    collectgarbage("collect")
    assert.is_true(calls > 0)
  end)
end)

-- A running hash of numbers, exact on both (every value stays below 2^53).
local function hasher()
  local h = 0
  return function(v)
    if v == nil then return h end
    h = (h * 31 + v) % 4294967291
  end
end

describe("fov, distances and path on Lua 5.4 and LuaJIT", function()
  it("give results that hash to the digest stored in this spec", function()
    local add = hasher()
    local n = { lv = 0, vis = 0, dist = 0, path = 0 }
    for _, spec in ipairs({ { "rooms", 60, 20 }, { "cave", 80, 50 }, { "rooms", 33, 17 }, { "cave", 25, 9 } }) do
      for seed = 1, 6 do
        local m = map.generate { width = spec[2], height = spec[3], seed = seed, algorithm = spec[1] }
        local h, w = #m, #m[1]
        n.lv = n.lv + 1
        local p = m.player
        for _, r in ipairs({ 8, false, 3 }) do
          local vis = map.fov(m, p.x, p.y, r or nil, r == 3 and { opaque = "#$!" } or nil)
          for y = 1, h do
            for x = 1, w do
              if vis[y][x] then
                add(y * w + x)
                n.vis = n.vis + 1
              end
            end
          end
        end
        for _, o in ipairs({ {}, { diagonal = true }, { cost = { ["."] = 1, ["$"] = 5 } } }) do
          local d = map.distances(m, m.items, o)
          for y = 1, h do
            for x = 1, w do
              add(d[y][x] and d[y][x] + 1 or 0)
              n.dist = n.dist + 1
            end
          end
          local path = map.path(m, p.x, p.y, m.stairs.x, m.stairs.y, o)
          for _, c in ipairs(path) do
            add(c.x)
            add(c.y)
            n.path = n.path + 1
          end
        end
      end
    end
    local digest = fmt("%d lv %d vis %d dist %d path %d", add(), n.lv, n.vis, n.dist, n.path)
    assert.are.equal(DIGEST, digest)
  end)
end)

describe("the turn functions on Lua 5.4 and LuaJIT", function()
  -- The digest of the results below for the fixed levels, the same on both
  -- interpreters: the LuaJIT routes of distances and flee (within max too),
  -- path, explore, sample and parse, and the C functions of step, line and
  -- visible.
  local TURNS_DIGEST = "4159001338"

  it("give results that hash to the digest stored in this spec", function()
    local hash = hasher()
    -- Values within 2^53 and negative ones, exact on both: reduced first.
    local function add(v) hash(v % 4294967291) end
    local function rows(d)
      for y = 1, #d do
        for x = 1, #d[y] do add(d[y][x] and d[y][x] + 1 or 0) end
      end
    end
    local function cells(list)
      for _, c in ipairs(list or {}) do
        add(c.x)
        add(c.y)
      end
    end
    for _, spec in ipairs({ { "rooms", 60, 20 }, { "cave", 80, 50 }, { "bsp", 33, 17 }, { "cellular", 25, 12 } }) do
      for seed = 1, 4 do
        local m = map.generate { width = spec[2], height = spec[3], seed = seed, algorithm = spec[1] }
        local p, s = m.player, m.stairs
        local known = map.fov(m, p, 6)
        local limits = { avoid = m.items, known = map.fov(m, p, 20), max = 12, diagonal = true }
        rows(map.distances(m, { p, { x = s.x, y = s.y, value = -5 } }, limits))
        rows(map.flee(m, m.items, { factor = -1.6, cost = { ["."] = 2 } }))
        rows(map.flee(m, p, { max = 7 }))
        local d = map.distances(m, s, { diagonal = true })
        for y = 1, #m, 3 do
          for x = 1, #m[1], 2 do
            local nx, ny = map.step(m, d, x, y, { diagonal = true, avoid = m.items })
            add(nx or 0)
            add(ny or 0)
          end
        end
        cells(map.path(m, p, s, limits))
        cells(map.path(m, p, s, { avoid = m.items, cost = { ["$"] = 9 } }))
        cells(map.explore(m, known, p))
        cells(map.explore(m, known, s, { diagonal = true }))
        local ok, drawn = pcall(map.sample, m, 4, { seed = seed, from = p, min = 3, hidden = true })
        if ok then cells(drawn) else add(#drawn) end
        cells(map.line(p, s))
        for _, c in ipairs(map.sample(m, 30, { seed = seed + 100, chars = ".$!#" })) do
          add(map.visible(m, p, c) and 1 or 0)
          add(map.visible(m, s, c, { radius = 9, opaque = "#$" }) and 1 or 0)
        end
        local parsed = map.parse(map.render(m))
        rows({ { parsed.width, parsed.height, parsed.player.x, parsed.stairs.y } })
        assert.are.equal(map.render(m), map.render(parsed))
      end
    end
    assert.are.equal(TURNS_DIGEST, fmt("%d", hash()))
  end)
end)

describe("the LuaJIT build", function()
  it("refuses plain Lua 5.1 with a message, as a string", function()
    -- lua5.1 is Debian's plain Lua 5.1 (busted's own); the LuaJIT build
    -- loads there, as the C APIs match, and must say why it will not run.
    -- That build: the one loaded here on LuaJIT (a rock's too), make's else.
    local so = jit and package.searchpath("map", package.cpath) or "build/lib/lua/5.1/map.so"
    local f = io.open(so, "rb")
    if not f then return pending("no LuaJIT build beside this Lua 5.4 one: " .. so) end
    f:close()
    local command = ("lua5.1 -e 'local ok, err = pcall(package.loadlib(%q, \"luaopen_map\"));"
      .. " io.write(type(err), \"\\n\", tostring(err))' 2>&1"):format(so)
    local p = assert(io.popen(command))
    local out = p:read("*a")
    p:close()
    assert.are.equal("string\nmap: this is map's LuaJIT build (lib/lua/5.1/map.so), and this interpreter is plain"
      .. " Lua 5.1, which map does not support: use LuaJIT, or Lua 5.4 with the Lua 5.4 build", out)
  end)
end)
