//! Caves by frontier growth, after Garth Dighton's cave builder
//! (rec.games.roguelike.development, April 2002).
//!
//! From the centre, each step carves the current cell, adds each of its rock
//! neighbours to a frontier list with probability `(max - len) / max`, then
//! moves to a random frontier cell. Every carved cell touches an earlier one,
//! so the cave is connected by construction. Unlike the original, the border
//! stays rock, frontier marks never reach the grid, and a frontier that runs
//! dry is refilled instead of crashing, so the target is always carved.

use crate::generators::{Generator, Default, Kind, Layout, OptionSpec, Options};
use super::shared::{fill_option, fill_target};
use crate::grid::{Grid, Pos, FLOOR};
use crate::input::MAX_CELLS;
use crate::rng::Rng;

pub const GENERATOR: Generator = Generator {
    name: "cave",
    doc: "one winding cave grown from the centre (Dighton's frontier growth)",
    // One interior row or column inside the border.
    min_width: 3,
    min_height: 3,
    options: &[FILL, MAX_FRONTIER, super::shared::LOCKS],
    terrain: &super::ROCK,
    hides: true,
    carve: layout,
    bound: super::no_bound,
};

const FILL: OptionSpec = fill_option(0.5);

const MAX_FRONTIER: OptionSpec = OptionSpec {
    name: "max_frontier",
    kind: Kind::Int {
        min: 1,
        max: MAX_CELLS as i64,
    },
    default: Default::ShorterSide,
    doc: "the frontier's soft cap: low values make narrow passages",
};

/// `round(fill * interior cells)` carved, `@` at the centre where carving
/// starts; `>` by the shared rule (the farthest floor cell).
fn layout(grid: &mut Grid, opts: &Options, rng: &mut Rng) -> Result<Layout, String> {
    let (fill, max_frontier) = (opts.number(&FILL), opts.count(&MAX_FRONTIER));
    let target = fill_target(fill, grid.width(), grid.height())?;
    let player = carve(grid, target, max_frontier, rng).start;
    Ok(Layout {
        rooms: Vec::new(),
        player,
        stairs: None,
        blocked: None,
    })
}

/// What `carve` did.
#[derive(Debug)]
pub struct Cave {
    /// Where carving started: the centre.
    pub start: Pos,
    /// How often the frontier ran dry and was refilled.
    pub refills: usize,
}

/// Carves exactly `target` interior cells of the solid `grid` (at least 3x3,
/// `1 <= target <= interior cells`).
pub fn carve(grid: &mut Grid, target: usize, max_frontier: usize, rng: &mut Rng) -> Cave {
    let (w, h) = (grid.width(), grid.height());
    let start = Pos {
        x: w.div_ceil(2),
        y: h.div_ceil(2),
    };
    let mut queued = vec![false; w * h];
    // The border is never queued: marking it up front makes `queued` alone
    // decide which neighbours are candidates (no interior test per cell).
    for x in 0..w {
        queued[x] = true;
        queued[(h - 1) * w + x] = true;
    }
    for y in 0..h {
        queued[y * w] = true;
        queued[y * w + w - 1] = true;
    }
    let mut frontier: Vec<usize> = Vec::new();
    let mut carved: Vec<usize> = Vec::with_capacity(target);
    // Carved cells before `scan` have no rock left around them (see `refill`).
    let mut scan = 0;
    let mut refills = 0;
    let mut current = grid.index(start);
    queued[current] = true;
    loop {
        grid.set_at(current, FLOOR);
        carved.push(current);
        if carved.len() == target {
            return Cave { start, refills };
        }
        for n in rock_neighbours(grid, current, &queued)
            .into_iter()
            .flatten()
        {
            // The original's `random(MAXBORDERS) > #frontier`.
            if rng.range(1, max_frontier) > frontier.len() {
                queued[n] = true;
                frontier.push(n);
            }
        }
        if frontier.is_empty() {
            refills += 1;
            refill(grid, &carved, &mut scan, &mut queued, &mut frontier);
        }
        current = frontier.swap_remove(rng.below(frontier.len()));
    }
}

/// Interior rock cells next to `i` that are not yet on the frontier, in the
/// order left, right, up, down.
fn rock_neighbours(grid: &Grid, i: usize, queued: &[bool]) -> [Option<usize>; 4] {
    let w = grid.width();
    [i - 1, i + 1, i - w, i + w].map(|n| (!queued[n]).then_some(n))
}

