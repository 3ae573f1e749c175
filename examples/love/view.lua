-- Draws a game (game.lua) with love.graphics, in one of two views: glyphs
-- (coloured characters on a grid) or tiles (tiles.lua's tileset, walls
-- joined by level:autotile). Both show what is in sight bright, what is
-- remembered dimmed (in the tile view, below the surface, what is in sight
-- lit by the player's torch: game.light, level:light's colours), the route
-- being walked, and a camera window that keeps "@" in view on levels
-- larger than the window; a HUD line above, the message log and the keys
-- below. What the camera shows comes from one call, lvl:frame (each cell's
-- character and state: visible, remembered, unknown; the actors over what
-- is visible, the items over what was seen), and is drawn as sprite
-- batches: one draw call a layer, not one a cell.
-- luacheck: read globals love
local tiles = require "tiles"

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

local FIRST, LAST = 32, 126      -- the glyph atlas: printable ASCII
local DARK = 0.3                 -- the tile view's least shade below the surface (remembered, or unlit)
local GLOW = 0.45                -- the torch's glow added to a tile in sight, times its light there
local ROUTE_OVER = 0.6           -- the route's colour over a tile

local glyph_font, hud_font, tileset
local glyphs                     -- the glyph atlas (a canvas): printable ASCII, a cell each
local shaders = {}               -- glyphs, tiles: each view's
local images = {}                -- this frame's as images (a pixel a cell): frame, and green, blue (the torch's)
local walls = setmetatable({}, { __mode = "k" })  -- each level's wall tiles as an image (autotile index + 1)

-- Each view draws the camera's cells in one call: the frame's bytes
-- (lvl:frame's: a cell's character, state, light; the 4th byte this view
-- sets to mark the route) as an image a pixel a cell, scaled up by the
-- cell size; for each pixel the shader reads its cell and draws it.
local COMMON = [[
extern vec2 grid;
extern vec3 route;
float byte(float v) { return floor(v * 255.0 + 0.5); }
]]

-- The glyph view: the character's glyph from the atlas, its colour from
-- the palette (each byte's, as GLYPH gives it), dimmed when only
-- remembered, over the background of a cell in sight or on the route.
local GLYPH_SHADER = COMMON .. [[
extern Image glyphs;
extern Image palette;
extern float count;
extern float first;
extern float dim;
extern vec3 lit;
vec4 effect(vec4 color, Image frame, vec2 uv, vec2 screen) {
  vec2 pos = uv * grid;
  vec2 at = floor(pos);
  vec4 cell = Texel(frame, (at + 0.5) / grid);
  float state = byte(cell.g);
  if (state < 0.5) { return vec4(0.0, 0.0, 0.0, 1.0); }
  float c = byte(cell.r);
  vec2 f = pos - at;
  float ink = Texel(glyphs, vec2((c - first + f.x) / count, f.y)).a;
  vec3 fg = Texel(palette, vec2((c + 0.5) / 256.0, 0.5)).rgb;
  vec3 bg = vec3(0.0);
  if (state > 1.5) { bg = lit; } else { fg = fg * dim; }
  if (cell.a > 0.5) { bg = route; }
  return vec4(mix(bg, fg, ink), 1.0);
}
]]

-- The tile view: a wall's tile by the level's autotile index (the walls
-- image), anything else its sprite over a floor tile (or its glyph, for a
-- character with none); shaded, in sight, by the torch's light (its three
-- channels: the frame's light byte, and those of the frames of green and
-- blue), the torch's glow added, the route over it. The actors are drawn
-- over it afterwards.
local TILE_SHADER = COMMON .. [[
extern Image tileset;
extern float tiles;
extern float floor_tile;
extern Image sprites;
extern Image walls;
extern vec2 walls_size;
extern vec2 camera;
extern Image green;
extern Image blue;
extern float torch;
extern float dim;
extern float dark;
extern float glow;
extern float route_over;
extern Image glyphs;
extern Image palette;
extern float count;
extern float first;
vec4 tile(float index, vec2 f) { return Texel(tileset, vec2((index + f.x) / tiles, f.y)); }
vec4 effect(vec4 color, Image frame, vec2 uv, vec2 screen) {
  vec2 pos = uv * grid;
  vec2 at = floor(pos);
  vec2 t = (at + 0.5) / grid;
  vec4 cell = Texel(frame, t);
  float state = byte(cell.g);
  if (state < 0.5) { return vec4(0.0, 0.0, 0.0, 1.0); }
  float c = byte(cell.r);
  vec2 f = pos - at;
  vec3 light = vec3(cell.b, Texel(green, t).b, Texel(blue, t).b);
  vec3 shade = vec3(1.0);
  if (state > 1.5) {
    if (torch > 0.5) { shade = dark + (1.0 - dark) * light; }
  } else {
    shade = vec3(torch > 0.5 ? dark : dim);
  }
  float wall = byte(Texel(walls, (camera + at + 0.5) / walls_size).r);
  vec3 col;
  if (wall > 0.5) {
    col = tile(wall - 1.0, f).rgb * shade;
  } else {
    col = tile(floor_tile, f).rgb;
    vec4 sprite = Texel(sprites, vec2((c + 0.5) / 256.0, 0.5));
    if (sprite.a > 0.5) {
      vec4 over = tile(byte(sprite.r), f);
      col = mix(col, over.rgb, over.a) * shade;
    } else {
      float ink = Texel(glyphs, vec2((c - first + f.x) / count, f.y)).a;
      vec3 fg = Texel(palette, vec2((c + 0.5) / 256.0, 0.5)).rgb * ((shade.r + shade.g + shade.b) / 3.0);
      col = mix(col * shade, fg, ink);
    }
  }
  if (state > 1.5 && torch > 0.5) { col = col + glow * light; }
  if (cell.a > 0.5) { col = mix(col, route, route_over); }
  return vec4(col, 1.0);
}
]]

