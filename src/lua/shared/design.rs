//! Reading `vaults`, `arrive` and `place` from `generate`'s options table,
//! raw and without allocating on the Lua side (`read.rs`): nested tables are
//! reached with `Args::with_field` and walked with `Args::each_pair`. Each
//! array is counted and bounded before its entries are read, each template's
//! rows are counted and measured before they are copied, and every string
//! kept is copied into Rust (`Template::new`, `Placement::new`) while the
//! caller's table still holds it. Only the options given as tables are read
//! here; `level::design` reports the others.

use std::ffi::c_int;

use crate::input::{quoted, Arg};
use crate::level::design::{at_most, too_many_entries, too_many_templates, Design};
use crate::level::place::{self, Placement, MAX_CHOICES, MAX_ENTRIES};
use crate::level::vaults::{row_too_long, too_many_rows, Template, MAX_SIDE, MAX_TEMPLATES};
use crate::lua::stack::{Args, Field, Key};

const TEMPLATE_FIELDS: [Field; 4] = [Field::Rows, Field::Count, Field::Rotate, Field::Required];
const PLACE_FIELDS: [Field; 6] = [
    Field::Char,
    Field::Count,
    Field::Min,
    Field::Hidden,
    Field::PerRoom,
    Field::Choose,
];

/// Reads those of `vaults`, `arrive` and `place` that the options table at
/// `index` holds as tables into `design`.
pub fn read(args: &Args, index: c_int, design: &mut Design) -> Result<(), String> {
    let table = |field| args.with_field(index, Key::Field(field), |a, t| a.is_table(t));
    if table(Field::Vaults) {
        design.vaults = args.with_field(index, Key::Field(Field::Vaults), vaults)?;
    }
    if table(Field::Arrive) {
        design.arrive = Some(args.with_field(index, Key::Field(Field::Arrive), arrive)?);
    }
    if table(Field::Place) {
        design.place = args.with_field(index, Key::Field(Field::Place), place)?;
    }
    Ok(())
}

fn vaults(args: &Args, t: c_int) -> Result<Vec<Template>, String> {
    let n = array_len(args, t, "vaults")?;
    at_most(n, MAX_TEMPLATES, too_many_templates)?;
    (1..=n)
        .map(|i| args.with_field(t, Key::Index(i), |a, v| template(a, v, i)))
        .collect()
}

fn template(args: &Args, t: c_int, n: usize) -> Result<Template, String> {
    let name = format!("vaults[{n}]");
    entry(args, t, &name, &TEMPLATE_FIELDS)?;
    let field = |f| args.with_field(t, Key::Field(f), |a, v| a.at(v));
    args.with_field(t, Key::Field(Field::Rows), |a, rows| {
        if !a.is_table(rows) {
            return Err(format!(
                "{name}.rows must be an array of strings, got {}",
                a.at(rows).type_name()
            ));
        }
        let height = array_len(a, rows, &format!("{name}.rows"))?;
        if height > MAX_SIDE {
            return Err(too_many_rows(n, height));
        }
        let mut lines: Vec<&[u8]> = Vec::with_capacity(height);
        for y in 1..=height {
            match a.with_field(rows, Key::Index(y), |a, r| a.at(r)) {
                Arg::Str(s) if s.len() > MAX_SIDE => return Err(row_too_long(n, y, s.len())),
                Arg::Str(s) => lines.push(s),
                other => {
                    return Err(format!(
                        "{name}.rows[{y}] must be a string, got {}",
                        other.type_name()
                    ))
                }
            }
        }
        Template::new(
            n,
            &lines,
            field(Field::Count),
            field(Field::Rotate),
            field(Field::Required),
        )
    })
}

fn arrive(args: &Args, t: c_int) -> Result<(i64, i64), String> {
    let coordinate = |f: Field| {
        let v = args.with_field(t, Key::Field(f), |a, v| a.at(v));
        v.integer()
            .ok_or_else(|| format!("arrive.{} must be an integer, got {v}", f.name()))
    };
    Ok((coordinate(Field::X)?, coordinate(Field::Y)?))
}

fn place(args: &Args, t: c_int) -> Result<Vec<Placement>, String> {
    let n = array_len(args, t, "place")?;
    at_most(n, MAX_ENTRIES, too_many_entries)?;
    (1..=n)
        .map(|i| {
            args.with_field(t, Key::Index(i), |a, e| {
                let name = format!("place[{i}]");
                entry(a, e, &name, &PLACE_FIELDS)?;
                let field = |f| a.with_field(e, Key::Field(f), |a, v| a.at(v));
                let per_room =
                    a.with_field(e, Key::Field(Field::PerRoom), |a, t| per_room(a, t, &name))?;
                let choose =
                    a.with_field(e, Key::Field(Field::Choose), |a, t| choose(a, t, &name))?;
                let fields = [Field::Char, Field::Count, Field::Min, Field::Hidden].map(field);
                Placement::designed(i, fields, per_room, choose)
            })
        })
        .collect()
}

