//! LuaJIT only: the route through `luajit.lua`.
//!
//! On LuaJIT, JIT-compiled Lua fills and reads a table of rows several times
//! faster than the C API does one cell at a time (docs/performance.md). So
//! `luajit.lua` wraps the functions whose results or arguments are tables
//! of rows: it builds and reads the rows in Lua, and calls the C functions
//! here for the rest, each taking or giving the cells as one string. On Lua
//! 5.4 the C API is the faster way and this file is not built.
//!
//! A helper that reads what `luajit.lua` read before (the map's window,
//! sized by the sources and options) checks it again: a finalizer that ran
//! in between, at one of Lua's allocations, may have changed them. Then it
//! answers `false`, and `luajit.lua` hands the call to the C function,
//! which reads every argument once (`ANOTHER_WINDOW`).
#![deny(unsafe_op_in_unsafe_fn)]

use std::ffi::c_int;

use mlua::ffi::{self, lua_State};
use mlua::{Lua, Table};

use super::cells::position;
use super::exports::{self, autotile_options, sample_args};
use super::luajit_push::Parts;
use super::read::Args;
use super::search::{self, search_args, SearchBound};
use super::sight::{opaque, radius};
use super::walks::{self, explore_at, route_window, SearchAsked, EXPLORE_RADIUS};
use super::{call, Reply, Upvalues};
use crate::grid::{ByteSet, Grid, Pos, Rect};
use crate::input::{Arg, INTERNAL_ERROR, MAX_CELLS};
use crate::memory;
use crate::toolkit::board::BEYOND;
use crate::toolkit::distances::distances_from;
use crate::toolkit::{autotile, fov, reach, sample};

/// The error `require "map"` raises when the LuaJIT flavour is loaded by
/// another Lua 5.1 (`luaopen_map`).
pub const NOT_LUAJIT: &std::ffi::CStr = c"map: this is map's LuaJIT build (lib/lua/5.1/map.so), and this \
    interpreter is plain Lua 5.1, which map does not support: use LuaJIT, or Lua 5.4 with the Lua 5.4 build";

/// Whether the interpreter holding `state` is LuaJIT: its `jit` library is
/// loaded (`package.loaded.jit`, which sandboxes that hide the global keep).
///
/// # Safety
/// `state` is a valid Lua state with two free stack slots.
pub unsafe fn runs_on_luajit(state: *mut lua_State) -> bool {
    // SAFETY: reads of the registry (which has no metatable) and a raw get
    // from its `_LOADED` table: no metamethod runs, nothing can raise.
    unsafe {
        ffi::lua_getfield(state, ffi::LUA_REGISTRYINDEX, c"_LOADED".as_ptr());
        let found = ffi::lua_type(state, -1) == ffi::LUA_TTABLE && {
            ffi::lua_pushstring(state, c"jit".as_ptr());
            ffi::lua_rawget(state, -2);
            let jit = ffi::lua_type(state, -1) == ffi::LUA_TTABLE;
            ffi::lua_pop(state, 1);
            jit
        };
        ffi::lua_pop(state, 1);
        found
    }
}

/// The C functions only `luajit.lua` sees.
const HELPERS: &[(&str, ffi::lua_CFunction)] = &[
    ("generate_parts", generate_parts),
    ("reach_cells", reach_cells),
    ("fov_cells", fov_cells),
    ("distances_cells", distances_cells),
    ("distances_window", search_window::<false>),
    ("flee_window", search_window::<true>),
    ("flee_cells", flee_cells),
    ("path_window", path_window),
    ("path_cells", path_cells),
    ("explore_cells", explore_cells),
    ("sample_cells", sample_cells),
    ("parse_size", parse_size),
    ("autotile_cells", autotile_cells),
    ("guard", guard),
];

