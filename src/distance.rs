//! Dijkstra maps: the walking distance (or summed entering cost) from the
//! nearest of some sources to every cell. `path.rs` walks the same board with
//! the same step rule, so a path's cost always equals the distance here.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::grid::{byte_set, ByteSet, Grid, Pos, WALL};

/// The distance of a blocked or unreachable cell.
pub const UNREACHED: u64 = u64::MAX;

/// The highest step cost one character may have (keeps every sum < 2^53, exact in LuaJIT doubles:
/// 4,000,000 cells * 2^30 < 2^53).
pub const MAX_COST: u64 = 1 << 30;

/// The lowest: a free step would let a path walk in circles at no cost, and
/// its cells could not be told apart by their distance to the goal.
pub const MIN_COST: u64 = 1;

/// How to walk: which characters cannot be entered, 8 neighbours or 4, and the cost of entering
/// a cell by its character (None: every cost 1).
///
/// A step is legal when it enters a cell whose character is not `blocked`
/// (the cell left does not matter, so a blocked source can be walked out of)
/// and, for a diagonal step, when both orthogonal cells it passes between are
/// not blocked either: no corner cutting, out of a source too. The corner
/// test looks at characters only, so a blocked source is a corner like any
/// other blocked cell.
///
/// Costs of characters that are not blocked must lie in
/// `MIN_COST..=MAX_COST`; `distances` and `path` panic otherwise (the binding
/// checks them first).
#[derive(Clone, Debug)]
pub struct Walk {
    pub blocked: ByteSet,
    pub diagonal: bool,
    pub cost: Option<Box<[u64; 256]>>,
}

impl Walk {
    /// The default walk: `#` cannot be entered, 4 neighbours, every step costs 1.
    pub fn new() -> Walk {
        Walk {
            blocked: byte_set(&[WALL]),
            diagonal: false,
            cost: None,
        }
    }
}

impl Default for Walk {
    fn default() -> Walk {
        Walk::new()
    }
}

/// Steps (or summed costs) from the nearest source to every cell, row-major; UNREACHED for
/// blocked or unreachable cells. A source counts (distance 0) even on a blocked character.
/// Entering a cell costs its character's cost. With `diagonal`, a diagonal step is allowed only
/// when both orthogonal cells it passes are enterable (not blocked) — no corner cutting.
///
/// Unit costs are a breadth-first search, others Dijkstra's algorithm with a
/// binary heap; both work on a padded copy of the grid (see `Board`) and
/// unpad their result in place.
pub fn distances(grid: &Grid, sources: &[Pos], walk: &Walk) -> Vec<u64> {
    let board = Board::new(grid, walk);
    let sources: Vec<usize> = sources.iter().map(|&p| board.index(p)).collect();
    let mut d = board.search(&sources, None);
    board.unpad(&mut d);
    d
}

/// Index offsets `(dx, dy)` of the eight directions in the tie order of
/// `path`: N, E, S, W, then NE, SE, SW, NW (`y` grows southwards).
const DIRECTIONS: [(isize, isize); 8] = [
    (0, -1),
    (1, 0),
    (0, 1),
    (-1, 0),
    (1, -1),
    (1, 1),
    (-1, 1),
    (-1, -1),
];

/// Marks a cell that cannot be entered in `Board::enter`; costs start at 1.
const CLOSED: u32 = 0;

/// The grid as a walker sees it, padded with a ring of closed cells so that
/// no step needs a bounds test. The one place that says which steps are legal.
pub(crate) struct Board {
    /// The padded row length, `width + 2`.
    stride: usize,
    width: usize,
    height: usize,
    /// Per padded cell, the cost of entering it, or `CLOSED`.
    enter: Vec<u32>,
    /// Whether any cost is not 1 (Dijkstra rather than breadth-first).
    weighted: bool,
    /// 4 or 8: how many of `DIRECTIONS` a step may take.
    directions: usize,
    /// Per direction, the index offset of the cell entered and of the two
    /// cells a diagonal step passes between.
    offsets: [(isize, isize, isize); 8],
}

