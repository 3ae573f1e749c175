//! Maps and cells among the arguments: a whole map, a cell as `x, y` or
//! as one position `{x=, y=}`, two coordinates of any kind.

use std::ffi::c_int;

use crate::grid::{Grid, Pos};
use crate::input::{int_in, Arg};
use crate::lua::stack::block::what;
use crate::lua::stack::{Args, Field, Key};
use crate::memory;
use crate::native::field::Field as NativeField;

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
pub fn position(
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
pub fn field_position(
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
pub fn after_cell(args: &Args, index: c_int) -> c_int {
    if args.is_table(index) {
        index + 1
    } else {
        index + 2
    }
}

/// The cell starting at argument `index` (see `after_cell`) of a map of
/// `size`: the coordinates called `names`, or the raw fields `x` and `y`
/// of a position called `name` (`name.x` in messages).
pub fn cell(
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

/// Argument `index` (`name` in messages) is a table, or on a level a
/// field (its rows are read later).
pub fn table_of_rows(args: &Args, index: c_int, name: &str) -> Result<(), String> {
    if args.is_table(index) || args.is_method() && args.native_ref::<NativeField>(index).is_some() {
        return Ok(());
    }
    let got = what(args, index);
    let or_field = if args.is_method() { " or a field" } else { "" };
    Err(format!(
        "{name} must be a table of rows{or_field}, got {got}"
    ))
}
