//! Drunkard's walk caves, after bracket-lib's `DrunkardsWalkBuilder` (the
//! Rust roguelike tutorial, chapter 28).
//!
//! The centre cell is carved first (that is `@`). Then walkers, one after
//! another, each start on a carved cell and take up to `lifetime` random
//! steps to one of their 4 neighbours, carving every rock cell they enter,
//! until exactly `round(fill * interior cells)` cells are carved; the walk
//! stops mid-walk the moment that count is reached. A walker only ever steps
//! from carved cells, so the cave is connected by construction. Each step's
//! direction is the next 2 bits (0 left, 1 right, 2 up, 3 down) of a draw in
//! `0..2^48`, low bits first, 24 steps a draw, across walkers.
//!
//! Two rules differ from a plain random walk, both to bound the time:
//!
//! - A step toward the border is lost: the walker stays put and the step
//!   counts, as bracket-lib's clamping does. The border stays rock.
//! - A walker starts on a carved cell that still has a rock neighbour,
//!   chosen uniformly among them (not among all carved cells). A walker that
//!   starts deep inside the cave can only wander over carved ground until
//!   its lifetime runs out; on a large map most of them would, and near
//!   `fill = 1` nearly all. Such cells are dropped from the candidates for
//!   good once seen (rock never comes back), so picking costs O(carved)
//!   overall.

use crate::generators::{self, Generator, Kind, Layout, OptionSpec, Options};
use super::shared::{fill_option, fill_target};
use crate::grid::{Grid, Pos, FLOOR, WALL};
use crate::rng::Rng;

/// A 4x3 map has 2 interior cells, the fewest that hold `@` and `>`; then
/// `fill` must be at least 0.75 (smaller fills carve fewer than 2 cells and
/// are refused, as `cave` refuses them). 3x4 would do too; maps are usually
/// wider than tall, so width gets the extra cell, as in `cellular` and `maze`.
pub const GENERATOR: Generator = Generator {
    name: "drunkard",
    doc: "Drunkard's walk: random walkers carve a winding cave out from the centre",
    min_width: 4,
    min_height: 3,
    options: &[FILL, LIFETIME, super::shared::LOCKS],
    terrain: &super::ROCK,
    hides: true,
    carve,
    bound: super::no_bound,
};

const FILL: OptionSpec = fill_option(0.4);

const LIFETIME: OptionSpec = OptionSpec {
    name: "lifetime",
    kind: Kind::Int {
        min: 1,
        max: MAX_LIFETIME,
    },
    default: generators::Default::Int(400),
    doc: "steps each walker takes at most: short gives blobs, long gives winding tunnels",
};

/// Longer walkers change little in the look, and on the thinnest maps (one
/// interior row) a walker gains ground only about as the square root of its
/// lifetime while its steps cost linearly: the cap bounds that case.
pub const MAX_LIFETIME: i64 = 1000;

/// Marks the border in the grid while walking, so a step tests one byte:
/// rock (`#`), carved (`.`) or border. Put back to `#` before returning.
const EDGE: u8 = 0;

fn carve(grid: &mut Grid, options: &Options, rng: &mut Rng) -> Result<Layout, String> {
    let (w, h) = (grid.width(), grid.height());
    let (fill, lifetime) = (options.number(&FILL), options.count(&LIFETIME));
    let target = fill_target(fill, w, h)?;
    assert!(w * h <= u32::MAX as usize, "cell indices are kept as u32");
    set_border(grid, EDGE);
    let player = Pos {
        x: w.div_ceil(2),
        y: h.div_ceil(2),
    };
    let mut cave = Cave::new(grid, grid.index(player), target);
    let mut directions = Directions::default();
    while cave.carved < target {
        let start = cave.pick_start(grid, rng);
        cave.walk(grid, start, lifetime, &mut directions, rng);
    }
    set_border(grid, WALL);
    Ok(Layout {
        rooms: Vec::new(),
        player,
        stairs: None,
        blocked: None,
    })
}

fn set_border(grid: &mut Grid, cell: u8) {
    let (w, h) = (grid.width(), grid.height());
    grid.fill(Pos { x: 1, y: 1 }, w, 1, cell);
    grid.fill(Pos { x: 1, y: h }, w, 1, cell);
    for y in 2..h {
        grid.set(Pos { x: 1, y }, cell);
        grid.set(Pos { x: w, y }, cell);
    }
}

