-- map.frame(m, x, y, w, h [, options]) / lvl:frame(x, y, w, h [, options]):
-- what a camera rectangle shows, as rows of characters and of state digits,
-- or one string of 4 bytes a cell (options: visible, memory, things, items,
-- blank, light, bytes).
local map = require "map"
local cases = require "spec.hostile_cases"
local assert = require "luassert"

local OPTIONS = "blank, bytes, items, light, memory, things, visible"

local bad = {}
for _, case in ipairs(cases.BAD_NUMBERS) do
  local value, shown = case[1], case[2]
  if value ~= nil and shown ~= "0" and shown ~= "-1" then
    bad[#bad + 1] = { "map.frame: x must be an integer from -4000000 to 4000000, got " .. shown,
      function(f) return map.frame(f.small, value, 1, 2, 2) end }
  end
end
cases.append(bad, {
  { "map.frame: w must be an integer from 1 to 4000000, got 0", function(f) return map.frame(f.small, 1, 1, 0, 2) end },
  { "map.frame: h must be an integer from 1 to 4000000, got nil", function(f) return map.frame(f.small, 1, 1, 2) end },
  { "map.frame: y must be an integer from -4000000 to 4000000, got 4000001",
    function(f) return map.frame(f.small, 1, 4000001, 2, 2) end },
  -- The frame's size bounded before anything is allocated.
  { "map.frame: the frame has 4000002 cells (2000001x2), at most 4000000",
    function(f) return map.frame(f.small, 1, 1, 2000001, 2) end },
  { "map.frame: the frame has 16000000000000 cells (4000000x4000000), at most 4000000",
    function(f) return map.frame(f.small, 1, 1, 4000000, 4000000) end },
  { "map.frame: expected at most 6 arguments, got 7", function(f) return map.frame(f.small, 1, 1, 2, 2, {}, 1) end },
  { "map.frame: options must be a table, got string", function(f) return map.frame(f.small, 1, 1, 2, 2, "x") end },
  { 'map.frame: unknown option "colour" (options: ' .. OPTIONS .. ")",
    function(f) return map.frame(f.small, 1, 1, 2, 2, { colour = 1 }) end },
  { 'map.frame: blank must be a one-character string, got string "ab"',
    function(f) return map.frame(f.small, 1, 1, 2, 2, { blank = "ab" }) end },
  { "map.frame: bytes must be a boolean, got 1", function(f) return map.frame(f.small, 1, 1, 2, 2, { bytes = 1 }) end },
  -- Fields of the wrong kind or size.
  { "map.frame: visible must be a field of flags (lvl:fov, a memory), got table",
    function(f) return map.frame(f.small, 1, 1, 2, 2, { visible = {} }) end },
  { "map.frame: memory is a field of 20x20, the map is 5x3",
    function(f) return map.frame(f.small, 1, 1, 2, 2, { memory = map.field(20, 20) }) end },
  { "map.frame: visible must be a field of flags (lvl:fov, a memory), got a field of values",
    function(f) return map.frame(f.m20, 1, 1, 2, 2, { visible = f.lvl20_d }) end },
  { "map.frame: visible must be a field of flags (lvl:fov, a memory), got a freed field", function(f)
    return cases.freed(function() return map.field(5, 3) end,
      function(field) return map.frame(f.small, 1, 1, 2, 2, { visible = field }) end)
  end },
  -- Bad things and items.
  { "map.frame: things must be a list of {x=, y=, char=} or true, got string",
    function(f) return map.frame(f.small, 1, 1, 2, 2, { things = "@" }) end },
  { "map.frame: things = true is a level's things: give a list of {x=, y=, char=} with a table map",
    function(f) return map.frame(f.small, 1, 1, 2, 2, { things = true }) end },
  { "map.frame: things[2] must be a table {x=, y=, char=}, got number",
    function(f) return map.frame(f.small, 1, 1, 2, 2, { things = { { x = 1, y = 1, char = "g" }, 5 } }) end },
  { "map.frame: things[1].x must be an integer from 1 to 5, got 6",
    function(f) return map.frame(f.small, 1, 1, 2, 2, { things = { { x = 6, y = 1, char = "g" } } }) end },
  { "map.frame: items[1].char must be a one-character string, got nil",
    function(f) return map.frame(f.small, 1, 1, 2, 2, { items = { { x = 1, y = 1 } } }) end },
  -- Light: the byte form's, numbers from 0 to 1.
  { "map.frame: light is drawn only in the byte form (bytes = true)",
    function(f) return map.frame(f.small, 1, 1, 2, 2, { light = {} }) end },
  { "map.frame: light[1][2] must be a number from 0 to 1, got 2",
    function(f) return map.frame(f.small, 1, 1, 2, 2, { bytes = true, light = { { 0, 2, 0, 0, 0 } } }) end },
  { "map.frame: light[2] must be a table, got nil",
    function(f) return map.frame(f.small, 1, 1, 2, 2, { bytes = true, light = { { 0, 0, 0, 0, 0 } } }) end },
})

