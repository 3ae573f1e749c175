-- bench/measure.lua: the timing method of bench/bench.lua, as a module for the
-- other benchmark scripts (bench/toolkit.lua).
--
-- Time is process CPU time (os.clock), so that time the process spends
-- descheduled on a shared machine does not count; garbage collection does.
-- Every variant is warmed up (LuaJIT compiles its traces) and calibrated to
-- about ROUND_S per round; the variants of one workload then run in turn,
-- round after round, so that drift hits them alike; each figure is the median
-- over the rounds of (round time / operations).
--
-- Settings come from the environment, as for bench.lua: BENCH_ROUNDS (default
-- 7), BENCH_HEAVY_ROUNDS (default 5, for the big workloads), BENCH_ROUND_S
-- (default 0.2 s per round), BENCH_ONLY (comma-separated workload ids).

local M = {}

local clock = os.clock
local floor = math.floor

M.ROUNDS = tonumber(os.getenv("BENCH_ROUNDS")) or 7
M.HEAVY_ROUNDS = tonumber(os.getenv("BENCH_HEAVY_ROUNDS")) or 5
M.ROUND_S = tonumber(os.getenv("BENCH_ROUND_S")) or 0.2
local WARMUP_S = M.ROUND_S
local ONLY = os.getenv("BENCH_ONLY")

-- Whether BENCH_ONLY asks for the workload `id` (everything when unset).
function M.wanted(id)
  if not ONLY then return true end
  for w in ONLY:gmatch("[^,%s]+") do
    if w == id then return true end
  end
  return false
end

-- Every operation returns a number added here, so that LuaJIT cannot drop
-- the work as dead.
local sink = 0

function M.sink() return sink end

local function timed(fn, first, n)
  collectgarbage("collect")
  local t0 = clock()
  for i = first, first + n - 1 do sink = sink + fn(i) end
  return clock() - t0
end

function M.median(xs)
  local s = {}
  for i = 1, #xs do s[i] = xs[i] end
  table.sort(s)
  local n = #s
  if n % 2 == 1 then return s[(n + 1) / 2] end
  return (s[n / 2] + s[n / 2 + 1]) / 2
end

-- Runs the variants ({name =, fn = function(i) -> number}) of one workload in
-- turn and returns {name = µs per op}. fn(i) gets the operation's number,
-- 1, 2, ... across warm-up and rounds.
function M.measure(variants, rounds)
  local plan = {}
  for k, v in ipairs(variants) do
    -- Warm-up, doubling until WARMUP_S is spent; estimates the time per op.
    local n, spent, ops = 1, 0, 0
    while spent < WARMUP_S do
      spent = spent + timed(v.fn, ops + 1, n)
      ops = ops + n
      n = n * 2
    end
    local per_op = spent / ops
    plan[k] = { name = v.name, fn = v.fn, n = math.max(1, floor(M.ROUND_S / per_op + 0.5)), times = {} }
  end
  for r = 1, rounds do
    for _, p in ipairs(plan) do
      p.times[r] = timed(p.fn, (r - 1) * p.n + 1, p.n) / p.n * 1e6
    end
  end
  local out = {}
  for _, p in ipairs(plan) do out[p.name] = M.median(p.times) end
  return out
end

-- Measures the variants of workload `id` (if BENCH_ONLY wants it) and adds
-- `row` to `rows`, its `id`, `what` and figures `r` ({name = µs per op})
-- set; returns the figures, or nil when the workload is not wanted.
function M.add_row(rows, id, what, rounds, variants, row)
  if not M.wanted(id) then return end
  local r = M.measure(variants, rounds)
  row.id, row.what, row.r = id, what, r
  rows[#rows + 1] = row
  return r
end

function M.fmt_us(us)
  if not us then return "—" end
  if us >= 1000 then return string.format("%.0f", us) end
  if us >= 10 then return string.format("%.1f", us) end
  return string.format("%.2f", us)
end

function M.fmt_ratio(r)
  if not r then return "—" end
  return string.format("%.2fx", r)
end

-- The differences found between the module and what it is checked against
-- (`against`: "baseline", "references"), reported once after the tables:
-- `note(what, why)` keeps one when `why` is not nil; `report(out)` prints
-- the first 10, or that there were none.
function M.mismatches(against)
  local list = {}
  local function note(what, why)
    if why then list[#list + 1] = what .. ": " .. why end
  end
  local function report(out)
    if #list == 0 then
      local whose = against:sub(-1) == "s" and against .. "'" or against .. "'s"
      out("Checked before timing: the module's results equal the %s on every level timed.", whose)
    else
      out("**The module differs from the %s (%d cases):**", against, #list)
      out("")
      for k = 1, math.min(#list, 10) do out("- %s", list[k]) end
    end
  end
  return note, report
end

-- Writes, with `out(fmt, ...)`, a line of the verdict table for each row
-- `add_row` made: variant `a` against `b` (`against` names it), met when
-- b's time is at least `target` times a's or, with `at_most`, when a's is
-- at most `near` (default 1) times b's.
function M.verdict_rows(out, rows)
  for _, t in ipairs(rows) do
    local a, b = t.r[t.a], t.r[t.b]
    local ratio = b / a
    local target, met
    if t.at_most and t.near then
      target, met = string.format("%s <= %.1f x %s", t.a, t.near, t.b), a <= t.near * b
    elseif t.at_most then
      target, met = string.format("%s <= %s", t.a, t.b), a <= b
    else
      target, met = string.format(">= %.1fx", t.target), ratio >= t.target
    end
    out("| %s | %s | %s | %s | %s | %s | %s | %s |", t.id, t.what, M.fmt_us(a), t.against, M.fmt_us(b),
      M.fmt_ratio(ratio), target, met and "met" or "MISSED")
  end
end

return M
