//! A level in native memory (`map.level`, docs/api.md#levels): its
//! methods, and `map.level`, `map.load`.
//!
//! The toolkit's methods take the table functions' arguments after `self`
//! and read them with the same readers: `Args::on_level` makes the level
//! the map those read at index 1, so every check, option and message is
//! the table function's, named `level:<fn>`. Where a table function
//! returns a table of rows for the whole map (`fov`, `distances`,
//! `flee`), the method returns a field (field.rs) of its window.

use std::ffi::{c_int, CStr};

use mlua::ffi::{self, lua_State};

use super::calling::call;
use super::cells::{self, after_cell, cell, field_position};
use super::native::{self, Fresh, Kind, Metatable};
use super::read::{Args, Key};
use super::search::{search_options, DISTANCES, FLEE};
use super::{exports, sight, walks, Reply};
use crate::grid::{byte_set, Pos, Rect, PLAYER};
use crate::input::{Arg, MAX_CELLS};
use crate::memory;
use crate::native::field::Field;
use crate::native::{save, NativeLevel};
use crate::toolkit::{fov, parse, step};

pub const METATABLE: Metatable = Metatable {
    kind: Kind::Level,
    methods: METHODS,
    tostring,
    metamethods: &[],
};

/// Runs `body` as the method `name` of the level at argument 1, which the
/// map readers then read as the map.
///
/// # Safety
/// As `call`'s.
unsafe fn method(
    state: *mut lua_State,
    name: &str,
    body: impl FnOnce(&Args, &NativeLevel) -> Result<Reply, String>,
) -> c_int {
    // SAFETY: the caller's promise.
    unsafe {
        call(state, name, |args| {
            let level = native::this::<NativeLevel>(args)?;
            args.on_level(level);
            body(args, level)
        })
    }
}

native::methods! {
    "level";
    get => |args, level| Ok(Reply::Char(level.get(one_cell(args, level, 0)?))),
    set => set_cell,
    occupy => |args, level| occupy_cell(args, level, true),
    vacate => |args, level| occupy_cell(args, level, false),
    occupied => |args, level| Ok(Reply::Boolean(level.occupied(one_cell(args, level, 0)?))),
    things => |args, level| {
        args.at_most(1)?;
        let things = level.things().iter().map(|&t| (t.char, level.thing_pos(t)));
        Ok(Reply::Things(things.collect()))
    },
    table => |args, level| {
        args.at_most(1)?;
        memory::check(memory::bound_generate(level.width() * level.height()))?;
        Ok(match (level.table(), level.blocked()) {
            (Some(table), _) => Reply::Level(Box::new(table)),
            (None, None) => Reply::Map(level.laid()),
            (None, Some(chars)) => Reply::Terrain(Box::new((level.laid(), chars.to_vec()))),
        })
    },
    render => |args, level| {
        args.at_most(1)?;
        memory::check(memory::bound_render((level.width(), level.height())))?;
        Ok(Reply::Text(level.laid().render()))
    },
    save => |args, level| {
        args.at_most(1)?;
        memory::check(save::bound(level))?;
        Ok(Reply::Text(save::save(level)))
    },
    field => |args, level| {
        args.at_most(1)?;
        new_memory((level.width(), level.height()))
    },
    fov => fov_of,
    visible => |args, _| super::answer_visible(args),
    distances => |args, _| {
        let s = walks::searched(args, DISTANCES, memory::bound_distances)?;
        let values = crate::toolkit::distances::distances_from(&s.grid, &s.sources, &s.walk, &s.limits);
        Ok(new_field(Field::values(s.size, s.window, values)))
    },
    flee => flee_of,
    path => |args, _| super::answer_path(args),
    step => |args, _| super::answer_step(args),
    steps => steps_of,
    can_step => can_step_of,
    explore => |args, _| super::answer_explore(args),
    sample => |args, _| super::answer_sample(args),
    reachable => reachable_of,
    autotile => |args, _| super::answer_autotile(args),
    light => |args, _| super::answer_light(args),
}

fn new_field(field: Field) -> Reply {
    Reply::NewField(Fresh::new(field))
}

