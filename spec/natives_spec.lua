-- The natives (map.METHODS' kinds) as Lua sees them, on both interpreters:
-- each answers its methods and nil for any other key; none has another
-- kind's methods; on LuaJIT the hot methods are the route's, compiled Lua
-- (src/lua/luajit/natives.lua, toolbox.lua), found by each kind's own
-- tables, which the route is given by name (it once took the noise's slots
-- by number and got the random source's).
local map = require "map"

-- One of each kind.
local MAKE = {
  level = function() return map.level { width = 30, height = 12, seed = 1 } end,
  field = function() return map.field(4, 3) end,
  rng = function() return map.rng(1) end,
  scheduler = function() return map.scheduler() end,
  names = function() return map.names({ "Aerandir", "Amroth", "Beleg" }) end,
  noise = function() return map.noise { seed = 1 } end,
}

-- The methods the LuaJIT route runs in Lua, by kind (`noise:grid`,
-- `rng:fill` and `scheduler:add` too, but inside `guard`, a C function that
-- names their out-of-memory errors as the C methods do).
local ROUTED = {
  level = { "get", "set", "occupy", "vacate", "occupied", "steps" },
  field = { "get" },
  rng = { "random" },
  scheduler = { "next", "remove" },
  noise = { "get" },
}

describe("the natives", function()
  it("are one of each kind of map.METHODS, no more", function()
    for kind in pairs(map.METHODS) do assert(MAKE[kind], "no native of kind " .. kind .. " here") end
    for kind in pairs(MAKE) do assert(map.METHODS[kind], kind .. " is no kind of map.METHODS") end
  end)

  it("answer their methods, and nil for any other key, a method of another kind's too", function()
    for kind, make in pairs(MAKE) do
      local value, own = make(), {}
      for _, name in ipairs(map.METHODS[kind]) do
        own[name] = true
        assert.are.equal("function", type(value[name]), kind .. ":" .. name)
      end
      for other, names in pairs(map.METHODS) do
        for _, name in ipairs(names) do
          if not own[name] then
            local ok, got = pcall(function() return value[name] end)
            assert.are.same({ true, nil }, { ok, got }, ("%s.%s (a method of %s)"):format(kind, name, other))
          end
        end
      end
      for _, key in ipairs({ "x", "no_such_key", 1, true }) do
        local ok, got = pcall(function() return value[key] end)
        assert.are.same({ true, nil }, { ok, got }, kind .. "[" .. tostring(key) .. "]")
      end
    end
  end)

  it("run their hot methods as the LuaJIT route's compiled Lua, on LuaJIT", function()
    if not jit then return end
    for kind, names in pairs(ROUTED) do
      local value = MAKE[kind]()
      for _, name in ipairs(names) do
        assert.are.equal("Lua", debug.getinfo(value[name], "S").what, kind .. ":" .. name)
      end
    end
  end)
end)
