-- spec/reference/flee.lua: safety maps in pure Lua, the reference for
-- map.flee (spec/flee_spec.lua) and its baseline (bench/turns.lua); see
-- grid.lua for how the references are written.
--
--   flee(m, sources [, options])  -> f, f[y][x] integer or false
--
-- The distance map (search.lua, with the same options), each reached value
-- v turned into math.floor(v * factor) (options.factor, default -1.2), then
-- rescanned by Dijkstra with a binary heap from every reached cell at its
-- new value: a cell takes the least of its own and a neighbour's plus the
-- cost of entering it, over the reached cells only.
local grid = require "spec.reference.grid"
local heap = require "spec.reference.heap"
local search = require "spec.reference.search"

local M = {}

local floor = math.floor
local new_tab, DX, DY = grid.new_tab, grid.DX, grid.DY
local heap_push, heap_pop = heap.push, heap.pop

function M.flee(m, sources, options)
  options = options or {}
  local factor = options.factor or -1.2
  local d = search.search(m, sources, options)
  local h, w = #m, #m[1]
  local open = search.open_cells(m, w, h, options)
  local cost = options.cost
  local dirs = options.diagonal and 8 or 4
  local f = new_tab(w * h, 0)
  local hk, hv, n = {}, {}, 0
  local i = 0
  for y = 1, h do
    local row = d[y]
    for x = 1, w do
      i = i + 1
      local v = row[x]
      if v then
        v = floor(v * factor)
        f[i] = v
        n = heap_push(hk, hv, n, v, i)
      else
        f[i] = false
      end
    end
  end
  while n > 0 do
    local v, c
    n, v, c = heap_pop(hk, hv, n)
    if f[c] == v then
      local x = (c - 1) % w + 1
      local y = (c - x) / w + 1
      for k = 1, dirs do
        local nx, ny = x + DX[k], y + DY[k]
        if nx >= 1 and nx <= w and ny >= 1 and ny <= h then
          local j = (ny - 1) * w + nx
          if f[j] and open[j] and (k <= 4 or (open[(y - 1) * w + nx] and open[(ny - 1) * w + x])) then
            local nv = v + (cost and cost[m[ny][nx]] or 1)
            if nv < f[j] then
              f[j] = nv
              n = heap_push(hk, hv, n, nv, j)
            end
          end
        end
      end
    end
  end
  return grid.rows(f, w, h)
end

return M
