//! Two breadth-first searches over 4-neighbour steps: `walk`, the one the
//! level pipeline and the generators write their searches with (distances,
//! tunnels, regions, labels), and the flood below, the branch-free one for
//! the question every level asks.
//!
//! The flood: a breadth-first search from one cell over 4-neighbour steps
//! into marked cells, a level at a time, with one byte per cell. It answers
//! what every generated level asks and `reachable` checks: which cells `@`
//! can walk to, and which wanted cell is the farthest walk away.
//!
//! It is the second breadth-first search of the toolkit, beside the
//! `Board`'s (`board.rs`), because it runs on every generated level, where
//! it is most of the cost for the caves and mazes: one byte a cell and no
//! distances stored, where the board keeps a `u32` a cell for its distances,
//! its costs and its step rule with diagonals (docs/performance.md has the
//! measured difference at 4 million cells).

use crate::grid::{Grid, Pos};

/// What `walk` does with one step, as its `visit` says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// Leave the cell: it is not entered.
    Skip,
    /// Enter the cell (queue it); `visit` has marked it.
    Enter,
    /// End the walk here.
    Stop,
}

/// Breadth-first from the cells already in `queue` (its sources, marked by
/// the caller), taken in the order queued: each one's 4 neighbours in
/// `grid::NEIGHBOURS` order (north, west, east, south), whose index offsets
/// are `steps` (`grid::steps`), are offered to `visit(from, to, direction)`,
/// which marks the cells it enters and says what to do. Returns the cell
/// stepped from when `visit` stops the walk. The queue keeps every cell
/// entered, sources first, so the caller can clear its marks.
///
/// No step may leave the cells: the callers' grids have a closed border
/// (a level's is wall) that `visit` never enters.
pub fn walk(
    queue: &mut Vec<u32>,
    steps: [isize; 4],
    mut visit: impl FnMut(usize, usize, usize) -> Step,
) -> Option<usize> {
    let mut head = 0;
    while head < queue.len() {
        let from = queue[head] as usize;
        head += 1;
        for (d, &step) in steps.iter().enumerate() {
            let to = from.wrapping_add_signed(step);
            match visit(from, to, d) {
                Step::Skip => {}
                Step::Enter => queue.push(to as u32),
                Step::Stop => return Some(from),
            }
        }
    }
    None
}

/// A cell that cannot be entered, or has been reached.
pub const CLOSED: u8 = 0;
/// A cell that can be entered.
pub const OPEN: u8 = 1;
/// An open cell that `farthest` looks for.
pub const WANTED: u8 = 2;

/// The grid's cells as marks, padded with a ring of `CLOSED` cells so that
/// no step needs a bounds test.
pub struct Flood {
    marks: Vec<u8>,
    stride: usize,
    /// How many cells the last `farthest` walked to, its start included.
    reached: usize,
}

/// In a queue entry: the cell was `WANTED`. Indices stay below it, as a
/// padded map of `MAX_CELLS` has fewer than 2^31 cells.
const WANTED_BIT: u32 = 1 << 31;

impl Flood {
    /// Each cell of `grid` marked by its character.
    pub fn new(grid: &Grid, mark: impl Fn(u8) -> u8) -> Flood {
        let stride = grid.width() + 2;
        let mut marks = vec![CLOSED; stride * (grid.height() + 2)];
        for (y, row) in grid.rows().enumerate() {
            let start = (y + 1) * stride + 1;
            for (m, &c) in marks[start..start + row.len()].iter_mut().zip(row) {
                *m = mark(c);
            }
        }
        assert!(marks.len() < WANTED_BIT as usize, "too large to flood");
        Flood {
            marks,
            stride,
            reached: 0,
        }
    }

    fn index(&self, p: Pos) -> usize {
        p.y * self.stride + p.x
    }

    /// Marks the `w`-cell run of row `p.y` that starts at `p`.
    pub fn mark_run(&mut self, p: Pos, w: usize, mark: u8) {
        let start = self.index(p);
        self.marks[start..start + w].fill(mark);
    }

    /// How many cells the last `farthest` walked to, its start included.
    pub fn reached_count(&self) -> usize {
        self.reached
    }

    /// Whether the flood reached the open cell `p`.
    pub fn reached(&self, p: Pos) -> bool {
        self.marks[self.index(p)] == CLOSED
    }

