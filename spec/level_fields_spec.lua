-- One description of the level's fields, four makers that must follow it:
-- generate's table (lua/push.rs on Lua 5.4, the LuaJIT route's luajit.lua
-- on LuaJIT: this spec runs on both), generate_json's object (level/json.rs)
-- and the class map.Level of types/map.d.lua. On levels with every field
-- present (rooms with exits and links, doors, items, vaults, placed cells,
-- `up` from arrive), the key sets and value types of all three, down to
-- the rooms' exits, must be the same: a field one of them adds, drops,
-- renames or types differently fails here.
local map = require "map"
local json = require "dkjson"
local support = require "spec.support"
local definitions = require "tests.types.definitions"

local defs = definitions.read(support.read_file("types/map.d.lua"))

-- A value's shape as text: integer, number, string, boolean, [element] for
-- an array (its elements' shapes, an empty array's left out when others
-- are there), {key:shape,...} for a table with string keys, sorted.
local shape_of
local function array_shape(list, shape)
  local seen, shapes = {}, {}
  for _, item in ipairs(list) do
    local s = shape(item)
    if not seen[s] then
      seen[s] = true
      shapes[#shapes + 1] = s
    end
  end
  if #shapes > 1 and seen["[]"] then
    for i, s in ipairs(shapes) do
      if s == "[]" then
        table.remove(shapes, i)
        break
      end
    end
  end
  table.sort(shapes)
  return "[" .. table.concat(shapes, "|") .. "]"
end

local function object_shape(fields)
  local keys = {}
  for key in pairs(fields) do keys[#keys + 1] = key end
  table.sort(keys)
  for i, key in ipairs(keys) do keys[i] = key .. ":" .. fields[key] end
  return "{" .. table.concat(keys, ",") .. "}"
end

function shape_of(value)
  local kind = type(value)
  if kind == "number" then return value == math.floor(value) and "integer" or "number" end
  if kind ~= "table" then return kind end
  local fields, n = {}, 0
  for key, item in pairs(value) do
    if type(key) == "string" then fields[key] = shape_of(item) else n = n + 1 end
  end
  if next(fields) == nil then return array_shape(value, shape_of) end
  assert(n == 0, "a table with both string and other keys")
  return object_shape(fields)
end

-- The shape a declared type describes: string literals and their unions are
-- strings, `T?` is T (the levels here have every field), a class is its
-- fields (its parents' too), an alias what it names.
local function declared_shape(type)
  type = type:gsub("%?$", "")
  if type:match("^%b()$") then return declared_shape(type:sub(2, -2)) end
  if type:sub(-2) == "[]" then return "[" .. declared_shape(type:sub(1, -3)) .. "]" end
  local alternatives = definitions.split_top(type, "|")
  if #alternatives > 1 then
    for _, alternative in ipairs(alternatives) do
      assert(alternative:match('^".*"$'), "only unions of string literals here, not " .. type)
    end
    return "string"
  end
  if type:match('^".*"$') then return "string" end
  if defs.aliases[type] then return declared_shape(defs.aliases[type]) end
  if defs.classes[type] then
    local fields = {}
    for _, field in ipairs(definitions.fields(defs, type)) do fields[field.name] = declared_shape(field.type) end
    return object_shape(fields)
  end
  assert(({ integer = true, number = true, string = true, boolean = true })[type], "unknown type " .. type)
  return type
end

-- Levels carved from rock with every field of map.Level present, lists
-- not empty, but `blocked`, which only a level off rock has (the
-- overworld's: "the overworld's fields" below).
local DESIGN = { vaults = { { rows = { "#####", "#.$.#", "##.##" }, count = 2, rotate = true } },
  arrive = { x = 5, y = 5 }, place = { { char = "k", count = 2, min = 3 } } }
local LEVELS = {
  { width = 60, height = 30, seed = 3, algorithm = "rooms", doors = true, loops = 3, locks = 3 },
  { width = 60, height = 30, seed = 4, algorithm = "bsp", doors = true, loops = 2, locks = 3 },
}
for _, options in ipairs(LEVELS) do
  for key, value in pairs(DESIGN) do options[key] = value end
end

-- The level's fields without its rows: the table's integer keys, the JSON's `rows`.
local function fields_of(level, rows_key)
  local fields = {}
  for key, value in pairs(level) do
    if key ~= rows_key and type(key) == "string" then fields[key] = value end
  end
  return fields
end

-- The declared shape of map.Level, without the fields `without` names.
local function declared_without(without)
  local fields = {}
  for _, field in ipairs(definitions.fields(defs, "map.Level")) do
    if not without[field.name] then fields[field.name] = declared_shape(field.type) end
  end
  return object_shape(fields)
end

describe("the level's fields, as generate, generate_json and types/map.d.lua give them", function()
  local declared = declared_without({ blocked = true })

  for _, options in ipairs(LEVELS) do
    local name = options.algorithm .. " " .. options.width .. "x" .. options.height .. " seed " .. options.seed
    local level = map.generate(options)
    local decoded = json.decode(map.generate_json(options))

    it(name .. ": has every field, no list empty (so that every shape is compared)", function()
      for _, field in ipairs(definitions.fields(defs, "map.Level")) do
        local value = level[field.name]
        assert(value ~= nil or field.name == "blocked", "no " .. field.name)
        if type(value) == "table" and field.type:sub(-2) == "[]" then assert(#value > 0, field.name .. " empty") end
      end
      local exits, links = 0, 0
      for _, room in ipairs(level.rooms) do exits, links = exits + #room.exits, links + #room.links end
      assert(exits > 0 and links > 0, "no exits or no links")
    end)

    it(name .. ": generate's table has the fields and types map.Level declares", function()
      assert.are.equal(declared, shape_of(fields_of(level)))
    end)

    it(name .. ": generate_json's object has the same fields and types", function()
      assert.are.equal(declared, shape_of(fields_of(decoded, "rows")))
    end)

    it(name .. ": the rows: the table's as declared, the JSON's the same as strings", function()
      assert.are.equal(declared_shape(defs.classes["map.Level"].index .. "[]"), array_shape(level, shape_of))
      assert.are.equal(#level, #decoded.rows)
      for y, row in ipairs(level) do assert.are.equal(table.concat(row), decoded.rows[y]) end
    end)
  end

  -- The overworld: `blocked`, no `up` and no `locks` (arrive and locks are
  -- refused off rock), its
  -- lists of rooms, doors and vaults empty; each other field as declared.
  it("the overworld's fields: blocked as declared, the rest as on rock, in the table and the JSON", function()
    local options = { width = 60, height = 30, seed = 5, algorithm = "overworld", place = DESIGN.place }
    for _, fields in ipairs({ fields_of(map.generate(options)), fields_of(json.decode(map.generate_json(options)),
      "rows") }) do
      local keys, want = {}, {}
      for key in pairs(fields) do keys[#keys + 1] = key end
      for _, field in ipairs(definitions.fields(defs, "map.Level")) do
        if field.name ~= "up" and field.name ~= "locks" then want[#want + 1] = field.name end
      end
      table.sort(keys)
      table.sort(want)
      assert.are.same(want, keys)
      assert.are.equal("#~^", fields.blocked)
      for _, field in ipairs(definitions.fields(defs, "map.Level")) do
        local value = fields[field.name]
        local empty = type(value) == "table" and field.type:sub(-2) == "[]" and #value == 0
        assert(empty == (field.name == "rooms" or field.name == "doors" or field.name == "vaults"), field.name)
        if value ~= nil and not empty then
          assert.are.equal(declared_shape(field.type), shape_of(value), field.name)
        end
      end
    end
  end)

  it("tells shapes apart: a field missing, added or of another type", function()
    local fields = fields_of(map.generate(LEVELS[1]))
    local same = shape_of(fields)
    fields.up = nil
    assert.are_not.equal(same, shape_of(fields))
    fields.up, fields.extra = { x = 1, y = 1 }, 1
    assert.are_not.equal(same, shape_of(fields))
    fields.extra, fields.seed = nil, "1"
    assert.are_not.equal(same, shape_of(fields))
    fields.seed, fields.rooms[1].exits = 1, { { x = 1, y = 1, z = 1 } }
    assert.are_not.equal(same, shape_of(fields))
  end)
end)
