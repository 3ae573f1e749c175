-- A field's methods (map.METHODS.field): what a search or a field of view
-- gave on a level, or a memory, read cell by cell, as the table function's
-- table, or saved.
local map = require "map"

return {
  class = "map.Field",
  methods = {
    get = {
      samples = {
        function(f) return f.designed_d, 1, 1 end,
        function(f) return f.designed_d, f.designed.stairs end,
        function(f) return f.designed_seen, f.designed.player.x, f.designed.player.y end,
        function(f) return f.designed_seen, 1, 1 end,
        function(f) return f.designed_memory, f.designed.player end,
      },
      bad = {
        { "field:get: self must be a field, got number", function(f) return f.lvl20_d.get(5, 1, 1) end },
        { "field:get: self must be a field, got level", function(f) return f.lvl20_d.get(f.lvl20, 1, 1) end },
        { "field:get: x must be an integer from 1 to 20, got nil", function(f) return f.lvl20_d:get() end },
        { "field:get: y must be an integer from 1 to 10, got 11", function(f) return f.lvl20_d:get(1, 11) end },
      },
      storm = function(a) return a.lvl:distances(a.sources[1]):get(1, 1) end,
      big = "reads one cell: no argument makes it large",
      memory = "an integer, a boolean or nil",
      reference = { spec = "spec/level_spec.lua", bench = "bench/level.lua" },
    },
    table = {
      samples = {
        function(f) return f.designed_d end,
        function(f) return f.designed_seen end,
        function(f) return f.designed_memory end,
      },
      bad = {
        { "field:table: expected at most 1 argument, got 2", function(f) return f.lvl20_d:table(1) end },
      },
      storm = function(a) return a.lvl:distances(a.sources[1]):table() end,
      big = "the table function's rows: map.distances' and map.fov's big cases are the tables that grow",
      memory = { kind = "rows", call = function(s) return s.lvl:distances(s.from):table() end },
      reference = { spec = "spec/level_spec.lua", bench = "bench/level.lua" },
    },
    save = {
      samples = {
        function(f) return f.designed_d end,
        function(f) return f.designed_seen end,
      },
      bad = {
        { "field:save: expected at most 1 argument, got 2", function(f) return f.lvl20_d:save(1) end },
      },
      storm = function(a) return a.lvl:distances(a.sources[1]):save() end,
      big = "the field's saved string: map.load reads one back",
      memory = { kind = "text", call = function(s) return s.lvl:distances(s.from):save() end },
      reference = { spec = "spec/level_spec.lua", bench = {
        setup = function()
          local m = map.generate { width = 80, height = 50, seed = 1, algorithm = "cave" }
          local lvl = map.level(m)
          return { field = lvl:distances(m.player), rows = map.distances(m, m.player) }
        end,
        run = function(s) return #s.field:save() end,
        -- In Lua: the rows written as text, a number a cell.
        lua = function(s)
          local out = {}
          for y, row in ipairs(s.rows) do
            local cells = {}
            for x, v in ipairs(row) do cells[x] = v and tostring(v) or "-" end
            out[y] = table.concat(cells, ",")
          end
          return #table.concat(out, "\n")
        end,
      } },
    },
  },
}
