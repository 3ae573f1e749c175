-- The Lua side of each call's memory bound (docs/hardening.md): what a result
-- adds to the Lua heap, measured with the collector stopped so that nothing
-- is freed while it is counted. The Rust side is tests/memory.rs. The calls
-- are the manifests' (spec/exports/, spec/natives/: their `memory`, a kind
-- of bound below and a call on `s`): no export or method is named here.
local manifests = require "spec.manifests"
local fixtures = require "spec.exports.fixtures"

-- A table of rows costs per cell (a value in a row's array) and per row (the
-- row's table): measured at most 16 B a cell and 72 a row on Lua 5.4, 18 and
-- 80 on LuaJIT. fov's rows hold a hash entry per visible cell, rounded up
-- to a power of two (41 B/cell measured with every cell of a 600-wide row
-- visible). A path is a table per position (120 B measured on both). The
-- fixed part covers a level's lists (at most 10,000 rooms, 10,000 items,
-- 10,000 placed cells and 100 vaults); each room's exits and links are
-- counted on their own, as an exit is a position table and a level may have
-- hundreds of thousands (rooms = 10000: 112,454 exits and 93,054 links, 76 B
-- each on average with the rooms' own growth, on both interpreters).
local BOUND = { -- bytes per cell and per row
  rows = { cell = 24, row = 96 },
  fov = { cell = 64, row = 128 },
  path = { cell = 128, row = 0 },
  text = { cell = 4, row = 0 },
  native = { cell = 0, row = 0 }, -- a level or field: its cells are not on the Lua heap
  channels = { cell = 3 * 24, row = 3 * 96 }, -- a coloured light map: three tables of rows
}
local FIXED = 4 * 1024 * 1024
local EXIT, LINK = 128, 24

-- Large, wide and narrow: a row of one cell costs the most per cell.
local SHAPES = { { 600, 600 }, { 1, 100000 }, { 100000, 1 }, { 3, 30000 } }

-- The bytes the Lua heap grew by while `f` built its result (kept alive).
local function growth(f)
  collectgarbage("collect")
  collectgarbage("stop")
  local before = collectgarbage("count")
  local result = f()
  local grew = (collectgarbage("count") - before) * 1024
  collectgarbage("restart")
  assert(result ~= nil)
  return grew
end

-- The exits and links of a level's rooms.
local function exits_and_links(m)
  local exits, links = 0, 0
  for _, room in ipairs(m.rooms or {}) do
    exits, links = exits + #room.exits, links + #room.links
  end
  return exits, links
end

local function within_bound(name, f, kind, w, h)
  local result
  local grew = growth(function()
    result = f()
    return result
  end)
  local exits, links = 0, 0
  if type(result) == "table" then exits, links = exits_and_links(result) end
  local bound = BOUND[kind].cell * w * h + BOUND[kind].row * h + FIXED + EXIT * exits + LINK * links
  assert(grew <= bound, ("%s %dx%d: %d bytes, bound %d"):format(name, w, h, grew, bound))
  assert(grew > 0, name .. ": nothing measured")
end

-- The memory cases of every manifest: {label=, kind=, call=, size=, once=}.
local PER_SHAPE, ONCE = {}, {}
for _, entry in ipairs(manifests.entries()) do
  local memory = manifests.applies(entry, "memory")
  for _, case in ipairs(manifests.list(memory, function(value) return value.kind ~= nil end)) do
    local label = entry.label .. (case.what and ", " .. case.what or "")
    assert(BOUND[case.kind], label .. ": no bound of kind " .. tostring(case.kind))
    local item = { label = label, kind = case.kind, call = case.call, size = case.size }
    if case.once then ONCE[#ONCE + 1] = item else PER_SHAPE[#PER_SHAPE + 1] = item end
  end
end

describe("the Lua result of every call stays within its bound per cell and per row", function()
  assert(#PER_SHAPE > 0 and #ONCE > 0)
  for _, shape in ipairs(SHAPES) do
    local w, h = shape[1], shape[2]
    describe(("at %dx%d"):format(w, h), function()
      local s
      for _, case in ipairs(PER_SHAPE) do
        it(case.label, function()
          s = s or fixtures.shape(w, h)
          local cw, ch = w, h
          if case.size then cw, ch = case.size(s) end
          within_bound(case.label, function() return case.call(s) end, case.kind, cw, ch)
        end)
      end
    end)
  end

  describe("of fixed size", function()
    local s
    for _, case in ipairs(ONCE) do
      it(case.label, function()
        s = s or fixtures.fixed()
        local cw, ch = 1, 1
        if case.size then cw, ch = case.size(s) end
        within_bound(case.label, function() return case.call(s) end, case.kind, cw, ch)
      end)
    end
  end)
end)
