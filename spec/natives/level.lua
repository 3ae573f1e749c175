-- A level's own methods (map.METHODS.level but the method forms of
-- exports, whose entries are those exports' `method`): its cells, things
-- and occupancy, its tables, its saved form, a memory of its size, and
-- steps for many movers.
local map = require "map"
local cases = require "spec.hostile_cases"
local assert = require "luassert"

-- A level made from a 80x50 cave, for the benches.
local function cave()
  local m = map.generate { width = 80, height = 50, seed = 1, algorithm = "cave" }
  return { m = m, lvl = map.level(m), p = m.player }
end

-- A level's methods that take nothing: one argument too many.
local function one_too_many(name)
  return { ("level:%s: expected at most 1 argument, got 2"):format(name),
    function(f) return f.lvl20[name](f.lvl20, 1) end }
end

-- A value given a level's metatable by the debug library, which is no level.
local function stolen(f, value)
  local own = debug.getmetatable(value)
  debug.setmetatable(value, debug.getmetatable(f.lvl20))
  local ok, err = pcall(f.lvl20.get, value, 1, 1)
  debug.setmetatable(value, own)
  if ok then return err end
  error(err, 0)
end

return {
  class = "map.NativeLevel",
  methods = {
    get = {
      samples = {
        function(f) return f.designed, 1, 1 end,
        function(f) return f.designed, f.designed.player end,
        function(f) return f.locked, f.locked.locks[1].key end,
      },
      bad = {
        { "level:get: self must be a level, got nil", function(f) return f.lvl20.get(nil, 1, 1) end },
        { "level:get: self must be a level, got field", function(f) return f.lvl20.get(f.lvl20_d, 1, 1) end },
        { "level:get: x must be an integer from 1 to 20, got nil", function(f) return f.lvl20:get() end },
        { "level:get: x must be an integer from 1 to 20, got 1.5", function(f) return f.lvl20:get(1.5, 1) end },
        { "level:get: expected at most 3 arguments, got 4", function(f) return f.lvl20:get(1, 1, 1) end },
        { "level:get: cell.x must be an integer from 1 to 20, got 0",
          function(f) return f.lvl20:get({ x = 0, y = 1 }) end },
        -- A stolen metatable: a value given the level's is not a level.
        { "level:get: self must be a level, got userdata", function(f)
          local file = io.tmpfile()
          local ok, err = pcall(stolen, f, file)
          file:close()
          if ok then return err end
          error(err, 0)
        end },
        { "level:get: self must be a level, got userdata", function(f)
          if newproxy then return f.lvl20.get(newproxy(true), 1, 1) end
          local file = io.tmpfile()
          local ok, err = pcall(stolen, f, file)
          file:close()
          if ok then return err end
          error(err, 0)
        end },
        -- Used from a finalizer after its own ran (resurrected).
        { "level:get: the level was freed by the collector (used from a finalizer)", function()
          return cases.freed(function() return map.level { width = 10, height = 10, seed = 1 } end,
            function(lvl) return lvl:get(1, 1) end)
        end },
      },
      accepts = {
        function()
          assert.are.equal("map.level: freed",
            cases.freed(function() return map.level { width = 10, height = 10, seed = 1 } end,
            tostring))
        end,
      },
      storm = function(a) return a.lvl:get(a.sources[1]) end,
      big = "reads one cell: no argument makes it large",
      memory = "a one-character string",
      reference = { spec = "spec/level_spec.lua", bench = "bench/level.lua" },
    },
    set = {
      samples = {
        function(f) return f.designed, 1, 1, "#" end,
        function(f) return f.designed, { x = 1, y = 2 }, "#" end,
      },
      bad = {
        { "level:set: ch must be a one-character string, got nil", function(f) return f.lvl20:set(1, 1) end },
        { "level:set: ch must be a one-character string, got 5", function(f) return f.lvl20:set(1, 1, 5) end },
        { "level:set: expected at most 4 arguments, got 5", function(f) return f.lvl20:set(1, 1, "#", 1) end },
        -- A bad self with no more arguments (the LuaJIT route once raised
        -- "bad argument #1 to 'select'" for it).
        { "level:set: self must be a level, got number", function(f) return f.lvl20.set(5) end },
        { "level:set: self must be a level, got nil", function(f) return f.lvl20.set(nil) end },
      },
      storm = function(a) return a.lvl:set(2, 2, "+") end,
      big = "writes one cell: no argument makes it large",
      memory = "nothing",
      reference = { spec = "spec/level_spec.lua", bench = "bench/level.lua" },
    },
    occupy = {
      samples = {
        function(f) return f.designed, 2, 2 end,
        function(f) return f.designed, f.designed.stairs end,
        function(f) return f.designed, 2, 2, 7 end,
        function(f) return f.designed, f.designed.stairs, 2 ^ 53 end,
      },
      bad = {
        { "level:occupy: x must be an integer from 1 to 20, got 21", function(f) return f.lvl20:occupy(21, 1) end },
        { "level:occupy: id must be an integer from 1 to 2^53, got 0", function(f) return f.lvl20:occupy(1, 1, 0) end },
        { "level:occupy: id must be an integer from 1 to 2^53, got -3",
          function(f) return f.lvl20:occupy({ x = 1, y = 1 }, -3) end },
        { "level:occupy: id must be an integer from 1 to 2^53, got 1.5",
          function(f) return f.lvl20:occupy(1, 1, 1.5) end },
        { "level:occupy: id must be an integer from 1 to 2^53, got 9007199254740994",
          function(f) return f.lvl20:occupy(1, 1, 2 ^ 53 + 2) end },
        { 'level:occupy: id must be an integer from 1 to 2^53, got string "7"',
          function(f) return f.lvl20:occupy(1, 1, "7") end },
        { "level:occupy: id must be an integer from 1 to 2^53, got nan",
          function(f) return f.lvl20:occupy(1, 1, 0 / 0) end },
        { "level:occupy: id must be an integer from 1 to 2^53, got table",
          function(f) return f.lvl20:occupy(1, 1, {}) end },
        { "level:occupy: expected at most 4 arguments, got 5", function(f) return f.lvl20:occupy(1, 1, 2, 3) end },
        { "level:occupy: expected at most 3 arguments, got 4",
          function(f) return f.lvl20:occupy({ x = 1, y = 1 }, 2, 3) end },
      },
      storm = function(a) return a.lvl:occupy(a.sources[1]) end,
      big = "marks one cell: no argument makes it large",
      memory = "nothing",
      reference = { spec = "spec/level_spec.lua", bench = "bench/level.lua" },
    },
    vacate = {
      samples = {
        function(f) return f.designed, 2, 2 end,
        function(f) return f.designed, f.designed.stairs end,
      },
      bad = {
        { "level:vacate: y must be an integer from 1 to 10, got 0", function(f) return f.lvl20:vacate(1, 0) end },
      },
      storm = function(a) return a.lvl:vacate(1, 1) end,
      big = "clears one cell: no argument makes it large",
      memory = "nothing",
      reference = { spec = "spec/level_spec.lua", bench = "bench/level.lua" },
    },
    occupied = {
      samples = {
        function(f) return f.designed, 2, 2 end,
        function(f) return f.designed, f.designed.player end,
      },
      bad = {
        { 'level:occupied: x must be an integer from 1 to 20, got string "a"',
          function(f) return f.lvl20:occupied("a", 1) end },
      },
      storm = function(a) return a.lvl:occupied(1, 1) end,
      big = "reads one cell: no argument makes it large",
      memory = "a boolean",
      -- Against a set of occupied cells kept in Lua.
      reference = { spec = "spec/level_spec.lua", bench = {
        setup = function()
          local s = cave()
          s.occupied = { [s.p.y * 100 + s.p.x] = true }
          s.lvl:occupy(s.p)
          return s
        end,
        run = function(s) return s.lvl:occupied(s.p) end,
        lua = function(s) return s.occupied[s.p.y * 100 + s.p.x] end,
      } },
    },
    occupant = {
      samples = {
        function(f) return f.designed, 2, 2 end,
        function(f) return f.designed, f.designed.player end,
      },
      bad = {
        { "level:occupant: x must be an integer from 1 to 20, got 0", function(f) return f.lvl20:occupant(0, 1) end },
        { "level:occupant: cell.y must be an integer from 1 to 10, got 11",
          function(f) return f.lvl20:occupant({ x = 1, y = 11 }) end },
        { "level:occupant: expected at most 3 arguments, got 4", function(f) return f.lvl20:occupant(1, 1, 1) end },
        { "level:occupant: self must be a level, got nil", function(f) return f.lvl20.occupant(nil, 1, 1) end },
        { "level:occupant: the level was freed by the collector (used from a finalizer)", function()
          return cases.freed(function()
            local lvl = map.level { width = 10, height = 10, seed = 1 }
            lvl:occupy(1, 1, 5)
            return lvl
          end, function(lvl) return lvl:occupant(1, 1) end)
        end },
      },
      storm = function(a) return a.lvl:occupant(a.sources[1]) end,
      big = "reads one cell: no argument makes it large",
      memory = "an integer, true or nil",
      -- Against the occupants' ids kept in a Lua table.
      reference = { spec = "spec/occupants_spec.lua", bench = {
        setup = function()
          local s = cave()
          s.ids = { [s.p.y * 100 + s.p.x] = 42 }
          s.lvl:occupy(s.p, 42)
          return s
        end,
        run = function(s) return s.lvl:occupant(s.p) end,
        lua = function(s) return s.ids[s.p.y * 100 + s.p.x] end,
      } },
    },
    things = {
      samples = {
        function(f) return f.designed end,
        function(f) return f.plain_lvl end,
      },
      bad = { one_too_many("things") },
      storm = function(a) return a.lvl:things() end,
      -- Its list was once copied with no memory check, and aborted there.
      big = function(h)
        if h.things then return { { h.things, what = "every cell a thing" } } end
        return {}
      end,
      memory = "a list of the level's things: at most one a cell, which map.level's case holds natively",
      reference = { spec = "spec/level_spec.lua", bench = "bench/worst_level.lua" },
    },
    table = {
      samples = {
        function(f) return f.designed end,
        function(f) return f.plain_lvl end,
        function(f) return f.world_lvl end,
        function(f) return f.world_table_lvl end,
      },
      bad = { one_too_many("table") },
      storm = function(a) return a.lvl:table() end,
      big = "the level's rows, as map.generate's: map.generate's big cases are the tables that grow",
      memory = { kind = "rows", call = function(s) return s.lvl:table() end },
      reference = { spec = "spec/level_spec.lua", bench = "bench/level.lua" },
    },
    render = {
      samples = { function(f) return f.designed end },
      bad = { one_too_many("render") },
      storm = function(a) return a.lvl:render() end,
      big = "the level's text, as map.render's: map.render's big case is the text that grows",
      memory = { kind = "text", call = function(s) return s.lvl:render() end },
      reference = { spec = "spec/level_spec.lua", bench = "bench/worst_level.lua" },
    },
    save = {
      samples = { function(f) return f.designed end },
      bad = { one_too_many("save") },
      storm = function(a) return a.lvl:save() end,
      big = "the level's saved string: map.load's big case reads one back",
      memory = { kind = "text", call = function(s) return s.lvl:save() end },
      reference = { spec = "spec/level_spec.lua", bench = "bench/level.lua" },
    },
    field = {
      samples = { function(f) return f.designed end },
      bad = { one_too_many("field") },
      storm = function(a) return a.lvl:field() end,
      big = "a memory of the level's size, held natively: map.field's big case",
      memory = { kind = "native", call = function(s) return s.lvl:field() end },
      reference = { spec = "spec/level_spec.lua", bench = "bench/level.lua" },
    },
    steps = {
      samples = {
        function(f) return f.designed, f.designed_d, { { x = f.designed.stairs.x, y = f.designed.stairs.y } } end,
        function(f)
          return f.designed, f.designed_away, { { x = f.designed.player.x, y = f.designed.player.y } },
            { occupied = true }
        end,
      },
      with_options = function(f, o) return f.designed:steps(f.designed_d,
        { { x = f.designed.stairs.x, y = f.designed.stairs.y } }, o) end,
      bad = {
        { "level:steps: movers must be an array of positions {x=, y=}, got nil",
          function(f) return f.lvl20:steps(f.lvl20_d) end },
        { "level:steps: movers[1] must be a position {x=, y=}, got number",
          function(f) return f.lvl20:steps(f.lvl20_d, { 5 }) end },
        { "level:steps: movers[1].x must be an integer from 1 to 20, got 99",
          function(f) return f.lvl20:steps(f.lvl20_d, { { x = 99, y = 1 } }) end },
        { "level:steps: d must be a field of values (distances, flee), got a field of flags",
          function(f) return f.lvl20:steps(f.lvl20_seen, {}) end },
        { "level:steps: d is a field of 3x3, the level is 20x10",
          function(f) return f.lvl20:steps(f.lvl3_d, {}) end },
        { "level:steps: d must be a table of rows or a field, got number",
          function(f) return f.lvl20:steps(3, {}) end },
        { 'level:steps: unknown option "max" (options: avoid, blocked, diagonal, known, occupied)',
          function(f) return f.lvl20:steps(f.lvl20_d, {}, { max = 3 }) end },
        -- Freed by the collector after the LuaJIT route had cached them
        -- (it once answered "internal error").
        { "level:steps: the level was freed by the collector (used from a finalizer)", function()
          return cases.freed(function()
            local lvl = map.level { width = 20, height = 10, seed = 1 }
            local d = lvl:distances(lvl.player)
            lvl:steps(d, {})
            return { lvl = lvl, d = d }
          end, function(o) return o.lvl:steps(o.d, {}) end)
        end },
        { "level:steps: d must be a table of rows or a field, got a freed field", function(f)
          return cases.freed(function()
            local d = f.lvl20:distances(f.m20.player)
            f.lvl20:steps(d, {})
            return d
          end, function(d) return f.lvl20:steps(d, {}) end)
        end },
        { "level:steps: known must be a table of rows, got a freed field", function(f)
          return cases.freed(function() return f.lvl20:field() end,
            function(known) return f.lvl20:steps(f.lvl20_d, {}, { known = known }) end)
        end },
      },
      storm = function(a)
        local d = a.lvl:distances(a.sources[1])
        return a.lvl:steps(d, a.movers, { occupied = true, avoid = a.limits.avoid })
      end,
      big = "steps each mover once, reading the 3x3 cells around it: its movers are the caller's array",
      memory = "a count",
      reference = { spec = "spec/level_spec.lua", bench = "bench/level.lua" },
    },
    steps_xy = {
      samples = {
        function(f) return f.designed, f.designed_d, { f.designed.stairs.x }, { f.designed.stairs.y } end,
        function(f)
          return f.designed, f.designed_away, { f.designed.player.x }, { f.designed.player.y }, { occupied = true }
        end,
      },
      with_options = function(f, o) return f.designed:steps_xy(f.designed_d,
        { f.designed.stairs.x }, { f.designed.stairs.y }, o) end,
      bad = {
        { "level:steps_xy: xs must be an array of x coordinates, got nil",
          function(f) return f.lvl20:steps_xy(f.lvl20_d) end },
        { "level:steps_xy: ys must be an array of y coordinates, got number",
          function(f) return f.lvl20:steps_xy(f.lvl20_d, {}, 3) end },
        { "level:steps_xy: xs and ys must be two tables, got the same",
          function(f) local t = {} return f.lvl20:steps_xy(f.lvl20_d, t, t) end },
        { "level:steps_xy: xs has 2 entries, ys has 1",
          function(f) return f.lvl20:steps_xy(f.lvl20_d, { 1, 2 }, { 1 }) end },
        { "level:steps_xy: xs[1] must be an integer from 1 to 20, got 99",
          function(f) return f.lvl20:steps_xy(f.lvl20_d, { 99 }, { 1 }) end },
        { "level:steps_xy: ys[2] must be an integer from 1 to 10, got 1.5",
          function(f) return f.lvl20:steps_xy(f.lvl20_d, { 1, 2 }, { 1, 1.5 }) end },
        { "level:steps_xy: d must be a field of values (distances, flee), got a field of flags",
          function(f) return f.lvl20:steps_xy(f.lvl20_seen, {}, {}) end },
        { "level:steps_xy: d is a field of 3x3, the level is 20x10",
          function(f) return f.lvl20:steps_xy(f.lvl3_d, {}, {}) end },
        { 'level:steps_xy: unknown option "max" (options: avoid, blocked, diagonal, known, occupied)',
          function(f) return f.lvl20:steps_xy(f.lvl20_d, {}, {}, { max = 3 }) end },
        { "level:steps_xy: expected at most 5 arguments, got 6",
          function(f) return f.lvl20:steps_xy(f.lvl20_d, {}, {}, nil, 1) end },
        { "level:steps_xy: the level was freed by the collector (used from a finalizer)", function()
          return cases.freed(function()
            local lvl = map.level { width = 20, height = 10, seed = 1 }
            local d = lvl:distances(lvl.player)
            lvl:steps_xy(d, {}, {})
            return { lvl = lvl, d = d }
          end, function(o) return o.lvl:steps_xy(o.d, {}, {}) end)
        end },
      },
      storm = function(a)
        local d = a.lvl:distances(a.sources[1])
        local xs, ys = {}, {}
        for i, p in ipairs(a.movers) do xs[i], ys[i] = p.x, p.y end
        return a.lvl:steps_xy(d, xs, ys, { occupied = true, avoid = a.limits.avoid })
      end,
      big = "steps each mover once, reading the 3x3 cells around it: its movers are the caller's arrays",
      memory = "a count",
      reference = { spec = "spec/steps_xy_spec.lua", bench = "bench/level.lua" },
    },
    can_step = {
      samples = {
        function(f) return f.designed, f.designed.player.x, f.designed.player.y, 1, 0 end,
        function(f) return f.designed, f.designed.player, -1, -1, { diagonal = true, occupied = true } end,
      },
      with_options = function(f, o) return f.designed:can_step(f.designed.player, 1, 0, o) end,
      bad = {
        { "level:can_step: dx must be an integer from -1 to 1, got 2",
          function(f) return f.lvl20:can_step(2, 2, 2, 0) end },
        { "level:can_step: dy must be an integer from -1 to 1, got nil",
          function(f) return f.lvl20:can_step(2, 2, 1) end },
        { 'level:can_step: unknown option "avoid" (options: blocked, diagonal, occupied)',
          function(f) return f.lvl20:can_step(2, 2, 1, 0, { avoid = {} }) end },
      },
      storm = function(a) return a.lvl:can_step(1, 1, 1, 0, { occupied = true }) end,
      big = "reads the cell and its neighbour: no argument makes it large",
      memory = "a boolean",
      reference = { spec = "spec/level_spec.lua", bench = "bench/worst_level.lua" },
    },
  },
}
