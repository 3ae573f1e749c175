//! Writing to the Lua stack: every result a function returns.
//!
//! Pushing runs after the core is done, inside `lua_pcall` (`push_protected`
//! in mod.rs). Each distinct cell string is pushed once and copied with
//! `lua_pushvalue`; a row of up to 256 cells is made by one call of the row
//! maker (`{...}`, `ROW_CHUNK`), a wider one with `lua_createtable` and a
//! `lua_rawseti` a cell: the fastest ways to fill a table of rows
//! (docs/performance.md). Each pusher
//! leaves exactly its results on the stack. The errors it can meet (Lua out
//! of memory, no room on the stack) end the `pcall`; the reply is dropped
//! before they are raised again, so no Rust value is ever jumped over.
//!
//! The pushers' contract, each one's `# Safety`: `l` is the state of a Lua
//! call to the module, inside `push_reply`'s protected call (so an error
//! they raise ends that `pcall`), with the free stack slots each asks for
//! (the public ones make their own room).

#![deny(unsafe_op_in_unsafe_fn)]

use std::ffi::{c_int, CStr};

use mlua::ffi::{self, lua_State};

use super::upvalues::ROW;

use crate::grid::{Grid, Pos, Rect};
use crate::toolkit::board::BEYOND;

/// Makes room for `slots` more values on the stack, or raises "stack
/// overflow (no room on the Lua stack for the result)".
///
/// # Safety
/// The pushers' contract (module doc).
pub unsafe fn make_room(l: *mut lua_State, slots: c_int) {
    // SAFETY: `luaL_checkstack` raises its error inside the `pcall` when the
    // stack cannot grow.
    unsafe {
        ffi::luaL_checkstack(
            l,
            slots,
            c"no room on the Lua stack for the result".as_ptr(),
        );
    }
}

/// Slots a push of `grid`'s rows needs: the result, a row, a scratch value
/// and up to 256 cached cell strings; then, for a row the row maker makes,
/// the maker and the row's cells.
pub fn push_slots(grid: &Grid) -> c_int {
    let made = if grid.width() <= MADE_ROWS {
        1 + grid.width()
    } else {
        0
    };
    (260 + made) as c_int
}

/// The row maker, `push_reply`'s second upvalue: a Lua function that returns its
/// arguments as a new table, `{...}`. Lua 5.4's `OP_SETLIST` stores a
/// row's cells in one step, where the C API takes a `lua_rawseti` a cell.
pub const ROW_CHUNK: &str = "return function(...) return {...} end";

/// The widest row the row maker builds (one argument a cell); wider rows
/// are filled a cell at a time.
const MADE_ROWS: usize = 256;

/// # Safety
/// The pushers' contract (module doc).
pub unsafe fn push_grid(l: *mut lua_State, grid: &Grid) -> c_int {
    // SAFETY: `make_room` above made the slots it uses.
    unsafe {
        make_room(l, push_slots(grid));
        push_rows(l, grid, 0);
        1
    }
}

/// The rows of `grid` with its `blocked` field (a level's `table()` of a
/// map whose walking `blocked` says).
///
/// # Safety
/// The pushers' contract (module doc).
pub unsafe fn push_terrain(l: *mut lua_State, grid: &Grid, blocked: &[u8]) -> c_int {
    // SAFETY: `make_room` made the slots `push_rows` uses and one more.
    unsafe {
        make_room(l, push_slots(grid) + 1);
        push_rows(l, grid, 1);
        ffi::lua_pushlstring(l, blocked.as_ptr().cast(), blocked.len());
        ffi::lua_setfield(l, -2, c"blocked".as_ptr());
        1
    }
}

/// Pushes the rows of `grid` as a new table with room for `fields` more keys.
///
/// # Safety
/// The pushers' contract, with `push_slots(grid)` slots free.
pub unsafe fn push_rows(l: *mut lua_State, grid: &Grid, fields: c_int) {
    // SAFETY: the caller made room for the table, a row and 256 cell strings
    // (`push_slots`); the table index `map` stays valid, as only pushes above
    // it follow.
    unsafe {
        ffi::lua_createtable(l, grid.height() as c_int, fields);
        let map = ffi::lua_gettop(l);
        // Each distinct cell string is pushed once, just above the map table.
        let mut present = [false; 256];
        grid.cells()
            .iter()
            .for_each(|&c| present[c as usize] = true);
        let mut slot = [0 as c_int; 256];
        for (cell, _) in present.iter().enumerate().filter(|(_, &p)| p) {
            ffi::lua_pushlstring(l, [cell as u8].as_ptr().cast(), 1);
            slot[cell] = ffi::lua_gettop(l);
        }
        for (y, row) in grid.rows().enumerate() {
            if row.len() <= MADE_ROWS {
                ffi::lua_pushvalue(l, ROW);
                for &cell in row {
                    ffi::lua_pushvalue(l, slot[cell as usize]);
                }
                ffi::lua_call(l, row.len() as c_int, 1);
            } else {
                ffi::lua_createtable(l, grid.width() as c_int, 0);
                for (x, &cell) in row.iter().enumerate() {
                    ffi::lua_pushvalue(l, slot[cell as usize]);
                    ffi::lua_rawseti(l, -2, x as ffi::lua_Integer + 1);
                }
            }
            ffi::lua_rawseti(l, map, y as ffi::lua_Integer + 1);
        }
        ffi::lua_settop(l, map);
    }
}

