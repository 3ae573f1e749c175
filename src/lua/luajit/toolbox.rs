//! LuaJIT only: the toolbox's hot methods through the FFI (`toolbox.lua`):
//! a source's `random` and `fill`, a scheduler's `next`, `add` and
//! `remove`. A C function call costs LuaJIT far more than a draw or a heap
//! step, and breaks the trace around it; an FFI call is compiled. The
//! functions here take a native's block (its address, given once the C
//! side checked the value, `native_block`), check it again (its tag, its
//! value alive), and answer a sentinel for anything the C method must
//! handle instead (a freed value, an error), which `toolbox.lua` then
//! calls. No panic crosses the FFI (`catch_unwind`).

#![deny(unsafe_op_in_unsafe_fn)]

use std::ffi::{c_int, c_void};
use std::panic::{catch_unwind, AssertUnwindSafe};

use crate::lua::stack::block::Block;
use crate::lua::stack::Native;
use crate::memory;
use crate::toolbox::random::Random;
use crate::toolbox::scheduler::{self, Scheduler};

/// The FFI functions `toolbox.lua` calls, by name.
pub fn ffi() -> [(&'static str, *mut c_void); 7] {
    [
        ("rng_float", rng_float as *mut c_void),
        ("rng_between", rng_between as *mut c_void),
        ("sched_next", sched_next as *mut c_void),
        ("sched_next_slot", sched_next_slot as *mut c_void),
        ("sched_add", sched_add as *mut c_void),
        ("sched_remove", sched_remove as *mut c_void),
        ("rng_fill", rng_fill as *mut c_void),
    ]
}

/// The value of the native `T` whose block is at `block`, if alive.
///
/// # Safety
/// `block` is a native's block (checked by `native_block` once).
unsafe fn value<T: Native>(block: *mut c_void) -> Option<&'static mut T> {
    // SAFETY: the caller's promise; the value is checked alive and of its
    // kind here, on every call, and no Lua code runs while it is used.
    unsafe { Block::value(block.cast(), T::kind()).map(|v| &mut *v.cast::<T>()) }
}

/// A float in [0, 1) from the source at `block`; -1 if it is freed.
///
/// # Safety
/// Called through the FFI with a source's block.
unsafe extern "C" fn rng_float(block: *mut c_void) -> f64 {
    catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: the caller's promise.
        unsafe { value::<Random>(block) }.map_or(-1.0, Random::float)
    }))
    .unwrap_or(-1.0)
}

/// An integer in `lo..=hi` (integers within ±2^53, `lo <= hi`, checked by
/// the caller) from the source at `block`; NaN if it is freed or the
/// bounds are not such.
///
/// # Safety
/// Called through the FFI with a source's block.
unsafe extern "C" fn rng_between(block: *mut c_void, lo: f64, hi: f64) -> f64 {
    catch_unwind(AssertUnwindSafe(|| {
        let Some((lo, hi)) = bounds(lo, hi) else {
            return f64::NAN;
        };
        // SAFETY: the caller's promise.
        match unsafe { value::<Random>(block) } {
            Some(r) => r.between(lo, hi) as f64,
            None => f64::NAN,
        }
    }))
    .unwrap_or(f64::NAN)
}

/// `lo` and `hi` as integers, if they are within ±2^53 and in order.
fn bounds(lo: f64, hi: f64) -> Option<(i64, i64)> {
    let limit = (1u64 << 53) as f64;
    let ok = |x: f64| x.fract() == 0.0 && x.abs() <= limit;
    (ok(lo) && ok(hi) && lo <= hi).then_some((lo as i64, hi as i64))
}

/// `count` draws into `out` (as `random()` when `float`, else in
/// `lo..=hi`); 0, or -1 if the source is freed or the bounds are not
/// integers within ±2^53 in order (nothing drawn then).
///
/// # Safety
/// Called through the FFI with a source's block and room for `count`
/// doubles at `out`.
unsafe extern "C" fn rng_fill(
    block: *mut c_void,
    out: *mut f64,
    count: u32,
    float: c_int,
    lo: f64,
    hi: f64,
) -> c_int {
    catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: the caller's promise.
        let (Some(r), out) = (unsafe { value::<Random>(block) }, unsafe {
            std::slice::from_raw_parts_mut(out, count as usize)
        }) else {
            return -1;
        };
        if float != 0 {
            out.iter_mut().for_each(|v| *v = r.float());
            return 0;
        }
        let Some((lo, hi)) = bounds(lo, hi) else {
            return -1;
        };
        out.iter_mut().for_each(|v| *v = r.between(lo, hi) as f64);
        0
    }))
    .unwrap_or(-1)
}

/// The scheduler's next turn: the slot of the actor whose turn it is,
/// its time written at `time`; 0 when no actor is left; -1 for what the C
/// method must say (a freed scheduler, the time passing 2^53 turns).
///
/// # Safety
/// Called through the FFI with a scheduler's block and a double at `time`.
unsafe extern "C" fn sched_next(block: *mut c_void, time: *mut f64) -> f64 {
    catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: the caller's promise.
        let Some(s) = (unsafe { value::<Scheduler>(block) }) else {
            return -1.0;
        };
        match s.next_turn() {
            Ok(Some((slot, units))) => {
                // SAFETY: the caller's promise.
                unsafe { *time = scheduler::turns(units) };
                f64::from(slot)
            }
            Ok(None) => 0.0,
            Err(_) => -1.0,
        }
    }))
    .unwrap_or(-1.0)
}

/// The slot the scheduler's next `add` gives; -1 if it is freed.
///
/// # Safety
/// Called through the FFI with a scheduler's block.
unsafe extern "C" fn sched_next_slot(block: *mut c_void) -> f64 {
    catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: the caller's promise.
        unsafe { value::<Scheduler>(block) }.map_or(-1.0, |s| f64::from(s.next_slot()))
    }))
    .unwrap_or(-1.0)
}

/// Adds an actor of `speed` (within the scheduler's range, checked by the
/// caller, whose tables already hold it at `next_slot`); its slot, or -1
/// for what the C method must say (a freed scheduler, a speed out of
/// range, the most actors, memory, the time passing 2^53 turns), nothing
/// added then.
///
/// # Safety
/// Called through the FFI with a scheduler's block.
unsafe extern "C" fn sched_add(block: *mut c_void, speed: f64) -> f64 {
    catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: the caller's promise.
        let Some(s) = (unsafe { value::<Scheduler>(block) }) else {
            return -1.0;
        };
        if !(scheduler::MIN_SPEED..=scheduler::MAX_SPEED).contains(&speed) {
            return -1.0;
        }
        let Some(period) = scheduler::units(speed, true) else {
            return -1.0;
        };
        match s.can_add(period) {
            Ok(None) => {}
            Ok(Some(bytes)) if memory::check(bytes).is_ok() => {}
            _ => return -1.0,
        }
        f64::from(s.add(period))
    }))
    .unwrap_or(-1.0)
}

/// Removes the actor in `slot`: 1, or 0 if the slot holds none, -1 if the
/// scheduler is freed.
///
/// # Safety
/// Called through the FFI with a scheduler's block.
unsafe extern "C" fn sched_remove(block: *mut c_void, at: f64) -> c_int {
    catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: the caller's promise.
        let Some(s) = (unsafe { value::<Scheduler>(block) }) else {
            return -1;
        };
        let slot = at as u32;
        if f64::from(slot) != at || !s.holds(slot) {
            return 0;
        }
        s.remove(slot);
        1
    }))
    .unwrap_or(-1)
}
