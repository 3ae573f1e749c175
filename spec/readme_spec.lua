-- The generators' reference in docs/generators.md is made from the module
-- (docs/algorithms.lua, `make readme`): it must say exactly what
-- map.ALGORITHMS and map.describe say, with sample maps the module prints today.
local map = require "map"
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

describe("docs/levels.md", function()
  -- Each Lua example followed by "prints (on both interpreters):" is run,
  -- its print()s caught, and compared with the output shown under it.
  it("shows what its examples print", function()
    local doc = support.read_file("docs/levels.md")
    local checked = 0
    for code, shown in doc:gmatch("```lua\n(.-)```\n\nprints %(on both interpreters%):\n\n```\n(.-)```") do
      local out = {}
      local env = setmetatable({ print = function(s) out[#out + 1] = s end,
        require = function(name) return name == "map" and map or require(name) end }, { __index = _G })
      local chunk = assert((loadstring or load)(code, "docs/levels.md", "t", env))
      if setfenv then setfenv(chunk, env) end
      chunk()
      assert.are.equal(shown, table.concat(out, "\n") .. "\n")
      checked = checked + 1
    end
    assert.are.equal(2, checked)
  end)
end)
