//! Auto-explore: the way to the nearest cell at the edge of what a game
//! knows of its map.

use super::board::{Limits, Walk, BEYOND, DIRECTIONS};
use super::distances::distances_from;
use super::path::path_within;
use crate::grid::{Grid, Pos};

/// The path (start included) to the nearest frontier cell from `start`,
/// walking only the cells `known` (row-major over `grid`) marks and
/// `avoided` (row-major, or empty: none) does not; `None` when no frontier
/// cell can be reached (the map is explored as far as it can be).
///
/// A frontier cell is known, can be entered (its character is not blocked
/// and it is not avoided), and has a neighbour inside the grid (one of 4,
/// or of 8 with `walk.diagonal`) that is not known. The nearest is the one
/// with the least distance from `start` (`distances_from` with the unknown
/// and avoided cells closed), the first in row order on a tie; the path to
/// it is `path_within`'s with the same walk and closed cells. The start is
/// always allowed, known or not, and is its own target when it is a
/// frontier cell.
pub fn explore(
    grid: &Grid,
    known: &[bool],
    start: Pos,
    walk: &Walk,
    avoided: &[bool],
) -> Option<Vec<Pos>> {
    explore_within(grid, known, start, walk, avoided, None)
}

/// `explore` among the frontier cells at most `max` from the start (all
/// without `max`). So that a game's map need not be read whole: on the
/// window of cells within `r` of the start along each axis, with `max =
/// r - 1`, the answer is the map's whenever there is one (a walk costing
/// `d` stays within `d` of the start, and a cell within `r - 1` has all its
/// neighbours in the window), and `None` says to try a larger window.
pub fn explore_within(
    grid: &Grid,
    known: &[bool],
    start: Pos,
    walk: &Walk,
    avoided: &[bool],
    max: Option<i64>,
) -> Option<Vec<Pos>> {
    let is_avoided = |i: usize| avoided.get(i) == Some(&true);
    let limits = Limits {
        closed: (0..known.len())
            .map(|i| !known[i] || is_avoided(i))
            .collect(),
        max,
    };
    let d = distances_from(grid, &[start.into()], walk, &limits);
    let (w, h) = (grid.width() as isize, grid.height() as isize);
    let n = if walk.diagonal { 8 } else { 4 };
    let frontier = |i: usize| {
        let (x, y) = ((i % grid.width()) as isize, (i / grid.width()) as isize);
        known[i]
            && !is_avoided(i)
            && !walk.blocked[grid.cells()[i] as usize]
            && DIRECTIONS[..n].iter().any(|&(dx, dy)| {
                let (nx, ny) = (x + dx, y + dy);
                (0..w).contains(&nx) && (0..h).contains(&ny) && !known[(ny * w + nx) as usize]
            })
    };
    let target = (0..d.len())
        .filter(|&i| d[i] != BEYOND && frontier(i))
        .min_by_key(|&i| (d[i], i))?;
    drop(d);
    let path = path_within(grid, start, grid.pos(target), walk, &limits);
    Some(path.expect("the search reached the target"))
}

/// The memory `explore` over a window of `size` may use: the map's copy,
/// the known and avoided cells as read and as one closed mask (a byte
/// each), the distances from the start, and the path to the frontier cell.
pub fn bound(size: (usize, usize), weighted: bool) -> usize {
    let cells = size.0 * size.1;
    4 * cells + super::distances::bound(size, 1, weighted) + super::path::bound(size, weighted)
}

/// The memory `explore`'s avoided cells of a map of `size` take, read once
/// for all its windows: a bit each.
pub fn bound_avoided(size: (usize, usize)) -> usize {
    (size.0 * size.1).div_ceil(64) * 8 + crate::memory::FIXED
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::Rect;

    fn at(x: usize, y: usize) -> Pos {
        Pos { x, y }
    }

    /// A mask from rows of `k` (known) and `-` (not).
    fn mask(rows: &[&str], on: u8) -> Vec<bool> {
        rows.concat().bytes().map(|b| b == on).collect()
    }

    #[test]
    fn walks_known_cells_to_the_nearest_frontier() {
        let g = Grid::from_rows(&["......", "......", "......"]);
        let known = mask(&["kkkk--", "kkkk--", "kkkk--"], b'k');
        let p = explore(&g, &known, at(1, 2), &Walk::new(), &[]).unwrap();
        assert_eq!(p, [at(1, 2), at(2, 2), at(3, 2), at(4, 2)]);
        // (4,1), (5,2) and (4,3) are all 4 away: (4,1) is first in row order.
        let known = mask(&["kkkk--", "kkkkk-", "kkkk--"], b'k');
        let p = explore(&g, &known, at(1, 2), &Walk::new(), &[]).unwrap();
        assert_eq!(p.last(), Some(&at(4, 1)));
        assert_eq!(p.len(), 5);
        assert!(p.iter().all(|c| known[g.index(*c)]));
    }

    #[test]
    fn a_start_on_the_frontier_is_its_own_path() {
        let g = Grid::new(3, 1, b'.');
        let known = mask(&["kk-"], b'k');
        assert_eq!(
            explore(&g, &known, at(2, 1), &Walk::new(), &[]),
            Some(vec![at(2, 1)])
        );
    }

    #[test]
    fn everything_known_or_unreachable_is_explored() {
        let g = Grid::from_rows(&["..#.."]);
        assert_eq!(explore(&g, &[true; 5], at(1, 1), &Walk::new(), &[]), None);
        // (5,1) is not known, but the wall between is: nothing to reach.
        let known = mask(&["kkkk-"], b'k');
        assert_eq!(explore(&g, &known, at(1, 1), &Walk::new(), &[]), None);
        // An avoided cell is not walked.
        let g = Grid::new(4, 1, b'.');
        let known = mask(&["kkk-"], b'k');
        let avoided = mask(&["-a--"], b'a');
        assert_eq!(explore(&g, &known, at(1, 1), &Walk::new(), &avoided), None);
    }

    #[test]
    fn a_window_answers_as_the_map_does_or_not_at_all() {
        let g = Grid::new(30, 30, b'.');
        let known: Vec<bool> = (0..900).map(|i| i % 30 < 12 && i / 30 < 12).collect();
        let start = at(3, 3);
        let whole = explore(&g, &known, start, &Walk::new(), &[]).unwrap();
        for r in 1..14 {
            let w = Rect::around(start, r, (30, 30));
            let window = Grid::new(w.w, w.h, b'.');
            let known_in: Vec<bool> = (0..w.w * w.h)
                .map(|k| known[(w.x - 1 + k % w.w) + (w.y - 1 + k / w.w) * 30])
                .collect();
            let max = Some(r as i64 - 1);
            let got = explore_within(&window, &known_in, w.inside(start), &Walk::new(), &[], max);
            let got = got.map(|p| p.iter().map(|&c| w.outside(c)).collect::<Vec<_>>());
            // The frontier is 9 steps away, in row 12 or column 12.
            assert_eq!(got, (r > 9).then(|| whole.clone()), "r {r}");
        }
    }

    #[test]
    fn diagonal_neighbours_count_only_with_diagonal() {
        let g = Grid::from_rows(&["...", "...", "..."]);
        let known = mask(&["kkk", "kkk", "kk-"], b'k');
        let four = explore(&g, &known, at(1, 1), &Walk::new(), &[]).unwrap();
        assert_eq!(four.last(), Some(&at(3, 2)));
        let eight = explore(&g, &known, at(1, 1), &Walk::diagonal(), &[]).unwrap();
        assert_eq!(eight.last(), Some(&at(2, 2)));
    }
}
