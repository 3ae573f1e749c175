-- spec/reference/fov.lua: field of view in pure Lua, the reference for
-- map.fov (spec/fov_spec.lua) and its baseline (bench/toolkit.lua); see
-- grid.lua for how the references are written.
--
--   fov(m, x, y [, radius [, opaque]])  -> vis, vis[y][x] == true or nil
--
-- `opaque` is a string of characters (default "#+").
--
-- Albert Ford's symmetric shadowcasting (albertford.com/shadowcasting) with
-- slopes kept as integer numerator/denominator pairs and compared by
-- cross-multiplying, rows scanned from an explicit stack instead of by
-- recursion (a row's result depends only on its depth and slopes, so the
-- order does not matter). Cells off the map are opaque. With a radius, only
-- rows up to that depth are scanned and the result is kept to the disc
-- dx*dx + dy*dy <= radius*(radius+1).
local grid = require "spec.reference.grid"

local M = {}

local floor, ceil = math.floor, math.ceil
local new_tab, char_set = grid.new_tab, grid.char_set

-- Quadrant transforms: x = ox + col * XC + depth * XD, y = oy + col * YC + depth * YD.
-- North (up the screen), east, south, west.
local XC = { 1, 0, 1, 0 }
local XD = { 0, 1, 0, -1 }
local YC = { 0, 1, 0, 1 }
local YD = { -1, 0, 1, 0 }

function M.fov(m, ox, oy, radius, opaque)
  local h = #m
  local w = #m[1]
  local block = char_set(opaque or "#+")
  local vis = new_tab(h, 0)
  for y = 1, h do vis[y] = {} end
  vis[oy][ox] = true
  local max_depth = radius or (w > h and w or h)
  local limit = radius and radius * (radius + 1)
  -- The stack of rows still to scan, five numbers each: depth and the start
  -- and end slopes as numerator, denominator (denominators > 0).
  local stack = {}
  for q = 1, 4 do
    local xc, xd, yc, yd = XC[q], XD[q], YC[q], YD[q]
    stack[1], stack[2], stack[3], stack[4], stack[5] = 1, -1, 1, 1, 1
    local top = 5
    while top > 0 do
      local depth, sn, sd, en, ed = stack[top - 4], stack[top - 3], stack[top - 2], stack[top - 1], stack[top]
      top = top - 5
      if depth <= max_depth then
        -- Columns from round_ties_up(depth * start) to round_ties_down(depth * end).
        local first = floor((2 * depth * sn + sd) / (2 * sd))
        local last = ceil((2 * depth * en - ed) / (2 * ed))
        local prev = 0 -- 0 none yet, 1 wall, 2 floor
        local bx, by = ox + depth * xd, oy + depth * yd
        for col = first, last do
          local x, y = bx + col * xc, by + col * yc
          local inside = x >= 1 and x <= w and y >= 1 and y <= h
          local wall = not inside or block[m[y][x]] == true
          if inside and (wall or (col * sd >= depth * sn and col * ed <= depth * en)) then
            if not limit or (x - ox) * (x - ox) + (y - oy) * (y - oy) <= limit then vis[y][x] = true end
          end
          if wall then
            if prev == 2 then
              -- The floor run before this wall continues into the next row.
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
    end
  end
  return vis
end

return M
