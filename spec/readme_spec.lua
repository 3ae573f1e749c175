-- The README's algorithm reference is made from the module (docs/algorithms.lua,
-- `make readme`): it must say exactly what map.ALGORITHMS and map.describe say,
-- with sample maps the module prints today.
local support = require "spec.support"

describe("README", function()
  it("documents every algorithm, option and default as the module lists them", function()
    local text, BEGIN, END = dofile("docs/algorithms.lua")
    local readme = support.read_file("README.md")
    local from = assert(readme:find(BEGIN, 1, true), "no begin marker") + #BEGIN
    local to = assert(readme:find(END, from, true), "no end marker")
    assert.are.equal("\n" .. text .. "\n", readme:sub(from, to - 1), "run `make readme`")
  end)
end)
