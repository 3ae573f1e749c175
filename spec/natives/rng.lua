-- A random source's methods (map.METHODS.rng): draws as math.random makes
-- them, normal deviates, dice, picks and weighted draws from arrays, a
-- shuffle, a batch of draws, its state and a copy.
local map = require "map"
local cases = require "spec.hostile_cases"

-- A bad self, and bad arguments as math.random names them, arrays read raw.
local RANDOM = {
  { "rng:random: self must be an rng, got nil", function(f) return f.r.random() end },
  { "rng:random: self must be an rng, got level", function(f) return f.r.random(f.generated20, 6) end },
  { "rng:random: interval is empty (n = 0)", function(f) return f.r:random(0) end },
  { "rng:random: interval is empty (n = -1)", function(f) return f.r:random(-1) end },
  { "rng:random: interval is empty (m = 5 > n = 3)", function(f) return f.r:random(5, 3) end },
  { "rng:random: expected at most 3 arguments, got 4", function(f) return f.r:random(1, 2, 3) end },
  { "rng:random: the rng was freed by the collector (used from a finalizer)", function()
    return cases.freed(function() return map.rng(1) end, function(r) return r:random() end)
  end },
}
for _, case in ipairs({ { 0 / 0, "nan" }, { 1 / 0, "inf" }, { 2.5, "2.5" }, { 2 ^ 53 + 2, "9007199254740994" },
  { cases.mininteger, "-9223372036854775808" }, { "6", 'string "6"' }, { {}, "table" }, { nil, "nil" } }) do
  local value = case[1]
  RANDOM[#RANDOM + 1] = { "rng:random: n must be an integer with |n| <= 2^53, got " .. case[2],
    function(f) return f.r:random(value) end }
  RANDOM[#RANDOM + 1] = { "rng:random: m must be an integer with |m| <= 2^53, got " .. case[2],
    function(f) return f.r:random(value, 6) end }
  RANDOM[#RANDOM + 1] = { "rng:random: n must be an integer with |n| <= 2^53, got " .. case[2],
    function(f) return f.r:random(1, value) end }
end

-- A pure-Lua source for the benches: math.random's.
local function lua_random(n) return math.random(n) end

