-- The example generator side by side with a plain-Lua WFC of the same method
-- (spec/reference/wfc.lua): times per level and success rates, at 48x32 and
-- 96x64, on a built-in sample read from src/generators/example/samples.rs.
--   LUA_CPATH_5_4='build/lib/lua/5.4/?.so' lua5.4 bench/example.lua [sample] [seeds]
package.path = "./?.lua;" .. package.path
local map = require "map"
local wfc = require "spec.reference.wfc"

local name, seeds = arg[1] or "caves", tonumber(arg[2] or "10")
local source = assert(io.open("src/generators/example/samples.rs")):read("a")
local body = assert(source:match('"' .. name .. '",%s*"[^"]*",%s*"\\\n(.-)",\n'), name)
local rows = {}
for row in body:gmatch("([^\n]-)\\n\\\n") do rows[#rows + 1] = row end
rows[#rows + 1] = body:match("([^\n]*)$")

local clock = os.clock
for _, size in ipairs { { 48, 32 }, { 96, 64 } } do
  local w, h = size[1], size[2]
  local ok, t = 0, clock()
  for seed = 1, seeds do
    if pcall(map.generate_text, { width = w, height = h, seed = seed, algorithm = "example", sample = name }) then
      ok = ok + 1
    end
  end
  local module_time = (clock() - t) / seeds
  local list, weights = wfc.patterns(rows, 3)
  local lua_ok, lua_seeds = 0, math.max(1, math.floor(seeds / 5))
  t = clock()
  for seed = 1, lua_seeds do
    math.randomseed(seed)
    if wfc.solve(list, weights, 3, w, h, 20) then lua_ok = lua_ok + 1 end
  end
  local lua_time = (clock() - t) / lua_seeds
  print(("%s %dx%d: module %.1f ms/level (%d/%d made, connected), plain Lua %.1f ms/level"
    .. " (%d/%d solved, not connected), %.0fx"):format(name, w, h,
    module_time * 1000, ok, seeds, lua_time * 1000, lua_ok, lua_seeds, lua_time / module_time))
end
