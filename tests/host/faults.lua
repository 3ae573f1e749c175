-- tests/host/faults.lua: fault injection over every export and every native
-- method of the manifests (spec/manifests.lua), each sample call of each,
-- as SQLite proves its out-of-memory handling: the call is made again and
-- again, the k-th allocation point of that call failing, for k = 1, 2, ...
-- until it succeeds. Each outcome must be one of
--   "failed": a Lua error with the module's own message (`map.<fn>: not
--     enough memory ...` or `<kind>:<method>: ...`), the objects the call
--     was given unchanged (levels, fields, sources, schedulers and tables:
--     `snapshot`), and nothing left on the module's heap;
--   "recovered": the call succeeded anyway;
-- and no call may abort the process (run.sh runs it in a process of its
-- own). Every k of every call: about 10 s a run. Every call also runs once with no fault, where its heap at its
-- peak must be within what its checks asked for and memory::FIXED.
--
--   lua5.4|luajit tests/host/faults.lua [rust]
--   build/tests/capped 1000 tests/host/faults.lua lua
--
-- `rust` (the default): the allocation points are the module's memory
-- checks (src/memory.rs: every allocation in proportion to an input asks
-- first), failed one at a time by the probe modules' `map._faults(k)`,
-- which also counts the module's heap. Needs the probe modules (make
-- probe) on package.cpath.
-- `lua`: the allocations of the Lua heap, failed one at a time by
-- tests/host/capped's allocator (`host.fail(k)`), armed as the call
-- enters the module; Lua 5.4 only (LuaJIT's allocator cannot be replaced).
-- Prints the totals and "ok: faults"; exits 1 on the first bad outcome.
-- luacheck: globals host
package.path = "./?.lua;" .. package.path
local map = require "map"
local manifests = require "spec.manifests"
local fixtures = require "spec.exports.fixtures"

local MODE = arg[1] or "rust"
assert(MODE == "rust" or MODE == "lua", "mode must be rust or lua, got " .. MODE)
if MODE == "rust" then
  assert(map._faults, "map._faults is missing: run with the probe modules (make probe)")
else
  assert(host and host.fail, "the lua mode runs under tests/host/capped")
end

local pack, unpack = manifests.pack, manifests.unpack
-- A call with more points than this is reported as never succeeding.
local MAX_K = 100000

local function full_collect()
  collectgarbage()
  collectgarbage()
end

-- A value as text that two equal values share: tables deeply (keys in a
-- stable order, each table once), natives by their saves and states.
local snapshot
function snapshot(value, seen)
  local kind = type(value)
  if kind == "number" then return ("%s:%.17g"):format(math.type and math.type(value) or "n", value) end
  if kind == "string" then return ("%q"):format(value) end
  if kind == "userdata" then
    if value.save then return "native:" .. value:save() end
    if value.actors then return "native:" .. value:state() .. snapshot(value:actors(), seen) end
    if value.state then return "native:" .. value:state() end
    return "native"
  end
  if kind ~= "table" then return kind .. ":" .. tostring(value) end
  seen = seen or {}
  if seen[value] then return "seen:" .. seen[value] end
  seen.n = (seen.n or 0) + 1
  seen[value] = seen.n
  local keys = {}
  for key in next, value do keys[#keys + 1] = key end
  local texts = {}
  for i, key in ipairs(keys) do texts[i] = snapshot(key, seen) end
  local order = {}
  for i = 1, #keys do order[i] = i end
  table.sort(order, function(a, b) return texts[a] < texts[b] end)
  local parts = {}
  for _, i in ipairs(order) do parts[#parts + 1] = texts[i] .. "=" .. snapshot(rawget(value, keys[i]), seen) end
  return "{" .. table.concat(parts, ",") .. "}"
end

-- The sentinel the recorder raises once it has the arguments.
local CAPTURED = setmetatable({}, { __tostring = function() return "captured" end })

-- The call sample `sample` of `entry` makes, as a function and its
-- arguments (the object first for a method), made on the fixtures `f`
-- with no fault armed: an export's sample is run with the export replaced
-- by a recorder of its arguments.
local function prepare(entry, sample, f)
  if entry.method then
    local call = pack(sample(f))
    return call[1][entry.name], call
  end
  local real, call = map[entry.name], nil
  map[entry.name] = function(...)
    call = pack(...)
    error(CAPTURED)
  end
  local ok, err = pcall(sample, f)
  map[entry.name] = real
  if call == nil then error(("%s: the sample did not call it (%s)"):format(entry.label, tostring(err))) end
  assert(not ok or err == CAPTURED)
  return real, call
end

-- Arms the k-th allocation point of the next call (0: none) and returns a
-- function that ends the measure: the points, whether the armed one
-- failed, then for `rust` the module's heap at its peak and left over,
-- and whether the peak was within its checks.
local arm, disarm
if MODE == "rust" then
  arm = function(fn, k)
    full_collect()
    map._faults(k)
    return fn
  end
  disarm = function()
    full_collect()
    return map._faults(0)
  end
else
  -- Armed by a call hook as `fn` is entered, so that the caller's own
  -- allocations (the arguments on the stack, pcall's frame) are not the
  -- call's.
  arm = function(fn, k)
    full_collect()
    debug.sethook(function()
      if debug.getinfo(2, "f").func == fn then
        host.fail(k)
        debug.sethook()
      end
    end, "c")
    return fn
  end
  disarm = function()
    debug.sethook()
    local points, failed = host.fail(0)
    full_collect()
    return points, failed, 0, 0, true
  end
end

local totals = { calls = 0, points = 0, memory = 0, stack = 0, recovered = 0, runs = 0 }
local function bad(entry, i, k, why)
  io.stderr:write(("FAIL %s sample %d, point %d: %s\n"):format(entry.label, i, k, why))
  os.exit(1)
end

-- The module's message for a failed allocation: its label, then "not
-- enough memory"; or, where the Lua stack could not grow, "stack
-- overflow", as Lua's own lua_checkstack reports both causes ("stack" when
-- so).
local function memory_message(err)
  if type(err) ~= "string" then return false end
  local label, why = err:match("^([%w_]+[.:][%w_]+): (.*)$")
  if label == nil then return false end
  if why:match("^not enough memory") then return "memory" end
  if MODE == "lua" and why == "stack overflow" then return "stack" end
  return false
end

-- One run: a fresh call (fixtures `keys` made), the k-th point armed.
local function run_once(entry, sample, keys, k)
  local f = fixtures.fresh(keys)
  local fn, call = prepare(entry, sample, f)
  local before = snapshot({ f, call })
  local ok, err = pcall(arm(fn, k), unpack(call, 1, call.n))
  local points, failed, peak, live, within = disarm()
  totals.runs = totals.runs + 1
  return { ok = ok, err = err, points = points, failed = failed, peak = peak, live = live, within = within,
    changed = snapshot({ f, call }) ~= before }
end

local function inject(entry, i, sample)
  local keys = fixtures.reads(function(f) return manifests.run_sample(entry, sample, f) end)
  -- No fault: it succeeds, within its checks.
  local clean = run_once(entry, sample, keys, 0)
  if not clean.ok then bad(entry, i, 0, "fails with no fault: " .. tostring(clean.err)) end
  if not clean.within then bad(entry, i, 0, ("its heap peaked at %d bytes, past its checks"):format(clean.peak)) end
  totals.calls = totals.calls + 1
  for k = 1, MAX_K do
    local run = run_once(entry, sample, keys, k)
    if not run.failed then
      if not run.ok then bad(entry, i, k, "no fault, yet: " .. tostring(run.err)) end
      totals.points = totals.points + k - 1
      return
    end
    if run.ok then
      totals.recovered = totals.recovered + 1
    else
      local why = memory_message(run.err)
      if not why then bad(entry, i, k, "the message: " .. tostring(run.err)) end
      if run.changed then bad(entry, i, k, "it changed what it was given: " .. run.err) end
      if os.getenv("FAULTS_VERBOSE") then print(entry.label, i, k, run.err) end
      totals[why] = totals[why] + 1
    end
    if run.live ~= 0 then bad(entry, i, k, ("%d bytes left on the module's heap"):format(run.live)) end
  end
  bad(entry, i, MAX_K, "still failing")
end

local started = os.clock()
local entries = manifests.entries()
for _, entry in ipairs(entries) do
  local samples = manifests.applies(entry, "samples")
  if not samples or #samples == 0 then bad(entry, 0, 0, "no samples to inject into") end
  for i, sample in ipairs(samples) do inject(entry, i, sample) end
end
print(("%s (%s, %s): %d entries, %d calls, %d allocation points; failed with the module's message: %d " ..
  "\"not enough memory\", %d \"stack overflow\"; %d recovered; %d runs, %.1f s"):format(MODE, _VERSION,
  jit and jit.version or "no JIT", #entries, totals.calls, totals.points, totals.memory, totals.stack, totals.recovered,
  totals.runs, os.clock() - started))
print("ok: faults")
