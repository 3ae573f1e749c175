-- Pure-Lua versions of the editors' formats (spec/editors_spec.lua,
-- bench/manifests.lua): Tiled JSON written byte for byte as map.to_tiled
-- writes it (no options), read back with dkjson; a REXPaint image's cells
-- before gzip, and read back. Same bytes on Lua 5.4 and LuaJIT.
local M = {}

-- CP437's Unicode code points, python-tcod's CHARMAP_CP437.
M.CP437 = {
  0x0000, 0x263A, 0x263B, 0x2665, 0x2666, 0x2663, 0x2660, 0x2022, 0x25D8, 0x25CB, 0x25D9, 0x2642, 0x2640, 0x266A,
  0x266B, 0x263C, 0x25BA, 0x25C4, 0x2195, 0x203C, 0x00B6, 0x00A7, 0x25AC, 0x21A8, 0x2191, 0x2193, 0x2192, 0x2190,
  0x221F, 0x2194, 0x25B2, 0x25BC,
}
for b = 32, 126 do M.CP437[b + 1] = b end
local HIGH = {
  0x2302, 0x00C7, 0x00FC, 0x00E9, 0x00E2, 0x00E4, 0x00E0, 0x00E5, 0x00E7, 0x00EA, 0x00EB, 0x00E8, 0x00EF, 0x00EE,
  0x00EC, 0x00C4, 0x00C5, 0x00C9, 0x00E6, 0x00C6, 0x00F4, 0x00F6, 0x00F2, 0x00FB, 0x00F9, 0x00FF, 0x00D6, 0x00DC,
  0x00A2, 0x00A3, 0x00A5, 0x20A7, 0x0192, 0x00E1, 0x00ED, 0x00F3, 0x00FA, 0x00F1, 0x00D1, 0x00AA, 0x00BA, 0x00BF,
  0x2310, 0x00AC, 0x00BD, 0x00BC, 0x00A1, 0x00AB, 0x00BB, 0x2591, 0x2592, 0x2593, 0x2502, 0x2524, 0x2561, 0x2562,
  0x2556, 0x2555, 0x2563, 0x2551, 0x2557, 0x255D, 0x255C, 0x255B, 0x2510, 0x2514, 0x2534, 0x252C, 0x251C, 0x2500,
  0x253C, 0x255E, 0x255F, 0x255A, 0x2554, 0x2569, 0x2566, 0x2560, 0x2550, 0x256C, 0x2567, 0x2568, 0x2564, 0x2565,
  0x2559, 0x2558, 0x2552, 0x2553, 0x256B, 0x256A, 0x2518, 0x250C, 0x2588, 0x2584, 0x258C, 0x2590, 0x2580, 0x03B1,
  0x00DF, 0x0393, 0x03C0, 0x03A3, 0x03C3, 0x00B5, 0x03C4, 0x03A6, 0x0398, 0x03A9, 0x03B4, 0x221E, 0x03C6, 0x03B5,
  0x2229, 0x2261, 0x00B1, 0x2265, 0x2264, 0x2320, 0x2321, 0x00F7, 0x2248, 0x00B0, 0x2219, 0x00B7, 0x221A, 0x207F,
  0x00B2, 0x25A0, 0x00A0,
}
for i, u in ipairs(HIGH) do M.CP437[127 + i] = u end

-- A code point as UTF-8.
function M.utf8(u)
  if u < 0x80 then return string.char(u) end
  if u < 0x800 then return string.char(0xC0 + math.floor(u / 64), 0x80 + u % 64) end
  return string.char(0xE0 + math.floor(u / 4096), 0x80 + math.floor(u / 64) % 64, 0x80 + u % 64)
end

-- A JSON string of one code point, as map.to_tiled escapes it.
local function json_char(u)
  if u == 34 then return '"\\""' end
  if u == 92 then return '"\\\\"' end
  if u < 32 or u == 127 then return ('"\\u%04x"'):format(u) end
  return '"' .. M.utf8(u) .. '"'
end

-- map.to_tiled(m)'s text (JSON, the 256 bytes as tiles, 16x16 pixels).
function M.to_tiled(m)
  local w, h = #m[1], #m
  local out = { ('{"type":"map","version":"1.10","tiledversion":"1.10.2","orientation":"orthogonal",'
    .. '"renderorder":"right-down","infinite":false,"compressionlevel":-1,"width":%d,"height":%d,'
    .. '"tilewidth":16,"tileheight":16,"nextlayerid":2,"nextobjectid":1,"layers":[{"type":"tilelayer",'
    .. '"id":1,"name":"map","x":0,"y":0,"width":%d,"height":%d,"opacity":1,"visible":true,"data":[')
    :format(w, h, w, h) }
  local gids = {}
  for y = 1, h do
    local row = m[y]
    for x = 1, w do gids[#gids + 1] = row[x]:byte() + 1 end
  end
  out[#out + 1] = table.concat(gids, ",")
  out[#out + 1] = ']}],"tilesets":[{"firstgid":1,"name":"cp437","tilewidth":16,"tileheight":16,"spacing":0,'
    .. '"margin":0,"tilecount":256,"columns":16,"image":"cp437_16x16.png","imagewidth":256,"imageheight":256,'
    .. '"tiles":['
  local tiles = {}
  for id = 0, 255 do
    tiles[#tiles + 1] = ('{"id":%d,"properties":[{"name":"char","type":"string","value":%s}]}'):format(id,
      json_char(M.CP437[id + 1]))
  end
  out[#out + 1] = table.concat(tiles, ",")
  out[#out + 1] = "]}]}"
  return table.concat(out)
end

-- A Tiled JSON map's rows (its layer data an array, its tiles' chars), by dkjson.
function M.from_tiled(text)
  local json = require "dkjson"
  local t = assert(json.decode(text))
  local chars = {}
  for _, tile in ipairs(t.tilesets[1].tiles) do
    for _, p in ipairs(tile.properties) do
      if p.name == "char" then chars[tile.id + t.tilesets[1].firstgid] = p.value end
    end
  end
  local byte_of = {}
  for b = 0, 255 do byte_of[M.utf8(M.CP437[b + 1])] = string.char(b) end
  local rows, data = { width = t.width, height = t.height }, t.layers[1].data
  for y = 1, t.height do
    local row = {}
    for x = 1, t.width do row[x] = byte_of[chars[data[(y - 1) * t.width + x]]] end
    rows[y] = row
  end
  return rows
end

local function le32(n)
  if n < 0 then n = n + 2 ^ 32 end
  return string.char(n % 256, math.floor(n / 256) % 256, math.floor(n / 65536) % 256, math.floor(n / 16777216) % 256)
end

-- The cells of map.to_xp(m)'s image, before gzip: version, one layer,
-- column by column each glyph (the byte) white on black.
function M.xp_cells(m)
  local w, h = #m[1], #m
  local out = { le32(-1), le32(1), le32(w), le32(h) }
  for x = 1, w do
    for y = 1, h do out[#out + 1] = le32(m[y][x]:byte()) .. "\255\255\255\0\0\0" end
  end
  return table.concat(out)
end

-- The rows of an image's cells (one layer, before gzip).
function M.from_xp_cells(raw)
  local function int(at)
    local a, b, c, d = raw:byte(at, at + 3)
    return a + b * 256 + c * 65536 + d * 16777216
  end
  local w, h = int(9), int(13)
  local rows = { width = w, height = h }
  for y = 1, h do rows[y] = {} end
  local at = 17
  for x = 1, w do
    for y = 1, h do
      rows[y][x] = string.char(raw:byte(at))
      at = at + 10
    end
  end
  return rows
end

return M
