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

/// `render`: the map's copy and its text.
pub fn bound_render(cells: usize, height: usize) -> usize {
    2 * cells + height + FIXED
}

/// `reachable` (`reach::check`), the map's copy included (measured: 7).
pub fn bound_reach(cells: usize) -> usize {
    16 * cells + FIXED
}

/// `fov` over a window of `cells` cells, the window's copy included
/// (measured: 1 besides the copy).
pub fn bound_fov(cells: usize) -> usize {
    4 * cells + FIXED
}

/// `distances` from `sources` sources, the map's copy included (measured: 14).
pub fn bound_distances(cells: usize, sources: usize) -> usize {
    32 * cells + 16 * sources + FIXED
}

/// `path`, the map's copy included (measured: 18 with costs).
pub fn bound_path(cells: usize) -> usize {
    40 * cells + FIXED
}
