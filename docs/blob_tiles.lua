-- The picture of map.autotile's 47 blob masks (docs/autotile-blob.svg), made
-- from the module: for each mask, a wall with just those neighbours, its
-- index (the rank `index = true` gives) and its mask.
--
--   dofile("docs/blob_tiles.lua")  --> the SVG text
--   lua5.4 docs/blob_tiles.lua docs/autotile-blob.svg  -- rewrites it (`make readme`)
--
-- spec/readme_spec.lua checks that the file holds exactly this text.
local map = require "map"

-- Neighbour bits and their offsets: N, NE, E, SE, S, SW, W, NW.
local BITS = { { 1, 0, -1 }, { 2, 1, -1 }, { 4, 1, 0 }, { 8, 1, 1 }, { 16, 0, 1 }, { 32, -1, 1 }, { 64, -1, 0 },
  { 128, -1, -1 } }

-- A 3x3 map with a wall in the middle and walls at the neighbours `mask` has.
local function tile_map(mask)
  local m = map.new_map(3, 3)
  for y = 1, 3 do
    for x = 1, 3 do m[y][x] = "." end
  end
  m[2][2] = "#"
  for _, b in ipairs(BITS) do
    if mask % (b[1] * 2) >= b[1] then m[2 + b[3]][2 + b[2]] = "#" end
  end
  return m
end

-- The 47 masks in index order, each found by asking the module.
local masks = {}
for mask = 0, 255 do
  local m = tile_map(mask)
  local blob = map.autotile(m, { edge = false })[2][2]
  if blob == mask then
    local index = map.autotile(m, { edge = false, index = true })[2][2]
    masks[index + 1] = mask
  end
end
assert(#masks == 47, "the blob form has 47 masks")

local CELL, PAD, COLS = 12, 8, 8
local TILE = 3 * CELL
local W, H = COLS * (TILE + 2 * PAD), math.ceil(#masks / COLS) * (TILE + 2 * PAD + 24)

local parts = {
  ('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" ' ..
    'font-family="monospace" font-size="11">'):format(W, H, W, H),
  ('<rect width="%d" height="%d" fill="#1b1b1f"/>'):format(W, H),
}
for i, mask in ipairs(masks) do
  local col, row = (i - 1) % COLS, math.floor((i - 1) / COLS)
  local x0, y0 = col * (TILE + 2 * PAD) + PAD, row * (TILE + 2 * PAD + 24) + PAD
  local m = tile_map(mask)
  for y = 1, 3 do
    for x = 1, 3 do
      local fill = m[y][x] == "#" and (x == 2 and y == 2 and "#e8c170" or "#8a8f98") or "#2c2e35"
      parts[#parts + 1] = ('<rect x="%d" y="%d" width="%d" height="%d" fill="%s"/>'):format(
        x0 + (x - 1) * CELL, y0 + (y - 1) * CELL, CELL - 1, CELL - 1, fill)
    end
  end
  parts[#parts + 1] = ('<text x="%d" y="%d" fill="#e6e6e6">%d: %d</text>'):format(
    x0, y0 + TILE + 14, i - 1, mask)
end
parts[#parts + 1] = "</svg>"
local svg = table.concat(parts, "\n") .. "\n"

local path = ...
if path then
  local f = assert(io.open(path, "wb"))
  f:write(svg)
  f:close()
end
return svg
