-- The docs say what the module does. What they say about each generator is
-- made from the module (docs/algorithms.lua, `make readme`): the reference
-- in docs/generators.md, the README's table, docs/api.md's list and the
-- per-algorithm types of types/map.d.lua must say exactly what map.ALGORITHMS
-- and map.describe say, with sample maps the module prints today; and
-- docs/api.md's lists of methods what map.METHODS says; the LÖVE
-- demo reads map.ALGORITHMS itself. The game loops of the README and
-- docs/api.md must run as written, and docs/levels.md's examples and
-- docs/api.md's on levels in native memory print what they show.
local support = require "spec.support"
local map = require "map"

describe("what is made from the module by `make readme`", function()
  local made = dofile("docs/algorithms.lua")

  for _, part in ipairs(made.parts) do
    it(part.path .. " holds what map.ALGORITHMS and map.describe say", function()
      local text = support.read_file(part.path)
      assert.are.equal(made.with_part(part, text), text, part.path .. " is out of date: run `make readme`")
    end)
  end

  it("notices a part that drifts: a generator (or a method) missing from a file", function()
    for _, part in ipairs(made.parts) do
      local text = support.read_file(part.path)
      local last = part.drift or map.ALGORITHMS[#map.ALGORITHMS]
      local dropped = part.text:gsub(last, "x")
      local stale = made.with_part({ path = part.path, begin = part.begin, finish = part.finish, text = dropped }, text)
      assert.are_not.equal(made.with_part(part, stale), stale, part.path)
    end
  end)

  it("docs/api.md shows a call of every method of map.METHODS (`x:<method>(`)", function()
    local api = support.read_file("docs/api.md")
    for kind, names in pairs(map.METHODS) do
      for _, name in ipairs(names) do
        assert(api:find(":" .. name .. "(", 1, true), ("docs/api.md shows no call of %s:%s"):format(kind, name))
      end
    end
  end)

  it("the LÖVE demo cycles through map.ALGORITHMS itself, not a copy", function()
    local saved = package.path
    package.path = "examples/love/?.lua;" .. package.path
    local game = require "game"
    package.path = saved
    assert.are.equal(map.ALGORITHMS, game.ALGORITHMS)
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
    local chunk = assert((loadstring or load)(code .. "\nreturn m, monsters, seen, lvl, player", "=" .. name, "t",
      env))
    if setfenv then setfenv(chunk, env) end
    return chunk()
  end

  it("the README's turn on a level explores the whole level, with the monsters chasing", function()
    local _, monsters, seen, lvl, player = run(blocks("README.md", "## The Lua API in brief", 2), "README")
    assert.are.equal(3, #monsters)
    local d = lvl:distances(player)
    for y = 1, lvl.height do
      for x = 1, lvl.width do
        if d:get(x, y) then assert(seen:get(x, y), ("(%d,%d) reachable, never seen"):format(x, y)) end
      end
    end
    for _, monster in ipairs(monsters) do assert.is_true(lvl:occupied(monster)) end
  end)

  it("docs/api.md's game loop ends explored", function()
    run(blocks("docs/api.md", "## A game loop", 1), "api.md")
    assert.are.equal("explored in 512 turns", printed[#printed])
  end)
end)

-- The Lua blocks of docs/api.md from `heading` to `next_heading`, run in
-- order as one chunk: what they print, line by line, is what their `--> `
-- comments show, in order (runs of spaces standing for print's tabs).
-- Returns how many blocks and shown lines were read.
local function check_api_examples(heading, next_heading)
  local text = support.read_file("docs/api.md")
  local from = assert(text:find("\n## " .. heading .. "\n", 1, true), heading)
  local to = assert(text:find("\n## " .. next_heading .. "\n", from, true), next_heading)
  local code, shown = {}, {}
  for block in text:sub(from, to):gmatch("```lua\n(.-)```") do
    code[#code + 1] = block
    for line in block:gmatch("[^\n]+") do shown[#shown + 1] = line:match("%-%-> (.*)$") end
  end
  local printed = {}
  local env = setmetatable({ print = function(...)
    local values = { n = select("#", ...), ... }
    for i = 1, values.n do values[i] = tostring(values[i]) end
    for line in (table.concat(values, "\t", 1, values.n) .. "\n"):gmatch("([^\n]*)\n") do
      printed[#printed + 1] = line
    end
  end }, { __index = _G })
  local chunk = assert((loadstring or load)(table.concat(code, "\n"), "=docs/api.md", "t", env))
  if setfenv then setfenv(chunk, env) end
  chunk()
  local function spaced(list)
    local out = {}
    for i, line in ipairs(list) do out[i] = line:gsub("%s+", " "):gsub(" $", "") end
    return out
  end
  assert.are.same(spaced(shown), spaced(printed))
  return #code, #shown
end

describe("docs/api.md's examples show what they print", function()
  it("levels in native memory, the game turn's included", function()
    local count, lines = check_api_examples("Levels in native memory", "A game loop")
    assert(count >= 6 and lines >= 30, "read " .. count .. " blocks, " .. lines .. " lines shown")
  end)

  it("the toolbox: map.rng, map.scheduler, map.names, a game saved mid-turn", function()
    local count, lines = check_api_examples("The game's toolbox", "Editors")
    assert(count == 4 and lines >= 18, "read " .. count .. " blocks, " .. lines .. " lines shown")
  end)

  it("map.analyze", function()
    local count, lines = check_api_examples("`map.analyze(m [, options])`", "Cells and positions")
    assert(count == 1 and lines == 14, "read " .. count .. " blocks, " .. lines .. " lines shown")
  end)

  it("noise, light and m.blocked", function()
    local count, lines = check_api_examples("`map.noise{...}`", "Levels in native memory")
    assert(count == 3 and lines >= 15, "read " .. count .. " blocks, " .. lines .. " lines shown")
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
    assert.are.equal(3, checked)
  end)
end)
