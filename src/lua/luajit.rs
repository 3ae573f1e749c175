//! LuaJIT only: the route through `luajit.lua`.
//!
//! On LuaJIT, JIT-compiled Lua fills and reads a table of rows several times
//! faster than the C API does one cell at a time (docs/performance.md). So
//! `luajit.lua` wraps the functions whose results or arguments are tables
//! of rows: it builds and reads the rows in Lua, and calls the C functions
//! here for the rest, each taking or giving the cells as one string. On Lua
//! 5.4 the C API is the faster way and this file is not built.

use std::ffi::c_int;

use mlua::ffi::{self, lua_State};
use mlua::{Lua, Table};

use super::args::{
    self, autotile_options, explore_at, opaque, position, radius, route_window, sample_args,
    search_args, SearchBound, Searched,
};
use super::push::push_bytes;
use super::read::Args;
use super::{call, Reply, Upvalues};
use crate::args::{Arg, MAX_CELLS};
use crate::grid::{ByteSet, Grid, Pos, Rect};
use crate::level::Level;
use crate::memory;
use crate::toolkit::board::BEYOND;
use crate::toolkit::distances::distances_from;
use crate::toolkit::{autotile, flee, fov, parse, reach, sample};

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
];

/// Runs `luajit.lua` with the module table and the helpers; it replaces
/// the functions it wraps.
pub fn wrap(lua: &Lua, module: &Table, upvalues: &Upvalues) -> mlua::Result<()> {
    let helpers = lua.create_table()?;
    upvalues.register(lua, &helpers, HELPERS)?;
    helpers.set("EXPLORE_RADIUS", args::EXPLORE_RADIUS)?;
    lua.load(include_str!("luajit.lua"))
        .set_name("=map/luajit.lua")
        .call((module, helpers))
}

/// `generate`'s level with its cells as one string, for `luajit.lua` to
/// build the table; errors as `map.generate`'s.
unsafe extern "C-unwind" fn generate_parts(state: *mut lua_State) -> c_int {
    call(state, "map.generate", |args| {
        Ok(Reply::Parts(Box::new(super::args::level(args)?)))
    })
}

/// `reachable` on a map that `luajit.lua` has read and checked, given as
/// `(cells, width)`: row-major cells in one string.
unsafe extern "C-unwind" fn reach_cells(state: *mut lua_State) -> c_int {
    call(state, "map.reachable", |args| {
        let cells = Cells::of(args)?;
        memory::check(memory::bound_reach((cells.width, cells.height())))?;
        Ok(Reply::Verdict(
            reach::check(&cells.grid()).map_err(|e| e.to_string()),
        ))
    })
}

/// `fov` on a window `luajit.lua` has read (see `fov_args`): one byte per
/// window cell, 1 where visible.
unsafe extern "C-unwind" fn fov_cells(state: *mut lua_State) -> c_int {
    call(state, "map.fov", |args| {
        let (window, origin, radius, opaque) = fov_args(args)?;
        let seen = fov::visible(&window, origin, radius, &opaque);
        Ok(Reply::Text(seen.into_iter().map(u8::from).collect()))
    })
}

/// `distances` on the window `luajit.lua` has read (see `searched_cells`):
/// one native-endian double per cell of the window, NaN where unreached
/// (LuaJIT's numbers are doubles, and every value lies within 2^53).
unsafe extern "C-unwind" fn distances_cells(state: *mut lua_State) -> c_int {
    call(state, "map.distances", |args| {
        let s = searched_cells(args, args::DISTANCES, memory::bound_distances)?;
        let values = distances_from(&s.grid, &s.sources, &s.walk, &s.limits);
        Ok(Reply::Text(doubles(&values)))
    })
}

/// `flee` as `distances_cells` does `distances`.
unsafe extern "C-unwind" fn flee_cells(state: *mut lua_State) -> c_int {
    call(state, "map.flee", |args| {
        let s = searched_cells(args, args::FLEE, memory::bound_flee)?;
        let values =
            flee::flee(&s.grid, &s.sources, &s.walk, &s.limits, s.factor).map_err(|e| {
                flee::Overflow {
                    at: s.window.outside(e.at),
                    ..e
                }
                .to_string()
            })?;
        Ok(Reply::Text(doubles(&values)))
    })
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
unsafe extern "C-unwind" fn search_window<const FLEE: bool>(state: *mut lua_State) -> c_int {
    let name = if FLEE { "map.flee" } else { "map.distances" };
    call(state, name, |args| {
        let size = (integer(args, 1)?, integer(args, 2)?);
        let (accepted, bound) = search_kind(FLEE);
        let asked = search_args(args, size, (3, 4), accepted, bound)?;
        Ok(Reply::Window(asked.window))
    })
}

/// The options and memory bound of `flee`, or of `distances`.
fn search_kind(flee: bool) -> (&'static [&'static str], SearchBound) {
    if flee {
        (args::FLEE, memory::bound_flee)
    } else {
        (args::DISTANCES, memory::bound_distances)
    }
}

