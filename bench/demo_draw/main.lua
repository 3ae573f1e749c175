-- bench/demo_draw/: the LÖVE demo's view drawing one game state over and
-- over (the scripted game of seed 7 at turn TURN, each view), a view a
-- frame in turn, each frame's time from its draw's start to the next
-- frame's (its drawing, and LÖVE presenting it: on Xvfb's software
-- renderer the shader's pixels are computed then, not in the draw call),
-- and the draw call's own time (view.draw, as draw_mean_us times it);
-- and the parts the view makes a frame with, timed in a loop: lvl:frame's
-- bytes, image data from them, a texture's pixels replaced.
-- MAP_DEMO_OLD_VIEW names another view.lua to time beside it. Run by
-- `bench/demo_draw.sh still`; prints medians in µs.
-- luacheck: globals love
local root = love.filesystem.getSource() .. "/../.."
package.cpath = root .. "/build/lib/lua/5.1/?.so;" .. package.cpath
package.path = root .. "/examples/love/?.lua;" .. package.path

local TURN, FRAMES, LOOP = 150, 200, 1000

local Game = require "game"
local Script = require "script"
local view = require "view"

local game, views, parts, step, last = nil, {}, {}, 0, nil

local function median(list)
  table.sort(list)
  return list[math.floor((#list + 1) / 2)]
end

-- µs a call of f, the median of 5 loops of LOOP calls.
local function part(name, f)
  local times = {}
  for round = 1, 5 do
    local start = love.timer.getTime()
    for _ = 1, LOOP do f() end
    times[round] = (love.timer.getTime() - start) / LOOP
  end
  parts[#parts + 1] = ("%s %.1f"):format(name, median(times) * 1e6)
end

function love.load()
  game = Game.new { seed = 7 }
  local script = Script.new(game, { save_at = false })
  repeat script:update() until script.game.turns >= TURN
  game = script.game
  view.load()
  local old
  local path = os.getenv("MAP_DEMO_OLD_VIEW")
  if path and path ~= "" then
    old = assert(loadfile(path))()
    old.load()
  end
  for _, v in ipairs { "glyphs", "tiles" } do
    if old then views[#views + 1] = { name = "old view, " .. v, view = old, mode = v, times = {}, calls = {} } end
    views[#views + 1] = { name = "this view, " .. v, view = view, mode = v, times = {}, calls = {} }
  end
  -- The floor: a frame that only clears the window, then is presented.
  views[#views + 1] = { name = "a cleared window", view = { draw = function() love.graphics.clear(0, 0, 0) end },
    mode = "glyphs", times = {}, calls = {} }
  local lvl, cols, rows = game.level.lvl, view.cells()
  local cx, cy = view.camera(game)
  local options = { visible = game.visible, memory = game.level.seen, bytes = true }
  local s = lvl:frame(cx + 1, cy + 1, cols, rows, options)
  local data = love.image.newImageData(cols, rows, "rgba8", s)
  local image = love.graphics.newImage(data)
  part("lvl:frame bytes", function() lvl:frame(cx + 1, cy + 1, cols, rows, options) end)
  part("newImageData", function() love.image.newImageData(cols, rows, "rgba8", s) end)
  part("replacePixels", function() image:replacePixels(data) end)
end

-- Frame `step` draws view (step - 1) % #views + 1; the time to the next
-- frame's start is that view's.
function love.draw()
  local now = love.timer.getTime()
  if last then table.insert(views[(step - 1) % #views + 1].times, now - last) end
  step = step + 1
  if step > FRAMES * #views then
    local lines = {}
    for _, v in ipairs(views) do
      lines[#lines + 1] = ("%s %.0f (its draw call %.0f)"):format(v.name, median(v.times) * 1e6, median(v.calls) * 1e6)
    end
    print(("demo_draw still (%s, turn %d), µs a frame: %s; parts: %s"):format(game.level.algorithm, game.turns,
      table.concat(lines, ", "), table.concat(parts, ", ")))
    love.event.quit(0)
    return
  end
  local v = views[(step - 1) % #views + 1]
  game.view = v.mode
  last = love.timer.getTime()
  v.view.draw(game)
  table.insert(v.calls, love.timer.getTime() - last)
end
