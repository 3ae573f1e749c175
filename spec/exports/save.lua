-- map.save(value [, options]): a graph of Lua values, the module's natives
-- inside it, as one string for map.load (its text form with text = true).
local map = require "map"
local cases = require "spec.hostile_cases"

return {
  samples = {
    function(f) return map.save({ f.m, f.options, level = map.level(f.m), rng = map.rng(1) }) end,
    function(f) return map.save(f.gen_saved, { text = true }) end,
    function() return map.save(nil) end,
  },
  bad = {
    { "map.save: value is a function", function() return map.save(print) end },
    { "map.save: value.act is a function", function() return map.save({ act = print }) end },
    { "map.save: value[1] is a thread", function() return map.save({ coroutine.create(print) }) end },
    { "map.save: value.out is a userdata", function() return map.save({ out = io.stdout }) end },
    { "map.save: value has a table as a key (keys must be booleans, numbers or strings)",
      function() return map.save({ [{}] = 1 }) end },
    cases.with("map.save: text must be a boolean, got 1", map.save, { {}, { text = 1 } }),
    cases.with('map.save: unknown option "txt" (options: text)', map.save, { {}, { txt = true } }),
    cases.with("map.save: options must be a table, got string", map.save, { {}, "text" }),
    cases.with("map.save: expected at most 2 arguments, got 3", map.save, { {}, {}, 1 }),
  },
  storm = function(a) return map.save({ a.m, a.options, a.sources, a.saved }) end,
  -- A level saved (made before the calls measured), inside a table.
  big = function(h)
    if h.saved then return { { { h.saved, map.load(h.saved) } } } end
    return {}
  end,
  memory = { kind = "text", call = function(s) return map.save(s.lvl) end },
  reference = { spec = "spec/save_spec.lua", bench = "bench/save.lua" },
  with_options = function(_, o) return map.save({}, o) end,
  method = "not a method of a level: it saves any value",
}