/// An entry's `per_room` at `t` (nil: none), `{least, most}`.
fn per_room(args: &Args, t: c_int, name: &str) -> Result<Option<(usize, usize)>, String> {
    let Some(pair) = pair(args, t, &format!("{name}.per_room"), "{least, most}")? else {
        return Ok(None);
    };
    place::per_room(name, pair[0], pair[1]).map(Some)
}

/// An entry's `choose` at `t` (nil: none), an array of `{char, weight}`.
fn choose(args: &Args, t: c_int, name: &str) -> Result<Option<Vec<(u8, u32)>>, String> {
    let field = format!("{name}.choose");
    match args.at(t) {
        Arg::Missing => return Ok(None),
        _ if args.is_table(t) => {}
        other => {
            return Err(format!(
                "{field} must be an array of {{char, weight}}, got {}",
                other.type_name()
            ))
        }
    }
    let n = array_len(args, t, &field)?;
    if n == 0 || n > MAX_CHOICES {
        return Err(format!(
            "{field} must hold 1 to {MAX_CHOICES} {{char, weight}} pairs, got {n}"
        ));
    }
    (1..=n)
        .map(|i| {
            args.with_field(t, Key::Index(i), |a, c| {
                let what = format!("{field}[{i}]");
                let pair = pair(a, c, &what, "{char, weight}")?
                    .ok_or_else(|| format!("{what} must be a table {{char, weight}}, got nil"))?;
                place::choice(name, i, pair[0], pair[1])
            })
        })
        .collect::<Result<Vec<_>, String>>()
        .map(Some)
}

/// The two values of the pair at `t`, called `name`, of the shape `shape`
/// (`{least, most}`): `None` when it is nil, an error when it is not a
/// table of exactly the keys 1 and 2.
fn pair<'a>(
    args: &'a Args,
    t: c_int,
    name: &str,
    shape: &str,
) -> Result<Option<[Arg<'a>; 2]>, String> {
    match args.at(t) {
        Arg::Missing => return Ok(None),
        _ if args.is_table(t) => {}
        other => {
            return Err(format!(
                "{name} must be a table {shape}, got {}",
                other.type_name()
            ))
        }
    }
    let n = array_len(args, t, name)?;
    if n != 2 {
        return Err(format!(
            "{name} must be a table {shape} of two values, got {n} values"
        ));
    }
    let at = |i| args.with_field(t, Key::Index(i), |a, v| a.at(v));
    Ok(Some([at(1), at(2)]))
}

/// How many entries the table at `t`, called `name`, holds, all of them at
/// keys 1, 2, ...: counted by walking it, not by its length, which Lua 5.4
/// and LuaJIT may see differently in a table with a hole (then an entry up
/// to the count is nil, and its reader says so).
pub(super) fn array_len(args: &Args, t: c_int, name: &str) -> Result<usize, String> {
    let mut count = 0;
    let mut bad_key: Option<String> = None;
    args.each_pair(t, |key, _| {
        match key.integer() {
            Some(k) if k >= 1 => count += 1,
            _ => {
                let shown = shown_key(key);
                if bad_key.as_ref().is_none_or(|b| shown < *b) {
                    bad_key = Some(shown);
                }
            }
        }
        Ok(())
    })?;
    match bad_key {
        Some(key) => Err(format!("{name} must be an array, but has the key {key}")),
        None => Ok(count),
    }
}

/// An error unless the value at `t`, called `name`, is a table of no other
/// keys than `fields`.
fn entry(args: &Args, t: c_int, name: &str, fields: &[Field]) -> Result<(), String> {
    if !args.is_table(t) {
        let shape: Vec<String> = fields.iter().map(|f| format!("{}=", f.name())).collect();
        return Err(format!(
            "{name} must be a table {{{}}}, got {}",
            shape.join(", "),
            args.at(t).type_name()
        ));
    }
    known_fields(args, t, name, fields)
}

/// An error naming the first key (in byte order) of the table at `t` that
/// is not one of `fields`.
fn known_fields(args: &Args, t: c_int, name: &str, fields: &[Field]) -> Result<(), String> {
    let mut unknown: Option<String> = None;
    args.each_pair(t, |key, _| {
        let known = matches!(key, Arg::Str(k) if fields.iter().any(|f| f.name().as_bytes() == k));
        if !known {
            let shown = shown_key(key);
            if unknown.as_ref().is_none_or(|u| shown < *u) {
                unknown = Some(shown);
            }
        }
        Ok(())
    })?;
    match unknown {
        Some(key) => {
            let names: Vec<&str> = fields.iter().map(|f| f.name()).collect();
            Err(format!(
                "{name} has an unknown field {key} (fields: {})",
                names.join(", ")
            ))
        }
        None => Ok(()),
    }
}

/// A key as messages show it: a string quoted, anything else as `Arg` shows it.
fn shown_key(key: Arg) -> String {
    match key {
        Arg::Str(k) => quoted(k),
        other => other.to_string(),
    }
}
