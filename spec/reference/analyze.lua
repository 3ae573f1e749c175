-- spec/reference/analyze.lua: map.analyze by brute force, the oracle of
-- spec/analyze_spec.lua.
--
--   analyze(m [, options]) -> the table map.analyze returns (without rooms)
--
-- Every search is a plain breadth-first walk by the step rule written out
-- again (edge-on into an open cell; with `diagonal`, corner to corner when
-- both cells passed between are open too). A chokepoint is an open cell
-- whose closing leaves the rest of its region unreachable from one of its
-- cells; its cut is how many cells the root (`@` in `@`'s region, else the
-- region's first cell in row order) then no longer reaches. A dead end
-- has exactly one legal step.
local M = {}

local DX = { 0, 1, 0, -1, 1, 1, -1, -1 }
local DY = { -1, 0, 1, 0, -1, 1, 1, -1 }

-- The legal steps from cell i (1-based, row-major), cell `shut` closed.
local function steps(g, i, shut, out)
  local n = 0
  local x, y = (i - 1) % g.w + 1, math.floor((i - 1) / g.w) + 1
  local function open(cx, cy)
    if cx < 1 or cy < 1 or cx > g.w or cy > g.h then return false end
    local j = (cy - 1) * g.w + cx
    return g.open[j] and j ~= shut
  end
  for k = 1, g.diagonal and 8 or 4 do
    local nx, ny = x + DX[k], y + DY[k]
    if open(nx, ny) and (k <= 4 or (open(x, ny) and open(nx, y))) then
      n = n + 1
      out[n] = (ny - 1) * g.w + nx
    end
  end
  return n
end

-- Steps from `from` to each cell (nil: unreached), cell `shut` closed;
-- and how many cells were reached.
local function search(g, from, shut)
  local d, queue, head, out = { [from] = 0 }, { from }, 1, {}
  while queue[head] do
    local i = queue[head]
    head = head + 1
    for k = 1, steps(g, i, shut, out) do
      local j = out[k]
      if not d[j] then
        d[j] = d[i] + 1
        queue[#queue + 1] = j
      end
    end
  end
  return d, #queue
end

local function cell(g, i, key, value)
  local t = { x = (i - 1) % g.w + 1, y = math.floor((i - 1) / g.w) + 1 }
  if key then t[key] = value end
  return t
end

function M.analyze(m, options)
  options = options or {}
  local blocked = options.blocked or m.blocked or "#"
  local g = { w = #m[1], h = #m, open = {}, diagonal = options.diagonal == true }
  local player, stairs = nil, {}
  for y = 1, g.h do
    for x = 1, g.w do
      local i, c = (y - 1) * g.w + x, m[y][x]
      g.open[i] = not blocked:find(c, 1, true)
      if c == "@" and not player then player = g.open[i] and i or false end
      if c == ">" then stairs[#stairs + 1] = i end
    end
  end
  player = player or nil
  local label, regions, region = {}, {}, false
  for i = 1, g.w * g.h do
    if g.open[i] and not label[i] then
      local d, size = search(g, i)
      regions[#regions + 1] = cell(g, i, "size", size)
      for j in pairs(d) do label[j] = #regions end
    end
  end
  if player then region = label[player] end
  local out, chokepoints, dead_ends = {}, {}, {}
  for c = 1, g.w * g.h do
    if g.open[c] then
      if steps(g, c, nil, out) == 1 then dead_ends[#dead_ends + 1] = cell(g, c) end
      local r = label[c]
      local size = regions[r].size
      local first = (regions[r].y - 1) * g.w + regions[r].x
      local root = (player and label[player] == r) and player or first
      local other = root
      if root == c then
        other = nil
        for j = 1, g.w * g.h do
          if j ~= c and label[j] == r then other = j break end
        end
      end
      if other then
        local _, after = search(g, other, c)
        if after < size - 1 then
          chokepoints[#chokepoints + 1] = cell(g, c, "cut", root == c and 0 or size - 1 - after)
        end
      end
    end
  end
  local result = { regions = regions, region = region, chokepoints = chokepoints, dead_ends = dead_ends,
    stairs = false, farthest = false, rooms = false }
  if player then
    local d = search(g, player)
    for _, s in ipairs(stairs) do
      if d[s] and (result.stairs == false or d[s] < result.stairs) then result.stairs = d[s] end
    end
    local best = player
    for i = 1, g.w * g.h do
      if d[i] and d[i] > d[best] then best = i end
    end
    result.farthest = cell(g, best, "distance", d[best])
  end
  return result
end

return M
