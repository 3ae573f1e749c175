-- LÖVE 11 settings for the demo. The window fits view.lua's grid: the map is
-- 71x33 cells of 14x20 pixels (odd sizes suit mazes), with 30 pixels of HUD above and 48 below.
-- luacheck: globals love

-- The scripted run (--script or MAP_DEMO_SCRIPT=1) does not wait for vsync.
local function scripted()
  if (os.getenv("MAP_DEMO_SCRIPT") or "") ~= "" and os.getenv("MAP_DEMO_SCRIPT") ~= "0" then return true end
  for _, a in ipairs(arg or {}) do
    if a == "--script" then return true end
  end
  return false
end

function love.conf(t)
  t.identity = "map-demo"
  t.version = "11.4"
  t.window.title = "map: a roguelike demo"
  t.window.width = 71 * 14
  t.window.height = 30 + 33 * 20 + 48
  t.window.vsync = scripted() and 0 or 1
  t.modules.audio = false
  t.modules.sound = false
  t.modules.joystick = false
  t.modules.physics = false
  t.modules.video = false
end
