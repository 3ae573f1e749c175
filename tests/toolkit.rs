//! Property tests of the toolkit (`fov`, `distance`, `path`) on generated
//! levels (rooms and caves) and on random noise grids without a border,
//! each function checked against a plain reference written here:
//!
//! - `fov::visible` equals a recursive transcription of Ford's Python
//!   (exact fractions, every tile visited, outside the grid included), is
//!   symmetric between transparent cells, and with a radius equals the
//!   unlimited result cut to the disc, also when given only the window
//!   around the origin;
//! - `distance::distances` equals a plain breadth-first search (unit costs)
//!   or a plain O(n^2) Dijkstra (weighted);
//! - `path::path` takes legal steps, costs what `distances` says, fails
//!   exactly when it should, and follows the documented tie rule (checked
//!   against a full backward search and the same walk).
//!
//! Cases come from `map::rng::Rng` with fixed seeds, so every run checks the
//! same ones and a failure names the one that broke.

use map::args::Arg;
use map::grid::{byte_set, ByteSet, Grid, Pos, FLOOR, GOLD, PLAYER, POTION, STAIRS, WALL};
use map::level::{generate, Params};
use map::rng::Rng;
use map::toolkit::board::{Walk, UNREACHED};
use map::toolkit::flood::{self, Flood};
use map::toolkit::reach::{self, Unreachable};

#[path = "support/oracle.rs"]
mod oracle;

use map::toolkit::distances::distances;
use map::toolkit::fov::visible;
use map::toolkit::path::{path, NoPath};
use oracle::{around, check_window, cost_of, legal};

// ---------------------------------------------------------------------------
// Cases.

fn level(algorithm: &'static [u8], width: i64, height: i64, seed: i64) -> Grid {
    let params = Params::new(Arg::Int(width), Arg::Int(height), Arg::Int(seed))
        .with(b"algorithm", Arg::Str(algorithm));
    generate(&params).expect("a valid level").grid
}

/// Rooms and cave levels of a few sizes.
fn levels() -> Vec<(String, Grid)> {
    let mut out = Vec::new();
    for seed in 0..6 {
        for (name, w, h) in [(&b"rooms"[..], 60, 20), (b"cave", 40, 25), (b"cave", 7, 30)] {
            let case = format!("{} {w}x{h} seed {seed}", String::from_utf8_lossy(name));
            out.push((case, level(name, w, h, seed)));
        }
    }
    out
}

/// Borderless grids of `.`, `#` and a few other characters, at several
/// densities, from 1x1 up.
fn noise(rng: &mut Rng, count: usize) -> Vec<(String, Grid)> {
    (0..count)
        .map(|n| {
            let (w, h) = (rng.range(1, 24), rng.range(1, 24));
            let walls = rng.range(0, 60);
            let cells = (0..w * h)
                .map(|_| match rng.below(100) {
                    r if r < walls => b'#',
                    r if r < walls + 5 => b'~',
                    r if r < walls + 8 => b'+',
                    _ => b'.',
                })
                .collect();
            (format!("noise {n} {w}x{h}"), Grid::from_cells(w, h, cells))
        })
        .collect()
}

fn all_cases() -> Vec<(String, Grid)> {
    let mut cases = levels();
    cases.extend(noise(&mut Rng::new(7), 150));
    cases
}

fn random_cell(rng: &mut Rng, g: &Grid) -> Pos {
    g.pos(rng.below(g.cells().len()))
}

/// Up to `n` distinct cells that `set` does not hold, in random order.
fn cells_not_in(rng: &mut Rng, g: &Grid, set: &ByteSet, n: usize) -> Vec<Pos> {
    let mut open: Vec<usize> = (0..g.cells().len())
        .filter(|&i| !set[g.cells()[i] as usize])
        .collect();
    for i in (1..open.len()).rev() {
        open.swap(i, rng.below(i + 1));
    }
    open.truncate(n);
    open.into_iter().map(|i| g.pos(i)).collect()
}

// ---------------------------------------------------------------------------
// Field of view.

