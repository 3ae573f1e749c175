//! What each export takes: its arguments read and checked, with their
//! messages. Safe code over `read::Args`; the work itself is the core's.

use std::ffi::c_int;

use super::read::{Args, Field, Key};
use crate::args::{int_in, quoted, size, Arg, MAX_CELLS};
use crate::generators::Generator;
use crate::grid::{byte_set, ByteSet, Grid, Pos, Rect};
use crate::level::{self, Level, Params};
use crate::memory;
use crate::toolkit::autotile::{Autotile, Mode};
use crate::toolkit::board::{Limits, Source, Walk, MAX_COST, MAX_VALUE, MIN_COST};
use crate::toolkit::flee::{DEFAULT_FACTOR, FACTORS};
use crate::toolkit::parse::{self, Parsed};
use crate::toolkit::sample::{Filter, Near};

/// `new_map(width, height)`.
pub fn new_map(args: &Args) -> Result<(usize, usize), String> {
    args.at_most(2)?;
    size(args.get(1), args.get(2), 1, 1)
}

/// A function's one argument, a whole map, copied into a grid once
/// `bound((width, height))` bytes were found free.
pub fn whole_map(args: &Args, bound: fn((usize, usize)) -> usize) -> Result<Grid, String> {
    args.at_most(1)?;
    let size = args.map_size(1)?;
    memory::check(bound(size))?;
    args.grid(1, size)
}

/// The level asked for by `(width, height [, seed])` or `{options}`.
pub fn level(args: &Args) -> Result<Level, String> {
    level::generate(&params(args)?)
}

/// Its map alone (no rooms' exits worked out), for `generate_text`.
pub fn level_grid(args: &Args) -> Result<Grid, String> {
    level::generate_grid(&params(args)?)
}

fn params(args: &Args) -> Result<Params<'_>, String> {
    if args.is_table(1) {
        args.at_most(1)?;
        let mut params = args.options(1, Params::set)?;
        if params.unknown.is_none() {
            super::design::read(args, 1, &mut params.design)?;
        }
        Ok(params)
    } else {
        args.at_most(3)?;
        Ok(Params::new(args.get(1), args.get(2), args.get(3)))
    }
}

/// `describe(name)`: the generator called so.
pub fn generator(args: &Args) -> Result<&'static Generator, String> {
    args.at_most(1)?;
    level::chosen(args.get(1))
}

/// `fov`'s default: walls and closed doors block sight.
const OPAQUE: &[u8] = b"#+";

/// What `map.fov` was asked: the window of the map it reads (the whole map
/// without a radius) and the origin within it.
pub struct Fov {
    pub height: usize,
    /// The window's top-left cell on the map.
    pub corner: (usize, usize),
    pub window: Grid,
    pub origin: Pos,
    pub radius: Option<usize>,
    pub opaque: ByteSet,
}

/// `fov(m, x, y [, radius [, options]])`. With a radius, only the rows and
/// cells within it are read (and checked): the work grows with the radius,
/// not with the map.
pub fn fov(args: &Args) -> Result<Fov, String> {
    let next = after_cell(args, 2);
    args.at_most(next + 1)?;
    let (width, height) = args.map_size(1)?;
    let origin = cell(args, 2, ("x", "y"), "origin", (width, height))?;
    let radius = radius(args.get(next), width + height)?;
    let opaque = opaque(args, next + 1)?;
    let reach = radius.unwrap_or(usize::MAX);
    let span = |c: usize, size: usize| {
        (
            c.saturating_sub(reach).max(1),
            c.saturating_add(reach).min(size),
        )
    };
    let ((x0, x1), (y0, y1)) = (span(origin.x, width), span(origin.y, height));
    memory::check(memory::bound_fov((x1 - x0 + 1) * (y1 - y0 + 1)))?;
    let window = args.window(1, (x0, y0), (x1 - x0 + 1, y1 - y0 + 1), width)?;
    Ok(Fov {
        height,
        corner: (x0, y0),
        window,
        origin: Pos {
            x: origin.x - x0 + 1,
            y: origin.y - y0 + 1,
        },
        radius,
        opaque,
    })
}

/// `fov`'s radius: none, or an integer >= 0, cut to `far` (past the map's
/// far corner a radius is no limit, and r * (r + 1) stays small).
pub(super) fn radius(arg: Arg, far: usize) -> Result<Option<usize>, String> {
    match arg {
        Arg::Missing => Ok(None),
        arg => Ok(Some(
            int_in("radius", arg, 0, i64::MAX)?.min(far as i64) as usize
        )),
    }
}

/// `fov`'s options: the characters that block sight.
pub(super) fn opaque(args: &Args, index: c_int) -> Result<ByteSet, String> {
    let mut opaque = byte_set(OPAQUE);
    read_options(args, index, &["opaque"], |name, value| {
        opaque = byte_set(string_option(name, value)?);
        Ok(())
    })?;
    Ok(opaque)
}