/// Runs `luajit.lua`, then `luajit_levels.lua` (with what the first
/// shares), with the module table and the helpers; they replace the
/// functions they wrap. Returns what `luajit.lua` shares.
pub fn wrap(lua: &Lua, module: &Table, upvalues: &Upvalues) -> mlua::Result<Table> {
    let helpers = lua.create_table()?;
    upvalues.register(lua, &helpers, HELPERS)?;
    helpers.set("EXPLORE_RADIUS", EXPLORE_RADIUS)?;
    let shared: Table = lua
        .load(include_str!("luajit.lua"))
        .set_name("=map/luajit.lua")
        .call((module, &helpers))?;
    lua.load(include_str!("luajit_levels.lua"))
        .set_name("=map/luajit_levels.lua")
        .call::<()>((module, helpers, &shared))?;
    Ok(shared)
}

/// `guard(name, f)`, for `luajit.lua`, once per wrapped export when the
/// module opens: `f` as a C function that calls it inside `lua_pcall` and
/// raises its errors again as the C function `name` would: running out of
/// memory as `name: not enough memory for the result`, a stack overflow
/// outside the module's own messages as `name: stack overflow`, anything
/// else as it is. Both messages are made here, so raising one allocates
/// nothing; and as the wrapper is a C function, whose frame Lua sizes
/// before the call, the overflow of any Lua frame within it is caught by
/// its `pcall`, as a C function's own is on Lua 5.4.
///
/// # Safety
///
/// Lua calls it, as a C function given its own state (`HELPERS`).
unsafe extern "C-unwind" fn guard(state: *mut lua_State) -> c_int {
    // SAFETY: two arguments (`luajit.lua` passes a string and a function),
    // 2 + 4 slots, within LUA_MINSTACK; an error here (out of memory when
    // the module opens) unwinds through no Rust value.
    unsafe {
        ffi::lua_settop(state, 2);
        ffi::lua_pushvalue(state, 2);
        for tail in [
            ": not enough memory for the result",
            ": stack overflow",
            ":",
        ] {
            ffi::lua_pushvalue(state, 1);
            ffi::lua_pushlstring(state, tail.as_ptr().cast(), tail.len());
            ffi::lua_concat(state, 2);
        }
        ffi::lua_pushcclosure(state, guarded, 4);
    }
    1
}

/// The C function `guard` makes: its upvalues are the Lua function, the
/// two messages and the prefix `name:` of the module's own messages.
///
/// # Safety
///
/// Lua calls it, as a C function made by `guard`.
unsafe extern "C-unwind" fn guarded(state: *mut lua_State) -> c_int {
    // SAFETY: the function goes below the arguments (one slot of the
    // LUA_MINSTACK a C function has); after a failed `lua_pcall` only the
    // error is left, and one more slot holds a message pushed from an
    // upvalue, which allocates nothing. No Rust value lives when
    // `lua_error` unwinds.
    unsafe {
        let n = ffi::lua_gettop(state);
        ffi::lua_pushvalue(state, ffi::lua_upvalueindex(1));
        ffi::lua_insert(state, 1);
        let status = ffi::lua_pcall(state, n, ffi::LUA_MULTRET, 0);
        if status == ffi::LUA_OK {
            return ffi::lua_gettop(state);
        }
        if status == ffi::LUA_ERRMEM {
            ffi::lua_pushvalue(state, ffi::lua_upvalueindex(2));
        } else if is_overflow(state) {
            ffi::lua_pushvalue(state, ffi::lua_upvalueindex(3));
        }
        ffi::lua_error(state)
    }
}

/// Whether the error on top of the stack is a stack overflow that is not
/// one of the module's own messages (which start with upvalue 4).
///
/// # Safety
///
/// `state` must be that of a `guarded` call with its error on top.
unsafe fn is_overflow(state: *mut lua_State) -> bool {
    // SAFETY: strings are read in place (`lua_type` checked first), so
    // nothing converts or allocates; the slices live while the stack and
    // the upvalue hold the strings, within this call.
    unsafe {
        if ffi::lua_type(state, -1) != ffi::LUA_TSTRING {
            return false;
        }
        let bytes = |index| {
            let mut len = 0;
            let ptr = ffi::lua_tolstring(state, index, &mut len);
            std::slice::from_raw_parts(ptr.cast::<u8>(), len)
        };
        let (message, own) = (bytes(-1), bytes(ffi::lua_upvalueindex(4)));
        !message.starts_with(own) && message.windows(14).any(|w| w == b"stack overflow")
    }
}