/// The carving so far.
struct Cave {
    carved: usize,
    target: usize,
    /// Carved cells that may still touch rock, `candidates[..live]`; the
    /// array is sized `target` once, so a walk appends without a branch.
    candidates: Vec<u32>,
    live: usize,
    /// Index offsets of the 4 neighbours: left, right, up, down.
    steps: [usize; 4],
}

impl Cave {
    /// Carves `first`, the first candidate.
    fn new(grid: &mut Grid, first: usize, target: usize) -> Cave {
        let w = grid.width();
        grid.set_at(first, FLOOR);
        let mut candidates = vec![0; target];
        candidates[0] = first as u32;
        Cave {
            carved: 1,
            target,
            candidates,
            live: 1,
            steps: [usize::MAX, 1, w.wrapping_neg(), w],
        }
    }

    /// A uniform choice among the carved cells with a rock neighbour.
    /// Candidates without one are removed as they are drawn; while the
    /// target is not reached, some carved cell touches rock (the carved
    /// cells are connected and are not the whole interior), and it is
    /// never removed, so the loop ends.
    fn pick_start(&mut self, grid: &Grid, rng: &mut Rng) -> usize {
        loop {
            let k = rng.below(self.live);
            let cell = self.candidates[k] as usize;
            if self.touches_rock(grid, cell) {
                return cell;
            }
            self.live -= 1;
            self.candidates[k] = self.candidates[self.live];
        }
    }

    fn touches_rock(&self, grid: &Grid, cell: usize) -> bool {
        let cells = grid.cells();
        self.steps
            .iter()
            .any(|&s| cells[cell.wrapping_add(s)] == WALL)
    }

    /// Up to `lifetime` steps from `start`, stopping at the target: a
    /// stretch of steps per draw of directions, so the stepping loop makes
    /// no call and keeps its counts in registers.
    fn walk(
        &mut self,
        grid: &mut Grid,
        start: usize,
        lifetime: usize,
        directions: &mut Directions,
        rng: &mut Rng,
    ) {
        let (mut at, mut steps) = (start, lifetime);
        while steps > 0 && self.carved < self.target {
            if directions.left == 0 {
                directions.refill(rng);
            }
            let wanted = steps.min(directions.left);
            let taken;
            (at, taken) = self.stretch(grid, at, directions.bits, wanted);
            directions.take(taken);
            steps -= taken;
        }
    }

    /// Takes `wanted` steps from `at`, directions from the low bits of
    /// `bits` two at a time, or fewer if the target is reached; returns
    /// where it ended and the steps taken.
    ///
    /// Only the border test branches, and it is rarely taken, so the next
    /// step's address does not wait on this step's cell; whether the cell
    /// was rock only feeds counts (the carve and the append are
    /// unconditional writes, the counts add 0 or 1).
    fn stretch(
        &mut self,
        grid: &mut Grid,
        mut at: usize,
        mut bits: usize,
        wanted: usize,
    ) -> (usize, usize) {
        let (mut left, mut live) = (self.target - self.carved, self.live);
        let mut taken = 0;
        while taken < wanted {
            let next = at.wrapping_add(self.steps[bits & 3]);
            bits >>= 2;
            taken += 1;
            let cell = grid.cells()[next];
            if cell == EDGE {
                continue;
            }
            at = next;
            let fresh = usize::from(cell == WALL);
            grid.set_at(at, FLOOR);
            // `live <= carved < target`: in bounds.
            self.candidates[live] = at as u32;
            live += fresh;
            left -= fresh;
            if left == 0 {
                break;
            }
        }
        (self.carved, self.live) = (self.target - left, live);
        (at, taken)
    }
}

/// Uniform directions `0..4`, 24 from each draw in `0..2^48` (low bits
/// first). `Rng::below` of `2^k` divides on a `2^(k-64)` fraction of draws,
/// so 48 bits make that rare while one draw serves 24 steps.
#[derive(Default)]
struct Directions {
    bits: usize,
    left: usize,
}

impl Directions {
    fn refill(&mut self, rng: &mut Rng) {
        self.bits = rng.below(1 << 48);
        self.left = 24;
    }

