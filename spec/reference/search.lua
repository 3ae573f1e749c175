-- spec/reference/search.lua: distance maps with every option in pure Lua,
-- the reference for map.distances' avoid, known, max and start values
-- (spec/limits_spec.lua), and the search the references of flee, explore
-- and sample build on; see grid.lua for how the references are written.
--
--   search(m, sources [, options])  -> d, d[y][x] integer or false
--
-- `sources` is a position {x=, y=, value=} or an array of them (value
-- default 0); `options` as map.distances': blocked (default m.blocked or "#"), diagonal,
-- cost (char -> cost of entering), avoid (a position or an array of them),
-- known (rows; a cell whose known[y][x] is not truthy cannot be entered),
-- max (cells farther are false). A source counts even on a cell that
-- cannot be entered, and can be left. Charged steps (level:distances'):
-- diagonal an integer (diagonal steps, each costing that many times its
-- cell's cost), straight (straight steps' factor, default 1), occupied
-- an integer with occupied_cells (an array of positions): entering one of
-- those costs occupied more, before the factor.
--
-- A breadth-first walk when every step costs 1 and every source starts at
-- the same value; otherwise Dijkstra with a binary heap.
local grid = require "spec.reference.grid"
local heap = require "spec.reference.heap"

local M = {}

local new_tab, char_set, DX, DY = grid.new_tab, grid.char_set, grid.DX, grid.DY
local heap_push, heap_pop = heap.push, heap.pop

local MAX_VALUE = 2 ^ 53

local function list(positions)
  if positions == nil then return {} end
  if positions.x ~= nil or positions.y ~= nil then return { positions } end
  return positions
end

-- open[(y - 1) * w + x]: whether the cell may be entered.
local function open_cells(m, w, h, options)
  local blocked = char_set(options.blocked or m.blocked or "#")
  local known = options.known
  local open = new_tab(w * h, 0)
  local i = 0
  for y = 1, h do
    local row, krow = m[y], known and known[y]
    for x = 1, w do
      i = i + 1
      open[i] = not blocked[row[x]] and (not known or (krow ~= nil and krow[x] ~= nil and krow[x] ~= false))
    end
  end
  for _, p in ipairs(list(options.avoid)) do open[(p.y - 1) * w + p.x] = false end
  return open
end
M.open_cells = open_cells

-- The factors of straight and diagonal steps and the extra cost of the
-- occupied cells, by cell index (w wide), when options charge steps; nil
-- when they do not.
function M.factors(options)
  local straight, diagonal = options.straight or 1, options.diagonal
  diagonal = math.type and math.type(diagonal) == "integer" and diagonal
    or type(diagonal) == "number" and diagonal or 1
  local extra = type(options.occupied) == "number" and options.occupied or 0
  if straight == 1 and diagonal == 1 and (extra == 0 or #(options.occupied_cells or {}) == 0) then return nil end
  local costly = {}
  for _, p in ipairs(options.occupied_cells or {}) do costly[p.y * 65536 + p.x] = true end
  return { straight = straight, diagonal = diagonal, extra = extra, costly = costly }
end

-- What a step in direction k (grid.DX/DY order) entering (x, y) costs.
function M.step_cost(m, options, x, y, k, factor)
  local c = options.cost and options.cost[m[y][x]] or 1
  if not factor then return c end
  if factor.costly[y * 65536 + x] then c = c + factor.extra end
  return c * (k <= 4 and factor.straight or factor.diagonal)
end

function M.search(m, sources, options)
  options = options or {}
  local h, w = #m, #m[1]
  local open = open_cells(m, w, h, options)
  local dirs = options.diagonal and 8 or 4
  local cost = options.cost
  local factor = M.factors(options)
  local max = options.max and math.min(options.max, MAX_VALUE) or MAX_VALUE
  local d = new_tab(w * h, 0)
  for i = 1, w * h do d[i] = false end
  local srcs, same = list(sources), true
  for _, s in ipairs(srcs) do
    if (s.value or 0) ~= (srcs[1].value or 0) then same = false end
  end
  local function step_ok(x, y, k, nx, ny)
    return nx >= 1 and nx <= w and ny >= 1 and ny <= h and open[(ny - 1) * w + nx]
      and (k <= 4 or (open[(y - 1) * w + nx] and open[(ny - 1) * w + x]))
  end
  if not cost and same and not factor then
    local qx, qy, tail = {}, {}, 0
    for _, s in ipairs(srcs) do
      local v, i = s.value or 0, (s.y - 1) * w + s.x
      if v <= max and d[i] == false then
        d[i] = v
        tail = tail + 1
        qx[tail], qy[tail] = s.x, s.y
      end
    end
    local head = 1
    while head <= tail do
      local x, y = qx[head], qy[head]
      head = head + 1
      local nd = d[(y - 1) * w + x] + 1
      if nd <= max then
        for k = 1, dirs do
          local nx, ny = x + DX[k], y + DY[k]
          if step_ok(x, y, k, nx, ny) and d[(ny - 1) * w + nx] == false then
            d[(ny - 1) * w + nx] = nd
            tail = tail + 1
            qx[tail], qy[tail] = nx, ny
          end
        end
      end
    end
  else
    local hk, hv, n = {}, {}, 0
    for _, s in ipairs(srcs) do
      local v, i = s.value or 0, (s.y - 1) * w + s.x
      if v <= max and (d[i] == false or v < d[i]) then
        d[i] = v
        n = heap_push(hk, hv, n, v, i)
      end
    end
    while n > 0 do
      local dist, i
      n, dist, i = heap_pop(hk, hv, n)
      if d[i] == dist then
        local x = (i - 1) % w + 1
        local y = (i - x) / w + 1
        for k = 1, dirs do
          local nx, ny = x + DX[k], y + DY[k]
          if step_ok(x, y, k, nx, ny) then
            local j = (ny - 1) * w + nx
            local nd = dist + M.step_cost(m, options, nx, ny, k, factor)
            if nd <= max and (d[j] == false or nd < d[j]) then
              d[j] = nd
              n = heap_push(hk, hv, n, nd, j)
            end
          end
        end
      end
    end
  end
  return grid.rows(d, w, h)
end

return M
