//! How much memory a call may use, and the check that it is free before the
//! call starts.
//!
//! Rust aborts the process when an allocation fails; a Lua host must get an
//! error instead. So every call that allocates in proportion to its input
//! first asks for its whole bound at once with `try_reserve` (which fails
//! cleanly) and gives it back, then does its work. The bounds are measured,
//! not guessed: `tests/memory.rs` runs every generator and tool on large and
//! narrow shapes under a counting allocator and checks each peak against
//! them. Small fixed allocations (messages, a few hundred bytes) are not
//! checked.

use std::alloc::{GlobalAlloc, Layout, System};

/// Bytes every call may use besides its per-cell share: the level's lists
/// (at most `MAX_ROOMS` rooms and `MAX_ITEMS` items) and small buffers.
const FIXED: usize = 1 << 20;

/// Per cell, at most, for generating a level and its text or JSON form
/// (measured: at most 16, JSON of small maps).
const GENERATE_PER_CELL: usize = 32;

/// An error unless `bytes` can be allocated now. The probe goes to the
/// system allocator directly (the module's global allocator is the system's
/// anyway), so that `tests/memory.rs`' counting allocator measures the work
/// alone.
pub fn check(bytes: usize) -> Result<(), String> {
    let layout = Layout::from_size_align(bytes.max(1), 1).map_err(|_| too_much(bytes))?;
    // SAFETY: the layout's size is not zero; the block is freed at once.
    // `black_box` keeps the compiler from removing the unused allocation.
    unsafe {
        let block = std::hint::black_box(System.alloc(layout));
        if block.is_null() {
            return Err(too_much(bytes));
        }
        System.dealloc(block, layout);
    }
    Ok(())
}

fn too_much(bytes: usize) -> String {
    format!("not enough memory ({} MiB needed)", bytes.div_ceil(1 << 20))
}

/// `generate`, `generate_text`, `generate_json` on a map of `cells` cells.
pub fn bound_generate(cells: usize) -> usize {
    GENERATE_PER_CELL * cells + FIXED
}

/// `new_map`: the grid it fills.
pub fn bound_new_map(cells: usize) -> usize {
    cells + FIXED
}

/// `render`: the map's copy and its text (a newline a row).
pub fn bound_render((width, height): (usize, usize)) -> usize {
    2 * width * height + height + FIXED
}

/// The cells of a `width` x `height` map with a ring of cells around it:
/// the toolkit's searches pad their copy so that no step needs a bounds test.
fn padded((width, height): (usize, usize)) -> usize {
    (width + 2) * (height + 2)
}

/// `reachable`: the map's copy, the flood's marks (a byte a padded cell)
/// and its queue (a `u32` an open cell).
pub fn bound_reach(size: (usize, usize)) -> usize {
    let cells = size.0 * size.1;
    cells + padded(size) + 4 * (cells + 2) + FIXED
}

/// `fov` over a window of `cells` cells: its copy, the visible flags, and
/// on LuaJIT the flags as bytes (measured: 2 besides the copy).
pub fn bound_fov(cells: usize) -> usize {
    4 * cells + FIXED
}

/// The board's search (`toolkit/board.rs`) from `sources` sources: its
/// cells (a `u32` each, padded), and either the breadth-first queue (a
/// `u32` an open cell or source) or, with costs, a `u64` distance and two
/// `u32` links a padded cell.
fn bound_search(size: (usize, usize), sources: usize, weighted: bool) -> usize {
    let cells = size.0 * size.1;
    let search = if weighted {
        16 * padded(size)
    } else {
        4 * (cells + sources + 1)
    };
    4 * padded(size) + search
}

/// `distances` from `sources` sources over a window of `size` (`weighted`:
/// by Dijkstra's algorithm, for costs or start values): the window's copy,
/// its closed cells and the `known` flags read (a byte each), the search,
/// the sources as read and as board indices with their keys (56 bytes
/// each), the distances (a `u64` a cell) and, on LuaJIT, the same again
/// as bytes.
pub fn bound_distances(size: (usize, usize), sources: usize, weighted: bool) -> usize {
    let cells = size.0 * size.1;
    3 * cells + bound_search(size, sources, weighted) + 56 * sources + 16 * cells + FIXED
}

/// `path` over a window of `size`: the window's copy, its closed cells
/// and `known` flags, the search from the goal, and the path (a position,
/// 16 bytes, for each of at most every cell).
pub fn bound_path(size: (usize, usize), weighted: bool) -> usize {
    let cells = size.0 * size.1;
    3 * cells + bound_search(size, 1, weighted) + 16 * cells + FIXED
}

/// The sources of a search as read (a position and a value, 24 bytes
/// each), before the window they decide is known.
pub fn bound_sources(sources: usize) -> usize {
    24 * sources + FIXED
}

/// `flee`: `distances`, then the rescan over its scaled values: the cells
/// it may not enter (a byte a cell, then a byte a padded cell), a second
/// board and Dijkstra's search, every reached cell as a source with its
/// key (16 bytes) and the new distances (8).
pub fn bound_flee(size: (usize, usize), sources: usize, weighted: bool) -> usize {
    let cells = size.0 * size.1;
    bound_distances(size, sources, weighted)
        + bound_search(size, cells, true)
        + 25 * cells
        + padded(size)
}

/// `explore`: the map's copy, the known and avoided cells as read and as
/// one closed mask (a byte each), the distances from the start, and the
/// path to the frontier cell.
pub fn bound_explore(size: (usize, usize), weighted: bool) -> usize {
    let cells = size.0 * size.1;
    4 * cells + bound_distances(size, 1, weighted) + bound_path(size, weighted)
}

