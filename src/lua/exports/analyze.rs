//! `map.analyze(m [, options])`: a map's regions, chokepoints, dead ends,
//! the walk from `@` to `>` and the farthest cell, and the room graph of
//! `m.rooms`' links; `lvl:analyze([options])` on the level's terrain and
//! rooms. Options: `blocked`, `diagonal` (and on a level `occupied`).

#![deny(unsafe_op_in_unsafe_fn)]

use std::ffi::{c_int, CStr};

use mlua::ffi::{self, lua_State};

use crate::grid::{Pos, Rect, PLAYER};
use crate::input::MAX_CELLS;
use crate::lua::shared::level_method::level_method;
use crate::lua::shared::search::search_options;
use crate::lua::stack::call::function;
use crate::lua::stack::push::{make_room, push_pos, set_int};
use crate::lua::stack::{Args, Export, Field, Key, Reply};
use crate::memory;
use crate::toolkit::analyze::{self, Analysis};

pub const EXPORT: Export = Export {
    name: "analyze",
    function: analyze,
    method: Some(level_analyze),
    #[cfg(feature = "luajit")]
    helpers: &[],
};

const OPTIONS: &[&str] = &["blocked", "diagonal"];

function!(analyze, "map.analyze", |args: &Args| {
    args.at_most(2)?;
    let search = search_options(args, 2, OPTIONS)?;
    let size = args.map_size(1)?;
    let (rooms, links) = room_sizes(args)?;
    memory::check(analyze::bound(size, rooms, links))?;
    let links = room_links(args, rooms)?;
    let grid = args.grid(1, size)?;
    Ok(Answer(analyze::analyze(&grid, &search.walk, &[], links.as_deref())))
});

// `map.analyze` of the level's terrain (`@` at `level.player` where the
// player was moved out with the things) and its rooms' links.
level_method!(level_analyze, "level:analyze", |args, level| {
    args.at_most(2)?;
    let search = search_options(args, 2, OPTIONS)?;
    let size = args.map_size(1)?;
    let links = level
        .meta()
        .map(|m| &m.exits.links)
        .filter(|l| !l.is_empty());
    let listed = links.map_or(0, |l| l.iter().map(Vec::len).sum());
    memory::check(analyze::bound(size, links.map_or(0, Vec::len), listed))?;
    let mut grid = args.grid(1, size)?;
    if let Some(meta) = level.meta() {
        if !grid.cells().contains(&PLAYER) {
            grid.set(meta.player, PLAYER);
        }
    }
    let closed = search.limits(args, Rect::whole(size), size)?.closed;
    Ok(Answer(analyze::analyze(&grid, &search.walk, &closed, links.map(|l| &l[..]))))
});

/// How many rooms `m.rooms` lists (0 without it) and how many links in
/// all, read before anything proportional is allocated.
fn room_sizes(args: &Args) -> Result<(usize, usize), String> {
    args.with_field(1, Key::Field(Field::Rooms), |a, rooms| {
        if !a.is_table(rooms) {
            return match a.at(rooms).type_name() {
                "nil" => Ok((0, 0)),
                other => Err(format!("m.rooms must be a table of rooms, got {other}")),
            };
        }
        let n = a.length(rooms);
        if n > MAX_CELLS {
            return Err(format!("m.rooms has more than {MAX_CELLS} rooms"));
        }
        let mut listed = 0usize;
        for i in 1..=n {
            listed += a.with_field(rooms, Key::Index(i), |a, room| {
                if !a.is_table(room) {
                    let got = a.at(room).type_name();
                    return Err(format!("m.rooms[{i}] must be a room {{x=, y=, w=, h=, links=}}, got {got}"));
                }
                Ok(a.with_field(room, Key::Field(Field::Links), |a, t| a.length(t)))
            })?;
            if listed > MAX_CELLS {
                return Err(format!("m.rooms has more than {MAX_CELLS} links"));
            }
        }
        Ok((n, listed))
    })
}

/// The links of `m.rooms` (`rooms` of them), 0-based, made symmetric,
/// sorted and without repeats or a room's link to itself; `None` without
/// rooms.
fn room_links(args: &Args, rooms: usize) -> Result<Option<Vec<Vec<u32>>>, String> {
    if rooms == 0 {
        return Ok(None);
    }
    let mut links = vec![Vec::new(); rooms];
    args.with_field(1, Key::Field(Field::Rooms), |a, t| {
        (1..=rooms).try_for_each(|i| {
            a.with_field(t, Key::Index(i), |a, room| {
                a.with_field(room, Key::Field(Field::Links), |a, list| {
                    read_links(a, list, i, &mut links)
                })
            })
        })
    })?;
    for list in &mut links {
        list.sort_unstable();
        list.dedup();
    }
    Ok(Some(links))
}

