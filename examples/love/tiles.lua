-- The tile view's tileset, drawn once at start-up into a canvas with plain
-- shapes (no image files): the 47 wall tiles of map.autotile's "blob" form,
-- in the order of their index, then one tile per other glyph.
-- luacheck: read globals love
local M = {}

M.SIZE = 20

-- Bits of an autotile mask (north is row y - 1).
local N, NE, E, SE, S, SW, W, NW = 1, 2, 4, 8, 16, 32, 64, 128

-- The 47 blob masks in ascending order: a diagonal bit only with both
-- orthogonal bits beside it. map.autotile{index = true} gives a wall cell's
-- rank in this list, so tile i + 1 of it is the tile for index i.
local function blob_masks()
  local masks = {}
  for mask = 0, 255 do
    local function has(bit) return mask % (bit * 2) >= bit end
    if (not has(NE) or has(N) and has(E)) and (not has(SE) or has(S) and has(E))
      and (not has(SW) or has(S) and has(W)) and (not has(NW) or has(N) and has(W)) then
      masks[#masks + 1] = mask
    end
  end
  return masks
end

local STONE = { 0.25, 0.27, 0.36 }
local MORTAR = { 0.20, 0.21, 0.28 }
local RIM = { 0.62, 0.64, 0.80 }
local FLOOR = { 0.13, 0.13, 0.16 }
local WOOD = { 0.62, 0.38, 0.16 }

local function colour(c, a)
  love.graphics.setColor(c[1], c[2], c[3], a or 1)
end

-- A wall tile at (ox, oy): stone, with a rim on each side that does not join
-- another wall and a notch in each inner corner (both sides join, the
-- diagonal does not).
local function wall(ox, oy, mask)
  local s, r = M.SIZE, 3
  local function has(bit) return mask % (bit * 2) >= bit end
  colour(STONE)
  love.graphics.rectangle("fill", ox, oy, s, s)
  colour(MORTAR)
  love.graphics.rectangle("fill", ox, oy + s / 2 - 1, s, 2)
  love.graphics.rectangle("fill", ox + s / 2 - 1, oy, 2, s / 2)
  colour(RIM)
  if not has(N) then love.graphics.rectangle("fill", ox, oy, s, r) end
  if not has(S) then love.graphics.rectangle("fill", ox, oy + s - r, s, r) end
  if not has(W) then love.graphics.rectangle("fill", ox, oy, r, s) end
  if not has(E) then love.graphics.rectangle("fill", ox + s - r, oy, r, s) end
  if has(N) and has(E) and not has(NE) then love.graphics.rectangle("fill", ox + s - r, oy, r, r) end
  if has(S) and has(E) and not has(SE) then love.graphics.rectangle("fill", ox + s - r, oy + s - r, r, r) end
  if has(S) and has(W) and not has(SW) then love.graphics.rectangle("fill", ox, oy + s - r, r, r) end
  if has(N) and has(W) and not has(NW) then love.graphics.rectangle("fill", ox, oy, r, r) end
end

local function floor(ox, oy)
  local s = M.SIZE
  colour(FLOOR)
  love.graphics.rectangle("fill", ox, oy, s, s)
  love.graphics.setColor(0.24, 0.24, 0.28)
  love.graphics.rectangle("fill", ox + s / 2 - 1, oy + s / 2 - 1, 2, 2)
end

local function stairs(ox, oy, c, down)
  local s = M.SIZE
  floor(ox, oy)
  colour(c)
  for i = 0, 3 do
    local w = down and s - 4 - i * 4 or 4 + i * 4
    love.graphics.rectangle("fill", ox + (s - w) / 2, oy + 3 + i * 4, w, 3)
  end
end

-- The surface's terrain: water, forest, mountains and bridges, each a
-- whole tile.
local WATER = { 0.10, 0.22, 0.48 }

local function water(ox, oy)
  local s = M.SIZE
  colour(WATER)
  love.graphics.rectangle("fill", ox, oy, s, s)
  love.graphics.setColor(0.35, 0.55, 0.90)
  for i = 0, 1 do
    local y = oy + 6 + i * 8
    love.graphics.line(ox + 3, y, ox + 7, y - 2, ox + 11, y, ox + 15, y - 2)
  end
end

-- The other tiles, by glyph: each drawn on a floor tile.
local SPRITES = {
  ["~"] = water,
  ['"'] = function(ox, oy)
    local s = M.SIZE
    love.graphics.setColor(0.10, 0.24, 0.12)
    love.graphics.rectangle("fill", ox, oy, s, s)
    love.graphics.setColor(0.45, 0.28, 0.12)
    love.graphics.rectangle("fill", ox + s / 2 - 1, oy + s - 7, 3, 5)
    love.graphics.setColor(0.22, 0.62, 0.28)
    love.graphics.polygon("fill", ox + s / 2, oy + 2, ox + 3, oy + s - 6, ox + s - 3, oy + s - 6)
  end,
  ["^"] = function(ox, oy)
    local s = M.SIZE
    love.graphics.setColor(0.20, 0.21, 0.24)
    love.graphics.rectangle("fill", ox, oy, s, s)
    love.graphics.setColor(0.52, 0.54, 0.60)
    love.graphics.polygon("fill", ox + s / 2, oy + 2, ox + 1, oy + s - 2, ox + s - 1, oy + s - 2)
    love.graphics.setColor(0.95, 0.96, 1.00)
    love.graphics.polygon("fill", ox + s / 2, oy + 2, ox + s / 2 - 4, oy + 8, ox + s / 2 + 4, oy + 8)
  end,
  ["="] = function(ox, oy)
    local s = M.SIZE
    water(ox, oy)
    colour(WOOD)
    love.graphics.rectangle("fill", ox, oy + 4, s, s - 8)
    love.graphics.setColor(0.40, 0.23, 0.09)
    for x = 4, s - 1, 5 do love.graphics.rectangle("fill", ox + x, oy + 4, 1, s - 8) end
  end,
  ["."] = floor,
  ["+"] = function(ox, oy)
    local s = M.SIZE
    colour(WOOD)
    love.graphics.rectangle("fill", ox + 2, oy + 1, s - 4, s - 2)
    love.graphics.setColor(0.35, 0.20, 0.08)
    love.graphics.rectangle("fill", ox + s / 2 - 1, oy + 1, 2, s - 2)
    love.graphics.setColor(0.95, 0.80, 0.30)
    love.graphics.circle("fill", ox + s - 6, oy + s / 2, 1.5)
  end,
  ["'"] = function(ox, oy)
    local s = M.SIZE
    floor(ox, oy)
    colour(WOOD)
    love.graphics.rectangle("fill", ox + 1, oy + 1, 3, s - 2)
    love.graphics.rectangle("fill", ox + s - 4, oy + 1, 3, s - 2)
  end,
  [">"] = function(ox, oy) stairs(ox, oy, { 0.30, 0.90, 1.00 }, true) end,
  ["<"] = function(ox, oy) stairs(ox, oy, { 0.70, 0.60, 1.00 }, false) end,
  ["$"] = function(ox, oy)
    local s = M.SIZE
    floor(ox, oy)
    love.graphics.setColor(1.00, 0.80, 0.10)
    love.graphics.circle("fill", ox + s / 2, oy + s / 2, s / 4)
    love.graphics.setColor(0.70, 0.50, 0.05)
    love.graphics.circle("line", ox + s / 2, oy + s / 2, s / 4)
  end,
  ["!"] = function(ox, oy)
    local s = M.SIZE
    floor(ox, oy)
    love.graphics.setColor(1.00, 0.35, 0.80)
    love.graphics.circle("fill", ox + s / 2, oy + s / 2 + 3, s / 4)
    love.graphics.rectangle("fill", ox + s / 2 - 2, oy + 3, 4, 7)
  end,
  ["@"] = function(ox, oy)
    local s = M.SIZE
    love.graphics.setColor(1, 1, 1)
    love.graphics.circle("fill", ox + s / 2, oy + 6, 4)
    love.graphics.rectangle("fill", ox + s / 2 - 4, oy + 10, 8, 8)
  end,
  g = function(ox, oy)
    local s = M.SIZE
    love.graphics.setColor(0.35, 0.85, 0.30)
    love.graphics.circle("fill", ox + s / 2, oy + s / 2 + 1, s / 3)
    love.graphics.setColor(0, 0, 0)
    love.graphics.rectangle("fill", ox + s / 2 - 4, oy + s / 2 - 2, 2, 2)
    love.graphics.rectangle("fill", ox + s / 2 + 2, oy + s / 2 - 2, 2, 2)
  end,
  o = function(ox, oy)
    local s = M.SIZE
    love.graphics.setColor(0.90, 0.30, 0.25)
    love.graphics.rectangle("fill", ox + 3, oy + 3, s - 6, s - 4)
    love.graphics.setColor(1, 1, 1)
    love.graphics.rectangle("fill", ox + 6, oy + s - 5, 2, 3)
    love.graphics.rectangle("fill", ox + s - 8, oy + s - 5, 2, 3)
  end,
}

-- Draws the tileset into a canvas. Returns {image = canvas, wall = {[index]
-- = quad for index 0..46}, sprite = {[glyph] = quad}}.
function M.load()
  local masks = blob_masks()
  assert(#masks == 47, "the blob form has 47 masks")
  local names = {}
  for glyph in pairs(SPRITES) do names[#names + 1] = glyph end
  table.sort(names)
  local s = M.SIZE
  local count = #masks + #names
  local canvas = love.graphics.newCanvas(count * s, s)
  canvas:setFilter("nearest", "nearest")
  local set = { image = canvas, wall = {}, sprite = {} }
  love.graphics.push("all")
  love.graphics.setCanvas(canvas)
  love.graphics.clear(0, 0, 0, 0)
  for i, mask in ipairs(masks) do
    wall((i - 1) * s, 0, mask)
    set.wall[i - 1] = love.graphics.newQuad((i - 1) * s, 0, s, s, count * s, s)
  end
  for i, glyph in ipairs(names) do
    local x = (#masks + i - 1) * s
    SPRITES[glyph](x, 0)
    set.sprite[glyph] = love.graphics.newQuad(x, 0, s, s, count * s, s)
  end
  love.graphics.setCanvas()
  love.graphics.pop()
  return set
end

return M
