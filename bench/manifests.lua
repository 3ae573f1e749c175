-- bench/manifests.lua: the workloads of the manifests (spec/exports/<name>.lua,
-- spec/natives/<kind>.lua) whose reference.bench is a workload rather than
-- a bench file: for each, the module's call (`run`) against a pure-Lua
-- equivalent (`lua`), on the state `setup` makes, on the interpreter that
-- runs it. A new export or method with no bench of its own is timed here
-- with no edit.
--
--   LUA_CPATH_5_4='build/lib/lua/5.4/?.so' lua5.4 bench/manifests.lua
--   LUA_CPATH='build/lib/lua/5.1/?.so'     luajit bench/manifests.lua
--
-- Method and settings (BENCH_ROUNDS, BENCH_ROUND_S, BENCH_ONLY, e.g.
-- "M1,M3") as bench/bench.lua: see bench/measure.lua. Run from the
-- repository's root.

local here = (arg and arg[0] or ""):match("^(.*)/[^/]*$") or "."
package.path = here .. "/?.lua;" .. here .. "/../?.lua;" .. package.path

local manifests = require "spec.manifests"
local measure = require "measure"

local INTERP = jit and "luajit" or "lua5.4"
local VERSION = jit and jit.version or _VERSION

local function out(fmt, ...) io.write(string.format(fmt, ...), "\n") end

-- What a call returns, as a number for measure's sink.
local function number(value)
  if type(value) == "number" then return value end
  return value and 1 or 0
end

local rows = {}
local n = 0
for _, entry in ipairs(manifests.entries()) do
  local reference = entry.fields.reference
  local bench = type(reference) == "table" and reference.bench
  if type(bench) == "table" then
    n = n + 1
    local id = "M" .. n
    if measure.wanted(id) then
      local state = bench.setup and bench.setup()
      local run, lua = bench.run, bench.lua
      local r = measure.measure({
        { name = "module", fn = function() return number(run(state)) end },
        { name = "lua", fn = function() return number(lua(state)) end },
      }, measure.ROUNDS)
      rows[#rows + 1] = { id = id, label = entry.label, path = entry.path, r = r }
    end
  end
end

out("")
out("%s (%s): %d workloads, median of %d rounds of ~%.2f s. A workload is the manifest's reference.bench:", INTERP,
  VERSION, n, measure.ROUNDS, measure.ROUND_S)
out("the module's call against a pure-Lua equivalent.")
out("")
out("| id | call | manifest | module µs/op | pure Lua µs/op | Lua / module |")
out("| --- | --- | --- | ---: | ---: | ---: |")
for _, row in ipairs(rows) do
  out("| %s | `%s` | %s | %s | %s | %s |", row.id, row.label, row.path, measure.fmt_us(row.r.module),
    measure.fmt_us(row.r.lua), measure.fmt_ratio(row.r.lua / row.r.module))
end