/// A memory (a field of flags, none set) of a map of `size`.
pub(super) fn new_memory(size: (usize, usize)) -> Result<Reply, String> {
    memory::check(memory::bound_memory(size.0 * size.1))?;
    Ok(new_field(Field::memory(size)))
}

/// The cell at argument 2 (`x, y` or a position), with `extra` more
/// arguments after it at most.
fn one_cell(args: &Args, level: &NativeLevel, extra: c_int) -> Result<Pos, String> {
    args.at_most(after_cell(args, 2) - 1 + extra)?;
    cell(args, 2, ("x", "y"), "cell", (level.width(), level.height()))
}

/// `level:set(x, y, ch)`: the terrain's cell becomes `ch`.
fn set_cell(args: &Args, level: &NativeLevel) -> Result<Reply, String> {
    let p = one_cell(args, level, 1)?;
    let c = match args.get(after_cell(args, 2)) {
        Arg::Str(&[c]) => c,
        other => return Err(format!("ch must be a one-character string, got {other}")),
    };
    // SAFETY: `level` is not used again; nothing else refers to it.
    unsafe { native::this_mut::<NativeLevel>(args)? }.set(p, c);
    Ok(Reply::Nothing)
}

/// `level:occupy(x, y)` and `level:vacate(x, y)`.
fn occupy_cell(args: &Args, level: &NativeLevel, on: bool) -> Result<Reply, String> {
    let p = one_cell(args, level, 0)?;
    // SAFETY: `level` is not used again; nothing else refers to it.
    unsafe { native::this_mut::<NativeLevel>(args)? }.occupy(p, on);
    Ok(Reply::Nothing)
}

/// `level:fov(x, y [, radius [, {opaque =, into =}]])`: a field of the
/// cells seen; with `into` (a memory of the level), the count of cells
/// seen, marked in it.
fn fov_of(args: &Args, _: &NativeLevel) -> Result<Reply, String> {
    let asked = sight::fov(args)?;
    let seen = fov::visible(&asked.window, asked.origin, asked.radius, &asked.opaque);
    let (x, y) = asked.corner;
    let window = Rect::new(x, y, asked.window.width(), asked.window.height());
    let size = args.map_size(1)?;
    let options_at = after_cell(args, 2) + 1;
    let into = args.with_field(
        options_at,
        Key::Field(super::read::Field::Into),
        |a, top| match a.at(top) {
            Arg::Missing => Ok(None),
            // SAFETY: a field, not the level (`self`): nothing else refers to it.
            _ => unsafe { native::field_mut_at(a, top, size) }.map(Some),
        },
    )?;
    match into {
        Some(memory) => Ok(Reply::Integer(memory.mark(window, &seen) as i64)),
        None => Ok(new_field(Field::flags(size, window, seen))),
    }
}

/// `level:flee(sources [, options])` as `map.flee`, or `level:flee(d [,
/// options])` from a distance field `d` the game already has: its values
/// scaled and rescanned over its window, without searching again.
fn flee_of(args: &Args, level: &NativeLevel) -> Result<Reply, String> {
    let Some(d) = native::field_at(args, 2) else {
        let s = walks::searched(args, FLEE, memory::bound_flee)?;
        return Ok(new_field(Field::values(
            s.size,
            s.window,
            super::safety_map(&s)?,
        )));
    };
    args.at_most(3)?;
    let size = (level.width(), level.height());
    if d.is_flags() || d.size != size {
        return Err(format!(
            "d must be a field of values of the level's size, got a field of {}{}x{}",
            if d.is_flags() { "flags, " } else { "" },
            d.size.0,
            d.size.1
        ));
    }
    let search = search_options(args, 3, FLEE_FROM_FIELD)?;
    let w = d.window;
    memory::check(memory::bound_flee(
        (w.w, w.h),
        1,
        search.walk.cost.is_some(),
    ))?;
    let limits = search.limits(args, w, size)?;
    let grid = args.window(1, (w.x, w.y), (w.w, w.h), size.0)?;
    let values =
        crate::toolkit::flee::rescan(&grid, d.values_in(w), &search.walk, &limits, search.factor)
            .map_err(|e| {
            let at = w.outside(e.at);
            crate::toolkit::flee::Overflow { at, ..e }.to_string()
        })?;
    Ok(new_field(Field::values(size, w, values)))
}