/// `generate`'s level with its cells as one string, for `luajit.lua` to
/// build the table; errors as `map.generate`'s.
///
/// # Safety
///
/// Lua calls it, as a C function given its own state (`HELPERS`).
unsafe extern "C-unwind" fn generate_parts(state: *mut lua_State) -> c_int {
    // SAFETY: called by Lua as a C function, with its own state.
    unsafe {
        call(state, "map.generate", |args| {
            Ok(Reply::Parts(Box::new(Parts::of(exports::level(args)?))))
        })
    }
}

/// `reachable` on a map that `luajit.lua` has read and checked, given as
/// `(cells, width)`: row-major cells in one string.
///
/// # Safety
///
/// Lua calls it, as a C function given its own state (`HELPERS`).
unsafe extern "C-unwind" fn reach_cells(state: *mut lua_State) -> c_int {
    // SAFETY: called by Lua as a C function, with its own state.
    unsafe {
        call(state, "map.reachable", |args| {
            let cells = Cells::of(args)?;
            memory::check(memory::bound_reach((cells.width, cells.height())))?;
            Ok(Reply::Verdict(
                reach::check(&cells.grid()).map_err(|e| e.to_string()),
            ))
        })
    }
}

/// `fov` on a window `luajit.lua` has read (see `fov_args`): one byte per
/// window cell, 1 where visible.
///
/// # Safety
///
/// Lua calls it, as a C function given its own state (`HELPERS`).
unsafe extern "C-unwind" fn fov_cells(state: *mut lua_State) -> c_int {
    // SAFETY: called by Lua as a C function, with its own state.
    unsafe {
        call(state, "map.fov", |args| {
            let (window, origin, radius, opaque) = fov_args(args)?;
            let seen = fov::visible(&window, origin, radius, &opaque);
            Ok(Reply::Text(seen.into_iter().map(u8::from).collect()))
        })
    }
}

/// `distances` on the window `luajit.lua` has read (see `searched_cells`):
/// one native-endian double per cell of the window, NaN where unreached
/// (LuaJIT's numbers are doubles, and every value lies within 2^53).
///
/// # Safety
///
/// Lua calls it, as a C function given its own state (`HELPERS`).
unsafe extern "C-unwind" fn distances_cells(state: *mut lua_State) -> c_int {
    // SAFETY: called by Lua as a C function, with its own state.
    unsafe {
        call(state, "map.distances", |args| {
            or_c_function(|| {
                let s = searched_cells(args, search::DISTANCES, memory::bound_distances)?;
                let values = distances_from(&s.grid, &s.sources, &s.walk, &s.limits);
                Ok(Reply::Text(doubles(&values)))
            })
        })
    }
}

/// `flee` as `distances_cells` does `distances`.
///
/// # Safety
///
/// Lua calls it, as a C function given its own state (`HELPERS`).
unsafe extern "C-unwind" fn flee_cells(state: *mut lua_State) -> c_int {
    // SAFETY: called by Lua as a C function, with its own state.
    unsafe {
        call(state, "map.flee", |args| {
            or_c_function(|| {
                let s = searched_cells(args, search::FLEE, memory::bound_flee)?;
                Ok(Reply::Text(doubles(&super::safety_map(&s)?)))
            })
        })
    }
}

/// One native-endian double per value, NaN for `BEYOND`.
fn doubles(values: &[i64]) -> Vec<u8> {
    values
        .iter()
        .flat_map(|&v| if v == BEYOND { f64::NAN } else { v as f64 }.to_ne_bytes())
        .collect()
}

