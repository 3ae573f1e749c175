-- bench/baseline.lua: the pure-Lua baseline of the benchmark.
--
-- The same algorithms as the `map` module (see docs/generators.md, "rooms" and
-- "cave"), written the way a competent Lua programmer would:
-- maps are the same tables of rows of one-character strings, locals
-- everywhere, no per-cell closures or temporary tables, arrays pre-filled so
-- they stay in the array part, `table.new` where LuaJIT has it. It runs on
-- Lua 5.4 and LuaJIT.
--
-- Randomness is `math.random`, so maps differ from the module's (which uses
-- PCG64), but the work is the same: the same room count rules (at most
-- 10 * rooms attempts, stop at `rooms`), room sizes, crowding test, L-shaped
-- corridors with a coin for the leg order, `@` at the first room's centre, `>`
-- in the last room, items by a partial Fisher-Yates shuffle of the free floor
-- cells; the same cave frontier growth (same neighbour order, same
-- `random(max_frontier) > #frontier` test, swap-remove, same refill) with the
-- same fill target, `>` on the farthest floor cell by a breadth-first walk;
-- `reachable` is the same 4-neighbour flood fill from the first `@`.
--
-- API (a subset of the module's, same argument order):
--   new_map(w, h)                      -> table of rows of "#"
--   render(m)                          -> string, rows joined by "\n"
--   generate(w, h, seed)               -> rooms map (10 rooms, 5 items)
--   generate{width=, height=, seed=, algorithm="rooms"|"cave", rooms=,
--            items=, fill=, max_frontier=}
--   reachable(m)                       -> true | false, message

local M = {}

local random, randomseed = math.random, math.randomseed
local floor, ceil, min = math.floor, math.ceil, math.min
local concat = table.concat

-- LuaJIT (and OpenResty) code preallocates with table.new; Lua 5.4 has no
-- equivalent, and {} grows by doubling.
local new_tab
do
  local ok, tn = pcall(require, "table.new")
  if ok then
    new_tab = tn
  else
    new_tab = function() return {} end
  end
end

local WALL, FLOOR, PLAYER, STAIRS, GOLD, POTION = "#", ".", "@", ">", "$", "!"

function M.new_map(w, h)
  local m = new_tab(h, 0)
  for y = 1, h do
    local row = new_tab(w, 0)
    for x = 1, w do row[x] = WALL end
    m[y] = row
  end
  return m
end

function M.render(m)
  local h = #m
  local lines = new_tab(h, 0)
  for y = 1, h do lines[y] = concat(m[y]) end
  return concat(lines, "\n")
end

-- Items: `count` distinct "." cells chosen uniformly (partial Fisher-Yates over
-- the list of free cells, as the module does), each "$" or "!" at even odds.
local function place_items(m, w, h, count)
  local free, n = {}, 0
  for y = 1, h do
    local row = m[y]
    for x = 1, w do
      if row[x] == FLOOR then
        n = n + 1
        free[n] = (y - 1) * w + x
      end
    end
  end
  if count > n then
    error("cannot place " .. count .. " items: only " .. n .. " free floor cells")
  end
  local items = new_tab(count, 0)
  for k = 1, count do
    local pick = random(k, n)
    local i = free[pick]
    free[pick] = free[k]
    free[k] = i
    local kind = random(2) == 2 and POTION or GOLD
    local x = (i - 1) % w + 1
    local y = floor((i - 1) / w) + 1
    m[y][x] = kind
    items[k] = { x = x, y = y, kind = kind }
  end
  return items
end

local function carve_line(m, x1, y1, x2, y2)
  if x1 > x2 then x1, x2 = x2, x1 end
  if y1 > y2 then y1, y2 = y2, y1 end
  for y = y1, y2 do
    local row = m[y]
    for x = x1, x2 do row[x] = FLOOR end
  end
end

local function centre(r)
  return r.x + floor((r.w - 1) / 2), r.y + floor((r.h - 1) / 2)
end

local function rooms_map(w, h, seed, wanted, item_count)
  randomseed(seed)
  local m = M.new_map(w, h)
  local rooms, n = {}, 0
  local max_w, max_h = min(10, w - 2), min(6, h - 2)
  for _ = 1, wanted * 10 do
    if n == wanted then break end
    local rw = random(4, max_w)
    local rh = random(3, max_h)
    local rx = random(2, w - rw)
    local ry = random(2, h - rh)
    -- Kept only if it neither overlaps nor touches a kept room.
    local fits = true
    for i = 1, n do
      local r = rooms[i]
      if rx <= r.x + r.w and r.x <= rx + rw and ry <= r.y + r.h and r.y <= ry + rh then
        fits = false
        break
      end
    end
    if fits then
      n = n + 1
      rooms[n] = { x = rx, y = ry, w = rw, h = rh }
    end
  end
  for i = 1, n do
    local r = rooms[i]
    for y = r.y, r.y + r.h - 1 do
      local row = m[y]
      for x = r.x, r.x + r.w - 1 do row[x] = FLOOR end
    end
  end
  for i = 2, n do
    local ax, ay = centre(rooms[i - 1])
    local bx, by = centre(rooms[i])
    local cx, cy
    if random(2) == 2 then cx, cy = bx, ay else cx, cy = ax, by end
    carve_line(m, ax, ay, cx, cy)
    carve_line(m, cx, cy, bx, by)
  end

  local px, py = centre(rooms[1])
  local last = rooms[n]
  -- `>` on a random cell of the last room other than `@`.
  local spots = last.w * last.h
  local player_inside = px >= last.x and px < last.x + last.w and py >= last.y and py < last.y + last.h
  local k = random(player_inside and spots - 1 or spots) - 1
  local sx, sy
  for y = last.y, last.y + last.h - 1 do
    for x = last.x, last.x + last.w - 1 do
      if not (x == px and y == py) then
        if k == 0 then sx, sy = x, y end
        k = k - 1
      end
    end
  end
  m[py][px] = PLAYER
  m[sy][sx] = STAIRS
  local items = place_items(m, w, h, item_count)

  m.width, m.height, m.seed, m.algorithm = w, h, seed, "rooms"
  m.rooms = rooms
  m.player = { x = px, y = py }
  m.stairs = { x = sx, y = sy }
  m.items = items
  return m
end

local DX = { -1, 1, 0, 0 } -- left, right, up, down
local DY = { 0, 0, -1, 1 }

-- Breadth-first walking distances from (x0, y0) over every non-"#" cell.
-- Returns a flat array indexed by (y - 1) * w + x, -1 where unreached.
local function distances(m, w, h, x0, y0)
  local cells = w * h
  local dist = new_tab(cells, 0)
  for i = 1, cells do dist[i] = -1 end
  local qx, qy = {}, {}
  local head, tail = 1, 1
  qx[1], qy[1] = x0, y0
  dist[(y0 - 1) * w + x0] = 0
  while head <= tail do
    local x, y = qx[head], qy[head]
    local d = dist[(y - 1) * w + x] + 1
    head = head + 1
    for k = 1, 4 do
      local nx, ny = x + DX[k], y + DY[k]
      if nx >= 1 and nx <= w and ny >= 1 and ny <= h then
        local j = (ny - 1) * w + nx
        if dist[j] == -1 and m[ny][nx] ~= WALL then
          dist[j] = d
          tail = tail + 1
          qx[tail], qy[tail] = nx, ny
        end
      end
    end
  end
  return dist
end

local function cave_map(w, h, seed, fill, max_frontier, item_count)
  local interior = (w - 2) * (h - 2)
  local target = floor(fill * interior + 0.5)
  randomseed(seed)
  local m = M.new_map(w, h)
  local cells = w * h
  local queued = new_tab(cells, 0)
  for i = 1, cells do queued[i] = false end
  local fx, fy, nf = {}, {}, 0 -- the frontier
  local cx, cy, ncarved = new_tab(target, 0), new_tab(target, 0), 0
  local scan = 1
  local sx, sy = ceil(w / 2), ceil(h / 2)
  local x, y = sx, sy
  queued[(y - 1) * w + x] = true
  while true do
    m[y][x] = FLOOR
    ncarved = ncarved + 1
    cx[ncarved], cy[ncarved] = x, y
    if ncarved == target then break end
    for k = 1, 4 do
      local nx, ny = x + DX[k], y + DY[k]
      if nx > 1 and nx < w and ny > 1 and ny < h then
        local j = (ny - 1) * w + nx
        if not queued[j] and random(max_frontier) > nf then
          queued[j] = true
          nf = nf + 1
          fx[nf], fy[nf] = nx, ny
        end
      end
    end
    if nf == 0 then
      -- Refill from the earliest carved cell that still has rock around it.
      while nf == 0 do
        local ox, oy = cx[scan], cy[scan]
        for k = 1, 4 do
          local nx, ny = ox + DX[k], oy + DY[k]
          if nx > 1 and nx < w and ny > 1 and ny < h and not queued[(ny - 1) * w + nx] then
            nf = nf + 1
            fx[nf], fy[nf] = nx, ny
          end
        end
        if nf == 0 then scan = scan + 1 end
      end
      for k = 1, nf do queued[(fy[k] - 1) * w + fx[k]] = true end
    end
    local pick = random(nf)
    x, y = fx[pick], fy[pick]
    fx[pick], fy[pick] = fx[nf], fy[nf]
    nf = nf - 1
  end

  -- `>` on the floor cell farthest from `@`, the first in row order on a tie.
  local dist = distances(m, w, h, sx, sy)
  local best_x, best_y, best = sx, sy, 0
  for yy = 1, h do
    local row, base = m[yy], (yy - 1) * w
    for xx = 1, w do
      if row[xx] == FLOOR then
        local d = dist[base + xx]
        if d > best then best_x, best_y, best = xx, yy, d end
      end
    end
  end
  m[sy][sx] = PLAYER
  m[best_y][best_x] = STAIRS
  local items = place_items(m, w, h, item_count)

  m.width, m.height, m.seed, m.algorithm = w, h, seed, "cave"
  m.rooms = {}
  m.player = { x = sx, y = sy }
  m.stairs = { x = best_x, y = best_y }
  m.items = items
  return m
end

function M.generate(a, b, c)
  if type(a) == "table" then
    local o = a
    if o.algorithm == "cave" then
      local w, h = o.width, o.height
      return cave_map(w, h, o.seed, o.fill or 0.5, o.max_frontier or min(w, h), o.items or 5)
    end
    return rooms_map(o.width, o.height, o.seed, o.rooms or 10, o.items or 5)
  end
  return rooms_map(a, b, c, 10, 5)
end

local LISTED = 5

function M.reachable(m)
  local h = #m
  local w = #m[1]
  local px, py
  for y = 1, h do
    local row = m[y]
    for x = 1, w do
      if row[x] == PLAYER then
        px, py = x, y
        break
      end
    end
    if px then break end
  end
  if not px then return false, "no @ on the map" end
  local dist = distances(m, w, h, px, py)
  local cut, ncut = nil, 0
  for y = 1, h do
    local row, base = m[y], (y - 1) * w
    for x = 1, w do
      local c = row[x]
      if (c == STAIRS or c == GOLD or c == POTION) and dist[base + x] == -1 then
        ncut = ncut + 1
        if ncut <= LISTED then
          cut = cut or {}
          cut[ncut] = string.format("%s at (%d,%d)", c, x, y)
        end
      end
    end
  end
  if ncut == 0 then return true end
  local msg = string.format("not reachable from @ at (%d,%d): %s", px, py, concat(cut, " "))
  if ncut > LISTED then msg = msg .. " and " .. (ncut - LISTED) .. " more" end
  return false, msg
end

return M
