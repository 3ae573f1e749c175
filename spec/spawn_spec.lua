-- Spawning (issue 36): `place` with `per_room` counts and `choose` by
-- weight, and the `rooms` generator's room sizes. The counts per room and
-- the rules of each placed cell are checked by design_spec's reference
-- (`problem`); here, the weights' frequencies, the sizes and the errors.
local map = require "map"

local function generate_error(opts)
  local ok, err = pcall(map.generate, opts)
  assert.is_false(ok, "no error")
  return (err:gsub("^map%.generate: ", ""))
end

describe("place's choose", function()
  it("draws each character in proportion to its weight, a zero weight never (fixed seeds)", function()
    local count, total = { a = 0, b = 0, c = 0, z = 0 }, 0
    for seed = 1, 150 do
      local m = map.generate { width = 80, height = 50, seed = seed, items = 0,
        place = { { choose = { { "a", 1 }, { "z", 0 }, { "b", 3 }, { "c", 6 } }, per_room = { 2, 4 } } } }
      for _, p in ipairs(m.placed) do
        count[p.char] = count[p.char] + 1
        total = total + 1
      end
    end
    assert.are.equal(0, count.z)
    assert.is_true(total > 3000, total .. " drawn")
    -- Expected shares 0.1, 0.3, 0.6; at these seeds the draws are fixed, and
    -- 0.03 is over 5 standard deviations of a share drawn this many times.
    for char, share in pairs({ a = 0.1, b = 0.3, c = 0.6 }) do
      local got = count[char] / total
      assert.is_true(math.abs(got - share) < 0.03, ("%s: %.4f of %d, not %.1f"):format(char, got, total, share))
    end
  end)

  it("with count, places that many, each a character of positive weight", function()
    local m = map.generate { width = 60, height = 20, seed = 5,
      place = { { choose = { { "M", 0 }, { "g", 1 } }, count = 7 } } }
    assert.are.equal(7, #m.placed)
    for _, p in ipairs(m.placed) do assert.are.equal("g", p.char) end
  end)
end)

describe("place's per_room", function()
  it("puts from least to most in each of the generator's rooms", function()
    for seed = 1, 30 do
      local m = map.generate { width = 80, height = 50, seed = seed, place = { { char = "M", per_room = { 1, 3 } } } }
      local in_room = {}
      for _, p in ipairs(m.placed) do
        for r, room in ipairs(m.rooms) do
          if p.x >= room.x and p.x < room.x + room.w and p.y >= room.y and p.y < room.y + room.h then
            in_room[r] = (in_room[r] or 0) + 1
          end
        end
      end
      local sum = 0
      for r = 1, #m.rooms do
        local n = in_room[r] or 0
        assert.is_true(n >= 1 and n <= 3, ("seed %d room %d holds %d"):format(seed, r, n))
        sum = sum + n
      end
      assert.are.equal(#m.placed, sum)
    end
  end)

  it("is refused on a level of no rooms, before anything is placed", function()
    for _, algorithm in ipairs({ "cave", "cellular", "drunkard", "maze", "overworld" }) do
      assert.are.equal('place[1].per_room applies only to algorithms whose levels have rooms (m.rooms), not to "'
        .. algorithm .. '"', generate_error { width = 60, height = 30, seed = 1, algorithm = algorithm,
          place = { { char = "M", per_room = { 0, 1 } } } })
    end
  end)

  it("counts the free cells of a room too small for its draw", function()
    -- One room of 4x3 cells, @ and > in it: 10 free.
    assert.are.equal('place[1]: cannot place 13 "M" in room 1: only 10 free floor cells',
      generate_error { width = 8, height = 7, seed = 1, items = 0,
        room_min_width = 4, room_max_width = 4, room_min_height = 3, room_max_height = 3,
        place = { { char = "M", per_room = { 13, 13 } } } })
  end)
end)

describe("the rooms generator's room sizes", function()
  it("keep every room within them", function()
    local sizes = { { 6, 10, 6, 10 }, { 2, 3, 2, 2 }, { 12, 20, 4, 9 } }
    for seed = 1, 40 do
      for _, s in ipairs(sizes) do
        local m = map.generate { width = 90, height = 60, seed = seed, rooms = 30,
          room_min_width = s[1], room_max_width = s[2], room_min_height = s[3], room_max_height = s[4] }
        for _, r in ipairs(m.rooms) do
          assert.is_true(r.w >= s[1] and r.w <= s[2] and r.h >= s[3] and r.h <= s[4],
            ("seed %d: room %dx%d"):format(seed, r.w, r.h))
        end
      end
    end
  end)

  it("at their defaults make the map made without them", function()
    local defaults = {}
    for _, o in ipairs(map.describe("rooms").options) do defaults[o.name] = o.default end
    assert.are.same({ 4, 10, 3, 6 }, { defaults.room_min_width, defaults.room_max_width,
      defaults.room_min_height, defaults.room_max_height })
    for seed = 1, 20 do
      local opts = { width = 60, height = 20, seed = seed }
      local plain = map.generate_text(opts)
      for name, value in pairs(defaults) do
        if name:match("^room_") then opts[name] = value end
      end
      assert.are.equal(plain, map.generate_text(opts))
    end
  end)

  it("cut the most down to a small map, and refuse a least that does not fit", function()
    local m = map.generate { width = 9, height = 6, seed = 2, room_max_width = 30, room_max_height = 30 }
    for _, r in ipairs(m.rooms) do assert.is_true(r.w <= 7 and r.h <= 4) end
    assert.are.equal("room_min_width (8) must fit inside the map's border: at most 7 on a map 9 wide",
      generate_error { width = 9, height = 6, room_min_width = 8, room_max_width = 8 })
    assert.are.equal("room_min_height (5) must fit inside the map's border: at most 4 on a map 6 high",
      generate_error { width = 9, height = 6, room_min_height = 5 })
  end)
end)

describe("spawning's hostile values", function()
  local base = { width = 60, height = 20, seed = 1 }
  local function with(extra)
    local t = {}
    for k, v in pairs(base) do t[k] = v end
    for k, v in pairs(extra) do t[k] = v end
    return t
  end
  local many = {}
  for i = 1, 101 do many[i] = { "M", 1 } end
  local cases = {
    { { char = "M", per_room = { 3, 2 } }, "place[1].per_room must be {least, most} with least <= most, got {3, 2}" },
    { { char = "M", per_room = { -1, 2 } }, "place[1].per_room[1] must be an integer from 0 to 10000, got -1" },
    { { char = "M", per_room = { 0, 10001 } }, "place[1].per_room[2] must be an integer from 0 to 10000, got 10001" },
    { { char = "M", per_room = { 0, 1.5 } }, "place[1].per_room[2] must be an integer from 0 to 10000, got 1.5" },
    { { char = "M", per_room = "1" }, "place[1].per_room must be a table {least, most}, got string" },
    { { char = "M", per_room = { 1 } }, "place[1].per_room must be a table {least, most} of two values, got 1 values" },
    { { char = "M", per_room = { 1, 2, 3 } },
      "place[1].per_room must be a table {least, most} of two values, got 3 values" },
    { { char = "M", per_room = { least = 1 } }, 'place[1].per_room must be an array, but has the key "least"' },
    { { char = "M", count = 2, per_room = { 1, 2 } },
      "place[1] gives both count and per_room: one of them says how many" },
    { { choose = 7 }, "place[1].choose must be an array of {char, weight}, got number" },
    { { choose = {} }, "place[1].choose must hold 1 to 100 {char, weight} pairs, got 0" },
    { { choose = many }, "place[1].choose must hold 1 to 100 {char, weight} pairs, got 101" },
    { { choose = { "M" } }, "place[1].choose[1] must be a table {char, weight}, got string" },
    { { choose = { { "M", 1 }, { "#", 1 } } },
      'place[1].choose[2][1] must be one printable ASCII character but # . @ > + and space, got string "#"' },
    { { choose = { { "MM", 1 } } },
      'place[1].choose[1][1] must be one printable ASCII character but # . @ > + and space, got string "MM"' },
    { { choose = { { "M", -1 } } }, "place[1].choose[1][2] must be an integer from 0 to 1000000, got -1" },
    { { choose = { { "M", 1000001 } } }, "place[1].choose[1][2] must be an integer from 0 to 1000000, got 1000001" },
    { { choose = { { "M", "1" } } }, 'place[1].choose[1][2] must be an integer from 0 to 1000000, got string "1"' },
    { { choose = { { "M", 0 }, { "k", 0 } } },
      "place[1].choose must hold {char, weight} pairs with a positive weight among them" },
    { { char = "M", choose = { { "k", 1 } } }, "place[1] gives both char and choose: one of them says what to place" },
  }
  for i, case in ipairs(cases) do
    it("place case " .. i .. ": " .. case[2], function()
      assert.are.equal(case[2], generate_error(with { place = { case[1] } }))
    end)
  end
  it("the room sizes: bounds, order and algorithm", function()
    assert.are.equal("room_min_width must be an integer from 2 to 50, got 1",
      generate_error(with { room_min_width = 1 }))
    assert.are.equal("room_max_height must be an integer from 2 to 50, got 51",
      generate_error(with { room_max_height = 51 }))
    assert.are.equal("room_max_width must be an integer from 2 to 50, got string \"8\"",
      generate_error(with { room_max_width = "8" }))
    assert.are.equal("room_min_width (8) must be at most room_max_width (6)",
      generate_error(with { room_min_width = 8, room_max_width = 6 }))
    assert.are.equal("room_min_height (7) must be at most room_max_height (6)",
      generate_error(with { room_min_height = 7 }))
    assert.are.equal('option room_min_width applies only to algorithm "rooms"',
      generate_error(with { algorithm = "cave", room_min_width = 5 }))
  end)
  it("locks refuse a chosen letter they need", function()
    assert.are.equal('locks = 2 needs the characters A-B and a-b, but place[1].choose holds "b"',
      generate_error(with { locks = 2, place = { { choose = { { "M", 1 }, { "b", 1 } } } } }))
  end)
end)
