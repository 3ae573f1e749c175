//! Autotile masks: for each cell of a class (walls, say), which of its
//! eight neighbours are of the class too, so that a game can pick the tile
//! that joins them (bitmask autotiling).
//!
//! Bits: N = 1, NE = 2, E = 4, SE = 8, S = 16, SW = 32, W = 64, NW = 128,
//! north being row `y - 1`. In the "blob" form a diagonal bit counts only
//! when both orthogonal bits beside it are set (a corner tile only where
//! both of its sides join), which leaves 47 distinct masks; `BLOB` lists
//! them in ascending order, so that a 47-tile atlas is indexed by rank.

use crate::grid::{ByteSet, Grid};

pub const N: u8 = 1;
pub const NE: u8 = 2;
pub const E: u8 = 4;
pub const SE: u8 = 8;
pub const S: u8 = 16;
pub const SW: u8 = 32;
pub const W: u8 = 64;
pub const NW: u8 = 128;

/// Which bits a mask keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Diagonals only between two set orthogonal bits: 47 masks.
    Blob,
    /// All eight bits as they are: 256 masks.
    Eight,
    /// N, E, S and W only: 16 masks.
    Four,
}

/// What to compute.
#[derive(Clone, Debug)]
pub struct Autotile {
    /// The characters of the class.
    pub class: ByteSet,
    pub mode: Mode,
    /// Cells off the map count as in the class (walls join the border).
    pub edge: bool,
    /// With `Mode::Blob`: each mask's rank in `BLOB` instead of the mask.
    pub index: bool,
}

/// The 47 masks of the blob form, ascending.
pub const BLOB: [u8; 47] = blob_masks();

/// Each blob mask's rank in `BLOB` (other bytes: never looked up).
const RANK: [u8; 256] = ranks();

/// A mask with each diagonal bit kept only if both bits beside it are set.
const fn blob(mask: u8) -> u8 {
    let mut kept = mask & (N | E | S | W);
    let corners = [(NE, N, E), (SE, S, E), (SW, S, W), (NW, N, W)];
    let mut i = 0;
    while i < corners.len() {
        let (corner, a, b) = corners[i];
        if mask & corner != 0 && mask & a != 0 && mask & b != 0 {
            kept |= corner;
        }
        i += 1;
    }
    kept
}

const fn blob_masks() -> [u8; 47] {
    let mut masks = [0; 47];
    let (mut n, mut m) = (0, 0);
    while m < 256 {
        if blob(m as u8) == m as u8 {
            masks[n] = m as u8;
            n += 1;
        }
        m += 1;
    }
    assert!(n == 47, "the blob form has 47 masks");
    masks
}

const fn ranks() -> [u8; 256] {
    let mut rank = [0; 256];
    let mut i = 0;
    while i < BLOB.len() {
        rank[BLOB[i] as usize] = i as u8;
        i += 1;
    }
    rank
}

/// Per cell of `grid`, row-major: the cell's mask (or rank), or `None`
/// for a cell not of the class. One pass over a padded copy of the class.
pub fn masks(grid: &Grid, tile: &Autotile) -> Vec<Option<u8>> {
    let (w, h) = (grid.width(), grid.height());
    let stride = w + 2;
    let mut class = vec![u8::from(tile.edge); stride * (h + 2)];
    for (y, row) in grid.rows().enumerate() {
        let start = (y + 1) * stride + 1;
        for (slot, &c) in class[start..start + w].iter_mut().zip(row) {
            *slot = u8::from(tile.class[c as usize]);
        }
    }
    // The neighbours' offsets in bit order, N first.
    let s = stride as isize;
    let around = [-s, 1 - s, 1, 1 + s, s, s - 1, -1, -1 - s];
    let mut out = Vec::with_capacity(w * h);
    for y in 1..=h {
        for x in 1..=w {
            let i = y * stride + x;
            if class[i] == 0 {
                out.push(None);
                continue;
            }
            let mut mask = 0u8;
            for (bit, &d) in around.iter().enumerate() {
                mask |= class[i.wrapping_add_signed(d)] << bit;
            }
            let mask = match tile.mode {
                Mode::Eight => mask,
                Mode::Four => mask & (N | E | S | W),
                Mode::Blob if tile.index => RANK[blob(mask) as usize],
                Mode::Blob => blob(mask),
            };
            out.push(Some(mask));
        }
    }
    out
}

