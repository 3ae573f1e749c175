-- wrk script for nginx/load.sh: cycles through valid and invalid requests,
-- counts status codes per thread, and stops each thread after MAX requests.
local MAX = tonumber(os.getenv("LOAD_MAX_REQUESTS") or "") or 2000000

local PATHS = {
  "/?seed=%d", "/?seed=%d&format=text", "/?seed=%d&format=json",
  "/?seed=%d&width=200&height=200&algorithm=cave&format=text", "/?seed=%d&width=120&height=40",
  "/", "/?format=text",
  -- invalid: each must be a 400
  "/?seed=abc", "/?seed=1.5", "/?seed=%d&seed=%d", "/?seed=%d&width=9999", "/?width=-5",
  "/?algorithm=maze", "/?format=xml", "/?seed=%%zz", "/?colour=red", "/?seed=99999999999999999999",
  "/?seed=%d&width=2&algorithm=cave",
}

local counter, threads = 0, {}
counts = {} -- a global: done() reads it from each thread with thread:get

function setup(thread)
  threads[#threads + 1] = thread
end

function request()
  counter = counter + 1
  local path = PATHS[counter % #PATHS + 1]
  return wrk.format("GET", path:format(counter, counter))
end

function response(status)
  counts[status] = (counts[status] or 0) + 1
  if counter >= MAX then wrk.thread:stop() end
end

function done(summary)
  local total = {}
  for _, thread in ipairs(threads) do
    for status, n in pairs(thread:get("counts")) do total[status] = (total[status] or 0) + n end
  end
  local line = {}
  for status, n in pairs(total) do line[#line + 1] = status .. ": " .. n end
  table.sort(line)
  io.write(("requests %d in %.1f s, socket errors %d/%d/%d/%d\n"):format(summary.requests,
    summary.duration / 1e6, summary.errors.connect, summary.errors.read, summary.errors.write,
    summary.errors.timeout))
  io.write("status codes: ", table.concat(line, ", "), "\n")
end
