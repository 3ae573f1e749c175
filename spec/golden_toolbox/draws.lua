-- The toolbox's pinned sequences (spec/golden_toolbox/*.txt): what every
-- method of map.rng draws from seeds 1 and 42, the names map.names gives,
-- and the turns of a scheduler, as text. spec/rng_spec.lua,
-- names_spec.lua and scheduler_spec.lua compare the files with this text
-- on Lua 5.4 and LuaJIT; the files were written once, on Lua 5.4, by
--
--   LUA_CPATH_5_4='build/lib/lua/5.4/?.so' lua5.4 spec/golden_toolbox/draws.lua write
--
-- and, as every golden file, are never rewritten: a change in them is a
-- change in every saved game's sequence. Floats are written with %.17g,
-- which reads back to the same double.
local map = require "map"

local M = {}

M.SEEDS = { 1, 42 }

-- The examples names are drawn from.
M.ELVES = { "Aerandir", "Amroth", "Aranwe", "Beleg", "Celeborn", "Cirdan", "Daeron", "Earwen", "Ecthelion",
  "Elrond", "Elwing", "Feanor", "Finrod", "Galadriel", "Gildor", "Glorfindel", "Haldir", "Idril", "Ingwe", "Legolas",
  "Luthien", "Mablung", "Nimrodel", "Orodreth", "Rumil", "Saeros", "Thingol", "Turgon" }
M.TOWNS = { "Jean-Luc", "Van Helsing", "D'Artagnan", "Saint-Malo", "Le Havre", "Aix-en-Provence", "Mont-Blanc",
  "La Rochelle", "Val d'Isere", "Pont-Aven", "Saint-Tropez", "Les Baux" }

local function number(x)
  if x == math.floor(x) and math.abs(x) < 2 ^ 53 then return string.format("%d", x) end
  return string.format("%.17g", x)
end

-- `n` results of `f()` on one line after `label`.
local function line(out, label, n, f)
  local values = {}
  for i = 1, n do values[i] = number(f()) end
  out[#out + 1] = label .. ": " .. table.concat(values, " ")
end

-- Every method of a source from `seed`, in order, on one source.
function M.rng(seed)
  local r, out = map.rng(seed), {}
  line(out, "random()", 5, function() return r:random() end)
  line(out, "random(6)", 20, function() return r:random(6) end)
  line(out, "random(7)", 20, function() return r:random(7) end)
  line(out, "random(2^31)", 5, function() return r:random(2 ^ 31) end)
  line(out, "random(-3, 3)", 10, function() return r:random(-3, 3) end)
  line(out, "random(2^53)", 3, function() return r:random(2 ^ 53) end)
  line(out, "random(-2^53, 2^53)", 3, function() return r:random(-2 ^ 53, 2 ^ 53) end)
  line(out, "normal()", 5, function() return r:normal() end)
  line(out, "normal(10, 2)", 3, function() return r:normal(10, 2) end)
  line(out, "dice(\"3d6+2\")", 5, function() return r:dice("3d6+2") end)
  line(out, "dice(\"d%\")", 5, function() return r:dice("d%") end)
  line(out, "dice(\"2d4-1\")", 3, function() return r:dice("2d4-1") end)
  local letters = { "a", "b", "c", "d", "e", "f", "g", "h", "i", "j" }
  out[#out + 1] = "pick(a..j): " .. (function()
    local picked = {}
    for i = 1, 5 do picked[i] = r:pick(letters) end
    return table.concat(picked, " ")
  end)()
  line(out, "weighted({1, 2, 3, 0, 4})", 10, function() return r:weighted({ 1, 2, 3, 0, 4 }) end)
  line(out, "weighted({0.5, 0.25, 0.001})", 5, function() return r:weighted({ 0.5, 0.25, 0.001 }) end)
  for _ = 1, 3 do
    out[#out + 1] = "shuffle(1..10): " .. table.concat(r:shuffle({ 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 }), " ")
  end
  local function each(t)
    local i = 0
    return function()
      i = i + 1
      return t[i]
    end
  end
  line(out, "fill(t, 5, 1, 6)", 5, each(r:fill({}, 5, 1, 6)))
  line(out, "fill(t, 3)", 3, each(r:fill({}, 3)))
  out[#out + 1] = "state(): " .. r:state()
  local copy = r:clone()
  line(out, "clone():random(100)", 3, function() return copy:random(100) end)
  line(out, "random(100)", 3, function() return r:random(100) end)
  out[#out + 1] = "generate{rng}.seed: " .. number(map.generate { width = 30, height = 10, rng = r }.seed)
  local cells = map.sample(map.generate(30, 10, 1), 3, { rng = r })
  out[#out + 1] = ("sample(m, 3, {rng}): %d,%d %d,%d %d,%d"):format(cells[1].x, cells[1].y, cells[2].x, cells[2].y,
    cells[3].x, cells[3].y)
  line(out, "random(1000) after", 3, function() return r:random(1000) end)
  return table.concat(out, "\n") .. "\n"
end

-- Names from `seed`, one source for all: the defaults, order 2, order 4,
-- 8 characters, towns with separators, not novel.
function M.names(seed)
  local r, out = map.rng(seed), {}
  local function names(label, g, n)
    local list = {}
    for i = 1, n do list[i] = g:name(r) end
    out[#out + 1] = label .. ": " .. table.concat(list, ", ")
  end
  names("elves", map.names(M.ELVES), 12)
  names("elves order 2", map.names(M.ELVES, { order = 2 }), 8)
  names("elves order 4", map.names(M.ELVES, { order = 4 }), 8)
  names("elves of 8", map.names(M.ELVES, { min = 8, max = 8 }), 8)
  names("towns", map.names(M.TOWNS), 8)
  names("towns not novel", map.names(M.TOWNS, { novel = false }), 8)
  out[#out + 1] = "name(seed): " .. map.names(M.ELVES):name(seed)
  return table.concat(out, "\n") .. "\n"
end

-- The turns of a scheduler of actors of many speeds, fractions among
-- them, with a delay and a remove along the way.
function M.scheduler()
  local s, out = map.scheduler(), {}
  local speeds = { a = 1, b = 1.5, c = 0.8, d = 2 / 3, e = 3, f = 100 / 7, g = 1 }
  for _, name in ipairs({ "a", "b", "c", "d", "e", "f", "g" }) do s:add(name, speeds[name]) end
  for i = 1, 60 do
    local actor, time = s:next()
    out[#out + 1] = actor .. " " .. number(time)
    if i == 20 then s:delay("b", 2.5) end
    if i == 40 then s:remove("f") end
  end
  out[#out + 1] = "state: " .. s:state()
  return table.concat(out, "\n") .. "\n"
end

-- Each file and its text.
function M.files()
  local files = { ["spec/golden_toolbox/scheduler.txt"] = M.scheduler() }
  for _, seed in ipairs(M.SEEDS) do
    files["spec/golden_toolbox/rng-" .. seed .. ".txt"] = M.rng(seed)
    files["spec/golden_toolbox/names-" .. seed .. ".txt"] = M.names(seed)
  end
  return files
end

if arg and arg[0] and arg[0]:match("draws%.lua$") and arg[1] == "write" then
  for path, text in pairs(M.files()) do
    local f = assert(io.open(path, "wb"))
    f:write(text)
    f:close()
    print("wrote " .. path)
  end
end

return M
