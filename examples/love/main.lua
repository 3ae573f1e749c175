-- The demo's LÖVE callbacks, and nothing else: the rules are game.lua, the
-- drawing view.lua (with the tileset of tiles.lua), the scripted game
-- script.lua.
-- luacheck: globals love

-- `love examples/love` from a checkout finds the module built by `make`
-- (build/lib/lua/5.1/map.so, the LuaJIT flavour) before an installed one.
package.cpath = love.filesystem.getSource() .. "/../../build/lib/lua/5.1/?.so;" .. package.cpath

local TICK = 0.05                 -- seconds per auto-explore or travel turn
local SAVE = "game.save"          -- F5 saves the game here (in the save directory; map.save's bytes), F9 loads it
local OLD_SAVE = "save.lua"       -- where an older demo saved (Lua source), which this one does not load
local SHOT = "map-demo-%s.png"    -- a view's screenshot in the scripted game, in the save directory
local SCRIPT_SEED = 7             -- the scripted game's default seed

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

-- A sum of times, in all and by view.
local function stat()
  return { n = 0, seconds = 0, glyphs = { n = 0, seconds = 0 }, tiles = { n = 0, seconds = 0 } }
end

local function add(t, view_name, seconds)
  t.n, t.seconds = t.n + 1, t.seconds + seconds
  local by = t[view_name]
  by.n, by.seconds = by.n + 1, by.seconds + seconds
end

-- The scripted game's frames: each draw call's time (view.draw), and each
-- whole frame's (from its draw's start to the next's: the drawing
-- presented, and the next turn played).
local drawn = { draw = stat(), frame = stat() }
-- MAP_DEMO_OLD_VIEW, the path of another view.lua (an older one, for
-- bench/demo_draw.sh): the scripted game draws its frames with both views in
-- turn, one a frame, and times each (old_draw_mean_us beside draw_mean_us).
local old_view
local old_drawn = { draw = stat(), frame = stat() }
local last_frame  -- {times = drawn or old_drawn, view = its name, start = seconds}

-- The means of `times` (drawn, old_drawn) for the result line, in µs:
-- <prefix>draw_mean_us and <prefix>frame_mean_us, then by view.
local function means(times, prefix)
  local function us(t) return ("%d"):format(t.seconds / t.n * 1e6 + 0.5) end
  local line = ""
  for _, kind in ipairs { "draw", "frame" } do
    local t = times[kind]
    if t.n > 0 then
      line = line .. (" %s%s_mean_us=%s"):format(prefix, kind, us(t))
      for _, name in ipairs { "glyphs", "tiles" } do
        if t[name].n > 0 then line = line .. (" %s%s_%s_us=%s"):format(prefix, kind, name, us(t[name])) end
      end
    end
  end
  return line
end

-- The scripted game's end: a result line on stdout and in a file (the path
-- in MAP_DEMO_RESULT, else result.txt in the save directory), then quit
-- with 0 or 1.
local function finish(ok, line)
  local dir = love.filesystem.getSaveDirectory() .. "/"
  line = line .. means(drawn, "") .. means(old_drawn, "old_")
  local text = "map-demo: " .. line .. " screenshots=" .. dir .. SHOT:format("glyphs") .. "," .. dir
    .. SHOT:format("tiles")
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

-- A scripted game never waits on LÖVE's error screen (a missing module, a
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
  local size = option(args, "--size") or os.getenv("MAP_DEMO_SIZE") or ""
  local width, height = tostring(size):match("^(%d+)x(%d+)$")
  game = Game.new {
    seed = seed or (scripted and SCRIPT_SEED or math.random(1, 999999)),
    width = tonumber(width), height = tonumber(height),
    new_seed = not scripted and function() return math.random(1, 999999) end or nil,
    clock = love.timer.getTime,
  }
  view.load()
  love.keyboard.setKeyRepeat(true) -- a held key keeps walking
  if scripted then
    local old = os.getenv("MAP_DEMO_OLD_VIEW")
    if old and old ~= "" then
      old_view = assert(loadfile(old))()
      old_view.load()
    end
    for _, name in ipairs { "glyphs", "tiles" } do love.filesystem.remove(SHOT:format(name)) end
    -- Each turn's map calls are timed as well as the whole turn.
    script = Script.new(game, { map_time = Script.time_map(require "map", love.timer.getTime) })
  end
end

local function shots_written()
  for _, name in ipairs { "glyphs", "tiles" } do
    local info = love.filesystem.getInfo(SHOT:format(name))
    if not (info and info.size and info.size > 0) then return false end
  end
  return true
end

-- The scripted game: one turn per frame (a screenshot, when the script asks,
-- is written at the end of this frame's draw); then, once both screenshots
-- are on disk, the result.
local function scripted_update()
  if not result then
    local shot
    result, shot = script:update()
    game = script.game -- a new game once the script saved and loaded
    if shot then love.graphics.captureScreenshot(SHOT:format(shot)) end
    return
  end
  waited = waited + 1
  if not result.ok or shots_written() then
    finish(result.ok, result.line)
  elseif waited > 300 then
    finish(false, "FAIL the screenshots were not written")
  end
end

function love.update(dt)
  if script then return scripted_update() end
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

-- The scripted game times each frame's drawing (view.draw: the map, the
-- HUD and the log) and each whole frame, for its result line.
local function timed_draw(v, times)
  local start = love.timer.getTime()
  if last_frame then add(last_frame.times.frame, last_frame.view, start - last_frame.start) end
  last_frame = { times = times, view = game.view, start = start }
  v.draw(game)
  add(times.draw, game.view, love.timer.getTime() - start)
end

function love.draw()
  if not script then return view.draw(game) end
  if old_view and old_drawn.draw.n == drawn.draw.n then return timed_draw(old_view, old_drawn) end
  timed_draw(view, drawn)
end

-- F9: the game saved by F5, or why there is none.
local function load_game()
  local text = love.filesystem.read(SAVE)
  if not text then
    game:say(love.filesystem.getInfo(OLD_SAVE) and "Only an older demo's save (" .. OLD_SAVE .. "), which this one "
      .. "does not load: F5 saves anew." or "Nothing saved yet (F5 saves).")
    return
  end
  local ok, loaded = pcall(Game.load, text, { clock = game.clock, new_seed = game.new_seed })
  if ok then
    game = loaded
    game:say("Loaded.")
  else
    game:say("Not loaded: " .. tostring(loaded))
  end
end

function love.keypressed(key)
  if script then return end
  -- Shift+. is ">" on many layouts: text input takes it, not the rest key;
  -- "<" and ">" come from text input, whatever keys the layout types them with.
  if key == "<" or key == ">" or key == "." and love.keyboard.isDown("lshift", "rshift") then return end
  if key == "f5" then
    local ok, err = love.filesystem.write(SAVE, game:save())
    game:say(ok and "Saved." or "Not saved: " .. tostring(err))
    return
  elseif key == "f9" then
    return load_game()
  end
  if game:key(key) == "quit" then love.event.quit() end
end

function love.textinput(text)
  if not script and (text == ">" or text == "<") then game:key(text) end
end

-- A click on a remembered cell travels there over the cells seen.
function love.mousepressed(px, py, button)
  if script or button ~= 1 then return end
  local x, y = view.cell_at(game, px, py)
  if x then game:travel(x, y) end
end
