//! The arguments of the exports that fit no other concern: the level's
//! (`generate`, `generate_text`, `generate_json`, `describe`), `autotile`'s,
//! `sample`'s and `parse`'s.

use std::ffi::c_int;

use super::cells::field_position;
use super::options::{read_options, string_option};
use super::random::{seed_option, SeedDraw};
use super::read::{Args, Field, Key};
use super::search::with_occupied;
use super::sight::OPAQUE;
use crate::generators::Generator;
use crate::grid::{byte_set, Grid, Pos, Rect};
use crate::input::{int_in, Arg};
use crate::level::{self, Level, Params};
use crate::memory;
use crate::toolkit::autotile::{Autotile, Mode};
use crate::toolkit::parse::{self, Parsed};
use crate::toolkit::sample::{Filter, Near};

/// The level asked for by `(width, height [, seed])` or `{options}`.
pub fn level(args: &Args) -> Result<Level, String> {
    let (params, draw) = params(args)?;
    let level = level::generate(&params)?;
    draw.commit();
    Ok(level)
}

/// Its map alone (no rooms' exits worked out), for `generate_text`.
pub fn level_grid(args: &Args) -> Result<Grid, String> {
    let (params, draw) = params(args)?;
    let grid = level::generate_grid(&params)?;
    draw.commit();
    Ok(grid)
}

/// `map.level{...}`'s level: generate's options, and `things` (the
/// characters moved out of the terrain besides `@`, `$`, `!` and `place`'s).
pub fn level_with_things(args: &Args) -> Result<(Level, &[u8]), String> {
    let things = std::cell::Cell::new(Arg::Missing);
    let (mut params, draw) = params_with(args, |p, key, value| match key {
        b"things" => things.set(value),
        _ => Params::set(p, key, value),
    })?;
    params.also = &["rng", "things"];
    let things = match things.get() {
        Arg::Missing => &b""[..],
        other => string_option("things", other)?,
    };
    let level = level::generate(&params)?;
    draw.commit();
    Ok((level, things))
}

fn params(args: &Args) -> Result<(Params<'_>, SeedDraw), String> {
    params_with(args, Params::set)
}

/// The parameters, and with `rng = r` in the table form the seed drawn
/// from `r` (`random::seed_option`), to commit once the level is made.
fn params_with<'a>(
    args: &'a Args,
    set: impl Fn(&mut Params<'a>, &'a [u8], Arg<'a>),
) -> Result<(Params<'a>, SeedDraw), String> {
    if args.is_table(1) {
        args.at_most(1)?;
        let rng = std::cell::Cell::new(false);
        let mut params = args.options(1, |p, key, value| match key {
            b"rng" => rng.set(value != Arg::Missing),
            _ => set(p, key, value),
        })?;
        params.also = &["rng"];
        if params.unknown.is_some() {
            return Ok((params, SeedDraw::default()));
        }
        super::design::read(args, 1, &mut params.design)?;
        let (seed, draw) = seed_option(args, 1, rng.get(), params.seed)?;
        params.seed = seed;
        Ok((params, draw))
    } else {
        args.at_most(3)?;
        let params = Params::new(args.get(1), args.get(2), args.get(3));
        Ok((params, SeedDraw::default()))
    }
}

/// `describe(name)`: the generator called so.
pub fn generator(args: &Args) -> Result<&'static Generator, String> {
    args.at_most(1)?;
    level::chosen(args.get(1))
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

/// `sample`'s defaults: floor cells; walls block walking, walls and doors
/// sight.
const CHARS: &[u8] = b".";
const SAMPLE: &[&str] = &[
    "blocked", "chars", "diagonal", "from", "hidden", "max", "min", "opaque", "rng", "seed",
];

/// `sample(m, count [, options])`: the map, the count, the seed, the
/// filter and the seed's draw from `rng` (to commit once drawn).
pub fn sample(args: &Args) -> Result<(Grid, usize, i64, Filter, SeedDraw), String> {
    args.at_most(3)?;
    let size = args.map_size(1)?;
    let (count, seed, filter, draw) = sample_args(args, size, (2, 3))?;
    Ok((args.grid(1, size)?, count, seed, filter, draw))
}

/// `sample`'s count and options at `at` for a map of `size`, with the
/// memory bound checked; with `rng = r`, the seed drawn from `r`, to
/// commit once the cells are drawn.
pub(super) fn sample_args(
    args: &Args,
    size: (usize, usize),
    (count_at, options_at): (c_int, c_int),
) -> Result<(usize, i64, Filter, SeedDraw), String> {
    let count = int_in("count", args.get(count_at), 0, i64::MAX)? as usize;
    let mut seed = Arg::Missing;
    let mut rng = false;
    let (mut chars, mut hidden, mut opaque_chars) = (byte_set(CHARS), false, byte_set(OPAQUE));
    let mut from: Option<Pos> = None;
    let (mut min, mut max) = (None, None);
    let mut walk = super::search::map_walk(args)?;
    // The options that refine `from` or `hidden`, as given.
    let mut needs_from = Vec::new();
    let mut occupied = false;
    read_options(
        args,
        options_at,
        &with_occupied(args, SAMPLE),
        |name, value| {
            match name {
                "occupied" => match value {
                    Arg::Bool(b) => occupied = b,
                    other => return Err(format!("occupied must be a boolean, got {other}")),
                },
                "chars" => chars = byte_set(string_option(name, value)?),
                "seed" => seed = value,
                "rng" => rng = value != Arg::Missing,
                "from" => {
                    let at = |a: &Args, top| match a.is_table(top) {
                        true => field_position(a, top, &|| "from".into(), size.0, size.1),
                        false => Err(format!(
                            "from must be a position {{x=, y=}}, got {}",
                            a.at(top).type_name()
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
            let refines = !matches!(name, "from" | "chars" | "seed" | "rng" | "occupied")
                && value != Arg::Bool(false);
            if refines {
                needs_from.push(name);
            }
            Ok(())
        },
    )?;
    let (seed, draw) = seed_option(args, options_at, rng, seed)?;
    let seed = crate::input::seed(seed)?;
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
        excluded: match (occupied, args.level_at(1)) {
            (true, Some(level)) => Rect::whole(size)
                .cells()
                .map(|p| level.occupied(p))
                .collect(),
            _ => Vec::new(),
        },
    };
    Ok((count, seed, filter, draw))
}

/// `parse(text)`.
pub fn parse(args: &Args) -> Result<Parsed, String> {
    args.at_most(1)?;
    let text = match args.get(1) {
        Arg::Str(text) => text,
        other => return Err(format!("text must be a string, got {}", other.type_name())),
    };
    let size = parse::size(text)?;
    memory::check(memory::bound_parse(size))?;
    Ok(parse::parse(text, size))
}
