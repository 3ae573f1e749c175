-- spec/reference/visible.lua: line of sight in pure Lua, the reference for
-- map.visible (spec/visible_spec.lua) and its baseline (bench/turns.lua);
-- see grid.lua for how the references are written.
--
--   visible(m, x1, y1, x2, y2 [, radius [, opaque]])  -> boolean
--
-- Whether (x2, y2) is in fov(m, x1, y1, radius, opaque) (fov.lua): Ford's
-- scan of the quadrants holding the target only (two on a diagonal), rows
-- up to its depth, each row clipped to the columns between the origin's
-- and the target's. Integer slopes, as fov.lua's.
local grid = require "spec.reference.grid"

local M = {}

local floor, ceil, abs = math.floor, math.ceil, math.abs
local char_set = grid.char_set

-- Quadrant transforms, as fov.lua's: north, east, south, west.
local XC = { 1, 0, 1, 0 }
local XD = { 0, 1, 0, -1 }
local YC = { 0, 1, 0, 1 }
local YD = { -1, 0, 1, 0 }

-- Whether the scan of quadrant q from (ox, oy) lights the cell at depth
-- `to_depth`, column `to_col`.
local function lights(m, block, ox, oy, q, to_depth, to_col)
  local xc, xd, yc, yd = XC[q], XD[q], YC[q], YD[q]
  local lo, hi = to_col < 0 and to_col or 0, to_col > 0 and to_col or 0
  local stack, top = { 1, -1, 1, 1, 1 }, 5
  while top > 0 do
    local depth, sn, sd, en, ed = stack[top - 4], stack[top - 3], stack[top - 2], stack[top - 1], stack[top]
    top = top - 5
    local first = floor((2 * depth * sn + sd) / (2 * sd))
    local last = ceil((2 * depth * en - ed) / (2 * ed))
    if first < lo then first = lo end
    if last > hi then last = hi end
    local prev = 0 -- 0 none yet, 1 wall, 2 floor
    local bx, by = ox + depth * xd, oy + depth * yd
    for col = first, last do
      local x, y = bx + col * xc, by + col * yc
      local wall = block[m[y][x]] == true
      if depth == to_depth then
        if col == to_col and (wall or (col * sd >= depth * sn and col * ed <= depth * en)) then return true end
      elseif wall then
        if prev == 2 then
          stack[top + 1], stack[top + 2], stack[top + 3] = depth + 1, sn, sd
          stack[top + 4], stack[top + 5] = 2 * col - 1, 2 * depth
          top = top + 5
        end
        prev = 1
      else
        if prev == 1 then sn, sd = 2 * col - 1, 2 * depth end
        prev = 2
      end
    end
    if prev == 2 then
      stack[top + 1], stack[top + 2], stack[top + 3], stack[top + 4], stack[top + 5] = depth + 1, sn, sd, en, ed
      top = top + 5
    end
  end
  return false
end

function M.visible(m, x1, y1, x2, y2, radius, opaque)
  local dx, dy = x2 - x1, y2 - y1
  if radius and dx * dx + dy * dy > radius * (radius + 1) then return false end
  if dx == 0 and dy == 0 then return true end
  local block = char_set(opaque or "#+")
  -- Each quadrant whose cone holds the target: its depth and column there.
  return (dy < 0 and abs(dx) <= -dy and lights(m, block, x1, y1, 1, -dy, dx))
    or (dx > 0 and abs(dy) <= dx and lights(m, block, x1, y1, 2, dx, dy))
    or (dy > 0 and abs(dx) <= dy and lights(m, block, x1, y1, 3, dy, dx))
    or (dx < 0 and abs(dy) <= -dx and lights(m, block, x1, y1, 4, -dx, dy))
end

return M
