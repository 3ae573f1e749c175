-- spec/reference/heap.lua: a binary min-heap of (key, value) in two parallel
-- arrays, hk and hv, of n entries; keys compare with <. The caller keeps n.
-- Shared by the references of distances (Dijkstra) and path (A*).
local M = {}

local floor = math.floor

-- Adds (k, v); returns the new size.
function M.push(hk, hv, n, k, v)
  n = n + 1
  local i = n
  while i > 1 do
    local p = floor(i / 2)
    local pk = hk[p]
    if pk <= k then break end
    hk[i], hv[i] = pk, hv[p]
    i = p
  end
  hk[i], hv[i] = k, v
  return n
end

-- Removes the smallest; returns the new size, its key and value.
function M.pop(hk, hv, n)
  local k, v = hk[1], hv[1]
  local lk, lv = hk[n], hv[n]
  hk[n], hv[n] = nil, nil
  n = n - 1
  local i = 1
  while true do
    local c = 2 * i
    if c > n then break end
    if c < n and hk[c + 1] < hk[c] then c = c + 1 end
    if hk[c] >= lk then break end
    hk[i], hv[i] = hk[c], hv[c]
    i = c
  end
  if n > 0 then hk[i], hv[i] = lk, lv end
  return n, k, v
end

return M