/// What `distances` and `flee` were asked, read: the window of the map
/// that a search within `max` can reach (all of it without `max`), its
/// cells, and the sources and limits as cells of it.
pub struct Searched {
    pub size: (usize, usize),
    pub window: Rect,
    pub grid: Grid,
    pub sources: Vec<Source>,
    pub walk: Walk,
    pub limits: Limits,
    pub factor: f64,
}

/// `distances(m, sources [, options])`, or `flee`'s, whose options are
/// `accepted` (`DISTANCES` or `FLEE`), checked against `bound`.
pub fn searched(
    args: &Args,
    accepted: &[&'static str],
    bound: SearchBound,
) -> Result<Searched, String> {
    args.at_most(3)?;
    let size = args.map_size(1)?;
    let asked = search_args(args, size, (2, 3), accepted, bound)?;
    let limits = asked.search.limits(args, asked.window, size)?;
    let w = asked.window;
    let grid = args.window(1, (w.x, w.y), (w.w, w.h), size.0)?;
    Ok(Searched {
        size,
        window: w,
        grid,
        sources: asked.sources,
        walk: asked.search.walk,
        limits,
        factor: asked.search.factor,
    })
}

/// `path(m, x1, y1, x2, y2 [, options])`, each cell `x, y` or a position.
pub fn path(args: &Args) -> Result<Route, String> {
    let second = after_cell(args, 2);
    let options_at = after_cell(args, second);
    args.at_most(options_at)?;
    let size = args.map_size(1)?;
    let from = cell(args, 2, ("x1", "y1"), "start", size)?;
    let to = cell(args, second, ("x2", "y2"), "goal", size)?;
    route(args, options_at, size, (from, to), |w| {
        args.window(1, (w.x, w.y), (w.w, w.h), size.0)
    })
}

/// The route from `from` to `to` on a map of `size` with the options at
/// `options_at`: its window (`route_window`), the limits read over it, and
/// its cells from `cells_of`, called once the memory bound is checked.
pub(super) fn route(
    args: &Args,
    options_at: c_int,
    size: (usize, usize),
    (from, to): (Pos, Pos),
    cells_of: impl FnOnce(Rect) -> Result<Grid, String>,
) -> Result<Route, String> {
    let (search, window, near) = route_window(args, options_at, size, (from, to))?;
    let limits = search.limits(args, window, size)?;
    Ok(Route {
        grid: cells_of(window)?,
        window,
        from,
        to,
        near,
        walk: search.walk,
        limits,
    })
}

/// The options at `options_at` of a path from `from` to `to` on a map of
/// `size`, the window its search from the goal can reach (within `max` of
/// the goal, or the whole map), and whether the start is in it (a start
/// farther is too far, and only the goal is read, to tell a blocked goal),
/// with the window's memory bound checked.
pub(super) fn route_window(
    args: &Args,
    options_at: c_int,
    size: (usize, usize),
    (from, to): (Pos, Pos),
) -> Result<(Search, Rect, bool), String> {
    let search = search_options(args, options_at, DISTANCES)?;
    let mut window = search.max.map_or(Rect::whole(size), |max| {
        Rect::around(to, max.min(MAX_VALUE) as usize, size)
    });
    let near = window.contains(from);
    if !near {
        window = Rect::around(to, 0, size);
    }
    memory::check(memory::bound_path(
        (window.w, window.h),
        search.walk.cost.is_some(),
    ))?;
    Ok((search, window, near))
}

/// What `path` was asked, read: the window its search from the goal can
/// reach, its cells, and the limits as cells of it; `from` and `to` are
/// cells of the map, and `near` says whether `from` is in the window.
pub struct Route {
    pub grid: Grid,
    pub window: Rect,
    pub from: Pos,
    pub to: Pos,
    pub near: bool,
    pub walk: Walk,
    pub limits: Limits,
}

/// `autotile(m [, options])`.
pub fn autotile(args: &Args) -> Result<(Grid, Autotile), String> {
    args.at_most(2)?;
    let size = args.map_size(1)?;
    let tile = autotile_options(args, 2)?;
    memory::check(memory::bound_autotile(size))?;
    Ok((args.grid(1, size)?, tile))
}

/// `autotile`'s options: the class's characters, the mode, the edge rule,
/// and ranks instead of masks (blob only).
pub(super) fn autotile_options(args: &Args, index: c_int) -> Result<Autotile, String> {
    let mut tile = Autotile {
        class: byte_set(b"#"),
        mode: Mode::Blob,
        edge: true,
        index: false,
    };
    read_options(
        args,
        index,
        &["chars", "edge", "index", "mode"],
        |name, value| {
            match (name, value) {
                ("chars", Arg::Str(chars)) if !chars.is_empty() => tile.class = byte_set(chars),
                ("chars", other) => {
                    return Err(format!(
                        "chars must be a non-empty string of characters, got {other}"
                    ))
                }
                ("mode", Arg::Str(b"blob")) => tile.mode = Mode::Blob,
                ("mode", Arg::Str(b"8")) => tile.mode = Mode::Eight,
                ("mode", Arg::Str(b"4")) => tile.mode = Mode::Four,
                ("mode", other) => {
                    return Err(format!(r#"mode must be "blob", "8" or "4", got {other}"#))
                }
                (_, Arg::Bool(b)) if name == "edge" => tile.edge = b,
                (_, Arg::Bool(b)) => tile.index = b,
                (_, other) => return Err(format!("{name} must be a boolean, got {other}")),
            }
            Ok(())
        },
    )?;
    if tile.index && tile.mode != Mode::Blob {
        return Err(r#"index applies only to mode "blob""#.into());
    }
    Ok(tile)
}

/// A cell of a `width` x `height` map from its coordinates.
pub(super) fn position(
    x: Arg,
    y: Arg,
    (x_name, y_name): (&str, &str),
    width: usize,
    height: usize,
) -> Result<Pos, String> {
    let x = int_in(x_name, x, 1, width as i64)? as usize;
    let y = int_in(y_name, y, 1, height as i64)? as usize;
    Ok(Pos { x, y })
}

/// What a `sources` argument holds: one position, or an array of them.
#[derive(Clone, Copy)]
pub(super) enum Sources {
    One,
    Array(usize),
}

impl Sources {
    pub(super) fn count(self) -> usize {
        match self {
            Sources::One => 1,
            Sources::Array(n) => n,
        }
    }
}

/// The shape of the `sources` at `index`: one position `{x=, y=}` or a
/// non-empty array of them, counted before any is read.
fn sources_shape(args: &Args, index: c_int) -> Result<Sources, String> {
    const WHAT: &str = "sources must be a position {x=, y=} or a non-empty array of them";
    if !args.is_table(index) {
        return Err(format!("{WHAT}, got {}", type_of(args.get(index))));
    }
    let has = |field| args.with_field(index, Key::Field(field), |a, i| a.at(i)) != Arg::Missing;
    if has(Field::X) || has(Field::Y) {
        return Ok(Sources::One);
    }
    let len = args.raw_len(index);
    if let Some(i) = args.hole(index, len) {
        return Err(format!(
            "sources[{i}] must be a position {{x=, y=}}, got nil"
        ));
    }
    match len {
        0 => Err(format!("{WHAT}, got an empty table")),
        n if n > MAX_CELLS => Err(format!("sources has more than {MAX_CELLS} positions")),
        n => Ok(Sources::Array(n)),
    }
}

/// The positions of the `sources` at `index`, of the shape `shape`, each
/// with its start value (its field `value`, 0 when absent).
fn sources(
    args: &Args,
    index: c_int,
    shape: Sources,
    width: usize,
    height: usize,
) -> Result<Vec<Source>, String> {
    let mut out = Vec::with_capacity(shape.count());
    each_position(
        args,
        index,
        shape,
        "sources",
        (width, height),
        |a, at, pos, name| {
            let value = match a.with_field(at, Key::Field(Field::Value), |a, i| a.at(i)) {
                Arg::Missing => 0,
                v => match v.integer() {
                    Some(i) if i.unsigned_abs() <= MAX_VALUE as u64 => i,
                    _ => {
                        return Err(format!(
                            "{}.value must be an integer with |value| <= 2^53, got {v}",
                            name()
                        ))
                    }
                },
            };
            out.push(Source { pos, value });
            Ok(())
        },
    )?;
    Ok(out)
}

/// Each position of the `shape` at `index` (called `name` or `name[i]`
/// in messages) on a `width` x `height` map, fed to `each` with the index
/// of its table and its name.
fn each_position(
    args: &Args,
    index: c_int,
    shape: Sources,
    name: &str,
    (width, height): (usize, usize),
    mut each: impl FnMut(&Args, c_int, Pos, &dyn Fn() -> String) -> Result<(), String>,
) -> Result<(), String> {
    let count = match shape {
        Sources::One => {
            let named = || name.to_string();
            let pos = field_position(args, index, &named, width, height)?;
            return each(args, index, pos, &named);
        }
        Sources::Array(n) => n,
    };
    (1..=count).try_for_each(|i| {
        args.with_field(index, Key::Index(i), |a, top| {
            let named = || format!("{name}[{i}]");
            if !a.is_table(top) {
                return Err(format!(
                    "{} must be a position {{x=, y=}}, got {}",
                    named(),
                    type_of(a.at(top))
                ));
            }
            let pos = field_position(a, top, &named, width, height)?;
            each(a, top, pos, &named)
        })
    })
}

/// The position in the fields `x` and `y` of the table at `index`, called
/// `name()` in messages.
fn field_position(
    args: &Args,
    index: c_int,
    name: &dyn Fn() -> String,
    width: usize,
    height: usize,
) -> Result<Pos, String> {
    let coordinate = |field: Field, max: usize| {
        let value = args.with_field(index, Key::Field(field), |a, i| a.at(i));
        match value.integer() {
            Some(v) if (1..=max as i64).contains(&v) => Ok(v as usize),
            _ => int_in(
                &format!("{}.{}", name(), field.name()),
                value,
                1,
                max as i64,
            )
            .map(|v| v as usize),
        }
    };
    let x = coordinate(Field::X, width)?;
    let y = coordinate(Field::Y, height)?;
    Ok(Pos { x, y })
}

/// The options of `distances` and `path`, and of `flee` (with `factor`).
pub const DISTANCES: &[&str] = &["avoid", "blocked", "cost", "diagonal", "known", "max"];
pub const FLEE: &[&str] = &[
    "avoid", "blocked", "cost", "diagonal", "factor", "known", "max",
];

/// What the options of a function that walks say, read before anything
/// proportional to the map: the walk, `max`, `factor`, and the shapes of
/// `avoid` and `known`, whose cells `limits` reads once the memory bound
/// is checked.
pub(super) struct Search {
    pub walk: Walk,
    pub max: Option<i64>,
    pub factor: f64,
    /// The options table, and whether `avoid` (of what shape) and `known`
    /// were given.
    index: c_int,
    avoid: Option<Sources>,
    known: bool,
}

/// The options at `index` of a function that walks: those of `accepted`
/// (sorted) among avoid, blocked, cost, diagonal, factor, known and max.
pub(super) fn search_options(
    args: &Args,
    index: c_int,
    accepted: &[&'static str],
) -> Result<Search, String> {
    let mut search = Search {
        walk: Walk::new(),
        max: None,
        factor: DEFAULT_FACTOR,
        index,
        avoid: None,
        known: false,
    };
    let mut cost_at = None;
    read_options(args, index, accepted, |name, value| {
        match name {
            "blocked" => search.walk.blocked = byte_set(string_option(name, value)?),
            "diagonal" => match value {
                Arg::Bool(b) => search.walk.diagonal = b,
                other => return Err(format!("diagonal must be a boolean, got {other}")),
            },
            "max" => search.max = Some(int_in(name, value, 0, i64::MAX)?),
            "factor" => search.factor = factor(value)?,
            "avoid" => {
                let shape = args.with_field(index, Key::Field(Field::Avoid), avoid_shape)?;
                search.avoid = Some(shape);
            }
            "known" if matches!(value, Arg::Other("table")) => search.known = true,
            "known" => {
                return Err(format!(
                    "known must be a table of rows, got {}",
                    type_of(value)
                ))
            }
            _ => cost_at = Some(value),
        }
        Ok(())
    })?;
    if let Some(value) = cost_at {
        if !matches!(value, Arg::Other("table")) {
            return Err(format!(
                "cost must be a table from characters to integers, got {}",
                type_of(value)
            ));
        }
        let costs = args.with_field(index, Key::Field(Field::Cost), cost_table)?;
        search.walk.cost = Some(Box::new(costs));
    }
    Ok(search)
}

impl Search {
    /// The limits of a search over `window` of a map of `size`: the cells
    /// of the window that an `avoid` entry names or that `known` does not
    /// mark, row-major (empty when neither was given), and `max`. Every
    /// `avoid` entry is checked against the whole map; `known` is read
    /// only over the window.
    pub(super) fn limits(
        &self,
        args: &Args,
        window: Rect,
        size: (usize, usize),
    ) -> Result<Limits, String> {
        let mut closed = Vec::new();
        if let Some(shape) = self.avoid {
            closed = vec![false; window.w * window.h];
            args.with_field(self.index, Key::Field(Field::Avoid), |a, top| {
                each_position(a, top, shape, "avoid", size, |_, _, p, _| {
                    if window.contains(p) {
                        let q = window.inside(p);
                        closed[(q.y - 1) * window.w + q.x - 1] = true;
                    }
                    Ok(())
                })
            })?;
        }
        if self.known {
            let known = args.with_field(self.index, Key::Field(Field::Known), |a, top| {
                a.flags(top, "known", (window.x, window.y), (window.w, window.h))
            })?;
            closed.resize(known.len(), false);
            closed.iter_mut().zip(known).for_each(|(c, k)| *c |= !k);
        }
        Ok(Limits {
            closed,
            max: self.max,
        })
    }
}

/// `avoid`, at `index`: one position or an array of them, maybe empty.
fn avoid_shape(args: &Args, index: c_int) -> Result<Sources, String> {
    if !args.is_table(index) {
        return Err(format!(
            "avoid must be a position {{x=, y=}} or an array of them, got {}",
            type_of(args.at(index))
        ));
    }
    let has = |field| args.with_field(index, Key::Field(field), |a, i| a.at(i)) != Arg::Missing;
    if has(Field::X) || has(Field::Y) {
        return Ok(Sources::One);
    }
    let len = args.raw_len(index);
    match args.hole(index, len) {
        Some(i) => Err(format!("avoid[{i}] must be a position {{x=, y=}}, got nil")),
        None => Ok(Sources::Array(len)),
    }
}

/// `flee`'s `factor`: a number from -10 to -0.1.
fn factor(value: Arg) -> Result<f64, String> {
    let (lo, hi) = FACTORS;
    let x = match value {
        Arg::Int(i) => i as f64,
        Arg::Float(x) => x,
        _ => f64::NAN,
    };
    if (lo..=hi).contains(&x) {
        Ok(x)
    } else {
        Err(format!(
            "factor must be a number from {lo} to {hi}, got {value}"
        ))
    }
}

/// The cost table: one-character keys, integer costs in `MIN_COST..=MAX_COST`;
/// the first bad entry by key (in byte order) is the one reported.
fn cost_table(args: &Args, index: c_int) -> Result<[u64; 256], String> {
    let mut entries: Vec<(Vec<u8>, Arg)> = Vec::new();
    let mut bad_key: Option<String> = None;
    args.each_pair(index, |key, value| {
        match key {
            Arg::Str(k) if k.len() == 1 => entries.push((k.to_vec(), value)),
            other => {
                let shown = other.to_string();
                if bad_key.as_ref().is_none_or(|b| shown < *b) {
                    bad_key = Some(shown);
                }
            }
        }
        Ok(())
    })?;
    if let Some(key) = bad_key {
        return Err(format!(
            "cost keys must be one-character strings, got {key}"
        ));
    }
    entries.sort_by(|a, b| a.0.cmp(&b.0));
    let mut costs = [1; 256];
    for (key, value) in entries {
        let name = format!("cost[{}]", quoted(&key));
        costs[key[0] as usize] = int_in(&name, value, MIN_COST as i64, MAX_COST as i64)? as u64;
    }
    Ok(costs)
}

/// An options table at argument `index` (nil or absent: none), with the
/// option names `known` (sorted); `set` gets each given option by name. An
/// unknown name is an error naming the first unknown one in byte order.
fn read_options<'a>(
    args: &'a Args,
    index: c_int,
    known: &[&'static str],
    mut set: impl FnMut(&'static str, Arg<'a>) -> Result<(), String>,
) -> Result<(), String> {
    match args.get(index) {
        Arg::Missing => return Ok(()),
        Arg::Other("table") => {}
        other => return Err(format!("options must be a table, got {}", type_of(other))),
    }
    let mut given: Vec<(&'static str, Arg<'a>)> = Vec::new();
    let mut unknown: Option<String> = None;
    args.each_pair(index, |key, value| {
        let name = match key {
            Arg::Str(k) => known.iter().find(|n| n.as_bytes() == k),
            _ => None,
        };
        match name {
            Some(&n) => given.push((n, value)),
            None => {
                let shown = match key {
                    Arg::Str(k) => quoted(k),
                    other => other.to_string(),
                };
                if unknown.as_ref().is_none_or(|u| shown < *u) {
                    unknown = Some(shown);
                }
            }
        }
        Ok(())
    })?;
    if let Some(name) = unknown {
        return Err(format!(
            "unknown option {name} (options: {})",
            known.join(", ")
        ));
    }
    given.sort_by_key(|&(n, _)| n);
    given.into_iter().try_for_each(|(n, v)| set(n, v))
}

fn string_option<'a>(name: &str, value: Arg<'a>) -> Result<&'a [u8], String> {
    match value {
        Arg::Str(s) => Ok(s),
        other => Err(format!(
            "{name} must be a string of characters, got {other}"
        )),
    }
}

/// A value's type as Lua names it.
fn type_of(arg: Arg) -> &'static str {
    arg.type_name()
}

// ---------------------------------------------------------------------------
// Cells given as `x, y` or as one position table.

/// The index of the argument after a cell that starts at `index`: a table
/// there is one position `{x=, y=}` in one place; anything else is `x`,
/// and the argument after it `y`.
pub(super) fn after_cell(args: &Args, index: c_int) -> c_int {
    if args.is_table(index) {
        index + 1
    } else {
        index + 2
    }
}

/// The cell starting at argument `index` (see `after_cell`) of a map of
/// `size`: the coordinates called `names`, or the raw fields `x` and `y`
/// of a position called `name` (`name.x` in messages).
pub(super) fn cell(
    args: &Args,
    index: c_int,
    names: (&str, &str),
    name: &str,
    (width, height): (usize, usize),
) -> Result<Pos, String> {
    if args.is_table(index) {
        field_position(args, index, &|| name.to_string(), width, height)
    } else {
        position(args.get(index), args.get(index + 1), names, width, height)
    }
}

/// What `search_args` reads of `distances` and `flee`: the map's size,
/// the window a search within `max` can reach, the sources (as cells of
/// the window) and the options.
pub(super) struct SearchArgs {
    pub window: Rect,
    pub sources: Vec<Source>,
    pub search: Search,
}

/// The memory bound of a search over a window of a size, from some
/// sources, by Dijkstra's algorithm or not.
pub type SearchBound = fn((usize, usize), usize, bool) -> usize;

/// The sources at `at.0` and the options at `at.1` (`accepted`) of a
/// search over a map of `size`, checked, and its memory bound (`bound`)
/// over the window `search_window` gives, before anything proportional to
/// the map is read.
pub(super) fn search_args(
    args: &Args,
    size: (usize, usize),
    (sources_at, options_at): (c_int, c_int),
    accepted: &[&'static str],
    bound: SearchBound,
) -> Result<SearchArgs, String> {
    let shape = sources_shape(args, sources_at)?;
    let search = search_options(args, options_at, accepted)?;
    memory::check(memory::bound_sources(shape.count()))?;
    let mut sources = sources(args, sources_at, shape, size.0, size.1)?;
    let window = search_window(&sources, search.max, size);
    let first = sources[0].value;
    let keyed = search.walk.cost.is_some() || sources.iter().any(|s| s.value != first);
    memory::check(bound((window.w, window.h), sources.len(), keyed))?;
    sources.retain(|s| window.contains(s.pos));
    for s in &mut sources {
        s.pos = window.inside(s.pos);
    }
    Ok(SearchArgs {
        window,
        sources,
        search,
    })
}

/// The cells a search from `sources` within `max` can settle: those within
/// `max - value` of a source along each axis (a step moves one cell at
/// most and costs at least 1); the whole map without `max`. With no
/// source within `max`, the first source's cell alone.
fn search_window(sources: &[Source], max: Option<i64>, size: (usize, usize)) -> Rect {
    let Some(max) = max.map(|m| m.min(MAX_VALUE)) else {
        return Rect::whole(size);
    };
    sources
        .iter()
        .filter(|s| s.value <= max)
        .map(|s| Rect::around(s.pos, (max - s.value) as usize, size))
        .reduce(|a, b| a.union(&b))
        .unwrap_or_else(|| Rect::around(sources[0].pos, 0, size))
}

// ---------------------------------------------------------------------------
// step, explore, sample, line, visible, parse.

/// The options of `step` and `explore`.
const STEP: &[&str] = &["avoid", "blocked", "diagonal", "known"];
const EXPLORE: &[&str] = &["avoid", "blocked", "cost", "diagonal"];

/// What `step` was asked: the 3x3 window around the cell (clipped to the
/// map), its cells and values in `d`, the cell as one of it, the walk and
/// the closed cells of the window.
pub struct Stepped {
    pub window: Rect,
    pub grid: Grid,
    pub values: Vec<i64>,
    pub from: Pos,
    pub walk: Walk,
    pub closed: Vec<bool>,
}

/// Argument `index` (`name` in messages) is a table (its rows are read later).
fn table_of_rows(args: &Args, index: c_int, name: &str) -> Result<(), String> {
    if args.is_table(index) {
        return Ok(());
    }
    let got = type_of(args.get(index));
    Err(format!("{name} must be a table of rows, got {got}"))
}

/// `step(m, d, x, y [, options])`: only the cell and its neighbours are
/// read, of the map and of `d` (and of `known`).
pub fn step(args: &Args) -> Result<Stepped, String> {
    let next = after_cell(args, 3);
    args.at_most(next)?;
    let size = args.map_size(1)?;
    table_of_rows(args, 2, "d")?;
    let from = cell(args, 3, ("x", "y"), "from", size)?;
    let search = search_options(args, next, STEP)?;
    let window = Rect::around(from, 1, size);
    let closed = search.limits(args, window, size)?.closed;
    let values = args.values(2, "d", (window.x, window.y), (window.w, window.h))?;
    let grid = args.window(1, (window.x, window.y), (window.w, window.h), size.0)?;
    Ok(Stepped {
        from: window.inside(from),
        window,
        grid,
        values,
        walk: search.walk,
        closed,
    })
}

/// What `explore` was asked, before anything proportional to the map is
/// read: the map's size, the start, and the options.
pub(super) struct Explore {
    pub size: (usize, usize),
    pub start: Pos,
    search: Search,
}

/// What `explore` reads of one window of the map: its cells, the cells
/// `known` marks and `avoid` names in it, the start as a cell of it, and
/// the walk.
pub struct ExploreWindow {
    pub grid: Grid,
    pub known: Vec<bool>,
    pub avoided: Vec<bool>,
    pub start: Pos,
    pub walk: Walk,
}

/// `explore(m, known, x, y [, options])`.
pub(super) fn explore(args: &Args) -> Result<Explore, String> {
    let next = after_cell(args, 3);
    args.at_most(next)?;
    let size = args.map_size(1)?;
    table_of_rows(args, 2, "known")?;
    let start = cell(args, 3, ("x", "y"), "start", size)?;
    explore_at(args, size, start, next)
}

/// `explore` from `start` on a map of `size`, its options at `options_at`.
pub(super) fn explore_at(
    args: &Args,
    size: (usize, usize),
    start: Pos,
    options_at: c_int,
) -> Result<Explore, String> {
    let search = search_options(args, options_at, EXPLORE)?;
    Ok(Explore {
        size,
        start,
        search,
    })
}

/// The first radius `explore` reads around the start, before doubling it.
pub const EXPLORE_RADIUS: usize = 16;

impl Explore {
    /// The window of the cells within `r` of the start along each axis.
    pub fn window(&self, r: usize) -> Rect {
        Rect::around(self.start, r, self.size)
    }

    /// What the map table at 1 and the known rows at 2 hold in `window`
    /// (or `read`, the cells and known flags `luajit.lua` has read), after
    /// its memory bound is checked.
    pub(super) fn read(
        &self,
        args: &Args,
        window: Rect,
        read: Option<(Grid, Vec<bool>)>,
    ) -> Result<ExploreWindow, String> {
        let weighted = self.search.walk.cost.is_some();
        memory::check(memory::bound_explore((window.w, window.h), weighted))?;
        let avoided = self.search.limits(args, window, self.size)?.closed;
        let (corner, size) = ((window.x, window.y), (window.w, window.h));
        let (grid, known) = match read {
            Some(read) => read,
            None => {
                let known = args.flags(2, "known", corner, size)?;
                (args.window(1, corner, size, self.size.0)?, known)
            }
        };
        Ok(ExploreWindow {
            grid,
            known,
            avoided,
            start: window.inside(self.start),
            walk: self.search.walk.clone(),
        })
    }
}

/// `sample`'s defaults: floor cells; walls block walking, walls and doors
/// sight.
const CHARS: &[u8] = b".";
const SAMPLE: &[&str] = &[
    "blocked", "chars", "diagonal", "from", "hidden", "max", "min", "opaque", "seed",
];

/// `sample(m, count [, options])`: the map, the count, the seed and the
/// filter.
pub fn sample(args: &Args) -> Result<(Grid, usize, i64, Filter), String> {
    args.at_most(3)?;
    let size = args.map_size(1)?;
    let (count, seed, filter) = sample_args(args, size, (2, 3))?;
    Ok((args.grid(1, size)?, count, seed, filter))
}

/// `sample`'s count and options at `at` for a map of `size`, with the
/// memory bound checked.
pub(super) fn sample_args(
    args: &Args,
    size: (usize, usize),
    (count_at, options_at): (c_int, c_int),
) -> Result<(usize, i64, Filter), String> {
    let count = int_in("count", args.get(count_at), 0, i64::MAX)? as usize;
    let mut seed = Arg::Missing;
    let (mut chars, mut hidden, mut opaque_chars) = (byte_set(CHARS), false, byte_set(OPAQUE));
    let mut from: Option<Pos> = None;
    let (mut min, mut max) = (None, None);
    let mut walk = Walk::new();
    // The options that refine `from` or `hidden`, as given.
    let mut needs_from = Vec::new();
    read_options(args, options_at, SAMPLE, |name, value| {
        match name {
            "chars" => chars = byte_set(string_option(name, value)?),
            "seed" => seed = value,
            "from" => {
                let at = |a: &Args, top| match a.is_table(top) {
                    true => field_position(a, top, &|| "from".into(), size.0, size.1),
                    false => Err(format!(
                        "from must be a position {{x=, y=}}, got {}",
                        type_of(a.at(top))
                    )),
                };
                from = Some(args.with_field(options_at, Key::Field(Field::From), at)?);
            }
            "min" => min = Some(int_in(name, value, 0, i64::MAX)?),
            "max" => max = Some(int_in(name, value, 0, i64::MAX)?),
            "hidden" => match value {
                Arg::Bool(b) => hidden = b,
                other => return Err(format!("hidden must be a boolean, got {other}")),
            },
            "opaque" => opaque_chars = byte_set(string_option(name, value)?),
            "blocked" => walk.blocked = byte_set(string_option(name, value)?),
            _ => match value {
                Arg::Bool(b) => walk.diagonal = b,
                other => return Err(format!("diagonal must be a boolean, got {other}")),
            },
        }
        let refines = !matches!(name, "from" | "chars" | "seed") && value != Arg::Bool(false);
        if refines {
            needs_from.push(name);
        }
        Ok(())
    })?;
    let seed = crate::args::seed(seed)?;
    if from.is_none() {
        if let Some(name) = needs_from.first() {
            return Err(format!("{name} needs from"));
        }
    }
    if needs_from.contains(&"opaque") && !hidden {
        return Err("opaque needs hidden = true".into());
    }
    memory::check(memory::bound_sample(size))?;
    let filter = Filter {
        chars,
        from: from.map(|pos| Near {
            pos,
            walk,
            min: min.unwrap_or(0),
            max,
        }),
        hidden: hidden.then_some(opaque_chars),
    };
    Ok((count, seed, filter))
}

/// A point on integer coordinates, anywhere.
type Point = (i64, i64);

/// A point of `line`, starting at argument `index`: integer coordinates
/// with `|v| <= 2^53`, as `x, y` (called `names`) or a position `name`.
fn point(
    args: &Args,
    index: c_int,
    (x_name, y_name): (&str, &str),
    name: &str,
) -> Result<Point, String> {
    let coordinate = |value: Arg, what: &dyn Fn() -> String| match value.integer() {
        Some(v) if v.unsigned_abs() <= MAX_VALUE as u64 => Ok(v),
        _ => Err(format!(
            "{} must be an integer with |v| <= 2^53, got {value}",
            what()
        )),
    };
    if args.is_table(index) {
        let field = |f: Field| args.with_field(index, Key::Field(f), |a, i| a.at(i));
        let x = coordinate(field(Field::X), &|| format!("{name}.x"))?;
        let y = coordinate(field(Field::Y), &|| format!("{name}.y"))?;
        Ok((x, y))
    } else {
        let x = coordinate(args.get(index), &|| x_name.to_string())?;
        let y = coordinate(args.get(index + 1), &|| y_name.to_string())?;
        Ok((x, y))
    }
}

/// `line(x1, y1, x2, y2)`, each point `x, y` or a position: at most
/// `MAX_CELLS` cells.
pub fn line(args: &Args) -> Result<(Point, Point), String> {
    let second = after_cell(args, 1);
    args.at_most(after_cell(args, second) - 1)?;
    let a = point(args, 1, ("x1", "y1"), "from")?;
    let b = point(args, second, ("x2", "y2"), "to")?;
    let n = a.0.abs_diff(b.0).max(a.1.abs_diff(b.1));
    if n >= MAX_CELLS as u64 {
        return Err(format!(
            "line has more than {MAX_CELLS} cells ({} steps)",
            n
        ));
    }
    memory::check(memory::bound_line(n as usize + 1))?;
    Ok((a, b))
}

/// What `visible` was asked: the map's size, the two cells, the radius
/// and the opaque characters, and the rectangle between the cells.
pub struct Sight {
    pub size: (usize, usize),
    pub from: Pos,
    pub to: Pos,
    pub radius: Option<usize>,
    pub opaque: ByteSet,
    pub window: Rect,
}

/// `visible(m, x1, y1, x2, y2 [, options])`, each cell `x, y` or a
/// position; no cell of the map is read yet.
pub fn visible(args: &Args) -> Result<Sight, String> {
    let second = after_cell(args, 2);
    let options_at = after_cell(args, second);
    args.at_most(options_at)?;
    let size = args.map_size(1)?;
    let from = cell(args, 2, ("x1", "y1"), "from", size)?;
    let to = cell(args, second, ("x2", "y2"), "to", size)?;
    let (radius, opaque, window) = visible_args(args, options_at, size, (from, to))?;
    Ok(Sight {
        size,
        from,
        to,
        radius,
        opaque,
        window,
    })
}

/// `visible`'s options at `options_at` (its radius and opaque characters)
/// for the cells `from` and `to` of a map of `size`, and the rectangle
/// between them, with its memory bound checked.
fn visible_args(
    args: &Args,
    options_at: c_int,
    size: (usize, usize),
    (from, to): (Pos, Pos),
) -> Result<(Option<usize>, ByteSet, Rect), String> {
    let (mut radius_given, mut opaque_chars) = (Arg::Missing, byte_set(OPAQUE));
    read_options(args, options_at, &["opaque", "radius"], |name, value| {
        match name {
            "opaque" => opaque_chars = byte_set(string_option(name, value)?),
            _ => radius_given = value,
        }
        Ok(())
    })?;
    let radius = radius(radius_given, size.0 + size.1)?;
    let (corner, (w, h)) = crate::toolkit::visible::between(from, to);
    memory::check(memory::bound_fov(w * h))?;
    let window = Rect {
        x: corner.x,
        y: corner.y,
        w,
        h,
    };
    Ok((radius, opaque_chars, window))
}

/// `parse(text)`.
pub fn parse(args: &Args) -> Result<Parsed, String> {
    args.at_most(1)?;
    let text = match args.get(1) {
        Arg::Str(text) => text,
        other => return Err(format!("text must be a string, got {}", type_of(other))),
    };
    let size = parse::size(text)?;
    memory::check(memory::bound_parse(size))?;
    Ok(parse::parse(text, size))
}
