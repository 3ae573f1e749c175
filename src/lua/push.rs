//! Writing to the Lua stack: every result a function returns.
//!
//! Pushing runs after the core is done, inside `lua_pcall` (`push_protected`
//! in mod.rs). Tables are built with `lua_createtable` + `lua_rawseti`, each
//! distinct cell string pushed once and copied with `lua_pushvalue`: the
//! fastest way to fill a table of rows (docs/performance.md). Each pusher
//! leaves exactly its results on the stack. The errors it can meet (Lua out
//! of memory, no room on the stack) end the `pcall`; the reply is dropped
//! before they are raised again, so no Rust value is ever jumped over.

use std::ffi::{c_int, CStr};

use mlua::ffi::{self, lua_State};

use crate::generators::{Default, Generator, Kind, OptionSpec};
use crate::grid::{Grid, Pos, Rect};
use crate::level::{design, Level, ITEMS};
use crate::toolkit::board::BEYOND;
use crate::toolkit::parse::Parsed;

/// Makes room for `slots` more values on the stack, or raises "stack
/// overflow (no room on the Lua stack for the result)".
unsafe fn make_room(l: *mut lua_State, slots: c_int) {
    ffi::luaL_checkstack(
        l,
        slots,
        c"no room on the Lua stack for the result".as_ptr(),
    );
}

/// Slots a push needs: the result, a row, a scratch value and up to 256
/// cached cell strings.
const PUSH_SLOTS: c_int = 260;

pub unsafe fn push_grid(l: *mut lua_State, grid: &Grid) -> c_int {
    make_room(l, PUSH_SLOTS);
    push_rows(l, grid, 0);
    1
}

/// Pushes the rows of `grid` as a new table with room for `fields` more keys.
unsafe fn push_rows(l: *mut lua_State, grid: &Grid, fields: c_int) {
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
        ffi::lua_createtable(l, grid.width() as c_int, 0);
        for (x, &cell) in row.iter().enumerate() {
            ffi::lua_pushvalue(l, slot[cell as usize]);
            ffi::lua_rawseti(l, -2, x as ffi::lua_Integer + 1);
        }
        ffi::lua_rawseti(l, map, y as ffi::lua_Integer + 1);
    }
    ffi::lua_settop(l, map);
}

pub unsafe fn push_level(l: *mut lua_State, level: &Level) -> c_int {
    make_room(l, PUSH_SLOTS);
    push_rows(l, &level.grid, 12);
    let map = ffi::lua_gettop(l);
    set_int(l, map, c"width", level.grid.width() as i64);
    set_int(l, map, c"height", level.grid.height() as i64);
    set_int(l, map, c"seed", level.seed);
    ffi::lua_pushlstring(l, level.algorithm.as_ptr().cast(), level.algorithm.len());
    ffi::lua_setfield(l, map, c"algorithm".as_ptr());

    ffi::lua_createtable(l, level.rooms.len() as c_int, 0);
    for (i, room) in level.rooms.iter().enumerate() {
        ffi::lua_createtable(l, 0, 6);
        let t = ffi::lua_gettop(l);
        for (key, v) in [
            (c"x", room.x),
            (c"y", room.y),
            (c"w", room.w),
            (c"h", room.h),
        ] {
            set_int(l, t, key, v as i64);
        }
        push_exits(l, t, &level.exits.exits[i], &level.exits.links[i]);
        ffi::lua_rawseti(l, -2, i as ffi::lua_Integer + 1);
    }
    ffi::lua_setfield(l, map, c"rooms".as_ptr());

    ffi::lua_createtable(l, level.doors.len() as c_int, 0);
    for (i, &door) in level.doors.iter().enumerate() {
        push_pos(l, door, 0);
        ffi::lua_rawseti(l, -2, i as ffi::lua_Integer + 1);
    }
    ffi::lua_setfield(l, map, c"doors".as_ptr());

    push_pos(l, level.player, 0);
    ffi::lua_setfield(l, map, c"player".as_ptr());
    push_pos(l, level.stairs, 0);
    ffi::lua_setfield(l, map, c"stairs".as_ptr());

    ffi::lua_createtable(l, level.items.len() as c_int, 0);
    for (i, item) in level.items.iter().enumerate() {
        push_pos(l, item.pos, 1);
        ffi::lua_pushlstring(l, [item.kind].as_ptr().cast(), 1);
        ffi::lua_setfield(l, -2, c"kind".as_ptr());
        ffi::lua_rawseti(l, -2, i as ffi::lua_Integer + 1);
    }
    ffi::lua_setfield(l, map, c"items".as_ptr());
    push_design(l, map, level);
    1
}

