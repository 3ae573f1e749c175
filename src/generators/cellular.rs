//! Cellular-automaton caves, as rot.js's `ROT.Map.Cellular` and the Rust
//! roguelike tutorial make them: random noise smoothed by the 4-5 rule, then
//! every cave that survives joined to the others by a tunnel.
//!
//! - Fill: each interior cell is wall when a uniform 28-bit number is below
//!   `round(probability * 2^28)` (rot.js's `randomize(probability)`), the
//!   cells in row order, two numbers per draw. The border is wall.
//! - Generations: a cell is wall in the next generation when it is wall with
//!   at least 4 wall neighbours among its 8, or floor with at least 5 ("born
//!   5-8, survive 4-8" with walls alive). Both say the same thing: at least 5
//!   walls in the 3x3 block around it, itself included. Only interior cells
//!   change; their 8 neighbours are all on the map, and the border ones are
//!   wall (so an edge counts as wall, as rot.js counts it). A generation that
//!   changes nothing ends the smoothing early (the later ones could not
//!   change anything either).
//! - Joining: the floor regions (4-connected) are taken in row order of their
//!   first cell. Each region after the first is joined to the earlier ones by
//!   a straight tunnel from its first cell up to the nearest floor above it;
//!   if there is none, left to the nearest floor on its row; if there is none
//!   either, by an L-shaped tunnel (along the earlier cell's row, then down
//!   its own column) to the first cell of the region before it. Any floor
//!   above or left of a region's first cell comes earlier in row order, so it
//!   is already joined: every region ends up connected, and none is dropped.
//! - Fallback: if fewer than 2 floor cells survive, the interior is made
//!   solid and the centre cell and the one right of it are carved.
//! - `@`: the floor cell nearest the centre by squared distance, the first in
//!   row order on a tie. The centre is the one `cave` starts from.

use std::ops::Range;

use crate::generators::{self, Generator, Kind, Layout, OptionSpec, Options};
use crate::grid::{Grid, Pos, FLOOR, WALL};
use crate::rng::Rng;

/// A 4x3 map has 2 interior cells, the fewest that hold both `@` and `>`:
/// with a one-cell border, any map at least this wide and tall has 2. (3x4
/// would do too; maps are usually wider than tall, so width gets the extra
/// cell, as in `drunkard` and `maze`.)
pub const GENERATOR: Generator = Generator {
    name: "cellular",
    doc: "Caves grown from random noise by the 4-5 cellular-automaton rule, every cave joined by tunnels",
    min_width: 4,
    min_height: 3,
    options: &[PROBABILITY, GENERATIONS, super::shared::LOCKS],
    terrain: &super::ROCK,
    hides: true,
    carve,
    bound: super::no_bound,
};

const PROBABILITY: OptionSpec = OptionSpec {
    name: "probability",
    kind: Kind::Number {
        min: 0.0,
        max: 1.0,
        open_min: false,
    },
    default: generators::Default::Number(0.45),
    doc: "chance that an interior cell starts as wall, before smoothing",
};

const GENERATIONS: OptionSpec = OptionSpec {
    name: "generations",
    kind: Kind::Int { min: 0, max: 20 },
    default: generators::Default::Int(4),
    doc: "smoothing passes of the 4-5 rule (most caves stop changing within 10)",
};

/// In the working copy: 1 for wall, 0 for floor, so a 3x3 sum counts walls.
const SOLID: u8 = 1;

/// A wall-or-floor cell stays or becomes wall at this many walls in its 3x3.
const WALLS_TO_STAY: u8 = 5;

fn carve(grid: &mut Grid, options: &Options, rng: &mut Rng) -> Result<Layout, String> {
    let (w, h) = (grid.width(), grid.height());
    let (probability, generations) = (options.number(&PROBABILITY), options.count(&GENERATIONS));
    let mut walls = random_fill(w, h, probability, rng);
    smooth(&mut walls, w, h, generations);
    let floor = join_regions(&mut walls, w, h);
    if floor < 2 {
        fallback(&mut walls, w, h);
    }
    let player = nearest_floor(&walls, w, h, centre(w, h));
    let cells = walls.iter().map(|&s| FLOOR - s * (FLOOR - WALL)).collect();
    *grid = Grid::from_cells(w, h, cells);
    Ok(Layout {
        rooms: Vec::new(),
        player,
        stairs: None,
        blocked: None,
    })
}

