-- lua/map/love.lua (map.love) outside LÖVE: the files' names, what their
-- headers say (both builds of `make`, a patched ELF, PE and Mach-O
-- headers made here), the reasons for refusing, and a load by path.
-- tests/love/run.sh runs it under LÖVE in the eight places of docs/love.md.
local support = require "spec.support"

local ROOT = support.run("pwd"):gsub("\n$", "")
package.path = ROOT .. "/lua/?.lua;" .. package.path
local loader = require "map.love"

local LUAJIT_SO, LUA54_SO = "build/lib/lua/5.1/map.so", "build/lib/lua/5.4/map.so"

-- `bytes` with `patch` written at offset `at` (0-based, as in the formats' specs).
local function patched(bytes, at, patch)
  return bytes:sub(1, at) .. patch .. bytes:sub(at + #patch + 1)
end

describe("map.love", function()
  it("names the files by OS and CPU, the particular name first", function()
    assert.are.same({ "map-linux-x86_64.so", "map.so" }, loader.names("linux", "x86_64"))
    assert.are.same({ "map-windows-x86_64.dll", "map.dll" }, loader.names("windows", "x86_64"))
    assert.are.same({ "map-macos-arm64.so", "map.so" }, loader.names("macos", "arm64"))
  end)

  it("reads both builds' ELF headers: Linux, x86-64, and which interpreter", function()
    assert.are.same({ os = "linux", arch = "x86_64", lua = "LuaJIT" }, loader.header(support.read_file(LUAJIT_SO)))
    assert.are.same({ os = "linux", arch = "x86_64", lua = "5.4" }, loader.header(support.read_file(LUA54_SO)))
    local arm = patched(support.read_file(LUAJIT_SO), 18, "\183\0")
    assert.are.equal("arm64", loader.header(arm).arch)
  end)

  it("reads PE and Mach-O headers", function()
    local pe = "MZ" .. ("\0"):rep(0x3A) .. "\128\0\0\0" .. ("\0"):rep(0x40) .. "PE\0\0\100\134" .. ("\0"):rep(20)
    assert.are.same({ os = "windows", arch = "x86_64", lua = "LuaJIT" }, loader.header(pe))
    assert.are.equal("arm64", loader.header(patched(pe, 0x84, "\100\170")).arch)
    local macho = "\207\250\237\254\12\0\0\1" .. ("\0"):rep(24) .. "lua_newuserdatauv"
    assert.are.same({ os = "macos", arch = "arm64", lua = "5.4" }, loader.header(macho))
    assert.are.equal("universal", loader.header("\202\254\186\190" .. ("\0"):rep(28)).arch)
  end)

  it("refuses what is no library, with the reason", function()
    assert.are.same({ nil, "not a library (no ELF, PE or Mach-O header)" }, { loader.header("map = {}\n") })
    assert.are.same({ nil, "not a library (no ELF, PE or Mach-O header)" }, { loader.header("") })
    assert.are.same({ nil, "not a library (an MZ file without PE)" }, { loader.header("MZ") })
    assert.are.equal("an unknown CPU", loader.header("\127ELF\2\1" .. ("\0"):rep(12) .. "\1\1").arch)
  end)

  it("says why a library cannot load here: OS, CPU, interpreter", function()
    local mine = { os = "linux", arch = "x86_64", lua = jit and "LuaJIT" or "5.4" }
    assert.is_nil(loader.mismatch(mine, "linux", "x86_64"))
    assert.are.equal("built for Windows, this is Linux",
      loader.mismatch({ os = "windows", arch = "x86_64", lua = mine.lua }, "linux", "x86_64"))
    assert.are.equal("built for arm64 CPUs, this is x86_64",
      loader.mismatch({ os = "linux", arch = "arm64", lua = mine.lua }, "linux", "x86_64"))
    assert.is_nil(loader.mismatch({ os = "macos", arch = "universal", lua = mine.lua }, "macos", "arm64"))
    local other = { os = "linux", arch = "x86_64", lua = jit and "5.4" or "LuaJIT" }
    assert.are.equal(jit and "a Lua 5.4 build (it calls lua_newuserdatauv), this is LuaJIT: use the LuaJIT build"
      or "a LuaJIT build, this is Lua 5.4", loader.mismatch(other, "linux", "x86_64"))
  end)

  it("loads this interpreter's build by path, and refuses the other's before the system's loader sees it", function()
    local mine, other = LUAJIT_SO, LUA54_SO
    if not jit then mine, other = other, mine end
    local module = assert(loader.try(mine, "linux", "x86_64"))
    assert.are.equal(require("map").generate_text(8, 6, 1), module.generate_text(8, 6, 1))
    local refused, why = loader.try(other, "linux", "x86_64")
    assert.is_nil(refused)
    assert.truthy(why:find(jit and "a Lua 5.4 build" or "a LuaJIT build", 1, true), why)
    assert.are.same({ nil, nil }, { loader.try("/nonexistent/map.so", "linux", "x86_64") })
    assert.are.same({ nil, "not a library (no ELF, PE or Mach-O header)" },
      { loader.try(ROOT .. "/lua/map/love.lua", "linux", "x86_64") })
  end)
end)
