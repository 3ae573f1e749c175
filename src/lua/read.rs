//! Reading from the Lua stack: the arguments, the tables they hold, maps.
//!
//! Only raw accessors are used (`lua_rawgeti`, `lua_rawget`, `lua_rawlen`,
//! `lua_next`, `lua_tolstring` on values already strings): they never run
//! metamethods, never allocate and never raise. Each read pushes at most two
//! values and pops them before returning, so it runs inside `catch_unwind`
//! and stays within the `LUA_MINSTACK` slots Lua guarantees a C function.

use std::ffi::{c_int, CStr};

use mlua::ffi::{self, lua_State};

use crate::args::{Arg, MAX_CELLS};
use crate::grid::Grid;
use crate::level::Params;

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

    /// The map table at `index`, of the `size` `map_size` gave, copied into
    /// a grid. Rows must be tables of the same length and cells one-byte
    /// strings; metatables are ignored.
    pub fn grid(&self, index: c_int, (width, height): (usize, usize)) -> Result<Grid, String> {
        unsafe { read_window(self.state, index, (1, 1), (width, height), width) }
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

/// The error message on top of the stack (any value, described if not a string).
pub unsafe fn message(l: *mut lua_State) -> String {
    match value(l, -1) {
        Arg::Str(s) => String::from_utf8_lossy(s).into_owned(),
        other => other.to_string(),
    }
}
