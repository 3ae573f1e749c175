//! Auto-explore: the way to the nearest cell at the edge of what a game
//! knows of its map.

use super::board::{Limits, Walk, BEYOND, DIRECTIONS};
use super::distances::distances_from;
use super::path::path_within;
use crate::grid::{Grid, Pos, Rect};

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
    // Unknown and avoided cells closed (`avoided` is as long as `known`,
    // or empty).
    let closed = match avoided.is_empty() {
        true => known.iter().map(|&k| !k).collect(),
        false => known.iter().zip(avoided).map(|(&k, &a)| !k || a).collect(),
    };
    let limits = Limits { closed, max };
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
    // The least (distance, index): a cell is asked whether it is on the
    // frontier only when it is nearer than the best found before it.
    let mut target: Option<(i64, usize)> = None;
    for (i, &di) in d.iter().enumerate() {
        if di != BEYOND && target.is_none_or(|(best, _)| di < best) && frontier(i) {
            target = Some((di, i));
        }
    }
    let (_, target) = target?;
    drop(d);
    let path = path_within(grid, start, grid.pos(target), walk, &limits);
    Some(path.expect("the search reached the target"))
}

/// What a caller of `explore_within` has read of a map for its windows
/// (the map's cells, the known or the avoided ones): the cells of one
/// window, row-major, grown to a window holding it by reading only the
/// cells it adds, so that no cell is read twice over the windows.
#[derive(Debug, Default)]
pub struct Kept<T> {
    /// The window read (none: an empty one).
    pub window: Option<Rect>,
    /// Its cells, row-major.
    pub cells: Vec<T>,
}

impl<T: Copy> Kept<T> {
    /// Grows what is kept to `to`, a window holding the kept one (any
    /// window when none is kept): `read(rect)` gives the cells of `rect`,
    /// row-major. The cells it adds are asked for in the row order of
    /// `to`'s cells (so that the first bad cell a reader meets is the first
    /// in row order, as if `to` were read whole): the rows above the kept
    /// window at once, then, row by row, the cells left and right of it,
    /// then the rows below at once. On an error nothing kept changes.
    pub fn grow<E>(
        &mut self,
        to: Rect,
        mut read: impl FnMut(Rect) -> Result<Vec<T>, E>,
    ) -> Result<(), E> {
        let Some(old) = self.window else {
            self.cells = read(to)?;
            self.window = Some(to);
            return Ok(());
        };
        debug_assert!(old.x >= to.x && old.y >= to.y);
        debug_assert!(old.x + old.w <= to.x + to.w && old.y + old.h <= to.y + to.h);
        let mut cells = Vec::with_capacity(to.w * to.h);
        let (above, below) = (old.y - to.y, to.y + to.h - (old.y + old.h));
        let (left, right) = (old.x - to.x, to.x + to.w - (old.x + old.w));
        if above > 0 {
            cells.extend(read(Rect::new(to.x, to.y, to.w, above))?);
        }
        for (k, row) in self.cells.chunks_exact(old.w.max(1)).enumerate() {
            if left > 0 {
                cells.extend(read(Rect::new(to.x, old.y + k, left, 1))?);
            }
            cells.extend_from_slice(row);
            if right > 0 {
                cells.extend(read(Rect::new(old.x + old.w, old.y + k, right, 1))?);
            }
        }
        if below > 0 {
            cells.extend(read(Rect::new(to.x, old.y + old.h, to.w, below))?);
        }
        self.cells = cells;
        self.window = Some(to);
        Ok(())
    }
}

