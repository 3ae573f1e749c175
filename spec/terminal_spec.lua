-- examples/terminal/explore.lua, the terminal example that draws with
-- lvl:frame: run on Lua 5.4 and LuaJIT, the same output on both, every
-- frame 24 rows of 80 characters with "@" in the middle; and its screen
-- module's text for a known frame.
local support = require "spec.support"
package.path = "examples/terminal/?.lua;" .. package.path
local screen = require "screen"

local RUN = {
  lua54 = "LUA_CPATH_5_4='build/lib/lua/5.4/?.so' lua5.4",
  luajit = "LUA_CPATH='build/lib/lua/5.1/?.so' luajit",
}

local function played(interpreter)
  return support.run(RUN[interpreter] .. " examples/terminal/explore.lua 7 --plain 2>&1")
end

describe("examples/terminal/explore.lua", function()
  it("plays the same game on Lua 5.4 and LuaJIT, each frame 80x24 around @", function()
    local a, b = played("lua54"), played("luajit")
    assert.are.equal(a, b)
    local lines = {}
    for line in a:gmatch("([^\n]*)\n") do lines[#lines + 1] = line end
    assert.truthy(lines[#lines]:match("^explored in %d+ turns$"), lines[#lines])
    local frames = 0
    local i = 1
    while i < #lines do
      assert.truthy(lines[i]:match("^turn %d+, @ at %d+,%d+$"), lines[i])
      for r = 1, 24 do assert.are.equal(80, #lines[i + r], "frame row " .. r) end
      assert.are.equal("@", lines[i + 13]:sub(41, 41))
      frames, i = frames + 1, i + 25
    end
    assert.is_true(frames >= 5)
  end)

  it("dims the remembered runs, leaves the visible and the unknown as they are", function()
    local text = screen.draw({ "#..@  ", ".#" }, { "112200", "21" })
    assert.are.equal("\27[2m#.\27[0m.@  \n.\27[2m#\27[0m\n", text)
    assert.are.equal("#..@  \n.#", screen.draw({ "#..@  ", ".#" }, { "112200", "21" }, false))
  end)
end)
