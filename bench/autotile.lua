-- bench/autotile.lua: map.autotile against the pure-Lua version
-- (spec/reference/autotile.lua), on the interpreter that runs it:
--
--   LUA_CPATH_5_4='build/lib/lua/5.4/?.so' lua5.4 bench/autotile.lua
--   LUA_CPATH='build/lib/lua/5.1/?.so'     luajit bench/autotile.lua
--
-- Method and settings as bench/toolkit.lua (bench/measure.lua). Levels:
-- caves, 80x50 seeds 1..20 and 1000x1000 seeds 1..2, built before timing;
-- the module's results are compared with the baseline's on every level
-- first. Target: faster than the baseline (above 1x) on both interpreters.
local here = (arg and arg[0] or ""):match("^(.*)/[^/]*$") or "."
package.path = here .. "/?.lua;" .. here .. "/../?.lua;" .. package.path

local map = require "map"
local measure = require "measure"
local reference = require "spec.reference.autotile"

local INTERP = jit and "luajit" or "lua5.4"
local VERSION = jit and jit.version or _VERSION

local function out(fmt, ...) io.write(string.format(fmt, ...), "\n") end

local function caves(w, h, count)
  local levels = {}
  for s = 1, count do levels[s] = map.generate { width = w, height = h, seed = s, algorithm = "cave" } end
  return levels
end
local small, big = caves(80, 50, 20), caves(1000, 1000, 2)

local function same(a, b)
  for y = 1, #b do
    for x = 1, #b[y] do
      if a[y][x] ~= b[y][x] then return false end
    end
  end
  return #a == #b
end

local mismatches = 0
for _, levels in ipairs({ small, big }) do
  for _, m in ipairs(levels) do
    for _, o in ipairs({ {}, { index = true }, { mode = "8" } }) do
      if not same(map.autotile(m, o), reference.autotile(m, o)) then mismatches = mismatches + 1 end
    end
  end
end

local function pick(levels, i) return levels[i % #levels + 1] end

local WORKLOADS = {
  { "A1", "autotile(m), blob, 80x50 cave", small, {}, measure.ROUNDS },
  { "A2", "autotile(m, {index = true}), 80x50 cave", small, { index = true }, measure.ROUNDS },
  { "A3", "autotile(m), blob, 1000x1000 cave", big, {}, measure.HEAVY_ROUNDS },
}

out("")
out("### %s (%s): autotile", INTERP, VERSION)
out("")
out("CPU time per operation (os.clock), median of rounds of ~%.2f s after warm-up; speedup = baseline / module.",
  measure.ROUND_S)
out("")
out("| id | workload | module µs/op | baseline µs/op | speedup | target | verdict |")
out("| --- | --- | ---: | ---: | ---: | --- | --- |")
for _, w in ipairs(WORKLOADS) do
  local id, what, levels, options, rounds = w[1], w[2], w[3], w[4], w[5]
  if measure.wanted(id) then
    local r = measure.measure({
      { name = "module", fn = function(i) return #map.autotile(pick(levels, i), options) end },
      { name = "baseline", fn = function(i) return #reference.autotile(pick(levels, i), options) end },
    }, rounds)
    local speed = r.baseline / r.module
    out("| %s | %s | %s | %s | %s | > 1x baseline | %s |", id, what, measure.fmt_us(r.module),
      measure.fmt_us(r.baseline), measure.fmt_ratio(speed), speed > 1 and "met" or "MISSED")
  end
end
out("")
if mismatches == 0 then
  out("Checked before timing: the module's results equal the baseline's on every level timed.")
else
  out("**The module differs from the baseline on %d level and option pairs.**", mismatches)
end
