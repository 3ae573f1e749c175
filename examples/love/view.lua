-- Draws a game (game.lua) with love.graphics: the map as coloured glyphs on a
-- grid, bright where visible, dimmed where remembered, black elsewhere; the
-- path to the stairs when shown; a HUD line above and a message and the keys
-- below.
-- luacheck: read globals love
local M = {}

M.CELL_W, M.CELL_H = 14, 20
M.TOP = 30        -- the HUD line above the map
M.BOTTOM = 48     -- the message and key lines below it

local GLYPH = {
  ["#"] = { 0.56, 0.60, 0.76 },
  ["."] = { 0.60, 0.60, 0.64 },
  ["@"] = { 1.00, 1.00, 1.00 },
  [">"] = { 0.30, 0.90, 1.00 },
  ["$"] = { 1.00, 0.80, 0.10 },
  ["!"] = { 1.00, 0.35, 0.80 },
  ["+"] = { 0.90, 0.52, 0.18 },
}
local OTHER = { 0.75, 0.75, 0.75 }
local DIM = 0.45
local LIT = { 0.11, 0.11, 0.15 }      -- background of visible cells
local PATH = { 0.10, 0.20, 0.36 }     -- background of the path to ">"
local PATH_DIM = { 0.06, 0.11, 0.20 } -- the same out of sight
local WALL_LIT = { 0.17, 0.18, 0.25 } -- background of visible walls
local TEXT = { 0.80, 0.80, 0.84 }
local LABEL = { 0.50, 0.50, 0.56 }
local VALUE = { 1.00, 1.00, 1.00 }

local glyph_font, hud_font
local offsets = {}

function M.load()
  glyph_font = love.graphics.newFont(17)
  hud_font = love.graphics.newFont(14)
end

-- The window size for a map of w x h cells.
function M.size(w, h)
  return w * M.CELL_W, M.TOP + h * M.CELL_H + M.BOTTOM
end

-- Where glyph c sits in its cell: centred (LÖVE's default font is not monospace).
local function offset(c)
  local o = offsets[c]
  if not o then
    o = {
      math.floor((M.CELL_W - glyph_font:getWidth(c)) / 2 + 0.5),
      math.floor((M.CELL_H - glyph_font:getHeight()) / 2 + 0.5),
    }
    offsets[c] = o
  end
  return o
end

local function set_colour(c, k)
  love.graphics.setColor(c[1] * k, c[2] * k, c[3] * k)
end

local function cell_background(x, y, colour)
  love.graphics.setColor(colour)
  love.graphics.rectangle("fill", (x - 1) * M.CELL_W, M.TOP + (y - 1) * M.CELL_H, M.CELL_W, M.CELL_H)
end

local function glyph(x, y, c, k)
  local o = offset(c)
  set_colour(GLYPH[c] or OTHER, k)
  love.graphics.print(c, (x - 1) * M.CELL_W + o[1], M.TOP + (y - 1) * M.CELL_H + o[2])
end

-- Segments {colour, text, ...} for love.graphics.print.
local function hud_line(game)
  return {
    LABEL, "level ", VALUE, tostring(game.level),
    LABEL, "   algorithm ", GLYPH[">"], game.algorithm,
    LABEL, "   seed ", VALUE, string.format("%d", game:level_seed()),
    LABEL, "   gold ", GLYPH["$"], tostring(game.gold),
    LABEL, "   potions ", GLYPH["!"], tostring(game.potions),
    LABEL, "   turns ", VALUE, tostring(game.turns),
  }
end

local KEYS = "move: arrows hjkl yubn numpad  Tab: algorithm  p: path  "
  .. "a/Enter: walk to >  x: explore  >/Space: descend  r: new seed  Esc: quit"

function M.draw(game)
  local m = game.m
  love.graphics.clear(0, 0, 0)
  local on_path = {}
  if game.show_path and game.path then
    for _, p in ipairs(game.path) do
      on_path[p.y * (game.width + 1) + p.x] = true
    end
  end
  love.graphics.setFont(glyph_font)
  for y = 1, #m do
    local row = m[y]
    for x = 1, #row do
      local c = row[x]
      if game:is_visible(x, y) then
        if on_path[y * (game.width + 1) + x] then
          cell_background(x, y, PATH)
        else
          cell_background(x, y, c == "#" and WALL_LIT or LIT)
        end
        glyph(x, y, c, 1)
      elseif game:was_seen(x, y) then
        if on_path[y * (game.width + 1) + x] then cell_background(x, y, PATH_DIM) end
        glyph(x, y, c, DIM)
      elseif on_path[y * (game.width + 1) + x] then
        cell_background(x, y, PATH_DIM)
      end
    end
  end
  if game.show_path and game.path then
    local s = game.stairs
    if not game:is_visible(s.x, s.y) then glyph(s.x, s.y, ">", 1) end
  end
  glyph(game.player.x, game.player.y, "@", 1)

  love.graphics.setFont(hud_font)
  love.graphics.setColor(1, 1, 1)
  local text_y = math.floor((M.TOP - hud_font:getHeight()) / 2)
  love.graphics.print(hud_line(game), 8, text_y)
  local below = M.TOP + #m * M.CELL_H
  love.graphics.setColor(TEXT)
  love.graphics.print(game.message or "", 8, below + 4)
  love.graphics.setColor(LABEL)
  love.graphics.print(KEYS, 8, below + 4 + hud_font:getHeight() + 4)
end

return M
