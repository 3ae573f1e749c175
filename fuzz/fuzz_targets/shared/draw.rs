//! Arbitrary grids, character sets and walking costs, shared by the fuzz
//! targets that draw them (each includes this file with `#[path]`).

use libfuzzer_sys::arbitrary::{Result, Unstructured};

use map::grid::{byte_set, ByteSet, Grid};
use map::toolkit::board::{Walk, MAX_COST};

/// A grid of at most `longest` cells in a line (1 x n or n x 1), else up to
/// 64 x 64: raw bytes, or walls in a drawn share and `chars[1..]` elsewhere
/// (`chars[0]` is the wall, `#`).
pub fn grid(u: &mut Unstructured, chars: &[u8], longest: usize) -> Result<Grid> {
    let (w, h) = match u.int_in_range(0..=9u8)? {
        0 => (1, u.int_in_range(1..=longest)?),
        1 => (u.int_in_range(1..=longest)?, 1),
        2..=4 => (u.int_in_range(1..=8)?, u.int_in_range(1..=8)?),
        _ => (u.int_in_range(1..=64)?, u.int_in_range(1..=64)?),
    };
    let raw = u.ratio(1, 8)?;
    let walls: u8 = u.int_in_range(0..=100)?;
    let mut cells = Vec::with_capacity(w * h);
    for _ in 0..w * h {
        let b: u8 = u.arbitrary().unwrap_or(0);
        cells.push(if raw {
            b
        } else if u32::from(b) * 100 < u32::from(walls) * 256 {
            b'#'
        } else {
            chars[1 + b as usize % (chars.len() - 1)]
        });
    }
    Ok(Grid::from_cells(w, h, cells))
}

/// A set of characters: `#`, none, `#` and some of `chars[1..]`, or any
/// few bytes.
pub fn byte_set_of(u: &mut Unstructured, chars: &[u8]) -> Result<ByteSet> {
    Ok(match u.int_in_range(0..=3u8)? {
        0 => byte_set(b"#"),
        1 => [false; 256],
        2 => {
            let mut set = byte_set(b"#");
            for &c in &chars[1..] {
                set[c as usize] = u.ratio(1, 4)?;
            }
            set
        }
        _ => {
            let n = u.int_in_range(0..=8)?;
            byte_set(u.bytes(n)?)
        }
    })
}

/// Costs of entering each byte: small, or (one time in four) up to
/// `MAX_COST`.
fn costs(u: &mut Unstructured) -> Result<Box<[u64; 256]>> {
    let mut cost = Box::new([1; 256]);
    let big = u.ratio(1, 4)?;
    for c in cost.iter_mut() {
        *c = if big {
            u.int_in_range(1..=MAX_COST)?
        } else {
            u.int_in_range(1..=9)?
        };
    }
    Ok(cost)
}

/// A walk: its blocked characters, diagonal or not, and costs when
/// `with_costs` (drawn after the first two) says so.
pub fn walk(
    u: &mut Unstructured,
    chars: &[u8],
    with_costs: impl FnOnce(&mut Unstructured) -> Result<bool>,
) -> Result<Walk> {
    let blocked = byte_set_of(u, chars)?;
    let diagonal = u.arbitrary()?;
    let cost = if with_costs(u)? {
        Some(costs(u)?)
    } else {
        None
    };
    Ok(Walk {
        blocked,
        diagonal,
        cost,
    })
}
