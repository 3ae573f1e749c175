-- What a game writes, checked with types/map.d.lua from the game's own
-- folder (tests/types/check.sh): no warning may come of it.
local map = require "map"

-- One table of options for every depth, the algorithm chosen at run time:
-- options of other algorithms at the value that asks for nothing (doors =
-- false, loops = 0) are taken by all.
---@type map.Algorithm[]
local ALGORITHMS = { "rooms", "cave", "bsp", "maze" }
local levels = {}
for depth, algorithm in ipairs(ALGORITHMS) do
  levels[depth] = map.generate { width = 61, height = 21, seed = depth, algorithm = algorithm, doors = false,
    loops = 0, items = 3 }
end

local m = map.generate { width = 80, height = 50, seed = 7, algorithm = "bsp", doors = true, loops = 2,
  vaults = { { rows = { "#+#", "#$#" }, count = 2, rotate = true } }, place = { { char = "g", count = 3, min = 5 } } }

-- Every row of a field of view, a distance map, an autotile map exists; a
-- path and a line have a first cell.
local vis = map.fov(m, m.player, 8)
if vis[m.stairs.y][m.stairs.x] then print("the stairs are in sight") end
local d = map.distances(m, m.player, { diagonal = true, max = 30 })
local steps = d[m.stairs.y][m.stairs.x]
if steps then print(steps + 1) end
local route = map.path(m, m.player, m.stairs, { diagonal = true })
if route then print(route[1].x, route[#route].y, #route) end
local tiles = map.autotile(m, { mode = "blob" })
print(tiles[1][1], map.line(1, 1, 5, 3)[1].y)
local way = map.explore(m, vis, m.player)
local ahead = way and way[2]
if not ahead then print("explored") end
print(#levels)
