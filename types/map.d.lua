---@meta map

-- Type definitions of `require "map"` for lua-language-server and EmmyLua
-- (docs/api.md is the reference). spec/types_spec.lua checks them against
-- the module: its exports, each algorithm's options (map.describe, with the
-- same descriptions), the level's fields and the options of each function.
-- Every function raises a plain string error "map.<fn>: <problem>" on bad
-- arguments; a bug inside the module is "map.<fn>: internal error (please
-- report): ...", never a crash.

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
---@field value? integer its start value, |value| <= 2^53 (default 0)

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

---An item on the floor.
---@class map.Item: map.Position
---@field kind "$"|"!" its character on the map

---A generator's name, one of `map.ALGORITHMS`.
---@alias map.Algorithm "rooms"|"cave"|"bsp"|"cellular"|"drunkard"|"maze"

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

---The arguments every algorithm takes (`map.generate{...}`); each algorithm's
---class below adds its own options. Unknown options, and options of another
---algorithm, are errors.
---@class map.Options
---@field width integer integer >= the algorithm's smallest width, width * height <= map.MAX_CELLS
---@field height integer integer >= the algorithm's smallest height
---@field seed? integer integer with |seed| <= 2^53; default: a fresh one (in the level's `seed`)
---@field algorithm? map.Algorithm default "rooms"
---@field vaults? map.VaultTemplate[] hand-drawn templates stamped onto the level, each joined to it by tunnels
---@field arrive? map.Position where `@` comes down from the level above (inside the border); the level's `up`
---@field place? map.PlaceEntry[] a game's own characters, on free floor cells

---A vault's template (`vaults = {...}`): rows of printable ASCII, `#` wall,
---`.` floor, `+` door, a space keeps what the generator carved, any other
---character placed as it is and walkable. Errors name it `vaults[n]`.
---@class map.VaultTemplate
---@field rows string[] its rows, of one length
---@field count? integer integer from 1 to 100, default 1: copies placed
---@field rotate? boolean default false: each copy turned or mirrored at random
---@field required? boolean default true: too little room for a copy is an error (false: fewer copies)

---What `place = {...}` puts: `count` cells of `char` on free floor cells.
---Errors name it `place[n]`.
---@class map.PlaceEntry
---@field char string one printable ASCII character but # . @ > + and space
---@field count? integer integer from 0 to 10000, default 1
---@field min? integer integer from 0 to 4000000, default 0: the least walking distance from `@`
---@field hidden? boolean default false: only cells out of `@`'s sight

---@class map.RoomsOptions: map.Options
---@field algorithm? "rooms"
---@field rooms? integer integer from 1 to 10000, default 10: rooms wanted; fewer when they do not fit
---@field doors? boolean boolean, default false: put + where a corridor enters a room's wall, no two doors touching
---@field loops? integer integer from 0 to 1000, default 0: extra corridors, each from a random room to the nearest room not linked to it
---@field items? integer integer from 0 to 10000, default 5: items ($ or !) on distinct floor cells; more than the free floor is an error

---@class map.CaveOptions: map.Options
---@field algorithm "cave"
---@field fill? number number in (0, 1], default 0.5: the fraction of the interior to carve
---@field max_frontier? integer integer from 1 to 4000000, default min(width, height): the frontier's soft cap: low values make narrow passages
---@field items? integer integer from 0 to 10000, default 5: items ($ or !) on distinct floor cells; more than the free floor is an error

---@class map.BspOptions: map.Options
---@field algorithm "bsp"
---@field depth? integer integer from 0 to 13, default 5: levels of splitting: at most 2^depth rooms
---@field min_size? integer integer from 3 to 4000000, default 7: the fewest cells across a part, its wall included; rooms are at least min_size - 1 across where the map allows
---@field max_ratio? number number in [1, 100], default 1.5: a part longer than max_ratio times its breadth is always split across
---@field doors? boolean boolean, default false: put + where a corridor enters a room's wall, no two doors touching
---@field loops? integer integer from 0 to 1000, default 0: extra corridors, each from a random room to the nearest room not linked to it
---@field items? integer integer from 0 to 10000, default 5: items ($ or !) on distinct floor cells; more than the free floor is an error

---@class map.CellularOptions: map.Options
---@field algorithm "cellular"
---@field probability? number number in [0, 1], default 0.45: chance that an interior cell starts as wall, before smoothing
---@field generations? integer integer from 0 to 20, default 4: smoothing passes of the 4-5 rule (most caves stop changing within 10)
---@field items? integer integer from 0 to 10000, default 5: items ($ or !) on distinct floor cells; more than the free floor is an error

---@class map.DrunkardOptions: map.Options
---@field algorithm "drunkard"
---@field fill? number number in (0, 1], default 0.4: the fraction of the interior to carve
---@field lifetime? integer integer from 1 to 1000, default 400: steps each walker takes at most: short gives blobs, long gives winding tunnels
---@field items? integer integer from 0 to 10000, default 5: items ($ or !) on distinct floor cells; more than the free floor is an error

---@class map.MazeOptions: map.Options
---@field algorithm "maze"
---@field braid? number number in [0, 1], default 0: fraction of dead ends opened into loops (0: a perfect maze, 1: none left)
---@field items? integer integer from 0 to 10000, default 5: items ($ or !) on distinct floor cells; more than the free floor is an error

---`map.generate`'s table form: the options of one algorithm.
---@alias map.GenerateOptions map.RoomsOptions|map.CaveOptions|map.BspOptions|map.CellularOptions|map.DrunkardOptions|map.MazeOptions

---One option of an algorithm, as `map.describe` lists it.
---@class map.OptionDescription
---@field name string the option's name in `map.generate{...}`
---@field type "integer"|"number"|"boolean"
---@field min? number the smallest value (integers and numbers)
---@field max? number the largest value (integers and numbers)
---@field open_min? boolean numbers: whether `min` itself is excluded
---@field default? number|boolean nil where the default depends on the map
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
---@field options map.OptionDescription[] its options, in a fixed order
---@field design map.DesignDescription[] the options every algorithm takes as tables: `vaults`, `arrive`, `place`

---Rows of cells, a cell known where it is truthy (`map.fov`'s result, or a
---game's table of seen cells); a missing row knows nothing.
---@alias map.Known table<integer, table<integer, any>>

---A distance map: `map.distances`' or `map.flee`'s result.
---@alias map.DistanceMap (integer|false)[][]

---@class map.FovOptions
---@field opaque? string the characters that block sight, default "#+"

---@class map.VisibleOptions
---@field opaque? string the characters that block sight, default "#+"
---@field radius? integer >= 0, as `map.fov`'s radius (default unlimited)

---How a walk moves.
---@class map.WalkOptions
---@field blocked? string the characters that cannot be entered, default "#"
---@field diagonal? boolean 8 neighbours without corner cutting (default false: 4)

---@class map.StepOptions: map.WalkOptions
---@field avoid? map.Position|map.Position[] cells not to enter (monsters, traps)
---@field known? map.Known only known cells may be entered

---@class map.ExploreOptions: map.WalkOptions
---@field avoid? map.Position|map.Position[] cells not to enter
---@field cost? table<string, integer> a character's cost of entering, 1 to 2^30 (default 1 each)

---@class map.DistancesOptions: map.WalkOptions
---@field cost? table<string, integer> a character's cost of entering, 1 to 2^30 (default 1 each)
---@field avoid? map.Position|map.Position[] cells not to enter
---@field known? map.Known only known cells may be entered
---@field max? integer >= 0: cells farther than this are left unreached (false), and the search stops there

---@class map.FleeOptions: map.DistancesOptions
---@field factor? number from -10 to -0.1, default -1.2: the distances times this, so that running past a source to the far side pays

---@class map.SampleOptions: map.WalkOptions
---@field chars? string the characters a cell may hold, default "."
---@field seed? integer |seed| <= 2^53; default: a fresh one
---@field from? map.Position the cell `min`, `max` and `hidden` refer to
---@field min? integer >= 0: the least walking distance from `from`
---@field max? integer >= 0: the most walking distance from `from`
---@field hidden? boolean default false: only cells out of `from`'s sight
---@field opaque? string with `hidden`: the characters that block sight, default "#+"

---What `map.parse` returns: the map a text draws, and its `@` and `>`.
---@class map.Parsed
---@field [integer] string[] row `y`: its cells
---@field width integer
---@field height integer
---@field player? map.Position the first `@` in row order, if any
---@field stairs? map.Position the first `>` in row order, if any

---@class map.AutotileOptions
---@field mode? "blob"|"8"|"4" default "blob": diagonal bits only beside both orthogonal ones (47 masks)
---@field edge? boolean default true: cells off the map count as in the class
---@field index? boolean default false: with mode "blob", the mask's rank 0-46 instead of the mask (an error with another mode)
---@field chars? string the characters of the class, a non-empty string, default "#"

---@class map
---@field VERSION string the crate's version
---@field MAX_CELLS integer the most cells a map may have (4,000,000)
---@field ALGORITHMS map.Algorithm[] the generators' names in a fixed order; the first is the default
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

---Whether a 4-neighbour flood from `@` over every cell but `#` reaches every
---`>`, `$` and `!`; if not, false and why (`no @ on the map`, `not reachable
---from @ at (2,2): ...`). Errors as `map.render` on a bad map.
---@param m map.Map
---@return boolean ok
---@return string? why
function map.reachable(m) end

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
---@param options? map.FovOptions
---@return table<integer, true>[]
---@overload fun(m: map.Map, origin: map.Position, radius?: integer, options?: map.FovOptions): table<integer, true>[]
function map.fov(m, x, y, radius, options) end

---A Dijkstra map: `d[y][x]` is the steps (or the sum of costs) from the
---nearest source (plus its start value), false where blocked, avoided,
---unknown, beyond `max` or unreachable. A source counts even on a blocked
---cell. Errors on a bad map, a source off the map, no sources or an unknown
---option.
---@param m map.Map
---@param sources map.Source|map.Source[] one position or a non-empty array of them
---@param options? map.DistancesOptions
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
---@param options? map.DistancesOptions
---@return map.Position[]? path
---@return string? why
---@overload fun(m: map.Map, start: map.Position, goal: map.Position, options?: map.DistancesOptions): map.Position[]?, string?
---@overload fun(m: map.Map, start: map.Position, x2: integer, y2: integer, options?: map.DistancesOptions): map.Position[]?, string?
---@overload fun(m: map.Map, x1: integer, y1: integer, goal: map.Position, options?: map.DistancesOptions): map.Position[]?, string?
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
---@param options? map.StepOptions
---@return integer? x
---@return integer? y
---@overload fun(m: map.Map, d: map.DistanceMap, from: map.Position, options?: map.StepOptions): integer?, integer?
function map.step(m, d, x, y, options) end

---A safety map: the distances from `sources` times `factor`, rescanned, so
---that walking downhill (`map.step`) leads away from them. Errors as
---`map.distances`, and on a factor out of range.
---@param m map.Map
---@param sources map.Source|map.Source[]
---@param options? map.FleeOptions
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
---@param options? map.ExploreOptions
---@return map.Position[]? path
---@return string? why
---@overload fun(m: map.Map, known: map.Known, start: map.Position, options?: map.ExploreOptions): map.Position[]?, string?
function map.explore(m, known, x, y, options) end

---`count` distinct random cells of `chars` (for spawning), drawn by `seed`,
---at a walking distance from `min` to `max` from `from` and out of its sight
---with `hidden`. Errors when fewer cells qualify, and on bad arguments
---(`min`, `max` or `hidden` without `from`).
---@param m map.Map
---@param count integer >= 0
---@param options? map.SampleOptions
---@return map.Position[]
function map.sample(m, count, options) end

---The cells of the straight line from `(x1, y1)` to `(x2, y2)`, both ends
---included, on any integer coordinates (|v| <= 2^53; no map needed).
---@param x1 integer
---@param y1 integer
---@param x2 integer
---@param y2 integer
---@return map.Position[]
---@overload fun(from: map.Position, to: map.Position): map.Position[]
---@overload fun(from: map.Position, x2: integer, y2: integer): map.Position[]
---@overload fun(x1: integer, y1: integer, to: map.Position): map.Position[]
function map.line(x1, y1, x2, y2) end

---Whether `(x2, y2)` is in the field of view of `(x1, y1)`: `map.fov`'s
---answer for that one cell, from the cells between the two only. Errors on a
---bad map, a cell off the map or an unknown option.
---@param m map.Map
---@param x1 integer
---@param y1 integer
---@param x2 integer
---@param y2 integer
---@param options? map.VisibleOptions
---@return boolean
---@overload fun(m: map.Map, from: map.Position, to: map.Position, options?: map.VisibleOptions): boolean
---@overload fun(m: map.Map, from: map.Position, x2: integer, y2: integer, options?: map.VisibleOptions): boolean
---@overload fun(m: map.Map, x1: integer, y1: integer, to: map.Position, options?: map.VisibleOptions): boolean
function map.visible(m, x1, y1, x2, y2, options) end

---The map a text draws (the inverse of `map.render`): one row a line (a
---final "\n" allowed). Errors, naming the row, unless the rows are of one
---length, not empty, of printable ASCII, and at most `map.MAX_CELLS` cells.
---@param text string
---@return map.Parsed
function map.parse(text) end

---For wall sprites that join up: `t[y][x]` is the mask of the neighbours in
---the class (N = 1, NE = 2, E = 4, SE = 8, S = 16, SW = 32, W = 64, NW = 128)
---for each cell of the class, false for the others. Errors on a bad map, an
---unknown mode or option, or `index` without mode "blob".
---@param m map.Map
---@param options? map.AutotileOptions
---@return (integer|false)[][]
function map.autotile(m, options) end

---Panics inside the module on purpose, for the test that shows a panic
---becomes the Lua error "map._panic_probe: internal error (please report)".
function map._panic_probe() end

return map
