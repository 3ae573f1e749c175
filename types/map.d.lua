---@meta map

-- Type definitions of `require "map"` for lua-language-server and EmmyLua
-- (docs/api.md is the reference). spec/types_spec.lua checks them against
-- the module: its exports, each algorithm's options (map.describe, with the
-- same descriptions), the level's fields and the options of each function.
-- Every function raises a plain string error "map.<fn>: <problem>" on bad
-- arguments; a bug inside the module is "map.<fn>: internal error (please
-- report): ...", never a crash.
--
-- Options tables are `(exact)` classes, and each function takes its class's
-- `.Exact` alias, `T & table<keyof T, any>`: EmmyLua then flags a key the
-- class does not declare (`dors`, `diagnol`, `doors = true` on a cave), as
-- the module refuses it (emmylua_check 0.25.1 does not flag the keys of a
-- table constructor from `(exact)` alone). lua-language-server has no `&`
-- or `keyof`; docs/api.md#editors says what was and was not tested.

---A map: rows `1..height` of cells `1..width`, each a one-character string
---(`m[y][x]`). Any such table works, hand-built or edited; it must be
---rectangular, each cell one byte, at most `map.MAX_CELLS` cells.
---@alias map.Map string[][]

---A cell: column `x` and row `y`, 1-based on a map (`m[y][x]`). Wherever a
---function takes a cell as `x, y`, it takes one position table in their
---place too, read raw (other fields ignored), and the arguments after it move
---up by one.
---@class map.Position
---@field x integer column, 1 to width on a map
---@field y integer row, 1 to height on a map

---A source of `map.distances` or `map.flee`: a cell, and the distance it
---starts at.
---@class map.Source: map.Position
---@field value? integer its start value, |value| <= 2^52 (default 0)

