-- bench/wrk_seeds.lua: wrk script for bench/http.sh. Every request asks for a
-- different seed, $WRK_PATH?seed=N (default /) followed by $WRK_QUERY
-- (default "&format=text"), so no two responses are the same map. setup() runs in the main state and
-- gives each thread its own range of seeds (the global `first` in that
-- thread's state).
-- luacheck: globals setup init request first wrk

local threads = 0

function setup(thread)
  threads = threads + 1
  thread:set("first", threads * 100000000)
end

local n = 0
local path = os.getenv("WRK_PATH") or "/"
local query = os.getenv("WRK_QUERY") or "&format=text"

function init()
  n = first or 0
end

function request()
  n = n + 1
  return wrk.format("GET", path .. "?seed=" .. n .. query)
end
