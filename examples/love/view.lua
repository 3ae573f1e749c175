-- Draws a game (game.lua) with love.graphics, in one of two views: glyphs
-- (coloured characters on a grid) or tiles (tiles.lua's tileset, walls
-- joined by level:autotile). Both show what is in sight bright, what is
-- remembered dimmed (in the tile view, below the surface, what is in sight
-- lit by the player's torch: game.light, level:light's colours), the route being walked, and a camera window that keeps
-- "@" in view on levels larger than the window; a HUD line above and the
-- message and keys below.
-- luacheck: read globals love
local tiles = require "tiles"

local M = {}

M.CELL = tiles.SIZE
M.TOP = 28        -- the HUD line above the map
M.BOTTOM = 44     -- the message and key lines below it

local GLYPH = {
  ["#"] = { 0.56, 0.60, 0.76 },
  ["."] = { 0.45, 0.45, 0.50 },
  ["@"] = { 1.00, 1.00, 1.00 },
  [">"] = { 0.30, 0.90, 1.00 },
  ["<"] = { 0.70, 0.60, 1.00 },
  ["$"] = { 1.00, 0.80, 0.10 },
  ["!"] = { 1.00, 0.35, 0.80 },
  ["+"] = { 0.90, 0.52, 0.18 },
  ["'"] = { 0.90, 0.52, 0.18 },
  ["~"] = { 0.25, 0.50, 0.95 },
  ['"'] = { 0.25, 0.72, 0.32 },
  ["^"] = { 0.84, 0.86, 0.92 },
  ["="] = { 0.78, 0.56, 0.30 },
  g = { 0.35, 0.85, 0.30 },
  o = { 0.95, 0.35, 0.30 },
}
local OTHER = { 0.75, 0.75, 0.75 }
local DIM = 0.45
local LIT = { 0.10, 0.10, 0.14 }       -- background of visible cells (glyphs)
local ROUTE = { 0.12, 0.24, 0.44 }     -- background of the route being walked
local TEXT = { 0.80, 0.80, 0.84 }
local LABEL = { 0.50, 0.50, 0.56 }
local VALUE = { 1.00, 1.00, 1.00 }
local HURT = { 1.00, 0.40, 0.35 }

local glyph_font, hud_font, tileset
local offsets = {}
local masks = setmetatable({}, { __mode = "k" })  -- each level's autotile index rows

function M.load()
  glyph_font = love.graphics.newFont(16)
  hud_font = love.graphics.newFont(13)
  tileset = tiles.load()
end

-- How many cells of the map the window shows across and down.
function M.cells()
  local w, h = love.graphics.getDimensions()
  return math.floor(w / M.CELL), math.floor((h - M.TOP - M.BOTTOM) / M.CELL)
end

