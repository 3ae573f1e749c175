-- Every generator in map.ALGORITHMS, driven by map.describe: a generator
-- registered later is tested here without editing this file. Each map is
-- checked by this file's own rules and the pure-Lua walking distances of
-- spec/reference/distances.lua, not by map.reachable; golden files keep every
-- map that exists today. Runs on Lua 5.4 and LuaJIT (see .busted). A family's
-- own checks: rooms_spec.lua, caves_spec.lua.
local map = require "map"
local json = require "dkjson"
local support = require "spec.support"
local ref_distances = require("spec.reference.distances").distances
local locks_problem = require("spec.reference.locks").problem

local floor = math.floor
local count_cells = support.count_cells
local unpack = table.unpack or unpack

-- Promises only some generators make (see the README).
-- `>` on the floor cell farthest from `@` by walking distance, first in row order.
local STAIRS_FARTHEST = { cave = true, cellular = true, drunkard = true, maze = true }
-- `>` on the land cell (plains or forest) farthest from `@`, first in row order.
local STAIRS_FARTHEST_LAND = { overworld = true }
-- `>` on the room cell farthest from `@` by walking distance, first in row order.
local STAIRS_FARTHEST_ROOM_CELL = { bsp = true }
-- `>` in the last room of m.rooms.
local STAIRS_IN_LAST_ROOM = { rooms = true }
-- `@` at the centre of m.rooms[1].
local CENTRE_START = { rooms = true, bsp = true }
-- m.rooms neither overlap nor touch: a wall between any two.
local ROOMS_APART = { rooms = true, bsp = true }
-- Carves exactly round(fill * interior) cells, halves up: every non-# cell.
local FILL_EXACT = { cave = true, drunkard = true }
-- With this option at 0 the map is a tree.
local TREE_WHEN_ZERO = { maze = "braid" }
-- The smallest map each generator is tested at is min_width x min_height,
-- without items (it may hold no more than @ and >), but for these, with the
-- options they need there:
local SMALLEST = {
  -- 3x3 has one interior cell, too few for @ and > at any fill (caves_spec
  -- checks the error); 3x5 has 3, and the default fill carves round(1.5) = 2.
  cave = { 3, 5 },
  -- 2 interior cells: fill 0.75 carves round(1.5) = 2, the default 0.4 only 1.
  drunkard = { 4, 3, fill = 0.75 },
}

local DESCRIPTION = {}
for _, name in ipairs(map.ALGORITHMS) do DESCRIPTION[name] = map.describe(name) end

-- The option called `name` of `algorithm`, as map.describe lists it (or nil).
local function option_of(algorithm, name)
  for _, option in ipairs(DESCRIPTION[algorithm].options) do
    if option.name == name then return option end
  end
end

-- The smallest size a generator is tested at, and the options it needs there.
local function smallest(algorithm)
  local size = SMALLEST[algorithm] or { DESCRIPTION[algorithm].min_width, DESCRIPTION[algorithm].min_height }
  local opts = { items = 0 }
  for k, v in pairs(size) do
    if type(k) == "string" then opts[k] = v end
  end
  return size[1], size[2], opts
end

-- The generate{} options for one map: the base ones plus those of each
-- table given (nil ones skipped), later ones winning.
local function request(algorithm, w, h, seed, ...)
  local opts = { width = w, height = h, seed = seed, algorithm = algorithm }
  for i = 1, select("#", ...) do
    for k, v in pairs(select(i, ...) or {}) do opts[k] = v end
  end
  return opts
end

