-- spec/reference/path.lua: paths in pure Lua, the reference for map.path
-- (spec/path_spec.lua) and its baseline (bench/toolkit.lua); see grid.lua for
-- how the references are written.
--
--   path(m, x1, y1, x2, y2 [, options])      -> {{x=, y=}, ...} | nil, message
--   path_bfs(...)                            -> the same, unit costs only
--   path_charged(...)                        -> the same with charged steps
--   walk_cost(m, p, x1, y1, x2, y2 [, options])
--                                            -> what walking p costs | nil, what is wrong
--
-- `options` as distances.lua's (blocked, diagonal, cost).
--
-- path is A* run backwards, from the goal towards the start (Manhattan
-- heuristic; Chebyshev with diagonal moves), with a binary heap. After the
-- start is settled it keeps settling the nodes whose estimate ties the best
-- cost, so that every node on any shortest path has its exact cost to the
-- goal; the path is then walked from the start taking, at each step, the
-- first neighbour in order N, E, S, W, NE, SE, SW, NW that lies on a shortest
-- path: the module's tie rule.
local grid = require "spec.reference.grid"
local heap = require "spec.reference.heap"
local distances = require("spec.reference.distances").distances

local M = {}

local abs = math.abs
local new_tab, char_set, DX, DY = grid.new_tab, grid.char_set, grid.DX, grid.DY
local heap_push, heap_pop = heap.push, heap.pop

