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

use super::args::{autotile_options, opaque, position, radius, sources_and_walk};
use super::push::push_bytes;
use super::read::Args;
use super::{call, Reply, Upvalues};
use crate::args::{Arg, MAX_CELLS};
use crate::grid::{ByteSet, Grid, Pos};
use crate::level::Level;
use crate::memory;
use crate::toolkit::board::{Walk, UNREACHED};
use crate::toolkit::distances::distances;
use crate::toolkit::{autotile, fov, reach};

/// The C functions only `luajit.lua` sees.
const HELPERS: &[(&str, ffi::lua_CFunction)] = &[
    ("generate_parts", generate_parts),
    ("reach_cells", reach_cells),
    ("fov_cells", fov_cells),
    ("distances_cells", distances_cells),
    ("autotile_cells", autotile_cells),
];

/// Runs `luajit.lua` with the module table and the helpers; it replaces
/// the functions it wraps.
pub fn wrap(lua: &Lua, module: &Table, upvalues: &Upvalues) -> mlua::Result<()> {
    let helpers = lua.create_table()?;
    upvalues.register(lua, &helpers, HELPERS)?;
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

/// `distances` on a map `luajit.lua` has read (see `distances_args`): one
/// native-endian double per cell, -1 where unreached (LuaJIT's numbers are
/// doubles, and every distance is below 2^53).
unsafe extern "C-unwind" fn distances_cells(state: *mut lua_State) -> c_int {
    call(state, "map.distances", |args| {
        let (grid, sources, walk) = distances_args(args)?;
        let dist = distances(&grid, &sources, &walk);
        let bytes = dist
            .iter()
            .flat_map(|&d| if d == UNREACHED { -1.0 } else { d as f64 }.to_ne_bytes())
            .collect();
        Ok(Reply::Text(bytes))
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

/// `distances` on a map that `luajit.lua` has read and
/// checked, as `(cells, width, sources, options)`.
fn distances_args(args: &Args) -> Result<(Grid, Vec<Pos>, Walk), String> {
    let cells = Cells::of(args)?;
    let (sources, walk) = sources_and_walk(args, 3, (cells.width, cells.height()))?;
    Ok((cells.grid(), sources, walk))
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
/// player x, y, stairs x, y, the room count, then x, y, w, h per room, the
/// door count, then x, y per door, the item count, then x, y and the kind's
/// byte per item. Needs 7 slots, within
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