/// The window of the map that `distances` (or, with `FLEE`, `flee`) reads,
/// for `(width, height, sources, options)` of a map `luajit.lua` has
/// sized: its top-left cell and size, four integers; raises the function's
/// errors for the sources and options.
///
/// # Safety
///
/// Lua calls it, as a C function given its own state (`HELPERS`).
unsafe extern "C-unwind" fn search_window<const FLEE: bool>(state: *mut lua_State) -> c_int {
    // SAFETY: called by Lua as a C function, with its own state.
    unsafe {
        let name = if FLEE { "map.flee" } else { "map.distances" };
        call(state, name, |args| {
            let size = (integer(args, 1)?, integer(args, 2)?);
            let (accepted, bound) = search_kind(FLEE);
            let asked = search_args(args, size, (3, 4), accepted, bound)?;
            Ok(Reply::Window(asked.window))
        })
    }
}

/// The options and memory bound of `flee`, or of `distances`.
fn search_kind(flee: bool) -> (&'static [&'static str], SearchBound) {
    if flee {
        (search::FLEE, memory::bound_flee)
    } else {
        (search::DISTANCES, memory::bound_distances)
    }
}

/// The error of a helper that finds its arguments give another window than
/// the one `luajit.lua` read (a finalizer changed them in between), which
/// `or_c_function` turns into `false`: no message of the module's is empty.
const ANOTHER_WINDOW: &str = "";

/// `false` instead of `ANOTHER_WINDOW`: `luajit.lua` then hands the call to
/// the C function, which reads every argument once.
fn or_c_function(body: impl FnOnce() -> Result<Reply, String>) -> Result<Reply, String> {
    match body() {
        Err(e) if e == ANOTHER_WINDOW => Ok(Reply::Boolean(false)),
        other => other,
    }
}

/// A size or coordinate `luajit.lua` passes, which it has checked.
fn integer(args: &Args, index: c_int) -> Result<usize, String> {
    match args.get(index).integer() {
        Some(i) if i > 0 => Ok(i as usize),
        _ => Err(format!("{INTERNAL_ERROR}: bad integer")),
    }
}

/// A search on the window of a map `luajit.lua` has read, as `(cells,
/// window width, map width, map height, window x, window y, sources,
/// options)`: the window `search_window` gave for the same sources and
/// options.
fn searched_cells(
    args: &Args,
    accepted: &[&'static str],
    bound: SearchBound,
) -> Result<SearchAsked, String> {
    let cells = Cells::of(args)?;
    let size = (integer(args, 3)?, integer(args, 4)?);
    let asked = search_args(args, size, (7, 8), accepted, bound)?;
    let window = Rect {
        x: integer(args, 5)?,
        y: integer(args, 6)?,
        w: cells.width,
        h: cells.height(),
    };
    if window != asked.window {
        return Err(ANOTHER_WINDOW.into());
    }
    let limits = asked.search.limits(args, window, size)?;
    Ok(SearchAsked {
        size,
        window,
        grid: cells.grid(),
        sources: asked.sources,
        walk: asked.search.walk,
        limits,
        factor: asked.search.factor,
    })
}

/// `autotile` on a map `luajit.lua` has read, as `(cells, width, options)`:
/// one native-endian `u16` per cell, the mask or rank, or `u16::MAX` for a
/// cell of no class.
///
/// # Safety
///
/// Lua calls it, as a C function given its own state (`HELPERS`).
unsafe extern "C-unwind" fn autotile_cells(state: *mut lua_State) -> c_int {
    // SAFETY: called by Lua as a C function, with its own state.
    unsafe {
        call(state, "map.autotile", |args| {
            let cells = Cells::of(args)?;
            let tile = autotile_options(args, 3)?;
            memory::check(memory::bound_autotile((cells.width, cells.height())))?;
            let masks = autotile::masks(&cells.grid(), &tile);
            let bytes = masks
                .iter()
                .flat_map(|m| m.map_or(u16::MAX, u16::from).to_ne_bytes())
                .collect();
            Ok(Reply::Text(bytes))
        })
    }
}

/// `fov` on a window that `luajit.lua` has read and checked,
/// as `(cells, window width, origin x, origin y, radius, options)`, the
/// origin within the window and the radius as the caller gave it.
fn fov_args(args: &Args) -> Result<(Grid, Pos, Option<usize>, ByteSet), String> {
    let cells = Cells::of(args)?;
    let (w, h) = (cells.width, cells.height());
    let origin = position(args.get(3), args.get(4), ("x", "y"), w, h)?;
    let radius = radius(args.get(5), w + h)?;
    let opaque = opaque(args, 6)?;
    memory::check(memory::bound_fov(w * h))?;
    Ok((cells.grid(), origin, radius, opaque))
}

/// A map or window given as `(cells, width)` by
/// `luajit.lua`, row-major cells in one string, which it has checked.
/// Copied into a grid only after the caller's memory check.
struct Cells<'a> {
    pub bytes: &'a [u8],
    pub width: usize,
}