return {
  samples = {
    function(f) return map.frame(f.gen, 1, 1, 20, 10) end,
    function(f) return map.frame(f.small, -1, 0, 8, 6, { blank = "?", things = { { x = 2, y = 2, char = "g" } } }) end,
    function(f) return map.frame(f.small, 1, 1, 5, 3, { bytes = true }) end,
  },
  with_options = function(f, options) return map.frame(f.small, 1, 1, 2, 2, options) end,
  bad = bad,
  -- A camera as large as any map: every row is read and checked.
  reads_map = function(m) return map.frame(m, 1, 1, 2000, 2000) end,
  accepts = {
    -- A camera wholly off the map: every cell blank and unknown.
    function(f)
      local rows, states = map.frame(f.small, 100, -100, 3, 2)
      assert.are.same({ "   ", "   " }, rows)
      assert.are.same({ "000", "000" }, states)
    end,
    -- Options read raw.
    function(f) assert.is_table(map.frame(f.small, 1, 1, 2, 2, cases.trap())) end,
  },
  storm = function(a) return map.frame(a.m, 1, 1, 3, 3, { things = { { x = 1, y = 1, char = "g" } } }) end,
  big = function(h) return { { h.open, 1, 1, h.side, h.side }, { h.open, 1, 1, h.side, h.side, { bytes = true } } } end,
  memory = {
    { what = "rows", kind = "rows", call = function(s) return map.frame(s.m, 1, 1, s.w, s.h) end },
    { what = "bytes", kind = "text", call = function(s) return map.frame(s.m, 1, 1, s.w, s.h, { bytes = true }) end },
  },
  reference = { spec = "spec/frame_spec.lua", bench = "bench/frame.lua" },
  method = {
    samples = {
      function(f) return f.designed, 1, 1, 20, 10 end,
      function(f) return f.designed, -2, -2, 30, 12, { things = true, memory = f.designed_memory } end,
      function(f) return f.designed, 1, 1, 20, 10, { things = true, bytes = true } end,
    },
    with_options = function(f, options) return f.designed:frame(1, 1, 2, 2, options) end,
    bad = {
      { "level:frame: visible is a field of 20x20, the map is 60x20",
        function(f) return f.designed:frame(1, 1, 5, 5, { visible = map.field(20, 20) }) end },
      { "level:frame: the frame has 4000002 cells (2000001x2), at most 4000000",
        function(f) return f.lvl20:frame(1, 1, 2000001, 2) end },
    },
    storm = function(a) return a.lvl:frame(1, 1, 3, 3, { things = true, memory = a.lvl:field() }) end,
    cases = function(m, rand)
      local w, h = #m[1], #m
      local list = {}
      for _ = 1, 3 do
        list[#list + 1] = { rand(w + 6) - 3, rand(h + 6) - 3, rand(w), rand(h),
          ({ nil, { blank = "?" }, { items = { { x = 1, y = 1, char = "$" } } } })[rand(3)], n = 5 }
      end
      cases.append(list, { { 1, 1, 0, 1, fails = true }, { 1, 1, 2, 2, { bytes = 1 }, fails = true } })
      return list
    end,
    big = "the map's own form's: a level's frame reads the terrain in place",
    memory = {
      { what = "rows", kind = "rows", call = function(s) return s.lvl:frame(1, 1, s.w, s.h) end },
      { what = "bytes", kind = "text", call = function(s) return s.lvl:frame(1, 1, s.w, s.h, { bytes = true }) end },
    },
    reference = { spec = "spec/frame_spec.lua", bench = "bench/frame.lua" },
  },
}
