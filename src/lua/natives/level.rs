//! A level in native memory (`map.level`, docs/api.md#levels): its kind,
//! its own methods (its cells, occupancy, things, its table, saving, a
//! memory of it, and the steps of its movers) and its properties. The
//! toolkit's methods (`lvl:fov`, `lvl:path`, ...) are the method forms of
//! the exports, each in its file of `exports/`.

#![deny(unsafe_op_in_unsafe_fn)]

use std::ffi::{c_int, CStr};
use std::rc::Rc;

use mlua::ffi::{self, lua_State};

use crate::grid::{Pos, Rect};
use crate::input::{Arg, MAX_CELLS};
use crate::level::{self, Level};
use crate::lua::shared::cells::{after_cell, cell, field_position};
use crate::lua::shared::level_method::{body, on_level};
use crate::lua::shared::level_table::{push_level_field, META};
use crate::lua::shared::search::search_options;
use super::field::new_memory;
use crate::lua::stack::block::{methods, this_mut, what, Kind, Native, View, CHARS, KEYS};
use crate::lua::stack::push::{make_room, push_pos};
use crate::lua::stack::replies::{Char, MapRows, Terrain};
use crate::lua::stack::upvalues::NATIVES;
use crate::lua::stack::{Args, Key, Reply};
use crate::memory;
use crate::native::field::Field;
use crate::native::steps::{step_movers, try_move_all};
use crate::native::{save, NativeLevel, Occupant, Thing, ID_BYTES, MAX_ID};
use crate::toolkit::{distances, step};

static KIND: Kind = Kind::new("level", "level", "a", b"maplevel");

impl Native for NativeLevel {
    fn kind() -> &'static Kind {
        &KIND
    }
    const METHODS: &'static [crate::lua::stack::Method] = METHODS;
    const TAKES_METHOD_FORMS: bool = true;
    type Property = Property;
    const HAS_PROPERTIES: bool = true;
    fn property(&self, key: &[u8]) -> Option<Property> {
        property(self, key)
    }
    fn text(&self) -> String {
        format!(": {}x{}", self.width(), self.height())
    }
    fn bytes(&self) -> usize {
        let cells = self.width() * self.height();
        cells + cells / 8 + 8 * self.things().len() + ID_BYTES * self.ids().len()
    }
    fn view(&mut self) -> View {
        let (width, height) = (self.width() as u32, self.height() as u32);
        let (cells, bits, ids) = self.raw_parts();
        View {
            cells,
            bits,
            ids,
            kind: 0,
            width,
            height,
            window: [1, 1, width, height],
        }
    }
}

methods! {
    "level", on_level, body;
    get => |args, level| Ok(Char(level.get(one_cell(args, level, 0)?))),
    set => set_cell,
    occupy => occupy_cell,
    vacate => vacate_cell,
    occupied => |args, level| Ok(level.occupied(one_cell(args, level, 0)?)),
    occupant => |args, level| Ok(Who(level.occupant(one_cell(args, level, 0)?))),
    things => |args, level| {
        args.at_most(1)?;
        Ok(Things(level.shared_things(), level.width()))
    },
    table => |args, level| {
        args.at_most(1)?;
        memory::check(level::bound(level.width() * level.height()))?;
        Ok(match (level.table(), level.blocked()) {
            (Some(table), _) => Box::new(table) as Box<dyn Reply>,
            (None, None) => Box::new(MapRows(level.laid())),
            (None, Some(chars)) => Box::new(Terrain(level.laid(), chars.to_vec())),
        })
    },
    save => |args, level| {
        args.at_most(1)?;
        memory::check(save::bound(level))?;
        Ok(save::save(level))
    },
    field => |args, level| {
        args.at_most(1)?;
        new_memory((level.width(), level.height()))
    },
    steps => steps_of,
    steps_xy => steps_xy_of,
    can_step => can_step_of,
}

/// The cell at argument 2 (`x, y` or a position), with `extra` more
/// arguments after it at most.
fn one_cell(args: &Args, level: &NativeLevel, extra: c_int) -> Result<Pos, String> {
    args.at_most(after_cell(args, 2) - 1 + extra)?;
    cell(args, 2, ("x", "y"), "cell", (level.width(), level.height()))
}

