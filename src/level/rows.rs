//! A text option given as its rows (`sample = {"#####", "#...#", ...}`):
//! what the front end hands `generate` in place of the string, and the
//! rules it reads the rows by. The binding walks the caller's table raw
//! (`lua/shared/rows.rs`) and gives each entry to `join`, which copies the
//! rows, joined with `\n`, within the option's byte bound: the same text,
//! so the same level, as the string of those rows.

use crate::generators::{Kind, LIST};
use crate::input::Arg;

/// The byte bound of the option called `name` when it takes rows (the
/// first algorithm declaring it, as every check of a shared name reads it).
pub fn rows_bound(name: &str) -> Option<usize> {
    let spec = LIST
        .iter()
        .flat_map(|a| a.options.iter())
        .find(|o| o.name == name)?;
    match spec.kind {
        Kind::Text { max, rows: true } => Some(max),
        _ => None,
    }
}

/// The most entries a table of rows may have under a bound of `max` bytes:
/// `n` rows joined take at least `n - 1` newlines. The binding stops
/// walking a table past it, so a huge table costs no more than this.
pub fn max_entries(max: usize) -> usize {
    max + 1
}

/// The error for a table of more than `max_entries(max)` entries.
pub fn too_many(name: &str, max: usize) -> String {
    format!(
        "{name} must be at most {max} bytes: its rows, joined by newlines, are at most {} rows, got a table of more entries",
        max_entries(max)
    )
}

/// The error for a table with a key that is not 1, 2, ... (`key` as
/// messages show it, the first in byte order).
pub fn not_an_array(name: &str, key: &str) -> String {
    format!("{name} must be a string or an array of strings (its rows), but has the key {key}")
}

/// Rows `1..=count` (`row(i)` the `i`-th entry as given), joined with
/// `\n`; an error names the first entry, in order, that is not a string,
/// holds a newline or takes the text past `max` bytes. Nothing is copied
/// past the bound.
pub fn join<'a>(
    name: &str,
    max: usize,
    count: usize,
    mut row: impl FnMut(usize) -> Arg<'a>,
) -> Result<Vec<u8>, String> {
    if count > max_entries(max) {
        return Err(too_many(name, max));
    }
    let mut text = Vec::new();
    for i in 1..=count {
        let line = match row(i) {
            Arg::Str(line) => line,
            other => {
                return Err(format!(
                    "{name}[{i}] must be a string, got {}",
                    other.type_name()
                ))
            }
        };
        if line.contains(&b'\n') {
            return Err(format!("{name}[{i}] must be one row, without a newline"));
        }
        let newline = usize::from(i > 1);
        let length = text.len() + newline + line.len();
        if length > max {
            return Err(format!(
                "{name} must be at most {max} bytes, its rows joined by newlines: {length} bytes by row {i}"
            ));
        }
        if newline == 1 {
            text.push(b'\n');
        }
        text.extend_from_slice(line);
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn joined(rows: &[Arg], max: usize) -> Result<Vec<u8>, String> {
        join("sample", max, rows.len(), |i| rows[i - 1])
    }

    #[test]
    fn rows_are_joined_with_newlines_as_the_text_of_them() {
        let rows = [Arg::Str(b"###"), Arg::Str(b"#.#"), Arg::Str(b"###")];
        assert_eq!(joined(&rows, 11).unwrap(), b"###\n#.#\n###");
        assert_eq!(joined(&[], 11).unwrap(), b"");
    }

    #[test]
    fn the_bound_counts_the_newlines() {
        let rows = [Arg::Str(b"###"), Arg::Str(b"#.#"), Arg::Str(b"###")];
        assert_eq!(
            joined(&rows, 10).unwrap_err(),
            "sample must be at most 10 bytes, its rows joined by newlines: 11 bytes by row 3"
        );
        let empty = vec![Arg::Str(b""); 12];
        assert!(joined(&empty[..11], 10).is_ok());
        assert!(joined(&empty, 10).unwrap_err().contains("at most 11 rows"));
    }

    #[test]
    fn an_entry_that_is_not_one_row_is_named() {
        let rows = [Arg::Str(b"#"), Arg::Int(3)];
        assert_eq!(
            joined(&rows, 99).unwrap_err(),
            "sample[2] must be a string, got number"
        );
        let hole = [Arg::Str(b"#"), Arg::Missing, Arg::Str(b"#")];
        assert_eq!(
            joined(&hole, 99).unwrap_err(),
            "sample[2] must be a string, got nil"
        );
        let two = [Arg::Str(b"#\n#")];
        assert_eq!(
            joined(&two, 99).unwrap_err(),
            "sample[1] must be one row, without a newline"
        );
    }

    #[test]
    fn the_options_that_take_rows_are_the_example_generators_maps() {
        assert_eq!(
            rows_bound("sample"),
            Some(crate::generators::example::MAX_TEXT)
        );
        assert_eq!(
            rows_bound("fixed"),
            Some(crate::generators::example::MAX_TEXT)
        );
        assert_eq!(rows_bound("symmetry"), None);
        assert_eq!(rows_bound("rooms"), None);
        assert_eq!(rows_bound("nonesuch"), None);
    }
}
