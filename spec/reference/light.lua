-- spec/reference/light.lua: light maps in pure Lua on map.fov, the
-- reference for map.light (spec/light_spec.lua) and its baseline
-- (bench/toolkit.lua).
--
--   light(m, lights [, options [, fov]])  -> rows of numbers, or {r=, g=, b=} of three
--
-- `fov(m, x, y, radius, opaque)` (opaque a string) gives the cells a light
-- sees: map.fov by default; spec/reference/fov.lua's in the benchmark's
-- all-Lua baseline (bench/world.lua).
--
-- The rule, as docs/api.md states it: each light {x=, y=, radius=,
-- intensity = 1, color = {r, g, b} or {r=, g=, b=}} lights the cells
-- map.fov(m, x, y, radius, {opaque = options.opaque or "#+"}) returns, by
-- intensity * (1 - d / (radius + 1)), d the Euclidean distance; a cell is
-- options.ambient (a number, or a colour; 0) plus the lights' shares in
-- their order, clamped to 1. With a colour anywhere, three channels, a
-- share times its light's channel (a light without one is white).
local map = require "map"

local M = {}

local sqrt, min = math.sqrt, math.min

local function rgb(c)
  if c.r ~= nil or c.g ~= nil or c.b ~= nil then return { c.r, c.g, c.b } end
  return { c[1], c[2], c[3] }
end

local function module_fov(m, x, y, radius, opaque)
  return map.fov(m, x, y, radius, { opaque = opaque })
end

function M.light(m, lights, options, fov)
  options, fov = options or {}, fov or module_fov
  local h, w = #m, #m[1]
  local ambient = options.ambient or 0
  local colored = type(ambient) == "table"
  for _, l in ipairs(lights) do colored = colored or l.color ~= nil end
  local base = type(ambient) == "table" and rgb(ambient) or { ambient, ambient, ambient }
  local channels = {}
  for k = 1, colored and 3 or 1 do
    local rows = {}
    for y = 1, h do
      local row = {}
      for x = 1, w do row[x] = base[k] end
      rows[y] = row
    end
    channels[k] = rows
  end
  for _, l in ipairs(lights) do
    local color = l.color and rgb(l.color)
    local vis = fov(m, l.x, l.y, l.radius, options.opaque or "#+")
    for y, row in pairs(vis) do
      for x in pairs(row) do
        local dx, dy = x - l.x, y - l.y
        local share = (l.intensity or 1) * (1 - sqrt(dx * dx + dy * dy) / (l.radius + 1))
        for k = 1, #channels do
          local c = channels[k][y]
          c[x] = c[x] + (color and share * color[k] or share)
        end
      end
    end
  end
  for k = 1, #channels do
    for y = 1, h do
      local row = channels[k][y]
      for x = 1, w do row[x] = min(row[x], 1) end
    end
  end
  if not colored then return channels[1] end
  return { r = channels[1], g = channels[2], b = channels[3] }
end

return M
