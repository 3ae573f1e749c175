-- The docs say what the module does. The generators' reference in
-- docs/generators.md is made from the module (docs/algorithms.lua, `make
-- readme`): it must say exactly what map.ALGORITHMS and map.describe say, with
-- sample maps the module prints today; the game loops of the README and
-- docs/api.md must run as written, and docs/levels.md's examples print
-- what it shows.
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

-- The Lua blocks from `heading` on in `path` (the `count` after it), run as
-- one chunk: the examples must work as written.
local function blocks(path, heading, count)
  local text = support.read_file(path)
  local at = assert(text:find(heading, 1, true), heading)
  local code = {}
  for _ = 1, count do
    local _, to = assert(text:find("```lua\n", at, true))
    local stop = assert(text:find("\n```", to, true))
    code[#code + 1] = text:sub(to + 1, stop)
    at = stop + 4
  end
  return table.concat(code, "\n")
end

describe("the game loops of the README and docs/api.md", function()
  local printed
  local function run(code, name)
    printed = {}
    local env = setmetatable({ print = function(...) printed[#printed + 1] = table.concat({ ... }, " ") end },
      { __index = _G })
    local chunk = assert((loadstring or load)(code .. "\nreturn m, monsters, seen", "=" .. name, "t", env))
    if setfenv then setfenv(chunk, env) end
    return chunk()
  end

  it("the README's turn explores the whole level, with the monsters chasing", function()
    local m, monsters, seen = run(blocks("README.md", "## The Lua API in brief", 2), "README")
    assert.are.equal(3, #monsters)
    local map = require "map"
    local d = map.distances(m, m.player)
    for y = 1, #d do
      for x = 1, #d[y] do
        if d[y][x] then assert(seen[y][x], ("(%d,%d) reachable, never seen"):format(x, y)) end
      end
    end
  end)

  it("docs/api.md's game loop ends explored", function()
    run(blocks("docs/api.md", "## A game loop", 1), "api.md")
    assert.are.equal("explored in 512 turns", printed[#printed])
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
      local env = setmetatable({ print = function(s) out[#out + 1] = s end }, { __index = _G })
      local chunk = assert((loadstring or load)(code, "docs/levels.md", "t", env))
      if setfenv then setfenv(chunk, env) end
      chunk()
      assert.are.equal(shown, table.concat(out, "\n") .. "\n")
      checked = checked + 1
    end
    assert.are.equal(2, checked)
  end)
end)
