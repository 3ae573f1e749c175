-- Helpers shared by the specs: require "spec.support" from the repository root.
local M = {}

M.INTERPRETER = jit and "luajit" or "lua5.4"

function M.read_file(path)
  local f = assert(io.open(path, "rb"))
  local text = f:read("*a")
  f:close()
  return text
end

function M.shell_quote(s)
  return "'" .. tostring(s):gsub("'", "'\\''") .. "'"
end

-- A map as plain rows of one-character cells, from its text.
function M.from_text(text)
  local m = {}
  for line in (text .. "\n"):gmatch("([^\n]*)\n") do
    local row = {}
    for x = 1, #line do row[x] = line:sub(x, x) end
    m[#m + 1] = row
  end
  return m
end

-- Runs lua/main.lua with these arguments and the module this process loaded,
-- under the same interpreter. Returns stdout, stderr and the exit code.
function M.cli(...)
  local args = {}
  for i, a in ipairs({ ... }) do args[i] = M.shell_quote(a) end
  local err_path = os.tmpname()
  local cpath = M.shell_quote(package.cpath)
  local command = string.format("LUA_CPATH_5_4=%s LUA_CPATH=%s %s lua/main.lua %s 2>%s; echo \"exit=$?\"",
    cpath, cpath, M.INTERPRETER, table.concat(args, " "), M.shell_quote(err_path))
  local p = assert(io.popen(command))
  local out = p:read("*a")
  p:close()
  local err = M.read_file(err_path)
  os.remove(err_path)
  local body, code = out:match("^(.-)exit=(%d+)\n$")
  return body, err, tonumber(code)
end

return M
