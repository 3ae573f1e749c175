-- Loads the map module in a LÖVE game, wherever a shipped game has it
-- (docs/love.md): `local map = require("map.love").load()`.
--
-- LÖVE's own `require` finds C modules only in the save directory and the
-- source folder, and when a file is found but cannot load it says `module
-- 'map' not found`, hiding the reason. This loader looks for the module of
-- this OS and CPU in each place a game ships it (beside the .love or the
-- fused executable, the game's folder, the save directory, the current
-- directory, inside the .love, package.cpath) and, when none loads, says
-- where it looked and why each file it found was refused, from the file's
-- own header: another OS, another CPU, a Lua 5.4 build under LuaJIT.
--
-- Plain Lua: everything but `load` and `places` also runs outside LÖVE
-- (spec/love_loader_spec.lua).
-- luacheck: read globals love
local M = {}

-- LÖVE's OS names and LuaJIT's CPU names, as the files are named:
-- map-linux-x86_64.so, map-windows-x86_64.dll, map-macos-arm64.so.
local OS = { Linux = "linux", Windows = "windows", ["OS X"] = "macos", Android = "android", iOS = "ios",
  OSX = "macos" }
local ARCH = { x64 = "x86_64", x86 = "x86", arm64 = "arm64", arm = "arm" }

-- The file names to look for on `os` ("linux", "windows", "macos") and
-- `arch` ("x86_64", "arm64"), most particular first.
function M.names(os, arch)
  local ext = os == "windows" and "dll" or "so"
  return { ("map-%s-%s.%s"):format(os, arch, ext), "map." .. ext }
end

-- This game's OS and CPU, in the files' names; under LÖVE from love.system,
-- else from LuaJIT's jit.os (nil, nil on plain Lua without it).
function M.platform()
  local os = love and love.system and OS[love.system.getOS()] or jit and OS[jit.os]
  return os, jit and ARCH[jit.arch]
end

local function u16(s, at, big)
  local a, b = s:byte(at, at + 1)
  if not b then return nil end
  return big and a * 256 + b or b * 256 + a
end

local function u32(s, at, big)
  local lo, hi = u16(s, at, big), u16(s, at + 2, big)
  if not (lo and hi) then return nil end
  return big and lo * 65536 + hi or hi * 65536 + lo
end

local ELF_MACHINES = { [0x3E] = "x86_64", [0xB7] = "arm64", [0x03] = "x86", [0x28] = "arm" }
local PE_MACHINES = { [0x8664] = "x86_64", [0xAA64] = "arm64", [0x14C] = "x86", [0x1C4] = "arm" }
local MACHO_CPUS = { [0x01000007] = "x86_64", [0x0100000C] = "arm64", [7] = "x86", [12] = "arm" }

-- What a library's bytes say of it: { os =, arch =, lua = } (lua: "5.4"
-- when it calls lua_newuserdatauv, a Lua 5.4 function LuaJIT lacks), or
-- nil and why not.
function M.header(bytes)
  local info
  if bytes:sub(1, 4) == "\127ELF" then
    local big = bytes:byte(6) == 2
    info = { os = "linux", arch = ELF_MACHINES[u16(bytes, 19, big)] or "an unknown CPU" }
  elseif bytes:sub(1, 2) == "MZ" then
    local pe = u32(bytes, 0x3D)
    if not pe or bytes:sub(pe + 1, pe + 4) ~= "PE\0\0" then return nil, "not a library (an MZ file without PE)" end
    info = { os = "windows", arch = PE_MACHINES[u16(bytes, pe + 5)] or "an unknown CPU" }
  elseif bytes:sub(1, 4) == "\207\250\237\254" then -- 0xfeedfacf, little-endian: 64-bit Mach-O
    info = { os = "macos", arch = MACHO_CPUS[u32(bytes, 5)] or "an unknown CPU" }
  elseif bytes:sub(1, 4) == "\202\254\186\190" then -- 0xcafebabe: a universal (fat) Mach-O
    info = { os = "macos", arch = "universal" }
  else
    return nil, "not a library (no ELF, PE or Mach-O header)"
  end
  info.lua = bytes:find("lua_newuserdatauv", 1, true) and "5.4" or "LuaJIT"
  return info
end

local OS_NAMES = { linux = "Linux", windows = "Windows", macos = "macOS" }