/// The memory `explore` over a window of `size` may use: the map's copy,
/// the known and avoided cells as read and as one closed mask (a byte
/// each), the distances from the start, and the path to the frontier cell.
/// Growing a window (`Kept::grow`) holds the smaller one's cells and a band
/// of the larger one's as well, while no search's memory is held: less
/// than the search's.
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
    /// A few pseudo-random numbers below `n` (a linear congruential
    /// generator: the test needs no quality, only the same draws).
    fn draws(seed: &mut u64, n: usize) -> usize {
        *seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((*seed >> 33) % n as u64) as usize
    }

    #[test]
    fn a_kept_window_reads_each_cell_once_in_row_order() {
        let size = (40, 25);
        let start = at(7, 20);
        let mut kept = Kept::<usize>::default();
        let mut read = vec![0u8; size.0 * size.1];
        for r in [1, 2, 4, 8, 16, 32, 64] {
            let to = Rect::around(start, r, size);
            let mut last = None;
            kept.grow(to, |rect| -> Result<Vec<usize>, ()> {
                let cells: Vec<usize> =
                    rect.cells().map(|p| (p.y - 1) * size.0 + p.x - 1).collect();
                for &i in &cells {
                    read[i] += 1;
                    // Asked in row order of the window's cells.
                    assert!(last < Some(i), "{i} after {last:?}");
                    last = Some(i);
                }
                Ok(cells)
            })
            .unwrap();
            let whole: Vec<usize> = to.cells().map(|p| (p.y - 1) * size.0 + p.x - 1).collect();
            assert_eq!(kept.cells, whole, "r {r}");
        }
        assert!(read.iter().all(|&n| n == 1));
        // An error keeps what was kept.
        let mut kept = Kept::<u8>::default();
        kept.grow(Rect::new(2, 2, 1, 1), |_| Ok::<_, ()>(vec![7]))
            .unwrap();
        assert_eq!(kept.grow(Rect::new(1, 1, 3, 3), |_| Err(())), Err(()));
        assert_eq!(
            (kept.window, kept.cells),
            (Some(Rect::new(2, 2, 1, 1)), vec![7])
        );
    }

    /// `explore` as the binding runs it: windows of radius 2, 4, ... kept
    /// and grown, each searched with `explore_within` up to `r - 1`, the
    /// whole map last.
    fn explore_in_windows(
        grid: &Grid,
        known: &[bool],
        start: Pos,
        walk: &Walk,
        avoided: &[bool],
    ) -> Option<Vec<Pos>> {
        let size = (grid.width(), grid.height());
        let (mut cells, mut known_in, mut avoided_in) =
            (Kept::default(), Kept::default(), Kept::default());
        let in_map = |rect: Rect, all: &[bool]| -> Result<Vec<bool>, ()> {
            Ok(rect.cells().map(|p| all[grid.index(p)]).collect())
        };
        let mut r = 2;
        loop {
            let window = Rect::around(start, r, size);
            let whole = window == Rect::whole(size);
            known_in.grow(window, |rect| in_map(rect, known)).unwrap();
            avoided_in
                .grow(window, |rect| in_map(rect, avoided))
                .unwrap();
            cells
                .grow(window, |rect| -> Result<Vec<u8>, ()> {
                    Ok(rect.cells().map(|p| grid.get(p)).collect())
                })
                .unwrap();
            let g = Grid::from_cells(window.w, window.h, cells.cells.clone());
            let max = (!whole).then(|| r as i64 - 1);
            let found = explore_within(
                &g,
                &known_in.cells,
                window.inside(start),
                walk,
                &avoided_in.cells,
                max,
            );
            match found {
                Some(p) => return Some(p.iter().map(|&c| window.outside(c)).collect()),
                None if whole => return None,
                None => r *= 2,
            }
        }
    }

    #[test]
    fn kept_windows_answer_as_the_whole_map_does() {
        let (mut seed, mut far) = (34, 0);
        for case in 0..300 {
            let (w, h) = (1 + draws(&mut seed, 40), 1 + draws(&mut seed, 40));
            let cells: Vec<u8> = (0..w * h).map(|_| b"#..,,"[draws(&mut seed, 5)]).collect();
            let grid = Grid::from_cells(w, h, cells);
            // Known: a rectangle around a corner, with holes, or all but one.
            let (kw, kh) = (1 + draws(&mut seed, w), 1 + draws(&mut seed, h));
            let known: Vec<bool> = (0..w * h)
                .map(|i| match case % 3 {
                    0 => i != w * h - 1,
                    _ => i % w < kw && i / w < kh && draws(&mut seed, 9) > 0,
                })
                .collect();
            let avoided: Vec<bool> = match case % 2 {
                0 => vec![false; w * h],
                _ => (0..w * h).map(|_| draws(&mut seed, 7) == 0).collect(),
            };
            let start = at(1 + draws(&mut seed, w), 1 + draws(&mut seed, h));
            let mut walk = if case % 4 < 2 {
                Walk::new()
            } else {
                Walk::diagonal()
            };
            if case % 5 == 0 {
                let mut cost = Box::new([1; 256]);
                cost[b',' as usize] = 5;
                walk.cost = Some(cost);
            }
            let whole = explore(&grid, &known, start, &walk, &avoided);
            let windows = explore_in_windows(&grid, &known, start, &walk, &avoided);
            assert_eq!(windows, whole, "case {case}: {w}x{h} from {start:?}");
            // Found past the first windows: grown ones answered.
            far += usize::from(whole.is_some_and(|p| p.len() > 4));
        }
        assert!(far > 50, "{far}");
    }
}
