//! A global allocator that counts live heap bytes and their peak, per
//! thread, for the memory tests, the fuzz targets (`fuzz/` includes this
//! file) and the probe modules' fault injection (`memory::faults`). Per
//! thread, so that tests running beside each other do not count
//! each other's allocations. Growing a block counts the old and the new
//! block together, as a moving `realloc` holds both.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

struct Counting;

thread_local! {
    // Signed and wrapping: a thread may free what another allocated.
    static LIVE: Cell<isize> = const { Cell::new(0) };
    static PEAK: Cell<isize> = const { Cell::new(0) };
}

// SAFETY: every block comes from `System` and goes back to it; the
// counting touches only this thread's cells.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let live = LIVE.get().wrapping_add(layout.size() as isize);
            LIVE.set(live);
            PEAK.set(PEAK.get().max(live));
        }
        p
    }

    unsafe fn dealloc(&self, p: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract, passed on.
        unsafe { System.dealloc(p, layout) };
        LIVE.set(LIVE.get().wrapping_sub(layout.size() as isize));
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The bytes live on this thread.
pub fn live() -> isize {
    LIVE.get()
}

/// The most bytes live at once on this thread since the last `mark`.
pub fn peak() -> isize {
    PEAK.get()
}

/// Starts a new peak at the bytes live now, which it returns.
pub fn mark() -> isize {
    let live = live();
    PEAK.set(live);
    live
}

/// Runs `f`; returns its result and the most heap it held at once above
/// what was live before, on this thread.
pub fn peak_of<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let before = mark();
    let out = f();
    (out, peak().wrapping_sub(before).max(0) as usize)
}
