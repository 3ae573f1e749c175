-- examples/terminal/screen.lua: a frame (map.frame, lvl:frame) drawn as
-- terminal text: each row's visible runs as they are, its remembered runs
-- dimmed (ANSI "\27[2m"), its unknown cells blank. `ansi = false` gives the
-- characters alone, a line a row.
local M = {}

local DIM, RESET = "\27[2m", "\27[0m"
local concat = table.concat

-- One row: its characters `chars`, their states `states` ("0", "1", "2").
local function row_text(chars, states, out)
  local i, n = 1, #states
  while i <= n do
    local s = states:sub(i, i)
    local j = (states:find(s == "1" and "[02]" or "1", i) or n + 1) - 1
    local run = chars:sub(i, j)
    if s == "1" then
      out[#out + 1] = DIM .. run .. RESET
    else
      out[#out + 1] = run
    end
    i = j + 1
  end
end

-- The screen's text for `rows` and `states` (what the frame returns).
function M.draw(rows, states, ansi)
  if ansi == false then return concat(rows, "\n") end
  local out = {}
  for y = 1, #rows do
    row_text(rows[y], states[y], out)
    out[#out + 1] = "\n"
  end
  return concat(out)
end

return M
