//! One shortest path between two cells, chosen by a fixed tie rule so that
//! the same map always gives the same path.

use std::fmt;

use super::board::{Board, Charges, Limits, Walk, UNREACHED};
use crate::grid::{Grid, Pos};

/// Why `path` found no path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoPath {
    /// The goal cannot be entered (and is not the start).
    GoalBlocked { goal: Pos },
    /// The goal is open but no legal walk leads there.
    NotConnected { from: Pos, to: Pos },
}

impl fmt::Display for NoPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            NoPath::GoalBlocked { goal } => write!(f, "goal ({},{}) is blocked", goal.x, goal.y),
            NoPath::NotConnected { from, to } => write!(
                f,
                "no path from ({},{}) to ({},{})",
                from.x, from.y, to.x, to.y
            ),
        }
    }
}

/// A shortest path from `from` to `to`, both included (one element when equal). Its cost (steps, or
/// the sum of the costs of the entered cells, `from` excluded) equals distances(grid,&[from],walk)[to].
/// The start cell is always allowed even if blocked. The goal blocked (and != from) -> GoalBlocked.
///
/// Steps follow `distances`' rule (`Walk`): only unblocked cells are
/// entered, and a diagonal step (with `diagonal`) only between two unblocked
/// orthogonal cells.
///
/// Tie rule: search backwards from the goal (breadth-first for unit costs,
/// Dijkstra otherwise), stopping as soon as the start is settled; then walk
/// from the start, at each step taking the first neighbour in the order N,
/// E, S, W, then NE, SE, SW, NW (north is row y-1; diagonals only with
/// `diagonal`) that the step rule allows and that lies on a shortest path:
/// its cost to the goal plus the cost of entering it equals the current
/// cell's cost to the goal.
pub fn path(grid: &Grid, from: Pos, to: Pos, walk: &Walk) -> Result<Vec<Pos>, NoPath> {
    path_within(grid, from, to, walk, &Limits::default())
}

/// `path` with `limits`: their closed cells cannot be entered (the start
/// can always be left) and are corners as blocked ones are, a closed goal
/// is `GoalBlocked`, and a path costing more than `limits.max_value()` is
/// `NotConnected` (the search from the goal settles nothing farther).
pub fn path_within(
    grid: &Grid,
    from: Pos,
    to: Pos,
    walk: &Walk,
    limits: &Limits,
) -> Result<Vec<Pos>, NoPath> {
    path_charged(grid, (from, to), walk, limits, &Charges::none())
}

/// `path_within` with steps charged as `charges` says (`Board::charge`):
/// the same tie rule, each step's cost its charged cost.
pub fn path_charged(
    grid: &Grid,
    (from, to): (Pos, Pos),
    walk: &Walk,
    limits: &Limits,
    charges: &Charges,
) -> Result<Vec<Pos>, NoPath> {
    let mut board = Board::new(grid, walk);
    board.close(&limits.closed);
    board.charge(charges);
    board.set_limit(limits.max_value().max(0) as u64);
    let (start, goal) = (board.index(from), board.index(to));
    if start == goal {
        return Ok(vec![from]);
    }
    if !board.is_open(goal) {
        return Err(NoPath::GoalBlocked { goal: to });
    }
    // The cost from each cell to the goal, exact for every cell cheaper than
    // the start, which is all the walk below looks at.
    let mut left = board.search(&[goal], Some(start));
    if left == UNREACHED {
        return Err(NoPath::NotConnected { from, to });
    }
    // Each step costs at least 1, so the path has at most `left` of them.
    let steps = usize::try_from(left).map_or(usize::MAX, |l| l.min(grid.cells().len()));
    let mut cells = Vec::with_capacity(steps + 1);
    cells.push(from);
    let mut v = start;
    while v != goal {
        v = board
            .steps_by(v)
            .find(|&(k, u)| {
                let d = board.distance(u);
                d != UNREACHED && d + board.step_cost(u, k) == left
            })
            .expect("a cell with a finite cost to the goal has a neighbour one step cheaper")
            .1;
        left = board.distance(v);
        cells.push(board.pos(v));
    }
    Ok(cells)
}

