-- bench/toolbox.lua: the game's toolbox (map.rng, map.scheduler,
-- map.names) against what a game would use without it, on the
-- interpreter that runs it: the interpreter's own math.random, a binary
-- heap in plain Lua (spec/reference/scheduler.lua, the oracle of
-- spec/scheduler_spec.lua), and an absolute target for names.
--
--   LUA_CPATH_5_4='build/lib/lua/5.4/?.so' lua5.4 bench/toolbox.lua
--   LUA_CPATH='build/lib/lua/5.1/?.so'     luajit bench/toolbox.lua
--
-- Method and settings (BENCH_ROUNDS, BENCH_ROUND_S, BENCH_ONLY, e.g.
-- "B1,B4") as bench/bench.lua: see bench/measure.lua. Schedulers hold
-- ACTORS actors of speeds 1 to 10 (the reference's periods 2520 / speed,
-- integers, so that both keep exact times) built before timing; before
-- timing, both give the same turns for 10,000 calls (a difference is
-- printed).

local here = (arg and arg[0] or ""):match("^(.*)/[^/]*$") or "."
package.path = here .. "/?.lua;" .. here .. "/../?.lua;" .. package.path

local map = require "map"
local measure = require "measure"
local Reference = require "spec.reference.scheduler"

local INTERP = jit and "luajit" or "lua5.4"
-- random's target, within 2x of math.random, is Lua 5.4's, where both are
-- a C call; LuaJIT compiles its math.random inline: reported there.
local RANDOM_TARGET = not jit and { ratio = 0.5 } or { report = true }
local VERSION = jit and jit.version or _VERSION
local ACTORS = 1000
local L = 2520 -- a common multiple of the speeds 1..10
local random = math.random

local function out(fmt, ...) io.write(string.format(fmt, ...), "\n") end

local note, report_mismatches = measure.mismatches("reference")

local rows = {}
-- A row: id, what, the two variants measured, which is the module's, and
-- its target: `ratio` (the other's time / the module's) at least this, or
-- `at_most` µs.
-- `per`: the values an operation makes (the µs shown are per value).
local function row(id, what, variants, target, per)
  if not measure.wanted(id) then return end
  local r = measure.measure(variants, measure.ROUNDS)
  rows[#rows + 1] = { id = id, what = what, r = r, a = variants[1].name, b = variants[2] and variants[2].name,
    target = target, per = per or 1 }
end

-- Random draws.
local r = map.rng(1)
math.randomseed(1)
local t = {}
local fill = r.fill
row("B1", "r:random(6) against math.random(6)", {
  { name = "map.rng", fn = function() return r:random(6) end },
  { name = "math.random", fn = function() return random(6) end },
}, RANDOM_TARGET)
row("B2", "r:random() against math.random()", {
  { name = "map.rng", fn = function() return r:random() end },
  { name = "math.random", fn = function() return random() end },
}, RANDOM_TARGET)
row("B3", "r:random(1, 2^31) against math.random(1, 2^31)", {
  { name = "map.rng", fn = function() return r:random(1, 2147483648) end },
  { name = "math.random", fn = function() return random(1, 2147483648) end },
}, RANDOM_TARGET)
-- A batch of 1000, per value.
local N = 1000
row("B4", "r:fill(t, 1000, 1, 6), per value, against math.random(6) into t", {
  { name = "map.rng", fn = function() fill(r, t, N, 1, 6) return t[N] end },
  { name = "math.random", fn = function()
    for i = 1, N do t[i] = random(6) end
    return t[N]
  end },
}, { report = true }, N)

-- Schedulers of ACTORS actors, speeds 1..10, the same in both.
local function schedulers()
  local s, ref, speed = map.scheduler(), Reference.new(), {}
  for i = 1, ACTORS do
    local actor = { id = i }
    speed[actor] = (i - 1) % 10 + 1
    s:add(actor, speed[actor])
    ref:add(actor, L / speed[actor])
  end
  return s, ref, speed
end

do
  local s, ref = schedulers()
  for k = 1, 10000 do
    local a, time = s:next()
    local b, units = ref:next()
    if a ~= b or time ~= units / L then
      note("scheduler", ("turn %d: %s at %s, the reference %s at %s"):format(k, a.id, time, b.id, units / L))
      break
    end
  end
end

local s, ref = schedulers()
row("B5", "s:next() with 1000 actors against a binary heap in Lua", {
  { name = "map.scheduler", fn = function()
    local _, time = s:next()
    return time
  end },
  { name = "Lua heap", fn = function()
    local _, time = ref:next()
    return time
  end },
}, { ratio = 2 })

local speed
s, ref, speed = schedulers()
row("B6", "s:next(), s:remove(actor), s:add(actor, speed) with 1000 actors against a binary heap in Lua", {
  { name = "map.scheduler", fn = function()
    local a, time = s:next()
    s:remove(a)
    s:add(a, speed[a])
    return time
  end },
  { name = "Lua heap", fn = function()
    local a, time = ref:next()
    ref:remove(a)
    ref:add(a, L / speed[a])
    return time
  end },
}, { ratio = 2 })
s, ref = nil, nil

-- Names of 8 characters from 28 examples.
local ELVES = { "Aerandir", "Amroth", "Aranwe", "Beleg", "Celeborn", "Cirdan", "Daeron", "Earwen", "Ecthelion",
  "Elrond", "Elwing", "Feanor", "Finrod", "Galadriel", "Gildor", "Glorfindel", "Haldir", "Idril", "Ingwe", "Legolas",
  "Luthien", "Mablung", "Nimrodel", "Orodreth", "Rumil", "Saeros", "Thingol", "Turgon" }
local g = map.names(ELVES, { min = 8, max = 8 })
row("B7", "g:name(r), 8 characters, order 3, 28 examples", {
  { name = "map.names", fn = function() return #g:name(r) end },
}, { at_most = 10 })

local fmt_ratio = measure.fmt_ratio
-- Below a microsecond, in thousandths: a draw takes nanoseconds.
local function fmt_us(us)
  if us < 1 then return string.format("%.3f", us) end
  return measure.fmt_us(us)
end
out("")
out("### %s (%s): map.rng, map.scheduler, map.names", INTERP, VERSION)
out("")
out("CPU time per operation (os.clock), median of %d rounds of ~%.2f s after warm-up. ratio = the other / the first.",
  measure.ROUNDS, measure.ROUND_S)
out("")
out("| id | workload | µs/op | against | its µs/op | ratio | target | verdict |")
out("| --- | --- | ---: | --- | ---: | ---: | --- | --- |")
for _, x in ipairs(rows) do
  local a = x.r[x.a]
  if x.b then
    local b = x.r[x.b]
    local target, shown, verdict = x.target.ratio, "—", "reported"
    if target then
      shown = target >= 1 and string.format(">= %.1fx", target)
        or string.format(">= %.1fx (within %.0fx)", target, 1 / target)
      verdict = b / a >= target and "met" or "MISSED"
    end
    out("| %s | %s | %s | %s | %s | %s | %s | %s |", x.id, x.what, fmt_us(a / x.per), x.b, fmt_us(b / x.per),
      fmt_ratio(b / a), shown, verdict)
  else
    out("| %s | %s | %s | — | — | — | <= %s µs | %s |", x.id, x.what, fmt_us(a), fmt_us(x.target.at_most),
      a <= x.target.at_most and "met" or "MISSED")
  end
end
out("")
report_mismatches(out)
out("")
out("(sink %.0f)", measure.sink() % 1000)
