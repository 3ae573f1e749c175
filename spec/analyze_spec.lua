-- map.analyze and lvl:analyze on Lua 5.4 and LuaJIT (see .busted): against
-- the brute-force oracle (spec/reference/analyze.lua) on every 4x4 map of
-- walls and floor and on 10,000 random 8x8 maps, both walking rules; the
-- room graph of generated levels against a plain Lua count; golden figures
-- of generated levels. Bad arguments: spec/exports/analyze.lua.
local map = require "map"
local support = require "spec.support"
local oracle = require("spec.reference.analyze").analyze

local fmt = string.format

-- A table as text, keys sorted, for comparisons that name the difference.
local function text(v)
  if type(v) ~= "table" then return tostring(v) end
  local keys = {}
  for k in pairs(v) do keys[#keys + 1] = k end
  table.sort(keys, function(a, b) return tostring(a) < tostring(b) end)
  local parts = {}
  for _, k in ipairs(keys) do parts[#parts + 1] = tostring(k) .. "=" .. text(v[k]) end
  return "{" .. table.concat(parts, ",") .. "}"
end

local function rows_text(m)
  local rows = {}
  for y = 1, #m do rows[y] = table.concat(m[y]) end
  return table.concat(rows, "/")
end

local function check(m, o)
  local got, want = text(map.analyze(m, o)), text(oracle(m, o))
  if got ~= want then
    error(fmt("%s %s:\nmodule %s\noracle %s", rows_text(m), text(o), got, want), 2)
  end
end

-- Components of the rooms' links without the link a-b.
local function components(rooms, a, b)
  local label, count = {}, 0
  for s = 1, #rooms do
    if not label[s] then
      count = count + 1
      label[s] = count
      local todo = { s }
      while #todo > 0 do
        local r = table.remove(todo)
        for _, t in ipairs(rooms[r].links) do
          if not label[t] and not ((r == a and t == b) or (r == b and t == a)) then
            label[t] = count
            todo[#todo + 1] = t
          end
        end
      end
    end
  end
  return count
end

-- The room graph by brute force: degrees, links whose removal adds a
-- component, E - V + components.
local function rooms_oracle(rooms)
  local whole, edges, degrees, bridges = components(rooms), 0, {}, {}
  for a, room in ipairs(rooms) do
    degrees[a] = #room.links
    for _, b in ipairs(room.links) do
      if b > a then
        edges = edges + 1
        if components(rooms, a, b) > whole then bridges[#bridges + 1] = { a, b } end
      end
    end
  end
  table.sort(bridges, function(p, q) return p[1] < q[1] or (p[1] == q[1] and p[2] < q[2]) end)
  return { degrees = degrees, bridges = bridges, loops = edges - #rooms + whole }
end

describe("map.analyze", function()
  it("equals the oracle on every 4x4 map of walls and floor, @ and > on varying floor cells", function()
    for bits = 0, 65535 do
      local m, floor = {}, {}
      for y = 1, 4 do
        m[y] = {}
        for x = 1, 4 do
          local i = (y - 1) * 4 + x - 1
          m[y][x] = math.floor(bits / 2 ^ i) % 2 == 1 and "." or "#"
          if m[y][x] == "." then floor[#floor + 1] = { x, y } end
        end
      end
      if #floor > 0 then
        local p = floor[bits % #floor + 1]
        m[p[2]][p[1]] = "@"
        local s = floor[math.floor(bits / 7) % #floor + 1]
        if m[s[2]][s[1]] == "." then m[s[2]][s[1]] = ">" end
      end
      check(m, { diagonal = bits % 2 == 1 })
    end
  end)

  it("equals the oracle on 10,000 random 8x8 maps", function()
    local rand = support.generator(38)
    for case = 1, 10000 do
      local wall, m = rand(60) - 1, {}
      for y = 1, 8 do
        m[y] = {}
        for x = 1, 8 do
          local roll = rand(100) - 1
          m[y][x] = roll < wall and (roll % 5 == 0 and "~" or "#") or (roll % 29 == 0 and ">" or ".")
        end
      end
      if rand(10) > 1 then m[rand(8)][rand(8)] = "@" end
      check(m, { diagonal = case % 2 == 0, blocked = case % 4 >= 2 and "#~" or nil })
    end
  end)

  it("gives each generated level's room graph as its rooms' links say", function()
    for _, algorithm in ipairs { "rooms", "bsp" } do
      for seed = 1, 20 do
        local m = map.generate { width = 80, height = 50, seed = seed, algorithm = algorithm }
        local g = map.analyze(m).rooms
        assert.are.same(rooms_oracle(m.rooms), g)
        local lvl = map.level { width = 80, height = 50, seed = seed, algorithm = algorithm }
        assert.are.equal(text(map.analyze(m)), text(lvl:analyze()))
      end
    end
  end)

  it("keeps its golden figures", function()
    local m = map.generate { width = 80, height = 50, seed = 7 }
    local a = map.analyze(m)
    local golden = {
      regions = #a.regions, region = a.region, chokepoints = #a.chokepoints, dead_ends = #a.dead_ends,
      stairs = a.stairs, farthest = a.farthest.distance, loops = a.rooms.loops, bridges = #a.rooms.bridges,
    }
    assert.are.same({ regions = 1, region = 1, chokepoints = 130, dead_ends = 0, stairs = 156, farthest = 157,
      loops = 11, bridges = 2 }, golden)
  end)
end)
