//! One step downhill on a distance map: how a monster chases (on a map of
//! distances to the player) or flees (on a safety map), one turn at a time.

use super::board::{Board, Walk, DIRECTIONS};
use crate::grid::{ByteSet, Grid, Pos};

/// The neighbour of `from` with the least value in `values` (row-major over
/// `grid`, `BEYOND` for a cell not reached) that is strictly lower than
/// `from`'s own and that a step from `from` may enter under `walk` and
/// `closed` (row-major, or empty: none): the step rule of `Board`, so no
/// diagonal step cuts a corner. Ties go to the first in the order N, E, S,
/// W, NE, SE, SW, NW, as `path`'s do. `None` when no neighbour is lower.
///
/// On a distance map with costs charged for entering cells, the least
/// neighbour's value is always the cell's minus its own cost, so walking
/// `step` from a reached cell follows a shortest path to a source (a
/// source that can be entered).
pub fn step(grid: &Grid, values: &[i64], from: Pos, walk: &Walk, closed: &[bool]) -> Option<Pos> {
    let mut board = Board::new(grid, walk);
    board.close(closed);
    let value = |i: usize| values[grid.index(board.pos(i))];
    let mut best = (values[grid.index(from)], None);
    for j in board.steps(board.index(from)) {
        if value(j) < best.0 {
            best = (value(j), Some(j));
        }
    }
    best.1.map(|j| board.pos(j))
}

/// `step` read in place, for a caller that steps many walkers on one map
/// (`level:steps`): the value of a cell of `grid` by `value` (`BEYOND`
/// where unreached), whether a cell is closed by `closed`, and no board.
/// The step rule is `Board`'s, written over cells (tested equal to `step`).
pub fn step_in(
    grid: &Grid,
    from: Pos,
    (blocked, diagonal): (&ByteSet, bool),
    value: impl Fn(Pos) -> i64,
    closed: impl Fn(Pos) -> bool,
) -> Option<Pos> {
    let (w, h) = (grid.width() as isize, grid.height() as isize);
    let at = |dx: isize, dy: isize| {
        let (x, y) = (from.x as isize + dx, from.y as isize + dy);
        (x >= 1 && y >= 1 && x <= w && y <= h).then_some(Pos {
            x: x as usize,
            y: y as usize,
        })
    };
    let open = |p: Option<Pos>| p.is_some_and(|p| !blocked[grid.get(p) as usize] && !closed(p));
    let mut best = (value(from), None);
    let n = if diagonal { 8 } else { 4 };
    for &(dx, dy) in &DIRECTIONS[..n] {
        let Some(to) = at(dx, dy) else { continue };
        let v = value(to);
        let corners = dx == 0 || dy == 0 || open(at(dx, 0)) && open(at(0, dy));
        if v < best.0 && open(Some(to)) && corners {
            best = (v, Some(to));
        }
    }
    best.1
}

