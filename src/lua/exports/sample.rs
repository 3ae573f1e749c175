//! `map.sample(m, count [, options])`: distinct random cells, drawn by the
//! seed, among those the options allow; `lvl:sample` on the level (with
//! `occupied`).

use std::ffi::c_int;

use crate::grid::{byte_set, Grid, Pos, Rect};
use crate::input::{int_in, Arg};
use crate::lua::shared::cells::field_position;
use crate::lua::shared::level_method::level_method;
use crate::lua::shared::options::{read_options, string_option};
use crate::lua::shared::search::{map_walk, with_occupied};
use crate::lua::shared::seed::{seed_option, SeedDraw, Seeded};
use crate::lua::shared::sight::OPAQUE;
use crate::lua::stack::call::function;
use crate::lua::stack::replies::Positions;
use crate::lua::stack::{Args, Export, Field, Key};
use crate::memory;
use crate::toolkit::sample::{self, Filter, Near};

pub const EXPORT: Export = Export {
    name: "sample",
    function: sample,
    method: Some(level_sample),
    #[cfg(feature = "luajit")]
    helpers: &[("sample_cells", luajit::sample_cells)],
};

function!(sample, "map.sample", answer);

level_method!(level_sample, "level:sample", |args, _| answer(args));

/// `sample`'s answer, for a table or a level.
fn answer(args: &Args) -> Result<Seeded<Positions>, String> {
    args.at_most(3)?;
    let size = args.map_size(1)?;
    let (count, seed, filter, draw) = asked(args, size, (2, 3))?;
    let grid = args.grid(1, size)?;
    drawn(&grid, count, seed, &filter, draw)
}

/// The cells drawn, the source `rng = r` to move past its draw once they
/// are pushed.
fn drawn(
    grid: &Grid,
    count: usize,
    seed: i64,
    filter: &Filter,
    draw: SeedDraw,
) -> Result<Seeded<Positions>, String> {
    let cells = sample::sample(grid, count, seed, filter).map_err(|e| e.to_string())?;
    Ok(Seeded(Positions(Ok(cells)), draw))
}

/// `sample`'s defaults: floor cells; walls block walking, walls and doors
/// sight.
const CHARS: &[u8] = b".";
const SAMPLE: &[&str] = &[
    "blocked", "chars", "diagonal", "from", "hidden", "max", "min", "opaque", "rng", "seed",
];

/// `sample`'s count and options at `at` for a map of `size`, with the
/// memory bound checked; with `rng = r`, the seed drawn from `r`, to
/// commit once the cells are drawn.
fn asked(
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
    let mut walk = map_walk(args)?;
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
    memory::check(sample::bound(size))?;
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

#[cfg(feature = "luajit")]
mod luajit {
    use super::{asked, drawn};
    use crate::lua::shared::route::Cells;
    use crate::lua::stack::call::function;
    use crate::lua::stack::Args;

    function!(
        /// `sample` on the whole map `luajit/tables.lua` has read, as
        /// `(cells, width, count, options)`.
        sample_cells,
        "map.sample",
        |args: &Args| {
            let cells = Cells::of(args)?;
            let size = (cells.width, cells.height());
            let (count, seed, filter, draw) = asked(args, size, (3, 4))?;
            drawn(&cells.grid(), count, seed, &filter, draw)
        }
    );
}
