-- tests/editors/run.sh, step 1: the module writes, into DIR, COUNT
-- generated levels as N.txt (the map), N.tmj (map.to_tiled), N.lua
-- (Tiled's Lua export) and N.xp (map.to_xp), and every byte as
-- bytes.txt, bytes.tmj, bytes.xp.
--   lua write.lua DIR COUNT
local map = require "map"
local dir, count = arg[1], tonumber(arg[2])

local function save(name, bytes)
  local f = assert(io.open(dir .. "/" .. name, "wb"))
  f:write(bytes)
  f:close()
end

local function write_all(name, m)
  save(name .. ".txt", map.render(m))
  save(name .. ".tmj", map.to_tiled(m))
  save(name .. ".lua", map.to_tiled(m, { format = "lua" }))
  save(name .. ".xp", map.to_xp(m))
end

for i = 1, count do
  local algorithm = map.ALGORITHMS[(i - 1) % #map.ALGORITHMS + 1]
  local about = map.describe(algorithm)
  local m = map.generate { width = math.max(about.min_width, 20 + i % 60), height = math.max(about.min_height,
    10 + i % 23), seed = i, algorithm = algorithm, items = i % 3 }
  write_all(tostring(i), m)
end
local all = map.new_map(16, 16)
for b = 0, 255 do all[math.floor(b / 16) + 1][b % 16 + 1] = string.char(b) end
write_all("bytes", all)
