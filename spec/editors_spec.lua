-- The editors' formats (issue 39): map.to_tiled, map.from_tiled, map.to_xp,
-- map.from_xp and the level forms lvl:to_tiled, lvl:to_xp. Round trips of
-- 1,000 generated levels, the text byte for byte against a pure-Lua writer
-- (spec/reference/editors.lua), every byte as a tile and a glyph, the Lua
-- export loaded as Lua, a map drawn with tiles it did not use before, and
-- bad files refused with their message. tests/editors/run.sh checks the
-- files with third-party readers (pytiled-parser, python-tcod).
local map = require "map"
local reference = require "spec.reference.editors"

-- The 1,000 levels: every algorithm in turn, 20x10 to 69x26, seeds 1 to 1000.
local function each_level(f)
  local n = 0
  for seed = 1, 1000 do
    local algorithm = map.ALGORITHMS[(seed - 1) % #map.ALGORITHMS + 1]
    local about = map.describe(algorithm)
    local w = math.max(about.min_width, 20 + seed % 50)
    local h = math.max(about.min_height, 10 + seed % 17)
    f(map.generate { width = w, height = h, seed = seed, algorithm = algorithm, items = seed % 3 })
    n = n + 1
  end
  return n
end

local function load_lua(text)
  return assert((loadstring or load)(text, "=tiled.lua", "t", {}))()
end

describe("map.to_tiled and map.from_tiled", function()
  it("give back the same map for 1,000 generated levels, JSON and Lua export alike", function()
    local n = each_level(function(m)
      local text = map.render(m)
      local json = map.to_tiled(m)
      local back = map.from_tiled(json)
      assert.are.equal(text, map.render(back), m.algorithm .. " " .. m.seed)
      assert.are.same({ m.player, m.stairs, #m[1], #m }, { back.player, back.stairs, back.width, back.height })
      local lua = load_lua(map.to_tiled(m, { format = "lua" }))
      local data = lua.layers[1].data
      for y = 1, #m, 5 do
        for x = 1, #m[1], 3 do
          assert.are.equal(m[y][x], lua.tilesets[1].tiles[data[(y - 1) * #m[1] + x]].properties.char)
        end
      end
    end)
    assert.are.equal(1000, n)
  end)

  it("writes the text the pure-Lua writer writes, byte for byte, and reads what it reads", function()
    for seed = 1, 20 do
      local m = map.generate { width = 20 + seed, height = 9, seed = seed, algorithm = map.ALGORITHMS[seed % 7 + 1] }
      local text = map.to_tiled(m)
      assert.are.equal(reference.to_tiled(m), text)
      local rows = reference.from_tiled(text)
      assert.are.equal(map.render(m), map.render(rows))
    end
  end)

  it("carries every byte, as a tile with its char property", function()
    local m = map.new_map(16, 16)
    for b = 0, 255 do m[math.floor(b / 16) + 1][b % 16 + 1] = string.char(b) end
    local json = map.to_tiled(m)
    assert.are.equal(map.render(m), map.render(map.from_tiled(json)))
    assert.are.equal(reference.to_tiled(m), json)
    local lua = load_lua(map.to_tiled(m, { format = "lua" }))
    assert.are.equal(256, #lua.tilesets[1].tiles)
    assert.are.equal("\255", lua.tilesets[1].tiles[256].properties.char)
  end)

  it("uses the game's tiles, and reads a map drawn with tiles it did not use", function()
    local m = map.parse("#####\n#@.>#\n#####")
    local t = load_lua(map.to_tiled(m, { format = "lua", tiles = "#.@>~", tile_width = 8, tile_height = 12,
      image = "my tiles.png" }))
    assert.are.same({ 8, 12, "my tiles.png", 5, 5 }, { t.tilewidth, t.tileheight, t.tilesets[1].image,
      t.tilesets[1].tilecount, t.tilesets[1].columns })
    assert.are.same({ 1, 1, 1, 1, 1, 1, 3, 2, 4, 1 }, { (table.unpack or unpack)(t.layers[1].data, 1, 10) })
    -- The water tile (id 4) drawn in an editor: its char names it.
    local json = map.to_tiled(m, { tiles = "#.@>~" })
      :gsub('"data":%[1,1,1,1,1,1,3,2,4,1', '"data":[5,1,1,1,1,1,3,2,4,1')
    assert.are.equal("~####\n#@.>#\n#####", map.render(map.from_tiled(json)))
    -- A tile without char reads through options.tiles, an empty cell as options.empty.
    local bare, count = json:gsub(',"tiles":%[.*%]}%]}$', "}]}") -- the tileset without its tiles
    assert.are.equal(1, count)
    local ok, err = pcall(map.from_tiled, bare)
    assert.are.same({ false, "map.from_tiled: cell (1,1): tile 4 of tileset \"map\" has no char property, and "
      .. "options.tiles names no character for it" }, { ok, err })
    assert.are.equal("~####\n#@.>#\n#####", map.render(map.from_tiled(bare, { tiles = "#.@>~" })))
    local zero = json:gsub('"data":%[5,', '"data":[0,')
    assert.are.equal("~", map.from_tiled(zero, { empty = "~" })[1][1])
  end)
end)

describe("map.to_xp and map.from_xp", function()
  it("give back the same map for 1,000 generated levels, with and without glyphs", function()
    local n = each_level(function(m)
      local text = map.render(m)
      assert.are.equal(text, map.render(map.from_xp(map.to_xp(m))), m.algorithm .. " " .. m.seed)
      local glyphs = { glyphs = "#█.·" }
      assert.are.equal(text, map.render(map.from_xp(map.to_xp(m, glyphs), glyphs)))
    end)
    assert.are.equal(1000, n)
  end)

  it("writes each cell as its glyph, white on black, column by column (the pure-Lua image's cells)", function()
    local m = map.parse("#@\n.>")
    local back = reference.from_xp_cells(reference.xp_cells(m))
    assert.are.equal(map.render(m), map.render(back))
    local image = map.to_xp(m, { glyphs = "#█" })
    assert.are.equal("\219", map.from_xp(image)[1][1]) -- read without the pairs: the glyph's own byte
    assert.are.equal("#", map.from_xp(image, { glyphs = "#█" })[1][1])
  end)

  it("carries every byte as a glyph", function()
    local m = map.new_map(16, 16)
    for b = 0, 255 do m[math.floor(b / 16) + 1][b % 16 + 1] = string.char(b) end
    assert.are.equal(map.render(m), map.render(map.from_xp(map.to_xp(m))))
  end)
end)

describe("lvl:to_tiled and lvl:to_xp", function()
  it("write the level with its things laid on it, as lvl:render shows it", function()
    local lvl = map.level { width = 40, height = 15, seed = 3, things = "M", algorithm = "bsp" }
    assert.are.equal(lvl:render(), map.render(map.from_tiled(lvl:to_tiled())))
    assert.are.equal(lvl:render(), map.render(map.from_xp(lvl:to_xp())))
  end)
end)