/// A fraction `num / den`, `den > 0`, as Python's `Fraction` (not reduced:
/// only compared and rounded).
#[derive(Clone, Copy, Debug)]
struct Frac(i64, i64);

impl Frac {
    fn times(self, k: i64) -> Frac {
        Frac(self.0 * k, self.1)
    }

    fn plus_half(self) -> Frac {
        Frac(2 * self.0 + self.1, 2 * self.1)
    }

    fn minus_half(self) -> Frac {
        Frac(2 * self.0 - self.1, 2 * self.1)
    }

    fn floor(self) -> i64 {
        self.0.div_euclid(self.1)
    }

    fn ceil(self) -> i64 {
        -(-self.0).div_euclid(self.1)
    }

    /// `k >= self`
    fn at_most(self, k: i64) -> bool {
        self.0 <= k * self.1
    }

    /// `k <= self`
    fn at_least(self, k: i64) -> bool {
        k * self.1 <= self.0
    }
}

#[derive(Clone, Copy)]
struct RefRow {
    depth: i64,
    start_slope: Frac,
    end_slope: Frac,
}

impl RefRow {
    fn tiles(&self) -> Vec<(i64, i64)> {
        let min_col = round_ties_up(self.start_slope.times(self.depth));
        let max_col = round_ties_down(self.end_slope.times(self.depth));
        (min_col..=max_col).map(|col| (self.depth, col)).collect()
    }

    fn next(&self) -> RefRow {
        RefRow {
            depth: self.depth + 1,
            ..*self
        }
    }
}

fn round_ties_up(n: Frac) -> i64 {
    n.plus_half().floor()
}

fn round_ties_down(n: Frac) -> i64 {
    n.minus_half().ceil()
}

fn slope((row_depth, col): (i64, i64)) -> Frac {
    Frac(2 * col - 1, 2 * row_depth)
}

fn is_symmetric(row: &RefRow, (_, col): (i64, i64)) -> bool {
    row.start_slope.times(row.depth).at_most(col) && row.end_slope.times(row.depth).at_least(col)
}

/// Ford's `compute_fov` for one quadrant's worth of state.
struct RefFov<'a> {
    grid: &'a Grid,
    opaque: &'a ByteSet,
    origin: (i64, i64),
    quadrant: usize,
    seen: Vec<bool>,
}

impl RefFov<'_> {
    fn transform(&self, (row, col): (i64, i64)) -> (i64, i64) {
        let (ox, oy) = self.origin;
        match self.quadrant {
            0 => (ox + col, oy - row), // north
            1 => (ox + row, oy + col), // east
            2 => (ox + col, oy + row), // south
            _ => (ox - row, oy + col), // west
        }
    }

    fn inside(&self, (x, y): (i64, i64)) -> Option<Pos> {
        let (w, h) = (self.grid.width() as i64, self.grid.height() as i64);
        ((1..=w).contains(&x) && (1..=h).contains(&y)).then_some(Pos {
            x: x as usize,
            y: y as usize,
        })
    }

    fn is_blocking(&self, xy: (i64, i64)) -> bool {
        self.inside(xy)
            .is_none_or(|p| self.opaque[self.grid.get(p) as usize])
    }

    fn mark_visible(&mut self, xy: (i64, i64)) {
        if let Some(p) = self.inside(xy) {
            let i = self.grid.index(p);
            self.seen[i] = true;
        }
    }

    fn reveal(&mut self, tile: (i64, i64)) {
        let xy = self.transform(tile);
        self.mark_visible(xy);
    }

    fn is_wall(&self, tile: Option<(i64, i64)>) -> bool {
        tile.is_some_and(|t| self.is_blocking(self.transform(t)))
    }

    fn is_floor(&self, tile: Option<(i64, i64)>) -> bool {
        tile.is_some_and(|t| !self.is_blocking(self.transform(t)))
    }

    fn scan(&mut self, mut row: RefRow) {
        let mut prev_tile = None;
        for tile in row.tiles() {
            if self.is_wall(Some(tile)) || is_symmetric(&row, tile) {
                self.reveal(tile);
            }
            if self.is_wall(prev_tile) && self.is_floor(Some(tile)) {
                row.start_slope = slope(tile);
            }
            if self.is_floor(prev_tile) && self.is_wall(Some(tile)) {
                let mut next_row = row.next();
                next_row.end_slope = slope(tile);
                self.scan(next_row);
            }
            prev_tile = Some(tile);
        }
        if self.is_floor(prev_tile) {
            self.scan(row.next());
        }
    }
}