/// The centre, 1-based, as `cave` takes it.
fn centre(w: usize, h: usize) -> Pos {
    Pos {
        x: w.div_ceil(2),
        y: h.div_ceil(2),
    }
}

/// All wall, then each interior cell (row order) wall with `probability`.
/// One 56-bit draw decides two cells, each by a 28-bit half compared with
/// `round(probability * 2^28)`: an integer test, so the same seed gives the
/// same noise whatever the float hardware does past the one conversion, and
/// half the draws of one per cell (the draws are most of the fill's time).
/// Not 2 x 32 bits: `Rng::below` of a power of two `2^k` divides on a
/// `2^(k-64)` fraction of draws, so 56 bits keep that to 1 in 256.
fn random_fill(w: usize, h: usize, probability: f64, rng: &mut Rng) -> Vec<u8> {
    let threshold = (probability * HALF_RANGE as f64).round() as usize;
    let mut walls = vec![SOLID; w * h];
    let mut halves = Halves::default();
    for row in walls.chunks_exact_mut(w).skip(1).take(h - 2) {
        for cell in &mut row[1..w - 1] {
            *cell = u8::from(halves.next(rng) < threshold);
        }
    }
    walls
}

/// The range of one half of a draw.
const HALF_RANGE: usize = 1 << 28;

/// Uniform numbers in `0..2^28`, two from each draw in `0..2^56` (low half
/// first).
#[derive(Default)]
struct Halves {
    high: Option<usize>,
}

impl Halves {
    fn next(&mut self, rng: &mut Rng) -> usize {
        if let Some(high) = self.high.take() {
            return high;
        }
        let draw = rng.below(HALF_RANGE * HALF_RANGE);
        self.high = Some(draw / HALF_RANGE);
        draw % HALF_RANGE
    }
}

/// `generations` passes of the 4-5 rule. Each row sums its three rows per
/// column first, then three column sums per cell: the passes vectorise.
fn smooth(walls: &mut Vec<u8>, w: usize, h: usize, generations: usize) {
    let mut next = walls.clone();
    let mut columns = vec![0u8; w];
    for _ in 0..generations {
        for y in 1..h - 1 {
            let above = &walls[(y - 1) * w..y * w];
            let row = &walls[y * w..(y + 1) * w];
            let below = &walls[(y + 1) * w..(y + 2) * w];
            for (x, sum) in columns.iter_mut().enumerate() {
                *sum = above[x] + row[x] + below[x];
            }
            let out = &mut next[y * w + 1..(y + 1) * w - 1];
            for (x, cell) in out.iter_mut().enumerate() {
                let block = columns[x] + columns[x + 1] + columns[x + 2];
                *cell = u8::from(block >= WALLS_TO_STAY);
            }
        }
        std::mem::swap(walls, &mut next);
        if *walls == next {
            break;
        }
    }
}

/// A horizontal run of floor cells: its row and its columns `x0..x1`
/// (0-based).
#[derive(Clone, Copy)]
struct Run {
    y: u32,
    x0: u32,
    x1: u32,
}

/// Finds the regions and tunnels each to the earlier ones (see the module
/// doc). Returns how many floor cells there were before tunnelling.
///
/// Regions are found over runs, not cells: a union-find whose root is always
/// the lower run, so a region's root is its first run in row order, and
/// the first cell of that run is the region's first cell. Tunnels look only
/// at rock above or left of a region's first cell, up to the first floor;
/// another region's look starts below or right of that floor, so no cell is
/// looked at twice and the joining is linear in the map's size.
fn join_regions(walls: &mut [u8], w: usize, h: usize) -> usize {
    let (runs, floor) = floor_runs(walls, w, h);
    let parent = union_runs(&runs);
    let firsts: Vec<usize> = (0..runs.len())
        .filter(|&r| parent[r] as usize == r)
        .map(|r| runs[r].y as usize * w + runs[r].x0 as usize)
        .collect();
    for pair in firsts.windows(2) {
        tunnel(walls, w, pair[0], pair[1]);
    }
    floor
}