/// `flee`'s options from a field: its search is done, so no `max`.
const FLEE_FROM_FIELD: &[&str] = &["avoid", "blocked", "cost", "diagonal", "factor", "known"];

/// `level:reachable()`: `map.reachable` of the level's terrain, with `@`
/// at `level.player` where the player was moved out with the things.
fn reachable_of(args: &Args, level: &NativeLevel) -> Result<Reply, String> {
    args.at_most(1)?;
    let walk = super::search::map_walk(args)?;
    let mut grid = cells::whole_map(args, 1, memory::bound_reach)?;
    if let Some(meta) = level.meta() {
        if !grid.cells().contains(&PLAYER) {
            grid.set(meta.player, PLAYER);
        }
    }
    Ok(Reply::Verdict(
        crate::toolkit::reach::check_blocked(&grid, &walk.blocked).map_err(|e| e.to_string()),
    ))
}

/// The options of `can_step` and `steps`.
const STEP_RULE: &[&str] = &["blocked", "diagonal"];
const STEP: &[&str] = &["avoid", "blocked", "diagonal", "known"];

/// `level:can_step(x, y, dx, dy [, options])`: whether the step rule lets
/// a walker step from the cell by `(dx, dy)` (each -1, 0 or 1, not both 0).
fn can_step_of(args: &Args, level: &NativeLevel) -> Result<Reply, String> {
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
        return Ok(Reply::Boolean(false));
    }
    let window = Rect::around(from, 1, size);
    let closed = search.limits(args, window, size)?.closed;
    let grid = args.window(1, (window.x, window.y), (window.w, window.h), size.0)?;
    let to = Pos {
        x: x as usize,
        y: y as usize,
    };
    let (a, b) = (window.inside(from), window.inside(to));
    Ok(Reply::Boolean(step::can_step(
        &grid,
        a,
        b,
        &search.walk,
        &closed,
    )))
}

