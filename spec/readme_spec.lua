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

  it("the rockspec's description counts and names the generators of map.ALGORITHMS", function()
    -- How the description names each generator; a new one fails here until
    -- it has its words (and the rockspec says them).
    local WORDS = { rooms = "rooms and corridors", cave = "caves", bsp = "BSP", cellular = "cellular automata",
      drunkard = "drunkard's walk", maze = "mazes", overworld = "overworlds",
      example = "levels from an example" }
    local COUNTS = { "One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Eleven", "Twelve" }
    local ls = assert(io.popen("ls map-*.rockspec"))
    local file = ls:read("*l")
    ls:close()
    local detailed = assert(support.read_file(file):match("detailed = %[%[(.-)%]%]"), file):gsub("%s+", " ")
    local count, list = detailed:match("^ ?(%a+) map generators %(([^)]*)%)")
    assert.are.equal(COUNTS[#map.ALGORITHMS], count, file .. ": the count of generators")
    local named = {}
    for _, name in ipairs(map.ALGORITHMS) do
      named[#named + 1] = assert(WORDS[name], "no words for the generator " .. name .. " in this spec")
    end
    assert.are.equal(table.concat(named, ", "), list, file .. ": the generators, in map.ALGORITHMS' order")
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
    assert(#monsters <= 3, "monsters slain, none made")
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

-- The first Lua block after `heading` in `path`.
local function block_after(path, heading)
  local text = support.read_file(path)
  local at = assert(text:find(heading, 1, true), heading)
  local _, from = assert(text:find("```lua\n", at, true))
  return text:sub(from + 1, assert(text:find("\n```", from, true)))
end

-- Runs a game's turn loop with a `map` that watches it: `@` is the cell of
-- the last call of fov, explore, distances or flee (each loop calls them
-- from `@`), the monsters the cells `sample` drew (moved in place by the
-- loop). Before and after every call of the module or a level's method,
-- no monster may stand on `@`'s cell. Returns the turns played (the calls
-- of fov), the first clash or nil, and the monsters' turns watched (the
-- monsters alive, summed over the turns).
local function watched_turns(code, name)
  local at, monsters, turns, clash, watched = nil, {}, 0, nil, 0
  local FROM = { fov = true, explore = true, distances = true, flee = true }
  local function check(call)
    if clash or not at then return end
    for _, list in ipairs(monsters) do
      for _, c in ipairs(list) do
        if c.x == at.x and c.y == at.y then
          clash = ("turn %d, %s: a monster shares @'s cell (%d,%d)"):format(turns, call, at.x, at.y)
        end
      end
    end
  end
  -- The position at argument i: {x=, y=} or x, y.
  local function position(args, i)
    local a = args[i]
    if type(a) == "table" and a.x then return { x = a.x, y = a.y } end
    if type(a) == "number" then return { x = a, y = args[i + 1] } end
  end
  local unpack = table.unpack or unpack
  local pack = table.pack or function(...) return { n = select("#", ...), ... } end
  local function watch(name_of, call, ...)
    check(name_of)
    if FROM[name_of] then
      -- fov(pos), distances(pos), flee(pos); explore(known, pos).
      at = position({ ... }, name_of == "explore" and 2 or 1) or at
      if name_of == "fov" then
        turns = turns + 1
        for _, list in ipairs(monsters) do watched = watched + #list end
      end
    end
    local out = pack(call(...))
    if name_of == "sample" then monsters[#monsters + 1] = out[1] end
    check(name_of)
    return unpack(out, 1, out.n)
  end
  local function watched_level(real)
    return setmetatable({}, { __index = function(_, key)
      local value = real[key]
      if type(value) ~= "function" then return value end
      return function(_, ...) return watch(key, function(...) return value(real, ...) end, ...) end
    end })
  end
  local proxy = setmetatable({}, { __index = function(_, key)
    local value = map[key]
    if key == "level" then return function(...) return watched_level(value(...)) end end
    if type(value) ~= "function" then return value end
    return function(m, ...) return watch(key, function(...) return value(m, ...) end, ...) end
  end })
  local env = setmetatable({ print = function() end,
    require = function(module) return module == "map" and proxy or require(module) end }, { __index = _G })
  local chunk = assert((loadstring or load)(code, "=" .. name, "t", env))
  if setfenv then setfenv(chunk, env) end
  chunk()
  return turns, clash, watched
end

describe("the game turns of the README and docs/api.md: no monster ever shares @'s cell", function()
  local loops = {
    { "README.md", "A game's turn on a level kept in native memory" },
    { "docs/api.md", "### A game turn on a level" },
    { "docs/api.md", "## A game loop" },
  }
  for _, loop in ipairs(loops) do
    it(loop[1] .. ": " .. loop[2], function()
      local turns, clash, watched = watched_turns(block_after(loop[1], loop[2]), loop[1])
      assert(not clash, clash)
      assert(turns >= 300, loop[1] .. ": only " .. turns .. " turns played")
      assert(watched >= 100, loop[1] .. ": only " .. watched .. " monsters' turns watched")
    end)
  end
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

  it("the toolbox: map.rng, map.scheduler, map.names, a game saved mid-turn, map.save", function()
    local count, lines = check_api_examples("The game's toolbox", "Editors")
    assert(count == 5 and lines >= 24, "read " .. count .. " blocks, " .. lines .. " lines shown")
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

describe("docs/api.md's examples, each on its own", function()
  -- Every ```lua block, with its line and the `## ` heading it is under.
  local function api_blocks()
    local text = support.read_file("docs/api.md")
    local list, heading, line = {}, nil, 0
    local in_block
    for row in (text .. "\n"):gmatch("([^\n]*)\n") do
      line = line + 1
      if in_block then
        if row == "```" then
          list[#list + 1] = in_block
          in_block = nil
        else
          in_block.code[#in_block.code + 1] = row
        end
      elseif row == "```lua" then
        in_block = { line = line, heading = heading, code = {} }
      else
        heading = row:match("^## (.+)$") or heading
      end
    end
    for _, block in ipairs(list) do block.code = table.concat(block.code, "\n") end
    return list
  end

  -- Runs `code` in an environment where reading or writing an undefined
  -- global is an error; print and io.write print nothing.
  local function run_strict(code, name)
    local quiet_io = setmetatable({ write = function() end }, { __index = io })
    local env = setmetatable({ print = function() end, io = quiet_io }, {
      __index = function(_, key)
        local value = rawget(_G, key)
        if value == nil then error("undefined global " .. tostring(key), 2) end
        return value
      end,
      __newindex = function(_, key) error("assignment to the global " .. tostring(key), 2) end,
    })
    local chunk = assert((loadstring or load)(code, "=" .. name, "t", env))
    if setfenv then setfenv(chunk, env) end
    chunk()
  end

  it("runs each block alone (one that says it continues a section's level, after it), no undefined global", function()
    local list, ran, continued = api_blocks(), 0, 0
    local chains = {} -- heading -> the codes of the blocks so far of its level's example
    for _, block in ipairs(list) do
      local name = "docs/api.md:" .. block.line
      local continues = block.code:match('^%-%- continues the level of "([^"]+)"')
      local code = block.code
      if continues then
        local chain = assert(chains[continues], name .. ": continues " .. continues .. ", which has no block before")
        code = table.concat(chain, "\n") .. "\n" .. block.code
        chain[#chain + 1] = block.code
        continued = continued + 1
      elseif block.heading and not chains[block.heading] then
        chains[block.heading] = { block.code } -- a section's first block: a level later blocks may continue
      end
      local ok, err = pcall(run_strict, code, name)
      assert(ok, name .. " (under " .. tostring(block.heading) .. "): " .. tostring(err))
      ran = ran + 1
    end
    assert(ran >= 29 and continued <= 3, ran .. " blocks run, " .. continued .. " continuing another")
  end)

  it("fails on a fragment: a block that uses what it does not define", function()
    local ok, err = pcall(run_strict, "local d = map.distances(m, m.player)", "fragment")
    assert.are.same({ false, true }, { ok, tostring(err):find("undefined global map$") ~= nil }, tostring(err))
    ok, err = pcall(run_strict, 'local map = require "map"\nprint(map.render(m))', "fragment")
    assert.are.same({ false, true }, { ok, tostring(err):find("undefined global m$") ~= nil }, tostring(err))
    ok, err = pcall(run_strict, "total = 1", "fragment")
    assert.are.same({ false, true }, { ok, tostring(err):find("assignment to the global total$") ~= nil },
      tostring(err))
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
    assert.are.equal(4, checked)
  end)
end)