/// `level:set(x, y, ch)`: the terrain's cell becomes `ch`.
fn set_cell(args: &Args, level: &NativeLevel) -> Result<(), String> {
    let p = one_cell(args, level, 1)?;
    let c = match args.get(after_cell(args, 2)) {
        Arg::Str(&[c]) => c,
        other => return Err(format!("ch must be a one-character string, got {other}")),
    };
    // SAFETY: `level` is not used again; nothing else refers to it.
    unsafe { this_mut::<NativeLevel>(args)? }.set(p, c);
    Ok(())
}

/// `level:occupy(x, y [, id])`: the cell becomes occupied, by `id` (an
/// integer from 1 to `MAX_ID`, in place of any id it had) or, without one,
/// keeping the id it has.
fn occupy_cell(args: &Args, level: &NativeLevel) -> Result<(), String> {
    let p = one_cell(args, level, 1)?;
    let id = match args.get(after_cell(args, 2)) {
        Arg::Missing => None,
        arg => Some(
            crate::input::int_in("id", arg, 1, MAX_ID)
                .map_err(|_| format!("id must be an integer from 1 to 2^53, got {arg}"))?,
        ),
    };
    // SAFETY: `level` is not used again; nothing else refers to it.
    let level = unsafe { this_mut::<NativeLevel>(args)? };
    match id {
        Some(id) => level.occupy_by(p, id),
        None => level.occupy(p, true),
    }
    Ok(())
}

/// `level:vacate(x, y)`: the cell is free, its occupant's id gone.
fn vacate_cell(args: &Args, level: &NativeLevel) -> Result<(), String> {
    let p = one_cell(args, level, 0)?;
    // SAFETY: `level` is not used again; nothing else refers to it.
    unsafe { this_mut::<NativeLevel>(args)? }.occupy(p, false);
    Ok(())
}

/// `level:occupant(x, y)`: the id of who stands there, `true` for an
/// occupant without one, nil for a free cell.
struct Who(Occupant);

impl Reply for Who {
    unsafe fn push_on(&self, l: *mut lua_State) -> c_int {
        // SAFETY: as `push_plain_on`'s.
        unsafe { self.push_plain_on(l) }.unwrap_or(0)
    }
    unsafe fn push_plain_on(&self, l: *mut lua_State) -> Option<c_int> {
        // SAFETY: one slot of the LUA_MINSTACK a C function has; nothing
        // allocated.
        unsafe {
            match self.0 {
                Occupant::Free => ffi::lua_pushnil(l),
                Occupant::Anonymous => ffi::lua_pushboolean(l, 1),
                Occupant::Id(id) => ffi::lua_pushinteger(l, id as ffi::lua_Integer),
            }
        }
        Some(1)
    }
}

/// The options of `can_step` and `steps`.
const STEP_RULE: &[&str] = &["blocked", "diagonal"];
const STEP: &[&str] = &["avoid", "blocked", "diagonal", "known"];

/// `level:can_step(x, y, dx, dy [, options])`: whether the step rule lets
/// a walker step from the cell by `(dx, dy)` (each -1, 0 or 1, not both 0).
fn can_step_of(args: &Args, level: &NativeLevel) -> Result<bool, String> {
    let size = (level.width(), level.height());
    let next = after_cell(args, 2);
    args.at_most(next + 2)?;
    let from = cell(args, 2, ("x", "y"), "from", size)?;
    let dx = crate::input::int_in("dx", args.get(next), -1, 1)?;
    let dy = crate::input::int_in("dy", args.get(next + 1), -1, 1)?;
    if dx == 0 && dy == 0 {
        return Err("dx and dy are both 0: a step must move".into());
    }
    let search = search_options(args, next + 2, STEP_RULE)?;
    let (x, y) = (from.x as i64 + dx, from.y as i64 + dy);
    if x < 1 || y < 1 || x > size.0 as i64 || y > size.1 as i64 {
        return Ok(false);
    }
    let window = Rect::around(from, 1, size);
    let closed = search.limits(args, window, size)?.closed;
    let grid = args.window(1, (window.x, window.y), (window.w, window.h), size.0)?;
    let to = Pos {
        x: x as usize,
        y: y as usize,
    };
    let (a, b) = (window.inside(from), window.inside(to));
    Ok(step::can_step(&grid, a, b, &search.walk, &closed))
}

/// `level:steps(d, movers [, options])`: `level:step` for each mover in
/// order, each moved in place; with `occupied`, a mover that moves
/// vacates its cell and occupies the new one, so the next sees it there.
/// Returns how many moved. Everything is read first; then the level is
/// changed as the movers move, its cells read in place.
fn steps_of(args: &Args, level: &NativeLevel) -> Result<Moved, String> {
    args.at_most(4)?;
    let size = (level.width(), level.height());
    let d = step_field(args, size)?;
    let movers = movers(args, size)?;
    Ok(Moved(step_all(args, size, d, &movers, 4)?))
}

