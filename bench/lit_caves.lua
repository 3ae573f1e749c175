-- bench/lit_caves.lua: the lit levels of bench/world.lua and
-- bench/peers/world_map.lua: the 80x50 caves of seeds 1..n, each as a table
-- (`m`) and a native level (`lvl`), with ten lights of radius 8 on open
-- cells picked by a fixed rule, so that every program lights the same cells.
local map = require "map"

return function(n)
  local out = {}
  for s = 1, n do
    local m = map.generate { width = 80, height = 50, seed = s, algorithm = "cave" }
    local open = {}
    for y = 1, 50 do
      for x = 1, 80 do
        if m[y][x] ~= "#" then open[#open + 1] = { x, y } end
      end
    end
    local lights = {}
    for i = 1, 10 do
      local c = open[(i * 7919 + s * 104729) % #open + 1]
      lights[i] = { x = c[1], y = c[2], radius = 8 }
    end
    out[s] = { m = m, lvl = map.level(m), lights = lights }
  end
  return out
end
