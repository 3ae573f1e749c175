//! The replies many functions share, each pushing itself (`call::Reply`):
//! nothing, a boolean, an integer, a number, a string, a verdict, a cell,
//! a cell's character, positions, rows of integers, `fov`'s rows, a map's
//! rows. A reply only one function gives is defined in its file.

#![deny(unsafe_op_in_unsafe_fn)]

use std::ffi::c_int;

use mlua::ffi::{self, lua_State};

use super::block::CHARS;
use super::call::Reply;
use super::push;
use super::upvalues::NATIVES;
use crate::grid::{Grid, Pos};

/// No value.
impl Reply for () {
    unsafe fn push_on(&self, _: *mut lua_State) -> c_int {
        0
    }
    unsafe fn push_plain_on(&self, _: *mut lua_State) -> Option<c_int> {
        Some(0)
    }
}

impl Reply for bool {
    unsafe fn push_on(&self, l: *mut lua_State) -> c_int {
        // SAFETY: the pushers' contract.
        unsafe { push::push_boolean(l, *self) }
    }
    unsafe fn push_plain_on(&self, l: *mut lua_State) -> Option<c_int> {
        // SAFETY: one slot, nothing allocated.
        Some(unsafe { push::push_boolean(l, *self) })
    }
}

/// An integer, such as a count.
impl Reply for i64 {
    unsafe fn push_on(&self, l: *mut lua_State) -> c_int {
        // SAFETY: the pushers' contract.
        unsafe { push::push_integer(l, *self) }
    }
    unsafe fn push_plain_on(&self, l: *mut lua_State) -> Option<c_int> {
        // SAFETY: one slot, nothing allocated.
        Some(unsafe { push::push_integer(l, *self) })
    }
}

impl Reply for f64 {
    unsafe fn push_on(&self, l: *mut lua_State) -> c_int {
        // SAFETY: the pushers' contract.
        unsafe { push::push_number(l, *self) }
    }
    unsafe fn push_plain_on(&self, l: *mut lua_State) -> Option<c_int> {
        // SAFETY: one slot, nothing allocated.
        Some(unsafe { push::push_number(l, *self) })
    }
}

/// A string.
impl Reply for Vec<u8> {
    unsafe fn push_on(&self, l: *mut lua_State) -> c_int {
        // SAFETY: the pushers' contract.
        unsafe { push::push_bytes(l, self) }
    }
}

/// A value, or nil (no value: a property that is none).
impl<R: Reply> Reply for Option<R> {
    unsafe fn push_on(&self, l: *mut lua_State) -> c_int {
        // SAFETY: the pushers' contract.
        self.as_ref().map_or(0, |r| unsafe { r.push_on(l) })
    }
    unsafe fn push_plain_on(&self, l: *mut lua_State) -> Option<c_int> {
        match self {
            // SAFETY: as the caller's.
            Some(r) => unsafe { r.push_plain_on(l) },
            None => Some(0),
        }
    }
    fn carried(&self) -> &'static [c_int] {
        self.as_ref().map_or(&[], Reply::carried)
    }
}

/// One of several shapes (a level's `table()`: a level, a map, a map with
/// its `blocked`).
impl Reply for Box<dyn Reply> {
    unsafe fn push_on(&self, l: *mut lua_State) -> c_int {
        // SAFETY: the pushers' contract.
        unsafe { (**self).push_on(l) }
    }
    unsafe fn push_plain_on(&self, l: *mut lua_State) -> Option<c_int> {
        // SAFETY: as the caller's.
        unsafe { (**self).push_plain_on(l) }
    }
    fn carried(&self) -> &'static [c_int] {
        (**self).carried()
    }
}

/// `true`, or `false` and why.
pub struct Verdict(pub Result<(), String>);

impl Reply for Verdict {
    unsafe fn push_on(&self, l: *mut lua_State) -> c_int {
        // SAFETY: the pushers' contract.
        unsafe {
            match &self.0 {
                Ok(()) => push::push_true(l),
                Err(why) => push::push_false_and(l, why),
            }
        }
    }
}

/// `x, y`, or nil (`map.step`'s).
pub struct Cell(pub Option<Pos>);