/// `level:steps_xy(d, xs, ys [, options])`: `steps` with the movers'
/// cells in two arrays, mover `i` at `(xs[i], ys[i])`, written in place.
/// The same steps as `steps` on the same cells; on Lua 5.4 it reads and
/// writes two array entries a mover where `steps` reads and writes a
/// position's fields (docs/performance.md, N5).
fn steps_xy_of(args: &Args, level: &NativeLevel) -> Result<MovedXy, String> {
    args.at_most(5)?;
    let size = (level.width(), level.height());
    let d = step_field(args, size)?;
    let movers = flat_movers(args, size)?;
    Ok(MovedXy(step_all(args, size, d, &movers, 5)?))
}

/// The field or table of rows `d` at argument 2 that movers step down,
/// for a level of `size`.
fn step_field(args: &Args, size: (usize, usize)) -> Result<Option<&Field>, String> {
    let d = args.native_ref::<Field>(2);
    if !args.is_table(2) && d.is_none() {
        let got = what(args, 2);
        return Err(format!("d must be a table of rows or a field, got {got}"));
    }
    if let Some(f) = d.filter(|f| f.size != size || f.is_flags()) {
        return Err(match f.is_flags() {
            true => "d must be a field of values (distances, flee), got a field of flags".into(),
            false => format!(
                "d is a field of {}x{}, the level is {}x{}",
                f.size.0, f.size.1, size.0, size.1
            ),
        });
    }
    Ok(d)
}

/// Steps `movers` in order on the level (argument 1, of `size`) down `d`
/// (argument 2) by the options at argument `at`: each mover that moved, by its index from 1, and its new
/// cell. The options are read first; then the level changes as the
/// movers move, its cells read in place.
fn step_all(
    args: &Args,
    size: (usize, usize),
    d: Option<&Field>,
    movers: &[Pos],
    at: c_int,
) -> Result<Vec<(usize, Pos)>, String> {
    let mut search = search_options(args, at, STEP)?;
    let occupied = search.take_occupied();
    let known = search.known_field(args, size)?;
    let avoided = match search.avoids() {
        true => Some(search.avoided_bits(args, size)?),
        false => None,
    };
    args.off_level();
    // SAFETY: everything is read: the shared `level` is not used again,
    // and `off_level` ended the readers' reference.
    let level = unsafe { this_mut::<NativeLevel>(args)? };
    let mut moves = Vec::with_capacity(movers.len());
    let rule = (&search.walk.blocked, search.walk.diagonal);
    let mut cells = movers.to_vec();
    let moved = |i: usize, to| moves.push((i + 1, to));
    if let (Some(f), false, None) = (d, search.knows(), &avoided) {
        // The common case, in place: LuaJIT's `steps_batch` steps the same way.
        step_movers(level, f, &mut cells, rule, occupied, moved);
        return Ok(moves);
    }
    // Known or avoided cells closed: the same loop, each step by
    // `step::step_in` over the cells around the mover.
    try_move_all(level, &mut cells, occupied, moved, |level, from| -> Result<_, String> {
        let window = Rect::around(from, 1, size);
        let (corner, area) = ((window.x, window.y), (window.w, window.h));
        let rows = match d {
            Some(_) => Vec::new(),
            None => args.values(2, "d", corner, area)?,
        };
        let known_rows = match (search.knows(), known) {
            (true, None) => search.known_in(args, window)?,
            _ => Vec::new(),
        };
        let in_window = |p: Pos| {
            let q = window.inside(p);
            (q.y - 1) * window.w + q.x - 1
        };
        let value = |p: Pos| match d {
            Some(f) => f.value_at(p),
            None => rows[in_window(p)],
        };
        let closed = |p: Pos| {
            let i = (p.y - 1) * size.0 + p.x - 1;
            let avoid = avoided.as_ref().is_some_and(|bits| bits.get(i));
            let unknown = match known {
                Some(f) => !f.flags_at(p),
                None => !known_rows.is_empty() && !known_rows[in_window(p)],
            };
            avoid || unknown || occupied && level.occupied(p)
        };
        Ok(step::step_in(level.terrain(), from, rule, value, closed))
    })?;
    Ok(moves)
}

