//! The positions a search is given: its `sources` (each with a start
//! value) and its `avoid` cells, one position `{x=, y=}` or an array of
//! them, their shapes counted before any is read.

use std::ffi::c_int;

use super::cells::field_position;
use crate::grid::Pos;
use crate::input::{Arg, MAX_CELLS};
use crate::lua::stack::{Args, Field, Key};
use crate::toolkit::board::{Source, MAX_START};

/// What a `sources` argument holds: one position, or an array of them.
#[derive(Clone, Copy)]
pub enum PositionsShape {
    One,
    Array(usize),
}

impl PositionsShape {
    pub fn count(self) -> usize {
        match self {
            PositionsShape::One => 1,
            PositionsShape::Array(n) => n,
        }
    }
}

/// The shape of the `sources` at `index`: one position `{x=, y=}` or a
/// non-empty array of them, counted before any is read.
pub fn sources_shape(args: &Args, index: c_int) -> Result<PositionsShape, String> {
    const WHAT: &str = "sources must be a position {x=, y=} or a non-empty array of them";
    if !args.is_table(index) {
        return Err(format!("{WHAT}, got {}", args.get(index).type_name()));
    }
    let has = |field| args.with_field(index, Key::Field(field), |a, i| a.at(i)) != Arg::Missing;
    if has(Field::X) || has(Field::Y) {
        return Ok(PositionsShape::One);
    }
    // A nil entry before the length is named when the entries are read.
    match args.length(index) {
        0 => Err(format!("{WHAT}, got an empty table")),
        n if n > MAX_CELLS => Err(format!("sources has more than {MAX_CELLS} positions")),
        n => Ok(PositionsShape::Array(n)),
    }
}

/// The positions of the `sources` at `index`, of the shape `shape`, each
/// with its start value (its field `value`, 0 when absent).
pub fn sources(
    args: &Args,
    index: c_int,
    shape: PositionsShape,
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
                    Some(i) if i.unsigned_abs() <= MAX_START as u64 => i,
                    _ => {
                        return Err(format!(
                            "{}.value must be an integer with |value| <= 2^52, got {v}",
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
pub fn each_position(
    args: &Args,
    index: c_int,
    shape: PositionsShape,
    name: &str,
    (width, height): (usize, usize),
    mut each: impl FnMut(&Args, c_int, Pos, &dyn Fn() -> String) -> Result<(), String>,
) -> Result<(), String> {
    let count = match shape {
        PositionsShape::One => {
            let named = || name.to_string();
            let pos = field_position(args, index, &named, width, height)?;
            return each(args, index, pos, &named);
        }
        PositionsShape::Array(n) => n,
    };
    (1..=count).try_for_each(|i| {
        args.with_field(index, Key::Index(i), |a, top| {
            let named = || format!("{name}[{i}]");
            if !a.is_table(top) {
                return Err(format!(
                    "{} must be a position {{x=, y=}}, got {}",
                    named(),
                    a.at(top).type_name()
                ));
            }
            let pos = field_position(a, top, &named, width, height)?;
            each(a, top, pos, &named)
        })
    })
}

/// `avoid`, at `index`: one position or an array of them, maybe empty.
pub fn avoid_shape(args: &Args, index: c_int) -> Result<PositionsShape, String> {
    if !args.is_table(index) {
        return Err(format!(
            "avoid must be a position {{x=, y=}} or an array of them, got {}",
            args.at(index).type_name()
        ));
    }
    let has = |field| args.with_field(index, Key::Field(field), |a, i| a.at(i)) != Arg::Missing;
    if has(Field::X) || has(Field::Y) {
        return Ok(PositionsShape::One);
    }
    match args.length(index) {
        n if n > MAX_CELLS => Err(format!("avoid has more than {MAX_CELLS} positions")),
        n => Ok(PositionsShape::Array(n)),
    }
}