-- The camera: the cell offsets (0 = the map's left or top edge) that centre
-- the player, held inside the map.
function M.camera(game)
  local cols, rows = M.cells()
  local function axis(at, size, shown)
    return math.max(0, math.min(at - 1 - math.floor(shown / 2), size - shown))
  end
  return axis(game.player.x, game.width, cols), axis(game.player.y, game.height, rows)
end

-- The map cell under window pixel (px, py), or nil.
function M.cell_at(game, px, py)
  local cx, cy = M.camera(game)
  local x, y = cx + math.floor(px / M.CELL) + 1, cy + math.floor((py - M.TOP) / M.CELL) + 1
  if py >= M.TOP and x >= 1 and y >= 1 and x <= game.width and y <= game.height then return x, y end
end

-- Where glyph c sits in its cell: centred (LÖVE's default font is not monospace).
local function offset(c)
  local o = offsets[c]
  if not o then
    o = {
      math.floor((M.CELL - glyph_font:getWidth(c)) / 2 + 0.5),
      math.floor((M.CELL - glyph_font:getHeight()) / 2 + 0.5),
    }
    offsets[c] = o
  end
  return o
end

local function tint(c, k)
  love.graphics.setColor(c[1] * k, c[2] * k, c[3] * k)
end

local function fill(px, py, c)
  love.graphics.setColor(c)
  love.graphics.rectangle("fill", px, py, M.CELL, M.CELL)
end

local function glyph(px, py, c, k)
  local o = offset(c)
  tint(GLYPH[c] or OTHER, k)
  love.graphics.print(c, px + o[1], py + o[2])
end

-- The tile view's shade of a cell: dimmed when only remembered (darker in
-- the dungeon, where only the torch lights); in sight, by the torch's light
-- there (each channel from DARK up to 1), or full by day.
local DARK = 0.3
local function shade(game, x, y, visible)
  local light = game.light
  if not visible then
    local k = light and DARK or DIM
    return k, k, k
  end
  if not light then return 1, 1, 1 end
  local function k(channel) return DARK + (1 - DARK) * channel[y][x] end
  return k(light.r), k(light.g), k(light.b)
end

-- The torch's glow over a cell in sight, added to its tile: the light
-- there above the dungeon's ambient level, in the torch's colour.
local GLOW = 0.45
local function glow(light, px, py, x, y)
  local r, g, b = light.r[y][x], light.g[y][x], light.b[y][x]
  love.graphics.setBlendMode("add")
  love.graphics.setColor(GLOW * r, GLOW * g, GLOW * b, 1)
  love.graphics.rectangle("fill", px, py, M.CELL, M.CELL)
  love.graphics.setBlendMode("alpha")
end

-- A cell in the tile view: a wall's autotile index picks its tile; anything
-- else is drawn on a floor tile (the surface's terrain covering it).
local function tile(px, py, c, index, r, g, b)
  love.graphics.setColor(r, g, b)
  if index then
    love.graphics.draw(tileset.image, tileset.wall[index], px, py)
    return
  end
  love.graphics.draw(tileset.image, tileset.sprite["."], px, py)
  local quad = tileset.sprite[c]
  if quad and c ~= "." then
    love.graphics.draw(tileset.image, quad, px, py)
  elseif not quad then
    glyph(px, py, c, (r + g + b) / 3)
  end
end

-- The actor drawn on top of a visible cell: a glyph or its tile.
local function actor(game, px, py, c)
  if game.view == "tiles" then
    love.graphics.setColor(1, 1, 1)
    love.graphics.draw(tileset.image, tileset.sprite[c], px, py)
  else
    glyph(px, py, c, 1)
  end
end

local function route_cells(game)
  local on = {}
  if game.route then
    for i = 2, #game.route do
      local p = game.route[i]
      on[p.y * (game.width + 1) + p.x] = true
    end
  end
  return on
end

local function draw_map(game)
  local level, lvl = game.level, game.level.lvl
  local tiled = game.view == "tiles"
  if tiled and not masks[level] then masks[level] = lvl:autotile { index = true } end
  local index = masks[level]
  local cx, cy = M.camera(game)
  local cols, rows = M.cells()
  local on_route = route_cells(game)
  love.graphics.setFont(glyph_font)
  for y = cy + 1, math.min(game.height, cy + rows) do
    local py = M.TOP + (y - cy - 1) * M.CELL
    for x = cx + 1, math.min(game.width, cx + cols) do
      local px = (x - cx - 1) * M.CELL
      local visible, seen = game:is_visible(x, y), game:was_seen(x, y)
      local k = visible and 1 or DIM
      -- An item lies on the floor: drawn in its place, remembered like it.
      local c = seen and (game:item_at(x, y) or lvl:get(x, y))
      if seen and tiled then
        tile(px, py, c, index[y][x], shade(game, x, y, visible))
        if visible and game.light then glow(game.light, px, py, x, y) end
      elseif visible then
        fill(px, py, LIT)
      end
      if on_route[y * (game.width + 1) + x] then
        love.graphics.setColor(ROUTE[1], ROUTE[2], ROUTE[3], tiled and 0.6 or 1)
        love.graphics.rectangle("fill", px, py, M.CELL, M.CELL)
      end
      if seen and not tiled then glyph(px, py, c, k) end
    end
  end
  for _, monster in ipairs(level.monsters) do
    if game:is_visible(monster.x, monster.y) then
      actor(game, (monster.x - cx - 1) * M.CELL, M.TOP + (monster.y - cy - 1) * M.CELL, monster.char)
    end
  end
  local p = game.player
  actor(game, (p.x - cx - 1) * M.CELL, M.TOP + (p.y - cy - 1) * M.CELL, "@")
end

-- Segments {colour, text, ...} for love.graphics.print.
local function hud_line(game)
  local p = game.player
  return {
    LABEL, "depth ", VALUE, tostring(game.level.depth),
    LABEL, "   HP ", p.hp * 3 <= p.max_hp and HURT or VALUE, string.format("%d/%d", p.hp, p.max_hp),
    LABEL, "   seed ", VALUE, string.format("%d", game.seed),
    LABEL, "   turn ", VALUE, tostring(game.turns),
    LABEL, "   gold ", GLYPH["$"], tostring(game.gold),
    LABEL, "   kills ", VALUE, tostring(game.kills),
    LABEL, "   ", GLYPH[">"], game.level.algorithm,
    LABEL, "   view ", VALUE, game.view,
  }
end

local KEYS = "move/attack: arrows hjkl yubn numpad   x: explore   click: travel   . rest   "
  .. "> < stairs   Tab: view   r: new game   Esc: quit"

function M.draw(game)
  love.graphics.clear(0, 0, 0)
  draw_map(game)
  love.graphics.setFont(hud_font)
  love.graphics.setColor(0, 0, 0)
  love.graphics.rectangle("fill", 0, 0, love.graphics.getWidth(), M.TOP)
  local _, rows = M.cells()
  local below = M.TOP + rows * M.CELL
  love.graphics.rectangle("fill", 0, below, love.graphics.getWidth(), love.graphics.getHeight() - below)
  love.graphics.setColor(1, 1, 1)
  love.graphics.print(hud_line(game), 8, math.floor((M.TOP - hud_font:getHeight()) / 2))
  love.graphics.setColor(game.dead and HURT or TEXT)
  love.graphics.print(game.message or "", 8, below + 4)
  love.graphics.setColor(LABEL)
  love.graphics.print(KEYS, 8, below + 6 + hud_font:getHeight())
end

return M