fn reference_fov(grid: &Grid, origin: Pos, opaque: &ByteSet) -> Vec<bool> {
    let mut fov = RefFov {
        grid,
        opaque,
        origin: (origin.x as i64, origin.y as i64),
        quadrant: 0,
        seen: vec![false; grid.cells().len()],
    };
    fov.mark_visible(fov.origin);
    for quadrant in 0..4 {
        fov.quadrant = quadrant;
        fov.scan(RefRow {
            depth: 1,
            start_slope: Frac(-1, 1),
            end_slope: Frac(1, 1),
        });
    }
    fov.seen
}

/// Opaque sets to try: walls, and walls plus a character that is often present.
fn opaque_sets() -> [ByteSet; 3] {
    [byte_set(b"#"), byte_set(b"#+~"), byte_set(b"#$!>")]
}

#[test]
fn fov_equals_fords_reference() {
    let mut rng = Rng::new(1);
    let mut checked = 0;
    for (case, g) in all_cases() {
        for opaque in opaque_sets() {
            let corners = [
                Pos { x: 1, y: 1 },
                Pos {
                    x: g.width(),
                    y: g.height(),
                },
            ];
            let origins = (0..6).map(|_| random_cell(&mut rng, &g)).chain(corners);
            for origin in origins {
                let got = visible(&g, origin, None, &opaque);
                assert_eq!(
                    got,
                    reference_fov(&g, origin, &opaque),
                    "{case}, origin {origin:?}"
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 1000);
}

#[test]
fn fov_is_symmetric_between_transparent_cells() {
    let mut rng = Rng::new(2);
    for (case, g) in all_cases() {
        for opaque in opaque_sets() {
            let cells = cells_not_in(&mut rng, &g, &opaque, 40);
            let seen: Vec<Vec<bool>> = cells
                .iter()
                .map(|&p| visible(&g, p, None, &opaque))
                .collect();
            for (a, pa) in cells.iter().enumerate() {
                for (b, pb) in cells.iter().enumerate() {
                    assert_eq!(
                        seen[a][g.index(*pb)],
                        seen[b][g.index(*pa)],
                        "{case}: {pa:?} and {pb:?}"
                    );
                }
            }
        }
    }
}

#[test]
fn fov_with_a_radius_is_the_disc_of_the_unlimited_one_even_in_a_window() {
    let mut rng = Rng::new(3);
    for (case, g) in all_cases() {
        let opaque = byte_set(b"#");
        for _ in 0..3 {
            let origin = random_cell(&mut rng, &g);
            let full = visible(&g, origin, None, &opaque);
            for r in [0, 1, 2, 3, 4, 5, 8, 13, 30] {
                let case = format!("{case}, origin {origin:?}, radius {r}");
                let got = visible(&g, origin, Some(r), &opaque);
                for (i, (&in_disc, &unlimited)) in got.iter().zip(&full).enumerate() {
                    let p = g.pos(i);
                    let (dx, dy) = (p.x.abs_diff(origin.x), p.y.abs_diff(origin.y));
                    let inside = dx * dx + dy * dy <= r * (r + 1);
                    assert_eq!(in_disc, unlimited && inside, "{case}: {p:?}");
                }
                check_window(&g, origin, r, &opaque, &got, &case);
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Distances and paths.

/// A random walk rule over the characters the cases use.
fn random_walk(rng: &mut Rng) -> Walk {
    const CHARS: &[u8] = b"#.~+@>$!";
    let mut blocked = byte_set(b"#");
    for &c in &CHARS[2..] {
        blocked[c as usize] = rng.below(6) == 0;
    }
    let cost = (rng.below(3) == 0).then(|| {
        let mut cost = Box::new([1; 256]);
        for &c in CHARS {
            cost[c as usize] = if rng.coin() {
                rng.range(1, 9) as u64
            } else {
                rng.range(1, 1 << 20) as u64
            };
        }
        cost
    });
    Walk {
        blocked,
        diagonal: rng.coin(),
        cost,
    }
}

/// Forward distances by a plain O(n^2) Dijkstra (or a plain BFS for unit
/// costs): pick the nearest unsettled cell, relax its legal steps.
fn reference_distances(g: &Grid, sources: &[Pos], walk: &Walk) -> Vec<u64> {
    let n = g.cells().len();
    let mut d = vec![UNREACHED; n];
    for &s in sources {
        d[g.index(s)] = 0;
    }
    if walk.cost.is_none() {
        let mut queue: std::collections::VecDeque<usize> =
            sources.iter().map(|&s| g.index(s)).collect();
        while let Some(i) = queue.pop_front() {
            for q in around(g, g.pos(i), true) {
                let j = g.index(q);
                if d[j] == UNREACHED && legal(g, walk, g.pos(i), q, None) {
                    d[j] = d[i] + 1;
                    queue.push_back(j);
                }
            }
        }
        return d;
    }
    let mut done = vec![false; n];
    while let Some(i) = (0..n)
        .filter(|&i| !done[i] && d[i] != UNREACHED)
        .min_by_key(|&i| d[i])
    {
        done[i] = true;
        for q in around(g, g.pos(i), true) {
            let j = g.index(q);
            if legal(g, walk, g.pos(i), q, None) {
                d[j] = d[j].min(d[i] + cost_of(g, walk, q));
            }
        }
    }
    d
}

/// Costs to `goal` from every cell, against the steps, a blocked `start`
/// allowed as the first cell: a full plain Dijkstra, no early stop.
fn reference_to_goal(g: &Grid, goal: Pos, start: Pos, walk: &Walk) -> Vec<u64> {
    let n = g.cells().len();
    let mut h = vec![UNREACHED; n];
    let mut done = vec![false; n];
    h[g.index(goal)] = 0;
    while let Some(i) = (0..n)
        .filter(|&i| !done[i] && h[i] != UNREACHED)
        .min_by_key(|&i| h[i])
    {
        done[i] = true;
        let u = g.pos(i);
        if walk.blocked[g.get(u) as usize] && u != goal {
            continue; // the start: the walk's first cell, never passed through
        }
        for v in around(g, u, true) {
            if legal(g, walk, v, u, None) && legal(g, walk, u, v, Some(start)) {
                let j = g.index(v);
                h[j] = h[j].min(h[i] + cost_of(g, walk, u));
            }
        }
    }
    h
}

/// The documented tie rule, walked over the full backward search.
fn reference_path(g: &Grid, from: Pos, to: Pos, walk: &Walk) -> Option<Vec<Pos>> {
    let h = reference_to_goal(g, to, from, walk);
    if h[g.index(from)] == UNREACHED {
        return None;
    }
    let mut cells = vec![from];
    let mut v = from;
    while v != to {
        v = around(g, v, true)
            .into_iter()
            .filter(|&q| walk.diagonal || q.x == v.x || q.y == v.y)
            .find(|&u| {
                let hu = h[g.index(u)];
                legal(g, walk, v, u, None)
                    && hu != UNREACHED
                    && hu + cost_of(g, walk, u) == h[g.index(v)]
            })
            .expect("a next step");
        cells.push(v);
    }
    Some(cells)
}

/// Sources: one to three cells, blocked or not, sometimes repeated.
fn sources(rng: &mut Rng, g: &Grid) -> Vec<Pos> {
    let mut s: Vec<Pos> = (0..rng.range(1, 3)).map(|_| random_cell(rng, g)).collect();
    if rng.below(5) == 0 {
        s.push(s[0]);
    }
    s
}

#[test]
fn distances_equal_a_plain_search() {
    let mut rng = Rng::new(4);
    for (case, g) in all_cases() {
        for _ in 0..4 {
            let walk = random_walk(&mut rng);
            let src = sources(&mut rng, &g);
            assert_eq!(
                distances(&g, &src, &walk),
                reference_distances(&g, &src, &walk),
                "{case}, sources {src:?}, {walk:?}"
            );
        }
    }
}

#[test]
fn paths_are_legal_as_cheap_as_distances_and_follow_the_tie_rule() {
    let mut rng = Rng::new(5);
    let (mut found, mut missing) = (0, 0);
    for (case, g) in all_cases() {
        for _ in 0..4 {
            let walk = random_walk(&mut rng);
            let from = random_cell(&mut rng, &g);
            let d = distances(&g, &[from], &walk);
            // Goals: mostly open cells, sometimes any cell or the start.
            let mut goals = cells_not_in(&mut rng, &g, &walk.blocked, 4);
            goals.extend([random_cell(&mut rng, &g), from]);
            for to in goals {
                let case = format!("{case}, {from:?} to {to:?}, {walk:?}");
                let got = path(&g, from, to, &walk);
                let blocked = walk.blocked[g.get(to) as usize] && to != from;
                match got {
                    Ok(cells) => {
                        assert!(!blocked, "{case}");
                        assert_eq!((cells[0], cells[cells.len() - 1]), (from, to), "{case}");
                        let mut cost = 0;
                        for pair in cells.windows(2) {
                            assert!(legal(&g, &walk, pair[0], pair[1], None), "{case}: {pair:?}");
                            cost += cost_of(&g, &walk, pair[1]);
                        }
                        assert_eq!(cost, d[g.index(to)], "{case}: cost");
                        let expected = reference_path(&g, from, to, &walk);
                        assert_eq!(Some(cells), expected, "{case}: tie rule");
                        found += 1;
                    }
                    Err(NoPath::GoalBlocked { goal }) => {
                        assert!(blocked && goal == to, "{case}");
                        missing += 1;
                    }
                    Err(NoPath::NotConnected { from: f, to: t }) => {
                        assert!(!blocked && (f, t) == (from, to), "{case}");
                        assert_eq!(d[g.index(to)], UNREACHED, "{case}");
                        missing += 1;
                    }
                }
            }
        }
    }
    assert!(
        found > 1000 && missing > 100,
        "{found} paths, {missing} refusals"
    );
}

// ---------------------------------------------------------------------------
// Reachability and the flood.

#[test]
fn reachability_matches_a_reference_search() {
    let mut rng = Rng::new(5);
    let mut cut = 0;
    for n in 0..3000 {
        let (w, h) = (rng.range(1, 30), rng.range(1, 30));
        let walls = rng.below(101);
        let palette = [FLOOR, GOLD, POTION, STAIRS, PLAYER, b'x'];
        let cells: Vec<u8> = (0..w * h)
            .map(|_| {
                if rng.below(100) < walls {
                    WALL
                } else if rng.below(100) < 85 {
                    FLOOR
                } else {
                    palette[rng.below(palette.len())]
                }
            })
            .collect();
        let g = Grid::from_cells(w, h, cells);
        let got = reach::check(&g);
        assert_eq!(got, oracle::reachability(&g), "case {n}: {w}x{h}");
        cut += usize::from(matches!(got, Err(Unreachable::Cut { .. })));
        // The flood from a random cell: the farthest floor cell, and every
        // open cell it reached.
        let start = Pos {
            x: rng.range(1, w),
            y: rng.range(1, h),
        };
        let mut flood = Flood::new(&g, |c| match c {
            WALL => flood::CLOSED,
            FLOOR => flood::WANTED,
            _ => flood::OPEN,
        });
        let farthest = flood.farthest(start);
        let floor = |p: Pos| g.get(p) == FLOOR;
        assert_eq!(farthest, oracle::farthest(&g, start, floor), "case {n}");
        let dist = oracle::walk_distances(&g, start);
        for i in (0..dist.len()).filter(|&i| g.cells()[i] != WALL) {
            assert_eq!(flood.reached(g.pos(i)), dist[i].is_some(), "case {n}");
        }
    }
    assert!(cut > 100, "too few cut maps: {cut}");
}