impl Board {
    pub(crate) fn new(grid: &Grid, walk: &Walk) -> Board {
        let (width, height) = (grid.width(), grid.height());
        let stride = width + 2;
        let enter_by_byte = entering_costs(walk);
        let mut enter = vec![CLOSED; stride * (height + 2)];
        for (y, row) in grid.rows().enumerate().take(height) {
            let base = (y + 1) * stride + 1;
            for (slot, &c) in enter[base..base + width].iter_mut().zip(row) {
                *slot = enter_by_byte[c as usize];
            }
        }
        let s = stride as isize;
        Board {
            stride,
            width,
            height,
            enter,
            weighted: walk.cost.is_some(),
            directions: if walk.diagonal { 8 } else { 4 },
            offsets: DIRECTIONS.map(|(dx, dy)| (dx + dy * s, dx, dy * s)),
        }
    }

    /// The padded index of a cell of the grid.
    pub(crate) fn index(&self, p: Pos) -> usize {
        assert!(
            (1..=self.width).contains(&p.x) && (1..=self.height).contains(&p.y),
            "{p:?} outside {}x{}",
            self.width,
            self.height
        );
        p.y * self.stride + p.x
    }

    pub(crate) fn pos(&self, i: usize) -> Pos {
        Pos {
            x: i % self.stride,
            y: i / self.stride,
        }
    }

    pub(crate) fn is_open(&self, i: usize) -> bool {
        self.enter[i] != CLOSED
    }

    /// The cost of entering the open cell `i`.
    pub(crate) fn cost(&self, i: usize) -> u64 {
        u64::from(self.enter[i])
    }

    /// The cell a legal step from `i` in direction `k` (of `DIRECTIONS`)
    /// enters, if the step is legal. `also` counts as open when entered (the
    /// start of a backward search), never as a corner.
    #[inline]
    pub(crate) fn step(&self, i: usize, k: usize, also: usize) -> Option<usize> {
        let (to, a, b) = self.offsets[k];
        let j = i.wrapping_add_signed(to);
        let enters = self.is_open(j) || j == also;
        let corners = k < 4
            || (self.is_open(i.wrapping_add_signed(a)) && self.is_open(i.wrapping_add_signed(b)));
        (enters && corners).then_some(j)
    }

    /// The cells one legal step from `i`, in the tie order.
    pub(crate) fn steps(&self, i: usize, also: usize) -> impl Iterator<Item = usize> + '_ {
        (0..self.directions).filter_map(move |k| self.step(i, k, also))
    }

    /// Padded distances from `sources`. Without `backward`, entering a cell
    /// costs the cell entered (distances from the sources). With
    /// `backward = Some(start)` the search runs from the goal in `sources`
    /// against the steps, so it charges the cost of the cell the walker would
    /// enter coming the other way, the one it leaves here; `start` may be
    /// entered even if blocked, and the search stops once it is settled.
    pub(crate) fn search(&self, sources: &[usize], backward: Option<usize>) -> Vec<u64> {
        if self.weighted {
            self.dijkstra(sources, backward)
        } else {
            self.breadth_first(sources, backward)
        }
    }

    /// Unit costs: a distance is final when first written, so a backward
    /// search may stop as soon as the start gets one.
    fn breadth_first(&self, sources: &[usize], backward: Option<usize>) -> Vec<u64> {
        let start = backward.unwrap_or(usize::MAX);
        let mut d = vec![UNREACHED; self.enter.len()];
        let mut queue: Vec<u32> = Vec::with_capacity(sources.len() + 64);
        for &s in sources {
            if d[s] != 0 {
                d[s] = 0;
                queue.push(s as u32);
            }
        }
        let mut head = 0;
        while let Some(&i) = queue.get(head) {
            head += 1;
            let i = i as usize;
            let next = d[i] + 1;
            for j in self.steps(i, start) {
                if d[j] == UNREACHED {
                    d[j] = next;
                    if j == start {
                        return d;
                    }
                    queue.push(j as u32);
                }
            }
        }
        d
    }

    /// Dijkstra with a binary heap and lazy deletion (a popped entry larger
    /// than the cell's distance is stale).
    fn dijkstra(&self, sources: &[usize], backward: Option<usize>) -> Vec<u64> {
        let start = backward.unwrap_or(usize::MAX);
        let mut d = vec![UNREACHED; self.enter.len()];
        let mut heap = BinaryHeap::new();
        for &s in sources {
            d[s] = 0;
            heap.push(Reverse((0, s as u32)));
        }
        while let Some(Reverse((g, i))) = heap.pop() {
            let i = i as usize;
            if g > d[i] {
                continue;
            }
            if i == start {
                break;
            }
            let leave = if backward.is_some() { self.cost(i) } else { 0 };
            for j in self.steps(i, start) {
                let arrive = if backward.is_some() { 0 } else { self.cost(j) };
                let next = g + leave + arrive;
                if next < d[j] {
                    d[j] = next;
                    heap.push(Reverse((next, j as u32)));
                }
            }
        }
        d
    }

    /// Padded distances to row-major ones, in place (each cell moves towards
    /// the front).
    fn unpad(&self, d: &mut Vec<u64>) {
        let (w, h) = (self.width, self.height);
        for y in 0..h {
            let from = (y + 1) * self.stride + 1;
            d.copy_within(from..from + w, y * w);
        }
        d.truncate(w * h);
    }
}

