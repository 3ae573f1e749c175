-- The options that take a map's rows (map.describe's `rows`: the example
-- generator's `sample` and `fixed`) given as an array of strings: the same
-- level as the text of those rows, on every function that generates, and
-- hostile tables (not strings, holes, other keys, too long, huge, with
-- metamethods that must not run) refused with messages naming the entry.
local map = require "map"

local ROOMS = {
  "##############",
  "#....####....#",
  "#....####....#",
  "#............#",
  "#....####....#",
  "##.######.####",
  "##.######.####",
  "#......#.....#",
  "#............#",
  "#......#.....#",
  "##############",
}

local function args(extra)
  local t = { width = 40, height = 24, seed = 7, algorithm = "example", items = 0 }
  for k, v in pairs(extra) do t[k] = v end
  return t
end

local function refused(sample, message, extra)
  local t = args(extra or {})
  t.sample = sample
  local clock = os.clock()
  assert.has_error(function() map.generate(t) end, "map.generate: " .. message)
  assert.is_true(os.clock() - clock < 1, message)
end

describe("an option that takes rows", function()
  it("is the example's sample and fixed, as map.describe says", function()
    local takes = {}
    for _, algorithm in ipairs(map.ALGORITHMS) do
      for _, option in ipairs(map.describe(algorithm).options) do
        if option.rows then
          assert.are.equal("string", option.type)
          takes[#takes + 1] = algorithm .. "." .. option.name
        end
      end
    end
    assert.are.same({ "example.sample", "example.fixed" }, takes)
  end)

  it("gives the level its text gives, on every function that generates", function()
    local text = table.concat(ROOMS, "\n")
    local fixed = { "....", "...." }
    local as_text = args { sample = text, fixed = table.concat(fixed, "\n"), fixed_x = 8, fixed_y = 6 }
    local as_rows = args { sample = ROOMS, fixed = fixed, fixed_x = 8, fixed_y = 6 }
    assert.are.same(map.generate(as_text), map.generate(as_rows))
    assert.are.equal(map.generate_text(as_text), map.generate_text(as_rows))
    assert.are.equal(map.generate_json(as_text), map.generate_json(as_rows))
    assert.are.equal(map.level(as_text):render(), map.level(as_rows):render())
    -- Each option given as rows (map.describe's list), the other as text.
    for _, algorithm in ipairs(map.ALGORITHMS) do
      for _, option in ipairs(map.describe(algorithm).options) do
        if option.rows then
          local one = args { sample = text, fixed = table.concat(fixed, "\n"), fixed_x = 8, fixed_y = 6 }
          one[option.name] = option.name == "sample" and ROOMS or fixed
          assert.are.equal(map.generate_text(as_text), map.generate_text(one), option.name)
        end
      end
    end
    -- The rows kept: the fixed cells are the level's.
    local m = map.generate(as_rows)
    assert.are.equal("....", table.concat(m[6], "", 8, 11))
    -- An empty array is the empty text: no fixed cells.
    assert.are.equal(map.generate_text(args { sample = ROOMS }), map.generate_text(args { sample = ROOMS, fixed = {} }))
  end)

  it("names the entry that is not a row", function()
    refused({ "###", 5 }, "sample[2] must be a string, got number")
    refused({ "###", {} }, "sample[2] must be a string, got table")
    refused({ [1] = "#####", [3] = "#####" }, "sample[2] must be a string, got nil")
    refused({ [1000000000] = "#" }, "sample[1] must be a string, got nil")
    refused({ "###", x = "#" }, 'sample must be a string or an array of strings (its rows), but has the key "x"')
    refused({ "###", [1.5] = "#" }, "sample must be a string or an array of strings (its rows), but has the key 1.5")
    refused({ "###", "#\n#" }, "sample[2] must be one row, without a newline")
    refused(true, "sample must be a string or an array of strings (its rows), got boolean")
    assert.has_error(function() map.generate(args { sample = ROOMS, fixed = { ".", false } }) end,
      "map.generate: fixed[2] must be a string, got boolean")
  end)

  it("holds the joined rows to the option's bound, and stops reading a huge table", function()
    local long = {}
    for i = 1, 64 do long[i] = ("#"):rep(64) end
    -- 64 rows of 64 and their 63 newlines: 4159 bytes, within 4160.
    refused(long, "sample must have floor '.' (not blocking), for @ and >")
    long[65] = "#"
    refused(long, "sample must be at most 4160 bytes, its rows joined by newlines: 4161 bytes by row 65")
    refused({ ("#"):rep(5000) }, "sample must be at most 4160 bytes, its rows joined by newlines: 5000 bytes by row 1")
    local huge = {}
    for i = 1, 300000 do huge[i] = "" end
    refused(huge, "sample must be at most 4160 bytes: its rows, joined by newlines, are at most 4161 rows, got a table"
      .. " of more entries")
  end)

  it("runs no metamethod of the table or its rows", function()
    local ran = false
    local trap = {
      __index = function() ran = true; return "#####" end,
      __len = function() ran = true; return 5 end,
      __pairs = function() ran = true; return next, {}, nil end,
    }
    refused(setmetatable({}, trap), "sample is empty")
    refused(setmetatable({ "#####", nil, "#####" }, trap), "sample[2] must be a string, got nil")
    local rows = {}
    for i, row in ipairs(ROOMS) do rows[i] = row end
    local m = map.generate_text(args { sample = setmetatable(rows, trap) })
    assert.are.equal(map.generate_text(args { sample = ROOMS }), m)
    assert.is_false(ran)
  end)

  it("is checked in its turn: the size first, an option of another algorithm refused as given", function()
    assert.has_error(function() map.generate(args { width = "x", sample = { 5 } }) end,
      'map.generate: width must be an integer >= 12, got string "x"')
    assert.has_error(function() map.generate { algorithm = "rooms", width = 40, height = 24, sample = ROOMS } end,
      'map.generate: option sample applies only to algorithm "example"')
    assert.has_error(function() map.generate(args { sample = ROOMS, fixed = { "x" }, fixed_x = 2, fixed_y = 2 }) end,
      "map.generate: fixed cell (2, 2) 'x' is not a character of the sample")
  end)
end)
