//! The unsafe layer: every read from and write to the Lua stack.
//!
//! Stack discipline:
//! - Reading (`Args`) uses only raw accessors (`lua_rawgeti`, `lua_rawlen`,
//!   `lua_next`, `lua_tolstring` on values already strings), which never run
//!   metamethods, never allocate and never raise. Each read pushes at most two
//!   values and pops them before returning, so it runs inside `catch_unwind`
//!   and stays within the `LUA_MINSTACK` slots Lua guarantees a C function.
//! - Writing (`push_*`) runs after the core is done. It builds tables with
//!   `lua_createtable` + `lua_rawseti`, pushing each distinct cell string once
//!   and copying it with `lua_pushvalue`: the fastest way to fill a table of
//!   rows (see the README's performance notes). It leaves exactly its results
//!   on the stack. The only error it can meet is Lua running out of memory,
//!   which `MAX_CELLS` makes remote; that error skips the Rust destructors
//!   of the frames it crosses on Lua 5.4, leaking the reply's buffers.

use std::ffi::{c_int, CStr};

use mlua::ffi::{self, lua_State};

use crate::algorithm::{Algorithm, Default, Kind, OptionSpec};
use crate::generate::{Level, Params, ITEMS};
use crate::grid::{Grid, Pos};
use crate::options::{Arg, MAX_CELLS};

pub struct Args {
    state: *mut lua_State,
    count: c_int,
}

impl Args {
    pub unsafe fn new(state: *mut lua_State) -> Args {
        Args {
            state,
            count: ffi::lua_gettop(state),
        }
    }

    pub fn at_most(&self, max: c_int) -> Result<(), String> {
        if self.count <= max {
            return Ok(());
        }
        let s = if max == 1 { "" } else { "s" };
        Err(format!(
            "expected at most {max} argument{s}, got {}",
            self.count
        ))
    }

    pub fn is_table(&self, index: c_int) -> bool {
        unsafe { ffi::lua_type(self.state, index) == ffi::LUA_TTABLE }
    }

    /// Argument `index` (1-based), `Missing` when absent or nil.
    pub fn get(&self, index: c_int) -> Arg<'_> {
        if index > self.count {
            return Arg::Missing;
        }
        unsafe { value(self.state, index) }
    }

    /// The options table at `index`, fed pair by pair to `set`.
    pub fn options<'a>(
        &'a self,
        index: c_int,
        set: impl Fn(&mut Params<'a>, &'a [u8], Arg<'a>),
    ) -> Result<Params<'a>, String> {
        let mut params = Params::default();
        unsafe {
            let l = self.state;
            ffi::lua_pushnil(l);
            while ffi::lua_next(l, index) != 0 {
                // Strings stay alive while the options table holds them.
                let (key, value) = (value(l, -2), value(l, -1));
                ffi::lua_settop(l, -2);
                match key {
                    Arg::Str(name) => set(&mut params, name, value),
                    other => {
                        ffi::lua_settop(l, -2);
                        return Err(format!("option names must be strings, got {other}"));
                    }
                }
            }
        }
        Ok(params)
    }

    /// The map table at `index`, copied into a grid. Rows must be tables of
    /// the same length and cells one-byte strings; metatables are ignored.
    pub fn grid(&self, index: c_int) -> Result<Grid, String> {
        unsafe { read_grid(self.state, index) }
    }
}

unsafe fn value<'a>(l: *mut lua_State, index: c_int) -> Arg<'a> {
    match ffi::lua_type(l, index) {
        ffi::LUA_TNONE | ffi::LUA_TNIL => Arg::Missing,
        ffi::LUA_TNUMBER if ffi::lua_isinteger(l, index) != 0 => {
            Arg::Int(ffi::lua_tointeger(l, index))
        }
        ffi::LUA_TNUMBER => Arg::Float(ffi::lua_tonumber(l, index)),
        ffi::LUA_TSTRING => Arg::Str(string(l, index)),
        ffi::LUA_TBOOLEAN => Arg::Bool(ffi::lua_toboolean(l, index) != 0),
        other => Arg::Other(type_name(l, other)),
    }
}

