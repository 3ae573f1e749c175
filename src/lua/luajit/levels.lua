-- The LuaJIT route, second part: the tables of rows `parse` and `generate`
-- build in Lua (loaded by `luajit::wrap` in src/lua/luajit/mod.rs after
-- tables.lua, whose header says why and how; Lua 5.4 does not use this
-- file).
--
-- Called once with the module table, `route` (the helpers, `route.c`), the
-- rules and what tables.lua shares (the one-byte strings CH, `split`);
-- replaces `parse` and, with the FFI, `generate`.

local map, route, rules, shared = ...

local select, type = select, type
local new_tab = require("table.new")
local CH, split = shared.CH, shared.split
-- (name, f) -> f wrapped as tables.lua says.
local helpers = route.c
local guard = helpers.guard
local LEVEL_FIELDS = route.LEVEL_FIELDS

local c_parse = map.parse
-- (...) -> cells (row-major, one string), width, height, seed, algorithm,
-- and the level's numbers as native-endian uint32s in one string: player
-- x, y, stairs x, y, #rooms, per room x, y, w, h, #exits, x, y per exit,
-- #links, the links; #doors, x, y per door, #items, x, y, kind byte per
-- item, #vaults, index, x, y, w, h, rotation per vault, #placed, x, y,
-- byte per placed cell, 0, or 1 and up x, y, then 0, or 1, #locks and per
-- lock its door's x, y, byte and its key's x, y, byte; raises generate's
-- errors as "map.generate: ...".
local generate_parts = helpers.generate_parts
-- (text) -> width, height, @'s x, y and >'s x, y (or nils); raises parse's
-- errors.
local parse_size = helpers.parse_size

-- parse's map, built in the order of push_parsed in src/lua/exports/parse.rs.
local function parsed(text, w, h, px, py, sx, sy)
  local m = new_tab(h, 4)
  split(m, text, w, h, w + 1)
  m.width = w
  m.height = h
  if px then m.player = { x = px, y = py } end
  if sx then m.stairs = { x = sx, y = sy } end
  return m
end

map.parse = guard("map.parse", function(...)
  if select("#", ...) == 1 and type((...)) == "string" then
    local text = ...
    return parsed(text, parse_size(text))
  end
  return c_parse(...)
end)

-- Without the FFI, generate stays the C function.
if not rules.ffi then return end
local ffi_cast, u32s = rules.ffi.cast, rules.ffi.typeof("const uint32_t *")

-- The entries of f counted at f[i]: {x=, y=} per pair after it, or, with
-- `key`, {x=, y=, [key] = the byte's character} per triple; and the index
-- of the last value read.
local function entries(f, i, key)
  local n = f[i]
  local out = new_tab(n, 0)
  for k = 1, n do
    if key then
      out[k] = { x = f[i + 1], y = f[i + 2], [key] = CH[f[i + 3]] }
      i = i + 3
    else
      out[k] = { x = f[i + 1], y = f[i + 2] }
      i = i + 2
    end
  end
  return out, i
end

-- The locks counted at f[i], each {door = {x=, y=, char=}, key = {x=, y=,
-- char=}}, as push_locks in src/lua/shared/level_table.rs.
local function locks(f, i)
  local n = f[i]
  local out = new_tab(n, 0)
  for k = 1, n do
    local door = { x = f[i + 1], y = f[i + 2], char = CH[f[i + 3]] }
    out[k] = { door = door, key = { x = f[i + 4], y = f[i + 5], char = CH[f[i + 6]] } }
    i = i + 6
  end
  return out
end

-- generate's level, built in the order and with the sizes of push_level in
-- src/lua/shared/level_table.rs, from its numbers (Parts in
-- src/lua/exports/generate.rs), read
-- from `numbers` (which this frame keeps alive) from index 0; `blocked` the
-- level's own (nil where "#" alone blocks), as push_level sets it.
local function level(cells, w, h, seed, algorithm, numbers, blocked)
  local f = ffi_cast(u32s, numbers)
  local m = new_tab(h, LEVEL_FIELDS)
  split(m, cells, w, h)
  m.width = w
  m.height = h
  m.seed = seed
  m.algorithm = algorithm
  m.blocked = blocked
  local n = f[4]
  local rooms = new_tab(n, 0)
  local i = 4
  for r = 1, n do
    local room = new_tab(0, 6)
    room.x, room.y, room.w, room.h = f[i + 1], f[i + 2], f[i + 3], f[i + 4]
    room.exits, i = entries(f, i + 5)
    i = i + 1
    local nl = f[i]
    local links = new_tab(nl, 0)
    for k = 1, nl do links[k] = f[i + k] end
    room.links = links
    i = i + nl
    rooms[r] = room
  end
  m.rooms = rooms
  m.doors, i = entries(f, i + 1)
  m.player = { x = f[0], y = f[1] }
  m.stairs = { x = f[2], y = f[3] }
  m.items, i = entries(f, i + 1, "kind")
  i = i + 1
  n = f[i]
  local vaults = new_tab(n, 0)
  for v = 1, n do
    local vault = new_tab(0, 6)
    vault.index, vault.x, vault.y = f[i + 1], f[i + 2], f[i + 3]
    vault.w, vault.h, vault.rotation = f[i + 4], f[i + 5], f[i + 6]
    vaults[v] = vault
    i = i + 6
  end
  m.vaults = vaults
  m.placed, i = entries(f, i + 1, "char")
  i = i + 1
  if f[i] == 1 then
    m.up = { x = f[i + 1], y = f[i + 2] }
    i = i + 2
  end
  if f[i + 1] == 1 then m.locks = locks(f, i + 2) end
  return m
end

map.generate = guard("map.generate", function(...) return level(generate_parts(...)) end)
