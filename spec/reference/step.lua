-- spec/reference/step.lua: one step downhill in pure Lua, the reference for
-- map.step (spec/step_spec.lua) and its baseline (bench/turns.lua); see
-- grid.lua for how the references are written.
--
--   step(m, d, x, y [, options])  -> nx, ny, or nil
--
-- The neighbour of (x, y) with the least value in d (false counts as
-- higher than any number) strictly below d[y][x], that may be entered
-- (options blocked, default m.blocked or "#", avoid, known) and, for a diagonal step
-- (options.diagonal), passes between two cells that may be entered; ties
-- by the order N, E, S, W, NE, SE, SW, NW.
local grid = require "spec.reference.grid"

local M = {}

local char_set, DX, DY = grid.char_set, grid.DX, grid.DY

-- The blocked sets, by their string, made once.
local sets = setmetatable({}, { __mode = "k" })

local function blocked_set(chars)
  local set = sets[chars]
  if not set then
    set = char_set(chars)
    sets[chars] = set
  end
  return set
end

local function is_avoided(avoid, x, y)
  if not avoid then return false end
  if avoid.x ~= nil then return avoid.x == x and avoid.y == y end
  for i = 1, #avoid do
    local p = avoid[i]
    if p.x == x and p.y == y then return true end
  end
  return false
end

function M.step(m, d, x, y, options)
  local blocked, diagonal, avoid, known = blocked_set(m.blocked or "#"), false, nil, nil
  if options then
    blocked = blocked_set(options.blocked or m.blocked or "#")
    diagonal, avoid, known = options.diagonal, options.avoid, options.known
  end
  local h, w = #m, #m[1]
  local function open(cx, cy)
    if blocked[m[cy][cx]] or is_avoided(avoid, cx, cy) then return false end
    if known then
      local row = known[cy]
      return row ~= nil and row[cx] ~= nil and row[cx] ~= false
    end
    return true
  end
  local best, bx, by = d[y][x], nil, nil
  for k = 1, diagonal and 8 or 4 do
    local nx, ny = x + DX[k], y + DY[k]
    if nx >= 1 and nx <= w and ny >= 1 and ny <= h then
      local v = d[ny][nx]
      if v and (best == false or v < best) and open(nx, ny) and (k <= 4 or (open(nx, y) and open(x, ny))) then
        best, bx, by = v, nx, ny
      end
    end
  end
  return bx, by
end

return M
