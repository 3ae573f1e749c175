-- map.rng([seed | state]): a random source, from a seed (a fresh one when
-- none) or from a state r:state() gave.
local map = require "map"
local cases = require "spec.hostile_cases"

local bad = {}
for _, seed in ipairs({ { 0.5, "0.5" }, { 0 / 0, "nan" }, { 1 / 0, "inf" }, { -1 / 0, "-inf" },
  { 2 ^ 53 + 2, "9007199254740994" }, { -2 ^ 53 - 2, "-9007199254740994" }, { 2 ^ 63, "9223372036854776000" },
  { cases.mininteger, "-9223372036854775808" } }) do
  bad[#bad + 1] = cases.with("map.rng: seed must be an integer with |seed| <= 2^53, got " .. seed[2], map.rng,
    { seed[1] })
end
for _, value in ipairs({ true, {}, print, io.stdout, coroutine.create(print) }) do
  bad[#bad + 1] = cases.with("map.rng: expected a seed (an integer with |seed| <= 2^53) or a state (rng:state()), got "
    .. type(value), map.rng, { value })
end
cases.append(bad, {
  cases.with("map.rng: state is not a saved rng (no maprng1: prefix)", map.rng, { "42" }),
  cases.with("map.rng: state is not a saved rng (a version this module does not read)", map.rng, { "maprng9:00" }),
  { "map.rng: state is not a saved rng (79 bytes, not 80)", function(f) return map.rng(f.r:state():sub(1, -2)) end },
  cases.with("map.rng: expected at most 1 argument, got 2", map.rng, { 1, 2 }),
})

return {
  samples = {
    function() return map.rng(1) end,
    function(f) return map.rng(f.rng2_state) end,
    function() return map.rng() end,
  },
  bad = bad,
  storm = function(a) return map.rng(1), map.rng(a.r:state()) end,
  big = "a source of fixed size (its block and 32 bytes of state): no argument makes it large",
  memory = { kind = "native", once = true, call = function() return map.rng(1) end },
  reference = { spec = "spec/rng_spec.lua", bench = "bench/toolbox.lua" },
  method = "not a method of a level: it reads no map",
}
