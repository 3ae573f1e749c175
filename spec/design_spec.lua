-- Levels a designer directs: vaults, arrive, place, loops and the rooms'
-- exits and links, on every algorithm, on Lua 5.4 and LuaJIT. Each level is
-- checked by this file's own rules, the pure-Lua walking distances of
-- spec/reference/distances.lua and the field of view of spec/reference/fov.lua,
-- not by the module's; golden files (spec/golden_directed/) keep the levels
-- that exist today.
local map = require "map"
local json = require "dkjson"
local support = require "spec.support"
local ref_distances = require("spec.reference.distances").distances
local ref_fov = require("spec.reference.fov").fov

local floor = math.floor

local TEMPLATES = {
  doors = { "#####+#####", "#.........#", "+....M....+", "#.........#", "#####+#####" },
  garden = { "~~~", "~_~", "~~~" },
  spaces = { "# #.#", " ... ", "#.k.#", " ... ", "# #.#" },
  stairs = { "##.##", "#...#", "..>..", "#...#", "##.##" },
  start = { "  @  ", " ... ", "....." },
  maze = { "############", "#....#.....#", "#.##.#.###.#", "+.#..+...#..", "#.#.##.#.#.#", "#...#..#...#",
    "############" },
  -- Spaces outside the shape: the corners, which no entrance reaches.
  round = { "  #.#  ", " ##.## ", "##...##", "#.....#", "##...##", " ##.## ", "  ###  " },
}

