//! One step downhill on a distance map: how a monster chases (on a map of
//! distances to the player) or flees (on a safety map), one turn at a time.

use super::board::{Board, Walk};
use crate::grid::{Grid, Pos};

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