---A room: its top-left cell and its size (a generator's rectangle of floor,
---or a vault's rectangle).
---@class map.Room
---@field x integer the top-left cell's column
---@field y integer the top-left cell's row
---@field w integer width in cells
---@field h integer height in cells
---@field exits map.Position[] the walkable cells just outside its sides (doors included), in row order
---@field links integer[] the rooms (indices into `rooms`) an exit leads to without entering a third, ascending

---A vault the level holds: which template, where, turned how.
---@class map.Vault
---@field index integer the template's index in the `vaults` option
---@field x integer the top-left cell's column
---@field y integer the top-left cell's row
---@field w integer width in cells, as placed
---@field h integer height in cells, as placed
---@field rotation integer 0 to 3: quarter turns clockwise; 4 to 7: mirrored left to right first

---A cell `place` put a character on.
---@class map.Placed: map.Position
---@field char string the character placed

---A cell with the character of a door or key (`locks`).
---@class map.LockCell: map.Position
---@field char string the door's letter (`"A"` ...) or the key's (`"a"` ...)

---A locked door and the key that opens it (`locks`).
---@class map.Lock
---@field door map.LockCell the door, on a chokepoint
---@field key map.LockCell its key, on `@`'s side of the door, reached with the keys of the doors before it

---An item on the floor.
---@class map.Item: map.Position
---@field kind "$"|"!" its character on the map

---What `map.generate` returns: the map's rows (`level[y][x]`) and what is on it.
---@class map.Level
---@field [integer] string[] row `y`: its cells, each a one-character string
---@field width integer the size
---@field height integer the size
---@field seed integer the seed used (the one given, or the fresh one chosen)
---@field algorithm map.Algorithm the generator that made it
---@field rooms map.Room[] the rooms (`rooms` and `bsp`; none for the others), then each vault placed
---@field doors map.Position[] the `+` cells in row order (empty unless `doors = true`)
---@field player map.Position where `@` is
---@field stairs map.Position where `>` is
---@field items map.Item[] the `$` and `!` cells
---@field vaults map.Vault[] the vaults placed (the `vaults` option), in order
---@field placed map.Placed[] the cells the `place` option put characters on
---@field up? map.Position with `arrive`: where `@` came down, an up staircase under it
---@field locks? map.Lock[] with `locks`: the doors and their keys, in the order the doors open (fewer than asked when the level has too few chokepoints)
---@field blocked? string the characters that block walking where `#` alone does not: the overworld's `"#~^"`; every walking function takes it as its `blocked` default

---The arguments every algorithm takes (`map.generate{...}`); each algorithm's
---class below adds its own options. Unknown options, and options of another
---algorithm, are errors.
---@class (exact) map.Options
---@field width integer integer >= the algorithm's smallest width, width * height <= map.MAX_CELLS
---@field height integer integer >= the algorithm's smallest height
---@field seed? integer integer with |seed| <= 2^53; default: a fresh one (in the level's `seed`)
---@field algorithm? map.Algorithm default "rooms"
---@field vaults? map.VaultTemplate.Exact[] hand-drawn templates stamped onto the level, each joined to it by tunnels
---@field arrive? map.Position where `@` comes down from the level above (inside the border); the level's `up`
---@field place? map.PlaceEntry.Exact[] a game's own characters, on free floor cells
---@field rng? map.Rng a random source to draw the seed from (one draw, `r:random(2^53) - 1`), in place of `seed`

---A vault's template (`vaults = {...}`): rows of printable ASCII, `#` wall,
---`.` floor, `+` door, a space keeps what the generator carved, any other
---character placed as it is and walkable. Errors name it `vaults[n]`.
---@class (exact) map.VaultTemplate
---@field rows string[] its rows, of one length
---@field count? integer integer from 1 to 100, default 1: copies placed
---@field rotate? boolean default false: each copy turned or mirrored at random
---@field required? boolean default true: too little room for a copy is an error (false: fewer copies)

---@alias map.VaultTemplate.Exact map.VaultTemplate & table<keyof map.VaultTemplate, any>

---What `place = {...}` puts: `count` cells (or `per_room` in each room) of
---`char` (or of `choose`'s characters, drawn by weight) on free floor cells.
---Errors name it `place[n]`.
---@class (exact) map.PlaceEntry
---@field char? string one printable ASCII character but # . @ > + and space (or `choose`)
---@field count? integer integer from 0 to 10000, default 1 (or `per_room`)
---@field min? integer integer from 0 to 4000000, default 0: the least walking distance from `@`
---@field hidden? boolean default false: only cells out of `@`'s sight
---@field per_room? integer[] `{least, most}`, each from 0 to 10000: a count drawn in each of the generator's rooms (`rooms`, `bsp`), in place of `count`
---@field choose? (string|integer)[][] 1 to 100 `{char, weight}`, weights from 0 to 1000000 (one positive): each cell's character drawn by weight, in place of `char`

---@alias map.PlaceEntry.Exact map.PlaceEntry & table<keyof map.PlaceEntry, any>

-- algorithms: begin (made from the module by `make readme`)
---A generator's name, one of `map.ALGORITHMS`.
---@alias map.Algorithm "rooms"|"cave"|"bsp"|"cellular"|"drunkard"|"maze"|"overworld"|"example"

---@class (exact) map.RoomsOptions: map.Options
---@field algorithm? "rooms"
---@field rooms? integer integer from 1 to 10000, default 10: rooms wanted; fewer when they do not fit
---@field doors? boolean boolean, default false: put + where a corridor enters a room's wall, no two doors touching
---@field loops? integer integer from 0 to 1000, default 0: extra corridors, each from a random room to the nearest room not linked to it
---@field locks? integer integer from 0 to 26, default 0: locked doors A, B, ... on chokepoints, key a, b, ... of each on @'s side of it; fewer when the level has too few chokepoints
---@field room_min_width? integer integer from 2 to 50, default 4: the narrowest room's floor width (at most room_max_width)
---@field room_max_width? integer integer from 2 to 50, default 10: the widest room's floor width; narrower on a map too narrow for it
---@field room_min_height? integer integer from 2 to 50, default 3: the lowest room's floor height (at most room_max_height)
---@field room_max_height? integer integer from 2 to 50, default 6: the tallest room's floor height; lower on a map too low for it
---@field items? integer integer from 0 to 10000, default 5: items ($ or !) on distinct floor cells; more than the free floor is an error
---@field braid? 0 only 0 here: it asks for nothing (an option of maze)
---@field wraps? false only false here: it asks for nothing (an option of example)

---@alias map.RoomsOptions.Exact map.RoomsOptions & table<keyof map.RoomsOptions, any>

---@class (exact) map.CaveOptions: map.Options
---@field algorithm "cave"
---@field fill? number number in (0, 1], default 0.5: the fraction of the interior to carve
---@field max_frontier? integer integer from 1 to 4000000, default min(width, height): the frontier's soft cap: low values make narrow passages
---@field locks? integer integer from 0 to 26, default 0: locked doors A, B, ... on chokepoints, key a, b, ... of each on @'s side of it; fewer when the level has too few chokepoints
---@field items? integer integer from 0 to 10000, default 5: items ($ or !) on distinct floor cells; more than the free floor is an error
---@field doors? false only false here: it asks for nothing (an option of rooms and bsp)
---@field loops? 0 only 0 here: it asks for nothing (an option of rooms and bsp)
---@field braid? 0 only 0 here: it asks for nothing (an option of maze)
---@field wraps? false only false here: it asks for nothing (an option of example)

---@alias map.CaveOptions.Exact map.CaveOptions & table<keyof map.CaveOptions, any>

---@class (exact) map.BspOptions: map.Options
---@field algorithm "bsp"
---@field depth? integer integer from 0 to 13, default 5: levels of splitting: at most 2^depth rooms
---@field min_size? integer integer from 3 to 4000000, default 7: the fewest cells across a part, its wall included; rooms are at least min_size - 1 across where the map allows
---@field max_ratio? number number in [1, 100], default 1.5: a part longer than max_ratio times its breadth is always split across
---@field doors? boolean boolean, default false: put + where a corridor enters a room's wall, no two doors touching
---@field loops? integer integer from 0 to 1000, default 0: extra corridors, each from a random room to the nearest room not linked to it
---@field locks? integer integer from 0 to 26, default 0: locked doors A, B, ... on chokepoints, key a, b, ... of each on @'s side of it; fewer when the level has too few chokepoints
---@field items? integer integer from 0 to 10000, default 5: items ($ or !) on distinct floor cells; more than the free floor is an error
---@field braid? 0 only 0 here: it asks for nothing (an option of maze)
---@field wraps? false only false here: it asks for nothing (an option of example)

---@alias map.BspOptions.Exact map.BspOptions & table<keyof map.BspOptions, any>

---@class (exact) map.CellularOptions: map.Options
---@field algorithm "cellular"
---@field probability? number number in [0, 1], default 0.45: chance that an interior cell starts as wall, before smoothing
---@field generations? integer integer from 0 to 20, default 4: smoothing passes of the 4-5 rule (most caves stop changing within 10)
---@field locks? integer integer from 0 to 26, default 0: locked doors A, B, ... on chokepoints, key a, b, ... of each on @'s side of it; fewer when the level has too few chokepoints
---@field items? integer integer from 0 to 10000, default 5: items ($ or !) on distinct floor cells; more than the free floor is an error
---@field doors? false only false here: it asks for nothing (an option of rooms and bsp)
---@field loops? 0 only 0 here: it asks for nothing (an option of rooms and bsp)
---@field braid? 0 only 0 here: it asks for nothing (an option of maze)
---@field wraps? false only false here: it asks for nothing (an option of example)

---@alias map.CellularOptions.Exact map.CellularOptions & table<keyof map.CellularOptions, any>

---@class (exact) map.DrunkardOptions: map.Options
---@field algorithm "drunkard"
---@field fill? number number in (0, 1], default 0.4: the fraction of the interior to carve
---@field lifetime? integer integer from 1 to 1000, default 400: steps each walker takes at most: short gives blobs, long gives winding tunnels
---@field locks? integer integer from 0 to 26, default 0: locked doors A, B, ... on chokepoints, key a, b, ... of each on @'s side of it; fewer when the level has too few chokepoints
---@field items? integer integer from 0 to 10000, default 5: items ($ or !) on distinct floor cells; more than the free floor is an error
---@field doors? false only false here: it asks for nothing (an option of rooms and bsp)
---@field loops? 0 only 0 here: it asks for nothing (an option of rooms and bsp)
---@field braid? 0 only 0 here: it asks for nothing (an option of maze)
---@field wraps? false only false here: it asks for nothing (an option of example)

---@alias map.DrunkardOptions.Exact map.DrunkardOptions & table<keyof map.DrunkardOptions, any>

---@class (exact) map.MazeOptions: map.Options
---@field algorithm "maze"
---@field braid? number number in [0, 1], default 0: fraction of dead ends opened into loops (0: a perfect maze, 1: none left)
---@field locks? integer integer from 0 to 26, default 0: locked doors A, B, ... on chokepoints, key a, b, ... of each on @'s side of it; fewer when the level has too few chokepoints
---@field items? integer integer from 0 to 10000, default 5: items ($ or !) on distinct floor cells; more than the free floor is an error
---@field doors? false only false here: it asks for nothing (an option of rooms and bsp)
---@field loops? 0 only 0 here: it asks for nothing (an option of rooms and bsp)
---@field wraps? false only false here: it asks for nothing (an option of example)

---@alias map.MazeOptions.Exact map.MazeOptions & table<keyof map.MazeOptions, any>

---@class (exact) map.OverworldOptions: map.Options
---@field algorithm "overworld"
---@field scale? number number in [1, 1000000], default 32: the size of the largest features, in cells (the noise's frequency is 1 / scale)
---@field octaves? integer integer from 1 to 8, default 4: octaves of the height noise: each adds detail at half the size
---@field water? number number in [0, 0.9], default 0.3: the fraction of the cells under water (the border is water whatever it is)
---@field mountains? number number in [0, 0.9], default 0.15: the fraction of the land (the cells above water) over the snow line
---@field forest? number number in [0, 1], default 0.4: the fraction of the land under forest, where the moisture noise is highest
---@field items? integer integer from 0 to 10000, default 5: items ($ or !) on distinct floor cells; more than the free floor is an error
---@field doors? false only false here: it asks for nothing (an option of rooms and bsp)
---@field loops? 0 only 0 here: it asks for nothing (an option of rooms and bsp)
---@field locks? 0 only 0 here: it asks for nothing (an option of rooms and cave and bsp and cellular and drunkard and maze)
---@field braid? 0 only 0 here: it asks for nothing (an option of maze)
---@field wraps? false only false here: it asks for nothing (an option of example)
---@field vaults? nil not here: vaults applies only to levels carved from rock
---@field arrive? nil not here: arrive applies only to levels carved from rock

---@alias map.OverworldOptions.Exact map.OverworldOptions & table<keyof map.OverworldOptions, any>

---@class (exact) map.ExampleOptions: map.Options
---@field algorithm "example"
---@field sample? string|string[] string of at most 4160 bytes, or an array of its rows, default "caves": the example: a built-in sample's name (caves, caverns, rooms, dungeon, overworld, maze) or map text, rows of equal length
---@field n? integer integer from 2 to 4, default 3: the windows' size: each n x n window of the level is one of the sample's
---@field symmetry? string string of at most 16 bytes, default "all": the sample's symmetries that count: none, rotations, or all (rotations and reflections)
---@field wraps? boolean boolean, default false: whether the sample's windows wrap round its edges (the level's never do)
---@field blocking? string string of at most 95 bytes, default "": the sample's characters that block walking, the level's blocked (empty: a built-in sample's own, else #)
---@field fixed? string|string[] string of at most 4160 bytes, or an array of its rows, default "": rows the level keeps exactly, placed at fixed_x, fixed_y (? a free cell)
---@field fixed_x? integer integer from 1 to 1048576, default 1: the column of fixed's first character
---@field fixed_y? integer integer from 1 to 1048576, default 1: the row of fixed's first row
---@field items? integer integer from 0 to 10000, default 5: items ($ or !) on distinct floor cells; more than the free floor is an error
---@field doors? false only false here: it asks for nothing (an option of rooms and bsp)
---@field loops? 0 only 0 here: it asks for nothing (an option of rooms and bsp)
---@field locks? 0 only 0 here: it asks for nothing (an option of rooms and cave and bsp and cellular and drunkard and maze)
---@field braid? 0 only 0 here: it asks for nothing (an option of maze)
---@field vaults? nil not here: vaults applies only to levels carved from rock
---@field arrive? nil not here: arrive applies only to levels carved from rock

---@alias map.ExampleOptions.Exact map.ExampleOptions & table<keyof map.ExampleOptions, any>

---Options for any algorithm (`algorithm = ALGORITHMS[depth]`): what every algorithm
---takes, and the others' options only at the value that asks for nothing.
---@class (exact) map.AnyOptions: map.Options
---@field algorithm? map.Algorithm
---@field items? integer integer from 0 to 10000, default 5: items ($ or !) on distinct floor cells; more than the free floor is an error
---@field doors? false only false: it asks for nothing
---@field loops? 0 only 0: it asks for nothing
---@field locks? 0 only 0: it asks for nothing
---@field braid? 0 only 0: it asks for nothing
---@field wraps? false only false: it asks for nothing

---@alias map.AnyOptions.Exact map.AnyOptions & table<keyof map.AnyOptions, any>

---`map.generate`'s table form: the options of one algorithm, and no other key.
---@alias map.GenerateOptions map.RoomsOptions.Exact|map.CaveOptions.Exact|map.BspOptions.Exact|map.CellularOptions.Exact|map.DrunkardOptions.Exact|map.MazeOptions.Exact|map.OverworldOptions.Exact|map.ExampleOptions.Exact|map.AnyOptions.Exact

---@class (exact) map.RoomsLevelOptions: map.RoomsOptions
---@field things? string characters moved out of the terrain into `lvl:things()` besides `@`, `$`, `!` and `place`'s

---@alias map.RoomsLevelOptions.Exact map.RoomsLevelOptions & table<keyof map.RoomsLevelOptions, any>

---@class (exact) map.CaveLevelOptions: map.CaveOptions
---@field things? string characters moved out of the terrain into `lvl:things()` besides `@`, `$`, `!` and `place`'s

---@alias map.CaveLevelOptions.Exact map.CaveLevelOptions & table<keyof map.CaveLevelOptions, any>

---@class (exact) map.BspLevelOptions: map.BspOptions
---@field things? string characters moved out of the terrain into `lvl:things()` besides `@`, `$`, `!` and `place`'s

---@alias map.BspLevelOptions.Exact map.BspLevelOptions & table<keyof map.BspLevelOptions, any>

---@class (exact) map.CellularLevelOptions: map.CellularOptions
---@field things? string characters moved out of the terrain into `lvl:things()` besides `@`, `$`, `!` and `place`'s

---@alias map.CellularLevelOptions.Exact map.CellularLevelOptions & table<keyof map.CellularLevelOptions, any>

---@class (exact) map.DrunkardLevelOptions: map.DrunkardOptions
---@field things? string characters moved out of the terrain into `lvl:things()` besides `@`, `$`, `!` and `place`'s

---@alias map.DrunkardLevelOptions.Exact map.DrunkardLevelOptions & table<keyof map.DrunkardLevelOptions, any>

---@class (exact) map.MazeLevelOptions: map.MazeOptions
---@field things? string characters moved out of the terrain into `lvl:things()` besides `@`, `$`, `!` and `place`'s

---@alias map.MazeLevelOptions.Exact map.MazeLevelOptions & table<keyof map.MazeLevelOptions, any>

---@class (exact) map.OverworldLevelOptions: map.OverworldOptions
---@field things? string characters moved out of the terrain into `lvl:things()` besides `@`, `$`, `!` and `place`'s

---@alias map.OverworldLevelOptions.Exact map.OverworldLevelOptions & table<keyof map.OverworldLevelOptions, any>

---@class (exact) map.ExampleLevelOptions: map.ExampleOptions
---@field things? string characters moved out of the terrain into `lvl:things()` besides `@`, `$`, `!` and `place`'s

---@alias map.ExampleLevelOptions.Exact map.ExampleLevelOptions & table<keyof map.ExampleLevelOptions, any>

---@class (exact) map.AnyLevelOptions: map.AnyOptions
---@field things? string characters moved out of the terrain into `lvl:things()` besides `@`, `$`, `!` and `place`'s

---@alias map.AnyLevelOptions.Exact map.AnyLevelOptions & table<keyof map.AnyLevelOptions, any>

---`map.level{...}`'s table form: `map.generate`'s, and `things`.
---@alias map.LevelGenerateOptions map.RoomsLevelOptions.Exact|map.CaveLevelOptions.Exact|map.BspLevelOptions.Exact|map.CellularLevelOptions.Exact|map.DrunkardLevelOptions.Exact|map.MazeLevelOptions.Exact|map.OverworldLevelOptions.Exact|map.ExampleLevelOptions.Exact|map.AnyLevelOptions.Exact
-- algorithms: end

---One option of an algorithm, as `map.describe` lists it.
---@class map.OptionDescription
---@field name string the option's name in `map.generate{...}`
---@field type "integer"|"number"|"boolean"|"string"
---@field min? number the smallest value (integers and numbers)
---@field max? number the largest value (integers and numbers), the most bytes (strings)
---@field open_min? boolean numbers: whether `min` itself is excluded
---@field rows? boolean strings: true where the option also takes an array of strings, its rows (joined with newlines within `max` bytes)
---@field default? number|boolean|string nil where the default depends on the map
---@field default_text string the default in words (`"min(width, height)"`)
---@field doc string what it does

---An option every algorithm takes as a table, as `map.describe` lists it.
---@class map.DesignDescription
---@field name "vaults"|"arrive"|"place"
---@field type "table"
---@field shape string what it must be (`"a position {x=, y=}"`)
---@field doc string what it does

---An algorithm, as `map.describe` describes it.
---@class map.Description
---@field name map.Algorithm
---@field doc string one line: what it makes
---@field min_width integer the smallest map it makes
---@field min_height integer
---@field chars string its terrain's characters (`".#"`; the overworld's `"~.\"^="`), before `@`, `>`, items, doors and placed things
---@field blocked string those that block walking, `#` always among them: a level's `blocked` where more than `"#"`
---@field hides boolean whether it leaves floor out of `@`'s sight, which `place`'s `hidden = true` needs (the overworld does not)
---@field options map.OptionDescription[] its options, in a fixed order
---@field design map.DesignDescription[] the options it takes as tables: `vaults`, `arrive`, `place` (off rock, where `blocked` is more than `"#"`: `place`)

---Rows of cells, a cell known where it is truthy (`map.fov`'s result, or a
---game's table of seen cells); a missing row knows nothing.
---@alias map.Known table<integer, table<integer, any>>

---A distance map: `map.distances`' or `map.flee`'s result, every row and
---cell there (a table of rows rather than `T[][]`, which EmmyLua indexes as
---maybe nil).
---@alias map.DistanceMap table<integer, table<integer, integer|false>>

---`map.fov`'s result: every row there, a cell true where visible, nil
---elsewhere.
---@alias map.Visible table<integer, table<integer, true?>>

---The cells of a path or a line, in order, from index 1 (never empty).
---@alias map.Cells table<integer, map.Position>

---@class (exact) map.FovOptions
---@field opaque? string the characters that block sight, default "#+"

---@alias map.FovOptions.Exact map.FovOptions & table<keyof map.FovOptions, any>

---@class (exact) map.VisibleOptions
---@field opaque? string the characters that block sight, default "#+"
---@field radius? integer >= 0, as `map.fov`'s radius (default unlimited)

---@alias map.VisibleOptions.Exact map.VisibleOptions & table<keyof map.VisibleOptions, any>

---How a walk moves.
---@class (exact) map.WalkOptions
---@field blocked? string the characters that cannot be entered, default "#"
---@field diagonal? boolean 8 neighbours without corner cutting (default false: 4)

---@class (exact) map.StepOptions: map.WalkOptions
---@field avoid? map.Position|map.Position[] cells not to enter (monsters, traps)
---@field known? map.Known only known cells may be entered

---@alias map.StepOptions.Exact map.StepOptions & table<keyof map.StepOptions, any>

---@class (exact) map.ExploreOptions: map.WalkOptions
---@field avoid? map.Position|map.Position[] cells not to enter
---@field cost? table<string, integer> a character's cost of entering, 1 to 2^30 (default 1 each)

---@alias map.ExploreOptions.Exact map.ExploreOptions & table<keyof map.ExploreOptions, any>

---`distances` and `path`: a step may cost its own factor.
---@class (exact) map.DistancesOptions
---@field blocked? string the characters that cannot be entered, default "#"
---@field diagonal? boolean|integer 8 neighbours without corner cutting (default false: 4); an integer (1 to 2^30): each diagonal step costs that many times its cell's cost
---@field straight? integer 1 to 2^30, default 1: each straight step costs that many times its cell's cost (2, with diagonal = 3: a diagonal step dearer)
---@field cost? table<string, integer> a character's cost of entering, 1 to 2^30 (default 1 each)
---@field avoid? map.Position|map.Position[] cells not to enter
---@field known? map.Known only known cells may be entered
---@field max? integer >= 0: cells farther than this are left unreached (false), and the search stops there

---@alias map.DistancesOptions.Exact map.DistancesOptions & table<keyof map.DistancesOptions, any>

---@class (exact) map.FleeOptions: map.WalkOptions
---@field cost? table<string, integer> a character's cost of entering, 1 to 2^30 (default 1 each)
---@field avoid? map.Position|map.Position[] cells not to enter
---@field known? map.Known only known cells may be entered
---@field max? integer >= 0: cells farther than this are left unreached (false), and the search stops there
---@field factor? number from -10 to -0.1, default -1.2: the distances times this, so that running past a source to the far side pays

---@alias map.FleeOptions.Exact map.FleeOptions & table<keyof map.FleeOptions, any>

---@class (exact) map.SampleOptions: map.WalkOptions
---@field chars? string the characters a cell may hold, default "."
---@field seed? integer |seed| <= 2^53; default: a fresh one
---@field rng? map.Rng a random source to draw the seed from (one draw), in place of `seed`
---@field from? map.Position the cell `min`, `max` and `hidden` refer to
---@field min? integer >= 0: the least walking distance from `from`
---@field max? integer >= 0: the most walking distance from `from`
---@field hidden? boolean default false: only cells out of `from`'s sight
---@field opaque? string with `hidden`: the characters that block sight, default "#+"

---@alias map.SampleOptions.Exact map.SampleOptions & table<keyof map.SampleOptions, any>

---What `map.analyze` finds. Cells are 1-based; lists are in row order.
---@class map.Analysis
---@field regions map.Region[] the connected regions of walkable cells, by their first cells in row order
---@field region integer|false the index in `regions` of `@`'s (false without `@`)
---@field chokepoints map.Chokepoint[] the cells whose closing splits their region
---@field dead_ends map.Position[] the walkable cells with exactly one walkable neighbour
---@field stairs integer|false the steps from `@` to the nearest `>` it reaches
---@field farthest map.Farthest|false the farthest cell from `@` (the first in row order on a tie)
---@field rooms map.RoomGraph|false the room graph of the rooms' links (false without rooms)

---@class map.Region: map.Position
---@field size integer its cells

---@class map.Chokepoint: map.Position
---@field cut integer the cells closing it cuts off from `@` (in a region without `@`, from the region's first cell; 0 for that cell itself)

---@class map.Farthest: map.Position
---@field distance integer its steps from `@`

---@class map.RoomGraph
---@field degrees integer[] each room's number of links
---@field bridges integer[][] the links `{a, b}` (a < b) whose removal splits the graph
---@field loops integer its independent loops: links - rooms + components

---@alias map.WalkOptions.Exact map.WalkOptions & table<keyof map.WalkOptions, any>

---@class (exact) map.LevelAnalyzeOptions: map.WalkOptions
---@field occupied? boolean default false: occupied cells are closed, as `avoid` closes them

---@alias map.LevelAnalyzeOptions.Exact map.LevelAnalyzeOptions & table<keyof map.LevelAnalyzeOptions, any>

---What `map.parse` returns: the map a text draws, and its `@` and `>`.
---@class map.Parsed
---@field [integer] string[] row `y`: its cells
---@field width integer
---@field height integer
---@field player? map.Position the first `@` in row order, if any
---@field stairs? map.Position the first `>` in row order, if any

---@class (exact) map.AutotileOptions
---@field mode? "blob"|"8"|"4" default "blob": diagonal bits only beside both orthogonal ones (47 masks)
---@field edge? boolean default true: cells off the map count as in the class
---@field index? boolean default false: with mode "blob", the mask's rank 0-46 instead of the mask (an error with another mode)
---@field chars? string the characters of the class, a non-empty string, default "#"

---@alias map.AutotileOptions.Exact map.AutotileOptions & table<keyof map.AutotileOptions, any>

---@class map
---@field VERSION string the crate's version
---@field MAX_CELLS integer the most cells a map may have (4,000,000)
---@field INTERNAL_ERROR string "internal error (please report)": what an internal error (a bug in the module) carries after the function's name
---@field ALGORITHMS map.Algorithm[] the generators' names in a fixed order; the first is the default
---@field METHODS map.Methods the methods of a level, a field and a noise, by name
local map = {}

---A map of `height` rows of `width` walls (`"#"`). Errors unless both are
---integers >= 1 with `width * height <= map.MAX_CELLS`.
---@param width integer
---@param height integer
---@return map.Map
function map.new_map(width, height) end

---The map as text: rows joined with "\n", no trailing newline. Errors,
---naming the row or cell, unless the map is rectangular with one-byte cells.
---@param m map.Map
---@return string
function map.render(m) end

---A generated level. The same arguments give the same level on every
---interpreter and release. Errors on a size below the algorithm's smallest,
---an unknown option or one of another algorithm, or a value out of range.
---@param options map.GenerateOptions
---@return map.Level
---@overload fun(width: integer, height: integer, seed?: integer): map.Level
function map.generate(options) end

---Exactly `map.render(map.generate(...))`, without building the table.
---Errors as `map.generate`.
---@param options map.GenerateOptions
---@return string
---@overload fun(width: integer, height: integer, seed?: integer): string
function map.generate_text(options) end

---The level as a JSON object: `map.generate`'s fields and `rows`, an array
---of strings. Errors as `map.generate`.
---@param options map.GenerateOptions
---@return string
---@overload fun(width: integer, height: integer, seed?: integer): string
function map.generate_json(options) end

---Whether a 4-neighbour flood from `@` over every cell but `#` (or those of
---`m.blocked`) reaches every `>`, `$` and `!`; if not, false and why (`no @
---on the map`, `not reachable from @ at (2,2): ...`). Errors as
---`map.render` on a bad map.
---@param m map.Map
---@return boolean ok
---@return string? why
function map.reachable(m) end

---A map's regions, chokepoints, dead ends, the walk from `@` to `>`, the
---farthest cell from `@`, and the room graph of `m.rooms`' links, walking
---by `options` (`blocked`, default `m.blocked` or "#"; `diagonal`).
---@param m map.Map
---@param options? map.WalkOptions.Exact
---@return map.Analysis
function map.analyze(m, options) end

---A fresh table describing one algorithm. Errors on an unknown name.
---@param algorithm map.Algorithm
---@return map.Description
function map.describe(algorithm) end

---The cells seen from `(x, y)` by symmetric shadowcasting: rows
---`1..height`, `vis[y][x] == true` where visible, nil elsewhere. Errors on a
---bad map, a start off the map, a negative radius or an unknown option.
---@param m map.Map
---@param x integer
---@param y integer
---@param radius? integer >= 0, default unlimited: cells with dx*dx + dy*dy <= radius*(radius+1)
---@param options? map.FovOptions.Exact
---@return map.Visible
---@overload fun(m: map.Map, origin: map.Position, radius?: integer, options?: map.FovOptions.Exact): map.Visible
function map.fov(m, x, y, radius, options) end

---A Dijkstra map: `d[y][x]` is the steps (or the sum of costs) from the
---nearest source (plus its start value), false where blocked, avoided,
---unknown, beyond `max` or unreachable. A source counts even on a blocked
---cell. Errors on a bad map, a source off the map, no sources or an unknown
---option.
---@param m map.Map
---@param sources map.Source|map.Source[] one position or a non-empty array of them
---@param options? map.DistancesOptions.Exact
---@return map.DistanceMap
function map.distances(m, sources, options) end

---A shortest path from `(x1, y1)` to `(x2, y2)`, both ends included; nil and
---why (`goal (5,6) is blocked`, `no path from (1,2) to (5,6)`) when there is
---none. Errors as `map.distances`.
---@param m map.Map
---@param x1 integer
---@param y1 integer
---@param x2 integer
---@param y2 integer
---@param options? map.DistancesOptions.Exact
---@return map.Cells? path
---@return string? why
---@overload fun(m: map.Map, start: map.Position, goal: map.Position, options?: map.DistancesOptions.Exact): map.Cells?, string?
---@overload fun(m: map.Map, start: map.Position, x2: integer, y2: integer, options?: map.DistancesOptions.Exact): map.Cells?, string?
---@overload fun(m: map.Map, x1: integer, y1: integer, goal: map.Position, options?: map.DistancesOptions.Exact): map.Cells?, string?
function map.path(m, x1, y1, x2, y2, options) end

---One step downhill on a distance map from `(x, y)`: the neighbour with the
---least value below the cell's own that may be entered (ties N, E, S, W,
---then NE, SE, SW, NW; no corner cutting), as `x, y`; nil when none is lower.
---On `map.distances` to the player it chases, on `map.flee` it flees.
---Errors on a bad map or distance map, a cell off the map or an unknown
---option.
---@param m map.Map
---@param d map.DistanceMap
---@param x integer
---@param y integer
---@param options? map.StepOptions.Exact
---@return integer? x
---@return integer? y
---@overload fun(m: map.Map, d: map.DistanceMap, from: map.Position, options?: map.StepOptions.Exact): integer?, integer?
function map.step(m, d, x, y, options) end

---A safety map: the distances from `sources` times `factor`, rescanned, so
---that walking downhill (`map.step`) leads away from them. Errors as
---`map.distances`, and on a factor out of range.
---@param m map.Map
---@param sources map.Source|map.Source[]
---@param options? map.FleeOptions.Exact
---@return map.DistanceMap
function map.flee(m, sources, options) end

---Auto-explore: the path from `(x, y)` (included) to the nearest known cell
---that may be entered and has an unknown neighbour; nil and "explored" when
---none can be reached. Errors on a bad map or `known`, a start off the map
---or an unknown option.
---@param m map.Map
---@param known map.Known
---@param x integer
---@param y integer
---@param options? map.ExploreOptions.Exact
---@return map.Cells? path
---@return string? why
---@overload fun(m: map.Map, known: map.Known, start: map.Position, options?: map.ExploreOptions.Exact): map.Cells?, string?
function map.explore(m, known, x, y, options) end

---`count` distinct random cells of `chars` (for spawning), drawn by `seed`,
---at a walking distance from `min` to `max` from `from` and out of its sight
---with `hidden`. Errors when fewer cells qualify, and on bad arguments
---(`min`, `max` or `hidden` without `from`).
---@param m map.Map
---@param count integer >= 0
---@param options? map.SampleOptions.Exact
---@return map.Position[]
function map.sample(m, count, options) end

---The cells of the straight line from `(x1, y1)` to `(x2, y2)`, both ends
---included, on any integer coordinates (|v| <= 2^53; no map needed).
---@param x1 integer
---@param y1 integer
---@param x2 integer
---@param y2 integer
---@return map.Cells
---@overload fun(from: map.Position, to: map.Position): map.Cells
---@overload fun(from: map.Position, x2: integer, y2: integer): map.Cells
---@overload fun(x1: integer, y1: integer, to: map.Position): map.Cells
function map.line(x1, y1, x2, y2) end

---Whether `(x2, y2)` is in the field of view of `(x1, y1)`: `map.fov`'s
---answer for that one cell, from the cells between the two only. Errors on a
---bad map, a cell off the map or an unknown option.
---@param m map.Map
---@param x1 integer
---@param y1 integer
---@param x2 integer
---@param y2 integer
---@param options? map.VisibleOptions.Exact
---@return boolean
---@overload fun(m: map.Map, from: map.Position, to: map.Position, options?: map.VisibleOptions.Exact): boolean
---@overload fun(m: map.Map, from: map.Position, x2: integer, y2: integer, options?: map.VisibleOptions.Exact): boolean
---@overload fun(m: map.Map, x1: integer, y1: integer, to: map.Position, options?: map.VisibleOptions.Exact): boolean
function map.visible(m, x1, y1, x2, y2, options) end

---The map a text draws (the inverse of `map.render`): one row a line (a
---final "\n" allowed). Errors, naming the row, unless the rows are of one
---length, not empty, of printable ASCII, and at most `map.MAX_CELLS` cells.
---@param text string
---@return map.Parsed
function map.parse(text) end

---`map.to_tiled`'s options: Tiled's JSON map (`.tmj`) or its Lua export.
---@class (exact) map.TiledOptions
---@field format? "json"|"lua" default "json"; "lua" is Tiled's Lua export, which STI loads
---@field tiles? string the game's tiles: the character of tile id 0, 1, ... (default the 256 bytes, CP437's order)
---@field tile_width? integer 1 to 4096 pixels, default 16
---@field tile_height? integer 1 to 4096 pixels, default 16
---@field image? string the tileset's image file, default "cp437_16x16.png"

---@alias map.TiledOptions.Exact map.TiledOptions & table<keyof map.TiledOptions, any>

---`map.from_tiled`'s options.
---@class (exact) map.FromTiledOptions
---@field tiles? string the characters of tile ids that carry no `char` property
---@field empty? string the character of an empty cell (gid 0), default " "

---@alias map.FromTiledOptions.Exact map.FromTiledOptions & table<keyof map.FromTiledOptions, any>

---`map.to_xp`'s and `map.from_xp`'s options.
---@class (exact) map.XpOptions
---@field glyphs? string pairs of a map's character and its glyph, CP437 characters in UTF-8 (`"#█.·"`)

---@alias map.XpOptions.Exact map.XpOptions & table<keyof map.XpOptions, any>

---The map as a Tiled map: JSON (`.tmj`) or Tiled's Lua export. One tile
---layer, one tileset whose every tile carries its character as the
---property `char`. Errors on a character not in `options.tiles`.
---@param m map.Map
---@param options? map.TiledOptions.Exact
---@return string
function map.to_tiled(m, options) end

---The map a Tiled JSON map draws (layer data an array, or base64, plain,
---zlib or gzip), as `map.parse` returns it.
---@param text string
---@param options? map.FromTiledOptions.Exact
---@return map.Parsed
function map.from_tiled(text, options) end

---The map as a REXPaint image: the gzipped bytes of an `.xp` file.
---@param m map.Map
---@param options? map.XpOptions.Exact
---@return string
function map.to_xp(m, options) end

---The map a REXPaint image draws (its layers laid on each other), as
---`map.parse` returns it.
---@param data string
---@param options? map.XpOptions.Exact
---@return map.Parsed
function map.from_xp(data, options) end

---For wall sprites that join up: `t[y][x]` is the mask of the neighbours in
---the class (N = 1, NE = 2, E = 4, SE = 8, S = 16, SW = 32, W = 64, NW = 128)
---for each cell of the class, false for the others. Errors on a bad map, an
---unknown mode or option, or `index` without mode "blob".
---@param m map.Map
---@param options? map.AutotileOptions.Exact
---@return table<integer, table<integer, integer|false>>
function map.autotile(m, options) end

-- Levels in native memory (docs/api.md#levels-in-native-memory): map.level,
-- map.load, map.field, and the methods of a level (map.NativeLevel: the name
-- map.Level is generate's table) and of a field (map.Field), as map.METHODS
-- lists them. A method's messages read "level:<fn>: ..." or "field:<fn>: ...".
-- lvl:fov repeats its plain form as its first overload: EmmyLua takes the
-- first overload a call fits, and the `into` forms (a count) fit any call.

---`map.METHODS`: the names of the methods of a level and of a field.
---@class map.Methods
---@field level string[] a level's methods
---@field field string[] a field's methods
---@field rng string[] a random source's methods (`map.rng`)
---@field scheduler string[] a scheduler's methods (`map.scheduler`)
---@field names string[] a names generator's methods (`map.names`)
---@field noise string[] a noise source's methods (`map.noise`)

---A thing a level moved out of its terrain (`lvl:things()`).
---@class map.Thing: map.Position
---@field char string its character

---`map.level(m, options)` and `map.level(text, options)`. In the table form,
---`map.level{...}`, `things` goes beside `generate`'s options
---(`map.LevelGenerateOptions`).
---@class (exact) map.LevelOptions
---@field things? string characters to move out of the terrain into `lvl:things()` (default none)

---@alias map.LevelOptions.Exact map.LevelOptions & table<keyof map.LevelOptions, any>

---@class (exact) map.LevelFovOptions
---@field opaque? string the characters that block sight, default "#+"
---@field into? map.Field a memory of the level's size: the cells seen are marked in it, and their count returned instead of a field
---@field field? boolean with `into`: return the field as well as marking it (default false: the count)

---@alias map.LevelFovOptions.Exact map.LevelFovOptions & table<keyof map.LevelFovOptions, any>

---`lvl:fov`'s options with `into`, which make it return a count.
---@class (exact) map.LevelFovInto: map.LevelFovOptions
---@field into map.Field a memory of the level's size (`map.field`, `lvl:field()`)

---@alias map.LevelFovInto.Exact map.LevelFovInto & table<keyof map.LevelFovInto, any>

---@class (exact) map.LevelDistancesOptions: map.DistancesOptions
---@field known? map.Known|map.Field only known cells may be entered: a table of rows, or a field of flags (a memory, a fov field)
---@field occupied? boolean|integer default false: true, occupied cells are closed, as `avoid` closes them (a path's goal never is); an integer (1 to 2^30), entering one costs that much more

---@alias map.LevelDistancesOptions.Exact map.LevelDistancesOptions & table<keyof map.LevelDistancesOptions, any>

---@class (exact) map.LevelFleeOptions: map.FleeOptions
---@field known? map.Known|map.Field only known cells may be entered: a table of rows, or a field of flags (a memory, a fov field)
---@field occupied? boolean default false: occupied cells are closed, as `avoid` closes them
---@field factor? number from -10 to -0.1, default -1.2: the distances times this, so that running past a source to the far side pays

---@alias map.LevelFleeOptions.Exact map.LevelFleeOptions & table<keyof map.LevelFleeOptions, any>

---@class (exact) map.LevelStepOptions: map.StepOptions
---@field known? map.Known|map.Field only known cells may be entered: a table of rows, or a field of flags
---@field occupied? boolean default false: occupied cells are closed, as `avoid` closes them

---@alias map.LevelStepOptions.Exact map.LevelStepOptions & table<keyof map.LevelStepOptions, any>

---@class (exact) map.CanStepOptions: map.WalkOptions
---@field occupied? boolean default false: an occupied cell cannot be entered

---@alias map.CanStepOptions.Exact map.CanStepOptions & table<keyof map.CanStepOptions, any>

---@class (exact) map.LevelExploreOptions: map.ExploreOptions
---@field occupied? boolean default false: occupied cells are closed, as `avoid` closes them

---@alias map.LevelExploreOptions.Exact map.LevelExploreOptions & table<keyof map.LevelExploreOptions, any>

---@class (exact) map.LevelSampleOptions: map.SampleOptions
---@field occupied? boolean default false: occupied cells are not drawn

---@alias map.LevelSampleOptions.Exact map.LevelSampleOptions & table<keyof map.LevelSampleOptions, any>

---A level in native memory (userdata, metatable "map.level"): its terrain,
---the things moved out of it, which cells are occupied and, when generated,
---`generate`'s metadata. Each metadata access builds a new table; a level
---made from a table or text has none (nil). `tostring`: "map.level: WxH".
---@class map.NativeLevel
---@field width integer the size
---@field height integer the size
---@field seed? integer generated: the seed used
---@field algorithm? map.Algorithm generated: the generator that made it
---@field rooms? map.Room[] generated: as `generate`'s
---@field doors? map.Position[] generated: the `+` cells in row order
---@field player? map.Position generated: where `@` is (moved out: a thing)
---@field stairs? map.Position generated: where `>` is
---@field items? map.Item[] generated: the `$` and `!` cells (moved out: things)
---@field vaults? map.Vault[] generated: the vaults placed
---@field placed? map.Placed[] generated: the cells `place` put characters on (moved out: things)
---@field up? map.Position generated with `arrive`: where `@` came down, `<` under it
---@field locks? map.Lock[] generated with `locks`: the doors and their keys, in the order the doors open
---@field blocked? string the characters that block walking where `#` alone does not (an overworld's, a table's `blocked`): the methods' `blocked` default
local NativeLevel = {}

---The terrain's character at the cell, a one-character string.
---@param x integer
---@param y integer
---@return string
---@overload fun(self: map.NativeLevel, cell: map.Position): string
function NativeLevel:get(x, y) end

---Sets the terrain's cell (a door opens, a wall is dug), in place.
---@param x integer
---@param y integer
---@param ch string one character
---@overload fun(self: map.NativeLevel, cell: map.Position, ch: string)
function NativeLevel:set(x, y, ch) end

---Marks the cell occupied (a monster stands there), for `occupied = true`;
---by `id` (its occupant's, for `occupant`), in place of any id the cell
---had; without one, the cell keeps the id it has.
---@param x integer
---@param y integer
---@param id? integer 1 to 2^53
---@overload fun(self: map.NativeLevel, cell: map.Position, id?: integer)
function NativeLevel:occupy(x, y, id) end

---Marks the cell free; its occupant's id goes with it.
---@param x integer
---@param y integer
---@overload fun(self: map.NativeLevel, cell: map.Position)
function NativeLevel:vacate(x, y) end

---Who stands on the cell: the id `occupy` gave it, `true` if it is
---occupied without one, nil if it is free. `steps` with `occupied`
---carries a mover's id to its new cell; saves keep the ids.
---@param x integer
---@param y integer
---@return integer|true|nil
---@overload fun(self: map.NativeLevel, cell: map.Position): integer|true|nil
function NativeLevel:occupant(x, y) end

---Whether the cell is occupied.
---@param x integer
---@param y integer
---@return boolean
---@overload fun(self: map.NativeLevel, cell: map.Position): boolean
function NativeLevel:occupied(x, y) end

---The things moved out of the terrain, in row order.
---@return map.Thing[]
function NativeLevel:things() end

---A generated level: `generate`'s table (the things laid back, the
---metadata); else the rows, things laid back.
---@return map.Level|map.Map
function NativeLevel:table() end

---`map.render(lvl:table())`, without building the table.
---@return string
function NativeLevel:render() end

---`map.to_tiled` of the level, its things laid on it as `render` lays them.
---@param options? map.TiledOptions.Exact
---@return string
function NativeLevel:to_tiled(options) end

---`map.to_xp` of the level, its things laid on it as `render` lays them.
---@param options? map.XpOptions.Exact
---@return string
function NativeLevel:to_xp(options) end

---The level as a string (terrain, things, occupancy, metadata), for `map.load`.
---@return string
function NativeLevel:save() end

---A new memory of the level's size: flags, all unknown (as `map.field`).
---@return map.Field
function NativeLevel:field() end

---`map.fov` on the level: a field of flags of the cells seen (only the
---radius's window is held). With `options.into`, a memory: the cells seen
---are marked in it, and their count is returned instead of a field.
---@param x integer
---@param y integer
---@param radius? integer >= 0, default unlimited
---@param options? map.LevelFovOptions.Exact
---@return map.Field
---@overload fun(self: map.NativeLevel, x: integer, y: integer, radius?: integer, options?: map.LevelFovOptions.Exact): map.Field
---@overload fun(self: map.NativeLevel, origin: map.Position, radius?: integer, options?: map.LevelFovOptions.Exact): map.Field
---@overload fun(self: map.NativeLevel, x: integer, y: integer, radius: integer|nil, options: map.LevelFovInto.Exact): integer
---@overload fun(self: map.NativeLevel, origin: map.Position, radius: integer|nil, options: map.LevelFovInto.Exact): integer
function NativeLevel:fov(x, y, radius, options) end

---`map.frame` on the level: its terrain, and with `things = true` its things.
---@param x integer
---@param y integer
---@param w integer
---@param h integer
---@param options? map.FrameOptions.Exact
---@return string[] rows
---@return string[] states
---@overload fun(self: map.NativeLevel, x: integer, y: integer, w: integer, h: integer, options: map.FrameBytesOptions.Exact): string
function NativeLevel:frame(x, y, w, h, options) end

---`map.visible` on the level.
---@param x1 integer
---@param y1 integer
---@param x2 integer
---@param y2 integer
---@param options? map.VisibleOptions.Exact
---@return boolean
---@overload fun(self: map.NativeLevel, from: map.Position, to: map.Position, options?: map.VisibleOptions.Exact): boolean
---@overload fun(self: map.NativeLevel, from: map.Position, x2: integer, y2: integer, options?: map.VisibleOptions.Exact): boolean
---@overload fun(self: map.NativeLevel, x1: integer, y1: integer, to: map.Position, options?: map.VisibleOptions.Exact): boolean
function NativeLevel:visible(x1, y1, x2, y2, options) end

---`map.distances` on the level, as a field of values (with `max`, only the
---window within `max` of the sources is held).
---@param sources map.Source|map.Source[]
---@param options? map.LevelDistancesOptions.Exact
---@return map.Field
function NativeLevel:distances(sources, options) end

---`map.flee` on the level, as a field of values.
---@param sources map.Source|map.Source[]
---@param options? map.LevelFleeOptions.Exact
---@return map.Field
function NativeLevel:flee(sources, options) end

---`map.path` on the level.
---@param x1 integer
---@param y1 integer
---@param x2 integer
---@param y2 integer
---@param options? map.LevelDistancesOptions.Exact
---@return map.Position[]? path
---@return string? why
---@overload fun(self: map.NativeLevel, start: map.Position, goal: map.Position, options?: map.LevelDistancesOptions.Exact): map.Position[]?, string?
---@overload fun(self: map.NativeLevel, start: map.Position, x2: integer, y2: integer, options?: map.LevelDistancesOptions.Exact): map.Position[]?, string?
---@overload fun(self: map.NativeLevel, x1: integer, y1: integer, goal: map.Position, options?: map.LevelDistancesOptions.Exact): map.Position[]?, string?
function NativeLevel:path(x1, y1, x2, y2, options) end

---`map.step` on the level: one step downhill on `d` (a field of values or a
---table of rows), as `x, y`; nil when none is lower.
---@param d map.Field|map.DistanceMap
---@param x integer
---@param y integer
---@param options? map.LevelStepOptions.Exact
---@return integer? x
---@return integer? y
---@overload fun(self: map.NativeLevel, d: map.Field|map.DistanceMap, from: map.Position, options?: map.LevelStepOptions.Exact): integer?, integer?
function NativeLevel:step(d, x, y, options) end

---`lvl:step` for each mover in order, each moved in place (its `x`, `y`
---written); with `occupied`, a mover that moves vacates its cell and
---occupies the new one, so later movers see it. Returns how many moved.
---@param d map.Field|map.DistanceMap
---@param movers map.Position[]
---@param options? map.LevelStepOptions.Exact
---@return integer moved
function NativeLevel:steps(d, movers, options) end

---`steps` with the movers' cells in two arrays of one length, mover `i`
---at `(xs[i], ys[i])`, each moved mover's entries written in place. The
---same steps and count as `steps` on the same cells.
---@param d map.Field|map.DistanceMap
---@param xs integer[]
---@param ys integer[]
---@param options? map.LevelStepOptions.Exact
---@return integer moved
function NativeLevel:steps_xy(d, xs, ys, options) end

---Whether a walker may step from the cell by `(dx, dy)` (each -1, 0 or 1,
---not both 0): `step`'s rule (blocked, diagonal, no corner cutting,
---occupied); false off the map.
---@param x integer
---@param y integer
---@param dx integer
---@param dy integer
---@param options? map.CanStepOptions.Exact
---@return boolean
---@overload fun(self: map.NativeLevel, from: map.Position, dx: integer, dy: integer, options?: map.CanStepOptions.Exact): boolean
function NativeLevel:can_step(x, y, dx, dy, options) end

---`map.explore` on the level; `known` a table of rows or a field of flags
---(a memory, a fov field).
---@param known map.Known|map.Field
---@param x integer
---@param y integer
---@param options? map.LevelExploreOptions.Exact
---@return map.Position[]? path
---@return string? why
---@overload fun(self: map.NativeLevel, known: map.Known|map.Field, start: map.Position, options?: map.LevelExploreOptions.Exact): map.Position[]?, string?
function NativeLevel:explore(known, x, y, options) end

---`map.sample` on the level.
---@param count integer >= 0
---@param options? map.LevelSampleOptions.Exact
---@return map.Position[]
function NativeLevel:sample(count, options) end

---`map.reachable` on the level's terrain (its things moved out: a generated
---level's `@` is at `lvl.player`), walking by `lvl.blocked`.
---@return boolean ok
---@return string? why
function NativeLevel:reachable() end

---`map.analyze` on the level's terrain (its things moved out: a generated
---level's `@` is at `lvl.player`) and, when generated, its rooms' links.
---@param options? map.LevelAnalyzeOptions.Exact
---@return map.Analysis
function NativeLevel:analyze(options) end

---`map.autotile` on the level.
---@param options? map.AutotileOptions.Exact
---@return (integer|false)[][]
function NativeLevel:autotile(options) end

---`map.light` on the level.
---@param lights map.Light[]
---@param options? map.LightOptions.Exact
---@return map.LightMap
function NativeLevel:light(lights, options) end

---A level `map.level` generated (its forms with `generate`'s arguments):
---`generate`'s metadata is always there (`up` with `arrive` only).
---@class map.GeneratedLevel: map.NativeLevel
---@field seed integer the seed used
---@field algorithm map.Algorithm the generator that made it
---@field rooms map.Room[] as `generate`'s
---@field doors map.Position[] the `+` cells in row order
---@field player map.Position where `@` is (moved out: a thing)
---@field stairs map.Position where `>` is
---@field items map.Item[] the `$` and `!` cells (moved out: things)
---@field vaults map.Vault[] the vaults placed
---@field placed map.Placed[] the cells `place` put characters on (moved out: things)

---A field in native memory (userdata, metatable "map.field"): a distance or
---safety field (`lvl:distances`, `lvl:flee`) or a field of flags (`lvl:fov`,
---a memory from `map.field` or `lvl:field()`), over the map or a window of
---it; a cell outside the window is unreached or unseen. `tostring`:
---"map.field: WxH".
---@class map.Field
---@field width integer the map's size
---@field height integer the map's size
local Field = {}

---The cell as the table would hold it: an integer or false (values), true or
---nil (flags).
---@param x integer
---@param y integer
---@return integer|boolean|nil
---@overload fun(self: map.Field, cell: map.Position): integer|boolean|nil
function Field:get(x, y) end

---Exactly the table the table function returns: `map.distances`' or
---`map.flee`'s rows, or `map.fov`'s.
---@return map.DistanceMap|table<integer, true>[]
function Field:table() end

---The field as a string, for `map.load`.
---@return string
function Field:save() end

---A level in native memory: a copy of a map table, or a map drawn as text
---(as `map.parse` reads it), every character kept unless `options.things`
---names some; or, with `generate`'s arguments (and `things`), a level
---generated straight into it: terrain only, its things (`@`, `$`, `!`,
---`place`'s characters, `things`) moved out, floor under each (`<` under
---`@` at `up`). A map table that names its `algorithm` (`generate`'s, as
---the game left it) keeps its metadata, each field checked (an error names
---a malformed one). Errors as `map.generate` or `map.parse`, and on an
---unknown option.
---@param m map.Map|string
---@param options? map.LevelOptions.Exact
---@return map.NativeLevel
---@overload fun(m: map.Level, options?: map.LevelOptions.Exact): map.GeneratedLevel
---@overload fun(options: map.LevelGenerateOptions): map.GeneratedLevel
---@overload fun(width: integer, height: integer, seed?: integer): map.GeneratedLevel
function map.level(m, options) end

---A point of a noise: any numbers with |v| <= 2^53.
---@class map.Point
---@field x number
---@field y number

---A noise source (userdata, metatable "map.noise"): its settings, and
---`get` and `grid`. `tostring`: "map.noise: simplex, 4 octaves, seed 42".
---@class map.Noise
---@field seed integer the seed used (the one given, or the fresh one chosen)
---@field kind "simplex"|"perlin"
---@field octaves integer
---@field frequency number
---@field persistence number
---@field lacunarity number
local Noise = {}

---The noise at `(x, y)` (any numbers with |v| <= 2^53), in [-1, 1],
---continuous in both; the same bits on every interpreter and release.
---@param x number
---@param y number
---@return number
---@overload fun(self: map.Noise, point: map.Point): number
function Noise:get(x, y) end

---Rows `1..height` of `width` values: `g[y][x]` is `get(x0 + x - 1, y0 +
---y - 1)` (`x0`, `y0` default 1), made in one call.
---@param width integer
---@param height integer
---@param x0? number
---@param y0? number
---@return table<integer, table<integer, number>>
---@overload fun(self: map.Noise, width: integer, height: integer, origin: map.Point): table<integer, table<integer, number>>
function Noise:grid(width, height, x0, y0) end

---@class (exact) map.NoiseOptions
---@field seed? integer |seed| <= 2^53; default: a fresh one (in the noise's `seed`)
---@field kind? "simplex"|"perlin" default "simplex" (Gustavson's 2-D simplex); "perlin": Perlin's improved noise (2002)
---@field octaves? integer 1 to 16, default 1: noises summed, each at `lacunarity` times the last one's frequency and `persistence` times its weight
---@field frequency? number in (0, 2^20], default 1/16: the first octave's features per cell
---@field persistence? number in [0, 1], default 0.5
---@field lacunarity? number in [1, 16], default 2

---@alias map.NoiseOptions.Exact map.NoiseOptions & table<keyof map.NoiseOptions, any>

---A noise source (`map.NoiseOptions`). Errors on a setting out of range or
---an unknown option.
---@param options? map.NoiseOptions.Exact
---@return map.Noise
function map.noise(options) end

---A colour by name: red, green and blue, each 0 to 1.
---@class map.Rgb
---@field r number
---@field g number
---@field b number

---A colour: red, green and blue, each 0 to 1, as `{r, g, b}` or `{r=, g=, b=}`.
---@alias map.Color number[]|map.Rgb

---A light of `map.light`.
---@class map.Light: map.Position
---@field radius integer >= 0: it lights the cells `map.fov` sees within this radius
---@field intensity? number >= 0, default 1: a cell `d` away gets `intensity * (1 - d / (radius + 1))`
---@field color? map.Color default white

---@class (exact) map.LightOptions
---@field opaque? string the characters that block sight, default "#+"
---@field ambient? number|map.Color 0 to 1, default 0: every cell's base level (a colour makes the result coloured)

---@alias map.LightOptions.Exact map.LightOptions & table<keyof map.LightOptions, any>

---A coloured light map: a table of rows of numbers for each channel.
---@class map.ColorLightMap
---@field r table<integer, table<integer, number>>
---@field g table<integer, table<integer, number>>
---@field b table<integer, table<integer, number>>

---`map.light`'s result: rows of numbers in [0, 1], or three of them when a
---light or the ambient level has a colour.
---@alias map.LightMap table<integer, table<integer, number>>|map.ColorLightMap

---A light map: each light lights the cells its field of view holds
---(`map.fov` with `options.opaque`) by `intensity * (1 - d / (radius + 1))`,
---`d` the Euclidean distance; a cell is the ambient level plus the lights'
---shares, clamped to 1. Errors on a bad map, a light off the map, a bad
---radius, intensity or colour, lights that reach more than 17 x
---`map.MAX_CELLS` cells in all (their squares, and 64 a light), or an unknown
---option.
---@param m map.Map|map.Level
---@param lights map.Light[]
---@param options? map.LightOptions.Exact
---@return map.LightMap
function map.light(m, lights, options) end

---What `map.frame` and `lvl:frame` draw from, beside the terrain.
---@class (exact) map.FrameLayers
---@field visible? map.Field a field of flags of the map's size (`lvl:fov`): the cells visible; default every cell
---@field memory? map.Field a field of flags of the map's size (a memory): the cells remembered
---@field things? map.Thing[]|true drawn over visible cells (the later over the earlier); `true` on a level: its own things
---@field items? map.Thing[] drawn over visible and remembered cells, under the things
---@field blank? string the one character of an unknown cell, default " "

---`map.frame`'s and `lvl:frame`'s options for rows of strings.
---@class (exact) map.FrameOptions: map.FrameLayers
---@field bytes? false default false; `true`: one string of 4 bytes a cell (`map.FrameBytesOptions`)
---@field light? number[][] only with `bytes = true`

---@alias map.FrameOptions.Exact map.FrameOptions & table<keyof map.FrameOptions, any>

---`map.frame` with `bytes = true`: one string of 4 bytes a cell.
---@class (exact) map.FrameBytesOptions: map.FrameLayers
---@field bytes true
---@field light? number[][] a light map's rows (`map.light`, one channel): each cell's light byte is its value times 255, rounded (default 255)

---@alias map.FrameBytesOptions.Exact map.FrameBytesOptions & table<keyof map.FrameBytesOptions, any>

---What a camera of `w` x `h` cells whose top-left cell is `(x, y)` shows
---(it may reach past the map: those cells are blank and unknown): the
---characters, rows of `w`-character strings, and each cell's state, rows of
---digits ("2" visible, "1" remembered, "0" unknown); with `bytes = true`,
---one string of 4 bytes a cell, row-major. Errors on a camera of more than
---`map.MAX_CELLS` cells, fields of another kind or size, a bad list.
---@param m map.Map|map.Level
---@param x integer
---@param y integer
---@param w integer
---@param h integer
---@param options? map.FrameOptions.Exact
---@return string[] rows
---@return string[] states
---@overload fun(m: map.Map|map.Level, x: integer, y: integer, w: integer, h: integer, options: map.FrameBytesOptions.Exact): string
function map.frame(m, x, y, w, h, options) end

---What a `map.save` string holds (either form), or the level or field a
---`save()` string holds. Errors ("map.load: ...") on a truncated,
---corrupted or foreign string, or a version it does not read.
---@param s string
---@return any
function map.load(s) end

---@class (exact) map.SaveOptions
---@field text? boolean the text form (`mapvalue1:` and base64), default false

---@alias map.SaveOptions.Exact map.SaveOptions & table<keyof map.SaveOptions, any>

---A graph of values (nil, booleans, numbers, strings, tables with shared
---references and cycles, the module's natives) as one string for
---`map.load`, the same bytes on every interpreter. Errors, naming the
---path, on a function, a thread, another library's userdata or a table
---used as a key.
---@param value any
---@param options? map.SaveOptions.Exact
---@return string
function map.save(value, options) end

---A memory: a field of flags over a map of `width` x `height`, all
---unknown, for `lvl:fov`'s `into` and `known`. Errors as `map.new_map`.
---@param width integer
---@param height integer
---@return map.Field
function map.field(width, height) end

-- The game's toolbox (docs/api.md#the-games-toolbox): map.rng, map.scheduler
-- and map.names, and the methods of what they make (map.Rng, map.Scheduler,
-- map.Names), as map.METHODS lists them. A method's messages read
-- "rng:<fn>: ...", "scheduler:<fn>: ..." or "names:<fn>: ...".

---A random source (userdata, metatable "map.rng"): the generators' own
---sequence (PCG), the same numbers on Lua 5.4 and LuaJIT, its state saved
---by `r:state()`. A method that fails leaves it as it was. `tostring`:
---"map.rng".
---@class map.Rng
local Rng = {}

---As `math.random`: a float in [0, 1); an integer in 1..n; an integer in
---m..n. Bounds are integers with |v| <= 2^53; an empty interval is an error.
---@param m? integer
---@param n? integer
---@return number
---@overload fun(self: map.Rng): number
---@overload fun(self: map.Rng, n: integer): integer
---@overload fun(self: map.Rng, m: integer, n: integer): integer
function Rng:random(m, n) end

---A normal deviate: `mean` (default 0) plus `sd` (default 1, >= 0) times
---a standard one (Marsaglia's polar method).
---@param mean? number
---@param sd? number
---@return number
function Rng:normal(mean, sd) end

---Dice rolled: "NdS", "NdS+K" or "NdS-K" (N 1 to 1000, default 1; S 1 to
---2^31 - 1 or "%" for 100; K at most 2^31 - 1), like "3d6+2" or "d%".
---@param dice string
---@return integer
function Rng:dice(dice) end

---An element of the array (not empty, no hole where the draw lands).
---@param array any[]
---@return any
function Rng:pick(array) end

---An index drawn in proportion to the weights: finite numbers >= 0, not all 0.
---@param weights number[]
---@return integer
function Rng:weighted(weights) end

---Shuffles the array in place (Fisher-Yates, no holes) and returns it.
---@param array any[]
---@return any[]
function Rng:shuffle(array) end

---Writes `count` draws (0 to 2^24) into `t[1..count]` (raw) and returns
---`t`: floats as `random()`, or integers as `random(n)` or `random(m, n)`.
---@param t table
---@param count integer
---@param m? integer
---@param n? integer
---@return table
function Rng:fill(t, count, m, n) end

---The source's state: 80 characters, for `map.rng(state)`.
---@return string
function Rng:state() end

---A copy: the same sequence from here, drawn on its own.
---@return map.Rng
function Rng:clone() end

---A random source: from a seed (an integer, |seed| <= 2^53; a fresh one
---when none), the same sequence as the generators' for that seed; or from a
---state `r:state()` gave, continuing its sequence. Errors on a damaged
---state.
---@param seed? integer
---@return map.Rng
---@overload fun(state: string): map.Rng
function map.rng(seed) end

---The order of turns (userdata, metatable "map.scheduler"): rot.js's Speed
---scheduler with exact times; `#s` is how many actors it holds.
---`tostring`: "map.scheduler: N actors".
---@class map.Scheduler
local Scheduler = {}

---Adds an actor (any value but nil and NaN, not already in): it acts
---1/speed after now, then every 1/speed (speed from 2^-20 to 2^20).
---@param actor any
---@param speed number
function Scheduler:add(actor, speed) end

---The actor whose turn it is and its time (ties: the one added first);
---nil when the scheduler is empty. Its next turn is 1/speed later.
---@return any actor
---@return number? time
function Scheduler:next() end

---Takes the actor out: true, or false if it was not in.
---@param actor any
---@return boolean
function Scheduler:remove(actor) end

---Puts the actor's next turn `t` later (0 to 2^53): an action that takes longer.
---@param actor any
---@param t number
function Scheduler:delay(actor, t) end

---The time of the last turn given (0 before the first).
---@return number
function Scheduler:time() end

---The scheduler as a string (its actors named by the order they were
---added), for `map.scheduler(state, actors)`.
---@return string
function Scheduler:state() end

---The actors in the order `state()` names them: what the game saves beside it.
---@return any[]
function Scheduler:actors() end

---A scheduler, empty; or one `s:state()` saved, its actors the game's own
---values in the order `s:actors()` gave them (each once). Errors on a
---damaged state or actors that do not fit it.
---@param state? string
---@param actors? any[]
---@return map.Scheduler
function map.scheduler(state, actors) end

---`map.names`' options.
---@class (exact) map.NamesOptions
---@field order? integer from 1 to 8, default 3: the characters before the next one that choose it
---@field min? integer from 1 to 1024, default the shortest example's length
---@field max? integer from 1 to 1024, default the longest example's length
---@field novel? boolean default true: never one of the examples

---@alias map.NamesOptions.Exact map.NamesOptions & table<keyof map.NamesOptions, any>

---A generator of names (userdata, metatable "map.names"). `tostring`:
---"map.names: MIN to MAX characters".
---@class map.Names
local Names = {}

---A name drawn with the source `r` (which moves on past its draws; an
---error leaves it as it was), with a new source from `seed`, or a fresh
---seed when none.
---@param r? map.Rng|integer
---@return string
function Names:name(r) end

---A generator of names trained on example words (letters, `'`, `-`,
---spaces; UTF-8): a Markov chain over their characters that backs off to
---shorter contexts. Errors, saying why, on bad examples or options, too
---little to learn from (no novel name in 1000 tries) or impossible bounds.
---@param examples string[]
---@param options? map.NamesOptions.Exact
---@return map.Names
function map.names(examples, options) end

return map