return {
  class = "map.Rng",
  methods = {
    random = {
      samples = {
        function(f) return f.r end,
        function(f) return f.r, 6 end,
        function(f) return f.r, -3, 3 end,
      },
      bad = RANDOM,
      storm = function(a) return a.r:random(), a.r:random(6), a.r:random(-2, 2) end,
      big = "a draw: no argument makes it large",
      memory = "a number",
      reference = { spec = "spec/rng_spec.lua", bench = "bench/toolbox.lua" },
    },
    normal = {
      samples = {
        function(f) return f.r end,
        function(f) return f.r, 10 end,
        function(f) return f.r, 10, 2 end,
      },
      bad = {
        { "rng:normal: mean must be a finite number, got nan", function(f) return f.r:normal(0 / 0) end },
        { "rng:normal: mean must be a finite number, got string", function(f) return f.r:normal("1") end },
        { "rng:normal: sd must be a finite number, got inf", function(f) return f.r:normal(0, 1 / 0) end },
        { "rng:normal: sd must be a finite number >= 0, got -1", function(f) return f.r:normal(0, -1) end },
        { "rng:normal: self must be an rng, got number", function(f) return f.r.normal(5) end },
      },
      storm = function(a) return a.r:normal(1, 2) end,
      big = "a draw: no argument makes it large",
      memory = "a number",
      -- Against Marsaglia's polar method on math.random.
      reference = { spec = "spec/rng_spec.lua", bench = {
        setup = function() return map.rng(1) end,
        run = function(r) return r:normal() end,
        lua = function()
          local u, v, s
          repeat
            u, v = 2 * math.random() - 1, 2 * math.random() - 1
            s = u * u + v * v
          until s > 0 and s < 1
          return u * math.sqrt(-2 * math.log(s) / s)
        end,
      } },
    },
    dice = {
      samples = { function(f) return f.r, "3d6+2" end },
      bad = {
        { 'rng:dice: dice must be a string like "3d6+2", got nil', function(f) return f.r:dice() end },
        { 'rng:dice: dice must be a string like "3d6+2", got number', function(f) return f.r:dice(6) end },
        { 'rng:dice: "3x6" is not dice (no d): NdS, NdS+K or NdS-K, like "3d6+2" or "d%"',
          function(f) return f.r:dice("3x6") end },
        { 'rng:dice: "3d6+" is not dice (no number after the sign): NdS, NdS+K or NdS-K, like "3d6+2" or "d%"',
          function(f) return f.r:dice("3d6+") end },
        { 'rng:dice: "0d6": the number of dice must be from 1 to 1000, got 0', function(f) return f.r:dice("0d6") end },
        { 'rng:dice: "1001d6": the number of dice must be from 1 to 1000, got 1001',
          function(f) return f.r:dice("1001d6") end },
        { 'rng:dice: "1d0": the sides must be from 1 to 2147483647, got 0', function(f) return f.r:dice("1d0") end },
        { 'rng:dice: "99999999999d6" is not dice (a number too long): NdS, NdS+K or NdS-K, like "3d6+2" or "d%"',
          function(f) return f.r:dice("99999999999d6") end },
      },
      storm = function(a) return a.r:dice("3d6+2") end,
      big = "at most 1000 dice, rolled into one number: no argument makes it large",
      memory = "a number",
      -- Against the text read and the dice rolled in Lua.
      reference = { spec = "spec/rng_spec.lua", bench = {
        setup = function() return map.rng(1) end,
        run = function(r) return r:dice("3d6+2") end,
        lua = function()
          local n, sides, sign, k = ("3d6+2"):match("^(%d*)d(%d+)([+-]?)(%d*)$")
          local total = 0
          for _ = 1, tonumber(n) do total = total + lua_random(tonumber(sides)) end
          return total + (sign == "-" and -tonumber(k) or tonumber(k))
        end,
      } },
    },
    pick = {
      samples = { function(f) return f.r, { "a", "b" } end },
      bad = {
        { "rng:pick: array must be an array (a table), got nil", function(f) return f.r:pick() end },
        { "rng:pick: array is empty: nothing to pick", function(f) return f.r:pick({}) end },
        { "rng:pick: array is empty: nothing to pick", function(f) return f.r:pick(cases.trap()) end },
      },
      storm = function(a) return a.r:pick(a.array) end,
      big = "an element of the caller's array: no argument makes it large",
      memory = "an element of the array",
      reference = { spec = "spec/rng_spec.lua", bench = {
        setup = function() return { r = map.rng(1), array = { 1, 2, 3, 4, 5, 6, 7, 8 } } end,
        run = function(s) return s.r:pick(s.array) end,
        lua = function(s) return s.array[lua_random(#s.array)] end,
      } },
    },
    weighted = {
      samples = { function(f) return f.r, { 1, 0.5 } end },
      bad = {
        { "rng:weighted: weights must be an array (a table), got number", function(f) return f.r:weighted(1) end },
        { "rng:weighted: weights is empty: nothing to draw", function(f) return f.r:weighted({}) end },
        { "rng:weighted: weights are all zero: nothing to draw", function(f) return f.r:weighted({ 0, 0, 0 }) end },
        { "rng:weighted: weights[2] must be a finite number >= 0, got -1",
          function(f) return f.r:weighted({ 1, -1 }) end },
        { "rng:weighted: weights[1] must be a finite number >= 0, got nan",
          function(f) return f.r:weighted({ 0 / 0 }) end },
        { "rng:weighted: weights[1] must be a finite number >= 0, got inf",
          function(f) return f.r:weighted({ 1 / 0 }) end },
        { 'rng:weighted: weights[1] must be a finite number >= 0, got string "1"',
          function(f) return f.r:weighted({ "1" }) end },
        { "rng:weighted: weights[3] must be a finite number >= 0, got nil",
          function(f) return f.r:weighted({ 1, 2, nil, 4 }) end },
      },
      storm = function(a) return a.r:weighted(a.weights) end,
      big = "an index into the caller's array: no argument makes it large",
      memory = "an integer",
      reference = { spec = "spec/rng_spec.lua", bench = {
        setup = function() return { r = map.rng(1), weights = { 70, 25, 5 } } end,
        run = function(s) return s.r:weighted(s.weights) end,
        lua = function(s)
          local total = 0
          for _, w in ipairs(s.weights) do total = total + w end
          local at = math.random() * total
          for i, w in ipairs(s.weights) do
            at = at - w
            if at < 0 then return i end
          end
          return #s.weights
        end,
      } },
    },
    shuffle = {
      samples = { function(f) return f.r, { 1, 2, 3 } end },
      bad = {
        { "rng:shuffle: array must be an array (a table), got string", function(f) return f.r:shuffle("abc") end },
        { "rng:shuffle: array[3] is nil: shuffle takes an array without holes",
          function(f) return f.r:shuffle({ 1, 2, nil, 4 }) end },
      },
      storm = function(a) return a.r:shuffle(a.array) end,
      big = "the caller's array, shuffled in place: it allocates nothing",
      memory = "the array it was given",
      reference = { spec = "spec/rng_spec.lua", bench = {
        setup = function() return { r = map.rng(1), array = { 1, 2, 3, 4, 5, 6, 7, 8 } } end,
        run = function(s) return #s.r:shuffle(s.array) end,
        -- Fisher-Yates on math.random.
        lua = function(s)
          local t = s.array
          for i = #t, 2, -1 do
            local j = lua_random(i)
            t[i], t[j] = t[j], t[i]
          end
          return #t
        end,
      } },
    },
    fill = {
      samples = {
        function(f) return f.r, {}, 3 end,
        function(f) return f.r, {}, 3, 6 end,
        function(f) return f.r, {}, 3, 1, 6 end,
      },
      bad = {
        { "rng:fill: t must be a table, got nil", function(f) return f.r:fill() end },
        { "rng:fill: count must be an integer from 0 to 16777216, got -1", function(f) return f.r:fill({}, -1) end },
        { "rng:fill: count must be an integer from 0 to 16777216, got 16777217",
          function(f) return f.r:fill({}, 2 ^ 24 + 1) end },
        { "rng:fill: count must be an integer from 0 to 16777216, got nan",
          function(f) return f.r:fill({}, 0 / 0) end },
        { "rng:fill: interval is empty (n = 0)", function(f) return f.r:fill({}, 3, 0) end },
        { "rng:fill: m must be an integer with |m| <= 2^53, got 0.5", function(f) return f.r:fill({}, 3, 0.5, 2) end },
        { "rng:fill: expected at most 5 arguments, got 6", function(f) return f.r:fill({}, 3, 1, 2, 3) end },
      },
      storm = function(a) return a.r:fill(a.filled, 50, 6), a.r:fill(a.filled, 9) end,
      big = "fills the caller's table: at most 2^24 values, each within a path's 128 bytes (the memory case)",
      memory = { kind = "path", once = true, size = function(s) return s.n, 1 end,
        call = function(s) return map.rng(1):fill({}, s.n, 6) end },
      reference = { spec = "spec/rng_spec.lua", bench = "bench/toolbox.lua" },
    },
    state = {
      samples = { function(f) return f.r end },
      bad = {
        { "rng:state: self must be an rng, got table", function(f) return f.r.state({}) end },
        { "rng:state: expected at most 1 argument, got 2", function(f) return f.r:state(1) end },
      },
      storm = function(a) return a.r:state() end,
      big = "80 characters: no argument makes it large",
      memory = "80 characters",
      -- Against 4 words written in hexadecimal in Lua.
      reference = { spec = "spec/rng_spec.lua", bench = {
        setup = function() return { r = map.rng(1), words = { 0x12345678, 0x9abcdef0, 0x0fedcba9, 0x87654321 } } end,
        run = function(s) return #s.r:state() end,
        lua = function(s)
          local w = s.words
          return #("maprng1:%08x%08x%08x%08x%08x%08x%08x%08x"):format(w[1], w[2], w[3], w[4], w[1], w[2], w[3], w[4])
        end,
      } },
    },
    clone = {
      samples = { function(f) return f.r end },
      bad = {
        { "rng:clone: expected at most 1 argument, got 2", function(f) return f.r:clone(1) end },
        { "rng:clone: self must be an rng, got table", function(f) return f.r.clone({}) end },
      },
      storm = function(a) return a.r:clone() end,
      big = "a source of fixed size: no argument makes it large",
      memory = { kind = "native", once = true, call = function() return map.rng(1):clone() end },
      -- Against a Lua table of the state's words copied.
      reference = { spec = "spec/rng_spec.lua", bench = {
        setup = function() return { r = map.rng(1), state = { 1, 2, 3, 4 } } end,
        run = function(s) return s.r:clone() and 1 end,
        lua = function(s)
          local t = s.state
          return #{ t[1], t[2], t[3], t[4] }
        end,
      } },
    },
  },
}