-- The cell of template `rows` at (x, y) (1-based) of its copy turned by
-- `rotation`: 0-3 quarter turns clockwise, 4-7 the same after a mirror left
-- to right (the module's numbering, written out case by case).
local function turned(rows, rotation, x, y)
  local w, h = #rows[1], #rows
  local sx, sy
  if rotation == 0 then sx, sy = x, y
  elseif rotation == 1 then sx, sy = y, h + 1 - x
  elseif rotation == 2 then sx, sy = w + 1 - x, h + 1 - y
  elseif rotation == 3 then sx, sy = w + 1 - y, x
  elseif rotation == 4 then sx, sy = w + 1 - x, y
  elseif rotation == 5 then sx, sy = w + 1 - y, h + 1 - x
  elseif rotation == 6 then sx, sy = x, h + 1 - y
  else sx, sy = y, x end
  return rows[sy]:sub(sx, sx)
end

local function in_rect(r, x, y)
  return x >= r.x and x < r.x + r.w and y >= r.y and y < r.y + r.h
end

local function in_vault(m, x, y)
  for _, v in ipairs(m.vaults) do
    if in_rect(v, x, y) then return v end
  end
end

local function shown(opts)
  return json.encode(opts)
end

-- The characters that block walking on `m`: m.blocked, or "#".
local function blocked_on(m)
  local set = {}
  for c in (m.blocked or "#"):gmatch(".") do set[c] = true end
  return set
end

-- The algorithms whose levels are carved from rock (map.describe's blocked
-- is "#", its characters floor and wall; not example's, any character of
-- a sample): those that take vaults and arrive, which dig tunnels through it.
local ROCK = {}
for _, algorithm in ipairs(map.ALGORITHMS) do
  local d = map.describe(algorithm)
  if d.blocked == "#" and d.chars == ".#" then ROCK[#ROCK + 1] = algorithm end
end

-- A problem with the level `m` made from `opts`, or nil.
local function problem(m, opts)
  local w, h = opts.width, opts.height
  local count, blocked = {}, blocked_on(m)
  for y = 1, h do
    for x = 1, w do
      local c = m[y][x]
      count[c] = (count[c] or 0) + 1
      if (x == 1 or y == 1 or x == w or y == h) and not blocked[c] then
        return ("border broken at (%d,%d)"):format(x, y)
      end
    end
  end
  if count["@"] ~= 1 or count[">"] ~= 1 then return "not one @ and one >" end
  if m[m.player.y][m.player.x] ~= "@" or m[m.stairs.y][m.stairs.x] ~= ">" then return "@ or > misplaced" end

  -- Every walkable cell reachable from @.
  local dist = ref_distances(m, m.player)
  for y = 1, h do
    for x = 1, w do
      if not blocked[m[y][x]] and not dist[y][x] then return ("(%d,%d) %q not reachable"):format(x, y, m[y][x]) end
    end
  end

  -- Vaults: their turned templates, inside the border with a cell to spare, a cell apart.
  local first = #m.rooms - #m.vaults
  for k, v in ipairs(m.vaults) do
    local t = opts.vaults[v.index]
    local rows = t.rows
    local tw, th = #rows[1], #rows
    if v.rotation % 2 == 1 then tw, th = th, tw end
    if v.w ~= tw or v.h ~= th then return "vault " .. k .. " has the wrong size" end
    if not t.rotate and v.rotation ~= 0 then return "vault " .. k .. " turned" end
    if v.x < 3 or v.y < 3 or v.x + v.w > w - 1 or v.y + v.h > h - 1 then
      return "vault " .. k .. " too near the border"
    end
    local room = m.rooms[first + k]
    if room.x ~= v.x or room.y ~= v.y or room.w ~= v.w or room.h ~= v.h then
      return "vault " .. k .. " is not its room"
    end
    for j = k + 1, #m.vaults do
      local o = m.vaults[j]
      if not (v.x + v.w < o.x or o.x + o.w < v.x or v.y + v.h < o.y or o.y + o.h < v.y) then
        return ("vaults %d and %d touch"):format(k, j)
      end
    end
    for y = 1, v.h do
      for x = 1, v.w do
        local want, got = turned(rows, v.rotation, x, y), m[v.y + y - 1][v.x + x - 1]
        if want ~= " " and want ~= got then
          return ("vault %d cell (%d,%d) is %q, not %q"):format(k, x, y, got, want)
        end
      end
    end
  end
  for _, item in ipairs(m.items) do
    if in_vault(m, item.x, item.y) then return "an item in a vault" end
  end

  -- @ where arrive says; > a vault's, or the farthest floor outside the vaults.
  if opts.arrive then
    if m.player.x ~= opts.arrive.x or m.player.y ~= opts.arrive.y then return "@ is not on arrive" end
    if not m.up or m.up.x ~= opts.arrive.x or m.up.y ~= opts.arrive.y then return "m.up is not arrive" end
    if not in_vault(m, m.stairs.x, m.stairs.y) then
      local placed = {}
      for _, p in ipairs(m.placed) do placed[(p.y - 1) * w + p.x] = true end
      local floor_like = { ["."] = true, ["$"] = true, ["!"] = true, [">"] = true }
      local best, bx, by = -1
      for y = 1, h do
        for x = 1, w do
          if (floor_like[m[y][x]] or placed[(y - 1) * w + x]) and not in_vault(m, x, y) and dist[y][x] > best then
            best, bx, by = dist[y][x], x, y
          end
        end
      end
      if bx ~= m.stairs.x or by ~= m.stairs.y then return ("> is not the farthest floor (%d,%d)"):format(bx, by) end
    end
  elseif m.up ~= nil then
    return "m.up without arrive"
  end

  -- Placed cells: their own floor cells, far enough, out of sight where asked.
  -- With per_room, each of the generator's rooms (not the vaults) in turn
  -- holds from least to most of them; with choose, a character of positive
  -- weight each.
  local vis = ref_fov(m, m.player.x, m.player.y)
  local k, taken = 0, {}
  for _, entry in ipairs(opts.place or {}) do
    local chars = {}
    for _, c in ipairs(entry.choose or { { entry.char, 1 } }) do chars[c[1]] = chars[c[1]] or c[2] > 0 end
    local groups = { { least = entry.count or 1, most = entry.count or 1 } }
    if entry.per_room then
      groups = {}
      for r = 1, #m.rooms - #m.vaults do
        groups[r] = { least = entry.per_room[1], most = entry.per_room[2], room = m.rooms[r] }
      end
    end
    for _, group in ipairs(groups) do
      local n = 0
      while n < group.most do
        local p = m.placed[k + 1]
        if not p or not chars[p.char] or (group.room and not in_rect(group.room, p.x, p.y)) then break end
        k, n = k + 1, n + 1
        if m[p.y][p.x] ~= p.char then return "placed " .. k .. " is not on the map" end
        if in_vault(m, p.x, p.y) or taken[(p.y - 1) * w + p.x] then return "placed " .. k .. " on a taken cell" end
        taken[(p.y - 1) * w + p.x] = true
        if dist[p.y][p.x] < (entry.min or 0) then return "placed " .. k .. " too near @" end
        if entry.hidden and vis[p.y][p.x] then return "placed " .. k .. " in sight of @" end
      end
      if n < group.least then return ("placed %d: %d of %d wanted"):format(k, n, group.least) end
    end
  end
  if #m.placed ~= k then return "too many placed" end

  -- Doors never touch; exits are walkable ring cells in row order; links symmetric.
  for i, a in ipairs(m.doors) do
    for j = i + 1, #m.doors do
      local b = m.doors[j]
      if math.abs(a.x - b.x) <= 1 and math.abs(a.y - b.y) <= 1 then return "doors touch" end
    end
  end
  for r, room in ipairs(m.rooms) do
    local n = 0
    for y = room.y - 1, room.y + room.h do
      for x = room.x - 1, room.x + room.w do
        local across, down = x >= room.x and x < room.x + room.w, y >= room.y and y < room.y + room.h
        if across ~= down and m[y][x] ~= "#" then
          n = n + 1
          local e = room.exits[n]
          if not e or e.x ~= x or e.y ~= y then return ("room %d exit %d is not (%d,%d)"):format(r, n, x, y) end
        end
      end
    end
    if #room.exits ~= n then return "room " .. r .. " has extra exits" end
    for i, l in ipairs(room.links) do
      if l == r or (i > 1 and l <= room.links[i - 1]) or not m.rooms[l] then return "room " .. r .. " links badly" end
      local back = false
      for _, b in ipairs(m.rooms[l].links) do back = back or b == r end
      if not back then return ("room %d links %d, not back"):format(r, l) end
    end
  end
end

local function check(opts)
  local m = map.generate(opts)
  local why = problem(m, opts)
  assert(not why, shown(opts) .. ": " .. tostring(why))
  return m
end

-- The walk through interior rock from (x, y) to the nearest walkable cell:
-- the cells a shortest tunnel from it carves (0 when it is walkable).
local function rock_walk(m, x, y)
  if m[y][x] ~= "#" then return 0 end
  local h, w = #m, #m[1]
  local seen, queue, head = { [(y - 1) * w + x] = 1 }, { { x, y } }, 1
  while queue[head] do
    local cx, cy = queue[head][1], queue[head][2]
    local d = seen[(cy - 1) * w + cx]
    head = head + 1
    for _, s in ipairs({ { 0, -1 }, { -1, 0 }, { 1, 0 }, { 0, 1 } }) do
      local nx, ny = cx + s[1], cy + s[2]
      if m[ny] and m[ny][nx] and m[ny][nx] ~= "#" then return d end
      if nx > 1 and ny > 1 and nx < w and ny < h and not seen[(ny - 1) * w + nx] then
        seen[(ny - 1) * w + nx] = d + 1
        queue[#queue + 1] = { nx, ny }
      end
    end
  end
end

local rand = support.generator(20261201)

describe("vaults", function()
  for _, algorithm in ipairs(ROCK) do
    it(algorithm .. ": copies turned and exact, a cell apart, every walkable cell reachable (40 levels)", function()
      local placed = 0
      for seed = 1, 40 do
        local vaults = {
          { rows = TEMPLATES.doors, rotate = seed % 2 == 0, required = false },
          { rows = TEMPLATES.garden, count = 1 + seed % 3, rotate = true, required = false },
          { rows = TEMPLATES.spaces, count = 2, rotate = seed % 3 == 0, required = false },
          { rows = TEMPLATES.maze, rotate = true, required = false },
        }
        if seed % 4 == 0 then vaults[#vaults + 1] = { rows = TEMPLATES.stairs, rotate = true, required = false } end
        if seed % 5 == 0 then vaults[#vaults + 1] = { rows = TEMPLATES.start, required = false } end
        local m = check { width = 50 + seed, height = 24 + seed % 9, seed = seed, algorithm = algorithm,
          vaults = vaults }
        placed = placed + #m.vaults
      end
      assert.is_true(placed >= 120, placed .. " vaults placed")
    end)
  end

  it("a round vault (spaces at its corners) is placed on every algorithm, everything reachable", function()
    for _, algorithm in ipairs(ROCK) do
      local placed = 0
      for seed = 1, 10 do
        local m = check { width = 60 + seed, height = 30, seed = seed, algorithm = algorithm,
          vaults = { { rows = TEMPLATES.round, count = 2, rotate = true } } }
        placed = placed + #m.vaults
      end
      assert.are.equal(20, placed, algorithm)
    end
  end)

  it("a space walled in by the template's own walls is refused", function()
    local ok, err = pcall(map.generate, { width = 40, height = 20, seed = 1,
      vaults = { { rows = { "#.###", "#.# #", "#####" } } } })
    assert.is_false(ok)
    assert.are.equal("map.generate: vaults[1]: its cell (4,2) is walled in (no entrance reaches it)", err)
  end)

  it("a vault's @ and > are the level's", function()
    for _, algorithm in ipairs(ROCK) do
      for seed = 1, 10 do
        local opts = { width = 60, height = 30, seed = seed, algorithm = algorithm,
          vaults = { { rows = TEMPLATES.stairs, rotate = true }, { rows = TEMPLATES.start } } }
        local m = check(opts)
        local s, p = in_vault(m, m.stairs.x, m.stairs.y), in_vault(m, m.player.x, m.player.y)
        assert.is_truthy(s and opts.vaults[s.index].rows == TEMPLATES.stairs, shown(opts))
        assert.is_truthy(p and opts.vaults[p.index].rows == TEMPLATES.start, shown(opts))
      end
    end
  end)

  it("a required vault that does not fit is named; one not required is skipped", function()
    local big = { rows = { string.rep(".", 30) } }
    local ok, err = pcall(map.generate, { width = 30, height = 12, seed = 1, vaults = { { rows = { "." } }, big } })
    assert.is_false(ok)
    assert.are.equal("map.generate: vault 2 does not fit in 30x12", err)
    big.required = false
    local m = map.generate({ width = 30, height = 12, seed = 1, vaults = { { rows = { "." } }, big } })
    assert.are.equal(1, #m.vaults)
  end)
end)

describe("arrive", function()
  for _, algorithm in ipairs(ROCK) do
    it(algorithm .. ": @ and an up staircase there, one shortest tunnel, nothing else changed (60 levels)", function()
      local d = map.describe(algorithm)
      for seed = 1, 60 do
        local w, h = math.max(d.min_width, 8) + rand(50), math.max(d.min_height, 6) + rand(30)
        local x, y = 1 + rand(w - 2), 1 + rand(h - 2)
        local plain = { width = w, height = h, seed = seed, algorithm = algorithm, items = 0 }
        local before = map.generate(plain)
        plain.arrive = { x = x, y = y }
        local after = check(plain)
        local carved = 0
        for cy = 1, h do
          for cx = 1, w do
            local was, is = before[cy][cx] ~= "#", after[cy][cx] ~= "#"
            assert(not was or is, shown(plain) .. ": a cell walled")
            if is and not was then carved = carved + 1 end
          end
        end
        assert.are.equal(rock_walk(before, x, y), carved, shown(plain))
      end
    end)
  end

  it("stacks levels: each level's up staircase is the > of the one above", function()
    local above
    for depth = 1, 6 do
      local algorithm = map.ALGORITHMS[(depth - 1) % #map.ALGORITHMS + 1]
      local opts = { width = 70, height = 30, seed = 100 + depth, algorithm = algorithm }
      if above then opts.arrive = { x = above.stairs.x, y = above.stairs.y } end
      local m = check(opts)
      if above then assert.are.same(above.stairs, m.up) end
      above = m
    end
  end)
end)

describe("place", function()
  for _, algorithm in ipairs(map.ALGORITHMS) do
    -- An open world (not carved from rock) hides little from sight that
    -- stops at # and +: there, min alone.
    local hidden = map.describe(algorithm).hides or nil
    it(algorithm .. ": min and hidden hold by the reference walk and sight (40 levels)", function()
      local placed = 0
      for seed = 1, 40 do
        local opts = { width = 60 + seed % 20, height = 30 + seed % 10, seed = seed, algorithm = algorithm,
          place = { { char = "M", count = 4, min = 8, hidden = hidden }, { char = "k", count = 3, min = 3 },
            { char = "&", count = 2, hidden = hidden } } }
        local ok, m = pcall(check, opts)
        if ok then
          placed = placed + #m.placed
        else
          assert.matches("cannot place %d+ \"[Mk&]\": only %d+ free floor cells", m)
        end
      end
      assert.is_true(placed >= 40 * 9 * 0.8, placed .. " placed")
    end)
  end

  -- Rooms: the generators whose levels have some (m.rooms not empty).
  for _, algorithm in ipairs({ "rooms", "bsp" }) do
    it(algorithm .. ": per_room counts and choose hold by the reference (60 levels)", function()
      local placed = 0
      for seed = 1, 60 do
        local opts = { width = 70, height = 40, seed = seed, algorithm = algorithm,
          vaults = seed % 3 == 0 and { { rows = { "...", ".#.", "..." } } } or nil,
          place = { { choose = { { "o", 4 }, { "T", 1 }, { "D", 0 } }, per_room = { seed % 2, 2 + seed % 2 }, min = 2 },
            { char = "k", count = 2, hidden = true }, { char = "&", per_room = { 0, 1 } } } }
        local ok, m = pcall(check, opts)
        if ok then
          placed = placed + #m.placed
        else
          assert.matches("cannot place %d+ [^:]+: only %d+ free floor cells", m)
        end
      end
      assert.is_true(placed >= 60 * 6, placed .. " placed")
    end)
  end

  it("too few candidates says how many there were, as the reference counts them", function()
    local refused = 0
    for seed = 1, 30 do
      local opts = { width = 40, height = 20, seed = seed, algorithm = "cave", items = 0,
        place = { { char = "g", count = 2 }, { char = "M", count = 120, min = 15, hidden = true } } }
      local ok, err = pcall(map.generate, opts)
      if not ok then
        refused = refused + 1
        local found = tonumber(err:match("^map%.generate: place%[2%]: cannot place 120 \"M\": only (%d+) free floor "
          .. "cells at walking distance >= 15 from @ and hidden from it$"))
        assert.is_truthy(found, err)
        opts.place[2] = nil
        local m = map.generate(opts)
        local dist, vis = ref_distances(m, m.player), ref_fov(m, m.player.x, m.player.y)
        local n = 0
        for y = 1, #m do
          for x = 1, #m[1] do
            if m[y][x] == "." and dist[y][x] and dist[y][x] >= 15 and not vis[y][x] then n = n + 1 end
          end
        end
        assert.are.equal(n, found, shown(opts))
      end
    end
    assert.is_true(refused > 10, refused .. " refused")
  end)
end)

describe("rooms that know their exits, and loops", function()
  it("every room of every algorithm gets exits and symmetric links", function()
    for _, algorithm in ipairs(ROCK) do
      for seed = 1, 10 do
        local opts = { width = 80, height = 40, seed = seed, algorithm = algorithm,
          vaults = { { rows = TEMPLATES.doors, count = 2, rotate = true, required = false } } }
        local m = check(opts)
        for _, room in ipairs(m.rooms) do assert.is_table(room.exits) assert.is_table(room.links) end
      end
    end
  end)

  it("loops add links between rooms not linked before; loops = 0 changes nothing", function()
    for _, algorithm in ipairs({ "rooms", "bsp" }) do
      local more = 0
      for seed = 1, 20 do
        local opts = { width = 80, height = 40, seed = seed, algorithm = algorithm }
        local function links(m)
          local n = 0
          for _, room in ipairs(m.rooms) do n = n + #room.links end
          return n
        end
        local base = check(opts)
        opts.loops = 0
        assert.are.equal(map.render(base), map.generate_text(opts))
        opts.loops = 3
        local looped = check(opts)
        assert.is_true(links(looped) >= links(base))
        if links(looped) > links(base) then more = more + 1 end
      end
      assert.is_true(more >= 15, algorithm .. ": loops added links on " .. more .. " of 20")
    end
  end)
end)

describe("golden directed levels", function()
  local cases = json.decode(support.read_file("spec/golden_directed/cases.json"))
  it("cover vaults, arrive, place, loops, doors, per_room, choose and room sizes", function()
    local text = support.read_file("spec/golden_directed/cases.json")
    local options = { "vaults", "arrive", "place", "loops", "doors", "per_room", "choose", "room_max_width" }
    for _, option in ipairs(options) do
      assert.truthy(text:find('"' .. option .. '"', 1, true), option)
    end
  end)
  for _, case in ipairs(cases) do
    it(case.name .. " is unchanged", function()
      local m = check(case.options)
      assert.are.equal(support.read_file("spec/golden_directed/" .. case.name .. ".txt"), map.render(m))
      assert.are.equal(map.render(m), map.generate_text(case.options))
    end)
  end
end)

describe("vaults, arrive and place through generate_text and generate_json", function()
  it("give the level generate gives", function()
    local opts = { width = 70, height = 30, seed = 4, algorithm = "bsp", doors = true, loops = 2,
      arrive = { x = 10, y = 10 }, vaults = { { rows = TEMPLATES.doors, rotate = true, count = 2 } },
      place = { { char = "M", count = 5, min = 6, hidden = true } } }
    local m = check(opts)
    assert.are.equal(map.render(m), map.generate_text(opts))
    local v = json.decode(map.generate_json(opts))
    for _, field in ipairs({ "rooms", "doors", "player", "stairs", "items", "vaults", "placed", "up" }) do
      assert.are.same(m[field], v[field], field)
    end
    assert.are.equal(floor(#map.render(m)), #table.concat(v.rows, "\n"))
  end)
end)
