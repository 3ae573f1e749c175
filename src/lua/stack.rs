//! The unsafe layer: every read from and write to the Lua stack.
//!
//! Stack discipline:
//! - Reading (`Args`) uses only raw accessors (`lua_rawgeti`, `lua_rawlen`,
//!   `lua_next`, `lua_tolstring` on values already strings), which never run
//!   metamethods, never allocate and never raise. Each read pushes at most two
//!   values and pops them before returning, so it runs inside `catch_unwind`
//!   and stays within the `LUA_MINSTACK` slots Lua guarantees a C function.
//! - Writing (`push_*`) runs after the core is done, inside `lua_pcall`
//!   (`push_protected` in mod.rs). It builds tables with `lua_createtable` +
//!   `lua_rawseti`, pushing each distinct cell string once and copying it
//!   with `lua_pushvalue`: the fastest way to fill a table of rows (see the
//!   README's performance notes). It leaves exactly its results on the
//!   stack. The errors it can meet (Lua out of memory, no room on the
//!   stack) end the `pcall`; the reply is dropped before they are raised
//!   again, so no Rust value is ever jumped over.

use std::ffi::{c_int, CStr};

use mlua::ffi::{self, lua_State};

use crate::algorithm::{Algorithm, Default, Kind, OptionSpec};
use crate::distance::UNREACHED;
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
        self.each_pair(index, |key, value| match key {
            Arg::Str(name) => {
                set(&mut params, name, value);
                Ok(())
            }
            other => Err(format!("option names must be strings, got {other}")),
        })?;
        Ok(params)
    }

    /// Walks the table at `index` raw, feeding each key and value to `each`;
    /// stops at the first error. The table must be on the stack.
    pub fn each_pair<'a>(
        &'a self,
        index: c_int,
        mut each: impl FnMut(Arg<'a>, Arg<'a>) -> Result<(), String>,
    ) -> Result<(), String> {
        unsafe {
            let l = self.state;
            let t = ffi::lua_absindex(l, index);
            ffi::lua_pushnil(l);
            while ffi::lua_next(l, t) != 0 {
                // Strings stay alive while the table holds them.
                let (key, value) = (value(l, -2), value(l, -1));
                ffi::lua_settop(l, -2);
                if let Err(message) = each(key, value) {
                    ffi::lua_settop(l, -2);
                    return Err(message);
                }
            }
        }
        Ok(())
    }

    /// Runs `f` with the raw field `key` of the table at `index` pushed on
    /// the stack (its index given to `f`), then pops it. `f` must leave the
    /// stack as it found it; a string read from the field stays valid while
    /// the table holds it.
    pub fn with_field<R>(&self, index: c_int, key: Key, f: impl FnOnce(&Args, c_int) -> R) -> R {
        unsafe {
            let l = self.state;
            let t = ffi::lua_absindex(l, index);
            match key {
                Key::Name(name) => {
                    ffi::lua_pushlstring(l, name.as_ptr().cast(), name.len());
                    ffi::lua_rawget(l, t);
                }
                Key::Index(i) => {
                    ffi::lua_rawgeti(l, t, i as ffi::lua_Integer);
                }
            }
            let result = f(self, ffi::lua_gettop(l));
            ffi::lua_settop(l, -2);
            result
        }
    }

    /// The value at stack `index` (which may be above the arguments).
    pub fn at(&self, index: c_int) -> Arg<'_> {
        unsafe { value(self.state, index) }
    }

    /// The raw length of the table at `index`.
    pub fn raw_len(&self, index: c_int) -> usize {
        unsafe { ffi::lua_rawlen(self.state, index) }
    }

    /// The width and height of the map at `index`, checked as `grid` checks
    /// them, without reading any row but the first.
    pub fn map_size(&self, index: c_int) -> Result<(usize, usize), String> {
        unsafe { read_size(self.state, index) }
    }

    /// The `w` x `h` window of the map at `index` whose top-left cell is
    /// `(x0, y0)`, for a map of `width` columns (from `map_size`): each row
    /// in it checked as `grid` checks rows, but only the window's cells read.
    pub fn window(
        &self,
        index: c_int,
        (x0, y0): (usize, usize),
        (w, h): (usize, usize),
        width: usize,
    ) -> Result<Grid, String> {
        unsafe { read_window(self.state, index, (x0, y0), (w, h), width) }
    }

    /// The map table at `index`, copied into a grid. Rows must be tables of
    /// the same length and cells one-byte strings; metatables are ignored.
    pub fn grid(&self, index: c_int) -> Result<Grid, String> {
        unsafe { read_grid(self.state, index) }
    }
}

