-- Draws a game (game.lua) with love.graphics, in one of two views: glyphs
-- (coloured characters on a grid) or tiles (tiles.lua's tileset, walls
-- joined by level:autotile). Both show what is in sight bright, what is
-- remembered dimmed (in the tile view, below the surface, what is in sight
-- lit by the player's torch: game.light, level:light's colours), the route
-- being walked, and a camera window that keeps "@" in view on levels
-- larger than the window; a HUD line above, the message log and the keys
-- below. What the camera shows comes from one call, lvl:frame (each cell's
-- character and state: visible, remembered, unknown; the actors over what
-- is visible, the items over what was seen). The glyph view draws the
-- frame's bytes as an image through a shader, in one draw call; the tile
-- view its rows into sprite batches, a draw call a layer. Both are drawn
-- by the processor in Xvfb's software renderer (make test-love), where a
-- shader drawing every tile's pixels (several texture reads each) made the
-- whole tile frame slower than the batches (docs/performance.md, "The LÖVE
-- demo's frame").
-- luacheck: read globals love
local tiles = require "tiles"
local Game = require "game"

local M = {}

M.CELL = tiles.SIZE
M.TOP = 28        -- the HUD line above the map
M.LOG_LINES = 5   -- the message log's last lines shown below the map
M.LINE = 16       -- pixels a line of the HUD's font takes
M.BOTTOM = 8 + (M.LOG_LINES + 1) * M.LINE -- the log's lines and the keys below the map

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

local byte = string.byte
local FIRST, LAST = 32, 126      -- the glyph atlas: printable ASCII
local UNKNOWN, VISIBLE = byte("0"), byte("2") -- a frame's cell states (remembered: "1")
local DOT = byte(".")
-- What the frame draws over the terrain of a visible cell that the tile
-- view draws as a sprite over the cell's own terrain: @ and the monsters.
local ACTOR = { [byte("@")] = true }
for char in pairs(Game.KINDS) do ACTOR[byte(char)] = true end

local glyph_font, hud_font, tileset
local atlas                      -- {image, quad = {[byte] = quad}, solid = quad}
local bright = {}                -- each byte's glyph colour
local sprite = {}                -- the tileset's sprite quads by byte
local layers = {}                -- the tile view's sprite batches, drawn in this order: tiles, glow, glyphs, actors
local shader                     -- the glyph view's: draws the cells of a frame's bytes from the atlas
local cells                      -- the glyph view's frame as an image, a pixel a cell (the frame's 4 bytes)

-- The glyph view in one draw: the frame's bytes (a cell's character,
-- state, light, and a 4th byte this view sets on the route's cells) as an
-- image scaled up by the cell size; for each pixel the shader reads its
-- cell, then the character's glyph from the atlas and its colour from the
-- palette (the colour of each byte, as GLYPH gives it), dimmed when only
-- remembered, over the background of a cell in sight or on the route.
local GLYPH_SHADER = [[
extern Image glyphs;
extern Image palette;
extern vec2 grid;
extern float count;
extern float first;
extern float dim;
extern vec3 lit;
extern vec3 route;
vec4 effect(vec4 color, Image frame, vec2 uv, vec2 screen) {
  vec2 pos = uv * grid;
  vec2 at = floor(pos);
  vec4 cell = Texel(frame, (at + 0.5) / grid);
  float state = floor(cell.g * 255.0 + 0.5);
  if (state < 0.5) { return vec4(0.0, 0.0, 0.0, 1.0); }
  float c = floor(cell.r * 255.0 + 0.5);
  vec2 f = pos - at;
  float ink = Texel(glyphs, vec2((c - first + f.x) / count, f.y)).a;
  vec3 fg = Texel(palette, vec2((c + 0.5) / 256.0, 0.5)).rgb;
  vec3 bg = vec3(0.0);
  if (state > 1.5) { bg = lit; } else { fg = fg * dim; }
  if (cell.a > 0.5) { bg = route; }
  return vec4(mix(bg, fg, ink), 1.0);
}
]]
local masks = setmetatable({}, { __mode = "k" })  -- each level's autotile index rows