function M.path(m, x1, y1, x2, y2, options)
  options = options or {}
  local blocked = char_set(options.blocked or m.blocked or "#")
  local diagonal = options.diagonal
  local dirs = diagonal and 8 or 4
  local cost = options.cost or {}
  local h = #m
  local w = #m[1]
  if x1 == x2 and y1 == y2 then return { { x = x1, y = y1 } } end
  if blocked[m[y2][x2]] then return nil, string.format("goal (%d,%d) is blocked", x2, y2) end
  local start, goal = (y1 - 1) * w + x1, (y2 - 1) * w + x2
  local start_blocked = blocked[m[y1][x1]]

  -- Backwards from the goal: g[i] is the best known cost from cell i to the
  -- goal, done[i] once it is exact.
  local cells = w * h
  local g, done = new_tab(cells, 0), new_tab(cells, 0)
  for i = 1, cells do
    g[i] = false
    done[i] = false
  end
  local hk, hv, n = {}, {}, 0
  local function estimate(x, y) -- to the start
    local ex, ey = abs(x - x1), abs(y - y1)
    if diagonal then return ex > ey and ex or ey end
    return ex + ey
  end
  g[goal] = 0
  n = heap_push(hk, hv, n, estimate(x2, y2), goal)
  local best = false
  while n > 0 do
    local f, i
    n, f, i = heap_pop(hk, hv, n)
    if best and f > best then break end
    if not done[i] then
      local x = (i - 1) % w + 1
      local y = (i - x) / w + 1
      local gi = g[i]
      if f == gi + estimate(x, y) then
        done[i] = true
        if i == start then best = gi end
        if not (i == start and start_blocked) then
          -- Predecessors p of i: the step p -> i costs entering i.
          local step = gi + (cost[m[y][x]] or 1)
          for k = 1, dirs do
            local px, py = x + DX[k], y + DY[k]
            if px >= 1 and px <= w and py >= 1 and py <= h then
              local p = (py - 1) * w + px
              if not done[p] and (p == start or not blocked[m[py][px]])
                and (k <= 4 or (not blocked[m[y][px]] and not blocked[m[py][x]])) then
                local old = g[p]
                if old == false or step < old then
                  g[p] = step
                  n = heap_push(hk, hv, n, step + estimate(px, py), p)
                end
              end
            end
          end
        end
      end
    end
  end
  if not best then return nil, string.format("no path from (%d,%d) to (%d,%d)", x1, y1, x2, y2) end

  -- Forwards: the first neighbour, in tie order, on a shortest path.
  local path = { { x = x1, y = y1 } }
  local x, y, i = x1, y1, start
  while i ~= goal do
    local gi = g[i]
    for k = 1, dirs do
      local nx, ny = x + DX[k], y + DY[k]
      if nx >= 1 and nx <= w and ny >= 1 and ny <= h then
        local j = (ny - 1) * w + nx
        local c = m[ny][nx]
        if done[j] and not blocked[c] and g[j] + (cost[c] or 1) == gi
          and (k <= 4 or (not blocked[m[y][nx]] and not blocked[m[ny][x]])) then
          x, y, i = nx, ny, j
          break
        end
      end
    end
    path[#path + 1] = { x = x, y = y }
  end
  return path
end

-- Unit costs only (no cost option): the same path from a breadth-first
-- distance map to the goal, walked from the start by the same tie rule. Not
-- A*; the benchmark's second, cheaper pure-Lua route for uniform costs.
function M.path_bfs(m, x1, y1, x2, y2, options)
  options = options or {}
  local blocked = char_set(options.blocked or m.blocked or "#")
  local dirs = options.diagonal and 8 or 4
  if x1 == x2 and y1 == y2 then return { { x = x1, y = y1 } } end
  if blocked[m[y2][x2]] then return nil, string.format("goal (%d,%d) is blocked", x2, y2) end
  local h = #m
  local w = #m[1]
  local d = distances(m, { x = x2, y = y2 }, options)
  -- A blocked start is not entered by the walk from the goal: its distance
  -- is one more than its best enterable neighbour's.
  local dist = d[y1][x1]
  if blocked[m[y1][x1]] then
    dist = false
    for k = 1, dirs do
      local nx, ny = x1 + DX[k], y1 + DY[k]
      if nx >= 1 and nx <= w and ny >= 1 and ny <= h and d[ny][nx]
        and (k <= 4 or (not blocked[m[y1][nx]] and not blocked[m[ny][x1]])) then
        if not dist or d[ny][nx] + 1 < dist then dist = d[ny][nx] + 1 end
      end
    end
  end
  if not dist then return nil, string.format("no path from (%d,%d) to (%d,%d)", x1, y1, x2, y2) end
  local path = { { x = x1, y = y1 } }
  local x, y = x1, y1
  while x ~= x2 or y ~= y2 do
    dist = dist - 1
    for k = 1, dirs do
      local nx, ny = x + DX[k], y + DY[k]
      if nx >= 1 and nx <= w and ny >= 1 and ny <= h and d[ny][nx] == dist
        and (k <= 4 or (not blocked[m[y][nx]] and not blocked[m[ny][x]])) then
        x, y = nx, ny
        break
      end
    end
    path[#path + 1] = { x = x, y = y }
  end
  return path
end

-- Whether p is a legal walk from (x1, y1) to (x2, y2) under `options`: each
-- step to a neighbour (diagonal only when allowed, and then not cutting a
-- corner), into a cell that is not blocked. Returns what it costs (entering
-- each cell but the first), or nil and what is wrong.
function M.walk_cost(m, p, x1, y1, x2, y2, options)
  options = options or {}
  local blocked, cost = char_set(options.blocked or m.blocked or "#"), options.cost or {}
  local h, w = #m, #m[1]
  local function enterable(x, y)
    return x >= 1 and x <= w and y >= 1 and y <= h and not blocked[m[y][x]]
  end
  if type(p) ~= "table" or #p < 1 then return nil, "not a non-empty array" end
  if p[1].x ~= x1 or p[1].y ~= y1 then return nil, "does not start at the start" end
  if p[#p].x ~= x2 or p[#p].y ~= y2 then return nil, "does not end at the goal" end
  local total = 0
  for i = 2, #p do
    local a, b = p[i - 1], p[i]
    local dx, dy = b.x - a.x, b.y - a.y
    if math.type and (math.type(b.x) ~= "integer" or math.type(b.y) ~= "integer") then
      return nil, string.format("step %d is not integers", i)
    end
    local ax, ay = abs(dx), abs(dy)
    if ax > 1 or ay > 1 or ax + ay == 0 then return nil, string.format("step %d is not to a neighbour", i) end
    if ax + ay == 2 then
      if not options.diagonal then return nil, string.format("step %d is diagonal", i) end
      if not (enterable(a.x + dx, a.y) and enterable(a.x, a.y + dy)) then
        return nil, string.format("step %d cuts a corner", i)
      end
    end
    if not enterable(b.x, b.y) then return nil, string.format("step %d enters a blocked cell", i) end
    total = total + (cost[m[b.y][b.x]] or 1)
  end
  return total
end

-- Charged steps (search.lua's factors: diagonal and straight factors, an
-- occupied cost): the costs from every cell to the goal by a plain
-- Dijkstra run backwards (a step p -> i costs entering i, charged by its
-- direction), then the same forward walk by the tie rule. Options as
-- search.lua's, avoid included.
function M.path_charged(m, x1, y1, x2, y2, options)
  local search = require "spec.reference.search"
  local h, w = #m, #m[1]
  local open = search.open_cells(m, w, h, options)
  local factor = search.factors(options)
  local dirs = options.diagonal and 8 or 4
  if x1 == x2 and y1 == y2 then return { { x = x1, y = y1 } } end
  local start, goal = (y1 - 1) * w + x1, (y2 - 1) * w + x2
  if not open[goal] then return nil, string.format("goal (%d,%d) is blocked", x2, y2) end
  local function legal(x, y, k, nx, ny) -- a step from (x, y) in direction k to (nx, ny)
    return nx >= 1 and nx <= w and ny >= 1 and ny <= h
      and (k <= 4 or (open[(y - 1) * w + nx] and open[(ny - 1) * w + x]))
  end
  local g = {}
  local hk, hv = {}, {}
  local n = heap_push(hk, hv, 0, 0, goal)
  g[goal] = 0
  while n > 0 do
    local d, i
    n, d, i = heap_pop(hk, hv, n)
    if g[i] == d and i ~= start then
      local x = (i - 1) % w + 1
      local y = (i - x) / w + 1
      for k = 1, dirs do
        local px, py = x - DX[k], y - DY[k] -- p steps to i in direction k
        local p = (py - 1) * w + px
        if legal(px, py, k, x, y) and (open[p] or p == start) then
          local nd = d + search.step_cost(m, options, x, y, k, factor)
          if g[p] == nil or nd < g[p] then
            g[p] = nd
            n = heap_push(hk, hv, n, nd, p)
          end
        end
      end
    end
  end
  if g[start] == nil then return nil, string.format("no path from (%d,%d) to (%d,%d)", x1, y1, x2, y2) end
  local path, x, y, i = { { x = x1, y = y1 } }, x1, y1, start
  while i ~= goal do
    for k = 1, dirs do
      local nx, ny = x + DX[k], y + DY[k]
      local j = (ny - 1) * w + nx
      if legal(x, y, k, nx, ny) and open[j] and g[j]
        and g[j] + search.step_cost(m, options, nx, ny, k, factor) == g[i] then
        x, y, i = nx, ny, j
        break
      end
    end
    path[#path + 1] = { x = x, y = y }
  end
  return path
end

return M
