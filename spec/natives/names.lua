-- A names generator's method (map.METHODS.names): a name, drawn with a
-- random source or a seed.
local map = require "map"
local cases = require "spec.hostile_cases"
local assert = require "luassert"

local SEVEN = { "Aerandir", "Amroth", "Aranwe", "Beleg", "Celeborn", "Cirdan", "Daeron" }

return {
  class = "map.Names",
  methods = {
    name = {
      samples = {
        function(f) return f.g end,
        function(f) return f.g, 7 end,
        function(f) return f.g, f.r end,
      },
      bad = {
        { "names:name: self must be a names generator, got nil", function(f) return f.g.name() end },
        { "names:name: self must be a names generator, got rng", function(f) return f.g.name(f.r) end },
        { "names:name: expected a random source (map.rng) or a seed, got string",
          function(f) return f.g:name("x") end },
        { "names:name: expected a random source (map.rng) or a seed, got level",
          function(f) return f.g:name(f.generated20) end },
        { "names:name: seed must be an integer with |seed| <= 2^53, got 0.5", function(f) return f.g:name(0.5) end },
        { "names:name: expected at most 2 arguments, got 3", function(f) return f.g:name(1, 2) end },
        { "names:name: the names generator was freed by the collector (used from a finalizer)", function()
          return cases.freed(function() return map.names(SEVEN) end, function(g) return g:name(1) end)
        end },
      },
      accepts = {
        function() assert.are.equal("map.names: freed",
          cases.freed(function() return map.names(SEVEN) end, tostring)) end,
      },
      storm = function(a) return a.g:name(a.r), a.g:name(7), a.g:name() end,
      big = "a name of at most 1024 characters: no argument makes it large",
      memory = "a name of at most 1024 characters",
      reference = { spec = "spec/names_spec.lua", bench = "bench/toolbox.lua" },
    },
  },
}
