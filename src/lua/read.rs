//! Reading from the Lua stack: the arguments, the tables they hold, maps.
//!
//! No Lua code may run between checking a value and using it: a finalizer
//! could change a table while it is read, or raise an error across these
//! frames. Lua runs finalizers only in a collection step, and steps only
//! when something allocates, so reading allocates nothing: only raw
//! accessors are used (`lua_rawgeti`, `lua_rawget`, `lua_rawlen`,
//! `lua_next`, `lua_tolstring` on values already strings), which never run
//! metamethods, never allocate and never raise, and field names are Lua
//! strings made once when the module opens (`Field`), so that looking one
//! up only copies it. Each read pushes at most two values and pops them
//! before returning, so it stays within the `LUA_MINSTACK` slots Lua
//! guarantees a C function, and every function that reads a table checks
//! its type itself.

use std::ffi::{c_int, CStr};

use mlua::ffi::{self, lua_State};

use crate::args::{Arg, MAX_CELLS};
use crate::grid::Grid;
use crate::level::Params;
use crate::toolkit::board::{BEYOND, MAX_VALUE};

/// Declares `Field`, the names the readers look up in tables.
macro_rules! fields {
    ($($field:ident = $name:literal),* $(,)?) => {
        /// A field name the readers look up. `open` makes each a Lua string
        /// once, in an array that every exported function holds as its first
        /// upvalue, at the position `Field::ALL` gives it.
        #[derive(Clone, Copy, Debug)]
        pub enum Field {
            $($field),*
        }

        impl Field {
            pub const ALL: &'static [Field] = &[$(Field::$field),*];

            pub fn name(self) -> &'static str {
                match self {
                    $(Field::$field => $name),*
                }
            }
        }
    };
}

fields! {
    X = "x",
    Y = "y",
    Cost = "cost",
    Value = "value",
    Avoid = "avoid",
    Known = "known",
    From = "from",
    Vaults = "vaults",
    Rows = "rows",
    Count = "count",
    Rotate = "rotate",
    Required = "required",
    Arrive = "arrive",
    Place = "place",
    Char = "char",
    Min = "min",
    Hidden = "hidden",
}

/// The upvalue of every exported function that holds the field names.
pub const FIELD_NAMES: c_int = ffi::lua_upvalueindex(1);

