-- map.stats (`map stats`, the seed catalogue) on Lua 5.4 and LuaJIT: the
-- golden catalogue of every algorithm, 80x50 seeds 1..100
-- (spec/golden_stats/), so that a change in any level shows as a diff; the
-- CLI's lines and CSV; its usage errors.
local map = require "map"
local support = require "spec.support"
local unpack = table.unpack or unpack

package.path = "lua/?.lua;" .. package.path
local stats = require "map.stats"

describe("map stats", function()
  for _, algorithm in ipairs(map.ALGORITHMS) do
    it("keeps the golden catalogue of " .. algorithm .. ", 80x50 seeds 1..100", function()
      local lines = {}
      stats.catalogue({ width = 80, height = 50, algorithm = algorithm }, 1, 100, false,
        function(s) lines[#lines + 1] = s end)
      local golden = support.read_file("spec/golden_stats/" .. algorithm .. "-80x50-1-100.jsonl")
      assert.are.equal(golden, table.concat(lines))
    end)
  end

  it("prints JSON lines, or CSV with a header, from the CLI", function()
    local out, err, code = support.cli("stats", "60", "20", "cave", "--seeds=1..2", "--csv")
    assert.are.same({ "", 0 }, { err, code })
    assert.are.equal("seed,regions,region_size,chokepoints,dead_ends,stairs,farthest,rooms,bridges,loops\n",
      out:match("^[^\n]*\n"))
    assert.are.equal(3, select(2, out:gsub("\n", "")))
    local json = support.cli("stats", "80", "50", "--seeds=1..1")
    assert.are.equal(support.read_file("spec/golden_stats/rooms-80x50-1-100.jsonl"):match("^[^\n]*\n"), json)
  end)

  it("refuses a missing or bad range with status 2", function()
    for _, range in ipairs { {}, { "--seeds=5" }, { "--seeds=3..1" }, { "--seeds=a..b" } } do
      local out, err, code = support.cli("stats", unpack(range))
      assert.are.same({ "", 2 }, { out, code }, table.concat(range, " "))
      assert.is_truthy(err:find("seeds", 1, true), err)
    end
  end)
end)