/// The bytes of the string at `index`; valid while that value is referenced.
unsafe fn string<'a>(l: *mut lua_State, index: c_int) -> &'a [u8] {
    let mut len = 0;
    let ptr = ffi::lua_tolstring(l, index, &mut len);
    std::slice::from_raw_parts(ptr.cast(), len)
}

unsafe fn type_name(l: *mut lua_State, t: c_int) -> &'static str {
    CStr::from_ptr(ffi::lua_typename(l, t))
        .to_str()
        .unwrap_or("value")
}

unsafe fn read_grid(l: *mut lua_State, index: c_int) -> Result<Grid, String> {
    let t = ffi::lua_type(l, index);
    if t != ffi::LUA_TTABLE {
        let got = if t == ffi::LUA_TNONE {
            "nothing"
        } else {
            type_name(l, t)
        };
        return Err(format!("map must be a table of rows, got {got}"));
    }
    let height = ffi::lua_rawlen(l, index);
    if height == 0 {
        return Err("map has no rows (#map == 0)".into());
    }
    let mut width = 0;
    let mut cells = Vec::new();
    for y in 1..=height {
        let t = ffi::lua_rawgeti(l, index, y as ffi::lua_Integer);
        let row = read_row(l, t, y, width);
        ffi::lua_settop(l, -2);
        let row = row?;
        if y == 1 {
            width = row.len();
            // Rows may alias one table: bound the size before copying it.
            if width.saturating_mul(height) > MAX_CELLS {
                return Err(format!(
                    "map has more than {MAX_CELLS} cells ({width}x{height})"
                ));
            }
            cells.reserve_exact(width * height);
        }
        cells.extend_from_slice(&row);
    }
    Ok(Grid::from_cells(width, height, cells))
}

/// The row on top of the stack (of Lua type `t`), checked against row 1's width.
unsafe fn read_row(l: *mut lua_State, t: c_int, y: usize, width: usize) -> Result<Vec<u8>, String> {
    if t != ffi::LUA_TTABLE {
        return Err(format!("row {y} must be a table, got {}", type_name(l, t)));
    }
    let len = ffi::lua_rawlen(l, -1);
    if y == 1 && len == 0 {
        return Err("row 1 is empty".into());
    }
    if y > 1 && len != width {
        return Err(format!("row {y} has {len} cells, row 1 has {width}"));
    }
    if len > MAX_CELLS {
        return Err(format!("row {y} has more than {MAX_CELLS} cells"));
    }
    let mut row = Vec::with_capacity(len);
    for x in 1..=len {
        let t = ffi::lua_rawgeti(l, -1, x as ffi::lua_Integer);
        let cell = if t == ffi::LUA_TSTRING {
            string(l, -1)
        } else {
            &[]
        };
        let got = match (t, cell.len()) {
            (ffi::LUA_TSTRING, 1) => None,
            (ffi::LUA_TSTRING, n) => Some(format!("a {n}-byte string")),
            _ => Some(type_name(l, t).to_string()),
        };
        if let Some(b) = cell.first().filter(|_| got.is_none()) {
            row.push(*b);
        }
        ffi::lua_settop(l, -2);
        if let Some(got) = got {
            return Err(format!(
                "cell [{y}][{x}] must be a one-character string, got {got}"
            ));
        }
    }
    Ok(row)
}

/// Slots a push needs: the result, a row, a scratch value and up to 256
/// cached cell strings.
const PUSH_SLOTS: c_int = 260;

