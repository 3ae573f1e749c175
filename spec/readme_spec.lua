-- The generators' reference in docs/generators.md is made from the module
-- (docs/algorithms.lua, `make readme`): it must say exactly what
-- map.ALGORITHMS and map.describe say, with sample maps the module prints today.
local support = require "spec.support"

describe("docs/generators.md", function()
  it("documents every algorithm, option and default as the module lists them", function()
    local text, BEGIN, END = dofile("docs/algorithms.lua")
    local reference = support.read_file("docs/generators.md")
    local from = assert(reference:find(BEGIN, 1, true), "no begin marker") + #BEGIN
    local to = assert(reference:find(END, from, true), "no end marker")
    assert.are.equal("\n" .. text .. "\n", reference:sub(from, to - 1), "run `make readme`")
  end)

  it("docs/autotile-blob.svg pictures the 47 blob masks as the module numbers them", function()
    assert.are.equal(dofile("docs/blob_tiles.lua"), support.read_file("docs/autotile-blob.svg"), "run `make readme`")
  end)
end)