/// Room `i`'s links at `list` (nil: none) into `links`, both ways.
fn read_links(a: &Args, list: c_int, i: usize, links: &mut [Vec<u32>]) -> Result<(), String> {
    let n = links.len();
    if !a.is_table(list) && a.at(list).type_name() != "nil" {
        let got = a.at(list).type_name();
        return Err(format!("m.rooms[{i}].links must be an array of room indices, got {got}"));
    }
    (1..=a.length(list)).try_for_each(|k| {
        let v = a.with_field(list, Key::Index(k), |a, at| a.at(at));
        match v.integer() {
            Some(j) if (1..=n as i64).contains(&j) => {
                let j = j as usize;
                if j != i {
                    links[i - 1].push(j as u32 - 1);
                    links[j - 1].push(i as u32 - 1);
                }
                Ok(())
            }
            _ => Err(format!(
                "m.rooms[{i}].links[{k}] must be a room index from 1 to {n}, got {v}"
            )),
        }
    })
}

/// The analysis as a table (docs/api.md, `map.analyze`).
struct Answer(Analysis);

/// Pushes `value` (an integer, or `false` for none) as field `key` of the
/// table at `t`.
///
/// # Safety
/// The pushers' contract, one slot free.
unsafe fn set_or_false(l: *mut lua_State, t: c_int, key: &CStr, value: Option<usize>) {
    // SAFETY: one value pushed and set at once.
    unsafe {
        match value {
            Some(v) => set_int(l, t, key, v as i64),
            None => {
                ffi::lua_pushboolean(l, 0);
                ffi::lua_setfield(l, t, key.as_ptr());
            }
        }
    }
}

/// Pushes an array of `items`, each pushed by `each`, and sets it as field
/// `key` of the table at `t`.
///
/// # Safety
/// The pushers' contract, with the slots `each` needs and one more free.
unsafe fn set_array<T>(
    l: *mut lua_State,
    t: c_int,
    key: &CStr,
    items: &[T],
    each: impl Fn(&T),
) {
    // SAFETY: each item leaves one value, set at once.
    unsafe {
        ffi::lua_createtable(l, items.len() as c_int, 0);
        for (i, item) in items.iter().enumerate() {
            each(item);
            ffi::lua_rawseti(l, -2, i as ffi::lua_Integer + 1);
        }
        ffi::lua_setfield(l, t, key.as_ptr());
    }
}

/// Pushes `{x=, y=, <key>=value}`.
///
/// # Safety
/// The pushers' contract, three slots free.
unsafe fn push_cell_with(l: *mut lua_State, p: Pos, key: &CStr, value: usize) {
    // SAFETY: `push_pos` takes two slots, the value one more.
    unsafe {
        push_pos(l, p, 1);
        set_int(l, ffi::lua_gettop(l), key, value as i64);
    }
}

impl Reply for Answer {
    unsafe fn push_on(&self, l: *mut lua_State) -> c_int {
        let a = &self.0;
        // SAFETY: `make_room` made the slots: the result, an array, an
        // entry and its value, and the room graph's nesting.
        unsafe {
            make_room(l, 8);
            ffi::lua_createtable(l, 0, 7);
            let t = ffi::lua_gettop(l);
            set_array(l, t, c"regions", &a.regions, |r| {
                push_cell_with(l, r.first, c"size", r.size)
            });
            set_or_false(l, t, c"region", a.player_region.map(|r| r + 1));
            set_array(l, t, c"chokepoints", &a.chokepoints, |c| {
                push_cell_with(l, c.pos, c"cut", c.cut)
            });
            set_array(l, t, c"dead_ends", &a.dead_ends, |&p| push_pos(l, p, 0));
            set_or_false(l, t, c"stairs", a.stairs.map(|d| d as usize));
            match a.farthest {
                Some((p, d)) => push_cell_with(l, p, c"distance", d as usize),
                None => ffi::lua_pushboolean(l, 0),
            }
            ffi::lua_setfield(l, t, c"farthest".as_ptr());
            match &a.rooms {
                Some(g) => {
                    ffi::lua_createtable(l, 0, 3);
                    let r = ffi::lua_gettop(l);
                    set_array(l, r, c"degrees", &g.degrees, |&d| {
                        ffi::lua_pushinteger(l, d as ffi::lua_Integer)
                    });
                    set_array(l, r, c"bridges", &g.bridges, |&(x, y)| {
                        ffi::lua_createtable(l, 2, 0);
                        ffi::lua_pushinteger(l, x as ffi::lua_Integer + 1);
                        ffi::lua_rawseti(l, -2, 1);
                        ffi::lua_pushinteger(l, y as ffi::lua_Integer + 1);
                        ffi::lua_rawseti(l, -2, 2);
                    });
                    set_int(l, r, c"loops", g.loops as i64);
                }
                None => ffi::lua_pushboolean(l, 0),
            }
            ffi::lua_setfield(l, t, c"rooms".as_ptr());
            1
        }
    }
}
