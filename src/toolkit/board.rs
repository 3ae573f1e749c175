//! The board every search of the toolkit walks: the grid padded with a
//! ring of closed cells, the step rule (which moves are legal, in which tie
//! order), and the searches over it (`board/searches.rs`): breadth-first for unit costs,
//! Dijkstra's over a radix heap otherwise. `distances.rs` reads the result
//! forwards, `path.rs` backwards, so a path's cost always equals the
//! distance.

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

impl Walk {
    /// The default walk, with diagonal steps.
    pub fn diagonal() -> Walk {
        Walk {
            diagonal: true,
            ..Walk::new()
        }
    }
}

impl Default for Walk {
    fn default() -> Walk {
        Walk::new()
    }
}

/// Index offsets `(dx, dy)` of the eight directions in the tie order of
/// `path`: N, E, S, W, then NE, SE, SW, NW (`y` grows southwards).
pub(crate) const DIRECTIONS: [(isize, isize); 8] = [
    (0, -1),
    (1, 0),
    (0, 1),
    (-1, 0),
    (1, -1),
    (1, 1),
    (-1, 1),
    (-1, -1),
];

/// In `Board::cells`: a cell that cannot be entered. Costs start at 1.
const CLOSED: u32 = 0;
/// In `Board::cells` of a unit-cost walk: an open cell not reached yet (its
/// cost, 1). A cell reached at distance `d` holds `REACHED + d`.
const UNSEEN: u32 = 1;
const REACHED: u32 = 2;

/// The grid as a walker sees it, padded with a ring of closed cells so that
/// no step needs a bounds test; the searches of `distances` and `path`, and
/// the one place that says which steps are legal (`step`).
pub(crate) struct Board {
    /// The padded row length, `width + 2`.
    stride: usize,
    width: usize,
    height: usize,
    /// Per padded cell, the cost of entering it, or `CLOSED`. A unit-cost
    /// search marks its distances here too (see `UNSEEN`): one load then
    /// tells a closed cell, an open one and a reached one.
    cells: Vec<u32>,
    /// How many cells can be entered.
    open: usize,
    /// A weighted search's distances, padded; empty for unit costs.
    costs: Vec<u64>,
    diagonal: bool,
    weighted: bool,
    /// Per direction, the index offset of the cell entered and of the two
    /// cells a diagonal step passes between.
    offsets: [(isize, isize, isize); 8],
    /// The highest distance a search settles (`limit`); farther cells stay
    /// unreached.
    limit: u64,
    /// Per padded cell, whether Dijkstra's search may not enter it though
    /// it is open (`bar`); empty for none.
    barred: Vec<bool>,
    /// Per direction, what a step's entering cost is multiplied by
    /// (`charge`): 1 unless `Charges` says otherwise.
    factors: [u64; 8],
}

impl Board {
    pub(crate) fn new(grid: &Grid, walk: &Walk) -> Board {
        let (width, height) = (grid.width(), grid.height());
        let stride = width + 2;
        let by_byte = entering_costs(walk);
        let mut cells = vec![CLOSED; stride * (height + 2)];
        // Queues hold cell indices as u32.
        assert!(
            cells.len() <= u32::MAX as usize,
            "{width}x{height} is too large"
        );
        let mut open = 0;
        for (y, row) in grid.rows().enumerate().take(height) {
            let base = (y + 1) * stride + 1;
            for (slot, &c) in cells[base..base + width].iter_mut().zip(row) {
                *slot = by_byte[c as usize];
                open += usize::from(*slot != CLOSED);
            }
        }
        let s = stride as isize;
        Board {
            stride,
            width,
            height,
            cells,
            open,
            costs: Vec::new(),
            diagonal: walk.diagonal,
            weighted: walk.cost.is_some(),
            offsets: DIRECTIONS.map(|(dx, dy)| (dx + dy * s, dx, dy * s)),
            limit: u64::MAX,
            barred: Vec::new(),
            factors: [1; 8],
        }
    }

    /// Charges steps as `charges` says: the cells it marks cost `extra`
    /// more to enter, and a straight or diagonal step costs `straight` or
    /// `diagonal` times its cell's cost. Any charge makes the search
    /// Dijkstra's; none leaves the board as it was.
    pub(crate) fn charge(&mut self, charges: &Charges) {
        if charges.is_none() {
            return;
        }
        self.weighted = true;
        self.factors = std::array::from_fn(|k| {
            if k < 4 {
                charges.straight
            } else {
                charges.diagonal
            }
        });
        if charges.extra > 0 {
            for k in self.padded(&charges.costly) {
                if self.cells[k] != CLOSED {
                    self.cells[k] += charges.extra as u32;
                }
            }
        }
        let costliest = self.cells.iter().max().copied().unwrap_or(0);
        assert!(
            u64::from(costliest) * charges.straight.max(charges.diagonal) <= MAX_COST,
            "a step costs more than {MAX_COST}"
        );
    }

