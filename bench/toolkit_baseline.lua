-- bench/toolkit_baseline.lua: pure-Lua field of view, distance maps and paths
-- on the module's map tables (rows of one-character strings, m[y][x], 1-based).
--
-- The benchmark's baseline for map.fov, map.distances and map.path
-- (bench/toolkit.lua) and the reference they are checked against
-- (spec/toolkit_spec.lua). Written the way a competent Lua programmer would:
-- locals everywhere, flat arrays pre-filled so they stay in the array part,
-- `table.new` where LuaJIT has it, no per-cell closures or temporary tables.
-- Runs on Lua 5.4 and LuaJIT. Arguments are trusted (no checking).
--
--   fov(m, x, y [, radius [, opaque]])        -> vis, vis[y][x] == true or nil
--   distances(m, sources [, options])         -> d, d[y][x] integer or false
--   path(m, x1, y1, x2, y2 [, options])       -> {{x=, y=}, ...} | nil, message
--   path_bfs(...)                             -> the same, unit costs only
--
-- `opaque` is a string of characters (default "#+"); `options` as the
-- module's: blocked (default "#"), diagonal (default false), cost (char ->
-- positive integer cost of entering, default 1).
--
-- fov is Albert Ford's symmetric shadowcasting (albertford.com/shadowcasting)
-- with slopes kept as integer numerator/denominator pairs and compared by
-- cross-multiplying, rows scanned from an explicit stack instead of by
-- recursion (a row's result depends only on its depth and slopes, so the
-- order does not matter). Cells off the map are opaque. With a radius, only
-- rows up to that depth are scanned and the result is kept to the disc
-- dx*dx + dy*dy <= radius*(radius+1).
--
-- distances is a breadth-first walk (4 neighbours unrolled, or 8), or
-- Dijkstra with a binary heap when a cost table is given.
--
-- path is A* run backwards, from the goal towards the start (Manhattan
-- heuristic; Chebyshev with diagonal moves), with a binary heap. After the
-- start is settled it keeps settling the nodes whose estimate ties the best
-- cost, so that every node on any shortest path has its exact cost to the
-- goal; the path is then walked from the start taking, at each step, the
-- first neighbour in order N, E, S, W, NE, SE, SW, NW that lies on a shortest
-- path: the module's tie rule.

local M = {}

local floor, ceil, abs = math.floor, math.ceil, math.abs

local new_tab
do
  local ok, tn = pcall(require, "table.new")
  if ok then
    new_tab = tn
  else
    new_tab = function() return {} end
  end
end

-- Set of the characters of a string.
local function char_set(s)
  local set = {}
  for i = 1, #s do set[s:sub(i, i)] = true end
  return set
end

---------------------------------------------------------------------------
-- Field of view.

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

---------------------------------------------------------------------------
-- A binary min-heap of (key, value) in two parallel arrays; keys compare.

local function heap_push(hk, hv, n, k, v)
  n = n + 1
  local i = n
  while i > 1 do
    local p = floor(i / 2)
    local pk = hk[p]
    if pk <= k then break end
    hk[i], hv[i] = pk, hv[p]
    i = p
  end
  hk[i], hv[i] = k, v
  return n
end

-- Removes the smallest; returns the new size, its key and value.
local function heap_pop(hk, hv, n)
  local k, v = hk[1], hv[1]
  local lk, lv = hk[n], hv[n]
  hk[n], hv[n] = nil, nil
  n = n - 1
  local i = 1
  while true do
    local c = 2 * i
    if c > n then break end
    if c < n and hk[c + 1] < hk[c] then c = c + 1 end
    if hk[c] >= lk then break end
    hk[i], hv[i] = hk[c], hv[c]
    i = c
  end
  if n > 0 then hk[i], hv[i] = lk, lv end
  return n, k, v
end

---------------------------------------------------------------------------
-- Distance maps.