/// A room's `exits` (`{x=, y=}` each) and `links` (1-based room indices),
/// set in the room's table at `t`.
unsafe fn push_exits(l: *mut lua_State, t: c_int, exits: &[Pos], links: &[u32]) {
    ffi::lua_createtable(l, exits.len() as c_int, 0);
    for (k, &p) in exits.iter().enumerate() {
        push_pos(l, p, 0);
        ffi::lua_rawseti(l, -2, k as ffi::lua_Integer + 1);
    }
    ffi::lua_setfield(l, t, c"exits".as_ptr());
    ffi::lua_createtable(l, links.len() as c_int, 0);
    for (k, &r) in links.iter().enumerate() {
        ffi::lua_pushinteger(l, r as ffi::lua_Integer + 1);
        ffi::lua_rawseti(l, -2, k as ffi::lua_Integer + 1);
    }
    ffi::lua_setfield(l, t, c"links".as_ptr());
}

/// The level's `vaults`, `placed` and (after `arrive`) `up`, set in the
/// map's table at `map`.
unsafe fn push_design(l: *mut lua_State, map: c_int, level: &Level) {
    ffi::lua_createtable(l, level.vaults.len() as c_int, 0);
    for (i, v) in level.vaults.iter().enumerate() {
        ffi::lua_createtable(l, 0, 6);
        let t = ffi::lua_gettop(l);
        for (key, n) in [
            (c"index", v.index + 1),
            (c"x", v.rect.x),
            (c"y", v.rect.y),
            (c"w", v.rect.w),
            (c"h", v.rect.h),
            (c"rotation", v.rotation as usize),
        ] {
            set_int(l, t, key, n as i64);
        }
        ffi::lua_rawseti(l, -2, i as ffi::lua_Integer + 1);
    }
    ffi::lua_setfield(l, map, c"vaults".as_ptr());

    ffi::lua_createtable(l, level.placed.len() as c_int, 0);
    for (i, p) in level.placed.iter().enumerate() {
        push_pos(l, p.pos, 1);
        ffi::lua_pushlstring(l, [p.char].as_ptr().cast(), 1);
        ffi::lua_setfield(l, -2, c"char".as_ptr());
        ffi::lua_rawseti(l, -2, i as ffi::lua_Integer + 1);
    }
    ffi::lua_setfield(l, map, c"placed".as_ptr());

    if let Some(up) = level.up {
        push_pos(l, up, 0);
        ffi::lua_setfield(l, map, c"up".as_ptr());
    }
}

/// Pushes `{x=, y=}` with room for `extra` more fields.
pub(super) unsafe fn push_pos(l: *mut lua_State, p: Pos, extra: c_int) {
    ffi::lua_createtable(l, 0, 2 + extra);
    let t = ffi::lua_gettop(l);
    set_int(l, t, c"x", p.x as i64);
    set_int(l, t, c"y", p.y as i64);
}

pub(super) unsafe fn set_int(l: *mut lua_State, table: c_int, key: &CStr, v: i64) {
    ffi::lua_pushinteger(l, v as ffi::lua_Integer);
    ffi::lua_setfield(l, table, key.as_ptr());
}

pub unsafe fn push_bytes(l: *mut lua_State, bytes: &[u8]) -> c_int {
    ffi::lua_pushlstring(l, bytes.as_ptr().cast(), bytes.len());
    1
}

pub unsafe fn push_true(l: *mut lua_State) -> c_int {
    ffi::lua_pushboolean(l, 1);
    1
}

pub unsafe fn push_false_and(l: *mut lua_State, why: &str) -> c_int {
    ffi::lua_pushboolean(l, 0);
    ffi::lua_pushlstring(l, why.as_ptr().cast(), why.len());
    2
}

/// `map.describe`'s table: `{name, doc, min_width, min_height, options,
/// design}`, `options` an array of `{name, type, min, max, open_min,
/// default, default_text, doc}` in the order the algorithm checks them,
/// `items` last; `design` the options every algorithm takes as tables
/// (`vaults`, `arrive`, `place`), each `{name, type = "table", shape, doc}`.
pub unsafe fn push_description(l: *mut lua_State, algorithm: &Generator) -> c_int {
    make_room(l, 8);
    ffi::lua_createtable(l, 0, 6);
    let t = ffi::lua_gettop(l);
    set_str(l, t, c"name", algorithm.name);
    set_str(l, t, c"doc", algorithm.doc);
    set_int(l, t, c"min_width", algorithm.min_width as i64);
    set_int(l, t, c"min_height", algorithm.min_height as i64);
    let specs: Vec<&OptionSpec> = algorithm.options.iter().chain([&ITEMS]).collect();
    ffi::lua_createtable(l, specs.len() as c_int, 0);
    for (i, spec) in specs.iter().enumerate() {
        push_option(l, spec);
        ffi::lua_rawseti(l, -2, i as ffi::lua_Integer + 1);
    }
    ffi::lua_setfield(l, t, c"options".as_ptr());
    ffi::lua_createtable(l, design::NAMES.len() as c_int, 0);
    for (i, name) in design::NAMES.iter().enumerate() {
        ffi::lua_createtable(l, 0, 4);
        let entry = ffi::lua_gettop(l);
        set_str(l, entry, c"name", name);
        set_str(l, entry, c"type", "table");
        set_str(l, entry, c"shape", design::SHAPES[i]);
        set_str(l, entry, c"doc", design::DOCS[i]);
        ffi::lua_rawseti(l, -2, i as ffi::lua_Integer + 1);
    }
    ffi::lua_setfield(l, t, c"design".as_ptr());
    1
}

