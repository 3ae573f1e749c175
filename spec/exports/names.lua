-- map.names(examples [, options]): a generator of names trained on the
-- example words, a Markov chain over their characters (options: max, min,
-- novel, order).
local map = require "map"
local cases = require "spec.hostile_cases"

local function add(list, message, args)
  list[#list + 1] = cases.with("map.names: " .. message, function(...) return map.names(...) end, args)
end
local bad = {}
add(bad, "examples must be an array of words (strings), got nil", {})
add(bad, "examples is empty: give at least one word", { {} })
bad[#bad + 1] = { "map.names: examples is empty: give at least one word",
  function() return map.names(cases.trap()) end }
add(bad, "examples[2] must be a string, got number", { { "Ab", 5 } })
add(bad, "examples[1] is empty", { { "" } })
add(bad, "examples[1] is not UTF-8 text", { { "\255" } })
add(bad, 'examples[1] has "2": words are of letters, \', - and spaces', { { "R2D2" } })
add(bad, "examples[1] has no letter", { { "--" } })
add(bad, "order must be an integer from 1 to 8, got 0", { { "Ab" }, { order = 0 } })
add(bad, "order must be an integer from 1 to 8, got 9", { { "Ab" }, { order = 9 } })
add(bad, "min must be an integer from 1 to 1024, got 0", { { "Ab" }, { min = 0 } })
add(bad, "max must be an integer from 1 to 1024, got 2000", { { "Ab" }, { max = 2000 } })
add(bad, "novel must be a boolean, got 1", { { "Ab" }, { novel = 1 } })
add(bad, 'unknown option "colour" (options: max, min, novel, order)', { { "Ab" }, { colour = 1 } })
add(bad, "options must be a table, got number", { { "Ab" }, 5 })
add(bad, "expected at most 2 arguments, got 3", { { "Ab" }, {}, 1 })

local SIX = { "Aerandir", "Amroth", "Aranwe", "Beleg", "Celeborn", "Cirdan" }

return {
  samples = {
    function() return map.names(SIX) end,
    function() return map.names(SIX, { order = 2, min = 4, max = 9 }) end,
  },
  with_options = function(_, o) return map.names(SIX, o) end,
  bad = bad,
  storm = function(a) return map.names(a.examples, a.names_options) end,
  -- Names learnt from `many` words (at most 100,000) at the highest order.
  big = function(h) return { { h.words, { order = 8, novel = false } } } end,
  memory = { kind = "native", once = true, size = function() return 1, 1 end,
    call = function(s) return map.names(s.examples, { order = 8, novel = false }) end },
  reference = { spec = "spec/names_spec.lua", bench = "bench/toolbox.lua" },
  method = "not a method of a level: it reads no map",
}