/// Pushes `{x=, y=}` with room for `extra` more fields.
///
/// # Safety
/// The pushers' contract, with two slots free.
pub unsafe fn push_pos(l: *mut lua_State, p: Pos, extra: c_int) {
    // SAFETY: the caller leaves room for the table and one value.
    unsafe {
        ffi::lua_createtable(l, 0, 2 + extra);
        let t = ffi::lua_gettop(l);
        set_int(l, t, c"x", p.x as i64);
        set_int(l, t, c"y", p.y as i64);
    }
}

/// # Safety
/// The pushers' contract, with one slot free and a table at `table`.
pub unsafe fn set_int(l: *mut lua_State, table: c_int, key: &CStr, v: i64) {
    // SAFETY: `table` is a table on the stack (this function's contract) and it
    // pushes one value at a time, set at once.
    unsafe {
        ffi::lua_pushinteger(l, v as ffi::lua_Integer);
        ffi::lua_setfield(l, table, key.as_ptr());
    }
}

/// # Safety
/// The pushers' contract (module doc).
pub unsafe fn push_bytes(l: *mut lua_State, bytes: &[u8]) -> c_int {
    // SAFETY: it pushes at most 1 values, within the LUA_MINSTACK (20) slots a
    // C function is given; Lua copies the bytes.
    unsafe {
        ffi::lua_pushlstring(l, bytes.as_ptr().cast(), bytes.len());
        1
    }
}

/// # Safety
/// The pushers' contract (module doc).
pub unsafe fn push_true(l: *mut lua_State) -> c_int {
    // SAFETY: it pushes at most 1 values, within the LUA_MINSTACK (20) slots a
    // C function is given.
    unsafe {
        ffi::lua_pushboolean(l, 1);
        1
    }
}

/// # Safety
/// The pushers' contract (module doc).
pub unsafe fn push_false_and(l: *mut lua_State, why: &str) -> c_int {
    // SAFETY: it pushes at most 2 values, within the LUA_MINSTACK (20) slots a
    // C function is given; Lua copies the bytes.
    unsafe {
        ffi::lua_pushboolean(l, 0);
        ffi::lua_pushlstring(l, why.as_ptr().cast(), why.len());
        2
    }
}

/// # Safety
/// The pushers' contract, with one slot free and a table at `table`.
pub unsafe fn set_str(l: *mut lua_State, table: c_int, key: &CStr, v: &str) {
    // SAFETY: `table` is a table on the stack (this function's contract) and it
    // pushes one value at a time, set at once.
    unsafe {
        ffi::lua_pushlstring(l, v.as_ptr().cast(), v.len());
        ffi::lua_setfield(l, table, key.as_ptr());
    }
}

/// # Safety
/// The pushers' contract, with one slot free and a table at `table`.
pub unsafe fn set_number(l: *mut lua_State, table: c_int, key: &CStr, v: f64) {
    // SAFETY: `table` is a table on the stack (this function's contract) and it
    // pushes one value at a time, set at once.
    unsafe {
        ffi::lua_pushnumber(l, v);
        ffi::lua_setfield(l, table, key.as_ptr());
    }
}

/// `map.fov`'s table: rows `1..height`, each holding `true` at the visible
/// columns. `seen` covers the `w` x `h` window whose top-left cell is
/// `(x0, y0)`; rows outside it are empty.
///
/// # Safety
/// The pushers' contract (module doc).
pub unsafe fn push_visible(
    l: *mut lua_State,
    height: usize,
    (x0, y0): (usize, usize),
    w: usize,
    seen: &[bool],
) -> c_int {
    // SAFETY: `make_room` above made the slots it uses; the window's rows are
    // inside `seen`, checked by the slicing.
    unsafe {
        make_room(l, 4);
        ffi::lua_createtable(l, height as c_int, 0);
        let window_rows = y0..y0 + seen.len() / w;
        for y in 1..=height {
            let row: &[bool] = if window_rows.contains(&y) {
                &seen[(y - y0) * w..][..w]
            } else {
                &[]
            };
            let count = row.iter().filter(|&&v| v).count();
            ffi::lua_createtable(l, 0, count as c_int);
            for (i, _) in row.iter().enumerate().filter(|(_, &v)| v) {
                ffi::lua_pushboolean(l, 1);
                ffi::lua_rawseti(l, -2, (x0 + i) as ffi::lua_Integer);
            }
            ffi::lua_rawseti(l, -2, y as ffi::lua_Integer);
        }
        1
    }
}

