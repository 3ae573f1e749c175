//! Line of sight between two cells: `fov`'s answer for one cell, from the
//! cells between the two only.

use std::borrow::Cow;

use super::fov;
use crate::grid::{ByteSet, Grid, Pos};

/// The rectangle with `a` and `b` at opposite corners: its top-left cell
/// and its width and height.
pub fn between(a: Pos, b: Pos) -> (Pos, (usize, usize)) {
    let corner = Pos {
        x: a.x.min(b.x),
        y: a.y.min(b.y),
    };
    (corner, (a.x.abs_diff(b.x) + 1, a.y.abs_diff(b.y) + 1))
}

/// Whether `to` is in `fov::visible(grid, from, radius, opaque)`, found by
/// that same scan on the rectangle `between(from, to)` alone.
///
/// Why that is the same: the scan lights a cell of depth `D` and column
/// `c` (in the quadrant holding it) when, at every depth `d < D` before it,
/// the cell at column `d * c / D` (either one at an exact half) is not
/// opaque; for an opaque target, any slope across its width. Those columns
/// lie between 0 and `c`, so every cell that decides it is in the
/// rectangle, and the cells outside it, to the scan, are outside the grid:
/// the slopes the grid's edge gives lean away and hide nothing within.
/// `tests/turns.rs` checks it against `fov` on every pair of cells of a few
/// hundred maps.
pub fn visible(grid: &Grid, from: Pos, to: Pos, radius: Option<usize>, opaque: &ByteSet) -> bool {
    let (corner, (w, h)) = between(from, to);
    let window = if (w, h) == (grid.width(), grid.height()) {
        Cow::Borrowed(grid)
    } else {
        let mut cells = Vec::with_capacity(w * h);
        for row in grid.rows().skip(corner.y - 1).take(h) {
            cells.extend_from_slice(&row[corner.x - 1..corner.x - 1 + w]);
        }
        Cow::Owned(Grid::from_cells(w, h, cells))
    };
    let inside = |p: Pos| Pos {
        x: p.x - corner.x + 1,
        y: p.y - corner.y + 1,
    };
    let seen = fov::visible(&window, inside(from), radius, opaque);
    seen[window.index(inside(to))]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::byte_set;

    fn at(x: usize, y: usize) -> Pos {
        Pos { x, y }
    }

    #[test]
    fn equals_fov_on_a_small_map() {
        let g = Grid::from_rows(&[
            "...........",
            "...#.......",
            "....#..#...",
            ".#.........",
            "......##...",
        ]);
        let opaque = byte_set(b"#");
        for (i, _) in g.cells().iter().enumerate() {
            let from = g.pos(i);
            let seen = fov::visible(&g, from, None, &opaque);
            let near = fov::visible(&g, from, Some(3), &opaque);
            for (j, (&s, &n)) in seen.iter().zip(&near).enumerate() {
                let to = g.pos(j);
                assert_eq!(visible(&g, from, to, None, &opaque), s, "{from:?} {to:?}");
                assert_eq!(
                    visible(&g, from, to, Some(3), &opaque),
                    n,
                    "{from:?} {to:?} r3"
                );
            }
        }
    }

    #[test]
    fn a_wall_between_hides_and_the_cell_itself_is_seen() {
        let g = Grid::from_rows(&[".#."]);
        let opaque = byte_set(b"#");
        assert!(!visible(&g, at(1, 1), at(3, 1), None, &opaque));
        assert!(visible(&g, at(1, 1), at(2, 1), None, &opaque));
        assert!(visible(&g, at(2, 1), at(2, 1), Some(0), &opaque));
    }
}