/// The movers at argument 3: an array of positions `{x=, y=}`, each read once.
fn movers(args: &Args, size: (usize, usize)) -> Result<Vec<Pos>, String> {
    const WHAT: &str = "movers must be an array of positions {x=, y=}";
    if !args.is_table(3) {
        return Err(format!("{WHAT}, got {}", args.get(3).type_name()));
    }
    let n = args.length(3);
    if n > MAX_CELLS {
        return Err(format!("movers has more than {MAX_CELLS} positions"));
    }
    memory::check(distances::bound_sources(n))?;
    (1..=n)
        .map(|i| {
            args.with_field(3, Key::Index(i), |a, top| {
                if !a.is_table(top) {
                    let got = a.at(top).type_name();
                    return Err(format!(
                        "movers[{i}] must be a position {{x=, y=}}, got {got}"
                    ));
                }
                field_position(a, top, &|| format!("movers[{i}]"), size.0, size.1)
            })
        })
        .collect()
}


/// The movers of `steps_xy`: arrays `xs` and `ys` (arguments 3 and 4, two
/// tables of one length), mover `i` at `(xs[i], ys[i])`, each read once,
/// x then y.
fn flat_movers(args: &Args, size: (usize, usize)) -> Result<Vec<Pos>, String> {
    for (at, name, what) in [(XS, "xs", "x"), (YS, "ys", "y")] {
        if !args.is_table(at) {
            let got = args.get(at).type_name();
            return Err(format!("{name} must be an array of {what} coordinates, got {got}"));
        }
    }
    // SAFETY: two stack slots compared, nothing allocated or raised.
    if args.with_raw(|l| unsafe { ffi::lua_rawequal(l, XS, YS) }) != 0 {
        return Err("xs and ys must be two tables, got the same".into());
    }
    let (n, ny) = (args.length(XS), args.length(YS));
    if n != ny {
        return Err(format!("xs has {n} entries, ys has {ny}"));
    }
    if n > MAX_CELLS {
        return Err(format!("xs has more than {MAX_CELLS} entries"));
    }
    memory::check(distances::bound_sources(n))?;
    let coordinate = |at: c_int, name: &str, i: usize, max: usize| match args.integer_at(at, i) {
        Some(c) if (1..=max as i64).contains(&c) => Ok(c as usize),
        // Read again for the message, as it reads a value of any type.
        _ => {
            let v = args.with_field(at, Key::Index(i), |a, top| a.at(top));
            crate::input::int_in(&format!("{name}[{i}]"), v, 1, max as i64).map(|c| c as usize)
        }
    };
    let mut movers = Vec::with_capacity(n);
    for i in 1..=n {
        let x = coordinate(XS, "xs", i, size.0)?;
        let y = coordinate(YS, "ys", i, size.1)?;
        movers.push(Pos { x, y });
    }
    Ok(movers)
}

/// The arguments of `level:steps_xy` that hold the movers' cells.
const XS: c_int = 3;
const YS: c_int = 4;

/// `level:steps_xy`' moves, as `Moved`'s: each moved mover's new cell
/// written into `xs` and `ys` (`XS`, `YS`), where its old one was read
/// (a raw set of a present key, which allocates nothing); then the count.
struct MovedXy(Vec<(usize, Pos)>);

impl Reply for MovedXy {
    unsafe fn push_on(&self, l: *mut lua_State) -> c_int {
        // SAFETY: as `push_plain_on`'s.
        unsafe { self.push_plain_on(l) }.unwrap_or(0)
    }

    unsafe fn push_plain_on(&self, l: *mut lua_State) -> Option<c_int> {
        // SAFETY: raw sets of present keys of two tables (checked, and
        // distinct) allocate nothing; one slot of the LUA_MINSTACK a C
        // function has beyond its five arguments.
        unsafe {
            for &(i, p) in &self.0 {
                for (t, v) in [(XS, p.x), (YS, p.y)] {
                    ffi::lua_pushinteger(l, v as ffi::lua_Integer);
                    ffi::lua_rawseti(l, t, i as ffi::lua_Integer);
                }
            }
            ffi::lua_pushinteger(l, self.0.len() as ffi::lua_Integer);
        }
        Some(1)
    }
}

/// The argument of `level:steps` that holds the movers.
const MOVERS: c_int = 3;

