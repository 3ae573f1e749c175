-- A noise source's methods (map.METHODS.noise): its value at a point, and
-- a grid of them in one call.
local map = require "map"
local cases = require "spec.hostile_cases"
local assert = require "luassert"

local V = " must be a number with |v| <= 2^53, got "
local BAD = { { nil, "nil" }, { true, "boolean" }, { "1", 'string "1"' }, { 0 / 0, "nan" }, { 1 / 0, "inf" },
  { -1 / 0, "-inf" }, { 2 ^ 53 + 2, "9007199254740994" }, { cases.mininteger, "-9223372036854775808" },
  { print, "function" } }

local get, grid = {}, {}
for _, case in ipairs(BAD) do
  local value = case[1]
  get[#get + 1] = { "noise:get: x" .. V .. case[2], function(f) return f.source:get(value, 1) end }
  get[#get + 1] = { "noise:get: y" .. V .. case[2], function(f) return f.source:get(1, value) end }
  get[#get + 1] = { "noise:get: point.y" .. V .. case[2], function(f) return f.source:get({ x = 1, y = value }) end }
  grid[#grid + 1] = { "noise:grid: x0" .. V .. case[2], function(f) return f.source:grid(2, 2, value, 1) end }
  grid[#grid + 1] = { "noise:grid: origin.x" .. V .. case[2],
    function(f) return f.source:grid(2, 2, { x = value, y = 1 }) end }
  if value ~= nil then
    grid[#grid + 1] = { "noise:grid: y0" .. V .. case[2], function(f) return f.source:grid(2, 2, 1, value) end }
  end
end
cases.append(get, {
  { "noise:get: point.x" .. V .. "nil", function(f) return f.source:get(cases.trap()) end },
  { "noise:get: expected at most 3 arguments, got 4", function(f) return f.source:get(1, 1, 1) end },
  { "noise:get: expected at most 2 arguments, got 3", function(f) return f.source:get({ x = 1, y = 1 }, 1) end },
  { "noise:get: self must be a noise, got nil", function(f) return f.source.get(nil, 1, 1) end },
})
for _, case in ipairs(cases.BAD_NUMBERS) do
  local value = case[1]
  grid[#grid + 1] = { "noise:grid: width must be an integer >= 1, got " .. case[2],
    function(f) return f.source:grid(value, 2) end }
  grid[#grid + 1] = { "noise:grid: height must be an integer >= 1, got " .. case[2],
    function(f) return f.source:grid(2, value) end }
end
cases.append(grid, {
  { "noise:grid: width*height must be at most 4000000 cells, got 2000x2001",
    function(f) return f.source:grid(2000, 2001) end },
  -- A sample an octave a cell: 16 octaves of 2000x525 are one grid over.
  { "noise:grid: width*height*octaves must be at most 16777216, got 16800000",
    function() return map.noise({ seed = 1, octaves = 16 }):grid(2000, 525) end },
  { "noise:grid: expected at most 5 arguments, got 6", function(f) return f.source:grid(2, 2, 1, 1, 1) end },
  { "noise:grid: expected at most 4 arguments, got 5",
    function(f) return f.source:grid(2, 2, { x = 1, y = 1 }, 1) end },
  { "noise:grid: self must be a noise, got table", function(f) return f.source.grid({}, 1, 1) end },
})

return {
  class = "map.Noise",
  methods = {
    get = {
      samples = {
        function(f) return f.noise1, 1.5, -2 end,
        function(f) return f.noise1, { x = 3, y = 4 } end,
      },
      bad = get,
      accepts = {
        -- At the bounds an integral origin is added to as an integer, on
        -- both interpreters (where a double would round 2^53 + 1 - 1 to 2^53 - 1).
        function(f) assert.are.equal(f.source:get(2 ^ 53, -2 ^ 53), f.source:grid(1, 1, 2 ^ 53, -2 ^ 53)[1][1]) end,
      },
      storm = function(a) return a.source:get(a.sources[1]) end,
      big = "a number: no argument makes it large",
      memory = "a number",
      reference = { spec = "spec/noise_spec.lua", bench = "bench/world.lua" },
    },
    grid = {
      samples = {
        function(f) return f.noise1, 3, 2 end,
        function(f) return f.noise1, 3, 2, 0.5, -1 end,
        function(f) return f.noise1, 2, 2, { x = 1, y = 1 } end,
      },
      bad = grid,
      storm = function(a) return a.source:grid(20, 10, a.sources[2]) end,
      -- A noise made before the calls measured: its grid.
      big = function(h)
        if h.noise then return { { h.noise, h.side, h.side } } end
        return {}
      end,
      memory = { kind = "rows", call = function(s) return s.noise:grid(s.w, s.h) end },
      reference = { spec = "spec/noise_spec.lua", bench = "bench/world.lua" },
    },
  },
}
