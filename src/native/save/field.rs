//! A field's saved form (`save.rs`'s frame with the magic `MAPFIELD`):
//! its kind (0: values in 4 bytes, 1: in 8, 2: flags), the map's width and
//! height, its window (x, y, w, h), then its cells.

use super::{framed, read_bits, In, FIELD_MAGIC, HEADER, TRUNCATED, VERSION};
use crate::input::MAX_CELLS;
use crate::native::field::{Cells, Field};
use crate::native::Bits;
use crate::toolkit::board::{BEYOND, MAX_VALUE};

/// The bytes `save_field` writes for `field`.
pub fn field_bound(field: &Field) -> usize {
    let cells = match &field.cells {
        Cells::Flags(f) => f.len().div_ceil(64) * 8,
        // Saved in one window (`Field::in_one_window`), 8 bytes a value
        // when a part needs them.
        Cells::Parts(parts) => {
            let wide = parts.iter().any(|f| matches!(f.cells, Cells::Wide(_)));
            field.window.w * field.window.h * if wide { 8 } else { 4 }
        }
        _ => field.bytes(),
    };
    HEADER + 8 + 1 + 24 + cells
}

/// A field's saved form: its kind (0: values in 4 bytes, 1: in 8, 2:
/// flags), the map's width and height, its window (x, y, w, h), then its
/// cells: each value little-endian (`i32::MIN` or `i64::MAX` unreached),
/// or the flags 64 cells a word.
pub fn save_field(field: &Field) -> Vec<u8> {
    let kind = match &field.cells {
        Cells::Narrow(_) => 0,
        Cells::Wide(_) => 1,
        Cells::Flags(_) => 2,
        // Saved as one window of values, as before fields had parts.
        Cells::Parts(_) => return save_field(&field.in_one_window()),
    };
    framed(FIELD_MAGIC, VERSION, field_bound(field), |out| {
        out.0.push(kind);
        out.u32(field.size.0);
        out.u32(field.size.1);
        out.rect(field.window);
        match &field.cells {
            Cells::Narrow(v) => v.iter().for_each(|n| out.0.extend(n.to_le_bytes())),
            Cells::Wide(v) => v.iter().for_each(|n| out.0.extend(n.to_le_bytes())),
            // Word by word: no copy of the bits beside the output.
            Cells::Flags(f) => f
                .chunks(64)
                .for_each(|c| out.0.extend(Bits::word(c).to_le_bytes())),
            Cells::Parts(_) => {}
        }
    })
}

pub(super) fn read_field(bytes: &[u8]) -> Result<Field, String> {
    let mut r = In {
        bytes,
        size: (0, 0),
    };
    let kind = r.u8()?;
    let (w, h) = (r.u32()?, r.u32()?);
    if w == 0 || h == 0 || w.saturating_mul(h) > MAX_CELLS {
        return Err("field has a bad size".into());
    }
    r.size = (w, h);
    let window = r.rect()?;
    let n = window.w * window.h;
    let cells = match kind {
        0 => Cells::Narrow(
            r.take(n.saturating_mul(4))?
                .chunks_exact(4)
                .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect(),
        ),
        1 => {
            let values: Vec<i64> = r
                .take(n.saturating_mul(8))?
                .chunks_exact(8)
                .map(|c| i64::from_le_bytes(c.try_into().expect("8 bytes")))
                .collect();
            if values
                .iter()
                .any(|&v| v != BEYOND && v.unsigned_abs() > MAX_VALUE as u64)
            {
                return Err("field has a value beyond 2^53".into());
            }
            Cells::Wide(values)
        }
        2 => {
            let bits = read_bits(&mut r, n)?;
            Cells::Flags((0..n).map(|i| bits.get(i)).collect())
        }
        _ => return Err("field of an unknown kind".into()),
    };
    if !r.bytes.is_empty() {
        return Err(TRUNCATED.into());
    }
    Ok(Field {
        size: (w, h),
        window,
        cells,
    })
}
