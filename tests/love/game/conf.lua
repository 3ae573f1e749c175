-- luacheck: globals love
-- The loader's test game (tests/love/run.sh): no window, no sound, so that
-- LÖVE runs it without a display.
function love.conf(t)
  t.identity = "map-loader-test"
  t.window = nil
  t.modules.window = false
  t.modules.graphics = false
  t.modules.audio = false
  t.modules.sound = false
end
