-- A plain-Lua wave function collapse, the overlapping model, for
-- bench/example.sh's side-by-side times (and the specs' windows): the
-- same method as the module's (src/generators/example/wfc.rs: AC-4
-- support counts, the fewest patterns left first, a pattern by its
-- weight, restarts on a contradiction) written the obvious way, with
-- math.random for its draws. No fixed cells, border or connection: the
-- solver alone.
local M = {}

-- The sample's n x n windows, row after row, under the symmetries asked
-- for ("none", "rotations" or "all" 8, the default), the sample wrapped
-- round its edges when `wraps`: the patterns (strings) in the order first
-- met, their weights (how often met), and the set of them (pattern ->
-- its number). The one enumeration the specs and the bench use.
function M.patterns(rows, n, symmetry, wraps)
  local h, w = #rows, #rows[1]
  local turns = ({ none = 1, rotations = 4, all = 8 })[symmetry or "all"]
  local function cell(x, y) return rows[(y - 1) % h + 1]:sub((x - 1) % w + 1, (x - 1) % w + 1) end
  local index, list, weights = {}, {}, {}
  for y = 1, wraps and h or h - n + 1 do
    for x = 1, wraps and w or w - n + 1 do
      for v = 0, turns - 1 do
        local out = {}
        for dy = 0, n - 1 do
          for dx = 0, n - 1 do
            local sx, sy = dx, dy
            if v >= 4 then sx = n - 1 - dx end
            for _ = 1, v % 4 do sx, sy = sy, n - 1 - sx end
            out[#out + 1] = cell(x + sx, y + sy)
          end
        end
        local key = table.concat(out)
        if index[key] then
          weights[index[key]] = weights[index[key]] + 1
        else
          list[#list + 1], weights[#list + 1] = key, 1
          index[key] = #list
        end
      end
    end
  end
  return list, weights, index
end

local DX, DY, OPP = { 1, 0, -1, 0 }, { 0, 1, 0, -1 }, { 3, 4, 1, 2 }

local function agree(p, q, n, dx, dy)
  for y = math.max(0, dy), math.min(n, n + dy) - 1 do
    for x = math.max(0, dx), math.min(n, n + dx) - 1 do
      local a = y * n + x + 1
      local b = (y - dy) * n + (x - dx) + 1
      if p:byte(a) ~= q:byte(b) then return false end
    end
  end
  return true
end

-- A w x h output from the patterns, or nil after `attempts` contradictions.
function M.solve(list, weights, n, w, h, attempts)
  local count = #list
  local allowed = {}
  for d = 1, 4 do
    allowed[d] = {}
    for p = 1, count do
      local a = {}
      for q = 1, count do
        if agree(list[p], list[q], n, DX[d], DY[d]) then a[#a + 1] = q end
      end
      allowed[d][p] = a
    end
  end
  local pw, ph = w - n + 1, h - n + 1
  for _ = 1, attempts do
    local possible, support, left = {}, {}, {}
    for i = 1, pw * ph do
      local row, sup = {}, {}
      for p = 1, count do
        row[p] = true
        sup[p] = { #allowed[OPP[1]][p], #allowed[OPP[2]][p], #allowed[OPP[3]][p], #allowed[OPP[4]][p] }
      end
      possible[i], support[i], left[i] = row, sup, count
    end
    local stack, failed = {}, false
    local function ban(i, p)
      if not possible[i][p] then return end
      possible[i][p] = false
      left[i] = left[i] - 1
      stack[#stack + 1] = { i, p }
      if left[i] == 0 then failed = true end
    end
    local function propagate()
      while #stack > 0 and not failed do
        local top = table.remove(stack)
        local i, p = top[1], top[2]
        local x, y = (i - 1) % pw, math.floor((i - 1) / pw)
        for d = 1, 4 do
          local nx, ny = x + DX[d], y + DY[d]
          if nx >= 0 and ny >= 0 and nx < pw and ny < ph then
            local j = ny * pw + nx + 1
            for _, q in ipairs(allowed[d][p]) do
              if possible[j][q] then
                local s = support[j][q]
                s[d] = s[d] - 1
                if s[d] == 0 then ban(j, q) end
              end
            end
          end
        end
      end
    end
    while not failed do
      local best, fewest = nil, math.huge
      for i = 1, pw * ph do
        if left[i] > 1 and left[i] + math.random() < fewest then best, fewest = i, left[i] + math.random() end
      end
      if not best then break end
      local total = 0
      for p = 1, count do if possible[best][p] then total = total + weights[p] end end
      local r, chosen = math.random() * total, nil
      for p = 1, count do
        if possible[best][p] then
          chosen = p
          r = r - weights[p]
          if r < 0 then break end
        end
      end
      for p = 1, count do if p ~= chosen then ban(best, p) end end
      propagate()
    end
    if not failed then
      local out = {}
      for y = 0, h - 1 do
        local row = {}
        for x = 0, w - 1 do
          local px, py = math.min(x, pw - 1), math.min(y, ph - 1)
          local p
          for q = 1, count do if possible[py * pw + px + 1][q] then p = q break end end
          row[#row + 1] = list[p]:sub((y - py) * n + (x - px) + 1, (y - py) * n + (x - px) + 1)
        end
        out[#out + 1] = table.concat(row)
      end
      return out
    end
  end
end

return M