/// Per byte, the cost of entering a cell of it, or `CLOSED`.
fn entering_costs(walk: &Walk) -> [u32; 256] {
    std::array::from_fn(|c| {
        if walk.blocked[c] {
            return CLOSED;
        }
        let cost = walk.cost.as_ref().map_or(1, |costs| costs[c]);
        assert!(
            (MIN_COST..=MAX_COST).contains(&cost),
            "cost {cost} of {:?} is outside {MIN_COST}..={MAX_COST}",
            c as u8 as char
        );
        cost as u32
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(rows: &[&str]) -> Grid {
        let cells = rows.concat().into_bytes();
        Grid::from_cells(rows[0].len(), rows.len(), cells)
    }

    const U: u64 = UNREACHED;

    fn at(x: usize, y: usize) -> Pos {
        Pos { x, y }
    }

    fn diagonal() -> Walk {
        Walk {
            diagonal: true,
            ..Walk::new()
        }
    }

    fn costs(pairs: &[(u8, u64)]) -> Walk {
        let mut cost = Box::new([1; 256]);
        for &(c, v) in pairs {
            cost[c as usize] = v;
        }
        Walk {
            cost: Some(cost),
            ..Walk::new()
        }
    }

    #[test]
    fn corridor_counts_steps() {
        let g = grid(&["#####", "#...#", "#####"]);
        let d = distances(&g, &[at(2, 2)], &Walk::new());
        assert_eq!(&d[5..10], &[U, 0, 1, 2, U]);
        assert!(d[..5].iter().all(|&v| v == U));
    }

    #[test]
    fn walks_around_a_pillar() {
        let g = grid(&["...", ".#.", "..."]);
        let d = distances(&g, &[at(1, 1)], &Walk::new());
        assert_eq!(d, vec![0, 1, 2, 1, U, 3, 2, 3, 4]);
        let d = distances(&g, &[at(1, 1)], &diagonal());
        assert_eq!(d, vec![0, 1, 2, 1, U, 3, 2, 3, 4], "corners are not cut");
    }

    #[test]
    fn open_room_with_diagonals_is_chebyshev() {
        let g = Grid::new(7, 5, b'.');
        let d = distances(&g, &[at(4, 3)], &diagonal());
        for (i, &v) in d.iter().enumerate() {
            let p = g.pos(i);
            assert_eq!(v as usize, p.x.abs_diff(4).max(p.y.abs_diff(3)));
        }
    }

    #[test]
    fn no_border_and_one_cell_grids() {
        let g = grid(&["..", ".."]);
        assert_eq!(distances(&g, &[at(2, 2)], &Walk::new()), vec![2, 1, 1, 0]);
        assert_eq!(distances(&grid(&["#"]), &[at(1, 1)], &Walk::new()), vec![0]);
        assert_eq!(distances(&grid(&["."]), &[], &Walk::new()), vec![U]);
    }

    #[test]
    fn nearest_of_several_sources_and_duplicates() {
        let g = grid(&["......."]);
        let d = distances(&g, &[at(1, 1), at(7, 1), at(7, 1)], &Walk::new());
        assert_eq!(d, vec![0, 1, 2, 3, 2, 1, 0]);
    }

    #[test]
    fn a_blocked_source_counts_and_can_be_left() {
        let g = grid(&[".#.", "###"]);
        let d = distances(&g, &[at(2, 1)], &Walk::new());
        assert_eq!(d, vec![1, 0, 1, U, U, U]);
        // Another blocked cell is still never entered.
        let g = grid(&["#.#"]);
        assert_eq!(distances(&g, &[at(1, 1)], &Walk::new()), vec![0, 1, U]);
    }

    #[test]
    fn diagonal_steps_need_both_corners_open_even_from_a_source() {
        let g = grid(&[".#", ".."]);
        let d = distances(&g, &[at(1, 1)], &diagonal());
        assert_eq!(d, vec![0, U, 1, 2]);
        let g = grid(&["..", ".."]);
        assert_eq!(distances(&g, &[at(1, 1)], &diagonal()), vec![0, 1, 1, 1]);
        let g = grid(&["#.", ".."]);
        let d = distances(&g, &[at(2, 1)], &diagonal());
        assert_eq!(d, vec![U, 0, 2, 1]);
        // Out of a blocked source: the same rule.
        let g = grid(&["#.", "#."]);
        let d = distances(&g, &[at(1, 1)], &diagonal());
        assert_eq!(d, vec![0, 1, U, 2]);
        let g = grid(&["#.", ".."]);
        let d = distances(&g, &[at(1, 1)], &diagonal());
        assert_eq!(d, vec![0, 1, 1, 1]);
    }

    #[test]
    fn weighted_costs_charge_the_cell_entered() {
        let g = grid(&["@~~>", "@..."]);
        let walk = costs(&[(b'~', 5), (b'>', 2)]);
        let d = distances(&g, &[at(1, 1)], &walk);
        assert_eq!(d, vec![0, 5, 8, 6, 1, 2, 3, 4]);
        // A blocked source charges nothing to leave.
        let walk = Walk {
            blocked: byte_set(b"@"),
            ..costs(&[(b'.', 7)])
        };
        let d = distances(&g, &[at(1, 2)], &walk);
        assert_eq!(d, vec![U, 8, 9, 10, 0, 7, 14, 17]);
    }

    #[test]
    fn weighted_with_diagonals() {
        let g = grid(&["...", ".~.", "..."]);
        let mut walk = costs(&[(b'~', 10)]);
        walk.diagonal = true;
        let d = distances(&g, &[at(1, 1)], &walk);
        assert_eq!(d, vec![0, 1, 2, 1, 10, 2, 2, 2, 3]);
    }

    #[test]
    fn nothing_blocked_and_any_character_walks() {
        let walk = Walk {
            blocked: [false; 256],
            ..Walk::new()
        };
        let d = distances(&grid(&["#\0\u{7f}"]), &[at(1, 1)], &walk);
        assert_eq!(d, vec![0, 1, 2]);
    }

    #[test]
    #[should_panic(expected = "outside 1..=1073741824")]
    fn a_free_step_is_refused() {
        distances(&grid(&["."]), &[at(1, 1)], &costs(&[(b'x', 0)]));
    }

    #[test]
    fn the_largest_costs_sum_exactly() {
        let g = Grid::new(1000, 1, b'.');
        let walk = costs(&[(b'.', MAX_COST)]);
        let d = distances(&g, &[at(1, 1)], &walk);
        assert_eq!(d[999], 999 * MAX_COST);
    }
}