impl<'a> Cells<'a> {
    fn of(args: &'a Args) -> Result<Cells<'a>, String> {
        let bytes = match args.get(1) {
            Arg::Str(bytes) => bytes,
            _ => &[],
        };
        let width = args.get(2).integer().and_then(|w| usize::try_from(w).ok());
        match width {
            Some(w)
                if w > 0
                    && !bytes.is_empty()
                    && bytes.len() % w == 0
                    && bytes.len() <= MAX_CELLS =>
            {
                Ok(Cells { bytes, width: w })
            }
            _ => Err(format!("{INTERNAL_ERROR}: bad cells")),
        }
    }

    fn height(&self) -> usize {
        self.bytes.len() / self.width
    }

    fn grid(&self) -> Grid {
        Grid::from_cells(self.width, self.height(), self.bytes.to_vec())
    }
}

/// The cell at arguments `index`, `index + 1` of a map of `size`, which
/// `luajit.lua` has checked.
fn checked_cell(args: &Args, index: c_int, size: (usize, usize)) -> Result<Pos, String> {
    position(
        args.get(index),
        args.get(index + 1),
        ("x", "y"),
        size.0,
        size.1,
    )
    .map_err(|_| format!("{INTERNAL_ERROR}: bad cell"))
}

/// The window `luajit.lua` has read: the cells given at 1 and 2, at the
/// top-left cell given at `index`, `index + 1`, which must be `expected`.
fn read_window(args: &Args, index: c_int, expected: Rect) -> Result<Grid, String> {
    let cells = Cells::of(args)?;
    let window = Rect {
        x: integer(args, index)?,
        y: integer(args, index + 1)?,
        w: cells.width,
        h: cells.height(),
    };
    if window != expected {
        return Err(ANOTHER_WINDOW.into());
    }
    Ok(cells.grid())
}

/// The cells as one string of native-endian `u32` pairs, x then y.
fn packed(cells: &[Pos]) -> Vec<u8> {
    cells
        .iter()
        .flat_map(|p| [p.x as u32, p.y as u32])
        .flat_map(u32::to_ne_bytes)
        .collect()
}

/// The window of the map that `path` reads, for `(width, height, x1, y1,
/// x2, y2, options)` of a map `luajit.lua` has sized, the cells checked:
/// four integers; raises `path`'s errors for the options.
///
/// # Safety
///
/// Lua calls it, as a C function given its own state (`HELPERS`).
unsafe extern "C-unwind" fn path_window(state: *mut lua_State) -> c_int {
    // SAFETY: called by Lua as a C function, with its own state.
    unsafe {
        call(state, "map.path", |args| {
            let size = (integer(args, 1)?, integer(args, 2)?);
            let ends = (checked_cell(args, 3, size)?, checked_cell(args, 5, size)?);
            Ok(Reply::Window(route_window(args, 7, size, ends)?.1))
        })
    }
}

/// `path` on the window `luajit.lua` has read, as `(cells, window width,
/// width, height, window x, y, x1, y1, x2, y2, options)`: the path's cells
/// as `packed` gives them, or nil and why.
///
/// # Safety
///
/// Lua calls it, as a C function given its own state (`HELPERS`).
unsafe extern "C-unwind" fn path_cells(state: *mut lua_State) -> c_int {
    // SAFETY: called by Lua as a C function, with its own state.
    unsafe {
        call(state, "map.path", |args| {
            let size = (integer(args, 3)?, integer(args, 4)?);
            let (from, to) = (checked_cell(args, 7, size)?, checked_cell(args, 9, size)?);
            or_c_function(|| {
                let route = walks::route(args, 11, size, (from, to), |w| read_window(args, 5, w))?;
                Ok(match super::answers::route(&route) {
                    Ok(cells) => Reply::Text(packed(&cells)),
                    Err(why) => Reply::Positions(Err(why)),
                })
            })
        })
    }
}

/// `explore` on the window of radius `r` that `luajit.lua` has read, as
/// `(cells, window width, known flags (a byte a cell, 1 where known),
/// width, height, window x, y, x, y, r, options)`: the path as `packed`
/// gives it; nil and "explored"; or false, to read a larger window.
///
/// # Safety
///
/// Lua calls it, as a C function given its own state (`HELPERS`).
unsafe extern "C-unwind" fn explore_cells(state: *mut lua_State) -> c_int {
    // SAFETY: called by Lua as a C function, with its own state.
    unsafe {
        call(state, "map.explore", |args| {
            let size = (integer(args, 4)?, integer(args, 5)?);
            let start = checked_cell(args, 8, size)?;
            let r = integer(args, 10)?;
            let asked = explore_at(args, size, start, 11)?;
            let window = asked.window(r);
            // Its window is the start's, r and the map's size, all given as
            // checked integers: only a bug makes it another.
            let grid = read_window(args, 6, window).map_err(|e| match e.as_str() {
                ANOTHER_WINDOW => format!("{INTERNAL_ERROR}: another window"),
                _ => e,
            })?;
            let known = match args.get(3) {
                Arg::Str(flags) if flags.len() == grid.cells().len() => {
                    flags.iter().map(|&k| k == 1).collect()
                }
                _ => return Err(format!("{INTERNAL_ERROR}: bad known flags")),
            };
            let e = asked.read(args, window, Some((grid, known)))?;
            let whole = window == Rect::whole(size);
            Ok(match super::answers::explore_in(&e, window, whole, r) {
                Some(Ok(path)) => Reply::Text(packed(&path)),
                Some(Err(why)) => Reply::Positions(Err(why)),
                None => Reply::Boolean(false),
            })
        })
    }
}

/// `sample` on the whole map `luajit.lua` has read, as `(cells, width,
/// count, options)`.
///
/// # Safety
///
/// Lua calls it, as a C function given its own state (`HELPERS`).
unsafe extern "C-unwind" fn sample_cells(state: *mut lua_State) -> c_int {
    // SAFETY: called by Lua as a C function, with its own state.
    unsafe {
        call(state, "map.sample", |args| {
            let cells = Cells::of(args)?;
            let size = (cells.width, cells.height());
            let (count, seed, filter, draw) = sample_args(args, size, (3, 4))?;
            let drawn =
                sample::sample(&cells.grid(), count, seed, &filter).map_err(|e| e.to_string())?;
            draw.commit();
            Ok(Reply::Positions(Ok(drawn)))
        })
    }
}

/// `parse`'s checks of the text at 1: its width and height, and the
/// first `@` and `>` (x, y each, or nil), for `luajit.lua` to build the
/// rows; raises `parse`'s errors.
///
/// # Safety
///
/// Lua calls it, as a C function given its own state (`HELPERS`).
unsafe extern "C-unwind" fn parse_size(state: *mut lua_State) -> c_int {
    // SAFETY: called by Lua as a C function, with its own state.
    unsafe {
        call(state, "map.parse", |args| {
            let p = exports::parse(args)?;
            Ok(Reply::ParsedSize(Box::new(p)))
        })
    }
}