unsafe fn push_option(l: *mut lua_State, spec: &OptionSpec) {
    ffi::lua_createtable(l, 0, 8);
    let t = ffi::lua_gettop(l);
    set_str(l, t, c"name", spec.name);
    set_str(l, t, c"doc", spec.doc);
    match spec.kind {
        Kind::Int { min, max } => {
            set_str(l, t, c"type", "integer");
            set_int(l, t, c"min", min);
            set_int(l, t, c"max", max);
        }
        Kind::Number { min, max, open_min } => {
            set_str(l, t, c"type", "number");
            set_number(l, t, c"min", min);
            set_number(l, t, c"max", max);
            ffi::lua_pushboolean(l, c_int::from(open_min));
            ffi::lua_setfield(l, t, c"open_min".as_ptr());
        }
        Kind::Bool => set_str(l, t, c"type", "boolean"),
    }
    match spec.default {
        Default::Int(i) => set_int(l, t, c"default", i),
        Default::Number(x) => set_number(l, t, c"default", x),
        Default::Bool(b) => {
            ffi::lua_pushboolean(l, c_int::from(b));
            ffi::lua_setfield(l, t, c"default".as_ptr());
        }
        Default::ShorterSide => {}
    }
    set_str(l, t, c"default_text", &spec.default.to_string());
}

unsafe fn set_str(l: *mut lua_State, table: c_int, key: &CStr, v: &str) {
    ffi::lua_pushlstring(l, v.as_ptr().cast(), v.len());
    ffi::lua_setfield(l, table, key.as_ptr());
}

unsafe fn set_number(l: *mut lua_State, table: c_int, key: &CStr, v: f64) {
    ffi::lua_pushnumber(l, v);
    ffi::lua_setfield(l, table, key.as_ptr());
}

/// `map.fov`'s table: rows `1..height`, each holding `true` at the visible
/// columns. `seen` covers the `w` x `h` window whose top-left cell is
/// `(x0, y0)`; rows outside it are empty.
pub unsafe fn push_visible(
    l: *mut lua_State,
    height: usize,
    (x0, y0): (usize, usize),
    w: usize,
    seen: &[bool],
) -> c_int {
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

/// A distance map for a map of `size`: the `values` of the cells of
/// `window` (row-major, `BEYOND` where unreached); every other cell is
/// unreached.
pub struct Rows {
    pub size: (usize, usize),
    pub window: Rect,
    pub values: Vec<i64>,
}

/// Rows of integers (`map.distances`' table), `false` where unreached.
pub unsafe fn push_rows_of_integers(l: *mut lua_State, rows: &Rows) -> c_int {
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

/// An array of `{x=, y=}` (`map.path`'s).
pub unsafe fn push_positions(l: *mut lua_State, cells: &[Pos]) -> c_int {
    make_room(l, 6);
    ffi::lua_createtable(l, cells.len() as c_int, 0);
    for (i, &p) in cells.iter().enumerate() {
        push_pos(l, p, 0);
        ffi::lua_rawseti(l, -2, i as ffi::lua_Integer + 1);
    }
    1
}

pub unsafe fn push_nil_and(l: *mut lua_State, why: &str) -> c_int {
    ffi::lua_pushnil(l);
    ffi::lua_pushlstring(l, why.as_ptr().cast(), why.len());
    2
}

/// `nx, ny`, or nil (`map.step`'s).
pub unsafe fn push_cell(l: *mut lua_State, cell: Option<Pos>) -> c_int {
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

pub unsafe fn push_boolean(l: *mut lua_State, b: bool) -> c_int {
    ffi::lua_pushboolean(l, c_int::from(b));
    1
}

/// An array of `{x=, y=}` on any integer coordinates (`map.line`'s).
pub unsafe fn push_points(l: *mut lua_State, points: &[(i64, i64)]) -> c_int {
    make_room(l, 6);
    ffi::lua_createtable(l, points.len() as c_int, 0);
    for (i, &(x, y)) in points.iter().enumerate() {
        ffi::lua_createtable(l, 0, 2);
        let t = ffi::lua_gettop(l);
        set_int(l, t, c"x", x);
        set_int(l, t, c"y", y);
        ffi::lua_rawseti(l, -2, i as ffi::lua_Integer + 1);
    }
    1
}

/// `map.parse`'s table: the rows, `width`, `height`, and `player` and
/// `stairs` where the map has an `@` and a `>`.
pub unsafe fn push_parsed(l: *mut lua_State, parsed: &Parsed) -> c_int {
    make_room(l, PUSH_SLOTS);
    push_rows(l, &parsed.grid, 4);
    let map = ffi::lua_gettop(l);
    set_int(l, map, c"width", parsed.grid.width() as i64);
    set_int(l, map, c"height", parsed.grid.height() as i64);
    for (key, at) in [(c"player", parsed.player), (c"stairs", parsed.stairs)] {
        if let Some(p) = at {
            push_pos(l, p, 0);
            ffi::lua_setfield(l, map, key.as_ptr());
        }
    }
    1
}
