-- The example generator (wave function collapse, the overlapping model):
-- every window of every level checked by brute force against the sample's
-- windows as the plain-Lua reference (spec/reference/wfc.lua) enumerates
-- them, fixed cells kept, levels connected by
-- their own walking rule, hostile samples refused with their messages, and
-- the success rate over seeds (the full 1000 seeds: `cargo test --release
-- success_rates -- --ignored`).
local map = require "map"
local wfc = require "spec.reference.wfc"

-- The sample's windows (n x n, under the symmetries asked for, the sample
-- wrapped when it wraps) as a set of strings, row after row: the plain-Lua
-- reference's enumeration.
local function windows(rows, n, symmetry, wraps)
  local _, _, set = wfc.patterns(rows, n, symmetry, wraps)
  return set
end

local function sample_rows(text)
  local rows = {}
  for row in text:gmatch("[^\n]+") do rows[#rows + 1] = (row:gsub("[@>$!<]", ".")) end
  return rows
end

-- The level's terrain: @, >, $ and ! back to the floor they stand on.
local function terrain(m)
  local rows = {}
  for y = 1, #m do
    local row = {}
    for x = 1, #m[y] do row[x] = m[y][x]:gsub("[@>$!]", ".") end
    rows[y] = table.concat(row)
  end
  return rows
end

local function check_windows(m, set, n)
  local rows = terrain(m)
  for y = 1, #rows - n + 1 do
    for x = 1, #rows[1] - n + 1 do
      local out = {}
      for dy = 0, n - 1 do out[#out + 1] = rows[y + dy]:sub(x, x + n - 1) end
      local key = table.concat(out)
      assert(set[key], ("window at (%d, %d) is not the sample's: %s"):format(x, y, key))
    end
  end
end

local function check_connected(m, blocked)
  local open = {}
  local cells = 0
  for y = 1, #m do
    for x = 1, #m[y] do
      if not blocked:find(m[y][x], 1, true) then
        open[y * 10000 + x] = true
        cells = cells + 1
      end
    end
  end
  local seen, stack, reached = { [m.player.y * 10000 + m.player.x] = true }, { m.player }, 1
  while #stack > 0 do
    local p = table.remove(stack)
    for _, d in ipairs { { 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 } } do
      local k = (p.y + d[2]) * 10000 + p.x + d[1]
      if open[k] and not seen[k] then
        seen[k], reached = true, reached + 1
        stack[#stack + 1] = { x = p.x + d[1], y = p.y + d[2] }
      end
    end
  end
  assert.are.equal(cells, reached, "cells not reachable from @")
end

-- The built-in samples' texts, read back from levels' windows is not
-- possible: the specs keep their own copies of two, and check the others
-- through the module's refusals and the Rust tests.
local OVERWORLD = [[
~~~~~~~~~~~~~~~~~~~~~~~~
~~~~.....~~~~~......~~~~
~~.........~~.........~~
~.....""""......^^^...~~
~....""""""....^^^^^...~
~....""""""....^^^^....~
~.....""""..........~~~~
~~..........~~~....~~~~~
~~~...""...~~~~~.....~~~
~~~..""""..~~~~......~~~
~~....""....~~...""...~~
~.....................~~
~~...^^^.....""""....~~~
~~~~..........""....~~~~
~~~~~~~~~~~~~~~~~~~~~~~~]]

local ROOMS = [[
##############
#....####....#
#....####....#
#............#
#....####....#
##.######.####
##.######.####
#......#.....#
#............#
#......#.....#
##############]]

describe("example", function()
  it("makes levels whose every window is one of the sample's, connected, on both samples and symmetries", function()
    for _, case in ipairs {
      { OVERWORLD, "#~^", 3, "all", false },
      { OVERWORLD, "#~^", 2, "none", false },
      { ROOMS, "#", 3, "all", false },
      { ROOMS, "#", 3, "rotations", true },
    } do
      local text, blocked, n, symmetry, wraps = (table.unpack or unpack)(case)
      local set = windows(sample_rows(text), n, symmetry, wraps)
      local made = 0
      for seed = 1, 12 do
        local ok, m = pcall(map.generate, { width = 40, height = 24, seed = seed, algorithm = "example",
          sample = text, blocking = blocked, n = n, symmetry = symmetry, wraps = wraps })
        if ok then
          made = made + 1
          check_windows(m, set, n)
          check_connected(m, blocked)
          assert.are.equal(m.blocked, blocked ~= "#" and blocked or nil)
          assert.are.equal(">", m[m.stairs.y][m.stairs.x])
        else
          assert.matches("no level from this sample in %d+ attempts", m)
        end
      end
      assert.is_true(made >= 10, ("only %d of 12 levels made (n = %d, %s)"):format(made, n, symmetry))
    end
  end)

  it("keeps fixed cells exactly, and names a cell it cannot keep", function()
    local vault = '""""\n""""'
    local m = map.generate { width = 40, height = 24, seed = 3, algorithm = "example", sample = OVERWORLD,
      blocking = "#~^", fixed = vault, fixed_x = 10, fixed_y = 8, items = 0 }
    local rows = terrain(m)
    local y = 8
    for row in vault:gmatch("[^\n]+") do
      assert.are.equal(row, rows[y]:sub(10, 13))
      y = y + 1
    end
    check_windows(m, windows(sample_rows(OVERWORLD), 3, "all", false), 3)
    -- A lone plains cell in the sea: no window of the sample has one.
    assert.has_error(function()
      map.generate { width = 40, height = 24, seed = 3, algorithm = "example", sample = OVERWORLD,
        blocking = "#~^", fixed = "~~~\n~.~\n~~~", fixed_x = 10, fixed_y = 8 }
    end, "map.generate: fixed cell (12, 9) '~' cannot be kept: no window of the sample fits around it"
      .. " with the cells fixed before it")
    assert.has_error(function()
      map.generate { width = 40, height = 24, seed = 3, algorithm = "example", sample = ROOMS, fixed = "x",
        fixed_x = 2, fixed_y = 2 }
    end, "map.generate: fixed cell (2, 2) 'x' is not a character of the sample")
    assert.has_error(function()
      map.generate { width = 40, height = 24, seed = 3, algorithm = "example", sample = ROOMS, fixed = "..",
        fixed_x = 40, fixed_y = 2 }
    end, "map.generate: fixed is 2x1 at (40, 2): past the 40x24 map")
  end)

  it("refuses hostile samples with clear messages, at once", function()
    local function refused(sample, message, extra)
      local args = { width = 48, height = 32, seed = 1, algorithm = "example", sample = sample }
      for k, v in pairs(extra or {}) do args[k] = v end
      local t = os.clock()
      assert.has_error(function() map.generate(args) end, "map.generate: " .. message)
      assert.is_true(os.clock() - t < 1)
    end
    refused("", "sample is empty")
    refused("#", "sample is 1x1, smaller than its 3x3 windows")
    refused("#####\n#...#\n####", "sample: row 3 has 4 characters, row 1 has 5")
    refused("#####\n#...#\n#####\n", "a 2000x2000 map from this sample is too large: 3992004 positions x 6 patterns,"
      .. " at most 3145728 (a smaller map, n or sample)",
      { width = 2000, height = 2000 })
    refused(("#"):rep(65) .. "\n" .. ("#"):rep(65), "sample is 65x2: at most 64x64")
    refused(("x"):rep(5000), "sample must be a string of at most 4160 bytes, got 5000 bytes")
    refused(true, "sample must be a string or an array of strings (its rows), got boolean")
    refused("...\n...\n...", 'sample has none of its blocking characters ("#"), which the level\'s border is made of')
    refused("#####\n#####\n#####", "sample must have floor '.' (not blocking), for @ and >")
    refused("caves", 'symmetry must be "none", "rotations" or "all", got "some"', { symmetry = "some" })
    -- Patterns that cannot tile a level: a ring around one floor cell
    -- fits only a 3x3 map; solid rock is all a larger one can be.
    refused("###\n#.#\n###", "no level from this sample in 20 attempts (0 contradictions, 20 cut off or without"
      .. " floor) and 20 attempts to repair: another seed, a larger map or a smaller n may do")
  end)

  it("succeeds on the built-in samples at 48x32 (the first seeds; the 1000 in cargo test --release)", function()
    for _, sample in ipairs { "caves", "caverns", "rooms", "dungeon", "overworld", "maze" } do
      local ok = 0
      for seed = 1, 10 do
        local args = { width = 48, height = 32, seed = seed, algorithm = "example", sample = sample }
        if pcall(map.generate_text, args) then
          ok = ok + 1
        end
      end
      assert.are.equal(10, ok, sample)
    end
  end)

  -- A sample whose edge is not one blocking character (the maze built-in's
  -- inside, drawn here): the level's border is its `#`, imposed through
  -- the windows; cut-off parts repaired (src/generators/example/repair.rs).
  local OPEN_24x16_1 = [[
########################
##.....>################
##.####.##.............#
##.####.##.###########.#
##......##.###########.#
##.#######.##.......##.#
##.#######.##.#####.##.#
##.........##.#####.##.#
#####.#######@##....##.#
#####.#######.##.##.##.#
##....##......##.##.##.#
##.##.##.#######.##.##.#
##.##.##.#######.##.##.#
##....##...............#
########################
########################
]]
  local MAZE_24x16_1 = [[
########################
#####################.##
#..................##.##
###.##############.##.##
###.##############.##.##
#...............##....##
########.######.#####.##
########.######.#####.##
##.##......##@..##....##
##.##.#########.##.##.##
##.##.#########.##.##.##
##.##.##........##.##.##
##.##.##.##.######.##.##
##.##.##.##.######.##.##
##....##.##.....##>...##
########################
]]
  local OPEN = [[
.##....##..........
.##.#####.#####.###
.##.#####.#####.###
.##................
.#################.
.#################.
....##..........##.
###.##.########.##.
###.##.########.##.
.##....##.......##.
.########.########.
.########.########.
...................]]

  it("makes connected levels from a sample without a blocking edge, every window the sample's", function()
    for _, wraps in ipairs { false, true } do
      local set = windows(sample_rows(OPEN), 3, "all", wraps)
      for seed = 1, 12 do
        local m = map.generate { width = 40, height = 24, seed = seed, algorithm = "example", sample = OPEN,
          wraps = wraps }
        check_windows(m, set, 3)
        check_connected(m, "#")
        assert.are.equal(">", m[m.stairs.y][m.stairs.x])
        local rows = terrain(m)
        assert.are.equal(("#"):rep(40), rows[1])
        assert.are.equal(("#"):rep(40), rows[24])
        for y = 1, 24 do
          assert.are.equal("#", rows[y]:sub(1, 1))
          assert.are.equal("#", rows[y]:sub(40, 40))
        end
      end
    end
  end)

  -- A town drawn here: houses (`#`, blocking) are closed rectangles in
  -- grass (`"`) and roads (`.`), so no side of a level can be one run of
  -- house: a border of `#` all round is no window of it, and the level's
  -- inside is made alone (src/generators/example/inside.rs).
  local TOWN = table.concat({
    [[""""."""""""]],
    [["##"."###"""]],
    [["##"."###"""]],
    [[""""."""""""]],
    [[............]],
    [[""".""""."""]],
    [["".""###."""]],
    [["".""###."""]],
    [[""".""""."""]],
  }, "\n")

  -- Made inside the border alone (pinned: it must never change).
  local TOWN_30x14_1 = [[
##############################
##".###".######""""."""""".""#
#""."""".""""""""""."##""."""#
#..............."""."##""."""#
#".""""."""""""".""."""".""""#
#"."##"".""""""""@.........."#
#"."##"""."""""""""""""."""".#
#"."##""".""""""""""###."""""#
#"."""""."""""""""""###."""""#
#"......"""""""""""""""."""""#
#".""."""##""##""""".""""""""#
#".""."""##""##""""".###"""""#
#>""".""""""...."##".###"""""#
##############################
]]

  it("makes the inside alone when the sample's windows cannot meet a border, every window in it the sample's",
    function()
      local set = windows(sample_rows(TOWN), 3, "all", true)
      local made = 0
      for seed = 1, 12 do
        local ok, m = pcall(map.generate, { width = 40, height = 24, seed = seed, algorithm = "example",
          sample = TOWN, wraps = true })
        if ok then
          made = made + 1
          local rows = terrain(m)
          assert.are.equal(("#"):rep(40), rows[1])
          assert.are.equal(("#"):rep(40), rows[24])
          local inside = {}
          for y = 2, 23 do
            assert.are.equal("#", rows[y]:sub(1, 1))
            assert.are.equal("#", rows[y]:sub(40, 40))
            inside[#inside + 1] = { (table.unpack or unpack)(m[y], 2, 39) }
          end
          check_windows(inside, set, 3)
          check_connected(m, "#")
          assert.are.equal(">", m[m.stairs.y][m.stairs.x])
        else
          assert.matches("nor its inside alone", m)
        end
      end
      assert.is_true(made >= 11, ("only %d of 12 levels made"):format(made))
      -- Fixed cells keep their place inside; one on the border must be its `#`.
      local m = map.generate { width = 40, height = 24, seed = 1, algorithm = "example", sample = TOWN,
        wraps = true, fixed = '"""', fixed_x = 5, fixed_y = 6, items = 0 }
      assert.are.equal('"""', terrain(m)[6]:sub(5, 7))
      assert.has_error(function()
        map.generate { width = 40, height = 24, seed = 1, algorithm = "example", sample = TOWN, wraps = true,
          fixed = ".", fixed_x = 1, fixed_y = 6 }
      end, "map.generate: the sample cannot make a 40x24 level with a border of '#' all round; fixed cell (1, 6)"
        .. " '.' is on the border, of '#'")
    end)

  it("gives the same level from a sample without a blocking edge on every interpreter", function()
    local text = map.generate_text { width = 24, height = 16, seed = 1, algorithm = "example", sample = OPEN,
      items = 0 }
    assert.are.equal(OPEN_24x16_1, (text:gsub("\n?$", "\n")))
    text = map.generate_text { width = 24, height = 16, seed = 1, algorithm = "example", sample = "maze", items = 0 }
    assert.are.equal(MAZE_24x16_1, (text:gsub("\n?$", "\n")))
    text = map.generate_text { width = 30, height = 14, seed = 1, algorithm = "example", sample = TOWN, wraps = true,
      items = 0 }
    assert.are.equal(TOWN_30x14_1, (text:gsub("\n?$", "\n")))
  end)

end)
