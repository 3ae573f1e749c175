//! What each export takes: its arguments read and checked, with their
//! messages. Safe code over `read::Args`; the work itself is the core's.

use std::ffi::c_int;

use super::read::{Args, Field, Key};
use crate::args::{int_in, quoted, size, Arg, MAX_CELLS};
use crate::generators::Generator;
use crate::grid::{byte_set, ByteSet, Grid, Pos};
use crate::level::{self, Level, Params};
use crate::memory;
use crate::toolkit::autotile::{Autotile, Mode};
use crate::toolkit::board::{Walk, MAX_COST, MIN_COST};

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
    let params = if args.is_table(1) {
        args.at_most(1)?;
        args.options(1, Params::set)?
    } else {
        args.at_most(3)?;
        Params::new(args.get(1), args.get(2), args.get(3))
    };
    level::generate(&params)
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
    args.at_most(5)?;
    let (width, height) = args.map_size(1)?;
    let origin = position(args.get(2), args.get(3), ("x", "y"), width, height)?;
    let radius = radius(args.get(4), width + height)?;
    let opaque = opaque(args, 5)?;
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

/// `distances(m, sources [, options])`.
pub fn distances(args: &Args) -> Result<(Grid, Vec<Pos>, Walk), String> {
    args.at_most(3)?;
    let size = args.map_size(1)?;
    let (sources, walk) = sources_and_walk(args, 2, size)?;
    Ok((args.grid(1, size)?, sources, walk))
}

/// `distances`' sources at `index` and options after them, for a map of
/// `size`: the sources are counted, and the call's memory bound checked,
/// before any is read.
pub(super) fn sources_and_walk(
    args: &Args,
    index: c_int,
    size: (usize, usize),
) -> Result<(Vec<Pos>, Walk), String> {
    let shape = sources_shape(args, index)?;
    let walk = walk(args, index + 1)?;
    let weighted = walk.cost.is_some();
    memory::check(memory::bound_distances(size, shape.count(), weighted))?;
    Ok((sources(args, index, shape, size.0, size.1)?, walk))
}

/// `path(m, x1, y1, x2, y2 [, options])`.
pub fn path(args: &Args) -> Result<(Grid, Pos, Pos, Walk), String> {
    args.at_most(6)?;
    let (w, h) = args.map_size(1)?;
    let from = position(args.get(2), args.get(3), ("x1", "y1"), w, h)?;
    let to = position(args.get(4), args.get(5), ("x2", "y2"), w, h)?;
    let walk = walk(args, 6)?;
    memory::check(memory::bound_path((w, h), walk.cost.is_some()))?;
    Ok((args.grid(1, (w, h))?, from, to, walk))
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
    match args.raw_len(index) {
        0 => Err(format!("{WHAT}, got an empty table")),
        n if n > MAX_CELLS => Err(format!("sources has more than {MAX_CELLS} positions")),
        n => Ok(Sources::Array(n)),
    }
}

/// The positions of the `sources` at `index`, of the shape `shape`.
fn sources(
    args: &Args,
    index: c_int,
    shape: Sources,
    width: usize,
    height: usize,
) -> Result<Vec<Pos>, String> {
    let count = match shape {
        Sources::One => {
            return Ok(vec![field_position(
                args,
                index,
                &|| "sources".into(),
                width,
                height,
            )?])
        }
        Sources::Array(n) => n,
    };
    (1..=count)
        .map(|i| {
            args.with_field(index, Key::Index(i), |a, top| {
                let name = || format!("sources[{i}]");
                if !a.is_table(top) {
                    return Err(format!(
                        "{} must be a position {{x=, y=}}, got {}",
                        name(),
                        type_of(a.at(top))
                    ));
                }
                field_position(a, top, &name, width, height)
            })
        })
        .collect()
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

/// The walking options of `distances` and `path`.
fn walk(args: &Args, index: c_int) -> Result<Walk, String> {
    let mut walk = Walk::new();
    let mut cost_at = None;
    read_options(
        args,
        index,
        &["blocked", "cost", "diagonal"],
        |name, value| {
            match name {
                "blocked" => walk.blocked = byte_set(string_option(name, value)?),
                "diagonal" => match value {
                    Arg::Bool(b) => walk.diagonal = b,
                    other => return Err(format!("diagonal must be a boolean, got {other}")),
                },
                _ => cost_at = Some(value),
            }
            Ok(())
        },
    )?;
    if let Some(value) = cost_at {
        if !matches!(value, Arg::Other("table")) {
            return Err(format!(
                "cost must be a table from characters to integers, got {}",
                type_of(value)
            ));
        }
        let costs = args.with_field(index, Key::Field(Field::Cost), cost_table)?;
        walk.cost = Some(Box::new(costs));
    }
    Ok(walk)
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
    match arg {
        Arg::Missing => "nil",
        Arg::Int(_) | Arg::Float(_) => "number",
        Arg::Str(_) => "string",
        Arg::Bool(_) => "boolean",
        Arg::Other(name) => name,
    }
}
