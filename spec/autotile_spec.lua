-- map.autotile on Lua 5.4 and LuaJIT (see .busted): against the pure-Lua
-- reference (spec/reference/autotile.lua) on every algorithm, every mode,
-- with and without the edge, and on hand-built maps; its messages.
local map = require "map"
local support = require "spec.support"
local reference = require "spec.reference.autotile"

local from_text = support.from_text
local fmt = string.format

-- Nil when the module's rows `a` equal the reference's `b`, else where not.
local function rows_diff(a, b)
  if #a ~= #b then return fmt("%d rows, not %d", #a, #b) end
  for y = 1, #b do
    if #a[y] ~= #b[y] then return fmt("row %d has %d cells, not %d", y, #a[y], #b[y]) end
    for x = 1, #b[y] do
      if a[y][x] ~= b[y][x] then
        return fmt("cell (%d,%d): %s, not %s", x, y, tostring(a[y][x]), tostring(b[y][x]))
      end
    end
  end
end

local OPTIONS = {}
for _, mode in ipairs({ "blob", "8", "4" }) do
  for _, edge in ipairs({ true, false }) do
    OPTIONS[#OPTIONS + 1] = { mode = mode, edge = edge }
  end
end
OPTIONS[#OPTIONS + 1] = { mode = "blob", index = true }
OPTIONS[#OPTIONS + 1] = { mode = "blob", index = true, edge = false }
OPTIONS[#OPTIONS + 1] = { chars = "#+", mode = "8" }
OPTIONS[#OPTIONS + 1] = { chars = "." }

local function options_text(o)
  return fmt("mode=%s edge=%s index=%s chars=%s", o.mode, tostring(o.edge), tostring(o.index), o.chars or "#")
end

describe("map.autotile", function()
  it("equals the reference on every algorithm, mode and edge rule", function()
    local levels = 0
    for _, algorithm in ipairs(map.ALGORITHMS) do
      local d = map.describe(algorithm)
      local small = { math.max(d.min_width, 7), math.max(d.min_height, 6) }
      for _, size in ipairs({ { 60, 20 }, small, { math.max(d.min_width, 9), 31 } }) do
        for seed = 1, 4 do
          local m = map.generate { width = size[1], height = size[2], seed = seed, algorithm = algorithm, items = 0 }
          for _, o in ipairs(OPTIONS) do
            local diff = rows_diff(map.autotile(m, o), reference.autotile(m, o))
            assert(diff == nil, fmt("%s %dx%d seed %d %s: %s", algorithm, size[1], size[2], seed,
              options_text(o), tostring(diff)))
          end
          levels = levels + 1
        end
      end
    end
    assert.are.equal(#map.ALGORITHMS * 12, levels)
  end)

  it("sets the compass bits, and the blob form has exactly 47 masks", function()
    local m = from_text("###\n###\n###")
    assert.are.equal(255, map.autotile(m, { mode = "8", edge = false })[2][2])
    assert.are.equal(255, map.autotile(m)[1][1])
    local bits = { { 2, 1, 1 }, { 3, 1, 2 }, { 3, 2, 4 }, { 3, 3, 8 }, { 2, 3, 16 }, { 1, 3, 32 }, { 1, 2, 64 },
      { 1, 1, 128 } }
    for _, b in ipairs(bits) do
      local lone = from_text("...\n.#.\n...")
      lone[b[2]][b[1]] = "#"
      assert.are.equal(b[3], map.autotile(lone, { mode = "8" })[2][2])
    end
    assert.are.equal(47, #reference.BLOB)
    -- Every blob mask occurs on some random map, and no other does.
    local seen, count, rand = {}, 0, support.generator(7)
    for _ = 1, 200 do
      local rows = {}
      for y = 1, 8 do
        local row = {}
        for x = 1, 8 do row[x] = rand(2) == 1 and "#" or "." end
        rows[y] = row
      end
      for _, row in ipairs(map.autotile(rows)) do
        for _, v in ipairs(row) do
          if v and not seen[v] then
            seen[v] = true
            count = count + 1
          end
        end
      end
    end
    assert.are.equal(47, count)
    for _, mask in ipairs(reference.BLOB) do assert.is_true(seen[mask]) end
  end)

  it("gives false for every other cell, full rows, and 0-46 with index", function()
    local m = from_text("#.#\n...")
    -- With the edge, each wall joins the border on its outer sides (N, W and
    -- NW between them; N, NE, E), and without it, nothing.
    assert.are.same({ { 193, false, 7 }, { false, false, false } }, map.autotile(m))
    assert.are.same({ { 0, false, 0 }, { false, false, false } }, map.autotile(m, { edge = false }))
    local ranks = map.autotile(map.generate(40, 12, 3), { index = true })
    for _, row in ipairs(ranks) do
      for _, v in ipairs(row) do assert.is_true(v == false or (v >= 0 and v <= 46 and v % 1 == 0)) end
    end
  end)

  it("names bad options", function()
    local m = from_text("#.")
    local function fails(message, ...)
      local ok, err = pcall(map.autotile, ...)
      assert.is_false(ok)
      assert.are.equal("map.autotile: " .. message, err)
    end
    fails("map must be a table of rows, got nothing")
    fails("expected at most 2 arguments, got 3", m, {}, 1)
    fails("options must be a table, got number", m, 5)
    fails('mode must be "blob", "8" or "4", got string "9"', m, { mode = "9" })
    fails('mode must be "blob", "8" or "4", got 8', m, { mode = 8 })
    fails("chars must be a non-empty string of characters, got string \"\"", m, { chars = "" })
    fails("chars must be a non-empty string of characters, got table", m, { chars = {} })
    fails("edge must be a boolean, got string \"yes\"", m, { edge = "yes" })
    fails("index must be a boolean, got 1", m, { index = 1 })
    fails('index applies only to mode "blob"', m, { index = true, mode = "8" })
    fails('unknown option "colour" (options: chars, edge, index, mode)', m, { colour = 1 })
  end)
end)