/// The floor runs of each interior row, in row order, and the floor count.
fn floor_runs(walls: &[u8], w: usize, h: usize) -> (Vec<Run>, usize) {
    let mut runs = Vec::new();
    let mut floor = 0;
    let mut start = None;
    for y in 1..h - 1 {
        for_each_change(&walls[y * w..(y + 1) * w], |x| match start.take() {
            None => start = Some(x),
            Some(x0) => {
                floor += x - x0;
                runs.push(Run {
                    y: y as u32,
                    x0: x0 as u32,
                    x1: x as u32,
                });
            }
        });
    }
    (runs, floor)
}

/// Calls `f` with each `x` where `row[x] != row[x - 1]`, in order. The row
/// starts and ends with wall, so the changes alternate: a run's first
/// column, then the column after its last.
///
/// Eight columns at a time: the row XOR itself shifted by one column has a
/// nonzero byte exactly at each change (cells are 0 or 1), and long runs
/// make most words zero.
fn for_each_change(row: &[u8], mut f: impl FnMut(usize)) {
    let word = |i: usize| u64::from_le_bytes(row[i..i + 8].try_into().unwrap());
    let mut x = 1;
    while x + 8 <= row.len() {
        let mut changes = word(x) ^ word(x - 1);
        while changes != 0 {
            f(x + changes.trailing_zeros() as usize / 8);
            changes &= changes - 1;
        }
        x += 8;
    }
    for x in x..row.len() {
        if row[x] != row[x - 1] {
            f(x);
        }
    }
}

/// Union-find over runs: runs on consecutive rows that share a column are
/// joined. Returns each run's root.
fn union_runs(runs: &[Run]) -> Vec<u32> {
    let mut parent: Vec<u32> = (0..runs.len() as u32).collect();
    let mut start = 0;
    while start < runs.len() {
        let y = runs[start].y;
        let end = start + runs[start..].iter().take_while(|r| r.y == y).count();
        let below = end + runs[end..].iter().take_while(|r| r.y == y + 1).count();
        union_overlaps(&mut parent, runs, start..end, end..below);
        start = end;
    }
    for r in 0..parent.len() {
        parent[r] = find(&mut parent, r) as u32;
    }
    parent
}

/// Joins the runs of one row (`upper`) with the overlapping runs of the
/// next (`lower`); both lists are sorted by column, so one merge pass does.
fn union_overlaps(parent: &mut [u32], runs: &[Run], upper: Range<usize>, lower: Range<usize>) {
    let (mut a, mut b) = (upper.start, lower.start);
    while a < upper.end && b < lower.end {
        let (ra, rb) = (runs[a], runs[b]);
        if ra.x0 < rb.x1 && rb.x0 < ra.x1 {
            union(parent, a, b);
        }
        // The run that ends first can overlap nothing further on.
        let upper_ends_first = ra.x1 <= rb.x1;
        a += usize::from(upper_ends_first);
        b += usize::from(!upper_ends_first);
    }
}

/// Joins the sets of `a` and `b`; the lower root becomes the root.
fn union(parent: &mut [u32], a: usize, b: usize) {
    let (ra, rb) = (find(parent, a), find(parent, b));
    parent[ra.max(rb)] = ra.min(rb) as u32;
}

/// The root of `r`, halving the path on the way.
fn find(parent: &mut [u32], mut r: usize) -> usize {
    while parent[r] as usize != r {
        let grand = parent[parent[r] as usize];
        parent[r] = grand;
        r = grand as usize;
    }
    r
}

/// Joins the region whose first cell is `first` to the joined floor: up to
/// the nearest floor, else left to it, else an L to `earlier`, the previous
/// region's first cell (see the module doc). Indices are row-major, 0-based.
fn tunnel(walls: &mut [u8], w: usize, earlier: usize, first: usize) {
    let (x, y) = (first % w, first / w);
    let up = (1..y).rev().map(|y| y * w + x);
    if carve_to_floor(walls, up) {
        return;
    }
    let left = (1..x).rev().map(|x| y * w + x);
    if carve_to_floor(walls, left) {
        return;
    }
    let (ex, ey) = (earlier % w, earlier / w);
    walls[ey * w + ex.min(x)..=ey * w + ex.max(x)].fill(0);
    for y in ey..y {
        walls[y * w + x] = 0;
    }
}