-- The glyphs of printable ASCII drawn once into a canvas, each centred in a
-- cell (LÖVE's default font is not monospace).
local function glyph_atlas()
  local s, count = M.CELL, LAST - FIRST + 1
  local canvas = love.graphics.newCanvas(count * s, s)
  canvas:setFilter("nearest", "nearest")
  love.graphics.push("all")
  love.graphics.setCanvas(canvas)
  love.graphics.clear(0, 0, 0, 0)
  love.graphics.setFont(glyph_font)
  love.graphics.setColor(1, 1, 1)
  for b = FIRST, LAST do
    local c = string.char(b)
    love.graphics.print(c, (b - FIRST) * s + math.floor((s - glyph_font:getWidth(c)) / 2 + 0.5),
      math.floor((s - glyph_font:getHeight()) / 2 + 0.5))
  end
  love.graphics.setCanvas()
  love.graphics.pop()
  return canvas
end

-- An image of 256 x 1 pixels, pixel b the colour(b) of byte b (r, g, b, a).
local function by_byte(colour)
  local data = love.image.newImageData(256, 1)
  for b = 0, 255 do data:setPixel(b, 0, colour(b)) end
  local image = love.graphics.newImage(data)
  image:setFilter("nearest", "nearest")
  return image
end

-- A tile's index in the tileset (one row of tiles), from its quad.
local function tile_index(quad)
  return (quad:getViewport()) / M.CELL
end

function M.load()
  glyph_font = love.graphics.newFont(16)
  hud_font = love.graphics.newFont(13)
  tileset = tiles.load()
  glyphs = glyph_atlas()
  local palette = by_byte(function(b)
    local c = GLYPH[string.char(b)] or OTHER
    return c[1], c[2], c[3], 1
  end)
  -- Each byte's sprite: its tile's index in the red byte, alpha 1; none: 0.
  local sprites = by_byte(function(b)
    local quad = tileset.sprite[string.char(b)]
    if not quad then return 0, 0, 0, 0 end
    return tile_index(quad) / 255, 0, 0, 1
  end)
  shaders.glyphs = love.graphics.newShader(GLYPH_SHADER)
  shaders.tiles = love.graphics.newShader(TILE_SHADER)
  for _, shader in pairs(shaders) do
    shader:send("glyphs", glyphs)
    shader:send("palette", palette)
    shader:send("count", LAST - FIRST + 1)
    shader:send("first", FIRST)
    shader:send("dim", DIM)
    shader:send("route", ROUTE)
  end
  shaders.glyphs:send("lit", LIT)
  local t = shaders.tiles
  t:send("tileset", tileset.image)
  t:send("tiles", tileset.image:getWidth() / M.CELL)
  t:send("floor_tile", tile_index(tileset.sprite["."]))
  t:send("sprites", sprites)
  t:send("dark", DARK)
  t:send("glow", GLOW)
  t:send("route_over", ROUTE_OVER)
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

-- The level's wall tiles (level:autotile's index + 1 in the red byte, 0
-- off the walls) as an image a pixel a cell, made once a level: no door
-- opening makes or takes a wall.
local function walls_of(level)
  local image = walls[level]
  if image then return image end
  local lvl = level.lvl
  local data = love.image.newImageData(lvl.width, lvl.height)
  for y, row in pairs(lvl:autotile { index = true }) do
    for x, index in pairs(row) do
      if index then data:setPixel(x - 1, y - 1, (index + 1) / 255, 0, 0, 1) end
    end
  end
  image = love.graphics.newImage(data)
  image:setFilter("nearest", "nearest")
  walls[level] = image
  return image