/// `explore`'s avoided cells of a map of `size`, read once for all its
/// windows: a bit each.
pub fn bound_avoided(size: (usize, usize)) -> usize {
    (size.0 * size.1).div_ceil(64) * 8 + FIXED
}

/// `sample`: the map's copy, the distances from `from`, the visible cells
/// (a byte each), the candidates (a `u32` each) and the cells drawn (a
/// position each, at most every cell).
pub fn bound_sample(size: (usize, usize)) -> usize {
    let cells = size.0 * size.1;
    bound_distances(size, 1, false) + 5 * cells + 16 * cells
}

/// `line` of `cells` cells: two `i64` each.
pub fn bound_line(cells: usize) -> usize {
    16 * cells + FIXED
}

/// `parse` of a map of `size`: its cells, copied once.
pub fn bound_parse(size: (usize, usize)) -> usize {
    size.0 * size.1 + FIXED
}

/// `autotile`: the map's copy, the class (a byte a padded cell), the masks
/// (2 bytes a cell), the rows they are pushed from (a `u64` a cell) and,
/// on LuaJIT's route, the masks again as bytes.
pub fn bound_autotile(size: (usize, usize)) -> usize {
    13 * size.0 * size.1 + padded(size) + FIXED
}

/// Per cell, at most, for what `vaults`, `arrive` and `place` add while a
/// level is made: the vaults' owners (a byte), the tunnels' marks (two
/// bytes) and queue (a `u32`) with, while the join checks the level, the
/// toolkit's flood (a byte and a `u32`); or the walking distances and
/// their queue (two `u32`s), sight (a byte) and the floor cells listed
/// with their distance (two `u32`s, and a count for each block of 256).
/// Measured: at most 17 B/cell in all, `bound_generate`'s share included.
const DESIGN_PER_CELL: usize = 16;

/// Each placed vault: its template turned (at most 64x64 bytes) and its
/// entrances (at most 4 x 64, a `usize` each).
const COPY_BYTES: usize = 64 * 64 + 4 * 64 * 8;

/// What `vaults`, `arrive` and `place` add to `bound_generate` on a map of
/// `cells` cells: the per-cell share, the templates as copied from Lua, the
/// copies placed and the cells placed (24 bytes each; the draws' map of an
/// entry's swapped slots, at most `MAX_PLACED` of them, falls within `FIXED`).
pub fn bound_design(cells: usize, template_cells: usize, copies: usize, placed: usize) -> usize {
    DESIGN_PER_CELL * cells + template_cells + COPY_BYTES * copies + 24 * placed + FIXED
}

/// `map.level` of a table or text: the grid copied (a byte a cell, and
/// the text's copy while it is read), its occupancy (a bit) and its things
/// (8 bytes each, at most every cell).
pub fn bound_level(cells: usize) -> usize {
    11 * cells + FIXED
}

/// A memory (`map.field`, `level:field()`): a byte a cell.
pub fn bound_memory(cells: usize) -> usize {
    cells + FIXED
}

/// `map.load` of `bytes`: a level is its terrain, bits and things again
/// (at most twice the bytes), a field of flags a byte a saved bit with the
/// bits read first (9 times the bytes).
pub fn bound_load(bytes: usize) -> usize {
    10 * bytes + FIXED
}

/// A field's `table()`: its window's values (8 bytes a cell) or flags (1).
pub fn bound_field_rows(cells: usize) -> usize {
    9 * cells + FIXED
}

/// `map.names` on `count` examples of `chars` characters in all, at
/// `order`: the examples' strings as read (16 bytes each) and the
/// training (`Names::bound`: the model's tables and, while one length is
/// sorted, its entries).
pub fn bound_names(chars: usize, count: usize, order: usize) -> usize {
    crate::toolbox::names::Names::bound(chars, count, order) + 16 * count + FIXED
}

/// A scheduler of `actors` actors (`map.scheduler(state, actors)`, or one
/// grown by `add` to as many): each actor's entry, heap node and free
/// slot; a vector's capacity is at most twice its length, and while it
/// grows it holds the old block too (measured: at most 140 B an actor,
/// 68 of them held).
pub fn bound_scheduler(actors: usize) -> usize {
    4 * actors * crate::toolbox::scheduler::BYTES_PER_ACTOR + FIXED
}

/// A scheduler's `state()`: at most 80 bytes an actor, and the order of
/// its actors (its heap's nodes copied and sorted, 32 bytes each, then a
/// slot each).
pub fn bound_scheduler_state(actors: usize) -> usize {
    (80 + 40) * actors + FIXED
}

/// `rng:fill` of `count` values: 16 bytes each.
pub fn bound_fill(count: usize) -> usize {
    16 * count + FIXED
}

/// `noise:grid` of `cells` cells: the values (a double each) and the
/// coordinates of a row (at most as many).
pub fn bound_noise(cells: usize) -> usize {
    16 * cells + FIXED
}

/// `light`'s lights as read: 48 bytes each (a `Light` and its slot).
pub fn bound_lights(lights: usize) -> usize {
    48 * lights + FIXED
}

/// `light` on a map of `size` whose lights reach a rectangle of `area`
/// cells, with `channels` channels (1, or 3 with colours): the result (a
/// double a cell a channel), the area's cells, and a light's window and
/// its field of view (each at most the area, a byte a cell).
pub fn bound_light(size: (usize, usize), area: usize, channels: usize) -> usize {
    8 * channels * size.0 * size.1 + 3 * area + FIXED
}
