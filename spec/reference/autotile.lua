-- spec/reference/autotile.lua: autotile masks in plain Lua, the oracle of
-- spec/autotile_spec.lua and the baseline bench/toolkit.lua times
-- map.autotile against (see grid.lua for how the references are written).
--
-- For each cell whose character is in `chars`, the mask of its neighbours
-- in that class: N = 1, NE = 2, E = 4, SE = 8, S = 16, SW = 32, W = 64,
-- NW = 128 (north is row y - 1); "blob" keeps a diagonal bit only between
-- two set orthogonal ones, "4" keeps N, E, S, W; `edge`: cells off the map
-- are in the class; `index`: the blob mask's rank among the 47 blob masks.
local grid = require "spec.reference.grid"

local new_tab, char_set = grid.new_tab, grid.char_set

local M = {}

local function has(mask, bit) return mask % (bit * 2) >= bit end

-- A mask with each diagonal bit kept only if both bits beside it are set.
local function blob(mask)
  local kept = 0
  for _, bit in ipairs({ 1, 4, 16, 64 }) do
    if has(mask, bit) then kept = kept + bit end
  end
  for _, corner in ipairs({ { 2, 1, 4 }, { 8, 16, 4 }, { 32, 16, 64 }, { 128, 1, 64 } }) do
    if has(mask, corner[1]) and has(mask, corner[2]) and has(mask, corner[3]) then
      kept = kept + corner[1]
    end
  end
  return kept
end

-- The 47 blob masks, ascending; and, per mode, what each of the 256 raw
-- masks becomes (built once, so that a cell costs one lookup).
local BLOB, RANK = {}, {}
local RESULT = { blob = {}, ["4"] = {}, ["8"] = {}, index = {} }
for mask = 0, 255 do
  if blob(mask) == mask then
    RANK[mask] = #BLOB
    BLOB[#BLOB + 1] = mask
  end
end
for mask = 0, 255 do
  RESULT["8"][mask] = mask
  RESULT.blob[mask] = blob(mask)
  RESULT.index[mask] = RANK[blob(mask)]
  local four = 0
  for _, bit in ipairs({ 1, 4, 16, 64 }) do
    if has(mask, bit) then four = four + bit end
  end
  RESULT["4"][mask] = four
end
M.BLOB = BLOB

-- The class of each cell as rows of booleans, indices 0 to w + 1, with a
-- ring of `edge` around the map.
local function class_rows(m, class, edge)
  local h, w = #m, #m[1]
  local rows = new_tab(h + 2, 1)
  for y = 0, h + 1 do
    local flags = new_tab(w + 2, 1)
    for x = 0, w + 1 do flags[x] = edge end
    local row = m[y]
    if y >= 1 and y <= h then
      for x = 1, w do flags[x] = class[row[x]] == true end
    end
    rows[y] = flags
  end
  return rows
end

function M.autotile(m, options)
  options = options or {}
  local mode = options.mode or "blob"
  local result = RESULT[(mode == "blob" and options.index) and "index" or mode]
  local rows = class_rows(m, char_set(options.chars or "#"), options.edge ~= false)
  local h, w = #m, #m[1]
  local out = new_tab(h, 0)
  for y = 1, h do
    local up, mid, down = rows[y - 1], rows[y], rows[y + 1]
    local row = new_tab(w, 0)
    for x = 1, w do
      if mid[x] then
        local mask = 0
        if up[x] then mask = 1 end
        if up[x + 1] then mask = mask + 2 end
        if mid[x + 1] then mask = mask + 4 end
        if down[x + 1] then mask = mask + 8 end
        if down[x] then mask = mask + 16 end
        if down[x - 1] then mask = mask + 32 end
        if mid[x - 1] then mask = mask + 64 end
        if up[x - 1] then mask = mask + 128 end
        row[x] = result[mask]
      else
        row[x] = false
      end
    end
    out[y] = row
  end
  return out
end

return M
