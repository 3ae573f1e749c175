-- map.light(m, lights [, options]): how lit every cell is by the lights
-- that see it, falling off with the distance: rows of numbers, or three
-- such tables (r, g, b) when a light has a colour (options: ambient, opaque).
local map = require "map"
local support = require "spec.support"
local cases = require "spec.hostile_cases"
local assert = require "luassert"

-- A light at (2, 2) of radius 2, with `t`'s fields.
local function L(t)
  local l = { x = 2, y = 2, radius = 2 }
  for k, v in pairs(t) do l[k] = v end
  return l
end

local bad = {}
local function add(message, call) bad[#bad + 1] = { "map.light: " .. message, call } end
-- A bad light, read raw.
for _, case in ipairs({
  { 5, "lights must be an array of lights {x=, y=, radius=}, got number" },
  { nil, "lights must be an array of lights {x=, y=, radius=}, got nil" },
  { { 5 }, "lights[1] must be a light {x=, y=, radius=}, got number" },
  { { L {}, "lamp" }, "lights[2] must be a light {x=, y=, radius=}, got string" },
  { { L { x = 0 } }, "lights[1].x must be an integer from 1 to 5, got 0" },
  { { L { y = 4 } }, "lights[1].y must be an integer from 1 to 3, got 4" },
  { { L { x = 1.5 } }, "lights[1].x must be an integer from 1 to 5, got 1.5" },
  { { L { radius = -1 } }, "lights[1].radius must be an integer >= 0, got -1" },
  { { { x = 2, y = 2 } }, "lights[1].radius must be an integer >= 0, got nil" },
  { { L { radius = 0.5 } }, "lights[1].radius must be an integer >= 0, got 0.5" },
  { { L { radius = 0 / 0 } }, "lights[1].radius must be an integer >= 0, got nan" },
  { { L { intensity = -1 } }, "lights[1].intensity must be a finite number >= 0, got -1" },
  { { L { intensity = 0 / 0 } }, "lights[1].intensity must be a finite number >= 0, got nan" },
  { { L { intensity = 1 / 0 } }, "lights[1].intensity must be a finite number >= 0, got inf" },
  { { L { intensity = "1" } }, 'lights[1].intensity must be a finite number >= 0, got string "1"' },
  { { L { color = 5 } }, "lights[1].color must be a colour {r, g, b} or {r=, g=, b=}, got number" },
  { { L { color = {} } }, "lights[1].color[1] must be a number from 0 to 1, got nil" },
  { { L { color = { 1, 0.5 } } }, "lights[1].color[3] must be a number from 0 to 1, got nil" },
  { { L { color = { 1, 2, 0 } } }, "lights[1].color[2] must be a number from 0 to 1, got 2" },
  { { L { color = { 1, 0 / 0, 0 } } }, "lights[1].color[2] must be a number from 0 to 1, got nan" },
  { { L { color = { r = 1, b = 0 } } }, "lights[1].color.g must be a number from 0 to 1, got nil" },
  { { L { color = { r = -0.5, g = 0, b = 0 } } }, "lights[1].color.r must be a number from 0 to 1, got -0.5" },
  { { L { color = cases.trap() } }, "lights[1].color[1] must be a number from 0 to 1, got nil" },
  { { cases.trap() }, "lights[1].x must be an integer from 1 to 5, got nil" },
}) do
  add(case[2], function(f) return map.light(f.small, case[1]) end)
end
-- A bad option.
for _, case in ipairs({
  { { opaque = 5 }, "opaque must be a string of characters, got 5" },
  { { ambient = -0.1 }, "ambient must be a number from 0 to 1 or a colour {r, g, b}, got -0.1" },
  { { ambient = 2 }, "ambient must be a number from 0 to 1 or a colour {r, g, b}, got 2" },
  { { ambient = "dim" }, 'ambient must be a number from 0 to 1 or a colour {r, g, b}, got string "dim"' },
  { { ambient = { 1, 1, 2 } }, "ambient[3] must be a number from 0 to 1, got 2" },
  { { ambient = { r = 0.5 } }, "ambient.g must be a number from 0 to 1, got nil" },
  { { radius = 3 }, 'unknown option "radius" (options: ambient, opaque)' },
}) do
  add(case[2], function(f) return map.light(f.small, {}, case[1]) end)
end
add("options must be a table, got string", function(f) return map.light(f.small, {}, "#") end)
add("expected at most 3 arguments, got 4", function(f) return map.light(f.small, {}, {}, 1) end)
-- The reach: the squares within the lights' radii, clipped, and 64 a
-- light, at most 17 x MAX_CELLS cells in all: 16 lights over the whole map.
add("lights reach 68001088 cells in all (the squares within their radii, and 64 a light), at most 68000000",
  function(f)
    local lights = {}
    for i = 1, 17 do lights[i] = { x = i, y = 1, radius = 1e6 } end
    return map.light(f.aliased2000, lights)
  end)

return {
  samples = {
    function(f) return map.light(f.gen, { { x = f.gen.player.x, y = f.gen.player.y, radius = 6 } }) end,
    function(f)
      return map.light(f.gen, { { x = 2, y = 2, radius = 3, intensity = 0.5, color = { 1, 0.5, 0 } } },
        { ambient = 0.1, opaque = "#" })
    end,
    function(f) return map.light(f.gen, {}, { ambient = { r = 0.1, g = 0.1, b = 0.3 } }) end,
  },
  with_options = function(f, o) return map.light(f.gen, {}, o) end,
  bad = bad,
  -- A light at (1,1) reaches every bad cell there.
  reads_map = function(m) return map.light(m, { { x = 1, y = 1, radius = 3 } }) end,
  accepts = {
    function(f)
      local lights = {}
      for i = 1, 16 do lights[i] = { x = i, y = 1, radius = 1e6 } end
      assert.are.equal(1, map.light(f.aliased2000, lights)[1][1])
    end,
  },
  storm = function(a) return map.light(a.m, a.lights, a.light) end,
  big = function(h)
    return {
      { h.open, { { x = h.half, y = h.half, radius = h.side } } },
      { h.open, { { x = h.half, y = h.half, radius = h.side, color = { 1, 0.5, 0 } } }, what = "colours" },
    }
  end,
  memory = {
    { kind = "rows", call = function(s) return map.light(s.m, s.lights) end },
    { kind = "channels", what = "coloured", call = function(s) return map.light(s.m, s.coloured) end },
  },
  reference = { spec = "spec/light_spec.lua", bench = "bench/world.lua" },
  method = {
    samples = {
      function(f) return f.designed, { { x = f.designed.player.x, y = f.designed.player.y, radius = 5 } } end,
      function(f)
        local p = f.designed.player
        return f.designed, { { x = p.x, y = p.y, radius = 5, color = { r = 1, g = 0.8, b = 0.5 } } }, { ambient = 0.1 }
      end,
      function(f) return f.world_lvl, { { x = 2, y = 2, radius = 4 } } end,
    },
    with_options = function(f, o) return f.designed:light({}, o) end,
    bad = {
      { "level:light: lights[1].x must be an integer from 1 to 5, got 6",
        function(f) return f.small_lvl:light({ L { x = 6 } }) end },
      { "level:light: self must be a level, got noise", function(f) return f.lvl20.light(f.source, {}) end },
    },
    storm = function(a) return a.lvl:light(a.lights, a.light) end,
    cases = function(m, rand)
      local p, q = support.open_cell(m, rand), support.open_cell(m, rand)
      return {
        { { { x = p.x, y = p.y, radius = rand(8) } } },
        { { { x = p.x, y = p.y, radius = 6, color = { 1, 0.5, 0 } }, { x = q.x, y = q.y, radius = 4 } },
          { ambient = 0.1 } },
        { { { x = 0, y = 1, radius = 1 } }, fails = true },
      }
    end,
    big = "map.light's cases: the level's cells are held natively, the light map is the same tables",
    memory = { kind = "channels", call = function(s) return map.level(s.m):light(s.coloured) end },
    reference = { spec = "spec/light_spec.lua", bench = "bench/world.lua" },
  },
}
