//! The options that take a map's rows (`sample`, `fixed`: `level::rows`)
//! given as a table: read raw, without running Lua code or allocating on
//! the Lua side (`stack/args.rs`). The table is walked once to check its
//! keys, stopping past `rows::max_entries` entries, so a huge table costs
//! no more than a long text; then rows `1..=count` are copied into Rust,
//! joined, while the caller's table still holds them.

use std::ffi::c_int;

use crate::input::{quoted, Arg, INTERNAL_ERROR};
use crate::level::rows::{join, max_entries, not_an_array, rows_bound, too_many};
use crate::level::Params;
use crate::lua::stack::{Args, Field, Key};

/// For each option of `params` given as a table at `index` whose kind
/// takes rows, its rows joined, or the error, into `params.joined`: the
/// checks report it in its turn.
pub fn read(args: &Args, index: c_int, params: &mut Params) {
    let tables = params
        .options
        .iter()
        .filter(|&&(_, arg)| arg == Arg::Other("table"));
    let given: Vec<(&'static str, usize)> = tables
        .filter_map(|&(name, _)| rows_bound(name).map(|max| (name, max)))
        .collect();
    for (name, max) in given {
        // Every option that takes rows is in `fields!`: spec/example_spec.lua
        // gives each one describe says takes rows as a table.
        let joined = match Field::ALL.iter().find(|f| f.name() == name) {
            Some(&field) => args.with_field(index, Key::Field(field), |a, t| rows(a, t, name, max)),
            None => Err(format!("{name}: {INTERNAL_ERROR}")),
        };
        params.joined.push((name, joined));
    }
}

/// The table at `t`, option `name`'s rows, joined within `max` bytes.
fn rows(args: &Args, t: c_int, name: &str, max: usize) -> Result<Vec<u8>, String> {
    let limit = max_entries(max);
    let (mut entries, mut count) = (0, 0);
    let mut bad_key: Option<String> = None;
    args.each_pair(t, |key, _| {
        entries += 1;
        if entries > limit {
            return Err(too_many(name, max));
        }
        match key.integer() {
            Some(k) if k >= 1 => count += 1,
            _ => {
                let shown = match key {
                    Arg::Str(k) => quoted(k),
                    other => other.to_string(),
                };
                if bad_key.as_ref().is_none_or(|b| shown < *b) {
                    bad_key = Some(shown);
                }
            }
        }
        Ok(())
    })?;
    if let Some(key) = bad_key {
        return Err(not_an_array(name, &key));
    }
    // `count` positive integer keys: a hole below `count` is a nil read.
    join(name, max, count, |i| {
        args.with_field(t, Key::Index(i), |a, v| a.at(v))
    })
}
