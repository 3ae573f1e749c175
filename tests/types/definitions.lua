-- Reads a LuaCATS definition file (types/map.d.lua) into tables, and checks
-- Lua values against the types it declares, for spec/types_spec.lua. It
-- knows the annotations the file uses: @class (with one parent, `(exact)`
-- or not), @field (`[integer]` too), @alias, @param, @return, @overload,
-- and types made of names, string, boolean and integer literals, `T[]`,
-- `T?`, `A|B`, `A & B`, `(T)`, `table<K, V>`, `keyof C` and `fun(...)`. A
-- class followed by `local Name = {}` is a native object's (a userdata):
-- its methods are the `function Name:m(...)` declarations after it.
local M = {}

-- Calls visit(i, c) for each character c of `text` outside brackets and
-- quotes, in order, until it returns true; returns that i.
local function scan_top(text, visit)
  local depth, quote = 0, nil
  for i = 1, #text do
    local c = text:sub(i, i)
    if quote then
      if c == quote then quote = nil end
    elseif c == '"' then
      quote = c
    elseif c == "(" or c == "<" or c == "[" then
      depth = depth + 1
    elseif c == ")" or c == ">" or c == "]" then
      depth = depth - 1
    elseif depth == 0 and visit(i, c) then
      return i
    end
  end
end

-- The text up to the first space outside brackets and quotes, and the rest.
local function split_type(text)
  local at = scan_top(text, function(_, c) return c == " " end)
  if not at then return text, "" end
  return text:sub(1, at - 1), text:sub(at + 1)
end

