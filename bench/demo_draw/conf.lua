-- LÖVE settings of bench/demo_draw/: the demo's window, no vsync.
-- luacheck: globals love
function love.conf(t)
  t.identity = "map-demo-draw-bench"
  t.window.width = 1024
  t.window.height = 768
  t.window.vsync = 0
  t.modules.audio = false
  t.modules.sound = false
end