/// `level:steps(d, movers [, options])`: `level:step` for each mover in
/// order, each moved in place; with `occupied`, a mover that moves
/// vacates its cell and occupies the new one, so the next sees it there.
/// Returns how many moved. Everything is read first; then the level is
/// changed as the movers move, its cells read in place.
fn steps_of(args: &Args, level: &NativeLevel) -> Result<Reply, String> {
    args.at_most(4)?;
    let size = (level.width(), level.height());
    let d = native::field_at(args, 2);
    if !args.is_table(2) && d.is_none() {
        let got = args.get(2).type_name();
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
    let movers = movers(args, size)?;
    let mut search = search_options(args, 4, STEP)?;
    let occupied = search.take_occupied();
    let known = search.known_field(args, size)?;
    let avoided = match search.avoids() {
        true => Some(search.avoided_bits(args, size)?),
        false => None,
    };
    args.off_level();
    // SAFETY: everything is read: the shared `level` is not used again,
    // and `off_level` ended the readers' reference.
    let level = unsafe { native::this_mut::<NativeLevel>(args)? };
    let mut moves = Vec::new();
    for (i, &from) in movers.iter().enumerate() {
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
        let rule = (&search.walk.blocked, search.walk.diagonal);
        let to = step::step_in(level.terrain(), from, rule, value, closed);
        if let Some(to) = to {
            if occupied {
                level.occupy(from, false);
                level.occupy(to, true);
            }
            moves.push((i + 1, to));
        }
    }
    Ok(Reply::Moved(moves))
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
    memory::check(memory::bound_sources(n))?;
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

/// `map.level(m [, options])`, `map.level(text [, options])` or
/// `map.level{generate's options, things =}`: a new level.
///
/// # Safety
/// See `EXPORTS` (mod.rs).
pub unsafe extern "C-unwind" fn new_level(state: *mut lua_State) -> c_int {
    // SAFETY: Lua called this function with a valid state.
    unsafe {
        call(state, "map.level", |args| {
            Ok(Reply::NewLevel(Fresh::new(level_of(args)?)))
        })
    }
}

fn level_of(args: &Args) -> Result<NativeLevel, String> {
    let is_map = args.is_table(1) && args.with_field(1, Key::Index(1), |a, top| a.is_table(top));
    match args.get(1) {
        Arg::Str(text) => {
            args.at_most(2)?;
            let things = things_option(args, 2)?;
            let size = parse::size(text)?;
            memory::check(memory::bound_level(size.0 * size.1))?;
            Ok(NativeLevel::with_things(
                parse::parse(text, size).grid,
                &things,
            ))
        }
        Arg::Other("table") if is_map => {
            args.at_most(2)?;
            let things = things_option(args, 2)?;
            let size = args.map_size(1)?;
            let blocked = args.map_blocked(1)?;
            memory::check(memory::bound_level(size.0 * size.1))?;
            let level = NativeLevel::with_things(args.grid(1, size)?, &things);
            Ok(level.with_blocked(blocked))
        }
        _ => {
            let (level, things) = exports::level_with_things(args)?;
            Ok(NativeLevel::from_level(level, &byte_set(things)))
        }
    }
}

/// The option `things` (a string of characters) in the table at `index`.
fn things_option(args: &Args, index: c_int) -> Result<crate::grid::ByteSet, String> {
    let mut things = byte_set(b"");
    super::options::read_options(args, index, &["things"], |name, value| {
        things = byte_set(super::options::string_option(name, value)?);
        Ok(())
    })?;
    Ok(things)
}

/// `map.load(s)`: the level or field `s` (from `save`) holds.
///
/// # Safety
/// See `EXPORTS` (mod.rs).
pub unsafe extern "C-unwind" fn load(state: *mut lua_State) -> c_int {
    // SAFETY: Lua called this function with a valid state.
    unsafe {
        call(state, "map.load", |args| {
            args.at_most(1)?;
            let bytes = match args.get(1) {
                Arg::Str(s) => s,
                other => return Err(format!("s must be a string, got {}", other.type_name())),
            };
            memory::check(memory::bound_load(bytes.len()))?;
            Ok(match save::load_saved(bytes)? {
                save::Saved::Level(level) => Reply::NewLevel(Fresh::new(level)),
                save::Saved::Field(field) => new_field(field),
            })
        })
    }
}

/// `level.width`, `level.player`, ...: a field of `generate`'s table; nil
/// for any other key, and for the metadata of a level not generated.
///
/// # Safety
/// As `call`'s, called by `__index` with the level and the key.
pub(super) unsafe fn property(state: *mut lua_State) -> c_int {
    // SAFETY: the caller's promise.
    unsafe {
        call(state, "level", |args| {
            let level = native::this::<NativeLevel>(args)?;
            let key = match args.get(2) {
                Arg::Str(key) => key,
                _ => return Ok(Reply::Nothing),
            };
            match key {
                b"width" => return Ok(Reply::Integer(level.width() as i64)),
                b"height" => return Ok(Reply::Integer(level.height() as i64)),
                b"blocked" => {
                    return Ok(match level.blocked() {
                        Some(chars) => Reply::Text(chars.to_vec()),
                        None => Reply::Nothing,
                    })
                }
                _ => {}
            }
            let known: Option<&'static CStr> = META.iter().copied().find(|k| k.to_bytes() == key);
            Ok(match (known, level.meta()) {
                (Some(key), Some(meta)) => Reply::LevelField(Box::new(meta.clone()), key),
                _ => Reply::Nothing,
            })
        })
    }
}

/// The fields of `generate`'s table besides its rows, width and height.
const META: &[&CStr] = &[
    c"seed",
    c"algorithm",
    c"rooms",
    c"doors",
    c"player",
    c"stairs",
    c"items",
    c"vaults",
    c"placed",
    c"up",
];

/// `tostring(level)`: `map.level: 80x50`.
///
/// # Safety
/// A Lua C function with the upvalues of `Upvalues::register`.
unsafe extern "C-unwind" fn tostring(state: *mut lua_State) -> c_int {
    // SAFETY: Lua called this function with a valid state.
    unsafe { native::tostring::<NativeLevel>(state, |l| format!(": {}x{}", l.width(), l.height())) }
}