-- `opts` as text for messages: "bsp 30x12 seed 5 doors=true".
local function shown(opts)
  local extra = {}
  for k, v in pairs(opts) do
    if k ~= "width" and k ~= "height" and k ~= "seed" and k ~= "algorithm" then
      extra[#extra + 1] = k .. "=" .. tostring(v)
    end
  end
  table.sort(extra)
  return ("%s %dx%d seed %s %s"):format(opts.algorithm, opts.width, opts.height,
    string.format("%d", opts.seed), table.concat(extra, " "))
end

-- An option's value in `opts`, or its default (nil for a size-dependent default).
local function value_of(opts, name)
  if opts[name] ~= nil then return opts[name] end
  local option = option_of(opts.algorithm, name)
  return option and option.default
end

-- The map's cells as one flat array, index (y-1)*w + x.
local function flatten(m, w, h)
  local c = {}
  for y = 1, h do
    local row, base = m[y], (y - 1) * w
    for x = 1, w do c[base + x] = row[x] end
  end
  return c
end

local function in_room(room, x, y)
  return x >= room.x and x < room.x + room.w and y >= room.y and y < room.y + room.h
end

local function centre(room)
  return { x = room.x + floor((room.w - 1) / 2), y = room.y + floor((room.h - 1) / 2) }
end

-- For a door at (x, y): the step into `room` when the cell is on the room's
-- wall ring, corners left out (so it touches exactly one of its edges).
local function ring_step(room, x, y)
  local across = x >= room.x and x < room.x + room.w
  local down = y >= room.y and y < room.y + room.h
  if across and y == room.y - 1 then return 0, 1 end
  if across and y == room.y + room.h then return 0, -1 end
  if down and x == room.x - 1 then return 1, 0 end
  if down and x == room.x + room.w then return -1, 0 end
end

-- The first cell index with the largest distance among the cells `counts`
-- accepts, in row order.
local function farthest(c, dist, counts)
  local best
  for i = 1, #c do
    if dist[i] and counts(i) and (not best or dist[i] > dist[best]) then best = i end
  end
  return best
end

-- The characters a level of `algorithm` may hold: its terrain's
-- (map.describe's chars), what stands on it, and `+` where doors are on.
local function allowed_cells(algorithm, doors)
  local cells = { ["@"] = true, [">"] = true, ["$"] = true, ["!"] = true, ["+"] = doors or nil }
  for c in DESCRIPTION[algorithm].chars:gmatch(".") do cells[c] = true end
  return cells
end

-- The characters that block walking on `algorithm`'s levels.
local function blocked_cells(algorithm)
  local cells = {}
  for c in DESCRIPTION[algorithm].blocked:gmatch(".") do cells[c] = true end
  return cells
end

-- Checks the rooms: inside the border, floor (or what stands on it), apart
-- where the generator promises it.
local function rooms_problem(m, c, algorithm, w, h)
  local rooms = m.rooms
  if type(rooms) ~= "table" then return "m.rooms is not a table" end
  for i, r in ipairs(rooms) do
    if not (r.w >= 1 and r.h >= 1 and r.x >= 2 and r.y >= 2 and r.x + r.w <= w and r.y + r.h <= h) then
      return ("room %d (%d,%d %dx%d) is not inside the border"):format(i, r.x, r.y, r.w, r.h)
    end
    for y = r.y, r.y + r.h - 1 do
      for x = r.x, r.x + r.w - 1 do
        if c[(y - 1) * w + x] == "#" or c[(y - 1) * w + x] == "+" then
          return ("room %d has %s at (%d,%d)"):format(i, c[(y - 1) * w + x], x, y)
        end
      end
    end
    if ROOMS_APART[algorithm] then
      for j = i + 1, #rooms do
        local b = rooms[j]
        if not (r.x + r.w < b.x or b.x + b.w < r.x or r.y + r.h < b.y or b.y + b.h < r.y) then
          return ("rooms %d and %d overlap or touch"):format(i, j)
        end
      end
    end
  end
  if CENTRE_START[algorithm] then
    if #rooms == 0 then return "no rooms" end
    local at = centre(rooms[1])
    if at.x ~= m.player.x or at.y ~= m.player.y then
      return ("@ at (%d,%d), not at the first room's centre (%d,%d)"):format(m.player.x, m.player.y, at.x, at.y)
    end
  end
  if STAIRS_IN_LAST_ROOM[algorithm] and not in_room(rooms[#rooms], m.stairs.x, m.stairs.y) then
    return "> not in the last room"
  end
end

-- Checks the doors of a map made with doors = true: each `+` on a room's wall
-- ring, walkable across the wall, wall along it (an opening); and, taking the
-- openings in row order, each with the cell in front of it (outside the
-- first room whose ring has it open), an opening is a door exactly when
-- neither it nor its front touches (8 neighbours) a door taken before or
-- that door's front. So no two doors touch.
local function doors_problem(m, c, w)
  local rooms = m.rooms
  local function opening(i, dx, dy)
    local across, along = dx + dy * w, dy + dx * w
    return c[i + across] ~= "#" and c[i - across] ~= "#" and c[i + along] == "#" and c[i - along] == "#"
  end
  local free = { ["."] = true, ["$"] = true, ["!"] = true, [">"] = true, ["+"] = true }
  local openings = {}
  for i = 1, #c do
    local x, y = (i - 1) % w + 1, floor((i - 1) / w) + 1
    local front
    for _, room in ipairs(rooms) do
      if in_room(room, x, y) then
        if c[i] == "+" then return ("door (%d,%d) inside a room"):format(x, y) end
        front = nil
        break
      end
      local dx, dy = ring_step(room, x, y)
      if dx and not front and opening(i, dx, dy) then front = i - (dx + dy * w) end
    end
    if c[i] == "+" and not front then
      return ("door (%d,%d) is not an opening in a room's wall"):format(x, y)
    end
    if front and free[c[i]] then openings[#openings + 1] = { i, front } end
  end
  local function touch(a, b)
    local ax, ay, bx, by = (a - 1) % w, floor((a - 1) / w), (b - 1) % w, floor((b - 1) / w)
    return math.abs(ax - bx) <= 1 and math.abs(ay - by) <= 1
  end
  local doors = {}
  for _, o in ipairs(openings) do
    local clear = true
    for _, d in ipairs(doors) do
      if touch(o[1], d[1]) or touch(o[1], d[2]) or touch(o[2], d[1]) or touch(o[2], d[2]) then
        clear = false
        break
      end
    end
    local x, y = (o[1] - 1) % w + 1, floor((o[1] - 1) / w) + 1
    if clear and c[o[1]] ~= "+" then return ("opening (%d,%d) in a room's wall has no door"):format(x, y) end
    if not clear and c[o[1]] == "+" then return ("door (%d,%d) touches another door or its front"):format(x, y) end
    if clear then doors[#doors + 1] = o end
  end
end

-- Everything every generator promises about `m`, made from `opts`, and the
-- promises of its own; returns a message on the first broken one.
local function problem(m, opts)
  local algorithm, w, h = opts.algorithm, opts.width, opts.height
  if m.width ~= w or m.height ~= h or m.algorithm ~= algorithm or m.seed ~= opts.seed then
    return ("metadata %s %s %s %s"):format(tostring(m.width), tostring(m.height), tostring(m.algorithm),
      tostring(m.seed))
  end
  if #m ~= h then return "has " .. #m .. " rows" end
  local blocked_chars = DESCRIPTION[algorithm].blocked
  if m.blocked ~= (blocked_chars ~= "#" and blocked_chars or nil) then
    return ("m.blocked is %s, describe says %q"):format(tostring(m.blocked), blocked_chars)
  end
  local doors_on = value_of(opts, "doors") == true
  local allowed, blocked = allowed_cells(algorithm, doors_on), blocked_cells(algorithm)
  if ((value_of(opts, "locks") or 0) > 0) ~= (m.locks ~= nil) then return "m.locks is not there with locks" end
  if m.locks then
    -- Its doors and keys (spec/locks_spec.lua has the rest).
    for _, lock in ipairs(m.locks) do allowed[lock.door.char], allowed[lock.key.char] = true, true end
    local why = locks_problem(m)
    if why then return "locks: " .. why end
  end
  local count = { ["#"] = 0, ["."] = 0, ["@"] = 0, [">"] = 0, ["$"] = 0, ["!"] = 0, ["+"] = 0 }
  local walls = 0
  for y = 1, h do
    local row = m[y]
    if type(row) ~= "table" or #row ~= w then return "row " .. y .. " is not " .. w .. " cells" end
    for x = 1, w do
      local cell = row[x]
      if not allowed[cell] then return ("stray cell %q at (%d,%d)"):format(tostring(cell), x, y) end
      if (x == 1 or y == 1 or x == w or y == h) and not blocked[cell] then
        return ("border broken at (%d,%d)"):format(x, y)
      end
      count[cell] = (count[cell] or 0) + 1
      if blocked[cell] then walls = walls + 1 end
    end
  end
  if count["@"] ~= 1 or count[">"] ~= 1 then return ("%d @ and %d >"):format(count["@"], count[">"]) end
  local c = flatten(m, w, h)
  local function index(p) return (p.y - 1) * w + p.x end
  if type(m.player) ~= "table" or c[index(m.player)] ~= "@" then return "m.player is not the @" end
  if type(m.stairs) ~= "table" or c[index(m.stairs)] ~= ">" then return "m.stairs is not the >" end

  local items = value_of(opts, "items")
  if #m.items ~= items or count["$"] + count["!"] ~= items then
    return ("%d items listed, %d on the map, %d wanted"):format(#m.items, count["$"] + count["!"], items)
  end
  local taken = {}
  for _, item in ipairs(m.items) do
    if (item.kind ~= "$" and item.kind ~= "!") or c[index(item)] ~= item.kind or taken[index(item)] then
      return ("item %s at (%d,%d) is not on its own cell"):format(tostring(item.kind), item.x, item.y)
    end
    taken[index(item)] = true
  end

  if type(m.doors) ~= "table" or #m.doors ~= count["+"] then return "m.doors does not list the + cells" end
  local last = 0
  for _, door in ipairs(m.doors) do
    if c[index(door)] ~= "+" or index(door) <= last then return "m.doors is not the + cells in row order" end
    last = index(door)
  end

  local dist, reached = flatten(ref_distances(m, m.player), w, h), 0
  for i = 1, #dist do
    if dist[i] then reached = reached + 1 end
  end
  if reached ~= w * h - walls then
    for i = 1, #c do
      if not blocked[c[i]] and not dist[i] then
        return ("%s at (%d,%d) is not reachable from @"):format(c[i], (i - 1) % w + 1, floor((i - 1) / w) + 1)
      end
    end
  end

  local why = rooms_problem(m, c, algorithm, w, h)
  if why then return why end
  if doors_on then
    why = doors_problem(m, c, w)
    if why then return why end
  end

  local want
  if STAIRS_FARTHEST[algorithm] then
    local floor_cells = { ["."] = true, ["$"] = true, ["!"] = true, [">"] = true }
    want = farthest(c, dist, function(i) return floor_cells[c[i]] end)
  elseif STAIRS_FARTHEST_LAND[algorithm] then
    local land = { ["."] = true, ['"'] = true, ["$"] = true, ["!"] = true, [">"] = true }
    want = farthest(c, dist, function(i) return land[c[i]] end)
  elseif STAIRS_FARTHEST_ROOM_CELL[algorithm] then
    local room_cell = {}
    for _, r in ipairs(m.rooms) do
      for y = r.y, r.y + r.h - 1 do
        for x = r.x, r.x + r.w - 1 do room_cell[(y - 1) * w + x] = true end
      end
    end
    want = farthest(c, dist, function(i) return room_cell[i] and c[i] ~= "@" end)
  end
  if want and want ~= index(m.stairs) then
    return ("> at (%d,%d) (walk %d), the farthest is (%d,%d) (walk %d)"):format(m.stairs.x, m.stairs.y,
      dist[index(m.stairs)], (want - 1) % w + 1, floor((want - 1) / w) + 1, dist[want])
  end

  if FILL_EXACT[algorithm] then
    local target = floor(value_of(opts, "fill") * ((w - 2) * (h - 2)) + 0.5)
    if w * h - count["#"] ~= target then
      return ("carved %d cells, fill wants %d"):format(w * h - count["#"], target)
    end
  end

  local tree_option = TREE_WHEN_ZERO[algorithm]
  if tree_option and value_of(opts, tree_option) == 0 then
    local pairs_ = 0
    for i = 1, #c do
      if c[i] ~= "#" then
        if c[i + 1] ~= "#" then pairs_ = pairs_ + 1 end
        if c[i + w] and c[i + w] ~= "#" then pairs_ = pairs_ + 1 end
      end
    end
    if w * h - count["#"] - 1 ~= pairs_ then
      return ("not a tree: %d open cells, %d adjacent pairs"):format(w * h - count["#"], pairs_)
    end
  end
end

-- Generates from `opts` and asserts every promise. A map too small for the
-- items asked for (a thin strip of cave) may refuse them: then the message
-- must tell the truth, checked on the same map made without items.
local function check(opts)
  local ok, m = pcall(map.generate, opts)
  if not ok then
    local wanted, free = m:match("^map%.generate: cannot place (%d+) items: only (%d+) free floor cells$")
    assert(wanted, shown(opts) .. ": " .. m)
    local bare = {}
    for k, v in pairs(opts) do bare[k] = v end
    bare.items = 0
    local empty = check(bare)
    local floor_cells = count_cells(empty, ".")
    assert(floor_cells == tonumber(free) and floor_cells < tonumber(wanted), shown(opts) .. ": " .. m)
    return empty, true
  end
  local why = problem(m, opts)
  assert(not why, shown(opts) .. ": " .. tostring(why))
  return m
end

-- The n-th test seed: the extremes first, then spread out.
local EXTREMES = { 0, -1, 2 ^ 53, -2 ^ 53, 2 ^ 53 - 1 }
local function seed_at(n, salt)
  return EXTREMES[n] or (n * 7919 + salt * 104729) % 1000003 - 500000
end

-- The sizes each generator is swept over, with how many seeds: at least 500
-- maps per generator, from its smallest size up to 80x50.
local function sweep_sizes(algorithm)
  local w, h, small = smallest(algorithm)
  return {
    { w, h, 100, opts = small },
    { w, 40, 80 }, { 40, h, 80 }, { w + 3, h + 2, 80 }, { 30, 12, 110, roomy = true }, { 80, 50, 60, roomy = true },
  }
end

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

describe("every generator", function()
  for _, algorithm in ipairs(map.ALGORITHMS) do
    it(algorithm .. ": every option given at its default changes nothing", function()
      for _, size in ipairs({ { 30, 12 }, { 80, 50 } }) do
        for seed = 1, 3 do
          local base = request(algorithm, size[1], size[2], seed)
          local expected = map.generate_text(base)
          for _, o in ipairs(DESCRIPTION[algorithm].options) do
            -- A default that depends on the size (max_frontier: min(width, height)).
            local default = o.default
            if default == nil and o.default_text == "min(width, height)" then default = math.min(size[1], size[2]) end
            assert(default ~= nil, algorithm .. " option " .. o.name .. ": no default")
            assert.are.equal(expected, map.generate_text(request(algorithm, size[1], size[2], seed,
              { [o.name] = default })), shown(base) .. " " .. o.name)
          end
        end
      end
    end)

    it(algorithm .. ": 500+ maps from the smallest size to 80x50 keep every promise", function()
      local maps, itemless = 0, 0
      for salt, size in ipairs(sweep_sizes(algorithm)) do
        for n = 1, size[3] do
          local _, refused = check(request(algorithm, size[1], size[2], seed_at(n, salt), size.opts))
          maps = maps + 1
          if refused then itemless = itemless + 1 end
          -- Only thin maps may be too small for the items.
          assert(not (refused and size.roomy), ("%s %dx%d: too small for 5 items"):format(algorithm, size[1], size[2]))
        end
      end
      assert.is_true(maps >= 500)
      assert.is_true(itemless < maps / 2, itemless .. " maps too small for 5 items")
    end)

    it(algorithm .. ": items fill the free floor exactly, one more is an error", function()
      local w, h, small = smallest(algorithm)
      for _, size in ipairs({ { w, h, opts = small }, { 30, 12 } }) do
        for seed = 1, 5 do
          local empty = check(request(algorithm, size[1], size[2], seed, size.opts, { items = 0 }))
          local free = count_cells(empty, ".")
          local full = check(request(algorithm, size[1], size[2], seed, size.opts, { items = free }))
          for y, row in ipairs(full) do
            for x, cell in ipairs(row) do
              local before = empty[y][x]
              assert(cell == before or (before == "." and (cell == "$" or cell == "!")), "items moved the map")
              assert(cell ~= ".", "a free cell left")
            end
          end
          local one_more = request(algorithm, size[1], size[2], seed, size.opts, { items = free + 1 })
          local ok, err = pcall(map.generate, one_more)
          assert.is_false(ok)
          assert.matches("^map%.generate: cannot place " .. (free + 1) .. " items", err)
        end
      end
    end)

    it(algorithm .. ": every option at its bounds, and just past them", function()
      local w, h, small = smallest(algorithm)
      for _, o in ipairs(DESCRIPTION[algorithm].options) do
        local accepted, refused
        if o.type == "boolean" then
          accepted = { true, false }
          refused = { 1, "true" }
        elseif o.type == "integer" then
          accepted = { o.min, o.max }
          refused = { o.min - 1, o.max + 1 }
        elseif o.type == "string" then
          -- Its length is the registry's bound; its meaning the generator's (spec/example_spec.lua).
          accepted = {}
          refused = { o.default .. ("x"):rep(o.max + 1 - #o.default), 1 }
        else
          accepted = { o.max, o.open_min and o.min + (o.max - o.min) * 1e-6 or o.min }
          refused = { o.max + (o.max - o.min) / 2, o.open_min and o.min or o.min - 1 }
        end
        local range = "^map%.generate: " .. o.name .. " must be "
        for _, size in ipairs({ { w, h, opts = small }, { 30, 12 } }) do
          for seed = 1, 4 do
            for _, value in ipairs(accepted) do
              local opts = request(algorithm, size[1], size[2], seed, size.opts, { items = 0 }, { [o.name] = value })
              local ok, m = pcall(map.generate, opts)
              if ok then
                local why = problem(m, opts)
                assert(not why, shown(opts) .. ": " .. tostring(why))
              else
                -- In range, but the map may be too small for what it asks
                -- (all the items, or a fill too thin for @ and >).
                assert.is_nil(m:find(range), shown(opts) .. ": " .. m)
                assert.matches("^map%.generate: ", m)
              end
            end
          end
        end
        for _, value in ipairs(refused) do
          local ok, err = pcall(map.generate, request(algorithm, 30, 12, 1, { [o.name] = value }))
          assert.is_false(ok, o.name .. " = " .. tostring(value))
          assert.matches(range, err)
        end
      end
    end)

    it(algorithm .. ": generate_text and generate_json agree with generate", function()
      local w, h, small = smallest(algorithm)
      local extras = { {} }
      if option_of(algorithm, "doors") then extras[2] = { doors = true } end
      for _, extra in ipairs(extras) do
        for _, size in ipairs({ { w, h, opts = small }, { 30, 12 }, { 80, 50 } }) do
          for seed = 1, 4 do
            local opts = request(algorithm, size[1], size[2], seed, size.opts, extra)
            local m = check(opts)
            local text = map.render(m)
            assert.are.equal(text, map.generate_text(opts), shown(opts))
            assert.are.equal(text, map.render(map.generate(opts)), shown(opts) .. ": not deterministic")
            local v = json.decode(map.generate_json(opts))
            assert.are.same({ m.width, m.height, m.seed, m.algorithm }, { v.width, v.height, v.seed, v.algorithm })
            assert.are.equal(m.blocked, v.blocked, shown(opts))
            for _, field in ipairs({ "rooms", "doors", "player", "stairs", "items" }) do
              assert.are.same(m[field], v[field], shown(opts) .. ": " .. field)
            end
            assert.are.equal(text, table.concat(v.rows, "\n"))
          end
        end
      end
      assert.are_not.equal(map.generate_text(request(algorithm, 80, 50, 1)),
        map.generate_text(request(algorithm, 80, 50, 2)))
    end)
  end
end)

describe("trees", function()
  for algorithm, name in pairs(TREE_WHEN_ZERO) do
    if DESCRIPTION[algorithm] then
      it(algorithm .. ": with " .. name .. " = 0 the open cells form a tree (200 maps)", function()
        assert.truthy(option_of(algorithm, name), algorithm .. " has no option " .. name)
        local w, h, small = smallest(algorithm)
        for salt, size in ipairs({ { w, h, 30, opts = small }, { w + 4, 30, 50 }, { 31, 13, 70 }, { 80, 50, 50 } }) do
          for n = 1, size[3] do
            check(request(algorithm, size[1], size[2], seed_at(n, salt), size.opts, { [name] = 0 }))
          end
        end
      end)
    end
  end
end)

describe("doors", function()
  for _, algorithm in ipairs(map.ALGORITHMS) do
    if option_of(algorithm, "doors") then
      it(algorithm .. ": doors = true puts + in the rooms' wall openings only (220 maps)", function()
        local w, h, small = smallest(algorithm)
        local doors = 0
        for salt, size in ipairs({ { w, h, 20, opts = small }, { 30, 12, 80 }, { 80, 50, 80 }, { 12, 60, 40 } }) do
          for n = 1, size[3] do
            local m = check(request(algorithm, size[1], size[2], seed_at(n, salt), size.opts, { doors = true }))
            doors = doors + #m.doors
          end
        end
        assert.is_true(doors > 220, "hardly any doors: " .. doors)
      end)

      it(algorithm .. ": doors change only the openings; doors = false changes nothing", function()
        local w, h, small = smallest(algorithm)
        for _, size in ipairs({ { 30, 12 }, { 80, 50 }, { w, h, opts = small } }) do
          for seed = 1, 30 do
            local plain = request(algorithm, size[1], size[2], seed, size.opts)
            local text = map.generate_text(plain)
            plain.doors = false
            assert.are.equal(text, map.generate_text(plain), shown(plain))
            local with, without = request(algorithm, size[1], size[2], seed, size.opts, { doors = true, items = 0 }),
              request(algorithm, size[1], size[2], seed, size.opts, { items = 0 })
            local m = map.generate(with)
            assert.are.equal(map.generate_text(without), (map.render(m):gsub("%+", ".")), shown(with))
            assert.are.same(map.generate(without).rooms, m.rooms)
            assert.are.same({}, map.generate(without).doors)
          end
        end
      end)
    end
  end
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
      assert.are.equal(support.read_file("spec/golden/" .. name), map.render(m))
    end)
  end
end)
