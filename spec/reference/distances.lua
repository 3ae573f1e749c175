-- spec/reference/distances.lua: distance maps in pure Lua, the reference for
-- map.distances (spec/distances_spec.lua), the walking distances the
-- generators' checks use, and map.distances' baseline (bench/toolkit.lua);
-- see grid.lua for how the references are written.
--
--   distances(m, sources [, options])  -> d, d[y][x] integer or false
--
-- `sources` is a position {x=, y=} or an array of them; `options` as the
-- module's: blocked (default m.blocked, else "#"), diagonal (default false), cost (char ->
-- positive integer cost of entering, default 1). A source counts even on a
-- blocked cell.
--
-- A breadth-first walk (4 neighbours unrolled, or 8), or Dijkstra with a
-- binary heap when a cost table is given.
local grid = require "spec.reference.grid"
local heap = require "spec.reference.heap"

local M = {}

local new_tab, char_set, DX, DY = grid.new_tab, grid.char_set, grid.DX, grid.DY
local heap_push, heap_pop = heap.push, heap.pop

local function source_list(sources)
  if sources.x ~= nil then return { sources } end
  return sources
end

-- Puts the sources at distance 0 and in the queue qx, qy; returns its length.
local function queue_sources(d, srcs, qx, qy)
  local tail = 0
  for i = 1, #srcs do
    local s = srcs[i]
    if d[s.y][s.x] == false then
      d[s.y][s.x] = 0
      tail = tail + 1
      qx[tail], qy[tail] = s.x, s.y
    end
  end
  return tail
end

-- Breadth-first, 4 neighbours (the common case, unrolled): every step costs 1.
local function bfs4(m, w, h, d, srcs, blocked)
  local qx, qy = {}, {}
  local head, tail = 1, queue_sources(d, srcs, qx, qy)
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
  local head, tail = 1, queue_sources(d, srcs, qx, qy)
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
  local blocked = char_set(options.blocked or m.blocked or "#")
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

return M
