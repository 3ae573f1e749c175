-- spec/reference/frame.lua: a camera's frame in pure Lua, the reference for
-- map.frame and lvl:frame (spec/frame_spec.lua) and the loop they replace
-- (bench/frame.lua): every cell read one at a time, as a game drawing by
-- `f:get` does.
--
--   frame(get, width, height, x, y, w, h [, options]) -> rows, states | bytes
--
-- `get(x, y)`: the terrain's character at a cell of a `width` x `height`
-- map. Options as map.frame's, but `visible` and `memory` are functions
-- `(x, y) -> truthy` (a field's `get`), `things` and `items` lists of
-- {x=, y=, char=}, `light` rows of numbers from 0 to 1.
local M = {}

local char, floor, concat = string.char, math.floor, table.concat

-- The state of cell (x, y) of the map: 2 visible, 1 remembered, 0 unknown.
local function state_of(o, x, y)
  if not o.visible or o.visible(x, y) then return 2 end
  if o.memory and o.memory(x, y) then return 1 end
  return 0
end

-- The marks of `list` on the frame's cells (index by offset) at least `least`.
local function lay(chars, states, list, x, y, w, h, least)
  for _, m in ipairs(list or {}) do
    local c, r = m.x - x, m.y - y
    if c >= 0 and c < w and r >= 0 and r < h and states[r * w + c + 1] >= least then
      chars[r * w + c + 1] = m.char
    end
  end
end

function M.frame(get, width, height, x, y, w, h, options)
  local o = options or {}
  local blank = o.blank or " "
  local chars, states = {}, {}
  for r = 0, h - 1 do
    for c = 0, w - 1 do
      local mx, my = x + c, y + r
      local i = r * w + c + 1
      local state = 0
      if mx >= 1 and mx <= width and my >= 1 and my <= height then state = state_of(o, mx, my) end
      states[i] = state
      chars[i] = state > 0 and get(mx, my) or blank
    end
  end
  lay(chars, states, o.items, x, y, w, h, 1)
  lay(chars, states, o.things, x, y, w, h, 2)
  if o.bytes then
    local out = {}
    for r = 0, h - 1 do
      for c = 0, w - 1 do
        local i, mx, my = r * w + c + 1, x + c, y + r
        local lit = 255
        if o.light then
          local on = mx >= 1 and mx <= width and my >= 1 and my <= height
          lit = on and floor(o.light[my][mx] * 255 + 0.5) or 0
        end
        out[i] = chars[i] .. char(states[i], lit, 0)
      end
    end
    return concat(out)
  end
  local rows, digits = {}, {}
  for r = 0, h - 1 do
    rows[r + 1] = concat(chars, "", r * w + 1, r * w + w)
    digits[r + 1] = concat(states, "", r * w + 1, r * w + w)
  end
  return rows, digits
end

-- The same frame drawn from a level `lvl` and fields, as a game would.
function M.of_level(lvl, x, y, w, h, options)
  local o = {}
  for k, v in pairs(options or {}) do o[k] = v end
  for _, name in ipairs { "visible", "memory" } do
    local f = o[name]
    if f then o[name] = function(cx, cy) return f:get(cx, cy) end end
  end
  if o.things == true then o.things = lvl:things() end
  return M.frame(function(cx, cy) return lvl:get(cx, cy) end, lvl.width, lvl.height, x, y, w, h, o)
end

return M