/// A distance map for a map of `size`: the `values` of the cells of
/// `window` (row-major, `BEYOND` where unreached); every other cell is
/// unreached.
pub struct Rows {
    pub size: (usize, usize),
    pub window: Rect,
    pub values: Vec<i64>,
}

/// # Safety
/// The pushers' contract, with two slots free.
pub unsafe fn push_number_rows(l: *mut lua_State, width: usize, height: usize, values: &[f64]) {
    // SAFETY: each row is set in the table before the next is made.
    unsafe {
        ffi::lua_createtable(l, height as c_int, 0);
        for (y, row) in values.chunks_exact(width).take(height).enumerate() {
            ffi::lua_createtable(l, width as c_int, 0);
            for (x, &v) in row.iter().enumerate() {
                ffi::lua_pushnumber(l, v);
                ffi::lua_rawseti(l, -2, x as ffi::lua_Integer + 1);
            }
            ffi::lua_rawseti(l, -2, y as ffi::lua_Integer + 1);
        }
    }
}

/// A number: it allocates nothing (`push_plain`).
///
/// # Safety
/// The pushers' contract (module doc).
pub unsafe fn push_number(l: *mut lua_State, v: f64) -> c_int {
    // SAFETY: one slot.
    unsafe {
        ffi::lua_pushnumber(l, v);
        1
    }
}

/// Rows of integers (`map.distances`' table), `false` where unreached.
///
/// # Safety
/// The pushers' contract (module doc).
pub unsafe fn push_rows_of_integers(l: *mut lua_State, rows: &Rows) -> c_int {
    // SAFETY: `make_room` above made the slots it uses; each row is set in the
    // table before the next is made.
    unsafe {
        make_room(l, 4);
        let ((width, height), w) = (rows.size, rows.window);
        ffi::lua_createtable(l, height as c_int, 0);
        for y in 1..=height {
            ffi::lua_createtable(l, width as c_int, 0);
            let inside: &[i64] = if (w.y..w.y + w.h).contains(&y) {
                &rows.values[(y - w.y) * w.w..][..w.w]
            } else {
                &[]
            };
            for x in 1..=width {
                let v = if inside.is_empty() || !(w.x..w.x + w.w).contains(&x) {
                    BEYOND
                } else {
                    inside[x - w.x]
                };
                if v == BEYOND {
                    ffi::lua_pushboolean(l, 0);
                } else {
                    ffi::lua_pushinteger(l, v as ffi::lua_Integer);
                }
                ffi::lua_rawseti(l, -2, x as ffi::lua_Integer);
            }
            ffi::lua_rawseti(l, -2, y as ffi::lua_Integer);
        }
        1
    }
}

/// An array of `{x=, y=}` (`map.path`'s).
///
/// # Safety
/// The pushers' contract (module doc).
pub unsafe fn push_positions(l: *mut lua_State, cells: &[Pos]) -> c_int {
    // SAFETY: `make_room` above made the slots it uses.
    unsafe {
        make_room(l, 6);
        ffi::lua_createtable(l, cells.len() as c_int, 0);
        for (i, &p) in cells.iter().enumerate() {
            push_pos(l, p, 0);
            ffi::lua_rawseti(l, -2, i as ffi::lua_Integer + 1);
        }
        1
    }
}

/// # Safety
/// The pushers' contract (module doc).
pub unsafe fn push_nil_and(l: *mut lua_State, why: &str) -> c_int {
    // SAFETY: it pushes at most 2 values, within the LUA_MINSTACK (20) slots a
    // C function is given; Lua copies the bytes.
    unsafe {
        ffi::lua_pushnil(l);
        ffi::lua_pushlstring(l, why.as_ptr().cast(), why.len());
        2
    }
}

/// `nx, ny`, or nil (`map.step`'s).
///
/// # Safety
/// The pushers' contract (module doc).
pub unsafe fn push_cell(l: *mut lua_State, cell: Option<Pos>) -> c_int {
    // SAFETY: it pushes at most 2 values, within the LUA_MINSTACK (20) slots a
    // C function is given.
    unsafe {
        match cell {
            Some(p) => {
                ffi::lua_pushinteger(l, p.x as ffi::lua_Integer);
                ffi::lua_pushinteger(l, p.y as ffi::lua_Integer);
                2
            }
            None => {
                ffi::lua_pushnil(l);
                1
            }
        }
    }
}

/// # Safety
/// The pushers' contract (module doc).
pub unsafe fn push_boolean(l: *mut lua_State, b: bool) -> c_int {
    // SAFETY: it pushes at most 1 values, within the LUA_MINSTACK (20) slots a
    // C function is given.
    unsafe {
        ffi::lua_pushboolean(l, c_int::from(b));
        1
    }
}

/// An integer, such as a count.
///
/// # Safety
/// The pushers' contract (module doc).
pub unsafe fn push_integer(l: *mut lua_State, n: i64) -> c_int {
    // SAFETY: it pushes at most 1 values, within the LUA_MINSTACK (20) slots a
    // C function is given.
    unsafe {
        ffi::lua_pushinteger(l, n as ffi::lua_Integer);
        1
    }
}
