-- The manifests (issue 33): one file per export, spec/exports/<name>.lua, and
-- one per kind of native, spec/natives/<kind>.lua, read here for the specs
-- that loop over them (hostile, types, memory, level, checklist), for
-- tests/host/lib.lua and for bench/manifests.lua. The export list is the
-- module's (the functions of `require "map"`), the method lists are
-- map.METHODS: nothing here names an export or a method.
--
-- An entry is what a spec loops over: an export, or a method of a native
-- kind, as {label=, name=, kind=, path=, fields=, method=}:
--   label   "map.fov" or "level:fov", as the messages name it;
--   name    the export's or the method's name;
--   kind    nil for an export, else the native kind ("level", "rng", ...);
--   path    the manifest file that holds it;
--   fields  the manifest (an export) or the method's entry (a table);
--   method  true for a method.
-- A method of a level that is the method form of an export (lvl:fov of
-- map.fov) has its entry in the export's manifest, as its `method` field;
-- any other method in spec/natives/<kind>.lua, as `methods[<name>]`.
local map = require "map"

local M = {}

-- Functions of the probe builds (`make probe`), which are no exports.
M.NOT_EXPORTS = { _panic_probe = true, _reads = true, _mirror = true, _faults = true }

M.EXPORTS_DIR, M.NATIVES_DIR = "spec/exports/", "spec/natives/"

-- Every field an export's manifest has, and every field of a method's
-- entry (an export's `method` entry has `cases` too).
M.FIELDS = { "samples", "bad", "storm", "big", "memory", "reference", "method" }
M.METHOD_FIELDS = { "samples", "bad", "storm", "big", "memory", "reference" }

local pack = table.pack or function(...) return { n = select("#", ...), ... } end
local unpack = table.unpack or unpack
M.pack, M.unpack = pack, unpack

-- The names of the module's exports, sorted (`names` when given: a list).
function M.export_names()
  local names = {}
  for name, value in pairs(map) do
    if type(value) == "function" and not M.NOT_EXPORTS[name] then names[#names + 1] = name end
  end
  table.sort(names)
  return names
end

-- The native kinds of map.METHODS, sorted.
function M.kinds()
  local kinds = {}
  for kind in pairs(map.METHODS) do kinds[#kinds + 1] = kind end
  table.sort(kinds)
  return kinds
end

local function exists(path)
  local f = io.open(path, "rb")
  if f then f:close() end
  return f ~= nil
end
M.exists = exists

local cache = {}

-- The table the file at `path` returns, loaded once; nil and why when the
-- file does not exist. A file that fails to load is an error.
function M.load(path)
  if cache[path] == nil then
    if not exists(path) then return nil, path .. " does not exist" end
    local chunk = assert(loadfile(path))
    local value = chunk()
    assert(type(value) == "table", path .. " returns a " .. type(value) .. ", not a table")
    cache[path] = value
  end
  return cache[path]
end

function M.export_path(name) return M.EXPORTS_DIR .. name .. ".lua" end
function M.native_path(kind) return M.NATIVES_DIR .. kind .. ".lua" end

-- The manifest of export `name` (an error when it has none).
function M.export(name)
  return assert(M.load(M.export_path(name)))
end

-- The entries of the exports, in the order of their names.
function M.exports()
  local list = {}
  for _, name in ipairs(M.export_names()) do
    list[#list + 1] = { label = "map." .. name, name = name, path = M.export_path(name), fields = M.export(name) }
  end
  return list
end

-- The entry of method `name` of `kind`: the export's `method` (a level's
-- method form of an export), else spec/natives/<kind>.lua's methods[name];
-- nil when neither has one.
function M.method_entry(kind, name)
  if kind == "level" and type(map[name]) == "function" and not M.NOT_EXPORTS[name] then
    local manifest = M.load(M.export_path(name))
    if manifest and type(manifest.method) == "table" then
      return { label = kind .. ":" .. name, name = name, kind = kind, path = M.export_path(name),
        fields = manifest.method, method = true, export = name }
    end
  end
  local natives = M.load(M.native_path(kind))
  local fields = natives and type(natives.methods) == "table" and natives.methods[name]
  if fields then
    return { label = kind .. ":" .. name, name = name, kind = kind, path = M.native_path(kind), fields = fields,
      method = true }
  end
end

-- The entries of every method of map.METHODS, kind by kind (sorted), each
-- kind's in the module's order.
function M.methods()
  local list = {}
  for _, kind in ipairs(M.kinds()) do
    for _, name in ipairs(map.METHODS[kind]) do
      list[#list + 1] = assert(M.method_entry(kind, name), kind .. ":" .. name .. " has no manifest entry")
    end
  end
  return list
end

-- Every entry: the exports, then the methods.
function M.entries()
  local list = M.exports()
  for _, entry in ipairs(M.methods()) do list[#list + 1] = entry end
  return list
end

-- The natives file of `kind` (its `class`, its `methods`).
function M.natives(kind)
  return assert(M.load(M.native_path(kind)))
end

-- A field's value when it applies (not a reason string), else nil.
function M.applies(entry, field)
  local value = entry.fields[field]
  if type(value) ~= "string" then return value end
end

-- A list of what `value` holds: itself when it is one item, `is_item(value)`.
function M.list(value, is_item)
  if value == nil or type(value) == "string" then return {} end
  if is_item(value) then return { value } end
  return value
end

-- Runs sample `sample` of `entry` on the fixtures `f` and returns what the
-- call returns. An export's sample is the call (`return map.fov(...)`); a
-- method's returns the object and the arguments (`return f.lvl, 2, 2`),
-- which this calls the method with: `object:<name>(...)`. Returns the
-- results packed, then the object and the arguments packed (nil for an
-- export).
function M.run_sample(entry, sample, f)
  if not entry.method then return pack(sample(f)) end
  local call = pack(sample(f))
  local object = call[1]
  return pack(object[entry.name](object, unpack(call, 2, call.n))), object, pack(unpack(call, 2, call.n))
end

-- The function to call for a big case, the label its errors start with.
function M.callable(entry)
  if entry.method then
    local name = entry.name
    return function(object, ...) return object[name](object, ...) end
  end
  return map[entry.name]
end

return M