-- Why a library of `info` (M.header's) cannot load on `os` and `arch`
-- under this interpreter, or nil if nothing in its header says so.
function M.mismatch(info, os, arch)
  if info.os ~= os then
    return ("built for %s, this is %s"):format(OS_NAMES[info.os] or info.os, OS_NAMES[os] or tostring(os))
  end
  if info.arch ~= arch and info.arch ~= "universal" then
    return ("built for %s CPUs, this is %s"):format(info.arch, tostring(arch))
  end
  if info.lua == "5.4" and jit then
    return "a Lua 5.4 build (it calls lua_newuserdatauv), this is LuaJIT: use the LuaJIT build"
  end
  if info.lua ~= "5.4" and not jit then return "a LuaJIT build, this is " .. _VERSION end
end

local function read(path)
  local file = io.open(path, "rb")
  if not file then return nil end
  local bytes = file:read("*a")
  file:close()
  return bytes
end

-- Tries the file at `path`: the module, or nil and why not (nil, nil: no
-- file there). Its header is read first, so that a library of another
-- kind is never handed to the system's loader.
function M.try(path, os, arch)
  local bytes = read(path)
  if not bytes then return nil, nil end
  local info, problem = M.header(bytes)
  problem = problem or M.mismatch(info, os, arch)
  if problem then return nil, problem end
  local open, err = package.loadlib(path, "luaopen_map")
  if not open then return nil, "the system's loader refused it: " .. tostring(err) end
  local ok, module = pcall(open, "map")
  if not ok then return nil, "it loaded, but opening it failed: " .. tostring(module) end
  return module
end

-- The folders a shipped game has its module in, in order, each { dir =,
-- what = }: beside the .love or the fused executable, the game's folder
-- (unpacked), the save directory, the current directory. (Inside the .love
-- and package.cpath come after these, in load.)
function M.places()
  local fs = love.filesystem
  local list, seen = {}, {}
  local function add(dir, what)
    if dir and dir ~= "" and not seen[dir] then
      seen[dir] = true
      list[#list + 1] = { dir = dir, what = what }
    end
  end
  add(fs.getSourceBaseDirectory(), fs.isFused() and "beside the executable" or "beside the game")
  local source = fs.getSource()
  local main = source and io.open(source .. "/main.lua", "rb") -- a folder, not a .love
  if main then
    main:close()
    add(source, "the game's folder")
  end
  add(fs.getSaveDirectory(), "the save directory")
  add(fs.getWorkingDirectory(), "the current directory")
  return list
end

-- Copies `name` from inside the game (the .love or the fused executable)
-- to the save directory, where the system's loader can open it: its path,
-- or nil.
local function copied_out(name)
  local fs = love.filesystem
  local info = fs.getInfo and fs.getInfo(name, "file")
  if not info or fs.getRealDirectory(name) == fs.getSaveDirectory() then return nil end
  local bytes = fs.read(name)
  if not bytes or not fs.write(name, bytes) then return nil end
  return fs.getSaveDirectory() .. "/" .. name
end

-- The cpath's candidates for `map`, in order.
local function cpath_files()
  local list = {}
  for template in package.cpath:gmatch("[^;]+") do list[#list + 1] = (template:gsub("%?", "map")) end
  return list
end

-- Loads the module: returns it (also as package.loaded.map) and the file
-- it came from. Raises an error listing every place looked and why each
-- file found there did not load.
function M.load()
  if package.loaded.map then return package.loaded.map, "already loaded" end
  local os, arch = M.platform()
  local names = M.names(os or "unknown", arch or "unknown")
  local report = {}
  local function attempt(path, what)
    local module, why = M.try(path, os, arch)
    if module then
      package.loaded.map = module
      return module
    end
    if why then report[#report + 1] = ("  %s (%s): %s"):format(path, what, why) end
  end
  local looked = {}
  for _, place in ipairs(M.places()) do
    looked[#looked + 1] = ("  %s (%s)"):format(place.dir, place.what)
    for _, name in ipairs(names) do
      local module = attempt(place.dir .. "/" .. name, place.what)
      if module then return module, place.dir .. "/" .. name end
    end
  end
  looked[#looked + 1] = "  inside the game"
  for _, name in ipairs(names) do
    local path = copied_out(name)
    local module = path and attempt(path, "inside the game, copied to the save directory")
    if module then return module, path end
  end
  looked[#looked + 1] = "  package.cpath"
  for _, path in ipairs(cpath_files()) do
    local module = attempt(path, "package.cpath")
    if module then return module, path end
  end
  error(("map.love: the module did not load (%s, %s, %s). Looked for %s in:\n%s%s"):format(tostring(os),
    tostring(arch), jit and jit.version or _VERSION, table.concat(names, " and "), table.concat(looked, "\n"),
    #report > 0 and "\nFound, not loaded:\n" .. table.concat(report, "\n") or "\nNo such file in any of them."), 2)
end

return M
