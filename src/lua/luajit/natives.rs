//! LuaJIT only: the FFI functions `natives.lua` calls to work on levels,
//! fields and noises in place: `steps_batch`, the steps of `level:steps`,
//! and a noise's `get` and `grid`. Each takes a native's block (found by
//! `native_block`, which checks the value as every method checks `self`)
//! and checks it again, its tag and its value alive.
#![deny(unsafe_op_in_unsafe_fn)]

use std::ffi::c_void;
use std::panic::{catch_unwind, AssertUnwindSafe};

use crate::grid::ByteSet;
use crate::lua::stack::block::Block;
use crate::lua::stack::Native;
use crate::native::field::Field;
use crate::native::steps::step_movers;
use crate::native::NativeLevel;
use crate::toolkit::noise::{Noise, Origin};

/// The FFI functions `natives.lua` calls, by name.
pub fn ffi() -> [(&'static str, *mut c_void); 3] {
    [
        ("steps_batch", steps_batch as *mut c_void),
        ("noise_get", noise_get as *mut c_void),
        ("noise_grid", noise_grid as *mut c_void),
    ]
}

/// `level:steps` for `n` movers whose cells `cells` holds (x then y, each
/// checked within the level by `natives.lua`), on `level` down
/// `field` (blocks whose values `natives.lua` found alive and of one
/// size), by `blocked` and `flags` (1: diagonal steps, 2: occupied cells
/// closed, a mover's move then vacating and occupying): each mover's new
/// cell is written over its old one, in order, and the index (from 0) of
/// each mover that moved, in order, after the `2 n` cells, so that
/// `natives.lua` writes back those alone, as the C method does (a table
/// given twice as a mover ends where its last move put it). Returns how many
/// moved (at most `MAX_CELLS`: `natives.lua` refuses more movers);
/// -2 if a block's value is gone, the sizes differ or a cell is outside
/// (nothing moved); -3 on a panic (none is known: a caught one is not let
/// through the FFI).
///
/// # Safety
/// Called by `natives.lua` through the FFI with pointers to live
/// blocks of a level and a field, to `3 n` `u32`s and to 256 bytes each 0
/// or 1.
unsafe extern "C" fn steps_batch(
    level: *mut Block,
    field: *const Block,
    cells: *mut u32,
    n: u32,
    flags: u32,
    blocked: *const ByteSet,
) -> i32 {
    catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: the caller's promise; the blocks' values are checked
        // alive (non-null) here again, and no Lua code runs meanwhile.
        let (level, field, blocked, cells, order) = unsafe {
            match (
                Block::value(level, NativeLevel::kind()),
                Block::value(field, Field::kind()),
            ) {
                (Some(l), Some(f)) => (
                    &mut *l.cast::<NativeLevel>(),
                    &*f.cast::<Field>(),
                    &*blocked,
                    std::slice::from_raw_parts_mut(cells.cast::<[u32; 2]>(), n as usize),
                    std::slice::from_raw_parts_mut(cells.add(2 * n as usize), n as usize),
                ),
                _ => return -2,
            }
        };
        let (w, h) = (level.width(), level.height());
        let inside =
            |c: &[u32; 2]| (1..=w).contains(&(c[0] as usize)) && (1..=h).contains(&(c[1] as usize));
        if field.size != (w, h) || field.is_flags() || !cells.iter().all(inside) {
            return -2;
        }
        let rule = (blocked, flags & 1 != 0);
        let mut moved = 0;
        step_movers(level, field, cells, rule, flags & 2 != 0, |i, _| {
            order[moved] = i as u32;
            moved += 1;
        });
        moved as i32
    }))
    .unwrap_or(-3)
}

/// `noise:get(x, y)` through the FFI: the value at `(x, y)` (finite, within
/// 2^53: `natives.lua` checks) of the noise in `block`; NaN if the
/// block's value is gone (freed), for the C method to name.
///
/// # Safety
/// Called by `natives.lua` through the FFI with a pointer to a block
/// `native_block` found to be a noise's.
unsafe extern "C" fn noise_get(block: *const Block, x: f64, y: f64) -> f64 {
    // SAFETY: the caller's promise; the value is checked alive here again,
    // and no Lua code runs meanwhile. `get` cannot panic: plain arithmetic
    // and indices masked within its tables.
    unsafe {
        match Block::value(block, Noise::kind()) {
            Some(n) => (*n.cast::<Noise>()).get(x, y),
            None => f64::NAN,
        }
    }
}

/// `noise:grid(width, height, x0, y0)` through the FFI: the values, row
/// after row, into `out`'s `width * height` doubles (`natives.lua`
/// checks the sizes and the origin as the C method does, and makes the
/// buffer). Returns 0; -1 if the block's value is gone (freed), -2 if it
/// would take more than `noise::MAX_SAMPLES` samples, for the C method to
/// name or refuse; -3 on a panic (none is known).
///
/// # Safety
/// Called by `natives.lua` through the FFI with a pointer to a block
/// `native_block` found to be a noise's and one to `width * height`
/// doubles.
unsafe extern "C" fn noise_grid(
    block: *const Block,
    width: u32,
    height: u32,
    x0: f64,
    y0: f64,
    out: *mut f64,
) -> i32 {
    catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: the caller's promise; the value is checked alive here
        // again, and no Lua code runs meanwhile.
        let (noise, out) = unsafe {
            match Block::value(block, Noise::kind()) {
                Some(n) => (
                    &*n.cast::<Noise>(),
                    std::slice::from_raw_parts_mut(out, width as usize * height as usize),
                ),
                None => return -1,
            }
        };
        // Too many samples: the C method says so.
        if noise.check_grid(out.len()).is_err() {
            return -2;
        }
        noise.grid_into(width as usize, Origin::of(x0), Origin::of(y0), out);
        0
    }))
    .unwrap_or(-3)
}
