-- map.from_xp(data [, options]): the map a REXPaint image draws (the .xp
-- file's bytes), as map.parse returns it (options: glyphs).
local map = require "map"
local cases = require "spec.hostile_cases"

local bad = {}
local function add(message, call) bad[#bad + 1] = { "map.from_xp: " .. message, call } end
for _, case in ipairs({ { nil, "nil" }, { 5, "number" }, { {}, "table" } }) do
  bad[#bad + 1] = cases.with("map.from_xp: data must be a string, got " .. case[2], map.from_xp, { case[1], n = 1 })
end
add("the data is not a REXPaint image (no gzip header)", function() return map.from_xp("#.#") end)
add("the image ends inside its header", function() return map.from_xp("\31\139\0\0") end)
add('unknown option "colour" (options: glyphs)', function(f) return map.from_xp(f.xp, { colour = 1 }) end)
add("glyphs' glyphs holds 'a' twice", function(f) return map.from_xp(f.xp, { glyphs = "#a.a" }) end)
add("expected at most 2 arguments, got 3", function(f) return map.from_xp(f.xp, {}, 1) end)

return {
  samples = {
    function(f) return map.from_xp(f.xp) end,
    function(f) return map.from_xp(f.xp, { glyphs = "#█" }) end,
  },
  with_options = function(f, o) return map.from_xp(f.xp, o) end,
  bad = bad,
  storm = function(a) return map.from_xp(map.to_xp(a.m)) end,
  big = function(h) return { { map.to_xp(h.open) } } end,
  memory = { kind = "rows", call = function(s) return map.from_xp(map.to_xp(s.m)) end },
  -- The pure-Lua side reads the image's cells already inflated: Lua has no gzip.
  reference = { spec = "spec/editors_spec.lua", bench = {
    setup = function()
      local m = map.generate { width = 80, height = 50, seed = 1 }
      return { data = map.to_xp(m), raw = require("spec.reference.editors").xp_cells(m) }
    end,
    run = function(s) return map.from_xp(s.data).width end,
    lua = function(s) return require("spec.reference.editors").from_xp_cells(s.raw).width end,
  } },
  method = "not a method of a level: it reads a file's bytes, not a map",
}