/// A size or coordinate `luajit.lua` passes, which it has checked.
fn integer(args: &Args, index: c_int) -> Result<usize, String> {
    match args.get(index).integer() {
        Some(i) if i > 0 => Ok(i as usize),
        _ => Err("internal error (please report): bad integer".into()),
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
) -> Result<Searched, String> {
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
        return Err("internal error (please report): another window".into());
    }
    let limits = asked.search.limits(args, window, size)?;
    Ok(Searched {
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
unsafe extern "C-unwind" fn autotile_cells(state: *mut lua_State) -> c_int {
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
            _ => Err("internal error (please report): bad cells".into()),
        }
    }

    fn height(&self) -> usize {
        self.bytes.len() / self.width
    }

    fn grid(&self) -> Grid {
        Grid::from_cells(self.width, self.height(), self.bytes.to_vec())
    }
}

/// LuaJIT only, for `luajit.lua`: pushes the cells (row-major, one
/// string), width, height, seed, algorithm, and one array of integers:
/// player x, y, stairs x, y, the room count, then per room x, y, w, h, its
/// exit count, x, y per exit, its link count and the links (1-based); the
/// door count, then x, y per door; the item count, then x, y and the kind's
/// byte per item; the vault count, then index (1-based), x, y, w, h and
/// rotation per vault; the placed count, then x, y and the byte per placed
/// cell; last 0, or 1 and the up staircase's x, y. Needs 7 slots, within
/// the `LUA_MINSTACK` Lua guarantees, as `generate` takes at most 3 arguments.
pub unsafe fn push_level_parts(l: *mut lua_State, level: &Level) -> c_int {
    let grid = &level.grid;
    push_bytes(l, grid.cells());
    ffi::lua_pushinteger(l, grid.width() as ffi::lua_Integer);
    ffi::lua_pushinteger(l, grid.height() as ffi::lua_Integer);
    ffi::lua_pushinteger(l, level.seed as ffi::lua_Integer);
    ffi::lua_pushlstring(l, level.algorithm.as_ptr().cast(), level.algorithm.len());
    let (player, stairs) = (level.player, level.stairs);
    let head = [player.x, player.y, stairs.x, stairs.y, level.rooms.len()];
    let (exits, links) = (&level.exits.exits, &level.exits.links);
    let rooms = level.rooms.iter().enumerate().flat_map(|(i, r)| {
        let (room_exits, room_links) = (&exits[i], &links[i]);
        [r.x, r.y, r.w, r.h, room_exits.len()]
            .into_iter()
            .chain(room_exits.iter().flat_map(|e| [e.x, e.y]))
            .chain([room_links.len()])
            .chain(room_links.iter().map(|&k| k as usize + 1))
    });
    let doors = level.doors.iter().flat_map(|d| [d.x, d.y]);
    let items = level
        .items
        .iter()
        .flat_map(|i| [i.pos.x, i.pos.y, i.kind as usize]);
    let vaults = level.vaults.iter().flat_map(|v| {
        let r = v.rect;
        [v.index + 1, r.x, r.y, r.w, r.h, v.rotation as usize]
    });
    let placed = level
        .placed
        .iter()
        .flat_map(|p| [p.pos.x, p.pos.y, p.char as usize]);
    let up = match level.up {
        Some(p) => vec![1, p.x, p.y],
        None => vec![0],
    };
    let room_parts: usize = (0..level.rooms.len())
        .map(|i| 6 + 2 * exits[i].len() + links[i].len())
        .sum();
    let count = head.len()
        + room_parts
        + 1
        + 2 * level.doors.len()
        + 1
        + 3 * level.items.len()
        + 1
        + 6 * level.vaults.len()
        + 1
        + 3 * level.placed.len()
        + up.len();
    ffi::lua_createtable(l, count as c_int, 0);
    let all = head
        .into_iter()
        .chain(rooms)
        .chain([level.doors.len()])
        .chain(doors)
        .chain([level.items.len()])
        .chain(items)
        .chain([level.vaults.len()])
        .chain(vaults)
        .chain([level.placed.len()])
        .chain(placed)
        .chain(up);
    for (i, v) in all.enumerate() {
        ffi::lua_pushinteger(l, v as ffi::lua_Integer);
        ffi::lua_rawseti(l, -2, i as ffi::lua_Integer + 1);
    }
    6
}

/// LuaJIT only, for `luajit.lua`: a window's top-left cell and size.
pub unsafe fn push_window(l: *mut lua_State, w: Rect) -> c_int {
    for v in [w.x, w.y, w.w, w.h] {
        ffi::lua_pushinteger(l, v as ffi::lua_Integer);
    }
    4
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
    .map_err(|_| "internal error (please report): bad cell".to_string())
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
        return Err("internal error (please report): another window".into());
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
unsafe extern "C-unwind" fn path_window(state: *mut lua_State) -> c_int {
    call(state, "map.path", |args| {
        let size = (integer(args, 1)?, integer(args, 2)?);
        let ends = (checked_cell(args, 3, size)?, checked_cell(args, 5, size)?);
        Ok(Reply::Window(route_window(args, 7, size, ends)?.1))
    })
}

/// `path` on the window `luajit.lua` has read, as `(cells, window width,
/// width, height, window x, y, x1, y1, x2, y2, options)`: the path's cells
/// as `packed` gives them, or nil and why.
unsafe extern "C-unwind" fn path_cells(state: *mut lua_State) -> c_int {
    call(state, "map.path", |args| {
        let size = (integer(args, 3)?, integer(args, 4)?);
        let (from, to) = (checked_cell(args, 7, size)?, checked_cell(args, 9, size)?);
        let (search, window, near) = route_window(args, 11, size, (from, to))?;
        let grid = read_window(args, 5, window)?;
        let limits = search.limits(args, window, size)?;
        let route = args::Route {
            grid,
            window,
            from,
            to,
            near,
            walk: search.walk,
            limits,
        };
        Ok(match super::route(&route) {
            Ok(cells) => Reply::Text(packed(&cells)),
            Err(why) => Reply::Positions(Err(why)),
        })
    })
}

/// `explore` on the window of radius `r` that `luajit.lua` has read, as
/// `(cells, window width, known flags (a byte a cell, 1 where known),
/// width, height, window x, y, x, y, r, options)`: the path as `packed`
/// gives it; nil and "explored"; or false, to read a larger window.
unsafe extern "C-unwind" fn explore_cells(state: *mut lua_State) -> c_int {
    call(state, "map.explore", |args| {
        let size = (integer(args, 4)?, integer(args, 5)?);
        let start = checked_cell(args, 8, size)?;
        let r = integer(args, 10)?;
        let asked = explore_at(args, size, start, 11)?;
        let window = asked.window(r);
        let grid = read_window(args, 6, window)?;
        let known = match args.get(3) {
            Arg::Str(flags) if flags.len() == grid.cells().len() => {
                flags.iter().map(|&k| k == 1).collect()
            }
            _ => return Err("internal error (please report): bad known flags".into()),
        };
        let e = asked.read(args, window, Some((grid, known)))?;
        let whole = window == Rect::whole(size);
        Ok(match super::explore_in(&e, window, whole, r) {
            Some(Ok(path)) => Reply::Text(packed(&path)),
            Some(Err(why)) => Reply::Positions(Err(why)),
            None => Reply::Boolean(false),
        })
    })
}

/// `sample` on the whole map `luajit.lua` has read, as `(cells, width,
/// count, options)`.
unsafe extern "C-unwind" fn sample_cells(state: *mut lua_State) -> c_int {
    call(state, "map.sample", |args| {
        let cells = Cells::of(args)?;
        let (count, seed, filter) = sample_args(args, (cells.width, cells.height()), (3, 4))?;
        let drawn =
            sample::sample(&cells.grid(), count, seed, &filter).map_err(|e| e.to_string())?;
        Ok(Reply::Positions(Ok(drawn)))
    })
}

/// `parse`'s checks of the text at 1: its width and height, and the
/// first `@` and `>` (x, y each, or nil), for `luajit.lua` to build the
/// rows; raises `parse`'s errors.
unsafe extern "C-unwind" fn parse_size(state: *mut lua_State) -> c_int {
    call(state, "map.parse", |args| {
        let p = args::parse(args)?;
        Ok(Reply::ParsedSize(Box::new(p)))
    })
}

/// LuaJIT only, for `luajit.lua`: a parsed map's width, height, and its
/// `@` and `>` (x, y each, or nil, nil).
pub unsafe fn push_parsed_size(l: *mut lua_State, p: &parse::Parsed) -> c_int {
    ffi::lua_pushinteger(l, p.grid.width() as ffi::lua_Integer);
    ffi::lua_pushinteger(l, p.grid.height() as ffi::lua_Integer);
    for at in [p.player, p.stairs] {
        match at {
            Some(c) => {
                ffi::lua_pushinteger(l, c.x as ffi::lua_Integer);
                ffi::lua_pushinteger(l, c.y as ffi::lua_Integer);
            }
            None => {
                ffi::lua_pushnil(l);
                ffi::lua_pushnil(l);
            }
        }
    }
    6
}
