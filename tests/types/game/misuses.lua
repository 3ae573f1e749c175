-- What types/map.d.lua must catch, as the module does: each line marked
-- `expect: <code>` must get that warning from the checker
-- (tests/types/check.sh) and an error from the module (spec/types_spec.lua);
-- no other line may get a warning.
local map = require "map"
local m = map.generate(60, 20, 1)
local _ = map.generate { width = 60, height = 20, dors = true } -- expect: param-type-mismatch
_ = map.generate { width = 60, height = 20, algorithm = "cave", doors = true } -- expect: param-type-mismatch
_ = map.generate { width = 61, height = 21, algorithm = "maze", loops = 2 } -- expect: param-type-mismatch
_ = map.path(m, m.player, m.stairs, { diagnol = true }) -- expect: param-type-mismatch
_ = map.fov(m, m.player, 8, { opaqe = "#" }) -- expect: param-type-mismatch
_ = map.generate { width = 60, height = 20, vaults = { { rows = { "#" }, rotat = 1 } } } -- expect: param-type-mismatch
local lvl = map.level(m)
local seen = lvl:field()
local fov = lvl:fov(m.player, 8, { int = seen }) -- expect: param-type-mismatch
local d = lvl:distances(m.player, { diagnol = true }) -- expect: param-type-mismatch
local route = lvl:path(m.player, m.stairs, { ocupied = true }) -- expect: param-type-mismatch
local x = lvl:step(lvl:distances(m.player), m.stairs, { avoid_ = {} }) -- expect: param-type-mismatch
local stats = lvl:analyze({ diagonals = true }) -- expect: param-type-mismatch
print(_, fov, d, route, x, stats)
