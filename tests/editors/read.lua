-- tests/editors/run.sh, step 3: the module reads what the third-party
-- writers wrote into DIR: each NAME.tmj or NAME.xp beside NAME.txt, the
-- map it must read as. Prints how many it read.
--   lua read.lua DIR
local map = require "map"
local dir = arg[1]

local function load(path)
  local f = assert(io.open(path, "rb"))
  local bytes = f:read("*a")
  f:close()
  return bytes
end

local n = 0
local list = assert(io.popen("ls " .. dir))
for name in list:lines() do
  local base, ext = name:match("^(.-)%.(%w+)$")
  if ext == "tmj" or ext == "xp" then
    local want = load(dir .. "/" .. base .. ".txt")
    local read = ext == "tmj" and map.from_tiled or map.from_xp
    local ok, got = pcall(read, load(dir .. "/" .. name))
    if not ok then error(name .. ": " .. tostring(got), 0) end
    if map.render(got) ~= want then error(name .. ": read as\n" .. map.render(got) .. "\nnot\n" .. want, 0) end
    n = n + 1
  end
end
list:close()
print(n)
