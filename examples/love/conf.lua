-- LÖVE 11 settings for the demo: a 1024x768 window (the camera follows "@"
-- on levels larger than it), no audio.
-- luacheck: globals love

-- The scripted game (--script or MAP_DEMO_SCRIPT=1) does not wait for vsync.
local function scripted()
  local env = os.getenv("MAP_DEMO_SCRIPT")
  if env and env ~= "" and env ~= "0" then return true end
  for _, a in ipairs(arg or {}) do
    if a == "--script" then return true end
  end
  return false
end

function love.conf(t)
  t.identity = "map-demo"
  t.version = "11.4"
  t.window.title = "map: a roguelike demo"
  t.window.width = 1024
  t.window.height = 768
  t.window.vsync = scripted() and 0 or 1
  t.modules.audio = false
  t.modules.sound = false
  t.modules.joystick = false
  t.modules.physics = false
  t.modules.video = false
end
