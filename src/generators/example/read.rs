//! The sample read: its rows, its characters (`@ > $ ! <` read as floor)
//! and the character the level's border is made of.

use super::{MAX_SAMPLE_SIDE, SAMPLES};
use crate::grid::{byte_set, FLOOR};

/// Rows of text: split at newlines (one at the end ignored, `\r` before
/// one dropped), each checked to be printable ASCII, all of one length.
pub fn rows<'a>(name: &str, text: &'a [u8]) -> Result<Vec<&'a [u8]>, String> {
    let text = text.strip_suffix(b"\n").unwrap_or(text);
    if text.is_empty() {
        return Err(format!("{name} is empty"));
    }
    let rows: Vec<&[u8]> = text
        .split(|&c| c == b'\n')
        .map(|r| r.strip_suffix(b"\r").unwrap_or(r))
        .collect();
    for (y, row) in rows.iter().enumerate() {
        if let Some(x) = row.iter().position(|&c| !(b'!'..=b'~').contains(&c)) {
            return Err(format!(
                "{name}: row {} column {} is not a printable character (byte {})",
                y + 1,
                x + 1,
                row[x]
            ));
        }
        if row.len() != rows[0].len() {
            return Err(format!(
                "{name}: row {} has {} characters, row 1 has {}",
                y + 1,
                row.len(),
                rows[0].len()
            ));
        }
    }
    Ok(rows)
}

/// The sample as characters, `@ > $ ! <` read as floor, with its border
/// character.
pub struct Read {
    pub width: usize,
    pub height: usize,
    pub cells: Vec<u8>,
    pub border: u8,
    /// Whether the sample's edge is its border character all round: the
    /// only samples read before the repair existed.
    pub bordered: bool,
}

/// The sample's text and its blocking characters: a built-in sample's by
/// its name, else the text given and `#`; `blocking` given overrides them.
pub fn sample_text<'a>(text: &'a [u8], blocking: &'a [u8]) -> (&'a [u8], &'a [u8]) {
    let (text, own) = SAMPLES
        .iter()
        .find(|(name, ..)| name.as_bytes() == text)
        .map_or((text, &b"#"[..]), |(_, b, s)| (s.as_bytes(), b.as_bytes()));
    (text, if blocking.is_empty() { own } else { blocking })
}

/// The level's border: the sample's edge when that is one blocking
/// character all round (the only samples read before a sample without
/// such an edge was accepted, so their levels are as they were), else
/// the first of `blocking` the sample has.
fn border(cells: &[u8], (width, height): (usize, usize), blocking: &[u8]) -> Option<(u8, bool)> {
    let on_edge = |i: usize| {
        let (x, y) = (i % width, i / width);
        x == 0 || y == 0 || x + 1 == width || y + 1 == height
    };
    let edge = cells[0];
    let whole = (0..cells.len()).all(|i| !on_edge(i) || cells[i] == edge);
    if whole && blocking.contains(&edge) {
        return Some((edge, true));
    }
    let first = blocking.iter().copied().find(|c| cells.contains(c));
    first.map(|c| (c, false))
}

pub fn read_sample(text: &[u8], n: usize, blocking: &[u8]) -> Result<Read, String> {
    let blocked = byte_set(blocking);
    let rows = rows("sample", text)?;
    let (width, height) = (rows[0].len(), rows.len());
    if width > MAX_SAMPLE_SIDE || height > MAX_SAMPLE_SIDE {
        return Err(format!(
            "sample is {width}x{height}: at most {MAX_SAMPLE_SIDE}x{MAX_SAMPLE_SIDE}"
        ));
    }
    if width < n || height < n {
        return Err(format!(
            "sample is {width}x{height}, smaller than its {n}x{n} windows"
        ));
    }
    let cells: Vec<u8> = rows
        .concat()
        .into_iter()
        .map(|c| match c {
            b'@' | b'>' | b'<' | b'$' | b'!' => FLOOR,
            c => c,
        })
        .collect();
    let (border, bordered) = border(&cells, (width, height), blocking).ok_or_else(|| {
        format!(
            "sample has none of its blocking characters ({:?}), which the level's border is made of",
            String::from_utf8_lossy(blocking)
        )
    })?;
    if !cells.contains(&FLOOR) || blocked[FLOOR as usize] {
        return Err("sample must have floor '.' (not blocking), for @ and >".into());
    }
    Ok(Read {
        width,
        height,
        cells,
        border,
        bordered,
    })
}