-- The parts of `text` between `sep` outside brackets and quotes, trimmed.
local function split_top(text, sep)
  local parts, start = {}, 1
  scan_top(text, function(i, c)
    if c == sep then
      parts[#parts + 1] = text:sub(start, i - 1)
      start = i + 1
    end
  end)
  parts[#parts + 1] = text:sub(start)
  for i, part in ipairs(parts) do parts[i] = part:match("^%s*(.-)%s*$") end
  return parts
end
M.split_top = split_top

-- `fun(a: T, b?: U): R, S` as { params = {{name=, type=, optional=}}, returns = {types} }.
local function parse_fun(text)
  local params, returns = text:match("^fun(%b())%s*:?%s*(.*)$")
  local out = { params = {}, returns = {} }
  params = params:sub(2, -2)
  if params ~= "" then
    for _, p in ipairs(split_top(params, ",")) do
      local name, optional, type = p:match("^([%w_.]+)(%??)%s*:%s*(.+)$")
      out.params[#out.params + 1] = { name = name, optional = optional == "?", type = type }
    end
  end
  if returns ~= "" then out.returns = split_top(returns, ",") end
  return out
end

-- The definitions: { classes = {name = {parent=, fields = {list of {name=,
-- type=, optional=, doc=}}, index = type of [integer], methods = {name =
-- function}, method_order = {names} (a native object's)}}, aliases = {name =
-- type}, functions = {name = {params=, returns=, overloads=}}, order = {names} }.
-- A method's params leave out self; its overloads' params keep it, as written.
function M.read(text)
  local defs = { classes = {}, aliases = {}, functions = {}, function_order = {} }
  local objects = {} -- local name -> the class of a native object
  local class, pending = nil, { params = {}, returns = {}, overloads = {} }
  for line in (text .. "\n"):gmatch("([^\n]*)\n") do
    local tag, rest = line:match("^%-%-%-@(%w+)%s+(.*)$")
    if tag == "class" then
      local exact = rest:match("^%(exact%)%s+") ~= nil
      local name, parent = rest:gsub("^%(exact%)%s+", ""):match("^([%w_.]+)%s*:?%s*([%w_.]*)")
      class = { name = name, parent = parent ~= "" and parent or nil, fields = {}, exact = exact }
      defs.classes[name] = class
    elseif tag == "field" and class then
      local index_type = rest:match("^%[integer%]%s+(.*)$")
      if index_type then
        class.index = (split_type(index_type))
      else
        local name, optional, after = rest:match("^([%w_]+)(%??)%s+(.*)$")
        local type, doc = split_type(after)
        class.fields[#class.fields + 1] = { name = name, optional = optional == "?", type = type, doc = doc }
      end
    elseif tag == "alias" then
      local name, after = rest:match("^([%w_.]+)%s+(.*)$")
      defs.aliases[name] = after
    elseif tag == "param" then
      local name, optional, after = rest:match("^([%w_]+)(%??)%s+(.*)$")
      local type = split_type(after)
      pending.params[#pending.params + 1] = { name = name, optional = optional == "?", type = type }
    elseif tag == "return" then
      pending.returns[#pending.returns + 1] = (split_type(rest))
    elseif tag == "overload" then
      pending.overloads[#pending.overloads + 1] = parse_fun(rest)
    elseif not line:match("^%-%-%-") then
      local object = line:match("^local ([%w_]+) = {}$")
      if object and class then
        objects[object] = class
        class.methods, class.method_order = {}, {}
      end
      class = nil
      local name = line:match("^function map%.([%w_]+)%(")
      if name then
        defs.functions[name] = pending
        defs.function_order[#defs.function_order + 1] = name
      end
      local owner, method = line:match("^function ([%w_]+):([%w_]+)%(")
      if owner then
        local of = assert(objects[owner], "a method of " .. owner .. ", which follows no class")
        of.methods[method] = pending
        of.method_order[#of.method_order + 1] = method
      end
      if line ~= "" then pending = { params = {}, returns = {}, overloads = {} } end
    end
  end
  return defs
end

-- A class's fields, its parents' first, a field a class redeclares in its own place.
function M.fields(defs, name)
  local class = assert(defs.classes[name], "no class " .. name)
  local list = class.parent and M.fields(defs, class.parent) or {}
  for _, field in ipairs(class.fields) do
    local replaced = false
    for i, f in ipairs(list) do
      if f.name == field.name then list[i], replaced = field, true end
    end
    if not replaced then list[#list + 1] = field end
  end
  return list
end

-- Whether `value` has the type `type`; if not, false and where it differs.
-- A class's table must have its required fields and no other string keys
-- (`loose`: other keys allowed, as the type checkers take arguments).
-- `seen[class][field]` is set for each field met with a value.
function M.check(defs, value, type, seen, where, loose)
  where = where or "value"
  local alternatives = split_top(type, "|")
  local parts = split_top(type, "&")
  if #alternatives == 1 and #parts > 1 then
    for _, part in ipairs(parts) do
      local ok, problem = M.check(defs, value, part, seen, where, loose)
      if not ok then return false, problem end
    end
    return true
  end
  if #alternatives > 1 then
    local problems = {}
    for _, alternative in ipairs(alternatives) do
      local ok, problem = M.check(defs, value, alternative, seen, where, loose)
      if ok then return true end
      problems[#problems + 1] = problem
    end
    return false, table.concat(problems, "; or ")
  end
  local function fail(what) return false, ("%s: %s, got %s"):format(where, what, tostring(value)) end
  local function is(ok, what) if ok then return true end return fail(what) end
  if type:sub(-1) == "?" then
    if value == nil then return true end
    return M.check(defs, value, type:sub(1, -2), seen, where, loose)
  elseif type:match("^%b()$") then
    return M.check(defs, value, type:sub(2, -2), seen, where, loose)
  elseif type:sub(-2) == "[]" then
    if _G.type(value) ~= "table" then return fail("not a table (" .. type .. ")") end
    local n = 0 -- string keys aside, as the type checkers do: a level is a map
    for k in pairs(value) do
      if _G.type(k) == "number" and (k < 1 or k ~= math.floor(k)) then return fail("an array with key " .. k) end
      if _G.type(k) ~= "string" then n = n + 1 end
    end
    if n ~= #value then return fail("an array with holes") end
    -- An argument of fields only (generate's options) is not an array (map.level's forms).
    if loose and n == 0 and next(value) ~= nil then return fail("an array, not a table of fields") end
    for i, item in ipairs(value) do
      local ok, problem = M.check(defs, item, type:sub(1, -3), seen, where .. "[" .. i .. "]", loose)
      if not ok then return false, problem end
    end
    return true
  elseif type:match('^".*"$') then
    return is(value == type:sub(2, -2), type)
  elseif type == "true" or type == "false" then
    return is(value == (type == "true"), type)
  elseif type:match("^%-?%d+$") then
    return is(value == tonumber(type), type)
  elseif type:match("^keyof ") then
    local names = {}
    for _, field in ipairs(M.fields(defs, type:sub(7))) do names[field.name] = true end
    return is(names[value] == true, "a field name of " .. type:sub(7))
  elseif type == "nil" then
    return is(value == nil, "nil")
  elseif type == "integer" then
    return is((_G.type(value) == "number" and value == math.floor(value)), "an integer")
  elseif type == "number" or type == "string" or type == "boolean" or type == "table" or type == "function" then
    return is(_G.type(value) == type, "a " .. type)
  elseif type == "any" then
    return true
  elseif type:match("^table<") then
    local key_type, value_type = table.unpack(split_top(type:match("^table<(.*)>$"), ","))
    if _G.type(value) ~= "table" then return fail("not a table (" .. type .. ")") end
    for k, v in pairs(value) do
      local ok, problem = M.check(defs, k, key_type, seen, where .. " key", loose)
      if ok then ok, problem = M.check(defs, v, value_type, seen, where .. "[" .. tostring(k) .. "]", loose) end
      if not ok then return false, problem end
    end
    return true
  elseif type:match("^fun%(") then
    return is(_G.type(value) == "function", "a function")
  elseif defs.aliases[type] then
    return M.check(defs, value, defs.aliases[type], seen, where, loose)
  elseif defs.classes[type] then
    return M.check_class(defs, value, type, seen, where, loose)
  end
  error("tests/types/definitions.lua: unknown type " .. type)
end

-- The class that declares the methods of `name` (itself or a parent), if any.
local function object_class(defs, name)
  local class = defs.classes[name]
  if class.method_order then return class end
  return class.parent and object_class(defs, class.parent)
end

function M.check_class(defs, value, name, seen, where, loose)
  if object_class(defs, name) then return M.check_object(defs, value, name, seen, where) end
  if type(value) ~= "table" then return false, ("%s: a %s table, got %s"):format(where, name, tostring(value)) end
  seen[name] = seen[name] or {}
  local declared = {}
  for _, field in ipairs(M.fields(defs, name)) do
    declared[field.name] = true
    local v = value[field.name]
    if v == nil and not field.optional then return false, ("%s: no field %s (%s)"):format(where, field.name, name) end
    if v ~= nil then
      seen[name][field.name] = true
      local ok, problem = M.check(defs, v, field.type, seen, where .. "." .. field.name, loose)
      if not ok then return false, problem end
    end
  end
  local index = defs.classes[name].index
  for k, v in pairs(value) do
    if type(k) == "string" and not declared[k] and not loose then
      return false, ("%s: field %s, which %s does not declare"):format(where, k, name)
    elseif type(k) ~= "string" then
      if not index then return false, ("%s: key %s, which %s does not declare"):format(where, tostring(k), name) end
      local ok, problem = M.check(defs, v, index, seen, where .. "[" .. tostring(k) .. "]", loose)
      if not ok then return false, problem end
    end
  end
  return true
end

-- A native object: a userdata with every declared method, and the fields
-- its class declares (read through its __index), of their types.
function M.check_object(defs, value, name, seen, where)
  if type(value) ~= "userdata" then
    return false, ("%s: a %s (userdata), got %s"):format(where, name, tostring(value))
  end
  for _, method in ipairs(object_class(defs, name).method_order) do
    if type(value[method]) ~= "function" then
      return false, ("%s: a %s has the method %s, got %s"):format(where, name, method, tostring(value[method]))
    end
  end
  seen[name] = seen[name] or {}
  for _, field in ipairs(M.fields(defs, name)) do
    local v = value[field.name]
    if v == nil and not field.optional then return false, ("%s: no field %s (%s)"):format(where, field.name, name) end
    if v ~= nil then
      seen[name][field.name] = true
      local ok, problem = M.check(defs, v, field.type, seen, where .. "." .. field.name)
      if not ok then return false, problem end
    end
  end
  return true
end

return M
