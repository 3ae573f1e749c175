-- bench/versus.lua: one build's figures for bench/versus.sh, which runs it
-- once per build, interpreter and round, alternating builds, then has it
-- make the tables from the lines gathered.
--
--   LUA_CPATH_5_4='DIR/build/lib/lua/5.4/?.so' lua5.4 bench/versus.lua LABEL
--   LUA_CPATH='DIR/build/lib/lua/5.1/?.so'     luajit bench/versus.lua LABEL
--   lua5.4 bench/versus.lua --table FILE
--
-- The first two print one line: the interpreter, the label, then µs per
-- call of generate(60, 20, seed), render(generate(60, 20, seed)) (W1),
-- render of a generated map, generate_text(60, 20, seed) and the pure-Lua
-- W1 (bench/baseline.lua), by bench/measure.lua's method (BENCH_ROUNDS,
-- BENCH_ROUND_S); seeds 1..5000. The third prints, per interpreter, each
-- label's median over the lines of FILE and, in brackets, their range.

if arg[1] == "--table" then
  local rows, order, interps = {}, {}, {}
  for line in io.lines(arg[2]) do
    local interp, label, rest = line:match("^(%S+) (%S+) (.*)$")
    if interp then
      local key = interp .. " " .. label
      if not rows[key] then
        rows[key] = {}
        order[#order + 1] = { interp = interp, label = label, key = key }
        if not interps[interp] then
          interps[interp] = true
          interps[#interps + 1] = interp
        end
      end
      local v = {}
      for x in rest:gmatch("%S+") do v[#v + 1] = tonumber(x) end
      v[6] = v[5] / v[2] -- W1 against pure Lua, within the process
      table.insert(rows[key], v)
    end
  end
  local function cell(list, k)
    local xs = {}
    for i, v in ipairs(list) do xs[i] = v[k] end
    table.sort(xs)
    local n = #xs
    local median = n % 2 == 1 and xs[(n + 1) / 2] or (xs[n / 2] + xs[n / 2 + 1]) / 2
    local f = k == 6 and "%.2fx" or "%.2f"
    return string.format(f .. " (" .. f .. "-" .. f .. ")", median, xs[1], xs[n])
  end
  for _, interp in ipairs(interps) do
    io.write("\n### ", interp, "\n\n")
    io.write("| build | rounds | generate | render(generate) | render | generate_text | pure-Lua W1 ",
      "| W1 vs pure Lua |\n")
    io.write("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n")
    for _, o in ipairs(order) do
      if o.interp == interp then
        local list = rows[o.key]
        local cells = {}
        for k = 1, 6 do cells[k] = cell(list, k) end
        io.write(string.format("| %s | %d | %s |\n", o.label, #list, table.concat(cells, " | ")))
      end
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

local r = M.measure({
  { name = "generate", fn = function(i) return #map.generate(60, 20, seed(i)) end },
  { name = "W1", fn = function(i) return #map.render(map.generate(60, 20, seed(i))) end },
  { name = "render", fn = function(i) return #map.render(maps[(i - 1) % 100 + 1]) end },
  { name = "generate_text", fn = function(i) return #map.generate_text(60, 20, seed(i)) end },
  { name = "baseline W1", fn = function(i) return #B.render(B.generate(60, 20, seed(i))) end },
}, M.ROUNDS)

io.write(string.format("%s %s %.3f %.3f %.3f %.3f %.3f\n", jit and "luajit" or "lua5.4", arg[1] or "?",
  r.generate, r.W1, r.render, r.generate_text, r["baseline W1"]))
