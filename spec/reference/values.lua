-- Whether two Lua value graphs are the same (`same(a, b)`): the reference
-- `map.save`/`map.load` are checked against. Numbers are the same when
-- their bits are (-0.0 is not 0, every NaN is NaN), whatever their type on
-- Lua 5.4 (an integral float within 2^53 loads as an integer: equal by
-- value); strings by their bytes; tables by their entries, a table of `a`
-- matching exactly one of `b` (shared tables stay shared, cycles stay
-- cycles); any other value (a native) by `equal_native(x, y)`, if given,
-- else by identity. Iterative: a deep graph compares without recursion.
local M = {}

local function same_number(x, y)
  if x ~= x or y ~= y then return x ~= x and y ~= y end
  if x == 0 and y == 0 then return 1 / x == 1 / y end
  return x == y
end

-- Returns true, or false and where the graphs differ.
function M.same(a, b, equal_native)
  local pairs_of = {}                  -- a table of a -> its table of b
  local back = {}                      -- a table of b -> its table of a
  local queue, at = {}, 1
  local function scalar(x, y, path)
    local tx, ty = type(x), type(y)
    if tx ~= ty then return false, path .. ": " .. tx .. " against " .. ty end
    if tx == "number" then
      if not same_number(x, y) then return false, path .. ": " .. tostring(x) .. " against " .. tostring(y) end
      return true
    end
    if tx == "table" then
      if pairs_of[x] ~= nil or back[y] ~= nil then
        if pairs_of[x] ~= y then return false, path .. ": a table shared in one graph only" end
        return true
      end
      pairs_of[x], back[y] = y, x
      queue[#queue + 1] = { x, y, path }
      return true
    end
    if tx == "userdata" and equal_native then
      if not equal_native(x, y) then return false, path .. ": natives differ" end
      return true
    end
    if x ~= y then return false, path .. ": " .. tostring(x) .. " against " .. tostring(y) end
    return true
  end
  local ok, why = scalar(a, b, "value")
  if not ok then return false, why end
  while at <= #queue do
    local x, y, path = queue[at][1], queue[at][2], queue[at][3]
    at = at + 1
    local count = 0
    for k, v in next, x do
      count = count + 1
      if type(k) == "table" then return false, path .. ": a table key" end
      local w = rawget(y, k)
      if w == nil then return false, path .. "[" .. tostring(k) .. "]: missing" end
      ok, why = scalar(v, w, path .. "[" .. tostring(k) .. "]")
      if not ok then return false, why end
    end
    for _ in next, y do count = count - 1 end
    if count ~= 0 then return false, path .. ": more entries in the second" end
  end
  return true
end

return M