-- The glyphs of printable ASCII drawn once into a canvas, each centred in a
-- cell (LÖVE's default font is not monospace), and a solid cell after them
-- for backgrounds and overlays.
local function glyph_atlas()
  local s, count = M.CELL, LAST - FIRST + 2
  local canvas = love.graphics.newCanvas(count * s, s)
  local set = { image = canvas, quad = {} }
  love.graphics.push("all")
  love.graphics.setCanvas(canvas)
  love.graphics.clear(0, 0, 0, 0)
  love.graphics.setFont(glyph_font)
  love.graphics.setColor(1, 1, 1)
  for b = FIRST, LAST do
    local c, x = string.char(b), (b - FIRST) * s
    love.graphics.print(c, x + math.floor((s - glyph_font:getWidth(c)) / 2 + 0.5),
      math.floor((s - glyph_font:getHeight()) / 2 + 0.5))
    set.quad[b] = love.graphics.newQuad(x, 0, s, s, count * s, s)
  end
  love.graphics.rectangle("fill", (count - 1) * s, 0, s, s)
  set.solid = love.graphics.newQuad((count - 1) * s, 0, s, s, count * s, s)
  love.graphics.setCanvas()
  love.graphics.pop()
  return set
end

function M.load()
  glyph_font = love.graphics.newFont(16)
  hud_font = love.graphics.newFont(13)
  tileset = tiles.load()
  atlas = glyph_atlas()
  for b = FIRST, LAST do
    bright[b] = GLYPH[string.char(b)] or OTHER
  end
  for glyph, quad in pairs(tileset.sprite) do sprite[byte(glyph)] = quad end
  atlas.image:setFilter("nearest", "nearest")
  local palette = love.image.newImageData(256, 1)
  for b = 0, 255 do
    local c = bright[b] or OTHER
    palette:setPixel(b, 0, c[1], c[2], c[3], 1)
  end
  palette = love.graphics.newImage(palette)
  palette:setFilter("nearest", "nearest")
  shader = love.graphics.newShader(GLYPH_SHADER)
  shader:send("glyphs", atlas.image)
  shader:send("palette", palette)
  shader:send("count", LAST - FIRST + 2)
  shader:send("first", FIRST)
  shader:send("dim", DIM)
  shader:send("lit", LIT)
  shader:send("route", ROUTE)
  local cols, rows = M.cells()
  for _, name in ipairs { "tiles", "glow", "glyphs", "actors" } do
    local image = (name == "tiles" or name == "actors") and tileset.image or atlas.image
    layers[name] = love.graphics.newSpriteBatch(image, cols * rows * 2, "stream")
  end
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

-- The tile view's shade of a cell: dimmed when only remembered (darker in
-- the dungeon, where only the torch lights); in sight, by the torch's light
-- there (each channel from DARK up to 1), or full by day.
local DARK = 0.3
local function shade(light, x, y, visible)
  if not visible then
    local k = light and DARK or DIM
    return k, k, k
  end
  if not light then return 1, 1, 1 end
  return DARK + (1 - DARK) * light.r[y][x], DARK + (1 - DARK) * light.g[y][x], DARK + (1 - DARK) * light.b[y][x]
end

-- The torch's glow over a cell in sight, added to its tile (the glow
-- layer is drawn in "add" mode): the light there above the dungeon's
-- ambient level, in the torch's colour.
local GLOW = 0.45

-- The route's cells, by y * (width + 1) + x.
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

