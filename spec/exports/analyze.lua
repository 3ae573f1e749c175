-- map.analyze(m [, options]): the map's regions, chokepoints, dead ends,
-- the walk from @ to > and the farthest cell, and the room graph of
-- m.rooms' links (options: blocked, diagonal).
local map = require "map"
local cases = require "spec.hostile_cases"

return {
  samples = {
    function(f) return map.analyze(f.gen) end,
    function(f) return map.analyze(f.gen, { diagonal = true, blocked = "#+" }) end,
    function() return map.analyze({ { "@", ".", ">" }, { ".", "#", "." } }) end,
  },
  with_options = function(f, options) return map.analyze(f.gen, options) end,
  bad = {
    { "map.analyze: expected at most 2 arguments, got 3", function(f) return map.analyze(f.small, nil, 1) end },
    { "map.analyze: options must be a table, got number", function(f) return map.analyze(f.small, 1) end },
    { 'map.analyze: unknown option "max" (options: blocked, diagonal)',
      function(f) return map.analyze(f.small, { max = 1 }) end },
    { "map.analyze: diagonal must be a boolean, got 1", function(f) return map.analyze(f.small, { diagonal = 1 }) end },
    { "map.analyze: m.blocked must be a string of characters, got number",
      function() return map.analyze(cases.blocked_map(5)) end },
    { "map.analyze: m.rooms must be a table of rooms, got number",
      function() return map.analyze({ { "@" }, rooms = 1 }) end },
    { "map.analyze: m.rooms[1] must be a room {x=, y=, w=, h=, links=}, got string",
      function() return map.analyze({ { "@" }, rooms = { "room" } }) end },
    { "map.analyze: m.rooms[1].links must be an array of room indices, got string",
      function() return map.analyze({ { "@" }, rooms = { { links = "2" } } }) end },
    { "map.analyze: m.rooms[2].links[1] must be a room index from 1 to 2, got 3",
      function() return map.analyze({ { "@" }, rooms = { { links = { 2 } }, { links = { 3 } } } }) end },
  },
  storm = {
    function(a) return map.analyze(a.m) end,
    function(a) return map.analyze(a.walled, { diagonal = true }) end,
  },
  big = function(h) return { { h.open } } end,
  memory = { kind = "path", call = function(s) return map.analyze(s.m) end },
  reference = { spec = "spec/analyze_spec.lua", bench = "bench/analyze.lua" },
  method = {
    samples = {
      function(f) return f.designed end,
      function(f) return f.plain_lvl, { diagonal = true } end,
      function(f) return f.world_lvl end,
    },
    with_options = function(f, options) return f.designed:analyze(options) end,
    bad = {
      { "level:analyze: expected at most 2 arguments, got 3", function(f) return f.lvl20:analyze(nil, 1) end },
      { 'level:analyze: unknown option "max" (options: blocked, diagonal, occupied)',
        function(f) return f.lvl20:analyze({ max = 1 }) end },
    },
    storm = {
      function(a) return a.lvl:analyze() end,
      function(a) return map.level(a.walled):analyze({ occupied = true }) end,
    },
    -- A level made from a table has no rooms (map.analyze reads the
    -- table's): their successes are compared on generated levels in
    -- spec/analyze_spec.lua.
    cases = function() return { { 1, fails = true }, { { diagonal = 1 }, fails = true } } end,
    big = "analyzes the level's cells, held natively: map.analyze's table is the case that grows",
    memory = { kind = "path", call = function(s) return s.lvl:analyze() end },
    reference = { spec = "spec/analyze_spec.lua", bench = "bench/analyze.lua" },
  },
}