    /// The cost of a step in direction `k` (of `DIRECTIONS`) entering the
    /// open cell `i`.
    pub(crate) fn step_cost(&self, i: usize, k: usize) -> u64 {
        self.cost(i) * self.factors[k]
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

    /// Whether cell `i` can be entered (its character is not blocked).
    pub(crate) fn is_open(&self, i: usize) -> bool {
        self.cells[i] != CLOSED
    }

    /// The cost of entering the open cell `i`.
    pub(crate) fn cost(&self, i: usize) -> u64 {
        if self.weighted {
            u64::from(self.cells[i])
        } else {
            1
        }
    }

    /// The step rule, the one place it is written: the cell a step from `i`
    /// in direction `k` (of `DIRECTIONS`) enters, if `enters` accepts it and,
    /// for a diagonal step, both cells it passes between are open. Only the
    /// characters count: the cell left may be blocked (a source), and a
    /// blocked source is a corner like any blocked cell.
    #[inline(always)]
    fn step(&self, i: usize, k: usize, enters: impl Fn(usize) -> bool) -> Option<usize> {
        let (to, a, b) = self.offsets[k];
        let j = i.wrapping_add_signed(to);
        let corners = k < 4
            || (self.is_open(i.wrapping_add_signed(a)) & self.is_open(i.wrapping_add_signed(b)));
        (enters(j) & corners).then_some(j)
    }

    /// The cells a legal step from `i` enters, in the tie order.
    pub(crate) fn steps(&self, i: usize) -> impl Iterator<Item = usize> + '_ {
        self.steps_by(i).map(|(_, j)| j)
    }

    /// The legal steps from `i` as (direction, cell entered), in the tie
    /// order.
    pub(crate) fn steps_by(&self, i: usize) -> impl Iterator<Item = (usize, usize)> + '_ {
        let n = if self.diagonal { 8 } else { 4 };
        (0..n).filter_map(move |k| self.step(i, k, |j| self.is_open(j)).map(|j| (k, j)))
    }

    /// Distances from `sources`, read with `distance`. Without `backward`,
    /// entering a cell costs the cell entered (distances from the sources).
    /// With `backward = Some(start)` the search runs from the goal in
    /// `sources` against the steps, charging the cost of the cell a walker
    /// coming the other way would enter (the one left here); `start` may be
    /// entered even if blocked, and the search stops once it is settled.
    /// Returns the start's distance (`UNREACHED` when forward).
    pub(crate) fn search(&mut self, sources: &[usize], backward: Option<usize>) -> u64 {
        match (self.weighted, self.diagonal) {
            (true, _) => self.dijkstra(sources.iter().map(|&s| (s, 0)), backward),
            (false, false) => self.breadth_first::<4>(sources, backward),
            (false, true) => self.breadth_first::<8>(sources, backward),
        }
    }

    /// Closes the cells of the grid that `closed` (row-major, or empty for
    /// none) marks: they cannot be entered, and they are corners a diagonal
    /// step cannot pass, as blocked characters are.
    pub(crate) fn close(&mut self, closed: &[bool]) {
        for k in self.padded(closed) {
            if self.cells[k] != CLOSED {
                self.cells[k] = CLOSED;
                self.open -= 1;
            }
        }
    }

    /// The padded indices of the cells `marked` (row-major over the grid)
    /// marks, row by row (no division a cell).
    fn padded<'a>(&self, marked: &'a [bool]) -> impl Iterator<Item = usize> + 'a {
        let (width, stride) = (self.width, self.stride);
        marked
            .chunks(width.max(1))
            .enumerate()
            .flat_map(move |(y, row)| {
                let base = (y + 1) * stride + 1;
                row.iter()
                    .enumerate()
                    .filter(|(_, &m)| m)
                    .map(move |(x, _)| base + x)
            })
    }

    /// Bars the cells of the grid that `barred` (row-major) marks from
    /// Dijkstra's search (`search_keyed`, weighted searches): it does not
    /// enter them, but unlike closed cells they are no corners, so a
    /// diagonal step may pass beside them. `flee`'s rescan keeps to the
    /// cells its first search reached, beside unreached cells that can be
    /// entered all the same (beyond `max`).
    pub(crate) fn bar(&mut self, barred: &[bool]) {
        let mut padded = vec![false; self.cells.len()];
        for k in self.padded(barred) {
            padded[k] = true;
        }
        self.barred = padded;
    }

    /// Searches settle no cell farther than `limit` (which the sources'
    /// own keys count towards).
    pub(crate) fn set_limit(&mut self, limit: u64) {
        self.limit = limit;
    }

    /// Distances from sources that each start at their own key (forward,
    /// as `search` without `backward`): Dijkstra's algorithm with costs;
    /// with unit costs its cheaper equal, `keyed_breadth_first`.
    pub(crate) fn search_keyed(&mut self, sources: &[(usize, u64)]) {
        if self.weighted {
            self.dijkstra(sources.iter().copied(), None);
        } else {
            self.keyed_breadth_first(sources);
        }
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

/// The largest magnitude a distance map's value may have: start values are
/// at most this far from 0, and a search settles nothing farther, so every
/// value is exact in LuaJIT's doubles.
pub const MAX_VALUE: i64 = 1 << 53;

/// The largest magnitude a source's start value may have: half of
/// `MAX_VALUE`, so that a start value plus the costliest walk (fewer than
/// `MAX_CELLS` steps of at most `MAX_COST`, under 2^52) stays within
/// `MAX_VALUE` and every reachable cell gets its exact value.
pub const MAX_START: i64 = 1 << 52;
const _: () = assert!(crate::input::MAX_CELLS as u64 * MAX_COST < MAX_START as u64);

/// In a distance map with start values (`distances::distances_from`): a
/// cell that is blocked, closed or unreached, farther than any value.
pub const BEYOND: i64 = i64::MAX;

/// A source of a distance map and the value it starts at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Source {
    pub pos: Pos,
    pub value: i64,
}

