//! Options tables and the values in them: the one reader of every options
//! table (`read_options`), string options and cost tables.

use std::ffi::c_int;

use crate::input::{int_in, quoted, Arg};
use crate::lua::stack::Args;
use crate::toolkit::board::{MAX_COST, MIN_COST};

/// The cost table: one-character keys, integer costs in `MIN_COST..=MAX_COST`;
/// the first bad entry by key (in byte order) is the one reported.
pub fn cost_table(args: &Args, index: c_int) -> Result<[u64; 256], String> {
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
pub fn read_options<'a>(
    args: &'a Args,
    index: c_int,
    known: &[&'static str],
    mut set: impl FnMut(&'static str, Arg<'a>) -> Result<(), String>,
) -> Result<(), String> {
    match args.get(index) {
        Arg::Missing => return Ok(()),
        Arg::Other("table") => {}
        other => {
            return Err(format!(
                "options must be a table, got {}",
                other.type_name()
            ))
        }
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

pub fn string_option<'a>(name: &str, value: Arg<'a>) -> Result<&'a [u8], String> {
    match value {
        Arg::Str(s) => Ok(s),
        other => Err(format!(
            "{name} must be a string of characters, got {other}"
        )),
    }
}
