//! LuaJIT only: what the LuaJIT route's helpers share (each export's
//! helpers are in its file, `luajit/` installs them): the cells
//! `luajit/tables.lua` read, handed over as one string; the answers as
//! one string of numbers; a window; and the sign that the arguments now
//! ask for another window than the one read.
//!
//! A helper that reads what `luajit/tables.lua` read before (the map's
//! window, sized by the sources and options) checks it again: a finalizer
//! that ran in between, at one of Lua's allocations, may have changed
//! them. Then it answers `false`, and the Lua side hands the call to the C
//! function, which reads every argument once (`ANOTHER_WINDOW`).
#![deny(unsafe_op_in_unsafe_fn)]

use std::ffi::c_int;

use mlua::ffi::{self, lua_State};

use super::cells::position;
use super::search::{search_args, SearchBound};
use super::searched::SearchAsked;
use crate::grid::{Grid, Pos, Rect};
use crate::input::{Arg, INTERNAL_ERROR, MAX_CELLS};
use crate::lua::stack::{Args, Reply};
use crate::toolkit::board::BEYOND;

/// A window's top-left cell and size, four integers.
pub struct Window(pub Rect);

impl Reply for Window {
    unsafe fn push_on(&self, l: *mut lua_State) -> c_int {
        let w = self.0;
        // SAFETY: four numbers, within the slots the pushers' contract gives.
        unsafe {
            for v in [w.x, w.y, w.w, w.h] {
                ffi::lua_pushinteger(l, v as ffi::lua_Integer);
            }
        }
        4
    }
}

/// One native-endian double per value, NaN for `BEYOND`.
pub fn doubles(values: &[i64]) -> Vec<u8> {
    values
        .iter()
        .flat_map(|&v| if v == BEYOND { f64::NAN } else { v as f64 }.to_ne_bytes())
        .collect()
}

/// The error of a helper that finds its arguments give another window than
/// the one `luajit/tables.lua` read (a finalizer changed them in between), which
/// `or_c_function` turns into `false`: no message of the module's is empty.
pub const ANOTHER_WINDOW: &str = "";

/// `false` instead of `ANOTHER_WINDOW`: `luajit/tables.lua` then hands the call to
/// the C function, which reads every argument once.
pub fn or_c_function<R: Reply + 'static>(
    body: impl FnOnce() -> Result<R, String>,
) -> Result<Box<dyn Reply>, String> {
    match body() {
        Err(e) if e == ANOTHER_WINDOW => Ok(Box::new(false)),
        other => other.map(|r| Box::new(r) as Box<dyn Reply>),
    }
}

/// A size or coordinate `luajit/tables.lua` passes, which it has checked.
pub fn integer(args: &Args, index: c_int) -> Result<usize, String> {
    match args.get(index).integer() {
        Some(i) if i > 0 => Ok(i as usize),
        _ => Err(format!("{INTERNAL_ERROR}: bad integer")),
    }
}

/// A map or window given as `(cells, width)` by
/// `luajit/tables.lua`, row-major cells in one string, which it has checked.
/// Copied into a grid only after the caller's memory check.
pub struct Cells<'a> {
    pub bytes: &'a [u8],
    pub width: usize,
}

impl<'a> Cells<'a> {
    pub fn of(args: &'a Args) -> Result<Cells<'a>, String> {
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

    pub fn height(&self) -> usize {
        self.bytes.len() / self.width
    }

    pub fn grid(&self) -> Grid {
        Grid::from_cells(self.width, self.height(), self.bytes.to_vec())
    }
}

/// The cell at arguments `index`, `index + 1` of a map of `size`, which
/// `luajit/tables.lua` has checked.
pub fn checked_cell(args: &Args, index: c_int, size: (usize, usize)) -> Result<Pos, String> {
    position(
        args.get(index),
        args.get(index + 1),
        ("x", "y"),
        size.0,
        size.1,
    )
    .map_err(|_| format!("{INTERNAL_ERROR}: bad cell"))
}

/// The window `luajit/tables.lua` has read: the cells given at 1 and 2, at the
/// top-left cell given at `index`, `index + 1`, which must be `expected`.
pub fn read_window(args: &Args, index: c_int, expected: Rect) -> Result<Grid, String> {
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
pub fn packed(cells: &[Pos]) -> Vec<u8> {
    cells
        .iter()
        .flat_map(|p| [p.x as u32, p.y as u32])
        .flat_map(u32::to_ne_bytes)
        .collect()
}

/// A search on the window of a map `luajit/tables.lua` has read, as `(cells,
/// window width, map width, map height, window x, window y, sources,
/// options)`: the window `search_window` gave for the same sources and
/// options.
pub fn searched_cells(
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
    let charges = asked.search.charges_in(args, window);
    Ok(SearchAsked {
        size,
        window,
        grid: cells.grid(),
        sources: asked.sources,
        walk: asked.search.walk,
        limits,
        factor: asked.search.factor,
        charges,
    })
}
