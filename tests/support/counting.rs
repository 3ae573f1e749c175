//! A global allocator that counts live heap bytes and their peak, per
//! thread, for the memory tests and the fuzz targets (`fuzz/` includes this
//! file). Per thread, so that tests running beside each other do not count
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

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc(layout);
        if !p.is_null() {
            let live = LIVE.get().wrapping_add(layout.size() as isize);
            LIVE.set(live);
            PEAK.set(PEAK.get().max(live));
        }
        p
    }

    unsafe fn dealloc(&self, p: *mut u8, layout: Layout) {
        System.dealloc(p, layout);
        LIVE.set(LIVE.get().wrapping_sub(layout.size() as isize));
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Runs `f`; returns its result and the most heap it held at once above
/// what was live before, on this thread.
pub fn peak_of<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let before = LIVE.get();
    PEAK.set(before);
    let out = f();
    (out, PEAK.get().wrapping_sub(before).max(0) as usize)
}
