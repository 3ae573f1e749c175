-- map.scheduler([state, actors]): the order in which actors take turns
-- (rot.js's Speed scheduler), new or from a state s:state() gave and its
-- actors.
local map = require "map"

return {
  samples = {
    function() return map.scheduler() end,
    function(f) return map.scheduler(f.a_state, { "a" }) end,
  },
  bad = {
    { "map.scheduler: state must be a string from scheduler:state(), got number",
      function() return map.scheduler(5) end },
    { "map.scheduler: state must be a string from scheduler:state(), got nil",
      function() return map.scheduler(nil, {}) end },
    { "map.scheduler: state is not a saved scheduler (no mapsched1: prefix)",
      function() return map.scheduler("x", {}) end },
    { "map.scheduler: state is not a saved scheduler (checksum mismatch: damaged)",
      function() return map.scheduler("mapsched1:0:00000000", {}) end },
    { "map.scheduler: expected at most 2 arguments, got 3", function() return map.scheduler("x", {}, 1) end },
  },
  storm = function(a) return map.scheduler(), map.scheduler(a.scheduled, a.actors) end,
  -- A scheduler of as many actors loaded back (made before the calls
  -- measured), kept with its case: collected, its Rust memory would go
  -- back to the C heap, where a later call could find it with the Lua heap
  -- full (LuaJIT's heap is its own).
  big = function(h) return { { h.state, h.actors, made = h.scheduler } } end,
  -- An actor's slot and index entries, its part of the state and of the
  -- actors' array, each within a path's 128 bytes a cell.
  memory = { kind = "path", once = true, size = function(s) return s.n, 1 end,
    call = function(s) return map.scheduler(s.state, s.actors) end },
  reference = { spec = "spec/scheduler_spec.lua", bench = "bench/toolbox.lua" },
  method = "not a method of a level: it reads no map",
}
