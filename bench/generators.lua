-- bench/generators.lua: every generator (map.ALGORITHMS, read at run time) at
-- 80x50 and 1000x1000, against building the same table of rows in Lua, on
-- the interpreter that runs it; then the peak memory of each at 2000x2000.
--
--   LUA_CPATH_5_4='build/lib/lua/5.4/?.so' lua5.4 bench/generators.lua
--   LUA_CPATH='build/lib/lua/5.1/?.so'     luajit bench/generators.lua
--
-- Method and settings (BENCH_ROUNDS, BENCH_HEAVY_ROUNDS, BENCH_ROUND_S) as
-- bench/bench.lua: see bench/measure.lua. BENCH_ONLY takes algorithm names
-- and "memory" (e.g. "cave,memory"). Each algorithm and size is one
-- workload of four variants timed in the same rounds, seeds 1..SEEDS in turn:
--
--   generate+render  #map.render(map.generate{width=, height=, seed=, algorithm=})
--   generate_text    #map.generate_text{...}: the Rust generation plus one
--                    copy of the text into a Lua string
--   lua rows         #B.new_map(w, h): a table of h rows of w "#" built in
--                    Lua (bench/baseline.lua), the rows of bench.lua's floors
--   lua rows+render  #map.render(B.new_map(w, h)): bench.lua's "lua
--                    rows+render" floor candidate
--
-- The issue's target: generate_text / lua rows < 1 at every size (the
-- generation costs less than building the rows in Lua, so the Lua boundary,
-- not the generator, bounds speed).
--
-- Memory: one process per measurement, `<this interpreter> bench/mem.lua
-- KIND 2000 2000 ALGORITHM` for generate (the table) and generate-text,
-- with lua-rows as the reference.

local here = (arg and arg[0] or ""):match("^(.*)/[^/]*$") or "."
package.path = here .. "/?.lua;" .. package.path

local map = require "map"
local B = require "baseline"
local measure = require "measure"

local clock = os.clock

local INTERP = jit and "luajit" or "lua5.4"
local VERSION = jit and jit.version or _VERSION
local SEEDS = 100
local SIZES = {
  { w = 80, h = 50, rounds = measure.ROUNDS },
  { w = 1000, h = 1000, rounds = measure.HEAVY_ROUNDS },
}
local MEM_W, MEM_H = 2000, 2000

local function out(fmt, ...) io.write(string.format(fmt, ...), "\n") end

local function seed(i) return (i - 1) % SEEDS + 1 end

local function opts(w, h, s, algorithm)
  return { width = w, height = h, seed = s, algorithm = algorithm }
end

---------------------------------------------------------------------------
-- Checks before timing: generate_text is the render of generate, of the
-- right size, for a few seeds of every algorithm and size.