/// `level:steps`' moves: each mover's index in the array at argument 3
/// (`MOVERS`) and its new cell, written into the movers in place; then the
/// count moved. It allocates nothing (each mover's `x` and `y` are present,
/// read as the mover was, and no Lua code ran since), so it is pushed in
/// the call's own frame and cannot fail once the level has moved them.
struct Moved(Vec<(usize, Pos)>);

impl Reply for Moved {
    unsafe fn push_on(&self, l: *mut lua_State) -> c_int {
        // SAFETY: as `push_plain_on`'s.
        unsafe { self.push_plain_on(l) }.unwrap_or(0)
    }

    unsafe fn push_plain_on(&self, l: *mut lua_State) -> Option<c_int> {
        // SAFETY: a raw set of a present key allocates nothing; the keys
        // come from the natives' table (made when the module opened); four
        // slots of the LUA_MINSTACK a C function has beyond its four
        // arguments.
        unsafe {
            ffi::lua_rawgeti(l, NATIVES, KEYS);
            let keys = ffi::lua_gettop(l);
            for &(i, p) in &self.0 {
                ffi::lua_rawgeti(l, MOVERS, i as ffi::lua_Integer);
                if ffi::lua_type(l, -1) == ffi::LUA_TTABLE {
                    for (key, v) in [(1, p.x), (2, p.y)] {
                        ffi::lua_rawgeti(l, keys, key);
                        ffi::lua_pushinteger(l, v as ffi::lua_Integer);
                        ffi::lua_rawset(l, -3);
                    }
                }
                ffi::lua_settop(l, -2);
            }
            ffi::lua_settop(l, keys - 1);
            ffi::lua_pushinteger(l, self.0.len() as ffi::lua_Integer);
        }
        Some(1)
    }
}

/// `level:things()`: an array of `{char=, x=, y=}`, each character one of
/// the natives' one-byte strings, made from the level's things (shared, not
/// copied: nothing proportional is allocated in Rust) on a map `.1` wide.
struct Things(Rc<[Thing]>, usize);

impl Reply for Things {
    unsafe fn push_on(&self, l: *mut lua_State) -> c_int {
        let width = self.1;
        let things = self.0.iter().map(|t| {
            let i = t.index as usize;
            (t.char, Pos { x: i % width + 1, y: i / width + 1 })
        });
        // SAFETY: room made for the array, the strings' table, a thing and
        // a value.
        unsafe {
            make_room(l, 5);
            ffi::lua_rawgeti(l, NATIVES, CHARS);
            let chars = ffi::lua_gettop(l);
            ffi::lua_createtable(l, self.0.len() as c_int, 0);
            for (i, (c, p)) in things.enumerate() {
                push_pos(l, p, 1);
                ffi::lua_rawgeti(l, chars, ffi::lua_Integer::from(c) + 1);
                ffi::lua_setfield(l, -2, c"char".as_ptr());
                ffi::lua_rawseti(l, -2, i as ffi::lua_Integer + 1);
            }
            ffi::lua_remove(l, chars);
            1
        }
    }
}

/// A property of a level: `width`, `height`, `blocked`, or a field of
/// `generate`'s table (`seed`, `rooms`, ...) from its metadata, made alone.
pub enum Property {
    Integer(i64),
    Text(Vec<u8>),
    /// The level's metadata (shared, not copied) and the field's name.
    Meta(Rc<Level>, &'static CStr),
}

/// `level.width`, `level.player`, ...: a field of `generate`'s table; nil
/// for any other key, and for the metadata of a level not generated.
fn property(level: &NativeLevel, key: &[u8]) -> Option<Property> {
    match key {
        b"width" => return Some(Property::Integer(level.width() as i64)),
        b"height" => return Some(Property::Integer(level.height() as i64)),
        b"blocked" => return level.blocked().map(|chars| Property::Text(chars.to_vec())),
        _ => {}
    }
    let key = META.iter().copied().find(|k| k.to_bytes() == key)?;
    Some(Property::Meta(level.shared_meta()?, key))
}

impl Reply for Property {
    unsafe fn push_on(&self, l: *mut lua_State) -> c_int {
        // SAFETY: the pushers' contract.
        unsafe {
            match self {
                Property::Integer(n) => n.push_on(l),
                Property::Text(text) => text.push_on(l),
                Property::Meta(meta, key) => push_level_field(l, meta, key),
            }
        }
    }
    unsafe fn push_plain_on(&self, l: *mut lua_State) -> Option<c_int> {
        match self {
            // SAFETY: as the caller's.
            Property::Integer(n) => unsafe { n.push_plain_on(l) },
            _ => None,
        }
    }
}
