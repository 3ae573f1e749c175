-- Positions everywhere, on Lua 5.4 and LuaJIT (see .busted): wherever a
-- function takes a cell as `x, y` it also takes one position table {x=, y=}
-- in their place, read raw (other fields ignored), and the arguments after
-- it move up by one. The old forms give the same results and messages. Bad
-- positions: hostile_spec.lua.
local map = require "map"

local unpack = table.unpack or unpack

local function fails(expected, f, ...)
  local ok, err = pcall(f, ...)
  assert.is_false(ok)
  assert.are.equal(expected, err)
end

describe("a position in place of x, y", function()
  local m = map.generate { width = 60, height = 20, seed = 4 }
  local p, s = m.player, m.stairs
  local known = map.fov(m, p.x, p.y, 8)
  local d = map.distances(m, s)

  it("gives fov, path and distances the same results as the coordinates", function()
    assert.are.same(map.fov(m, p.x, p.y), map.fov(m, p))
    assert.are.same(map.fov(m, p.x, p.y, 8), map.fov(m, p, 8))
    assert.are.same(map.fov(m, p.x, p.y, 3, { opaque = "#$" }), map.fov(m, p, 3, { opaque = "#$" }))
    local route = map.path(m, p.x, p.y, s.x, s.y)
    assert.are.same(route, map.path(m, p, s))
    assert.are.same(route, map.path(m, p, s.x, s.y))
    assert.are.same(route, map.path(m, p.x, p.y, s))
    local o = { diagonal = true }
    assert.are.same(map.path(m, p.x, p.y, s.x, s.y, o), map.path(m, p, s, o))
    assert.are.same({ map.path(m, p.x, p.y, 1, 1) }, { map.path(m, p, { x = 1, y = 1 }) })
  end)

  it("works for every new function, mixed with coordinates", function()
    assert.are.same({ map.step(m, d, p.x, p.y) }, { map.step(m, d, p) })
    assert.are.same({ map.step(m, d, p.x, p.y, { diagonal = true }) }, { map.step(m, d, p, { diagonal = true }) })
    assert.are.same(map.explore(m, known, p.x, p.y), map.explore(m, known, p))
    assert.are.same(map.explore(m, known, p.x, p.y, { diagonal = true }), map.explore(m, known, p, { diagonal = true }))
    assert.are.equal(map.visible(m, p.x, p.y, s.x, s.y), map.visible(m, p, s))
    assert.are.equal(map.visible(m, p.x, p.y, s.x, s.y), map.visible(m, p, s.x, s.y))
    assert.are.equal(map.visible(m, p.x, p.y, s.x, s.y, { radius = 5 }), map.visible(m, p.x, p.y, s, { radius = 5 }))
    assert.are.same(map.line(p.x, p.y, s.x, s.y), map.line(p, s))
    assert.are.same(map.line(p.x, p.y, s.x, s.y), map.line(p, s.x, s.y))
    assert.are.same(map.line(-3, 4, 5, -6), map.line({ x = -3, y = 4 }, { x = 5, y = -6 }))
  end)

  it("reads only x and y, raw: other fields and metatables do not count", function()
    local monster = setmetatable({ x = p.x, y = p.y, hp = 3, name = "orc" }, {
      __index = function() error("read through __index") end,
    })
    assert.are.same(map.fov(m, p, 8), map.fov(m, monster, 8))
    local hidden = setmetatable({}, { __index = { x = p.x, y = p.y } })
    fails("map.fov: origin.x must be an integer from 1 to 60, got nil", map.fov, m, hidden, 8)
  end)

  it("counts arguments by the form: a position takes one place", function()
    fails("map.fov: expected at most 4 arguments, got 5", map.fov, m, p, 8, {}, 1)
    fails("map.fov: expected at most 5 arguments, got 6", map.fov, m, p.x, p.y, 8, {}, 1)
    fails("map.path: expected at most 4 arguments, got 5", map.path, m, p, s, {}, 1)
    fails("map.path: expected at most 5 arguments, got 6", map.path, m, p, s.x, s.y, {}, 1)
    fails("map.step: expected at most 4 arguments, got 5", map.step, m, d, p, {}, 1)
    fails("map.explore: expected at most 4 arguments, got 5", map.explore, m, known, p, {}, 1)
    fails("map.visible: expected at most 4 arguments, got 5", map.visible, m, p, s, {}, 1)
    fails("map.line: expected at most 2 arguments, got 3", map.line, p, s, 1)
    fails("map.line: expected at most 4 arguments, got 5", map.line, 1, 2, 3, 4, 5)
  end)

  it("names a bad position by what it stands for", function()
    local off = { x = 0, y = 1 }
    local cases = {
      { "map.fov: origin.x must be an integer from 1 to 60, got 0", map.fov, m, off },
      { "map.path: start.x must be an integer from 1 to 60, got 0", map.path, m, off, s },
      { "map.path: goal.y must be an integer from 1 to 20, got nil", map.path, m, p, { x = 1 } },
      { "map.path: x2 must be an integer from 1 to 60, got 0", map.path, m, p, 0, 1 },
      { "map.step: from.x must be an integer from 1 to 60, got 0", map.step, m, d, off },
      { "map.explore: start.x must be an integer from 1 to 60, got 0", map.explore, m, known, off },
      { "map.visible: from.x must be an integer from 1 to 60, got 0", map.visible, m, off, s },
      { "map.visible: to.y must be an integer from 1 to 20, got 21", map.visible, m, p, { x = 1, y = 21 } },
      { "map.line: from.x must be an integer with |v| <= 2^53, got 1.5", map.line, { x = 1.5, y = 1 }, s },
      { "map.line: y2 must be an integer with |v| <= 2^53, got nil", map.line, 1, 1, 2 },
    }
    for _, case in ipairs(cases) do fails(unpack(case)) end
  end)

  it("keeps the old forms' messages", function()
    fails("map.fov: x must be an integer from 1 to 60, got 0", map.fov, m, 0, 1)
    fails("map.fov: y must be an integer from 1 to 20, got nil", map.fov, m, 1)
    fails("map.path: x1 must be an integer from 1 to 60, got 0", map.path, m, 0, 1, 2, 2)
    fails("map.path: y2 must be an integer from 1 to 20, got 21", map.path, m, 1, 1, 2, 21)
  end)
end)