/// The memory `autotile` may use: the map's copy, the class (a byte a
/// padded cell), the masks (2 bytes a cell), the rows they are pushed from
/// (a `u64` a cell) and, on LuaJIT's route, the masks again as bytes.
pub fn bound(size: (usize, usize)) -> usize {
    13 * size.0 * size.1 + super::board::padded(size) + crate::memory::FIXED
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::byte_set;

    fn walls(mode: Mode, edge: bool) -> Autotile {
        Autotile {
            class: byte_set(b"#"),
            mode,
            edge,
            index: false,
        }
    }

    #[test]
    fn the_blob_form_has_47_masks_ascending() {
        assert_eq!(BLOB.len(), 47);
        assert!(BLOB.windows(2).all(|p| p[0] < p[1]));
        assert_eq!((BLOB[0], BLOB[46]), (0, 255));
        assert!(BLOB.iter().all(|&m| blob(m) == m));
        assert_eq!(RANK[255], 46);
    }

    #[test]
    fn bits_follow_the_compass() {
        // The centre wall of a 3x3 map: one neighbour at a time.
        let expect = [
            (N, 1, 0),
            (NE, 2, 0),
            (E, 2, 1),
            (SE, 2, 2),
            (S, 1, 2),
            (SW, 0, 2),
            (W, 0, 1),
            (NW, 0, 0),
        ];
        for (bit, x, y) in expect {
            let mut cells = *b".........";
            cells[4] = b'#';
            cells[y * 3 + x] = b'#';
            let g = Grid::from_cells(3, 3, cells.to_vec());
            let m = masks(&g, &walls(Mode::Eight, false));
            assert_eq!(m[4], Some(bit), "bit {bit}");
        }
    }

    #[test]
    fn modes_and_edges() {
        let g = Grid::from_rows(&["##.", "#..", "..."]);
        // (1,1) has E and S (its SE neighbour is floor); (2,2) is no wall.
        let eight = masks(&g, &walls(Mode::Eight, false));
        assert_eq!(eight[0], Some(E | S));
        assert_eq!(eight[4], None);
        assert_eq!(eight[1], Some(W | SW));
        // Blob drops a corner without both sides; four drops all corners.
        assert_eq!(masks(&g, &walls(Mode::Blob, false))[1], Some(W));
        assert_eq!(masks(&g, &walls(Mode::Four, false))[1], Some(W));
        // With the edge, the corner wall joins the border on its two outer sides.
        let edged = masks(&g, &walls(Mode::Eight, true));
        assert_eq!(edged[0], Some(N | NE | E | S | SW | W | NW));
        // Each of its corners lies between two set sides, SE excepted.
        assert_eq!(masks(&g, &walls(Mode::Blob, true))[0], edged[0]);
        assert_eq!(masks(&g, &walls(Mode::Four, true))[0], Some(N | E | S | W));
    }

    #[test]
    fn index_is_the_rank() {
        let g = Grid::new(3, 3, b'#');
        let tile = Autotile {
            index: true,
            ..walls(Mode::Blob, true)
        };
        assert!(masks(&g, &tile).iter().all(|&m| m == Some(46)));
        let tile = Autotile {
            index: true,
            ..walls(Mode::Blob, false)
        };
        let m = masks(&g, &tile);
        assert_eq!(m[4], Some(46));
        assert_eq!(m[0], Some(RANK[(E | SE | S) as usize]));
    }
}