    /// Drops the `n` directions used.
    fn take(&mut self, n: usize) {
        self.bits >>= 2 * n;
        self.left -= n;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generators::testing;
    use crate::generators::Value;

    fn options(fill: f64, lifetime: i64) -> Options {
        Options::new(vec![
            (FILL.name, Value::Number(fill)),
            (LIFETIME.name, Value::Int(lifetime)),
        ])
    }

    fn run(w: usize, h: usize, seed: i64, options: &Options) -> (Grid, Layout) {
        testing::run(carve, (w, h), seed, options)
    }

    /// The contract, and exactly `target` cells carved.
    fn check(grid: &Grid, layout: &Layout, w: usize, h: usize, fill: f64) {
        assert_eq!((grid.width(), grid.height()), (w, h));
        testing::check_contract(grid, layout);
        let floor = grid.cells().iter().filter(|&&c| c == FLOOR).count();
        assert_eq!(Ok(floor), fill_target(fill, w, h), "carved count");
        assert_eq!(
            layout.player,
            Pos {
                x: w.div_ceil(2),
                y: h.div_ceil(2)
            }
        );
        assert!(layout.stairs.is_none());
    }

    #[test]
    fn maps_keep_the_contract_at_many_sizes_and_seeds() {
        for seed in 0..40 {
            for (w, h, fill) in [
                (4, 3, 0.75),
                (4, 3, 1.0),
                (5, 3, 0.7),
                (4, 4, 0.5),
                (6, 5, 0.4),
                (12, 9, 0.4),
                (30, 20, 0.4),
                (80, 50, 0.4),
                (300, 40, 0.4),
                (41, 300, 0.4),
            ] {
                let (g, l) = run(w, h, seed, &options(fill, 200));
                check(&g, &l, w, h, fill);
            }
        }
    }

    #[test]
    fn odd_shapes_keep_the_contract() {
        for seed in 0..3 {
            for (w, h) in [(4, 2000), (5, 2000), (2000, 3), (2000, 4)] {
                for fill in [0.4, 1.0] {
                    let (g, l) = run(w, h, seed, &options(fill, 200));
                    check(&g, &l, w, h, fill);
                }
            }
        }
    }

    #[test]
    fn options_at_their_bounds_keep_the_contract() {
        for seed in 0..20 {
            for (w, h) in [(4, 3), (5, 4), (9, 7), (60, 30)] {
                for fill in [0.75, 0.9, 1.0] {
                    for lifetime in [1, 2, 200, MAX_LIFETIME] {
                        let (g, l) = run(w, h, seed, &options(fill, lifetime));
                        check(&g, &l, w, h, fill);
                    }
                }
            }
            for fill in [f64::MIN_POSITIVE, 0.01, 0.1] {
                for lifetime in [1, MAX_LIFETIME] {
                    let (g, l) = run(200, 100, seed, &options(fill.max(0.01), lifetime));
                    check(&g, &l, 200, 100, fill.max(0.01));
                }
            }
        }
    }

    #[test]
    fn fills_under_two_cells_are_refused() {
        let mut grid = Grid::new(4, 3, WALL);
        let err = carve(&mut grid, &options(0.7, 200), &mut Rng::new(1)).err();
        assert_eq!(
            err.as_deref(),
            Some("fill 0.7 of the 2 interior cells of a 4x3 map carves 1; @ and > need at least 2")
        );
        let mut grid = Grid::new(80, 50, WALL);
        assert!(carve(
            &mut grid,
            &options(f64::MIN_POSITIVE, 200),
            &mut Rng::new(1)
        )
        .is_err());
    }

    #[test]
    fn the_target_rounds_halves_up() {
        // Interiors of 3, 10 and 3,992,004 cells.
        assert_eq!(fill_target(0.5, 5, 3), Ok(2));
        assert_eq!(fill_target(0.4, 12, 3), Ok(4));
        assert_eq!(fill_target(1.0, 2000, 2000), Ok(3_992_004));
    }

    #[test]
    fn same_seed_same_map_other_seed_other_map() {
        let o = options(0.4, 200);
        let (a, _) = run(80, 50, 7, &o);
        assert_eq!(a, run(80, 50, 7, &o).0);
        assert_ne!(a, run(80, 50, 8, &o).0);
    }

    #[test]
    fn lifetime_changes_the_cave() {
        let (a, _) = run(80, 50, 7, &options(0.4, 10));
        assert_ne!(a, run(80, 50, 7, &options(0.4, 400)).0);
    }
}