/// A table key for `Args::with_field`.
#[derive(Clone, Copy)]
pub enum Key<'k> {
    Name(&'k str),
    Index(usize),
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
    let (width, height) = read_size(l, index)?;
    read_window(l, index, (1, 1), (width, height), width)
}

/// The map's size: `#map` rows, as wide as row 1, at most `MAX_CELLS` cells.
unsafe fn read_size(l: *mut lua_State, index: c_int) -> Result<(usize, usize), String> {
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
    let t = ffi::lua_rawgeti(l, index, 1);
    let width = if t == ffi::LUA_TTABLE {
        ffi::lua_rawlen(l, -1)
    } else {
        0
    };
    ffi::lua_settop(l, -2);
    if t != ffi::LUA_TTABLE {
        return Err(format!("row 1 must be a table, got {}", type_name(l, t)));
    }
    if width == 0 {
        return Err("row 1 is empty".into());
    }
    // Rows may alias one table: bound the size before copying it.
    if width.saturating_mul(height) > MAX_CELLS {
        return Err(format!(
            "map has more than {MAX_CELLS} cells ({width}x{height})"
        ));
    }
    Ok((width, height))
}

/// Rows `y0 .. y0+h` of the map, each checked to be a table of `width`
/// cells, and their cells `x0 .. x0+w` copied into a grid.
unsafe fn read_window(
    l: *mut lua_State,
    index: c_int,
    (x0, y0): (usize, usize),
    (w, h): (usize, usize),
    width: usize,
) -> Result<Grid, String> {
    let mut cells = Vec::with_capacity(w * h);
    for y in y0..y0 + h {
        let t = ffi::lua_rawgeti(l, index, y as ffi::lua_Integer);
        let row = read_row(l, t, y, width, x0..x0 + w);
        ffi::lua_settop(l, -2);
        cells.extend_from_slice(&row?);
    }
    Ok(Grid::from_cells(w, h, cells))
}

/// The cells `xs` of the row on top of the stack (of Lua type `t`), which
/// must be a table of row 1's `width` cells.
unsafe fn read_row(
    l: *mut lua_State,
    t: c_int,
    y: usize,
    width: usize,
    xs: std::ops::Range<usize>,
) -> Result<Vec<u8>, String> {
    if t != ffi::LUA_TTABLE {
        return Err(format!("row {y} must be a table, got {}", type_name(l, t)));
    }
    let len = ffi::lua_rawlen(l, -1);
    if len != width {
        return Err(format!("row {y} has {len} cells, row 1 has {width}"));
    }
    let mut row = Vec::with_capacity(xs.len());
    for x in xs {
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
    ffi::luaL_checkstack(
        l,
        PUSH_SLOTS,
        c"no room on the Lua stack for the result".as_ptr(),
    );
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
    ffi::luaL_checkstack(
        l,
        PUSH_SLOTS,
        c"no room on the Lua stack for the result".as_ptr(),
    );
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
    ffi::luaL_checkstack(l, 8, c"no room on the Lua stack for the result".as_ptr());
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
    ffi::luaL_checkstack(l, 4, c"no room on the Lua stack for the result".as_ptr());
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

/// `map.distances`' table: rows of integers, `false` where `UNREACHED`.
pub unsafe fn push_distances(l: *mut lua_State, width: usize, dist: &[u64]) -> c_int {
    ffi::luaL_checkstack(l, 4, c"no room on the Lua stack for the result".as_ptr());
    let height = dist.len() / width;
    ffi::lua_createtable(l, height as c_int, 0);
    for (y, row) in dist.chunks_exact(width).enumerate() {
        ffi::lua_createtable(l, width as c_int, 0);
        for (x, &d) in row.iter().enumerate() {
            if d == UNREACHED {
                ffi::lua_pushboolean(l, 0);
            } else {
                ffi::lua_pushinteger(l, d as ffi::lua_Integer);
            }
            ffi::lua_rawseti(l, -2, x as ffi::lua_Integer + 1);
        }
        ffi::lua_rawseti(l, -2, y as ffi::lua_Integer + 1);
    }
    1
}

/// `map.path`'s array of `{x=, y=}`.
pub unsafe fn push_path(l: *mut lua_State, cells: &[Pos]) -> c_int {
    ffi::luaL_checkstack(l, 6, c"no room on the Lua stack for the result".as_ptr());
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

/// The error message on top of the stack (any value, described if not a string).
pub unsafe fn message(l: *mut lua_State) -> String {
    match value(l, -1) {
        Arg::Str(s) => String::from_utf8_lossy(s).into_owned(),
        other => other.to_string(),
    }
}
