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

/// Whether `to`, a cell that is not opaque, is visible from `from`: what
/// `visible` says, from the cells along the ray between their centres
/// alone, asked of `cell` in order of depth (so that a caller reads only
/// those, and only up to the first that blocks).
///
/// In the quadrant holding the target at depth `D` and column `c` (two on
/// a diagonal), the scan lights the slope `s = c / D` at depth `D` when the
/// span holding `s` survives every row before. At depth `d` the ray is at
/// column `d * s`: between tiles, the tile there must be transparent (it
/// is inside the span, and a wall there would split `s` out); at an exact
/// half, between tiles `k` and `k + 1`, `s` survives if either is, but a
/// wall on one side makes the other's edge, at `s` itself, the span's
/// start or end, and from then on the tile beyond that edge at each half
/// is outside the span. `tests/turns.rs` checks this against `fov` on
/// every pair of cells of a few hundred maps.
pub fn along<E>(
    from: Pos,
    to: Pos,
    radius: Option<usize>,
    opaque: &ByteSet,
    mut cell: impl FnMut(Pos) -> Result<u8, E>,
) -> Result<bool, E> {
    let (dx, dy) = (to.x as i64 - from.x as i64, to.y as i64 - from.y as i64);
    if let Some(r) = radius {
        let r = r as i128;
        if i128::from(dx * dx + dy * dy) > r * (r + 1) {
            return Ok(false);
        }
    }
    // Per quadrant: the target's depth and column, and the map cell of a
    // tile (depth, column): north, east, south, west as `fov` orders them.
    let quadrants: [(i64, i64, Tile); 4] = [
        (-dy, dx, |d, c| (c, -d)),
        (dx, dy, |d, c| (d, c)),
        (dy, dx, |d, c| (c, d)),
        (-dx, dy, |d, c| (-d, c)),
    ];
    if (dx, dy) == (0, 0) {
        return Ok(true);
    }
    for (depth, col, tile) in quadrants {
        if depth > 0 && col.abs() <= depth {
            let mut blocks = |d: i64, k: i64| {
                let (x, y) = tile(d, k);
                let p = Pos {
                    x: (from.x as i64 + x) as usize,
                    y: (from.y as i64 + y) as usize,
                };
                cell(p).map(|c| opaque[c as usize])
            };
            if ray(depth, col, &mut blocks)? {
                return Ok(true);
            }
        }
    }
    Ok(false)
}

/// A tile (depth, column) of a quadrant as an offset from the origin.
type Tile = fn(i64, i64) -> (i64, i64);

/// Whether the slope `col / depth` survives every row before `depth`,
/// `blocks(d, k)` saying whether tile `k` of row `d` is opaque.
fn ray<E>(
    depth: i64,
    col: i64,
    blocks: &mut impl FnMut(i64, i64) -> Result<bool, E>,
) -> Result<bool, E> {
    // Whether the span's start (end) is the slope itself: it starts at -1
    // and ends at 1.
    let (mut at_start, mut at_end) = (col == -depth, col == depth);
    for d in 1..depth {
        let (twice, den) = (2 * d * col, depth);
        if twice % (2 * den) == 0 {
            if blocks(d, d * col / depth)? {
                return Ok(false);
            }
        } else if twice % den == 0 {
            // Exactly between tiles k and k + 1.
            let k = (twice / den - 1).div_euclid(2);
            if at_start && at_end {
                return Ok(false);
            }
            if at_start || at_end {
                let beyond = if at_start { k + 1 } else { k };
                if blocks(d, beyond)? {
                    return Ok(false);
                }
                continue;
            }
            match (blocks(d, k)?, blocks(d, k + 1)?) {
                (true, true) => return Ok(false),
                (true, false) => at_start = true,
                (false, true) => at_end = true,
                (false, false) => {}
            }
        } else {
            // The nearest tile: floor(d * col / depth + 1/2).
            let k = (twice + den).div_euclid(2 * den);
            if blocks(d, k)? {
                return Ok(false);
            }
        }
    }
    Ok(true)
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
    fn the_ray_alone_answers_for_transparent_targets() {
        let g = Grid::from_rows(&[
            "......#....",
            "...#.......",
            "....#..#...",
            ".#.....#...",
            "......##...",
            "..#........",
        ]);
        let opaque = byte_set(b"#");
        for (i, _) in g.cells().iter().enumerate() {
            let from = g.pos(i);
            for radius in [None, Some(3)] {
                let seen = fov::visible(&g, from, radius, &opaque);
                for (j, &s) in seen
                    .iter()
                    .enumerate()
                    .filter(|&(j, _)| g.cells()[j] != b'#')
                {
                    let to = g.pos(j);
                    let got = along(from, to, radius, &opaque, |p| Ok::<u8, ()>(g.get(p)));
                    assert_eq!(got, Ok(s), "{from:?} {to:?} {radius:?}");
                }
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
