-- bench/criterion_table.lua: the medians of `cargo bench --bench core` as a
-- markdown table in µs per operation and ns per cell.
--
--   lua5.4 bench/criterion_table.lua target/bench/criterion

local dir = arg[1] or "target/bench/criterion"

local function read(path)
  local f = io.open(path, "r")
  if not f then return nil end
  local text = f:read("*a")
  f:close()
  return text
end

local BENCHES = {
  { "rooms/60x20", "rooms level (generate), 60x20" },
  { "rooms/200x60", "rooms level (generate), 200x60" },
  { "cave/60x20", "cave level (generate), 60x20" },
  { "cave/1000x1000", "cave level (generate), 1000x1000" },
  { "reachable/60x20", "reach::check, 60x20 rooms maps" },
  { "exits/60x20", "rooms' exits and links (Touches), 60x20 rooms levels" },
  { "render/60x20", "Grid::render, 60x20" },
  { "render/200x60", "Grid::render, 200x60" },
  { "render/1000x1000", "Grid::render, 1000x1000" },
}

-- Every algorithm at the sizes of bench/generators.lua (benches/core.rs's
-- group `generators`), in map.ALGORITHMS order when the module loads, else
-- in the order of the directory listing.
local algorithms = {}
local ok, map = pcall(require, "map")
if ok and type(map) == "table" and map.ALGORITHMS then
  for k, a in ipairs(map.ALGORITHMS) do algorithms[k] = a end
else
  local ls = io.popen('ls -1 "' .. dir .. '/generators" 2>/dev/null')
  if ls then
    for a in ls:lines() do
      if a ~= "report" then algorithms[#algorithms + 1] = a end
    end
    ls:close()
  end
end
for _, size in ipairs { "80x50", "1000x1000" } do
  for _, a in ipairs(algorithms) do
    BENCHES[#BENCHES + 1] = { "generators/" .. a .. "/" .. size, a .. " level (generate), " .. size }
  end
end

print("| bench | what | median µs/op | ns/cell |")
print("| --- | --- | ---: | ---: |")
for _, b in ipairs(BENCHES) do
  local id, what = b[1], b[2]
  local est = read(dir .. "/" .. id .. "/new/estimates.json")
  local meta = read(dir .. "/" .. id .. "/new/benchmark.json")
  if est and meta then
    local ns = tonumber(est:match('"median":{.-"point_estimate":([%d.eE+-]+)'))
    local cells = tonumber(meta:match('"Elements":(%d+)'))
    print(string.format("| %s | %s | %.3f | %.3f |", id, what, ns / 1000, ns / cells))
  else
    print(string.format("| %s | %s | — | — |", id, what))
  end
end
