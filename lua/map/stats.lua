-- map.stats: `map stats`, the CLI's seed catalogue (docs/cli.md): for each
-- seed of a range, the level `generate` makes with the options given,
-- analysed (map.analyze), as one line: a JSON object, or CSV with a header.
local map = require "map"

local M = {}

-- The figures of a line, in order.
M.COLUMNS = { "seed", "regions", "region_size", "chokepoints", "dead_ends", "stairs", "farthest", "rooms",
  "bridges", "loops" }

-- The figures of one level, by column name (false where none).
function M.figures(options)
  local m = map.generate(options)
  local a = map.analyze(m)
  local graph = a.rooms
  return {
    seed = m.seed,
    regions = #a.regions,
    region_size = a.region and a.regions[a.region].size,
    chokepoints = #a.chokepoints,
    dead_ends = #a.dead_ends,
    stairs = a.stairs,
    farthest = a.farthest and a.farthest.distance,
    rooms = #m.rooms,
    bridges = graph and #graph.bridges,
    loops = graph and graph.loops,
  }
end

-- A line of `figures`: JSON (false as null) or CSV (false as empty).
function M.line(figures, csv)
  local parts = {}
  for i, name in ipairs(M.COLUMNS) do
    local v = figures[name]
    local shown = v and string.format("%d", v) or (csv and "" or "null")
    parts[i] = csv and shown or ('"' .. name .. '":' .. shown)
  end
  return csv and table.concat(parts, ",") or "{" .. table.concat(parts, ",") .. "}"
end

-- The catalogue of seeds `from` to `to` with `options` (generate's, without
-- seed), written line by line through `write`.
function M.catalogue(options, from, to, csv, write)
  if csv then write(table.concat(M.COLUMNS, ",") .. "\n") end
  for seed = from, to do
    options.seed = seed
    write(M.line(M.figures(options), csv) .. "\n")
  end
end

return M
