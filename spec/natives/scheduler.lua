-- A scheduler's methods (map.METHODS.scheduler): actors added, turns given,
-- actors removed or delayed, the time, its state and its actors.
local map = require "map"
local cases = require "spec.hostile_cases"
local assert = require "luassert"

local Reference = require "spec.reference.scheduler"

-- A scheduler holding "a" (speed 1), for the bad calls.
local function one(f) return f.one_actor end

-- The benches' schedulers: the module's and the pure-Lua heap's
-- (spec/reference/scheduler.lua), of 100 actors.
local function both()
  local s, r = map.scheduler(), Reference.new()
  for i = 1, 100 do
    s:add(i, i % 10 + 1)
    r:add(i, i % 10 + 1)
  end
  return { s = s, r = r }
end

return {
  class = "map.Scheduler",
  methods = {
    add = {
      samples = { function(f) return f.two_actors, "c", 1.5 end },
      bad = (function()
        local list = {
          { "scheduler:add: self must be a scheduler, got rng",
            function(f) return f.empty_scheduler.add(f.r, "b", 1) end },
          { "scheduler:add: actor must not be nil", function(f) return one(f):add(nil, 1) end },
          { "scheduler:add: actor must not be NaN", function(f) return one(f):add(0 / 0, 1) end },
          { "scheduler:add: actor is already in the scheduler (remove it first)",
            function(f) return one(f):add("a", 2) end },
          { "scheduler:add: expected at most 3 arguments, got 4", function(f) return one(f):add("b", 1, 1) end },
        }
        for _, case in ipairs({ { nil, "nil" }, { 0, "0" }, { -1, "-1" }, { 0 / 0, "nan" }, { 1 / 0, "inf" },
          { 2 ^ 21, "2097152" }, { 2 ^ -21, "0.000000476837158203125" }, { "1", 'string "1"' }, { {}, "table" } }) do
          list[#list + 1] = { "scheduler:add: speed must be a number from 2^-20 to 2^20, got " .. case[2],
            function(f) return one(f):add("b", case[1]) end }
        end
        return list
      end)(),
      accepts = {
        -- Every refused call leaves it as it was: each bad call of every
        -- method on one scheduler, then its turn.
        function(f)
          for name, entry in pairs(require("spec.manifests").natives("scheduler").methods) do
            for i, case in ipairs(entry.bad) do assert.is_false(pcall(case[2], f), name .. " " .. i) end
          end
          assert.are.same({ "a", 1 }, { one(f):next() })
        end,
      },
      storm = function(a) return a.s:add(a.actor, 2) end,
      big = "adds one actor: map.scheduler's big case holds many",
      memory = "nothing",
      reference = { spec = "spec/scheduler_spec.lua", bench = "bench/toolbox.lua" },
    },
    next = {
      samples = {
        function(f) return f.two_actors end,
        function(f) return f.empty_scheduler end,
      },
      bad = {
        { "scheduler:next: self must be a scheduler, got number", function(f) return f.empty_scheduler.next(5) end },
        { "scheduler:next: expected at most 1 argument, got 2", function(f) return f.empty_scheduler:next(1) end },
        { "scheduler:next: the scheduler was freed by the collector (used from a finalizer)", function()
          return cases.freed(function() return map.scheduler() end, function(s) return s:next() end)
        end },
      },
      accepts = {
        function()
          assert.are.equal("map.scheduler: freed", cases.freed(function() return map.scheduler() end, tostring))
        end,
      },
      storm = function(a)
        a.s:add(a.actor, 2)
        a.s:delay(a.actor, 0.5)
        return a.s:next(), a.s:next(), #a.s
      end,
      big = "an actor and its time: no argument makes it large",
      memory = "an actor and a number",
      reference = { spec = "spec/scheduler_spec.lua", bench = "bench/toolbox.lua" },
    },
    remove = {
      samples = {
        function(f) return f.two_actors, "b" end,
        function(f) return f.two_actors, "nobody" end,
      },
      bad = {
        { "scheduler:remove: actor must not be nil", function(f) return one(f):remove() end },
        { "scheduler:remove: self must be a scheduler, got number",
          function(f) return f.empty_scheduler.remove(5) end },
        -- An absent actor too (the LuaJIT route once answered false).
        { "scheduler:remove: the scheduler was freed by the collector (used from a finalizer)", function()
          return cases.freed(function()
            local s = map.scheduler()
            s:add("a", 1)
            s:remove("a")
            return s
          end, function(s) return s:remove("absent") end)
        end },
      },
      storm = function(a) return a.s:remove(a.actor), a.s:remove(a.actors[2]) end,
      big = "removes one actor: no argument makes it large",
      memory = "a boolean",
      reference = { spec = "spec/scheduler_spec.lua", bench = "bench/toolbox.lua" },
    },
    delay = {
      samples = { function(f) return f.two_actors, "a", 0.5 end },
      bad = {
        { "scheduler:delay: actor is not in the scheduler", function(f) return one(f):delay("b", 1) end },
        { "scheduler:delay: t must be a number from 0 to 2^53, got -1", function(f) return one(f):delay("a", -1) end },
        { "scheduler:delay: t must be a number from 0 to 2^53, got nan",
          function(f) return one(f):delay("a", 0 / 0) end },
        { "scheduler:delay: t must be a number from 0 to 2^53, got 18014398509481984",
          function(f) return one(f):delay("a", 2 ^ 54) end },
        { "scheduler:delay: the time would pass 9007199254740992 turns",
          function(f) return one(f):delay("a", 2 ^ 53) end },
        { "scheduler:delay: self must be a scheduler, got number", function(f) return f.empty_scheduler.delay(5) end },
      },
      storm = function(a)
        a.s:add(a.actor, 2)
        return a.s:delay(a.actor, 0.5)
      end,
      big = "delays one actor: no argument makes it large",
      memory = "nothing",
      reference = { spec = "spec/scheduler_spec.lua", bench = {
        setup = both,
        run = function(s)
          s.s:delay(s.s:next(), 0.5)
          return 1
        end,
        lua = function(s)
          s.r:delay(s.r:next(), 0.5)
          return 1
        end,
      } },
    },
    time = {
      samples = { function(f) return f.two_actors end },
      bad = {
        { "scheduler:time: expected at most 1 argument, got 2", function(f) return one(f):time(1) end },
        { "scheduler:time: self must be a scheduler, got number", function(f) return f.empty_scheduler.time(5) end },
      },
      storm = function(a)
        a.s:next()
        return a.s:time()
      end,
      big = "a number: no argument makes it large",
      memory = "a number",
      reference = { spec = "spec/scheduler_spec.lua", bench = {
        setup = both,
        run = function(s) return s.s:time() end,
        lua = function(s) return s.r.now end,
      } },
    },
    state = {
      samples = { function(f) return f.two_actors end },
      bad = {
        { "scheduler:state: expected at most 1 argument, got 2", function(f) return one(f):state(1) end },
      },
      storm = function(a) return a.s:state() end,
      big = "the scheduler's saved string: map.scheduler's big case reads one back",
      -- Measured on a scheduler other than the one whose state memory_spec
      -- keeps: LuaJIT interns strings, so that an equal one is free.
      memory = { kind = "path", once = true, size = function(s) return s.n, 1 end,
        call = function(s) return s.scheduler:state() end },
      reference = { spec = "spec/scheduler_spec.lua", bench = {
        setup = both,
        run = function(s) return #s.s:state() end,
        -- In Lua: each actor's time and period as text.
        lua = function(s)
          local out = {}
          for i, e in ipairs(s.r.heap) do out[i] = e.time .. ":" .. e.period end
          return #table.concat(out, ",")
        end,
      } },
    },
    actors = {
      samples = { function(f) return f.two_actors end },
      bad = {
        { "scheduler:actors: expected at most 1 argument, got 2", function(f) return one(f):actors(1) end },
      },
      storm = function(a) return a.s:actors() end,
      big = "the actors' array: map.scheduler's big case holds as many",
      memory = { kind = "path", once = true, size = function(s) return s.n, 1 end,
        call = function(s) return s.scheduler:actors() end },
      reference = { spec = "spec/scheduler_spec.lua", bench = {
        setup = both,
        run = function(s) return #s.s:actors() end,
        -- In Lua: the actors in the order they were added.
        lua = function(s)
          local out = {}
          for _, e in ipairs(s.r.heap) do out[e.order] = e.actor end
          return #out
        end,
      } },
    },
  },
}