/// Walks `path` (interior cells, nearest first) to its first floor cell and,
/// if there is one, carves the rock before it. False if the path is all rock.
fn carve_to_floor(walls: &mut [u8], path: impl Iterator<Item = usize> + Clone) -> bool {
    let Some(rock) = path.clone().position(|i| walls[i] != SOLID) else {
        return false;
    };
    for i in path.take(rock) {
        walls[i] = 0;
    }
    true
}

/// Makes the interior solid and carves the centre and the cell right of it
/// (interior for any width from 4).
fn fallback(walls: &mut [u8], w: usize, h: usize) {
    walls.fill(SOLID);
    let c = centre(w, h);
    let i = (c.y - 1) * w + (c.x - 1);
    walls[i] = 0;
    walls[i + 1] = 0;
}

/// The floor cell nearest `target` by squared distance, the first in row
/// order on a tie. Rows are visited outwards from the target's and each row
/// outwards from its column, so the search stops near the target whenever
/// there is floor there, which there usually is.
fn nearest_floor(walls: &[u8], w: usize, h: usize, target: Pos) -> Pos {
    let (tx, ty) = (target.x - 1, target.y - 1);
    let mut best = (usize::MAX, usize::MAX);
    for dy in 0..h {
        if dy * dy > best.0 {
            break;
        }
        let rows = [ty.checked_sub(dy), Some(ty + dy).filter(|_| dy > 0)];
        for y in rows.into_iter().flatten().filter(|&y| y < h) {
            best = best.min(nearest_in_row(walls, w, y, tx, dy * dy, best));
        }
    }
    Pos {
        x: best.1 % w + 1,
        y: best.1 / w + 1,
    }
}

