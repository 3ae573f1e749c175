//! How much memory a call may use, and the check that it is free before the
//! call starts.
//!
//! Rust aborts the process when an allocation fails; a Lua host must get an
//! error instead. So every call that allocates in proportion to its input
//! first asks for its whole bound at once with `try_reserve` (which fails
//! cleanly) and gives it back, then does its work. Each bound lives beside
//! the code it bounds, a `pub fn bound...` of that module (`fov::bound`,
//! `save::bound_load`), made of `FIXED` and a share per cell or entry. The
//! bounds are measured, not guessed: `tests/memory.rs` runs every generator
//! and tool on large and narrow shapes under a counting allocator and
//! checks each peak against them (`spec/checklist_spec.lua` fails for a
//! bound it does not measure). Small fixed allocations (messages, a few
//! hundred bytes) are not checked.

use std::alloc::{GlobalAlloc, Layout, System};

/// Bytes every call may use besides its share in proportion to its input:
/// a level's lists (at most `MAX_ROOMS` rooms and `MAX_ITEMS` items) and
/// small buffers.
pub const FIXED: usize = 1 << 20;

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
