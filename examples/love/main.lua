-- The demo's LÖVE callbacks, and nothing else: the rules are game.lua, the
-- drawing view.lua, the scripted run script.lua.
-- luacheck: globals love

-- `love examples/love` from a checkout finds the module built by `make`
-- (build/lib/lua/5.1/map.so, the LuaJIT flavour) before an installed one.
package.cpath = love.filesystem.getSource() .. "/../../build/lib/lua/5.1/?.so;" .. package.cpath

local TICK = 0.06                        -- seconds per auto-walk step
local SHOT = "map-demo-script.png"       -- the scripted run's screenshot, in the save directory
local SCRIPT_SEED = 236                  -- the scripted run's default: its walks pick up $ and !

local function option(args, name)
  for i, a in ipairs(args) do
    if a == name then return args[i + 1] or true end
  end
end

-- `--script` on the command line, or MAP_DEMO_SCRIPT set (and not "0").
local function is_scripted(args)
  local env = os.getenv("MAP_DEMO_SCRIPT")
  return option(args, "--script") ~= nil or (env ~= nil and env ~= "" and env ~= "0")
end

-- The scripted run's end: a result line on stdout and in a file (the path in
-- MAP_DEMO_RESULT, else result.txt in the save directory), then quit with 0
-- or 1.
local function finish(ok, line)
  local shot = love.filesystem.getSaveDirectory() .. "/" .. SHOT
  local text = "map-demo: " .. line .. " screenshot=" .. shot
  print(text)
  io.stdout:flush()
  local path = os.getenv("MAP_DEMO_RESULT")
  if path and path ~= "" then
    local f = assert(io.open(path, "w"))
    f:write(text, "\n")
    f:close()
  else
    love.filesystem.write("result.txt", text .. "\n")
  end
  love.event.quit(ok and 0 or 1)
end

-- A scripted run never waits on LÖVE's error screen (a missing module, a
-- failed check that raised): it fails with exit code 1.
if is_scripted(arg or {}) then
  love.errorhandler = function(message)
    finish(false, "FAIL error: " .. tostring(message):gsub("\n", " "))
    return function() return 1 end
  end
end

local Game = require "game"
local Script = require "script"
local view = require "view"

local game, script, result
local clock, waited = 0, 0

function love.load(args)
  math.randomseed(os.time())
  local scripted = is_scripted(args)
  local seed = tonumber(option(args, "--seed") or os.getenv("MAP_DEMO_SEED") or "")
  local algorithm = option(args, "--algorithm")
  game = Game.new {
    seed = seed or (scripted and SCRIPT_SEED or math.random(1, 999999)),
    algorithm = type(algorithm) == "string" and algorithm or nil,
  }
  view.load()
  love.keyboard.setKeyRepeat(true) -- a held key keeps walking
  if scripted then
    love.filesystem.remove(SHOT)
    script = Script.new(game)
  end
end

function love.update(dt)
  if script then
    -- One scripted action per frame; then the screenshot (written at the end
    -- of this frame's draw) and, once it is on disk, the result.
    if not result then
      result = script:update()
      if result then love.graphics.captureScreenshot(SHOT) end
    else
      waited = waited + 1
      local info = love.filesystem.getInfo(SHOT)
      if info and info.size and info.size > 0 then
        finish(result.ok, result.line)
      elseif waited > 300 then
        finish(false, "FAIL no screenshot written")
      end
    end
    return
  end
  if game.auto then
    clock = clock + dt
    while game.auto and clock >= TICK do
      clock = clock - TICK
      game:tick()
    end
  else
    clock = 0
  end
end

function love.draw()
  view.draw(game)
end

function love.keypressed(key)
  if script then return end
  local shift = love.keyboard.isDown("lshift", "rshift")
  if game:key(key, shift) == "quit" then love.event.quit() end
end

function love.textinput(text)
  if not script and text == ">" then game:key(">") end
end