/// Whether the step from `from` to `to`, one of its neighbours, is legal
/// under `walk` and `closed` (row-major, or empty): `Board`'s step rule,
/// as `step` and every search apply it.
pub fn can_step(grid: &Grid, from: Pos, to: Pos, walk: &Walk, closed: &[bool]) -> bool {
    let mut board = Board::new(grid, walk);
    board.close(closed);
    let target = board.index(to);
    let found = board.steps(board.index(from)).any(|j| j == target);
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::byte_set;
    use crate::toolkit::board::BEYOND;

    fn at(x: usize, y: usize) -> Pos {
        Pos { x, y }
    }

    const B: i64 = BEYOND;

    #[test]
    fn steps_to_the_lowest_neighbour_first_in_tie_order() {
        let g = Grid::new(3, 3, b'.');
        let values = [2, 1, 2, 1, 5, 1, 2, 1, 2];
        // N, E, S and W are all 1: N wins.
        assert_eq!(
            step(&g, &values, at(2, 2), &Walk::new(), &[]),
            Some(at(2, 1))
        );
        let values = [0, 3, 2, 3, 5, 1, 2, 1, 2];
        assert_eq!(
            step(&g, &values, at(2, 2), &Walk::new(), &[]),
            Some(at(3, 2))
        );
        // With diagonals, NW's 0 is lowest.
        assert_eq!(
            step(&g, &values, at(2, 2), &Walk::diagonal(), &[]),
            Some(at(1, 1))
        );
    }

    #[test]
    fn nothing_lower_is_none_and_unreached_is_highest() {
        let g = Grid::new(3, 1, b'.');
        assert_eq!(step(&g, &[1, 1, 1], at(2, 1), &Walk::new(), &[]), None);
        assert_eq!(
            step(&g, &[B, B, 7], at(2, 1), &Walk::new(), &[]),
            Some(at(3, 1))
        );
        assert_eq!(step(&g, &[B, 7, B], at(2, 1), &Walk::new(), &[]), None);
    }

    /// `step_in` is `step` on random small maps, values, walks and closed cells.
    #[test]
    fn step_in_is_step() {
        let mut rng = crate::rng::Rng::new(1);
        let mut next = |n: u64| rng.below(n as usize) as u64;
        for _ in 0..20_000 {
            let (w, h) = (1 + next(4) as usize, 1 + next(4) as usize);
            let cells: Vec<u8> = (0..w * h).map(|_| b".#+"[next(3) as usize]).collect();
            let g = Grid::from_cells(w, h, cells);
            let values: Vec<i64> = (0..w * h)
                .map(|_| if next(5) == 0 { BEYOND } else { next(6) as i64 })
                .collect();
            let closed: Vec<bool> = (0..w * h).map(|_| next(6) == 0).collect();
            let walk = Walk {
                blocked: byte_set(if next(2) == 0 { b"#" } else { b"#+" }),
                diagonal: next(2) == 0,
                cost: None,
            };
            let from = at(1 + next(w as u64) as usize, 1 + next(h as u64) as usize);
            let rule = (&walk.blocked, walk.diagonal);
            let direct = step_in(
                &g,
                from,
                rule,
                |p| values[g.index(p)],
                |p| closed[g.index(p)],
            );
            assert_eq!(
                direct,
                step(&g, &values, from, &walk, &closed),
                "{g:?} {from:?}"
            );
        }
    }

    #[test]
    fn can_step_is_the_step_rule() {
        let g = Grid::from_rows(&[".#.", "...", "..."]);
        let (c, d) = (Walk::new(), Walk::diagonal());
        assert!(can_step(&g, at(2, 2), at(1, 2), &c, &[]));
        assert!(!can_step(&g, at(2, 2), at(2, 1), &c, &[]), "a wall");
        assert!(!can_step(&g, at(2, 2), at(1, 1), &c, &[]), "no diagonal");
        assert!(can_step(&g, at(2, 2), at(1, 3), &d, &[]));
        assert!(!can_step(&g, at(1, 2), at(2, 1), &d, &[]), "into a wall");
        assert!(!can_step(&g, at(2, 2), at(3, 1), &d, &[]), "corner cut");
        let mut closed = vec![false; 9];
        closed[3] = true;
        assert!(!can_step(&g, at(2, 2), at(1, 2), &c, &closed), "closed");
        assert!(can_step(&g, at(2, 3), at(1, 2), &d, &[]));
        let mut corner = vec![false; 9];
        corner[6] = true;
        assert!(
            !can_step(&g, at(2, 3), at(1, 2), &d, &corner),
            "closed corner"
        );
    }

    #[test]
    fn blocked_closed_and_corner_cells_are_not_entered() {
        let g = Grid::from_rows(&[".#.", "...", "..."]);
        let values = [0, 0, 0, 9, 9, 0, 9, 9, 9];
        // N is a wall; NE's corner N is a wall; E is closed.
        let mut closed = vec![false; 9];
        closed[5] = true;
        assert_eq!(
            step(&g, &values, at(2, 2), &Walk::diagonal(), &closed),
            None
        );
        assert_eq!(
            step(&g, &values, at(2, 2), &Walk::diagonal(), &[]),
            Some(at(3, 2))
        );
        let walk = Walk {
            blocked: byte_set(b""),
            ..Walk::new()
        };
        assert_eq!(step(&g, &values, at(2, 2), &walk, &[]), Some(at(2, 1)));
    }
}
