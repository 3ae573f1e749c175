-- spec/reference/grid.lua: what the pure-Lua references share about the
-- module's map tables (rows of one-character strings, m[y][x], 1-based).
--
-- The references (fov.lua, distances.lua, path.lua beside this file) are at
-- once the oracles the specs check map.fov, map.distances and map.path
-- against and the pure-Lua baseline bench/toolkit.lua times them against.
-- So they are written the way a competent Lua programmer would write them:
-- locals everywhere, flat arrays pre-filled so they stay in the array part,
-- `table.new` where LuaJIT has it, no per-cell closures or temporary tables.
-- They run on Lua 5.4 and LuaJIT, and trust their arguments (no checking).
local M = {}

-- LuaJIT (and OpenResty) code preallocates with table.new; Lua 5.4 has no
-- equivalent, and {} grows by doubling.
do
  local ok, new_tab = pcall(require, "table.new")
  M.new_tab = ok and new_tab or function() return {} end
end

-- The set of the characters of a string.
function M.char_set(s)
  local set = {}
  for i = 1, #s do set[s:sub(i, i)] = true end
  return set
end

-- The rows (h rows of w cells) of a flat, row-major array.
function M.rows(flat, w, h)
  local rows = M.new_tab(h, 0)
  for y = 1, h do
    local row, base = M.new_tab(w, 0), (y - 1) * w
    for x = 1, w do row[x] = flat[base + x] end
    rows[y] = row
  end
  return rows
end

-- Neighbour offsets: N, E, S, W, NE, SE, SW, NW (the module's tie order).
M.DX = { 0, 1, 0, -1, 1, 1, -1, -1 }
M.DY = { -1, 0, 1, 0, -1, 1, 1, -1 }

return M