/// The best (squared distance, index) on row `y`, no worse than `best`.
fn nearest_in_row(
    walls: &[u8],
    w: usize,
    y: usize,
    tx: usize,
    dy2: usize,
    mut best: (usize, usize),
) -> (usize, usize) {
    for dx in 0..w {
        let d2 = dy2 + dx * dx;
        if d2 > best.0 {
            break;
        }
        for x in [tx.checked_sub(dx), Some(tx + dx)].into_iter().flatten() {
            if x < w && walls[y * w + x] != SOLID {
                best = best.min((d2, y * w + x));
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generators::testing;
    use crate::generators::Value;

    fn options(probability: f64, generations: i64) -> Options {
        Options::new(vec![
            (PROBABILITY.name, Value::Number(probability)),
            (GENERATIONS.name, Value::Int(generations)),
        ])
    }

    fn run(w: usize, h: usize, seed: i64, options: &Options) -> (Grid, Layout) {
        testing::run(carve, (w, h), seed, options)
    }

    /// The contract: size kept, border whole, only `.` and `#`, at least 2
    /// floor cells, all reachable from `@`, which is on the floor.
    fn check(grid: &Grid, layout: &Layout, w: usize, h: usize) {
        assert_eq!((grid.width(), grid.height()), (w, h));
        testing::check_contract(grid, layout);
        assert!(layout.stairs.is_none());
    }

    #[test]
    fn maps_keep_the_contract_at_many_sizes_and_seeds() {
        let defaults = options(0.45, 4);
        for seed in 0..40 {
            for (w, h) in [
                (4, 3),
                (5, 3),
                (4, 4),
                (4, 5),
                (6, 6),
                (7, 4),
                (12, 9),
                (30, 20),
                (80, 50),
                (300, 40),
                (41, 300),
            ] {
                let (g, l) = run(w, h, seed, &defaults);
                check(&g, &l, w, h);
            }
        }
    }

    #[test]
    fn odd_shapes_keep_the_contract() {
        for seed in 0..3 {
            for (w, h) in [(4, 2000), (5, 2000), (2000, 3), (2000, 4)] {
                for generations in [0, 4] {
                    let (g, l) = run(w, h, seed, &options(0.45, generations));
                    check(&g, &l, w, h);
                }
            }
        }
    }

    #[test]
    fn options_at_their_bounds_keep_the_contract() {
        for seed in 0..20 {
            for (w, h) in [(4, 3), (5, 4), (9, 7), (60, 30)] {
                for probability in [0.0, 0.2, 0.45, 0.5, 0.6, 0.8, 1.0] {
                    for generations in [0, 1, 20] {
                        let (g, l) = run(w, h, seed, &options(probability, generations));
                        check(&g, &l, w, h);
                    }
                }
            }
        }
    }

    #[test]
    fn same_seed_same_map_other_seed_other_map() {
        let o = options(0.45, 4);
        let (a, _) = run(80, 50, 7, &o);
        assert_eq!(a, run(80, 50, 7, &o).0);
        assert_ne!(a, run(80, 50, 8, &o).0);
    }

    #[test]
    fn all_wall_falls_back_to_the_centre_pair() {
        let (g, l) = run(9, 7, 1, &options(1.0, 4));
        assert_eq!(l.player, Pos { x: 5, y: 4 });
        let floor: Vec<Pos> = (0..g.cells().len())
            .filter(|&i| g.cells()[i] == FLOOR)
            .map(|i| g.pos(i))
            .collect();
        assert_eq!(floor, [Pos { x: 5, y: 4 }, Pos { x: 6, y: 4 }]);
    }

    #[test]
    fn no_walls_and_no_smoothing_is_an_open_room() {
        let (g, l) = run(9, 7, 1, &options(0.0, 0));
        assert_eq!(g.cells().iter().filter(|&&c| c == FLOOR).count(), 7 * 5);
        assert_eq!(l.player, Pos { x: 5, y: 4 });
    }

    /// Wall flags (1 for `#`) from rows joined by `/`.
    fn flags(rows: &str) -> Vec<u8> {
        rows.bytes()
            .filter(|&b| b != b'/')
            .map(|b| u8::from(b == b'#'))
            .collect()
    }

    #[test]
    fn the_rule_is_five_walls_in_the_block() {
        let mut walls = flags("#####/#..##/##.##/##..#/#####");
        smooth(&mut walls, 5, 5, 1);
        // The wall at (1,2) has 4 wall neighbours and stays; the floor at
        // (2,2) has 4 and stays floor; (2,1) and (2,3), floor with 6, turn.
        assert_eq!(walls, flags("#####/#####/##.##/#####/#####"));
        // A wall with 3 wall neighbours opens.
        let mut lone = flags("#####/#...#/#.#.#/#...#/#####");
        smooth(&mut lone, 5, 5, 1);
        assert_eq!(lone[2 * 5 + 2], 0);
    }

    #[test]
    fn every_region_survives_joining() {
        for seed in 0..30 {
            let (w, h) = (60, 40);
            let mut rng = Rng::new(seed);
            let mut walls = random_fill(w, h, 0.5, &mut rng);
            smooth(&mut walls, w, h, 3);
            let before = walls.clone();
            join_regions(&mut walls, w, h);
            assert!((0..w * h).all(|i| before[i] == SOLID || walls[i] != SOLID));
        }
    }

    #[test]
    fn a_region_joins_straight_up_else_left_else_by_an_l() {
        // Regions start at (1,1), (4,2), (1,4) and (6,4) (0-based x,y).
        let mut walls = flags("########/#.######/####.###/########/#.####.#/########");
        assert_eq!(join_regions(&mut walls, 8, 6), 4);
        // (4,2): nothing above or left, so an L along row 1 from (1,1).
        // (1,4): straight up to (1,1). (6,4): rock above, left to (1,4).
        let expected = flags("########/#....###/#.##.###/#.######/#......#/########");
        assert_eq!(walls, expected);
    }

    #[test]
    fn the_player_is_the_floor_cell_nearest_the_centre() {
        for seed in 0..50 {
            let (w, h) = (31, 17);
            let (g, l) = run(w, h, seed, &options(0.55, 2));
            let c = centre(w, h);
            let d2 = |p: Pos| p.x.abs_diff(c.x).pow(2) + p.y.abs_diff(c.y).pow(2);
            let best = (0..g.cells().len())
                .filter(|&i| g.cells()[i] == FLOOR)
                .map(|i| (d2(g.pos(i)), i))
                .min()
                .unwrap();
            assert_eq!(l.player, g.pos(best.1));
        }
    }
}