/// A table key for `Args::with_field`.
#[derive(Clone, Copy)]
pub enum Key {
    Field(Field),
    Index(usize),
}

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
    /// stops at the first error. Nothing but a table is walked.
    pub fn each_pair<'a>(
        &'a self,
        index: c_int,
        mut each: impl FnMut(Arg<'a>, Arg<'a>) -> Result<(), String>,
    ) -> Result<(), String> {
        if !self.is_table(index) {
            return Err(format!("expected a table, got {}", self.at(index)));
        }
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
    /// the table holds it. Not a table at `index`: `f` sees nil.
    pub fn with_field<'a, R>(
        &'a self,
        index: c_int,
        key: Key,
        f: impl FnOnce(&'a Args, c_int) -> R,
    ) -> R {
        unsafe {
            let l = self.state;
            let t = ffi::lua_absindex(l, index);
            if ffi::lua_type(l, t) != ffi::LUA_TTABLE {
                ffi::lua_pushnil(l);
            } else {
                match key {
                    Key::Field(field) => {
                        ffi::lua_rawgeti(l, FIELD_NAMES, field as ffi::lua_Integer + 1);
                        ffi::lua_rawget(l, t);
                    }
                    Key::Index(i) => {
                        ffi::lua_rawgeti(l, t, i as ffi::lua_Integer);
                    }
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

    /// The raw length of the table at `index` (0 for anything else).
    pub fn raw_len(&self, index: c_int) -> usize {
        if !self.is_table(index) {
            return 0;
        }
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

    /// For the array at `index` of raw length `len`: the first missing
    /// index, if a positive integer key lies past `len` or one in `1..=len`
    /// is nil (then Lua 5.4 and LuaJIT may see different lengths), so that
    /// both report the same hole.
    pub fn hole(&self, index: c_int, len: usize) -> Option<usize> {
        unsafe {
            let l = self.state;
            let t = ffi::lua_absindex(l, index);
            if ffi::lua_type(l, t) != ffi::LUA_TTABLE {
                return None;
            }
            let beyond = has_key_beyond(l, t, len);
            let upto = if beyond { len + 1 } else { len };
            (1..=upto).find(|&i| {
                let missing = ffi::lua_rawgeti(l, t, i as ffi::lua_Integer) == ffi::LUA_TNIL;
                ffi::lua_settop(l, -2);
                missing
            })
        }
    }

    /// Rows `y0 .. y0+h` of the table of rows at `index` (`name` in
    /// messages), cells `x0 .. x0+w` of each: whether each is truthy (not
    /// nil or false), row-major. A row may be nil (nothing in it is);
    /// anything else but a table is an error naming it.
    pub fn flags(
        &self,
        index: c_int,
        name: &str,
        (x0, y0): (usize, usize),
        (w, h): (usize, usize),
    ) -> Result<Vec<bool>, String> {
        let mut flags = Vec::with_capacity(w * h);
        unsafe {
            let l = self.state;
            let t = ffi::lua_absindex(l, index);
            for y in y0..y0 + h {
                let kind = ffi::lua_rawgeti(l, t, y as ffi::lua_Integer);
                let row = ffi::lua_gettop(l);
                if kind == ffi::LUA_TTABLE {
                    flags.extend((x0..x0 + w).map(|x| {
                        ffi::lua_rawgeti(l, row, x as ffi::lua_Integer);
                        let truthy = ffi::lua_toboolean(l, -1) != 0;
                        ffi::lua_settop(l, -2);
                        truthy
                    }));
                }
                ffi::lua_settop(l, -2);
                match kind {
                    ffi::LUA_TTABLE => {}
                    ffi::LUA_TNIL => flags.extend(std::iter::repeat_n(false, w)),
                    other => {
                        let got = type_name(l, other);
                        return Err(format!("{name}[{y}] must be a table or nil, got {got}"));
                    }
                }
            }
        }
        Ok(flags)
    }

    /// The cells `(x0, y0) + (w, h)` of the table of rows of values at
    /// `index` (`name` in messages), row-major: each `false` (read as
    /// `BEYOND`, higher than any value) or an integer within `±MAX_VALUE`;
    /// the first that is not (in row order) is the error, naming it.
    pub fn values(
        &self,
        index: c_int,
        name: &str,
        (x0, y0): (usize, usize),
        (w, h): (usize, usize),
    ) -> Result<Vec<i64>, String> {
        let mut values = Vec::with_capacity(w * h);
        unsafe {
            let l = self.state;
            let t = ffi::lua_absindex(l, index);
            for y in y0..y0 + h {
                let kind = ffi::lua_rawgeti(l, t, y as ffi::lua_Integer);
                let row = ffi::lua_gettop(l);
                let read = if kind == ffi::LUA_TTABLE {
                    (x0..x0 + w).try_for_each(|x| {
                        ffi::lua_rawgeti(l, row, x as ffi::lua_Integer);
                        // A string stays alive while the row holds it.
                        let v = value(l, -1);
                        ffi::lua_settop(l, -2);
                        values.push(match (v, v.integer()) {
                            (Arg::Bool(false), _) => BEYOND,
                            (_, Some(i)) if i.unsigned_abs() <= MAX_VALUE as u64 => i,
                            _ => {
                                return Err(format!(
                                    "{name}[{y}][{x}] must be false or an integer with |v| <= 2^53, got {v}"
                                ))
                            }
                        });
                        Ok(())
                    })
                } else {
                    let got = type_name(l, kind);
                    Err(format!("{name}[{y}] must be a table, got {got}"))
                };
                ffi::lua_settop(l, -2);
                read?;
            }
        }
        Ok(values)
    }

    /// Cell `(x, y)` of the map at `index`, of `width` columns (from
    /// `map_size`): its row checked as `grid` checks rows, the cell read.
    pub fn cell_at(
        &self,
        index: c_int,
        (x, y): (usize, usize),
        width: usize,
    ) -> Result<u8, String> {
        let mut cell = Vec::with_capacity(1);
        unsafe {
            let l = self.state;
            let map = ffi::lua_absindex(l, index);
            if ffi::lua_type(l, map) != ffi::LUA_TTABLE {
                return Err("map must be a table of rows".into());
            }
            let t = ffi::lua_rawgeti(l, map, y as ffi::lua_Integer);
            let read = read_row(l, t, y, width, x..x + 1, Some(&mut cell));
            ffi::lua_settop(l, -2);
            read?;
        }
        Ok(cell[0])
    }

    /// The map table at `index`, of the `size` `map_size` gave, copied into
    /// a grid. Rows must be tables of the same length and cells one-byte
    /// strings; metatables are ignored.
    pub fn grid(&self, index: c_int, (width, height): (usize, usize)) -> Result<Grid, String> {
        unsafe { read_window(self.state, index, (1, 1), (width, height), width) }
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

/// Whether the table at `t` (an absolute index) has a positive integer key
/// after `len`, its raw length, in traversal order: then it has a hole,
/// and which length `#` reports differs between Lua 5.4 and LuaJIT. The
/// walk starts at `len`, so it looks at the few fields a row or map holds
/// besides its cells only; a hole among keys stored outside the array part
/// before `len` (keys set out of order) goes unseen (docs/hardening.md).
unsafe fn has_key_beyond(l: *mut lua_State, t: c_int, len: usize) -> bool {
    if len == 0 {
        ffi::lua_pushnil(l);
    } else {
        ffi::lua_pushinteger(l, len as ffi::lua_Integer);
    }
    while ffi::lua_next(l, t) != 0 {
        ffi::lua_settop(l, -2);
        let beyond = match value(l, -1) {
            Arg::Int(k) => k > len as i64,
            Arg::Float(k) => k > len as f64,
            _ => false,
        };
        if beyond {
            ffi::lua_settop(l, -2);
            return true;
        }
    }
    false
}

/// For a map with a hole: the first error that reading rows `1..=upto`
/// in full meets, as Lua 5.4 does when its `#map` is past the hole (row
/// `upto` is missing, so there is one).
unsafe fn full_read_error(l: *mut lua_State, map: c_int, upto: usize) -> String {
    let width = match row_one(l, map) {
        Ok(width) => width,
        Err(message) => return message,
    };
    if width.saturating_mul(upto) > MAX_CELLS {
        return too_many_cells(width, upto);
    }
    for y in 1..=upto {
        let t = ffi::lua_rawgeti(l, map, y as ffi::lua_Integer);
        let read = read_row(l, t, y, width, 1..width + 1, None);
        ffi::lua_settop(l, -2);
        if let Err(message) = read {
            return message;
        }
    }
    format!("row {upto} must be a table, got nil")
}

/// The width of the map at `map` (absolute): row 1's length, which must be
/// a table of at least one cell, without a hole.
unsafe fn row_one(l: *mut lua_State, map: c_int) -> Result<usize, String> {
    let t = ffi::lua_rawgeti(l, map, 1);
    let width = if t == ffi::LUA_TTABLE {
        ffi::lua_rawlen(l, -1)
    } else {
        0
    };
    let holey = t == ffi::LUA_TTABLE && has_key_beyond(l, ffi::lua_gettop(l), width);
    let hole = holey.then(|| first_bad_cell(l, 1, width + 1).expect("a hole"));
    ffi::lua_settop(l, -2);
    if t != ffi::LUA_TTABLE {
        return Err(format!("row 1 must be a table, got {}", type_name(l, t)));
    }
    if let Some(message) = hole {
        return Err(message);
    }
    if width == 0 {
        return Err("row 1 is empty".into());
    }
    Ok(width)
}

/// The map's size: `#map` rows, as wide as row 1, at most `MAX_CELLS` cells.
/// A map or a row 1 with a hole is refused here, naming the first missing
/// row or cell, so that Lua 5.4 and LuaJIT report the same.
unsafe fn read_size(l: *mut lua_State, index: c_int) -> Result<(usize, usize), String> {
    let map = ffi::lua_absindex(l, index);
    let t = ffi::lua_type(l, map);
    if t != ffi::LUA_TTABLE {
        let got = if t == ffi::LUA_TNONE {
            "nothing"
        } else {
            type_name(l, t)
        };
        return Err(format!("map must be a table of rows, got {got}"));
    }
    let height = ffi::lua_rawlen(l, map);
    if has_key_beyond(l, map, height) {
        return Err(full_read_error(l, map, height + 1));
    }
    if height == 0 {
        return Err("map has no rows (#map == 0)".into());
    }
    let width = row_one(l, map)?;
    // Rows may alias one table: bound the size before copying it.
    if width.saturating_mul(height) > MAX_CELLS {
        return Err(too_many_cells(width, height));
    }
    Ok((width, height))
}

fn too_many_cells(width: usize, height: usize) -> String {
    format!("map has more than {MAX_CELLS} cells ({width}x{height})")
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
    let map = ffi::lua_absindex(l, index);
    if ffi::lua_type(l, map) != ffi::LUA_TTABLE {
        return Err("map must be a table of rows".into());
    }
    let mut cells = Vec::with_capacity(w * h);
    for y in y0..y0 + h {
        let t = ffi::lua_rawgeti(l, map, y as ffi::lua_Integer);
        let read = read_row(l, t, y, width, x0..x0 + w, Some(&mut cells));
        ffi::lua_settop(l, -2);
        read?;
    }
    Ok(Grid::from_cells(w, h, cells))
}

/// The cells `xs` of the row on top of the stack (of Lua type `t`), which
/// must be a table of row 1's `width` cells, appended to `cells` if given.
/// A row with a hole is refused whatever its length, naming its first bad
/// cell, as Lua 5.4 and LuaJIT may see it longer or shorter.
unsafe fn read_row(
    l: *mut lua_State,
    t: c_int,
    y: usize,
    width: usize,
    xs: std::ops::Range<usize>,
    mut cells: Option<&mut Vec<u8>>,
) -> Result<(), String> {
    if t != ffi::LUA_TTABLE {
        return Err(format!("row {y} must be a table, got {}", type_name(l, t)));
    }
    let row = ffi::lua_gettop(l);
    let len = ffi::lua_rawlen(l, row);
    if has_key_beyond(l, row, len) {
        return Err(first_bad_cell(l, y, len + 1).expect("a hole"));
    }
    if len != width {
        let hole = (1..=len).find(|&x| cell(l, row, x) == Err("nil".into()));
        return Err(match hole {
            Some(x) => first_bad_cell(l, y, x).expect("a hole"),
            None => format!("row {y} has {len} cells, row 1 has {width}"),
        });
    }
    for x in xs {
        match cell(l, row, x) {
            Ok(c) => cells.as_mut().map_or((), |cells| cells.push(c)),
            Err(got) => return Err(cell_message(y, x, &got)),
        }
    }
    Ok(())
}

/// Cell `x` of the row at `row` (absolute), or what it is instead of a
/// one-byte string.
unsafe fn cell(l: *mut lua_State, row: c_int, x: usize) -> Result<u8, String> {
    let t = ffi::lua_rawgeti(l, row, x as ffi::lua_Integer);
    let got = if t == ffi::LUA_TSTRING {
        match string(l, -1) {
            &[c] => Ok(c),
            bytes => Err(format!("a {}-byte string", bytes.len())),
        }
    } else {
        Err(type_name(l, t).to_string())
    };
    ffi::lua_settop(l, -2);
    got
}

fn cell_message(y: usize, x: usize, got: &str) -> String {
    format!("cell [{y}][{x}] must be a one-character string, got {got}")
}

/// The message for the first cell of the row on top of the stack, row `y`,
/// in `1..=upto` that is not a one-byte string.
unsafe fn first_bad_cell(l: *mut lua_State, y: usize, upto: usize) -> Option<String> {
    let row = ffi::lua_gettop(l);
    (1..=upto).find_map(|x| cell(l, row, x).err().map(|got| cell_message(y, x, &got)))
}

/// The error message on top of the stack (any value, described if not a string).
pub unsafe fn message(l: *mut lua_State) -> String {
    match value(l, -1) {
        Arg::Str(s) => String::from_utf8_lossy(s).into_owned(),
        other => other.to_string(),
    }
}
