-- bench/worst_level.lua: the worst valid calls of a level in native memory
-- and of a field (map.level, map.load, map.field, every method of a level
-- and of a field) at the cell cap, on the shapes where each costs most (the
-- widest, the narrowest, the square): bench/worst_all.lua's entries for
-- them, which it runs. Among them: lvl:things() of a level whose every cell
-- is a thing, lvl:table(), lvl:render(), lvl:save(), lvl:steps(d, movers)
-- of 4,000,000 movers, lvl:can_step(far, -1, -1, options), d:table().
--
--   lua5.4 bench/worst_level.lua        (from the repository root)
--   luajit bench/worst_level.lua
local here = (arg and arg[0] or ""):match("^(.*)/[^/]*$") or "."
assert(loadfile(here .. "/worst_all.lua"))("^map%.level$,^map%.load$,^map%.field$,^level:,^field:")