pub unsafe fn push_grid(l: *mut lua_State, grid: &Grid) -> c_int {
    ffi::luaL_checkstack(l, PUSH_SLOTS, c"map: stack overflow".as_ptr());
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
    ffi::luaL_checkstack(l, PUSH_SLOTS, c"map: stack overflow".as_ptr());
    push_rows(l, &level.grid, 8);
    let map = ffi::lua_gettop(l);
    set_int(l, map, c"width", level.grid.width() as i64);
    set_int(l, map, c"height", level.grid.height() as i64);
    set_int(l, map, c"seed", level.seed);
    ffi::lua_pushlstring(l, level.algorithm.as_ptr().cast(), level.algorithm.len());
    ffi::lua_setfield(l, map, c"algorithm".as_ptr());

    ffi::lua_createtable(l, level.rooms.len() as c_int, 0);
    for (i, room) in level.rooms.iter().enumerate() {
        ffi::lua_createtable(l, 0, 4);
        let t = ffi::lua_gettop(l);
        for (key, v) in [
            (c"x", room.x),
            (c"y", room.y),
            (c"w", room.w),
            (c"h", room.h),
        ] {
            set_int(l, t, key, v as i64);
        }
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
    1
}

/// LuaJIT only, for `jit_tables.lua`: pushes the cells (row-major, one
/// string), width, height, seed, algorithm, and one array of integers:
/// player x, y, stairs x, y, the room count, then x, y, w, h per room, the
/// door count, then x, y per door, the item count, then x, y and the kind's
/// byte per item. Needs 7 slots, within
/// the `LUA_MINSTACK` Lua guarantees, as `generate` takes at most 3 arguments.
#[cfg(feature = "luajit")]
pub unsafe fn push_level_parts(l: *mut lua_State, level: &Level) -> c_int {
    let grid = &level.grid;
    push_bytes(l, grid.cells());
    ffi::lua_pushinteger(l, grid.width() as ffi::lua_Integer);
    ffi::lua_pushinteger(l, grid.height() as ffi::lua_Integer);
    ffi::lua_pushinteger(l, level.seed as ffi::lua_Integer);
    ffi::lua_pushlstring(l, level.algorithm.as_ptr().cast(), level.algorithm.len());
    let (player, stairs) = (level.player, level.stairs);
    let head = [player.x, player.y, stairs.x, stairs.y, level.rooms.len()];
    let rooms = level.rooms.iter().flat_map(|r| [r.x, r.y, r.w, r.h]);
    let doors = level.doors.iter().flat_map(|d| [d.x, d.y]);
    let items = level
        .items
        .iter()
        .flat_map(|i| [i.pos.x, i.pos.y, i.kind as usize]);
    let count =
        head.len() + 4 * level.rooms.len() + 1 + 2 * level.doors.len() + 1 + 3 * level.items.len();
    ffi::lua_createtable(l, count as c_int, 0);
    let all = head
        .into_iter()
        .chain(rooms)
        .chain([level.doors.len()])
        .chain(doors)
        .chain([level.items.len()])
        .chain(items);
    for (i, v) in all.enumerate() {
        ffi::lua_pushinteger(l, v as ffi::lua_Integer);
        ffi::lua_rawseti(l, -2, i as ffi::lua_Integer + 1);
    }
    6
}

/// Pushes `{x=, y=}` with room for `extra` more fields.
unsafe fn push_pos(l: *mut lua_State, p: Pos, extra: c_int) {
    ffi::lua_createtable(l, 0, 2 + extra);
    let t = ffi::lua_gettop(l);
    set_int(l, t, c"x", p.x as i64);
    set_int(l, t, c"y", p.y as i64);
}

unsafe fn set_int(l: *mut lua_State, table: c_int, key: &CStr, v: i64) {
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

/// `map.describe`'s table: `{name, doc, min_width, min_height, options}`,
/// `options` an array of `{name, type, min, max, open_min, default,
/// default_text, doc}` in the order the algorithm checks them, `items` last.
pub unsafe fn push_description(l: *mut lua_State, algorithm: &Algorithm) -> c_int {
    ffi::luaL_checkstack(l, 8, c"map: stack overflow".as_ptr());
    ffi::lua_createtable(l, 0, 5);
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
