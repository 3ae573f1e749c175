-- luacheck: globals love
-- The loader's test game: loads the module through map.love (copied in
-- beside this file by tests/love/run.sh) and writes one line to the file
-- MAP_LOVE_RESULT names: "loaded <file> <a map's first row>", or
-- "refused <the loader's message>".
function love.load()
  local ok, map, file = pcall(function() return require("map.love").load() end)
  local line
  if ok then
    line = "loaded " .. file .. " " .. map.generate_text(8, 6, 1):match("^[^\n]*")
  else
    line = "refused " .. tostring(map)
  end
  local out = assert(io.open(assert(os.getenv("MAP_LOVE_RESULT")), "wb"))
  out:write(line, "\n")
  out:close()
  love.event.quit()
end
