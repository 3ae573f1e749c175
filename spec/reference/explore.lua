-- spec/reference/explore.lua: auto-explore in pure Lua, the reference for
-- map.explore (spec/explore_spec.lua) and its baseline (bench/turns.lua);
-- see grid.lua for how the references are written.
--
--   explore(m, known, x, y [, options])  -> path {{x=, y=}, ...} | nil, "explored"
--
-- Unit costs only (options blocked, default m.blocked or "#", diagonal, avoid). A
-- breadth-first walk from (x, y) over the known cells that may be entered,
-- level by level until a level holds a frontier cell (known, may be
-- entered, a neighbour on the map not known): the first such cell in row
-- order is the target. Then a breadth-first walk back from the target,
-- until the start's level is done, and the path from the start by
-- map.path's tie rule: at each step the first neighbour, in the order N, E,
-- S, W, NE, SE, SW, NW, one step nearer the target. Only the cells walked
-- and their neighbours are read.
local grid = require "spec.reference.grid"

local M = {}

local char_set, DX, DY = grid.char_set, grid.DX, grid.DY

function M.explore(m, known, x, y, options)
  options = options or {}
  local h, w = #m, #m[1]
  local blocked = char_set(options.blocked or m.blocked or "#")
  local dirs = options.diagonal and 8 or 4
  local avoided = {}
  local avoid = options.avoid
  if avoid and (avoid.x ~= nil or avoid.y ~= nil) then avoid = { avoid } end
  for _, p in ipairs(avoid or {}) do avoided[(p.y - 1) * w + p.x] = true end
  local function is_known(cx, cy)
    local row = known[cy]
    return row ~= nil and row[cx] ~= nil and row[cx] ~= false
  end
  local function open(cx, cy)
    return is_known(cx, cy) and not blocked[m[cy][cx]] and not avoided[(cy - 1) * w + cx]
  end
  local function step_ok(cx, cy, k, nx, ny)
    return nx >= 1 and nx <= w and ny >= 1 and ny <= h and open(nx, ny)
      and (k <= 4 or (open(nx, cy) and open(cx, ny)))
  end
  local function frontier(cx, cy)
    if not open(cx, cy) then return false end
    for k = 1, dirs do
      local nx, ny = cx + DX[k], cy + DY[k]
      if nx >= 1 and nx <= w and ny >= 1 and ny <= h and not is_known(nx, ny) then return true end
    end
    return false
  end
  -- Breadth-first from (ax, ay), level by level, while `go(dist, head,
  -- tail, qx, qy)` says so, given the distances by index and the queue's
  -- next level; `into` may be entered though closed. Returns the distances.
  local function walk(ax, ay, into, go)
    local dist, qx, qy = { [(ay - 1) * w + ax] = 0 }, { ax }, { ay }
    local head, tail, level = 1, 1, 0
    while head <= tail and go(dist, head, tail, qx, qy) do
      local stop = tail
      level = level + 1
      while head <= stop do
        local cx, cy = qx[head], qy[head]
        head = head + 1
        for k = 1, dirs do
          local nx, ny = cx + DX[k], cy + DY[k]
          local j = (ny - 1) * w + nx
          if nx >= 1 and nx <= w and ny >= 1 and ny <= h and not dist[j]
            and (step_ok(cx, cy, k, nx, ny) or (j == into and (k <= 4 or (open(nx, cy) and open(cx, ny))))) then
            dist[j] = level
            tail = tail + 1
            qx[tail], qy[tail] = nx, ny
          end
        end
      end
    end
    return dist
  end
  local target, tx, ty
  walk(x, y, nil, function(_, head, tail, qx, qy)
    for q = head, tail do
      local cx, cy = qx[q], qy[q]
      local i = (cy - 1) * w + cx
      if frontier(cx, cy) and (not target or i < target) then target, tx, ty = i, cx, cy end
    end
    return not target
  end)
  if not target then return nil, "explored" end
  -- The start is entered against the steps, so it may be closed.
  local start = (y - 1) * w + x
  local to_target = walk(tx, ty, start, function(dist) return not dist[start] end)
  local left = to_target[start]
  local path = { { x = x, y = y } }
  local cx, cy = x, y
  while left > 0 do
    left = left - 1
    for k = 1, dirs do
      local nx, ny = cx + DX[k], cy + DY[k]
      if step_ok(cx, cy, k, nx, ny) and to_target[(ny - 1) * w + nx] == left then
        cx, cy = nx, ny
        break
      end
    end
    path[#path + 1] = { x = cx, y = cy }
  end
  return path
end

return M