end

-- The image `name` (images) holding `data`: the last one, its pixels
-- replaced, while the size holds.
local function image_of(name, data)
  local image = images[name]
  if image and image:getWidth() == data:getWidth() and image:getHeight() == data:getHeight() then
    image:replacePixels(data)
  else
    image = love.graphics.newImage(data)
    image:setFilter("nearest", "nearest")
    images[name] = image
  end
  return image
end

-- The items lying about as lvl:frame's list of {x=, y=, char=}.
local function items_of(game)
  local items, width = {}, game.width
  for cell, char in pairs(game.level.items) do
    items[#items + 1] = { x = (cell - 1) % width + 1, y = math.floor((cell - 1) / width) + 1, char = char }
  end
  return items
end

-- The camera's frame (lvl:frame's bytes) as image data, with the route's
-- cells marked in their 4th byte. `light`: the light map whose channel
-- fills the light byte, or nil.
local function frame_data(game, cx, cy, cols, rows, things, light)
  local level = game.level
  local data = love.image.newImageData(cols, rows, "rgba8", level.lvl:frame(cx + 1, cy + 1, cols, rows,
    { visible = game.visible, memory = level.seen, things = things, items = items_of(game), bytes = true,
      light = light }))
  for i = 2, game.route and #game.route or 0 do
    local x, y = game.route[i].x - cx - 1, game.route[i].y - cy - 1
    if x >= 0 and y >= 0 and x < cols and y < rows then
      local r, g, b = data:getPixel(x, y)
      data:setPixel(x, y, r, g, b, 1)
    end
  end
  return data
end

-- Draws `frame` (an image a pixel a cell) scaled up by the cell size with
-- `shader`.
local function draw_cells(shader, frame)
  shader:send("grid", { frame:getWidth(), frame:getHeight() })
  love.graphics.setColor(1, 1, 1, 1)
  love.graphics.setShader(shader)
  love.graphics.draw(frame, 0, M.TOP, 0, M.CELL, M.CELL)
  love.graphics.setShader()
end

-- The glyph view: the frame with its things (@ and the monsters in sight).
local player_thing = { char = "@" }
local function draw_glyphs(game, cx, cy, cols, rows)
  local things = { player_thing }
  player_thing.x, player_thing.y = game.player.x, game.player.y
  for i, monster in ipairs(game.level.monsters) do things[i + 1] = monster end
  draw_cells(shaders.glyphs, image_of("frame", frame_data(game, cx, cy, cols, rows, things)))
end

-- The tile view: the frame of the terrain and items (below the surface,
-- twice more for the torch's green and blue), then the actors in sight
-- drawn over it, each its sprite.
local function draw_tiles(game, cx, cy, cols, rows)
  local light, shader = game.light, shaders.tiles
  local frame = image_of("frame", frame_data(game, cx, cy, cols, rows, nil, light and light.r))
  shader:send("torch", light and 1 or 0)
  shader:send("green", light and image_of("green", frame_data(game, cx, cy, cols, rows, nil, light.g)) or frame)
  shader:send("blue", light and image_of("blue", frame_data(game, cx, cy, cols, rows, nil, light.b)) or frame)
  shader:send("walls", walls_of(game.level))
  shader:send("walls_size", { game.width, game.height })
  shader:send("camera", { cx, cy })
  draw_cells(shader, frame)
  local p = game.player
  love.graphics.draw(tileset.image, tileset.sprite["@"], (p.x - cx - 1) * M.CELL, M.TOP + (p.y - cy - 1) * M.CELL)
  for _, monster in ipairs(game.level.monsters) do
    if game:is_visible(monster.x, monster.y) then
      love.graphics.draw(tileset.image, tileset.sprite[monster.char], (monster.x - cx - 1) * M.CELL,
        M.TOP + (monster.y - cy - 1) * M.CELL)
    end
  end
end

local function draw_map(game)
  local cx, cy = M.camera(game)
  local cols, rows = M.cells()
  if game.view == "tiles" then return draw_tiles(game, cx, cy, cols, rows) end
  draw_glyphs(game, cx, cy, cols, rows)
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