local function check(algorithm, w, h)
  for s = 1, 3 do
    local o = opts(w, h, s, algorithm)
    local text = map.generate_text(o)
    assert(#text == w * h + h - 1, algorithm .. ": generate_text has the wrong length")
    assert(text == map.render(map.generate(o)), algorithm .. ": generate_text differs from render(generate)")
  end
end

---------------------------------------------------------------------------
-- Timing.

local rows = {}

local function run_timing()
  for _, size in ipairs(SIZES) do
    local w, h = size.w, size.h
    for _, algorithm in ipairs(map.ALGORITHMS) do
      if measure.wanted(algorithm) then
        check(algorithm, w, h)
        local r = measure.measure({
          { name = "gen+render",
            fn = function(i) return #map.render(map.generate(opts(w, h, seed(i), algorithm))) end },
          { name = "text", fn = function(i) return #map.generate_text(opts(w, h, seed(i), algorithm)) end },
          { name = "rows", fn = function() return #B.new_map(w, h) end },
          { name = "rows+render", fn = function() return #map.render(B.new_map(w, h)) end },
        }, size.rounds)
        rows[#rows + 1] = { algorithm = algorithm, w = w, h = h, r = r }
      end
    end
  end
end

---------------------------------------------------------------------------
-- Memory, one child process per figure.

local function interpreter()
  local i = -1
  while arg[i - 1] do i = i - 1 end
  return arg[i]
end

local function mem(kind, algorithm)
  local cmd = string.format("%s %s/mem.lua %s %d %d %s", interpreter(), here, kind, MEM_W, MEM_H, algorithm or "")
  local p = assert(io.popen(cmd, "r"))
  local line = p:read("*l")
  p:close()
  local before, after = (line or ""):match("^%S+ (%d+) (%d+)$")
  assert(before, "bench/mem.lua printed no figures: " .. cmd)
  return tonumber(before), tonumber(after)
end

local mem_rows = {}

local function run_memory()
  if not measure.wanted("memory") then return end
  local _, floor_after = mem("lua-rows")
  mem_rows.floor = floor_after
  for _, algorithm in ipairs(map.ALGORITHMS) do
    local b1, a1 = mem("generate", algorithm)
    local b2, a2 = mem("generate-text", algorithm)
    mem_rows[#mem_rows + 1] = { algorithm = algorithm, table_before = b1, table_after = a1,
      text_before = b2, text_after = a2 }
  end
end

---------------------------------------------------------------------------
-- Report.

local t_start = clock()
run_timing()
local elapsed = clock() - t_start
local fmt_us, fmt_ratio = measure.fmt_us, measure.fmt_ratio

out("")
out("### %s (%s): generators", INTERP, VERSION)
out("")
if #rows > 0 then
  out("CPU time per call (os.clock), median of %d rounds of ~%.2f s (%d for 1000x1000) after warm-up;",
    measure.ROUNDS, measure.ROUND_S, measure.HEAVY_ROUNDS)
  out("seeds 1..%d in turn; the four variants of a row timed in the same rounds. lua rows = bench/baseline.lua's",
    SEEDS)
  out("new_map(w, h) (h rows of w \"#\", built in Lua); text/rows = generate_text / lua rows (target < 1);")
  out("ns/cell = generate_text / (w * h).")
  out("")
  out("| algorithm | size | generate+render µs | generate_text µs | lua rows µs | lua rows+render µs "
    .. "| text/rows | ns/cell | target < 1 |")
  out("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
  for _, t in ipairs(rows) do
    local r = t.r
    local ratio = r.text / r.rows
    out("| %s | %dx%d | %s | %s | %s | %s | %s | %.2f | %s |", t.algorithm, t.w, t.h, fmt_us(r["gen+render"]),
      fmt_us(r.text), fmt_us(r.rows), fmt_us(r["rows+render"]), fmt_ratio(ratio),
      r.text * 1000 / (t.w * t.h), ratio < 1 and "met" or "MISSED")
  end
  out("")
  out("(%s: %.0f s of CPU for this table; sink %d)", INTERP, elapsed, measure.sink() % 1000)
  out("")
end

run_memory()
if mem_rows.floor then
  out("Peak RSS (VmHWM, KiB) of one %s process making one %dx%d map (bench/mem.lua KIND %d %d ALGORITHM):",
    INTERP, MEM_W, MEM_H, MEM_W, MEM_H)
  out("the table (map.generate{...}) or the text (map.generate_text{...}), seed 1. / lua rows = the table's")
  out("peak / the peak of the same table built in Lua (bench/mem.lua lua-rows: %d KiB).", mem_rows.floor)
  out("")
  out("| algorithm | before | generate (table) | / lua rows | generate_text | text - before |")
  out("| --- | ---: | ---: | ---: | ---: | ---: |")
  for _, m in ipairs(mem_rows) do
    out("| %s | %d | %d | %.3fx | %d | %d |", m.algorithm, m.table_before, m.table_after,
      m.table_after / mem_rows.floor, m.text_after, m.text_after - m.text_before)
  end
  out("")
end
