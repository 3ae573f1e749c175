-- bench/worst_maps.lua: the inputs the worst-case benches share
-- (bench/worst.lua, bench/worst_all.lua, bench/worst_design.lua): maps of
-- several kinds at any shape, the longest `avoid`, `known` for explore,
-- texts for parse, and the designer's tables of generate at their limits.
-- Each table carries a `desc` (in its metatable: the module reads raw) for
-- the reports.
local map = require "map"

local M = {}
local CAP = map.MAX_CELLS
M.CAP = CAP
-- The highest cost a cell may have.
M.MAX_COST = math.floor(2 ^ 30)

-- a // b for positive integers, which LuaJIT's syntax lacks (an integer on
-- Lua 5.4, as math.floor gives one).
function M.idiv(a, b) return math.floor(a / b) end

-- A table with `desc` for the reports.
function M.described(t, desc) return setmetatable(t, { __index = { desc = desc } }) end

-- Maps for render, reachable, fov, distances and path. Rows of the same
-- pattern alias one table (the module reads every row all the same), so a
-- 4,000,000-cell map costs Lua a few rows. Kinds:
--   floor      all "." (with "@" at (1,1) and ">" at (w,h) when `marks`)
--   pillars    "#" at even x of even rows, "." elsewhere: many shadows
--   serpentine a corridor winding through every other row: the longest path
--   checker    "." and "," in a checkerboard (for costs)
--   walled     floor with the far corner walled in: the target unreachable
function M.row_of(w, f)
  local row = {}
  for x = 1, w do row[x] = f(x) end
  return row
end

local MAPS = {}
M.MAPS = MAPS
function MAPS.floor(w, h, marks)
  local floor = M.row_of(w, function() return "." end)
  local m = {}
  for y = 1, h do m[y] = floor end
  if marks then
    m[1] = M.row_of(w, function(x) return x == 1 and "@" or "." end)
    m[h] = M.row_of(w, function(x) return (x == w and h > 1) and ">" or (x == 1 and h == 1 and "@" or ".") end)
    if h == 1 then m[1] = M.row_of(w, function(x) return x == 1 and "@" or x == w and ">" or "." end) end
  end
  return m
end
function MAPS.pillars(w, h, marks)
  local floor = M.row_of(w, function() return "." end)
  local pillars = M.row_of(w, function(x) return x % 2 == 0 and "#" or "." end)
  local m = {}
  for y = 1, h do m[y] = y % 2 == 0 and pillars or floor end
  if marks then
    m[1] = M.row_of(w, function(x) return x == 1 and "@" or "." end)
    if h > 1 and h % 2 == 1 then m[h] = M.row_of(w, function(x) return x == w and ">" or "." end) end
  end
  return m
end
function MAPS.serpentine(w, h, marks)
  local floor = M.row_of(w, function() return "." end)
  local gap_right = M.row_of(w, function(x) return x == w and "." or "#" end)
  local gap_left = M.row_of(w, function(x) return x == 1 and "." or "#" end)
  local m = {}
  for y = 1, h do
    if y % 2 == 1 then m[y] = floor
    elseif y % 4 == 2 then m[y] = gap_right
    else m[y] = gap_left end
  end
  if marks then
    m[1] = M.row_of(w, function(x) return x == 1 and "@" or "." end)
    if h > 1 and h % 2 == 1 then
      local last_x = (h % 4 == 1) and w or 1
      m[h] = M.row_of(w, function(x) return x == last_x and ">" or "." end)
    end
  end
  return m
end
function MAPS.checker(w, h)
  local a = M.row_of(w, function(x) return x % 2 == 0 and "." or "," end)
  local b = M.row_of(w, function(x) return x % 2 == 1 and "." or "," end)
  local m = {}
  for y = 1, h do m[y] = y % 2 == 0 and a or b end
  return m
end
function MAPS.walled(w, h)
  local m = MAPS.floor(w, h)
  if w >= 3 and h >= 3 then
    m[h - 1] = M.row_of(w, function(x) return x >= w - 1 and "#" or "." end)
    m[h] = M.row_of(w, function(x) return x == w - 1 and "#" or "." end)
  end
  return m
end

function M.make_map(kind, w, h, marks)
  local m = MAPS[kind](w, h, marks)
  return setmetatable(m, { __index = { desc = string.format("<%s %dx%d%s>", kind, w, h, marks and " @>" or "") } })
end
-- (`desc` sits in a metatable, which the module never reads: it reads raw;
-- `show` finds it through v.desc.)

-- The longest `avoid` allowed (map.MAX_CELLS entries), all one position
-- (every entry is read and checked all the same), built once.
local long_avoid
function M.avoid_list()
  if not long_avoid then
    long_avoid = setmetatable({}, { __index = { desc = string.format("<%d x {x=1, y=1}>", CAP) } })
    local one = { x = 1, y = 1 }
    for i = 1, CAP do long_avoid[i] = one end
  end
  return long_avoid
end

-- Rows of `known` for explore: every cell known but the last one (w, h),
-- so the frontier is as far from (1, 1) as the map allows.
function M.known_but_last(w, h)
  local all = M.row_of(w, function() return true end)
  local k = {}
  for y = 1, h - 1 do k[y] = all end
  k[h] = M.row_of(w, function(x) return x < w end)
  return setmetatable(k, { __index = { desc = string.format("<known %dx%d but the last>", w, h) } })
end

-- Texts of w x h cells: "." with "@" first and ">" last, rows joined by "\n".
function M.text_of(w, h)
  local row = string.rep(".", w)
  local body = string.rep(row .. "\n", h - 1) .. row
  return "@" .. body:sub(2, -2) .. ">"
end

-- The designer's tables (generate's vaults and place) at their limits.
-- A 64x64 template: a ring of wall with a door in the middle of each side
-- and floor inside, or the same with every ring cell an entrance (each one
-- a tunnel to join), or a comb of one-wide corridors (many walls, long
-- walks inside).
function M.template(kind)
  local rows = {}
  for y = 1, 64 do
    local row = {}
    for x = 1, 64 do
      local ring = x == 1 or y == 1 or x == 64 or y == 64
      local c
      if kind == "open" then
        c = "."
      elseif kind == "doors" then
        c = ring and ((x == 32 or y == 32) and "+" or "#") or "."
      else -- comb
        c = ring and (x % 2 == 0 and "." or "#") or ((x % 2 == 0 or y == 63) and "." or "#")
      end
      row[x] = c
    end
    rows[y] = table.concat(row)
  end
  return rows
end

local VAULTS = {}
M.VAULTS = VAULTS
for _, kind in ipairs({ "doors", "open", "comb" }) do
  VAULTS[kind] = { { rows = M.template(kind), count = 100, rotate = true } }
end

-- The most placed cells: 100 entries of 100 cells each, every filter on
-- (half of them hidden), or `min` alone (an open map hides nothing).
local PLACE, PLACE_MIN = {}, {}
M.PLACE, M.PLACE_MIN = PLACE, PLACE_MIN
for i = 1, 100 do
  PLACE[i] = { char = "M", count = 100, min = i, hidden = i % 2 == 0 }
  PLACE_MIN[i] = { char = "M", count = 100, min = i }
end

return M
