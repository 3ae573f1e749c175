//! `generate`'s arguments, `(width, height [, seed])` or `{options}`, as
//! `level::Params`, for `generate`, `generate_text`, `generate_json` and
//! `map.level{...}`: the options read pair by pair, `vaults`, `arrive` and
//! `place` (`design.rs`), `rng = r` (`seed.rs`) and the options given
//! as rows (`rows.rs`).

use std::ffi::c_int;

use super::options::string_option;
use super::seed::{seed_option, SeedDraw};
use crate::grid::Grid;
use crate::input::Arg;
use crate::level::{self, Level, Params};
use crate::lua::stack::Args;

/// The level asked for by `(width, height [, seed])` or `{options}`, and
/// the draw of its seed from `rng = r`, to make once it is pushed.
pub fn level(args: &Args) -> Result<(Level, SeedDraw), String> {
    let (params, draw) = params(args)?;
    Ok((level::generate(&params)?, draw))
}

/// Its map alone (no rooms' exits worked out), for `generate_text`.
pub fn level_grid(args: &Args) -> Result<(Grid, SeedDraw), String> {
    let (params, draw) = params(args)?;
    Ok((level::generate_grid(&params)?, draw))
}

/// `map.level{...}`'s level: generate's options, and `things` (the
/// characters moved out of the terrain besides `@`, `$`, `!` and `place`'s).
pub fn level_with_things(args: &Args) -> Result<(Level, &[u8], SeedDraw), String> {
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
    Ok((level::generate(&params)?, things, draw))
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
        let mut params = read_params(args, 1, |p, key, value| match key {
            b"rng" => rng.set(value != Arg::Missing),
            _ => set(p, key, value),
        })?;
        params.also = &["rng"];
        if params.unknown.is_some() {
            return Ok((params, SeedDraw::default()));
        }
        super::design::read(args, 1, &mut params.design)?;
        super::rows::read(args, 1, &mut params);
        let (seed, draw) = seed_option(args, 1, rng.get(), params.seed)?;
        params.seed = seed;
        Ok((params, draw))
    } else {
        args.at_most(3)?;
        let params = Params::new(args.get(1), args.get(2), args.get(3));
        Ok((params, SeedDraw::default()))
    }
}

/// The options table at `index`, fed pair by pair to `set`.
fn read_params<'a>(
    args: &'a Args,
    index: c_int,
    set: impl Fn(&mut Params<'a>, &'a [u8], Arg<'a>),
) -> Result<Params<'a>, String> {
    let mut params = Params::default();
    args.each_pair(index, |key, value| match key {
        Arg::Str(name) => {
            set(&mut params, name, value);
            Ok(())
        }
        other => Err(format!("option names must be strings, got {other}")),
    })?;
    Ok(params)
}
