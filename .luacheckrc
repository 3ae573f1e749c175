std = "max"
files["spec/"] = { std = "+busted" }
-- wrk scripts define wrk's callbacks as globals and read its `wrk` table.
files["nginx/load.lua"] = { globals = { "setup", "request", "response", "done", "counts" }, read_globals = { "wrk" } }