impl From<Pos> for Source {
    fn from(pos: Pos) -> Source {
        Source { pos, value: 0 }
    }
}

/// What a step costs besides its cell's character (`Board::charge`): the
/// cells `costly` marks (row-major over the grid, or empty) cost `extra`
/// more to enter (a game's monsters, to walk around rather than through),
/// and a straight step costs `straight` times its cell's cost, a diagonal
/// one `diagonal` times (2 and 3: a diagonal step dearer, as a longer one).
/// The charged cost of any step must be at most `MAX_COST` (the binding
/// checks it): sums stay exact.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Charges {
    pub straight: u64,
    pub diagonal: u64,
    pub extra: u64,
    pub costly: Vec<bool>,
}

impl Charges {
    /// No charge: every step costs its cell's cost.
    pub fn none() -> Charges {
        Charges {
            straight: 1,
            diagonal: 1,
            extra: 0,
            costly: Vec::new(),
        }
    }

    /// Whether this charges nothing.
    pub fn is_none(&self) -> bool {
        self.straight == 1 && self.diagonal == 1 && (self.extra == 0 || self.costly.is_empty())
    }
}

/// What limits a search besides its walk: cells that cannot be entered
/// besides the blocked characters (a game's monsters, cells it has not
/// seen), row-major over the grid (empty: none), and the highest value it
/// settles (`None`: `MAX_VALUE`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    pub closed: Vec<bool>,
    pub max: Option<i64>,
}

impl Limits {
    /// The highest value searched: `max`, and never past `MAX_VALUE`.
    pub fn max_value(&self) -> i64 {
        self.max.map_or(MAX_VALUE, |m| m.min(MAX_VALUE))
    }
}

/// The cells of a `width` x `height` map with a ring of cells around it:
/// the searches pad their copy so that no step needs a bounds test.
pub fn padded((width, height): (usize, usize)) -> usize {
    (width + 2) * (height + 2)
}

/// The bytes a search from `sources` sources over a map of `size` holds:
/// its cells (a `u32` each, padded), and either the breadth-first queue (a
/// `u32` an open cell or source) or, with costs, a `u64` distance and two
/// `u32` links a padded cell. A part of the searching calls' bounds.
pub fn search_bytes(size: (usize, usize), sources: usize, weighted: bool) -> usize {
    let cells = size.0 * size.1;
    let search = if weighted {
        16 * padded(size)
    } else {
        4 * (cells + sources + 1)
    };
    4 * padded(size) + search
}

mod searches;

#[cfg(test)]
mod tests;
