-- The LuaJIT route's reading rules (src/lua/luajit/rules.lua), each against
-- the Rust function it mirrors (rules.MIRRORS; the probe build's
-- `map._mirror` gives that function's verdict in the rule's shape): random
-- input through both, verdicts equal. A test per rule is made from the
-- rules' own list, so a rule without a generator of input here fails.
-- LuaJIT only (Lua 5.4 has no route), with the probe build (#probe).
local support = require "spec.support"

local CASES = 3000

-- The child: for each rule, CASES random inputs from its generator, each
-- given to the rule (through its adapter, where the rule's answer takes a
-- shape of its own) and to `map._mirror`; prints each rule with its count
-- of cases and of differences, then the first difference.
local CHILD = [==[
local map = require "map"
local rules, mirror = map._rules, map._mirror
local CASES = ...
local NAN, HUGE = 0 / 0, math.huge

local source = map.rng(12345)
local function rand(n) return source:random(n) end
local function pick(list) return list[rand(#list)] end

local NUMBERS = { 0, 1, 2, 3, 7, 1.5, -1, -0.5, 2 ^ 31, 2 ^ 53, 2 ^ 53 + 2, -2 ^ 53, -(2 ^ 53 + 2), 2 ^ 63,
  -2 ^ 63, 2 ^ 64, NAN, HUGE, -HUGE }
local ODD = { "1", "x", true, false, {}, print }
local function value()
  if rand(4) == 1 then return pick(ODD) end
  return pick(NUMBERS)
end

-- A table with keys in 1..n, some missing.
local function sparse(n, holes, fill)
  local t = {}
  for i = 1, n do
    if rand(100) > holes then t[i] = fill and fill(i) or i end
  end
  if rand(3) == 1 then t[2 ^ rand(20)] = 1 end
  return t
end

-- A map of h rows of w cells, with random defects.
local function map_of(w, h)
  local m = {}
  for y = 1, h do
    local row = {}
    for x = 1, w do row[x] = pick({ "#", ".", "@" }) end
    m[y] = row
  end
  for _ = 1, rand(3) - 1 do
    local y, x = rand(h), rand(w)
    local defect = type(m[y]) == "table" and rand(7) or rand(2)
    if defect == 1 then m[y] = nil
    elseif defect == 2 then m[y] = pick({ 5, "row", true })
    elseif defect == 3 then m[y][x] = pick({ "##", "", 5, true })
    elseif defect == 4 then m[y][w + 1] = "."
    elseif defect == 5 then m[y][w] = nil
    elseif defect == 6 then m.blocked = pick({ "#", 5, {} })
    else m[y][x] = nil end
  end
  return m
end

-- A window of a w x h map.
local function window(w, h)
  local x0, y0 = rand(w), rand(h)
  return x0, y0, rand(w - x0 + 1), rand(h - y0 + 1)
end

-- Each rule's generator: a list of arguments for `mirror(rule, ...)`, and
-- the rule's own verdict on them (its adapter).
local CELL = function()
  if rand(2) == 1 then return { x = value(), y = value() } end
  return value()
end
local GENERATE = {
  length = function()
    local t = sparse(rand(70), rand(3) == 1 and 20 or 0)
    return { t }, function() return rules.length(t) end
  end,
  size = function()
    local m
    if rand(6) == 1 then m = value()
    elseif rand(6) == 1 then
      local row = sparse(rand(3000), 0)
      m = sparse(rand(3000), 0, function() return row end)
    else m = map_of(rand(8), rand(8)) end
    if type(m) == "table" and rand(5) == 1 then m[1] = value() end
    return { m }, function() return rules.size(m) end
  end,
  walks_by_walls = function()
    local m = map_of(3, 3)
    return { m }, function() return rules.walks_by_walls(m) end
  end,
  read_window = function()
    local w, h = rand(8), rand(8)
    local m = map_of(w, h)
    local x0, y0, ww, wh = window(w, h)
    local newlines = rand(2) == 1
    return { m, x0, y0, ww, wh, h, w, newlines },
      function() return rules.read_window(m, x0, y0, ww, wh, h, w, newlines) end
  end,
  read_known = function()
    local w, h = rand(8), rand(8)
    local known = {}
    for y = 1, h do
      if rand(6) == 1 then known[y] = pick({ 5, "x", true })
      elseif rand(4) ~= 1 then
        local row = {}
        for x = 1, w do row[x] = pick({ true, false, nil, 1, "x", 0 }) end
        known[y] = row
      end
    end
    local x0, y0, ww, wh = window(w, h)
    return { known, x0, y0, ww, wh }, function() return rules.read_known(known, x0, y0, ww, wh) end
  end,
  cell_at = function()
    local w, h, a, b = rand(8), rand(8), CELL(), value()
    return { w, h, a, b }, function()
      local x, y, next = rules.cell_at(1, a, b)
      if rules.is_cell(x, y, w, h) then return next, x, y end
      return next
    end
  end,
  is_cell = function()
    local x, y, w, h = value(), value(), rand(8), rand(8)
    return { x, y, w, h }, function() return rules.is_cell(x, y, w, h) end
  end,
  xy = function()
    local w, h = rand(8), rand(8)
    local cell = { CELL() }
    for _ = 1, rand(3) - 1 do cell[#cell + 1] = value() end
    local n = #cell
    local args = { w, h, unpack(cell, 1, n) }
    return args, function()
      local x, y = rules.xy(w, h, n, unpack(cell, 1, n))
      if x == nil then return nil end
      return x, y
    end
  end,
  is_size = function()
    local v = value()
    return { v }, function() return rules.is_size(v) end
  end,
  is_coordinate = function()
    local v = value()
    return { v }, function() return rules.is_coordinate(v) end
  end,
  integer = function()
    local v = value()
    return { v }, function() return rules.integer(v) end
  end,
}

local function shown(...)
  local out = {}
  for i = 1, select("#", ...) do
    local v = select(i, ...)
    out[i] = type(v) == "string" and ("%q"):format(v) or tostring(v)
  end
  return table.concat(out, ", ")
end

local names = {}
for name in pairs(rules.MIRRORS) do names[#names + 1] = name end
table.sort(names)
for _, name in ipairs(names) do
  local generate, differ, first = GENERATE[name], 0, nil
  if not generate then
    print(name, 0, 1, "no generator of input for this rule")
  else
    for _ = 1, CASES do
      local args, rule = generate()
      local a = shown(rule())
      local b = shown(mirror(name, unpack(args, 1, #args)))
      if a ~= b then
        differ = differ + 1
        first = first or ("rule: %s; Rust: %s"):format(a, b)
      end
    end
    print(name, CASES, differ, first or "")
  end
end
]==]

describe("the LuaJIT route's reading rules", function()
  if not jit then
    pending("LuaJIT only: Lua 5.4 has no route")
    return
  end

  it("answer as the Rust functions they mirror, on random input, each rule #probe", function()
    local script = CHILD:gsub("local CASES = %.%.%.", "local CASES = " .. CASES)
    local out, err, code = support.run_with_probe(script)
    assert.are.same({ "", 0 }, { err, code })
    local rules = 0
    for name, cases, differ, first in out:gmatch("([%w_]+)\t(%d+)\t(%d+)\t([^\n]*)\n") do
      rules = rules + 1
      assert(tonumber(cases) == CASES and tonumber(differ) == 0,
        ("%s: %s of %s cases differ from %s; first: %s"):format(name, differ, cases, name, first))
    end
    assert(rules >= 11, "read " .. rules .. " rules")
  end)
end)