-- Neighbour offsets: N, E, S, W, NE, SE, SW, NW (the module's tie order).
local DX = { 0, 1, 0, -1, 1, 1, -1, -1 }
local DY = { -1, 0, 1, 0, -1, 1, 1, -1 }

local function source_list(sources)
  if sources.x ~= nil then return { sources } end
  return sources
end

-- Breadth-first, 4 neighbours (the common case, unrolled): every step costs 1.
local function bfs4(m, w, h, d, srcs, blocked)
  local qx, qy = {}, {}
  local head, tail = 1, 0
  for i = 1, #srcs do
    local s = srcs[i]
    if d[s.y][s.x] == false then
      d[s.y][s.x] = 0
      tail = tail + 1
      qx[tail], qy[tail] = s.x, s.y
    end
  end
  while head <= tail do
    local x, y = qx[head], qy[head]
    head = head + 1
    local row, drow = m[y], d[y]
    local nd = drow[x] + 1
    if y > 1 then
      local up = d[y - 1]
      if up[x] == false and not blocked[m[y - 1][x]] then
        up[x] = nd
        tail = tail + 1
        qx[tail], qy[tail] = x, y - 1
      end
    end
    if x < w and drow[x + 1] == false and not blocked[row[x + 1]] then
      drow[x + 1] = nd
      tail = tail + 1
      qx[tail], qy[tail] = x + 1, y
    end
    if y < h then
      local down = d[y + 1]
      if down[x] == false and not blocked[m[y + 1][x]] then
        down[x] = nd
        tail = tail + 1
        qx[tail], qy[tail] = x, y + 1
      end
    end
    if x > 1 and drow[x - 1] == false and not blocked[row[x - 1]] then
      drow[x - 1] = nd
      tail = tail + 1
      qx[tail], qy[tail] = x - 1, y
    end
  end
end

-- Breadth-first, 8 neighbours without cutting corners: every step costs 1.
local function bfs8(m, w, h, d, srcs, blocked)
  local qx, qy = {}, {}
  local head, tail = 1, 0
  for i = 1, #srcs do
    local s = srcs[i]
    if d[s.y][s.x] == false then
      d[s.y][s.x] = 0
      tail = tail + 1
      qx[tail], qy[tail] = s.x, s.y
    end
  end
  while head <= tail do
    local x, y = qx[head], qy[head]
    head = head + 1
    local nd = d[y][x] + 1
    for k = 1, 8 do
      local nx, ny = x + DX[k], y + DY[k]
      if nx >= 1 and nx <= w and ny >= 1 and ny <= h then
        local drow = d[ny]
        if drow[nx] == false and not blocked[m[ny][nx]]
          and (k <= 4 or (not blocked[m[y][nx]] and not blocked[m[ny][x]])) then
          drow[nx] = nd
          tail = tail + 1
          qx[tail], qy[tail] = nx, ny
        end
      end
    end
  end
end

-- Dijkstra with a binary heap of flat indices (y - 1) * w + x.
local function dijkstra(m, w, h, d, srcs, blocked, dirs, cost)
  local hk, hv, n = {}, {}, 0
  for i = 1, #srcs do
    local s = srcs[i]
    if d[s.y][s.x] == false then
      d[s.y][s.x] = 0
      n = heap_push(hk, hv, n, 0, (s.y - 1) * w + s.x)
    end
  end
  while n > 0 do
    local dist, i
    n, dist, i = heap_pop(hk, hv, n)
    local x = (i - 1) % w + 1
    local y = (i - x) / w + 1
    if d[y][x] == dist then
      for k = 1, dirs do
        local nx, ny = x + DX[k], y + DY[k]
        if nx >= 1 and nx <= w and ny >= 1 and ny <= h then
          local c = m[ny][nx]
          if not blocked[c] and (k <= 4 or (not blocked[m[y][nx]] and not blocked[m[ny][x]])) then
            local nd = dist + (cost[c] or 1)
            local drow = d[ny]
            local old = drow[nx]
            if old == false or nd < old then
              drow[nx] = nd
              n = heap_push(hk, hv, n, nd, (ny - 1) * w + nx)
            end
          end
        end
      end
    end
  end
end

function M.distances(m, sources, options)
  options = options or {}
  local blocked = char_set(options.blocked or "#")
  local dirs = options.diagonal and 8 or 4
  local h = #m
  local w = #m[1]
  local d = new_tab(h, 0)
  for y = 1, h do
    local row = new_tab(w, 0)
    for x = 1, w do row[x] = false end
    d[y] = row
  end
  local srcs = source_list(sources)
  if options.cost then
    dijkstra(m, w, h, d, srcs, blocked, dirs, options.cost)
  elseif dirs == 8 then
    bfs8(m, w, h, d, srcs, blocked)
  else
    bfs4(m, w, h, d, srcs, blocked)
  end
  return d
end

---------------------------------------------------------------------------
-- Paths.

function M.path(m, x1, y1, x2, y2, options)
  options = options or {}
  local blocked = char_set(options.blocked or "#")
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
  local blocked = char_set(options.blocked or "#")
  local dirs = options.diagonal and 8 or 4
  if x1 == x2 and y1 == y2 then return { { x = x1, y = y1 } } end
  if blocked[m[y2][x2]] then return nil, string.format("goal (%d,%d) is blocked", x2, y2) end
  local h = #m
  local w = #m[1]
  local d = M.distances(m, { x = x2, y = y2 }, options)
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

return M
