-- lua/main.lua, the command line, run under the interpreter that runs the
-- specs with the module it loaded (spec/support.lua's cli).
local map = require "map"
local support = require "spec.support"

local cli, from_text = support.cli, support.from_text
local unpack = table.unpack or unpack

describe("main.lua", function()
  it("prints the module's map for the same arguments", function()
    local cases = { { 60, 20, 42 }, { 80, 25, 1 }, { 6, 5, -3 }, { 80, 50, 666, "cave" }, { 5, 40, 2, "cave" } }
    for _, case in ipairs(cases) do
      local out, err, code = cli(unpack(case))
      assert.are.equal(0, code, err)
      assert.are.equal("", err)
      local m = map.generate { width = case[1], height = case[2], seed = case[3], algorithm = case[4] }
      assert.are.equal(map.render(m) .. "\n", out)
    end
  end)

  it("takes any algorithm's name", function()
    for i, algorithm in ipairs(map.ALGORITHMS) do
      for _, case in ipairs({ { 80, 50, 7 }, { 30, 12, -i } }) do
        local out, err, code = cli(case[1], case[2], case[3], algorithm)
        assert.are.equal(0, code, algorithm .. ": " .. err)
        assert.are.equal("", err)
        local m = map.generate { width = case[1], height = case[2], seed = case[3], algorithm = algorithm }
        assert.are.equal(map.render(m) .. "\n", out, algorithm)
      end
    end
  end)

  it("defaults to 60x20", function()
    local out, _, code = cli()
    assert.are.equal(0, code)
    assert.are.equal("\n", out:sub(-1))
    local m = from_text(out:sub(1, -2))
    assert.are.same({ 20, 60 }, { #m, #m[1] })
  end)

  it("exits 1 with a one-line usage error on bad arguments", function()
    local bad = { { "abc" }, { 60, 20, 1.5 }, { 4, 20, 1 }, { 60, 20, "9007199254740993" }, { 1, 2, 3, 4, 5 },
      { 60, 20, 1, "labyrinth" }, { 60, -20 } }
    for _, args in ipairs(bad) do
      local out, err, code = cli(unpack(args))
      assert.are.equal(1, code, table.concat(args, " "))
      assert.are.equal("", out)
      local usage = "usage: lua main%.lua %[width%] %[height%] %[seed%] %[" .. table.concat(map.ALGORITHMS, "|") .. "%]"
      assert.matches("^main%.lua: [^\n]+" .. usage .. "[^\n]*\n$", err)
    end
  end)
end)