-- What lvl:frame draws over the terrain: the actors (@ first, the monsters
-- over it) and the items lying about, as lists of {x=, y=, char=}.
local player_thing = { char = "@" }
local function things_and_items(game)
  local level, p = game.level, game.player
  player_thing.x, player_thing.y = p.x, p.y
  local things = { player_thing }
  for i, monster in ipairs(level.monsters) do things[i + 1] = monster end
  local items, width = {}, game.width
  for cell, char in pairs(level.items) do
    items[#items + 1] = { x = (cell - 1) % width + 1, y = math.floor((cell - 1) / width) + 1, char = char }
  end
  return things, items
end

-- A cell of the tile view: a wall's autotile index picks its tile;
-- anything else is drawn on a floor tile, its sprite over it (or its glyph,
-- for a character with none); an actor over that, unshaded; the torch's
-- glow and the route over the cell.
local function tile_cell(game, x, y, px, py, c, visible, routed, wall)
  local light, tile, glyphs = game.light, layers.tiles, layers.glyphs
  local r, g, b = shade(light, x, y, visible)
  if visible and ACTOR[c] then
    layers.actors:add(sprite[c], px, py)
    c = byte(game:item_at(x, y) or game.level.lvl:get(x, y))
  end
  tile:setColor(r, g, b, 1)
  if wall then
    tile:add(tileset.wall[wall], px, py)
  else
    tile:add(sprite[DOT], px, py)
    local quad = sprite[c]
    if quad and c ~= DOT then
      tile:add(quad, px, py)
    elseif not quad then
      local colour, k = bright[c] or OTHER, (r + g + b) / 3
      glyphs:setColor(colour[1] * k, colour[2] * k, colour[3] * k, 1)
      glyphs:add(atlas.quad[c] or atlas.quad[FIRST], px, py)
    end
  end
  if visible and light then
    layers.glow:setColor(GLOW * light.r[y][x], GLOW * light.g[y][x], GLOW * light.b[y][x], 1)
    layers.glow:add(atlas.solid, px, py)
  end
  if routed then
    glyphs:setColor(ROUTE[1], ROUTE[2], ROUTE[3], 0.6)
    glyphs:add(atlas.solid, px, py)
  end
end

-- The glyph view: the camera's cells from one lvl:frame call (its bytes),
-- the route's cells marked in them, drawn by the shader in one call.
local function draw_glyphs(game, cx, cy, cols, rows, options)
  options.bytes = true
  local data = love.image.newImageData(cols, rows, "rgba8", game.level.lvl:frame(cx + 1, cy + 1, cols, rows, options))
  for i = 2, game.route and #game.route or 0 do
    local x, y = game.route[i].x - cx - 1, game.route[i].y - cy - 1
    if x >= 0 and y >= 0 and x < cols and y < rows then
      local r, g, b = data:getPixel(x, y)
      data:setPixel(x, y, r, g, b, 1)
    end
  end
  if cells and cells:getWidth() == cols and cells:getHeight() == rows then
    cells:replacePixels(data)
  else
    cells = love.graphics.newImage(data)
    cells:setFilter("nearest", "nearest")
  end
  shader:send("grid", { cols, rows })
  love.graphics.setColor(1, 1, 1, 1)
  love.graphics.setShader(shader)
  love.graphics.draw(cells, 0, M.TOP, 0, M.CELL, M.CELL)
  love.graphics.setShader()
end

-- The tile view: the camera's cells from one lvl:frame call (its rows of
-- characters and states), into the layers, then the layers drawn.
local function draw_tiles(game, cx, cy, cols, rows, options)
  local level = game.level
  if not masks[level] then masks[level] = level.lvl:autotile { index = true } end
  local index = masks[level]
  local chars, states = level.lvl:frame(cx + 1, cy + 1, cols, rows, options)
  for _, batch in pairs(layers) do batch:clear() end
  layers.actors:setColor(1, 1, 1, 1)
  local on_route, stride = route_cells(game), game.width + 1
  for j = 1, rows do
    local row, state, y, py = chars[j], states[j], cy + j, M.TOP + (j - 1) * M.CELL
    for i = 1, cols do
      local s = byte(state, i)
      if s ~= UNKNOWN then
        local x = cx + i
        tile_cell(game, x, y, (i - 1) * M.CELL, py, byte(row, i), s == VISIBLE, on_route[y * stride + x], index[y][x])
      end
    end
  end
  love.graphics.setColor(1, 1, 1, 1)
  love.graphics.draw(layers.tiles)
  love.graphics.setBlendMode("add")
  love.graphics.draw(layers.glow)
  love.graphics.setBlendMode("alpha")
  love.graphics.draw(layers.glyphs)
  love.graphics.draw(layers.actors)
end

local function draw_map(game)
  local cx, cy = M.camera(game)
  local cols, rows = M.cells()
  local things, items = things_and_items(game)
  local options = { visible = game.visible, memory = game.level.seen, things = things, items = items }
  if game.view == "tiles" then return draw_tiles(game, cx, cy, cols, rows, options) end
  draw_glyphs(game, cx, cy, cols, rows, options)
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

-- The message log's last lines, the newest brightest (in red once @ is
-- dead), and the keys under them.
local function draw_log(game, below)
  local log = game.log
  local first = math.max(1, #log - M.LOG_LINES + 1)
  for i = first, #log do
    love.graphics.setColor(i < #log and LABEL or game.dead and HURT or TEXT)
    love.graphics.print(log[i], 8, below + 4 + (i - first) * M.LINE)
  end
  love.graphics.setColor(LABEL)
  love.graphics.print(KEYS, 8, below + 4 + M.LOG_LINES * M.LINE)
end

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
  draw_log(game, below)
end

return M
