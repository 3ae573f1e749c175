-- Huge requests: one valid call could use gigabytes. With `items` as
-- large as the free floor, generate_json{width=2000, height=2000, seed=2,
-- algorithm="cave", fill=1, items=3992000} peaked at 6.3 GB and 32 s, and
-- aborted under a 2 GB limit. run.sh runs this under `ulimit -v 2000000`
-- and a timeout, on Lua 5.4 and LuaJIT: `items` is capped now, so each
-- generate export must refuse that count at once with a catchable error
-- ("items must be an integer from 0 to ..."), RSS must not grow by more
-- than 20 MB, and the module must still make maps. Then the same call with
-- the largest count allowed (map.describe("cave")'s items.max) must work
-- within the same 2 GB. The time of each call is printed, not checked.
package.path = arg[0]:gsub("[^/]+$", "") .. "?.lua;" .. package.path
local t = require "lib"
local map = require "map"

local MAX_GROWTH_KIB = 20 * 1024
local options = { width = 2000, height = 2000, seed = 2, algorithm = "cave", fill = 1, items = 3992000 }
local before = t.settled_rss_kib()
for _, name in ipairs({ "generate_json", "generate_text", "generate" }) do
  local start = os.clock()
  local ok, err = pcall(map[name], options)
  local seconds = os.clock() - start
  t.say(string.format("%s: map.%s: %s, %s (%.3f s)", t.INTERPRETER, name, tostring(ok), tostring(err), seconds))
  t.check(not ok, "map." .. name .. " accepted items = 3992000")
  t.check(type(err) == "string" and err:find("^map%." .. name .. ": items must be an integer from 0 to "),
    "map." .. name .. ": unexpected error: " .. tostring(err))
end
local after = t.settled_rss_kib()

local max_items
for _, option in ipairs(map.describe("cave").options) do
  if option.name == "items" then max_items = option.max end
end
options.items = max_items
for _, name in ipairs({ "generate_json", "generate_text", "generate" }) do
  local start = os.clock()
  local ok, result = pcall(map[name], options)
  t.say(string.format("%s: map.%s with items = %d: %s (%.3f s)", t.INTERPRETER, name, max_items,
    ok and type(result) or tostring(result), os.clock() - start))
  t.check(ok, "map." .. name .. " failed with items = " .. max_items .. ": " .. tostring(result))
  result = nil -- luacheck: ignore
  collectgarbage("collect")
end
t.say(string.format("RSS %d -> %d KiB (%+d KiB)", before, after, after - before))
t.check(after - before < MAX_GROWTH_KIB, string.format("RSS grew by %d KiB", after - before))
t.check(map.generate_text(60, 20, 42) == map.render(map.generate(60, 20, 42)), "the module no longer makes maps")
t.done()
