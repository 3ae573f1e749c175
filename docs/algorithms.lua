-- The generators' reference in docs/generators.md, made from the module
-- itself: every algorithm of map.ALGORITHMS, its doc line, minimum size,
-- options (from map.describe) and a sample map, between two marker lines.
--
--   dofile("docs/algorithms.lua")  --> the text, the begin and end markers
--   lua5.4 docs/algorithms.lua docs/generators.md  -- rewrites the text there (`make readme`)
--
-- spec/readme_spec.lua checks that docs/generators.md holds exactly this text.
package.path = "lua/?.lua;" .. package.path -- map.args, from the repository's root
local map = require "map"
local allowed = require("map.args").allowed

local BEGIN = "<!-- algorithms: begin (made from the module by `make readme`) -->"
local END = "<!-- algorithms: end -->"

-- The sample shown for every algorithm: `lua main.lua 48 15 7 <name>`.
local SAMPLE = { width = 48, height = 15, seed = 7 }

local out = {}
local function say(line) out[#out + 1] = line end

for _, name in ipairs(map.ALGORITHMS) do
  local about = map.describe(name)
  say(("#### `%s`"):format(name))
  say("")
  say(("%s. Smallest map: %dx%d."):format(about.doc:gsub("^%l", string.upper), about.min_width, about.min_height))
  say("")
  say("| option | allowed | default | what it does |")
  say("| --- | --- | --- | --- |")
  for _, option in ipairs(about.options) do
    say(("| `%s` | %s | %s | %s |"):format(option.name, allowed(option), option.default_text, option.doc))
  end
  say("")
  local args = { width = SAMPLE.width, height = SAMPLE.height, seed = SAMPLE.seed, algorithm = name }
  say("```")
  say(("$ lua main.lua %d %d %d %s"):format(SAMPLE.width, SAMPLE.height, SAMPLE.seed, name))
  say(map.generate_text(args))
  say("```")
  say("")
end

local text = table.concat(out, "\n")

local path = ...
if path then
  local f = assert(io.open(path, "rb"))
  local readme = f:read("a")
  f:close()
  local from = assert(readme:find(BEGIN, 1, true), "no begin marker in " .. path) + #BEGIN - 1
  local to = assert(readme:find(END, from, true), "no end marker in " .. path)
  f = assert(io.open(path, "wb"))
  f:write(readme:sub(1, from), "\n", text, "\n", readme:sub(to))
  f:close()
end

return text, BEGIN, END
