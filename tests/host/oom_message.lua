-- Out of memory while a result is built: the message, on Lua 5.4 and
-- LuaJIT (tests/host/run.sh, under `ulimit -v`). Fills the heap but for a
-- 2 MiB, then calls fov and path on an open 120x120 map again and again,
-- taking 4 KiB more of the heap after each call until that cannot be
-- had (on LuaJIT then 1 KiB, 256 and 64 bytes at a time): the last calls run out of memory at every point of building
-- their results. Each failure must be the module's own message,
-- `map.fov: not enough memory for the result` or its memory check's
-- `map.fov: not enough memory (N MiB needed)`, as on Lua 5.4: on LuaJIT,
-- which builds these results in Lua, the message used to be made by
-- concatenation after the failure, which failed in turn and left a bare
-- "not enough memory".
package.path = arg[0]:gsub("[^/]+$", "") .. "?.lua;" .. package.path
local t = require "lib"
local map = require "map"
t.interpreted()

-- As lib.fill_heap: interpreted on LuaJIT, whose compiled code could crash
-- itself running out of memory (docs/hardening.md, "LuaJIT's own crashes").
if jit then jit.off() end
local SIDE = 120
local open = t.aliased_map(SIDE, SIDE, ".")
-- Each call with its two messages, made now, as their bytes: the checks
-- below must not allocate, and no string equal to a message may be held
-- here, or a wrapper that made the message by concatenation after the
-- failure would find it already made (LuaJIT interns strings), allocate
-- nothing and never show the bare "not enough memory" this looks for.
local function bytes_of(s)
  local b = {}
  for i = 1, #s do b[i] = s:byte(i) end
  return b
end
local calls = {}
for _, call in ipairs({
  { "map.fov", function() return map.fov(open, 60, 60) end },
  { "map.path", function() return map.path(open, 1, 1, SIDE, SIDE) end },
}) do
  calls[#calls + 1] = { name = call[1], call = call[2],
    result = bytes_of(call[1] .. ": not enough memory for the result"),
    checked = bytes_of(call[1] .. ": not enough memory (") }
end
collectgarbage("collect") -- the messages' strings, made above, go

-- Whether the string `s` is the bytes `b`, or starts with them (`prefix`).
local function is(s, b, prefix)
  if type(s) ~= "string" or #s < #b or (#s > #b and not prefix) then return false end
  for i = 1, #b do
    if s:byte(i) ~= b[i] then return false end
  end
  return true
end

-- Whether `err` is one of the module's two out-of-memory messages of `c`.
local function module_memory_error(err, c)
  return is(err, c.result) or is(err, c.checked, true)
end

local seen = { failed = 0, succeeded = 0, building = 0 }
local bad
local extra = {}
for i = 1, 20000 do extra[i] = false end -- sized now: storing must not allocate
local held = { t.fill_heap(2 * 1024 * 1024) } -- luacheck: ignore 231 (only held)
-- `bytes` bytes (a multiple of 8), distinct for each i.
local function grab(i, bytes) return string.rep(string.format("%07x\n", i), bytes / 8) end
local grabbed = 0
-- On Lua 5.4, Lua and the module share malloc: past 4 KiB steps the next
-- failure is a message's own few bytes in Rust, which aborts (a fixed small
-- allocation, not checked: docs/hardening.md). LuaJIT's heap is its own.
local STEPS = jit and { 4096, 1024, 256, 64 } or { 4096 }
for _, bytes in ipairs(STEPS) do
  repeat
    for _, c in ipairs(calls) do
      local ok, err = pcall(c.call)
      if ok then
        seen.succeeded = seen.succeeded + 1
      else
        seen.failed = seen.failed + 1
        if is(err, c.result) then seen.building = seen.building + 1 end
        if not module_memory_error(err, c) then bad = bad or { c.name, err } end
      end
      err = nil -- luacheck: ignore
    end
    local ok, s = pcall(grab, grabbed + 1, bytes)
    if ok then
      grabbed = grabbed + 1
      extra[grabbed] = s
    end
  until not ok or grabbed == #extra
end
extra, held = nil, nil -- luacheck: ignore
collectgarbage("collect")
t.check(bad == nil, "not the module's own message: " .. tostring(bad and bad[1]) .. ": " .. tostring(bad and bad[2]))
t.check(seen.failed > 0, "no call ran out of memory: the heap was not full")
t.say(string.format("%s: %d calls failed with the module's message (%d building the result), %d succeeded",
  t.INTERPRETER, seen.failed, seen.building, seen.succeeded))
-- On Lua 5.4 the filled address space fails the module's own memory check
-- first; on LuaJIT, which builds these results in Lua, building them fails.
if jit then t.check(seen.building > 0, "no call ran out of memory building its result") end
t.check(map.generate_text(60, 20, 42) == map.render(map.generate(60, 20, 42)), "the module no longer makes maps")
t.done()