impl Reply for Cell {
    unsafe fn push_on(&self, l: *mut lua_State) -> c_int {
        // SAFETY: the pushers' contract.
        unsafe { push::push_cell(l, self.0) }
    }
    unsafe fn push_plain_on(&self, l: *mut lua_State) -> Option<c_int> {
        // SAFETY: two slots, nothing allocated.
        Some(unsafe { push::push_cell(l, self.0) })
    }
}

/// One cell's character, one of the natives' one-byte strings (made when
/// the module opens: no allocation).
pub struct Char(pub u8);

impl Reply for Char {
    unsafe fn push_on(&self, l: *mut lua_State) -> c_int {
        // SAFETY: as `push_plain`'s; the natives' table is upvalue 3 of
        // `push_reply` too.
        unsafe { self.push_plain_on(l) }.unwrap_or(0)
    }
    unsafe fn push_plain_on(&self, l: *mut lua_State) -> Option<c_int> {
        // SAFETY: two slots, within the free ones a C function has.
        unsafe {
            ffi::lua_rawgeti(l, NATIVES, CHARS);
            ffi::lua_rawgeti(l, -1, ffi::lua_Integer::from(self.0) + 1);
            ffi::lua_remove(l, -2);
        }
        Some(1)
    }
}

/// An array of `{x=, y=}`, or nil and why (`map.path`'s).
pub struct Positions(pub Result<Vec<Pos>, String>);

impl Reply for Positions {
    unsafe fn push_on(&self, l: *mut lua_State) -> c_int {
        // SAFETY: the pushers' contract.
        unsafe {
            match &self.0 {
                Ok(cells) => push::push_positions(l, cells),
                Err(why) => push::push_nil_and(l, why),
            }
        }
    }
}

/// Rows of integers, `false` where unreached (`map.distances`').
impl Reply for push::Rows {
    unsafe fn push_on(&self, l: *mut lua_State) -> c_int {
        // SAFETY: the pushers' contract.
        unsafe { push::push_rows_of_integers(l, self) }
    }
}

/// `map.fov`'s rows of `true`: rows `1..height`, `seen` covering the
/// window of `width` columns whose top-left cell is `corner`.
pub struct Visible {
    pub height: usize,
    pub corner: (usize, usize),
    pub width: usize,
    pub seen: Vec<bool>,
}

impl Reply for Visible {
    unsafe fn push_on(&self, l: *mut lua_State) -> c_int {
        // SAFETY: the pushers' contract.
        unsafe { push::push_visible(l, self.height, self.corner, self.width, &self.seen) }
    }
}

/// A table of rows of cells.
pub struct MapRows(pub Grid);

impl Reply for MapRows {
    unsafe fn push_on(&self, l: *mut lua_State) -> c_int {
        // SAFETY: the pushers' contract.
        unsafe { push::push_grid(l, &self.0) }
    }
}

/// A table of rows of cells with its `blocked` field.
pub struct Terrain(pub Grid, pub Vec<u8>);

impl Reply for Terrain {
    unsafe fn push_on(&self, l: *mut lua_State) -> c_int {
        // SAFETY: the pushers' contract.
        unsafe { push::push_terrain(l, &self.0, &self.1) }
    }
}

/// One reply or another (`lvl:fov`: a count, or a new field).
pub enum Either<A, B> {
    Left(A),
    Right(B),
}

impl<A: Reply, B: Reply> Reply for Either<A, B> {
    unsafe fn push_on(&self, l: *mut lua_State) -> c_int {
        // SAFETY: the pushers' contract.
        unsafe {
            match self {
                Either::Left(a) => a.push_on(l),
                Either::Right(b) => b.push_on(l),
            }
        }
    }
    unsafe fn push_plain_on(&self, l: *mut lua_State) -> Option<c_int> {
        // SAFETY: as the caller's.
        unsafe {
            match self {
                Either::Left(a) => a.push_plain_on(l),
                Either::Right(b) => b.push_plain_on(l),
            }
        }
    }
    fn carried(&self) -> &'static [c_int] {
        match self {
            Either::Left(a) => a.carried(),
            Either::Right(b) => b.carried(),
        }
    }
}
