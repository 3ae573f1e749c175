-- map.from_tiled(text [, options]): the map a Tiled JSON map draws, as
-- map.parse returns it (options: tiles, empty).
local map = require "map"
local cases = require "spec.hostile_cases"

local bad = {}
local function add(message, call) bad[#bad + 1] = { "map.from_tiled: " .. message, call } end
for _, case in ipairs({ { nil, "nil" }, { 5, "number" }, { {}, "table" } }) do
  bad[#bad + 1] = cases.with("map.from_tiled: text must be a string, got " .. case[2], map.from_tiled,
    { case[1], n = 1 })
end
add("the text is not JSON: EOF while parsing an object at line 1 column 1", function() return map.from_tiled("{") end)
add("the text is not a Tiled map (its JSON is not an object)", function() return map.from_tiled("[1]") end)
add("the map has more than 4000000 cells (4000x4000)",
  function() return map.from_tiled('{"width":4000,"height":4000}') end)
add("the tile layer's data holds 8 bytes, the map needs 40000 (4 a cell)", function()
  return map.from_tiled('{"width":100,"height":100,"layers":[{"type":"tilelayer","encoding":"base64",'
    .. '"data":"AAAAAAAAAAA="}],"tilesets":[]}')
end)
add('unknown option "colour" (options: empty, tiles)', function(f) return map.from_tiled(f.tiled, { colour = 1 }) end)
add("empty must be one character, got string \"ab\"", function(f) return map.from_tiled(f.tiled, { empty = "ab" }) end)
add("expected at most 2 arguments, got 3", function(f) return map.from_tiled(f.tiled, {}, 1) end)

return {
  samples = {
    function(f) return map.from_tiled(f.tiled) end,
    function(f) return map.from_tiled(f.tiled, { empty = "#", tiles = "#." }) end,
  },
  with_options = function(f, o) return map.from_tiled(f.tiled, o) end,
  bad = bad,
  storm = function(a) return map.from_tiled(map.to_tiled(a.m)) end,
  big = function(h) return { { map.to_tiled(h.open) } } end,
  memory = { kind = "rows", call = function(s) return map.from_tiled(map.to_tiled(s.m)) end },
  reference = { spec = "spec/editors_spec.lua", bench = {
    setup = function() return map.to_tiled(map.generate { width = 80, height = 50, seed = 1 }) end,
    run = function(text) return map.from_tiled(text).width end,
    lua = function(text) return require("spec.reference.editors").from_tiled(text).width end,
  } },
  method = "not a method of a level: it reads a file's text, not a map",
}