#[cfg(test)]
fn is_interior(grid: &Grid, i: usize) -> bool {
    let p = grid.pos(i);
    p.x > 1 && p.y > 1 && p.x < grid.width() && p.y < grid.height()
}

/// Refills an empty frontier with the rock neighbours of the earliest carved
/// cell that still has any. Rock only ever turns to floor, so a cell found
/// without rock neighbours never gets one back: `scan` only moves forward and
/// the refills cost O(carved) in all. Some cell has rock left, since fewer
/// than all interior cells are carved.
fn refill(
    grid: &Grid,
    carved: &[usize],
    scan: &mut usize,
    queued: &mut [bool],
    frontier: &mut Vec<usize>,
) {
    while frontier.is_empty() {
        let cell = carved[*scan];
        frontier.extend(rock_neighbours(grid, cell, queued).into_iter().flatten());
        if frontier.is_empty() {
            *scan += 1;
        }
    }
    for &n in frontier.iter() {
        queued[n] = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::WALL;
    use crate::toolkit::board::{Walk, UNREACHED};
    use crate::toolkit::distances::distances;

    fn cave(w: usize, h: usize, target: usize, max_frontier: usize, seed: i64) -> (Grid, Cave) {
        let mut g = Grid::new(w, h, WALL);
        let cave = carve(&mut g, target, max_frontier, &mut Rng::new(seed));
        (g, cave)
    }

    fn check(g: &Grid, cave: &Cave, target: usize) {
        let floor = g.cells().iter().filter(|&&c| c == FLOOR).count();
        assert_eq!(floor, target, "carved count");
        assert!(
            g.cells().iter().all(|&c| c == FLOOR || c == WALL),
            "marker leaked"
        );
        for i in 0..g.cells().len() {
            if !is_interior(g, i) {
                assert_eq!(g.cells()[i], WALL, "border broken at {:?}", g.pos(i));
            }
        }
        let dist = distances(g, &[cave.start], &Walk::new());
        assert!(
            (0..g.cells().len()).all(|i| g.cells()[i] != FLOOR || dist[i] != UNREACHED),
            "cave not connected"
        );
    }

    #[test]
    fn caves_are_connected_exact_and_bordered() {
        let mut dry = 0;
        for seed in 0..300 {
            for (w, h) in [
                (3usize, 200usize),
                (4, 200),
                (5, 200),
                (8, 200),
                (80, 50),
                (20, 20),
            ] {
                let target = ((w - 2) * (h - 2)).div_ceil(2);
                let (g, c) = cave(w, h, target, w.min(h), seed);
                check(&g, &c, target);
                dry += usize::from(c.refills > 0);
            }
        }
        assert!(dry > 0, "no seed exercised a refill");
    }

    #[test]
    fn a_dry_frontier_is_refilled() {
        // max_frontier 1 lets the frontier hold one cell, so it runs dry often.
        for seed in 0..50 {
            let (g, c) = cave(30, 30, 28 * 28 - 1, 1, seed);
            assert!(c.refills > 0);
            check(&g, &c, 28 * 28 - 1);
        }
    }

    #[test]
    fn full_fill_carves_the_whole_interior() {
        let (g, c) = cave(10, 6, 8 * 4, 6, 3);
        check(&g, &c, 32);
    }

    #[test]
    fn starts_at_the_centre() {
        let (g, c) = cave(80, 50, 1, 50, 1);
        assert_eq!(c.start, Pos { x: 40, y: 25 });
        assert_eq!(g.get(c.start), FLOOR);
    }

}

#[cfg(test)]
mod measure {
    use super::*;
    use crate::grid::WALL;

    /// `cargo test dry_seeds -- --ignored --nocapture`: how often the frontier
    /// runs dry at 80x50, the figure docs/generators.md quotes.
    #[test]
    #[ignore]
    fn dry_seeds() {
        let seeds = 10_000;
        let dry = (0..seeds)
            .filter(|&seed| {
                let mut g = Grid::new(80, 50, WALL);
                carve(&mut g, 78 * 48 / 2, 50, &mut Rng::new(seed)).refills > 0
            })
            .count();
        println!("80x50 fill 0.5: {dry} of {seeds} seeds ran dry");
    }
}