/// `path_within`'s answer, without a search, when the start is farther
/// from the goal along an axis than `max` (each step moves one cell at
/// most and costs at least 1): `GoalBlocked` if the goal cannot be entered
/// (`goal_open` false), else `NotConnected`.
pub fn too_far(from: Pos, to: Pos, goal_open: bool) -> NoPath {
    if goal_open {
        NoPath::NotConnected { from, to }
    } else {
        NoPath::GoalBlocked { goal: to }
    }
}

/// The memory `path` over a window of `size` may use: the window's copy,
/// its closed cells, `known` flags and the cells an `occupied` cost
/// charges (a byte each), the search from the goal, and the path (a
/// position, 16 bytes, for each of at most every cell).
pub fn bound(size: (usize, usize), weighted: bool) -> usize {
    let cells = size.0 * size.1;
    4 * cells + super::board::search_bytes(size, 1, weighted) + 16 * cells + crate::memory::FIXED
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::byte_set;
    use crate::toolkit::distances::distances;

    fn at(x: usize, y: usize) -> Pos {
        Pos { x, y }
    }

    /// The cost of `cells` walked with `walk`, checking every step.
    fn cost(g: &Grid, cells: &[Pos], walk: &Walk) -> u64 {
        let mut total = 0;
        for pair in cells.windows(2) {
            let (a, b) = (pair[0], pair[1]);
            let (dx, dy) = (a.x.abs_diff(b.x), a.y.abs_diff(b.y));
            assert!(
                dx.max(dy) == 1 && (walk.diagonal || dx + dy == 1),
                "{a:?} {b:?}"
            );
            assert!(!walk.blocked[g.get(b) as usize], "{b:?} blocked");
            if dx + dy == 2 {
                assert!(!walk.blocked[g.get(at(b.x, a.y)) as usize]);
                assert!(!walk.blocked[g.get(at(a.x, b.y)) as usize]);
            }
            total += walk.cost.as_ref().map_or(1, |c| c[g.get(b) as usize]);
        }
        total
    }

    #[test]
    fn same_cell_is_one_step_long_even_when_blocked() {
        let g = Grid::from_rows(&["#."]);
        assert_eq!(
            path(&g, at(1, 1), at(1, 1), &Walk::new()),
            Ok(vec![at(1, 1)])
        );
    }

    #[test]
    fn corridor() {
        let g = Grid::from_rows(&["#####", "#...#", "#####"]);
        let p = path(&g, at(4, 2), at(2, 2), &Walk::new()).unwrap();
        assert_eq!(p, vec![at(4, 2), at(3, 2), at(2, 2)]);
    }

    #[test]
    fn ties_go_north_then_east_then_south_then_west() {
        let g = Grid::new(3, 3, b'.');
        // Every shortest path is 4 steps; N beats E, S beats W.
        let p = path(&g, at(3, 3), at(1, 1), &Walk::new()).unwrap();
        assert_eq!(p, vec![at(3, 3), at(3, 2), at(3, 1), at(2, 1), at(1, 1)]);
        let p = path(&g, at(1, 1), at(3, 3), &Walk::new()).unwrap();
        assert_eq!(p, vec![at(1, 1), at(2, 1), at(3, 1), at(3, 2), at(3, 3)]);
        let p = path(&g, at(3, 1), at(1, 3), &Walk::new()).unwrap();
        assert_eq!(p, vec![at(3, 1), at(3, 2), at(3, 3), at(2, 3), at(1, 3)]);
    }

    #[test]
    fn orthogonal_steps_are_preferred_when_as_short() {
        let g = Grid::new(4, 4, b'.');
        let p = path(&g, at(1, 1), at(4, 2), &Walk::diagonal()).unwrap();
        assert_eq!(p, vec![at(1, 1), at(2, 1), at(3, 1), at(4, 2)]);
        let p = path(&g, at(1, 1), at(3, 3), &Walk::diagonal()).unwrap();
        assert_eq!(p, vec![at(1, 1), at(2, 2), at(3, 3)]);
    }

    #[test]
    fn around_a_pillar_without_cutting_corners() {
        let g = Grid::from_rows(&["...", ".#.", "..."]);
        let p = path(&g, at(1, 2), at(2, 1), &Walk::diagonal()).unwrap();
        assert_eq!(p, vec![at(1, 2), at(1, 1), at(2, 1)]);
        let p = path(&g, at(1, 1), at(3, 3), &Walk::diagonal()).unwrap();
        assert_eq!(cost(&g, &p, &Walk::diagonal()), 4);
        assert_eq!(p, vec![at(1, 1), at(2, 1), at(3, 1), at(3, 2), at(3, 3)]);
    }

    #[test]
    fn blocked_goal_and_cut_maps_are_errors() {
        let g = Grid::from_rows(&[".#.", ".#."]);
        let err = path(&g, at(1, 1), at(2, 2), &Walk::new()).unwrap_err();
        assert_eq!(err, NoPath::GoalBlocked { goal: at(2, 2) });
        assert_eq!(err.to_string(), "goal (2,2) is blocked");
        let err = path(&g, at(1, 1), at(3, 2), &Walk::diagonal()).unwrap_err();
        assert_eq!(err.to_string(), "no path from (1,1) to (3,2)");
        // Diagonal neighbours across two walls are not connected.
        let g = Grid::from_rows(&[".#", "#."]);
        assert!(path(&g, at(1, 1), at(2, 2), &Walk::diagonal()).is_err());
    }

    #[test]
    fn a_blocked_start_can_be_left() {
        let g = Grid::from_rows(&["#.", ".."]);
        let p = path(&g, at(1, 1), at(2, 2), &Walk::diagonal()).unwrap();
        assert_eq!(p, vec![at(1, 1), at(2, 2)]);
        let g = Grid::from_rows(&["##", "#."]);
        let p = path(&g, at(1, 1), at(2, 2), &Walk::diagonal());
        assert_eq!(
            p,
            Err(NoPath::NotConnected {
                from: at(1, 1),
                to: at(2, 2)
            })
        );
        let walk = Walk {
            blocked: byte_set(b"#@"),
            ..Walk::new()
        };
        let g = Grid::from_rows(&[".@.", "..."]);
        let p = path(&g, at(2, 1), at(3, 2), &walk).unwrap();
        assert_eq!(p, vec![at(2, 1), at(3, 1), at(3, 2)]);
    }

    #[test]
    fn weighted_paths_take_the_cheap_way_round() {
        let g = Grid::from_rows(&["....", ".~~.", "...."]);
        let mut costs = Box::new([1; 256]);
        costs[b'~' as usize] = 9;
        let walk = Walk {
            cost: Some(costs),
            ..Walk::new()
        };
        let p = path(&g, at(1, 2), at(4, 2), &walk).unwrap();
        assert_eq!(
            p,
            vec![at(1, 2), at(1, 1), at(2, 1), at(3, 1), at(4, 1), at(4, 2)]
        );
        let d = distances(&g, &[at(1, 2)], &walk);
        assert_eq!(cost(&g, &p, &walk), d[g.index(at(4, 2))]);
        // Entering the goal costs too; leaving the start does not.
        let g = Grid::from_rows(&["~~"]);
        let p = path(&g, at(1, 1), at(2, 1), &walk).unwrap();
        assert_eq!(cost(&g, &p, &walk), 9);
    }

    #[test]
    fn charged_steps_cost_their_factors_and_occupied_cells_their_extra() {
        let g = Grid::from_rows(&[".....", "....."]);
        let factors = Charges {
            straight: 2,
            diagonal: 3,
            ..Charges::none()
        };
        let p = path_charged(
            &g,
            (at(1, 1), at(5, 2)),
            &Walk::diagonal(),
            &Limits::default(),
            &factors,
        );
        // Three straight steps and one diagonal: 9, the tie rule's first.
        assert_eq!(
            p.unwrap(),
            [at(1, 1), at(2, 1), at(3, 1), at(4, 1), at(5, 2)]
        );
        let mut costly = vec![false; 10];
        costly[2] = true;
        let around = Charges {
            extra: 3,
            costly,
            ..Charges::none()
        };
        let p = path_charged(
            &g,
            (at(1, 1), at(5, 1)),
            &Walk::new(),
            &Limits::default(),
            &around,
        );
        assert_eq!(
            p.unwrap(),
            [
                at(1, 1),
                at(2, 1),
                at(2, 2),
                at(3, 2),
                at(4, 2),
                at(4, 1),
                at(5, 1)
            ]
        );
        let d = crate::toolkit::distances::distances_charged(
            &g,
            &[at(1, 1).into()],
            &Walk::new(),
            &Limits::default(),
            &around,
        );
        assert_eq!(d[2], 5, "one step, then the occupied cell at 1 + 3");
    }
}
