-- The module's Lua contract, run on Lua 5.4 and LuaJIT (see .busted).
local map = require "map"
local support = require "spec.support"

local read_file, cli, from_text = support.read_file, support.cli, support.from_text
local unpack = table.unpack or unpack

-- Golden renders, one file per case: spec/golden/<algorithm>-<w>x<h>-<seed>.txt,
-- every file in the directory (tests/golden.rs reads the same files).
local GOLDEN = {}
do
  local ls = assert(io.popen("ls spec/golden"))
  for name in ls:lines() do
    local algorithm, w, h, seed = name:match("^([%w_]+)%-(%d+)x(%d+)%-(%-?%d+)%.txt$")
    assert(algorithm, "spec/golden/" .. name .. " is not <algorithm>-<w>x<h>-<seed>.txt")
    GOLDEN[#GOLDEN + 1] = { algorithm, tonumber(w), tonumber(h), tonumber(seed), name = name }
  end
  ls:close()
end

-- How many cells of `m` equal `wanted`.
local function count(m, wanted)
  local n = 0
  for _, row in ipairs(m) do
    for _, cell in ipairs(row) do
      if cell == wanted then n = n + 1 end
    end
  end
  return n
end



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

  it("names the row or cell that is wrong", function()
    local cases = {
      { { { "#", "#" }, { "#" } }, "row 2 has 1 cells, row 1 has 2" },
      { { { "#", 1 } }, "cell %[1%]%[2%] must be a one%-character string, got number" },
      { { { "#", "ab" } }, "cell %[1%]%[2%] must be a one%-character string, got a 2%-byte string" },
      { { { "#" }, "#" }, "row 2 must be a table, got string" },
      { {}, "map has no rows" },
      { { {} }, "row 1 is empty" },
    }
    for _, case in ipairs(cases) do
      local ok, err = pcall(map.render, case[1])
      assert.is_false(ok)
      assert.matches("^map%.render: " .. case[2], err)
    end
    local ok, err = pcall(map.render, "#")
    assert.is_false(ok)
    assert.matches("^map%.render: map must be a table of rows, got string", err)
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

  it("puts @ at the first room's centre and > in the last room", function()
    for seed = 1, 50 do
      local m = map.generate(60, 20, seed)
      local first, last = m.rooms[1], m.rooms[#m.rooms]
      local centre = { x = first.x + math.floor((first.w - 1) / 2), y = first.y + math.floor((first.h - 1) / 2) }
      assert.are.same(centre, m.player)
      assert.is_true(m.stairs.x >= last.x and m.stairs.x < last.x + last.w)
      assert.is_true(m.stairs.y >= last.y and m.stairs.y < last.y + last.h)
    end
  end)

  it("keeps rooms apart with a wall between, inside the border", function()
    for seed = 1, 200 do
      local m = map.generate(80, 30, seed)
      for i, a in ipairs(m.rooms) do
        assert.is_true(a.w >= 4 and a.w <= 10 and a.h >= 3 and a.h <= 6)
        assert.is_true(a.x >= 2 and a.y >= 2 and a.x + a.w <= 80 and a.y + a.h <= 30)
        for j = i + 1, #m.rooms do
          local b = m.rooms[j]
          local apart = a.x + a.w < b.x or b.x + b.w < a.x or a.y + a.h < b.y or b.y + b.h < a.y
          assert.is_true(apart, ("seed %d: rooms %d and %d touch"):format(seed, i, j))
        end
      end
    end
  end)

  it("makes every map reachable, border intact, entities unstacked (1500 maps)", function()
    local sizes = { { 60, 20 }, { 6, 5 }, { 9, 7 }, { 200, 60 }, { 12, 100 } }
    for _, size in ipairs(sizes) do
      local w, h = size[1], size[2]
      for seed = 1, 300 do
        local m = map.generate(w, h, seed)
        local ok, why = map.reachable(m)
        assert(ok, ("%dx%d seed %d: %s"):format(w, h, seed, tostring(why)))
        for x = 1, w do assert(m[1][x] == "#" and m[h][x] == "#", "border") end
        for y = 1, h do assert(m[y][1] == "#" and m[y][w] == "#", "border") end
        assert(count(m, "@") == 1 and count(m, ">") == 1, "one @ and one >")
        assert(count(m, "$") + count(m, "!") == 5, "five items")
      end
    end
  end)

  it("reports a fresh seed that reproduces the map", function()
    local m = map.generate(60, 20)
    assert.is_true(m.seed >= 0 and m.seed < 2 ^ 53 and m.seed % 1 == 0)
    assert.are.equal(map.render(m), map.render(map.generate(60, 20, m.seed)))
  end)

  it("accepts every integer seed with |seed| <= 2^53", function()
    for _, seed in ipairs({ 0, -1, 2 ^ 53, -2 ^ 53, 2 ^ 53 - 1, 123456789012 }) do
      assert.are.equal(seed, map.generate(6, 5, seed).seed)
    end
  end)

  it("honours rooms and items options", function()
    local m = map.generate { width = 60, height = 20, seed = 3, rooms = 2, items = 0 }
    assert.are.equal(2, #m.rooms)
    assert.are.equal(0, #m.items)
    m = map.generate { width = 60, height = 20, seed = 3, items = 40 }
    assert.are.equal(40, #m.items)
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

describe("golden maps", function()
  it("cover every algorithm", function()
    assert.is_true(#GOLDEN >= 10)
    local covered = {}
    for _, case in ipairs(GOLDEN) do covered[case[1]] = true end
    for _, algorithm in ipairs(map.ALGORITHMS) do
      assert.is_true(covered[algorithm], "no golden file for " .. algorithm)
    end
  end)

  for _, case in ipairs(GOLDEN) do
    local algorithm, w, h, seed = unpack(case)
    local name = case.name
    assert(name == ("%s-%dx%d-%s.txt"):format(algorithm, w, h, string.format("%d", seed)), name)
    it(name .. " is unchanged", function()
      local m = map.generate { width = w, height = h, seed = seed, algorithm = algorithm }
      assert.are.equal(read_file("spec/golden/" .. name), map.render(m))
    end)
  end
end)

describe("main.lua", function()
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

  it("defaults to 60x20", function()
    local out, _, code = cli()
    assert.are.equal(0, code)
    assert.are.equal("\n", out:sub(-1))
    local m = from_text(out:sub(1, -2))
    assert.are.same({ 20, 60 }, { #m, #m[1] })
  end)

  it("exits 1 with a one-line usage error on bad arguments", function()
    local bad = { { "abc" }, { 60, 20, 1.5 }, { 4, 20, 1 }, { 60, 20, "9007199254740993" }, { 1, 2, 3, 4, 5 },
      { 60, 20, 1, "labyrinth" }, { 60, -20 } }
    for _, args in ipairs(bad) do
      local out, err, code = cli(unpack(args))
      assert.are.equal(1, code, table.concat(args, " "))
      assert.are.equal("", out)
      local usage = "usage: lua main%.lua %[width%] %[height%] %[seed%] %[" .. table.concat(map.ALGORITHMS, "|") .. "%]"
      assert.matches("^main%.lua: [^\n]+" .. usage .. "[^\n]*\n$", err)
    end
  end)
end)

describe("generate_text and generate_json", function()
  local json = require "dkjson"

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