    /// Walks from `start` (entered whatever its mark) to every open cell it
    /// can reach, and returns the `WANTED` cell with the longest walk, the
    /// first in row order on a tie; `start` when no other is wanted.
    ///
    /// A level is the set of cells at one distance. Each neighbour is
    /// written to the queue without a branch and kept if open (open cells
    /// and walls alternate unpredictably), and marked reached at once.
    pub fn farthest(&mut self, start: Pos) -> Pos {
        let open = self.marks.iter().filter(|&&m| m != CLOSED).count();
        let mut queue = vec![0u32; open + 2];
        let first = self.index(start);
        queue[0] = first as u32 | WANTED_BIT;
        self.marks[first] = CLOSED;
        let s = self.stride;
        let (mut best, mut head, mut tail) = (first, 0, 1);
        while head < tail {
            let level_end = tail;
            let mut nearest = usize::MAX;
            for k in head..level_end {
                let entry = queue[k];
                let i = (entry & !WANTED_BIT) as usize;
                if entry & WANTED_BIT != 0 {
                    nearest = nearest.min(i);
                }
                for j in [i - s, i - 1, i + 1, i + s] {
                    let m = self.marks[j];
                    queue[tail] = j as u32 | (u32::from(m >> 1) * WANTED_BIT);
                    tail += usize::from(m != CLOSED);
                    self.marks[j] = CLOSED;
                }
            }
            if nearest != usize::MAX {
                best = nearest;
            }
            head = level_end;
        }
        self.reached = tail;
        Pos {
            x: best % s,
            y: best / s,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{FLOOR, WALL};

    fn floor_wanted(c: u8) -> u8 {
        match c {
            WALL => CLOSED,
            FLOOR => WANTED,
            _ => OPEN,
        }
    }

    fn at(x: usize, y: usize) -> Pos {
        Pos { x, y }
    }

    #[test]
    fn the_farthest_wanted_cell_first_in_row_order() {
        let g = Grid::from_rows(&["..#..", ".#...", "....."]);
        // From (1,1): (5,1) is 8 steps away, as is nothing else.
        assert_eq!(Flood::new(&g, floor_wanted).farthest(at(1, 1)), at(5, 1));
        // From (3,3): (2,1) is 5 steps away, the others fewer.
        assert_eq!(Flood::new(&g, floor_wanted).farthest(at(3, 3)), at(2, 1));
        // A tie: the first in row order.
        let g = Grid::from_rows(&["#.#", "...", "#.#"]);
        assert_eq!(Flood::new(&g, floor_wanted).farthest(at(2, 2)), at(2, 1));
    }

    #[test]
    fn only_wanted_cells_count_but_open_ones_are_walked() {
        let g = Grid::from_rows(&["@.+...", "######"]);
        let mut flood = Flood::new(&g, floor_wanted);
        assert_eq!(flood.farthest(at(1, 1)), at(6, 1));
        assert!(flood.reached(at(3, 1)) && flood.reached(at(6, 1)));
        let g = Grid::from_rows(&["@.+++"]);
        assert_eq!(Flood::new(&g, floor_wanted).farthest(at(1, 1)), at(2, 1));
    }

    #[test]
    fn walls_cut_and_diagonals_do_not_connect() {
        let g = Grid::from_rows(&[".#.", "#..", "..."]);
        let mut flood = Flood::new(&g, floor_wanted);
        assert_eq!(
            flood.farthest(at(1, 1)),
            at(1, 1),
            "nothing else wanted is reached"
        );
        assert!(!flood.reached(at(3, 1)));
    }

    #[test]
    fn walk_takes_cells_in_breadth_first_order_and_stops_when_told() {
        // A 4x3 grid, its border closed: the two open cells 5 and 6.
        let open = [5, 6];
        let mut seen = [false; 12];
        seen[5] = true;
        let mut queue = vec![5];
        let stop = walk(&mut queue, crate::grid::steps(4), |_, to, _| {
            if open.contains(&to) && !seen[to] {
                seen[to] = true;
                Step::Enter
            } else {
                Step::Skip
            }
        });
        assert_eq!((stop, queue), (None, vec![5, 6]));
        let mut queue = vec![5];
        let stop = walk(&mut queue, crate::grid::steps(4), |_, to, d| match to {
            6 => Step::Stop,
            _ => {
                assert!(d < 2, "north and west come first");
                Step::Skip
            }
        });
        assert_eq!(stop, Some(5));
    }

    #[test]
    fn marked_runs_change_what_is_wanted() {
        let g = Grid::from_rows(&["......"]);
        let mut flood = Flood::new(&g, |_| OPEN);
        flood.mark_run(at(2, 1), 2, WANTED);
        assert_eq!(flood.farthest(at(1, 1)), at(3, 1));
    }
}
