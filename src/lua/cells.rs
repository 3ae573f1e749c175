//! Maps, cells and points among the arguments: a whole map, a cell as
//! `x, y` or as one position `{x=, y=}`, and `line`'s points anywhere.

use std::ffi::c_int;

use super::read::{Args, Field, Key};
use crate::grid::{Grid, Pos};
use crate::input::{int_in, size, Arg, MAX_CELLS};
use crate::memory;
use crate::toolkit::board::MAX_VALUE;

/// `new_map(width, height)`.
pub fn new_map(args: &Args) -> Result<(usize, usize), String> {
    args.at_most(2)?;
    size(args.get(1), args.get(2), 1, 1)
}

/// The whole map at argument `index`, copied into a grid once
/// `bound((width, height))` bytes were found free. The caller checks how
/// many arguments there are (`Args::at_most`) and reads the others.
pub fn whole_map(
    args: &Args,
    index: c_int,
    bound: fn((usize, usize)) -> usize,
) -> Result<Grid, String> {
    let size = args.map_size(index)?;
    memory::check(bound(size))?;
    args.grid(index, size)
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

/// The position in the fields `x` and `y` of the table at `index`, called
/// `name()` in messages.
pub(super) fn field_position(
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

/// A point on integer coordinates, anywhere.
type Point = (i64, i64);

/// A point of `line`, starting at argument `index`: integer coordinates
/// with `|v| <= 2^53`, as `x, y` (called `names`) or a position `name`.
fn point(args: &Args, index: c_int, names: (&str, &str), name: &str) -> Result<Point, String> {
    let coordinate = |value: Arg, what: &dyn Fn() -> String| match value.integer() {
        Some(v) if v.unsigned_abs() <= MAX_VALUE as u64 => Ok(v),
        _ => Err(format!(
            "{} must be an integer with |v| <= 2^53, got {value}",
            what()
        )),
    };
    pair(args, index, names, name, coordinate)
}

/// Two coordinates starting at argument `index`, each read by
/// `coordinate` (given the value and its name for a message): `x, y`
/// (called `names`) or a position `{x=, y=}` (called `name`).
pub fn pair<T>(
    args: &Args,
    index: c_int,
    (x_name, y_name): (&str, &str),
    name: &str,
    coordinate: impl Fn(Arg, &dyn Fn() -> String) -> Result<T, String>,
) -> Result<(T, T), String> {
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
