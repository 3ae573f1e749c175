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
    #[cfg(feature = "probe")]
    if faults::fails(bytes) {
        return Err(too_much(bytes));
    }
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

/// Fault injection, in the probe modules only (`map._faults`, the test of
/// tests/faults/): every `check` is an allocation point, and the armed one
/// fails as a full heap would. The module's heap is counted (the probe
/// modules' global allocator, tests/support/counting.rs), so that the test
/// sees a call's peak against what it checked, and what it left behind.
#[cfg(feature = "probe")]
#[path = "../tests/support/counting.rs"]
#[allow(dead_code)] // `peak_of` is the tests'
mod counting;

#[cfg(feature = "probe")]
pub mod faults {
    use std::cell::Cell;

    use super::counting;

    /// What a call did since `restart`.
    #[derive(Clone, Copy, Default)]
    pub struct Measure {
        /// The checks it made (its allocation points).
        pub points: usize,
        /// Whether the armed check came, and failed.
        pub failed: bool,
        /// The most bytes it held at once, over what was live at `restart`.
        pub peak: isize,
        /// The bytes live now, over what was live at `restart`.
        pub live: isize,
        /// The largest amount one of its checks asked for.
        pub checked: usize,
    }

    thread_local! {
        static ARMED: Cell<usize> = const { Cell::new(0) };
        static BASE: Cell<isize> = const { Cell::new(0) };
        static MEASURE: Cell<Measure> = Cell::new(Measure::default());
    }

    /// Whether the check for `bytes` is the armed one (and counts it).
    pub(super) fn fails(bytes: usize) -> bool {
        let mut measure = MEASURE.get();
        measure.points += 1;
        measure.checked = measure.checked.max(bytes);
        let fails = measure.points == ARMED.get();
        measure.failed |= fails;
        MEASURE.set(measure);
        fails
    }

    /// Ends the measure begun by the last `restart` and begins another,
    /// whose `armed`-th check fails (0: none).
    pub fn restart(armed: usize) -> Measure {
        let mut measure = MEASURE.get();
        let base = BASE.get();
        measure.peak = counting::peak().wrapping_sub(base);
        measure.live = counting::live().wrapping_sub(base);
        BASE.set(counting::mark());
        ARMED.set(armed);
        MEASURE.set(Measure::default());
        measure
    }
}
