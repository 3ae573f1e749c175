-- spec/reference/sample.lua: spawning cells in pure Lua, the reference for
-- which cells map.sample may draw (spec/sample_spec.lua) and its baseline
-- (bench/turns.lua); see grid.lua for how the references are written.
--
--   candidates(m [, options])  -> {{x, y}, ...}, the cells that may be drawn, in row order
--   sample(m, count [, options])  -> count distinct positions {x=, y=}
--
-- Options as map.sample's: chars (default "."), from (a position), min,
-- max (walking distances from `from`, search.lua with blocked and
-- diagonal; unreached cells never count), hidden (not visible from `from`
-- by fov.lua without a radius, opaque default "#+"), seed. sample draws
-- with math.random (seeded with math.randomseed(seed)): the same work as
-- map.sample, other draws.
local fov = require("spec.reference.fov").fov
local grid = require "spec.reference.grid"
local search = require("spec.reference.search").search

local M = {}

local char_set = grid.char_set

function M.candidates(m, options)
  options = options or {}
  local chars = char_set(options.chars or ".")
  local from, d, seen = options.from, nil, nil
  if from then
    d = search(m, from, { blocked = options.blocked, diagonal = options.diagonal, max = options.max })
    if options.hidden then seen = fov(m, from.x, from.y, nil, options.opaque or "#+") end
  end
  local min = options.min or 0
  local out = {}
  for y = 1, #m do
    local row, drow, vrow = m[y], d and d[y], seen and seen[y]
    for x = 1, #row do
      if chars[row[x]] then
        local v = drow and drow[x]
        if (not drow or (v and v >= min)) and not (vrow and vrow[x]) then out[#out + 1] = { x, y } end
      end
    end
  end
  return out
end

function M.sample(m, count, options)
  local cells = M.candidates(m, options)
  local n = #cells
  if count > n then error(("count is %d but only %d cells can be drawn"):format(count, n)) end
  if options and options.seed then math.randomseed(options.seed) end
  local out = {}
  for i = 1, count do
    local j = math.random(i, n)
    cells[i], cells[j] = cells[j], cells[i]
    out[i] = { x = cells[i][1], y = cells[i][2] }
  end
  return out
end

return M
