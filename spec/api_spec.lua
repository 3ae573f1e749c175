-- The level API, on Lua 5.4 and LuaJIT (see .busted): new_map, render,
-- generate and the fields of the map it makes, generate_text, generate_json,
-- describe and ALGORITHMS, reachable, and their messages. Maps that are not
-- maps and the sweeps over every kind of bad value: hostile_spec.lua; what
-- every generator promises: generators_spec.lua and the family specs
-- (rooms_spec.lua, caves_spec.lua).
local map = require "map"
local json = require "dkjson"
local support = require "spec.support"

local from_text = support.from_text
local unpack = table.unpack or unpack

describe("new_map", function()
  it("returns height rows of width '#' strings", function()
    local m = map.new_map(7, 3)
    assert.are.equal(3, #m)
    for y, row in ipairs(m) do
      assert.are.equal(7, #row, "row " .. y)
      for x = 1, 7 do assert.are.equal("#", row[x]) end
    end
  end)

  it("rejects sizes that are not positive integers", function()
    for _, bad in ipairs({ { 0, 5 }, { 5, -1 }, { 2.5, 2 }, { "3", 3 }, { 0 / 0, 1 }, { 1 / 0, 1 } }) do
      local ok, err = pcall(map.new_map, bad[1], bad[2])
      assert.is_false(ok)
      assert.are.equal("string", type(err))
      assert.matches("^map%.new_map: %a+ must be an integer >= 1, got ", err)
    end
  end)

  it("refuses more than MAX_CELLS cells before allocating", function()
    assert.are.equal(4000000, map.MAX_CELLS)
    local ok, err = pcall(map.new_map, 1e6, 1e6)
    assert.is_false(ok)
    assert.matches("at most 4000000 cells, got 1000000x1000000", err, 1, true)
    assert.are.equal(2000, #map.new_map(2000, 2000))
  end)
end)

describe("render", function()
  it("joins rows with newlines and no trailing newline", function()
    assert.are.equal("###\n###", map.render(map.new_map(3, 2)))
  end)

  it("renders a map as edited by Lua code", function()
    local m = map.new_map(5, 4)
    m[3][4] = "@"
    m[2][2] = "."
    assert.are.equal("#####\n#.###\n###@#\n#####", map.render(m))
  end)

  it("round-trips a generated map through its text", function()
    local text = map.render(map.generate(60, 20, 5))
    assert.are.equal(text, map.render(from_text(text)))
  end)

end)

describe("generate", function()
  it("gives the same map for the same seed and another for another seed", function()
    local a = map.render(map.generate(60, 20, 42))
    assert.are.equal(a, map.render(map.generate(60, 20, 42)))
    assert.are.equal(a, map.render(map.generate { width = 60, height = 20, seed = 42 }))
    assert.are_not.equal(a, map.render(map.generate(60, 20, 43)))
  end)

  it("has the requested size and reports its metadata", function()
    local m = map.generate(61, 23, 9)
    assert.are.equal(23, #m)
    for _, row in ipairs(m) do assert.are.equal(61, #row) end
    assert.are.same({ 61, 23, 9, "rooms" }, { m.width, m.height, m.seed, m.algorithm })
    assert.are.equal("@", m[m.player.y][m.player.x])
    assert.are.equal(">", m[m.stairs.y][m.stairs.x])
    assert.are.equal(5, #m.items)
    for _, item in ipairs(m.items) do
      assert.is_truthy(item.kind == "$" or item.kind == "!")
      assert.are.equal(item.kind, m[item.y][item.x])
    end
  end)

  it("reports a fresh seed that reproduces the map", function()
    local m = map.generate(60, 20)
    assert.is_true(m.seed >= 0 and m.seed < 2 ^ 53 and m.seed % 1 == 0)
    assert.are.equal(map.render(m), map.render(map.generate(60, 20, m.seed)))
  end)

  it("accepts nil and every integer seed with |seed| <= 2^53", function()
    for _, seed in ipairs({ 0, -1, 1, 2 ^ 53, -2 ^ 53, 2 ^ 53 - 1, 12345.0, 123456789012 }) do
      assert.are.equal(seed, map.generate(6, 5, seed).seed)
      local m = map.generate(60, 20, seed)
      assert.are.equal(seed, m.seed)
      assert.is_true(map.reachable(m))
    end
    assert.is_true(map.generate(60, 20, nil).seed >= 0)
  end)

  it("raises string errors naming the function and the problem", function()
    local cases = {
      { { 4.5, 20 }, "width must be an integer >= 6, got 4.5" },
      { { 60, 4 }, "height must be an integer >= 5, got 4" },
      { { 60, 20, 1.5 }, "seed must be an integer with |seed| <= 2^53, got 1.5" },
      { { 60, 20, 2 ^ 53 + 2 }, "seed must be an integer with |seed| <= 2^53" },
      { { 60, 20, "42" }, "seed must be an integer with |seed| <= 2^53, got string \"42\"" },
      { { 60, 20, 1, "cave" }, "expected at most 3 arguments, got 4" },
      { { 3000, 3000 }, "width*height must be at most 4000000 cells" },
      { { { width = 60, height = 20, colour = 1 } }, "unknown option \"colour\"" },
      { { { width = 60, height = 20, rooms = 0 } }, "rooms must be an integer from 1 to 10000, got 0" },
      { { { width = 60, height = 20, items = -1 } }, "items must be an integer from 0 to" },
      { { { width = 60, height = 20, algorithm = "labyrinth" } },
        "algorithm must be \"" .. table.concat(map.ALGORITHMS, "\", \"", 1, #map.ALGORITHMS - 1) .. "\" or \""
        .. map.ALGORITHMS[#map.ALGORITHMS] .. "\", got string \"labyrinth\"" },
      { { { width = 60, height = 20, items = 5000, seed = 1 } }, "cannot place 5000 items: only %d+ free" },
      { { { 60, 20 } }, "option names must be strings, got 1" },
      { { { height = 20 } }, "width must be an integer >= 6, got nil" },
    }
    for _, case in ipairs(cases) do
      local ok, err = pcall(map.generate, unpack(case[1]))
      assert.is_false(ok)
      assert.are.equal("string", type(err))
      local plain = not case[2]:find("%d+", 1, true)
      assert.is_truthy(err:find("map.generate: " .. case[2], 1, plain), err)
    end
  end)
end)

describe("generate_text and generate_json", function()
  it("generate_text equals render(generate(...)) byte for byte", function()
    for seed = 1, 50 do
      assert.are.equal(map.render(map.generate(60, 20, seed)), map.generate_text(60, 20, seed))
    end
    local opts = { width = 33, height = 17, seed = -5, rooms = 3, items = 9 }
    assert.are.equal(map.render(map.generate(opts)), map.generate_text(opts))
  end)

  it("generate_json carries the rows and all the metadata", function()
    local m = map.generate(50, 16, 77)
    local v = json.decode(map.generate_json(50, 16, 77))
    assert.are.same({ m.width, m.height, m.seed, m.algorithm }, { v.width, v.height, v.seed, v.algorithm })
    assert.are.same(m.rooms, v.rooms)
    assert.are.same(m.player, v.player)
    assert.are.same(m.stairs, v.stairs)
    assert.are.same(m.items, v.items)
    assert.are.same({}, v.doors)
    assert.are.equal(map.render(m), table.concat(v.rows, "\n"))
    local opts = { width = 60, height = 20, seed = 3, doors = true }
    m, v = map.generate(opts), json.decode(map.generate_json(opts))
    assert.is_true(#m.doors > 0)
    assert.are.same(m.doors, v.doors)
    assert.are.equal(map.render(m), table.concat(v.rows, "\n"))
  end)

  it("rejects bad arguments like generate, under its own name", function()
    local ok, err = pcall(map.generate_json, 60, 20, 0.5)
    assert.is_false(ok)
    assert.are.equal("map.generate_json: seed must be an integer with |seed| <= 2^53, got 0.5", err)
  end)
end)

describe("describe and ALGORITHMS", function()
  it("lists the algorithms, rooms first (the default)", function()
    assert.is_true(#map.ALGORITHMS >= 2)
    assert.are.equal("rooms", map.ALGORITHMS[1])
    assert.are.equal("cave", map.ALGORITHMS[2])
    assert.are.equal("rooms", map.describe().name)
    local seen = {}
    for _, name in ipairs(map.ALGORITHMS) do
      assert.is_nil(seen[name], name)
      seen[name] = true
      assert.matches("^[%w_]+$", name)
    end
  end)

  it("refuses names that are not algorithms, listing the valid ones, and extra arguments", function()
    local refused = "map.describe: algorithm must be " .. support.ALGORITHM_LIST .. ", got "
    for _, case in ipairs({ { "labyrinth", 'string "labyrinth"' }, { "maze-ish", 'string "maze-ish"' },
      { "ROOMS", 'string "ROOMS"' }, { 1, "1" }, { true, "boolean" }, { false, "boolean" }, { {}, "table" } }) do
      local ok, err = pcall(map.describe, case[1])
      assert.is_false(ok)
      assert.are.equal(refused .. case[2], err)
    end
    local ok, err = pcall(map.describe, "rooms", "cave")
    assert.is_false(ok)
    assert.are.equal("map.describe: expected at most 1 argument, got 2", err)
  end)

  for _, algorithm in ipairs(map.ALGORITHMS) do
    it(algorithm .. ": a sane description", function()
      local d = map.describe(algorithm)
      assert.are.equal(algorithm, d.name)
      assert.are.equal("string", type(d.doc))
      assert.is_true(#d.doc > 10, "doc")
      for _, side in ipairs({ "min_width", "min_height" }) do
        assert.is_true(math.type == nil or math.type(d[side]) == "integer", side)
        assert.is_true(d[side] % 1 == 0 and d[side] >= 3, side)
      end
      assert.are.equal("items", d.options[#d.options].name, "items comes last")
      -- Its terrain: the characters it carves, those that block walking
      -- among them, "#" always blocking.
      assert.is_true(type(d.chars) == "string" and #d.chars >= 2, "chars")
      assert.is_true(type(d.blocked) == "string" and d.blocked:find("#", 1, true) ~= nil, "blocked")
      for c in d.blocked:gmatch("[^#]") do assert.truthy(d.chars:find(c, 1, true), "blocked " .. c) end
      local names = {}
      for _, o in ipairs(d.options) do
        local what = algorithm .. " option " .. tostring(o.name)
        assert.is_truthy(o.name:match("^[%l_]+$"), what)
        assert.is_nil(names[o.name], what .. " listed twice")
        names[o.name] = true
        assert.is_true(type(o.doc) == "string" and #o.doc > 5, what .. ": doc")
        assert.are.equal("string", type(o.default_text), what .. ": default_text")
        if o.type == "integer" or o.type == "number" then
          assert.is_true(type(o.min) == "number" and type(o.max) == "number" and o.min < o.max, what .. ": range")
          assert.is_true(o.max < 1 / 0 and o.min > -1 / 0, what .. ": finite range")
          if o.type == "integer" then
            assert.is_true(o.min % 1 == 0 and o.max % 1 == 0, what .. ": integer bounds")
            assert.is_nil(o.open_min, what)
          else
            assert.are.equal("boolean", type(o.open_min), what .. ": open_min")
          end
          if o.default ~= nil then
            assert.are.equal("number", type(o.default), what)
            assert.is_true(o.default <= o.max and (o.default > o.min or (o.default == o.min and not o.open_min)),
              what .. ": default out of range")
            assert.are.equal(o.default, tonumber(o.default_text), what .. ": default_text")
          end
          if o.type == "integer" and o.default ~= nil then assert.is_true(o.default % 1 == 0, what) end
        elseif o.type == "string" then
          assert.is_true(math.type == nil or math.type(o.max) == "integer", what)
          assert.is_true(o.max >= #o.default, what .. ": default longer than max")
          assert.are.equal(("%q"):format(o.default), o.default_text, what .. ": default_text")
        else
          assert.are.equal("boolean", o.type, what .. ": type")
          assert.is_nil(o.min, what)
          assert.is_nil(o.max, what)
          assert.are.equal("boolean", type(o.default), what .. ": default")
          assert.are.equal(tostring(o.default), o.default_text, what)
        end
      end
    end)
  end

  it("lists the options every algorithm takes as tables, with the shape generate asks for", function()
    for _, algorithm in ipairs(map.ALGORITHMS) do
      local design = map.describe(algorithm).design
      local names = {}
      for i, o in ipairs(design) do
        names[i] = o.name
        assert.are.equal("table", o.type)
        assert.is_true(type(o.doc) == "string" and #o.doc > 10, o.name .. ": doc")
        local ok, err = pcall(map.generate, { width = 30, height = 12, seed = 1, algorithm = algorithm, [o.name] = 5 })
        assert.is_false(ok)
        assert.are.equal("map.generate: " .. o.name .. " must be " .. o.shape .. ", got number", err)
      end
      -- Off rock (map.describe's blocked more than "#", or characters past
      -- floor and wall: example's), vaults and arrive,
      -- whose tunnels dig through rock, are refused by name.
      local d = map.describe(algorithm)
      if d.blocked == "#" and d.chars == ".#" then
        assert.are.same({ "vaults", "arrive", "place" }, names)
      else
        assert.are.same({ "place" }, names)
        -- Refused before their values are looked at (an arrive off the map too).
        for _, case in ipairs({ { "vaults", { { rows = { "." } } } }, { "arrive", { x = 3, y = 3 } },
          { "arrive", { x = -1, y = -1 } } }) do
          local ok, err = pcall(map.generate, { width = 30, height = 12, seed = 1, algorithm = algorithm,
            [case[1]] = case[2] })
          assert.is_false(ok)
          assert.are.equal("map.generate: " .. case[1] .. " applies only to levels carved from rock, not to \""
            .. algorithm .. "\" (its tunnels dig through #)", err)
        end
      end
    end
  end)

  it("gives an option the same type in every algorithm that takes it", function()
    local kind = {}
    for _, algorithm in ipairs(map.ALGORITHMS) do
      for _, o in ipairs(map.describe(algorithm).options) do
        kind[o.name] = kind[o.name] or o.type
        assert.are.equal(kind[o.name], o.type, algorithm .. " option " .. o.name)
      end
    end
  end)
end)

describe("reachable", function()
  it("is true on a connected hand-built map", function()
    assert.are.same({ true }, { map.reachable(from_text("#####\n#@.$#\n#!#>#\n#####")) })
  end)

  it("is false with a message on a disconnected map", function()
    local ok, why = map.reachable(from_text("#######\n#@.#.>#\n#..#$.#\n#######"))
    assert.is_false(ok)
    assert.are.equal("not reachable from @ at (2,2): > at (6,2) $ at (5,3)", why)
  end)

  it("does not walk diagonally", function()
    assert.is_false(map.reachable(from_text("@#\n#>")))
  end)

  it("is false without @", function()
    assert.are.same({ false, "no @ on the map" }, { map.reachable(from_text("...>")) })
  end)

  it("sees edits: walling off the stairs breaks a generated map", function()
    local m = map.generate(60, 20, 42)
    local s = m.stairs
    for _, d in ipairs({ { 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 } }) do
      local row = m[s.y + d[2]]
      if row[s.x + d[1]] ~= ">" then row[s.x + d[1]] = "#" end
    end
    local ok, why = map.reachable(m)
    assert.is_false(ok)
    assert.matches("> at %(" .. s.x .. "," .. s.y .. "%)", why)
  end)
end)
