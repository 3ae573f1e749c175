-- bench/versus.lua: one build's figures for bench/versus.sh, which runs it
-- once per build, interpreter and round, alternating builds, then has it
-- make the tables from the lines gathered.
--
--   LUA_CPATH_5_4='DIR/build/lib/lua/5.4/?.so' lua5.4 bench/versus.lua LABEL
--   LUA_CPATH='DIR/build/lib/lua/5.1/?.so'     luajit bench/versus.lua LABEL
--   lua5.4 bench/versus.lua --table FILE
--
-- The first two print a line per workload: the interpreter, the label, the
-- workload and its µs per call, by bench/measure.lua's method (BENCH_ROUNDS,
-- BENCH_ROUND_S), tab-separated: generate(60, 20, seed), generate(80, 50,
-- seed),
-- render(generate(60, 20, seed)) (W1) and the pure-Lua W1
-- (bench/baseline.lua), seeds 1..5000; then calls a game makes often, of
-- every layer of the binding (a table function, a level's method and
-- property, a source's and a noise's, the LuaJIT route's). The third
-- prints, per interpreter, each workload's median over the lines of FILE
-- for each label and, in brackets, their range.

if arg[1] == "--table" then
  local rows, workloads, labels, interps, seen = {}, {}, {}, {}, {}
  for line in io.lines(arg[2]) do
    local interp, label, workload, us = line:match("^([^\t]+)\t([^\t]+)\t([^\t]+)\t([^\t]+)$")
    if interp then
      for list, v in pairs({ [interps] = interp, [labels] = label, [workloads] = workload }) do
        if not seen[list] then seen[list] = {} end
        if not seen[list][v] then
          seen[list][v] = true
          list[#list + 1] = v
        end
      end
      local key = interp .. "\t" .. label .. "\t" .. workload
      rows[key] = rows[key] or {}
      table.insert(rows[key], tonumber(us))
    end
  end
  local function cell(xs)
    if not xs then return "—" end
    table.sort(xs)
    local n = #xs
    local median = n % 2 == 1 and xs[(n + 1) / 2] or (xs[n / 2] + xs[n / 2 + 1]) / 2
    return ("%.3f (%.3f-%.3f)"):format(median, xs[1], xs[n])
  end
  for _, interp in ipairs(interps) do
    io.write("\n### ", interp, "\n\n| workload | ", table.concat(labels, " | "), " |\n|", (" --- |"):rep(1),
      (" ---: |"):rep(#labels), "\n")
    for _, workload in ipairs(workloads) do
      local cells = {}
      for i, label in ipairs(labels) do cells[i] = cell(rows[interp .. "\t" .. label .. "\t" .. workload]) end
      io.write("| ", workload, " | ", table.concat(cells, " | "), " |\n")
    end
  end
  return
end

local here = (arg and arg[0] or ""):match("^(.*)/[^/]*$") or "."
package.path = here .. "/?.lua;" .. package.path

local map = require "map"
local B = require "baseline"
local M = require "measure"

local SEEDS = 5000
local function seed(i) return (i - 1) % SEEDS + 1 end

local maps = {}
for s = 1, 100 do maps[s] = map.generate(60, 20, s) end
local m = map.generate(80, 50, 7)
local text, d = map.render(m), map.distances(m, m.player)
-- A build from before levels, sources and noises (30452a2, the speed
-- issue 35 holds generate to) runs the workloads it has (below).
local lvl = map.level and map.level { width = 200, height = 100, seed = 3 }
local big = map.level and map.level { width = 1000, height = 1000, seed = 3, algorithm = "cave" }
local p, dl = lvl and lvl.player, lvl and lvl:distances(lvl.player)
local movers = {}
for i = 1, 20 do movers[i] = p and { x = p.x, y = p.y } end
local r, n = map.rng and map.rng(1), map.noise and map.noise { seed = 1 }

-- Each workload's name and function; the function returns a number.
local WORKLOADS = {
  { "generate(60, 20)", function(i) return #map.generate(60, 20, seed(i)) end },
  { "generate(80, 50)", function(i) return #map.generate(80, 50, seed(i)) end },
  { "W1: render(generate(60, 20))", function(i) return #map.render(map.generate(60, 20, seed(i))) end },
  { "pure-Lua W1", function(i) return #B.render(B.generate(60, 20, seed(i))) end },
  { "render(60x20)", function(i) return #map.render(maps[(i - 1) % 100 + 1]) end },
  { "generate_text(60, 20)", function(i) return #map.generate_text(60, 20, seed(i)) end },
  { "new_map(60, 20)", function() return #map.new_map(60, 20) end },
  { "parse(80x50 text)", function() return #map.parse(text) end },
  { "line, 70 cells", function() return #map.line(1, 1, 70, 40) end },
  { "path(80x50)", function() return #map.path(m, m.player, m.stairs) end },
  { "distances(80x50)", function() return #map.distances(m, m.player) end },
  { "fov(80x50, r 8)", function() return #map.fov(m, m.player, 8) end },
  { "step(80x50)", function() return (map.step(m, d, m.stairs)) or 0 end },
  { "lvl:get", function() return #lvl:get(p) end },
  { "lvl:fov(r 8), 1000x1000", function() return big:fov(big.player, 8).width end },
  { "lvl:steps, 20 movers", function()
    for k = 1, 20 do movers[k].x, movers[k].y = p.x, p.y end
    return lvl:steps(dl, movers)
  end },
  { "lvl.width", function() return lvl.width end },
  { "lvl.player", function() return lvl.player.x end },
  { "r:random(6)", function() return r:random(6) end },
  { "n:get(x, y)", function() return n:get(1.5, 2.5) end },
}

local interp, label = jit and "luajit" or "lua5.4", arg[1] or "?"
for _, w in ipairs(WORKLOADS) do
  -- A workload the build cannot run (a function it has not) is left out.
  if pcall(w[2], 1) then
    local us = M.measure({ { name = w[1], fn = w[2] } }, M.ROUNDS)[w[1]]
    io.write(("%s\t%s\t%s\t%.4f\n"):format(interp, label, w[1], us))
  end
end
