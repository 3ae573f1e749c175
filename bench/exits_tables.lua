-- bench/exits_tables.lua: what the rooms' `exits` and `links` cost as Lua
-- tables, whoever builds them: the rooms of generate(60, 20, seed), seeds
-- 1..100, built in plain Lua from a flat array of their numbers (sized in
-- advance, as the module does) with and without their exits and links.
-- The difference is about the least any `generate` that returns them pays
-- per call on this interpreter, before working them out.
--
--   LUA_CPATH_5_4='build/lib/lua/5.4/?.so' lua5.4 bench/exits_tables.lua
--   LUA_CPATH='build/lib/lua/5.1/?.so'     luajit bench/exits_tables.lua

local here = (arg and arg[0] or ""):match("^(.*)/[^/]*$") or "."
package.path = here .. "/?.lua;" .. package.path

local map = require "map"
local M = require "measure"

local ok, new_tab = pcall(require, "table.new")
if not ok then new_tab = function() return {} end end

local SEEDS = 100
-- Each level's rooms as one flat array of numbers, as the LuaJIT route
-- gets them: per room x, y, w, h, #exits, x, y per exit, #links, links.
local levels, count, exits, links = {}, 0, 0, 0
for s = 1, SEEDS do
  local rooms, f = map.generate(60, 20, s).rooms, {}
  f[1] = #rooms
  for _, room in ipairs(rooms) do
    for _, v in ipairs { room.x, room.y, room.w, room.h, #room.exits } do f[#f + 1] = v end
    for _, e in ipairs(room.exits) do
      f[#f + 1] = e.x
      f[#f + 1] = e.y
    end
    f[#f + 1] = #room.links
    for _, l in ipairs(room.links) do f[#f + 1] = l end
    count, exits, links = count + 1, exits + #room.exits, links + #room.links
  end
  levels[s] = f
end

-- The rooms of f with only x, y, w, h (the numbers after them skipped).
local function rooms_alone(f)
  local n, i = f[1], 1
  local out = new_tab(n, 0)
  for r = 1, n do
    local t = new_tab(0, 4)
    t.x, t.y, t.w, t.h = f[i + 1], f[i + 2], f[i + 3], f[i + 4]
    i = i + 5 + 2 * f[i + 5]
    i = i + 1 + f[i + 1]
    out[r] = t
  end
  return #out
end

-- The rooms of f with their exits and links, as generate returns them.
local function rooms_with_exits(f)
  local n, i = f[1], 1
  local out = new_tab(n, 0)
  for r = 1, n do
    local t = new_tab(0, 6)
    t.x, t.y, t.w, t.h = f[i + 1], f[i + 2], f[i + 3], f[i + 4]
    local ne = f[i + 5]
    i = i + 5
    local e = new_tab(ne, 0)
    for k = 1, ne do e[k] = { x = f[i + 2 * k - 1], y = f[i + 2 * k] } end
    t.exits = e
    i = i + 2 * ne + 1
    local nl = f[i]
    local l = new_tab(nl, 0)
    for k = 1, nl do l[k] = f[i + k] end
    t.links = l
    i = i + nl
    out[r] = t
  end
  return #out
end

local r = M.measure({
  { name = "alone", fn = function(i) return rooms_alone(levels[(i - 1) % SEEDS + 1]) end },
  { name = "with", fn = function(i) return rooms_with_exits(levels[(i - 1) % SEEDS + 1]) end },
}, M.ROUNDS)

io.write(string.format("%s: per level (%.1f rooms, %.1f exits, %.1f links): rooms alone %.2f µs, "
  .. "with exits and links %.2f µs, difference %.2f µs\n", jit and "luajit" or "lua5.4",
  count / SEEDS, exits / SEEDS, links / SEEDS, r.alone, r.with, r.with - r.alone))
