//! What several generators share while carving: the L-shaped corridor
//! (rooms, bsp), the `fill` option and its count (cave, drunkard), the
//! `doors` option (rooms, bsp), the `locks` option (every one carved from
//! rock) and the bound on rooms. (`loops.rs` holds
//! the `loops` option and its corridors, `touches.rs` what rooms touch.)

use std::collections::HashMap;

use super::{Default, Kind, OptionSpec};
use crate::grid::{Grid, Pos, FLOOR};
use crate::rng::Rng;

/// The most rooms one map may ask for. Corridor work grows with rooms times
/// the map's width plus height, so this bounds the slowest valid map
/// (docs/hardening.md has the measured worst case).
pub const MAX_ROOMS: i64 = 10_000;

/// The option that asks for doors, for the generators with rooms to declare;
/// the level pipeline puts them (`level/doors.rs`) when it is true.
pub const DOORS: OptionSpec = OptionSpec {
    name: "doors",
    kind: Kind::Bool,
    default: Default::Bool(false),
    doc: "put + where a corridor enters a room's wall, no two doors touching",
};

/// The most locks a level may ask for: a letter each.
pub const MAX_LOCKS: i64 = 26;

/// The option that asks for keys and locks, which every generator carving
/// from rock declares; the level pipeline puts them (`level/locks.rs`).
pub const LOCKS: OptionSpec = OptionSpec {
    name: "locks",
    kind: Kind::Int {
        min: 0,
        max: MAX_LOCKS,
    },
    default: Default::Int(0),
    doc: "locked doors A, B, ... on chokepoints, key a, b, ... of each on @'s side of it; \
          fewer when the level has too few chokepoints",
};

/// The `fill` option of the generators that carve an exact share of the
/// interior (`cave`, `drunkard`), counted by `fill_target`.
pub const fn fill_option(default: f64) -> OptionSpec {
    OptionSpec {
        name: "fill",
        kind: Kind::Number {
            min: 0.0,
            max: 1.0,
            open_min: true,
        },
        default: Default::Number(default),
        doc: "the fraction of the interior to carve",
    }
}

/// The number of cells `fill` of a `width` x `height` map's interior
/// carves: `round(fill * interior)`, halves up; an error when that leaves
/// no room for `@` and `>` (cave and drunkard count their target so).
pub fn fill_target(fill: f64, width: usize, height: usize) -> Result<usize, String> {
    let interior = (width - 2) * (height - 2);
    let target = (fill * interior as f64).round() as usize;
    if target < 2 {
        return Err(format!(
            "fill {fill} of the {interior} interior cells of a {width}x{height} map carves \
             {target}; @ and > need at least 2"
        ));
    }
    Ok(target)
}

/// L-shaped corridors: from `a` to `b`, the horizontal leg first or the
/// vertical leg first, by a coin. Both legs stay in the rectangle the two
/// points span.
///
/// Vertical legs of `long_leg` rows or more skip the rows such legs carved
/// before in the same column: a union-find per column whose roots are the
/// rows not yet carved (each carved row points further down). On tall,
/// narrow maps the corridors run down the same few columns, and this way
/// each cell is carved once. The map is the same either way, as carving
/// floor twice changes nothing.
pub struct Corridors {
    next: HashMap<usize, Vec<u32>>,
    long_leg: usize,
}

/// Vertical legs at least this long go through the union-find: shorter
/// ones are cheaper to carve again than to look up.
const LONG_LEG: usize = 64;

impl std::default::Default for Corridors {
    fn default() -> Corridors {
        Corridors::with_long_leg(LONG_LEG)
    }
}

impl Corridors {
    /// `long_leg` other than `LONG_LEG`: the tests compare thresholds.
    pub(crate) fn with_long_leg(long_leg: usize) -> Corridors {
        Corridors {
            next: HashMap::new(),
            long_leg,
        }
    }

    /// Carves an L from `a` to `b`.
    pub fn carve(&mut self, grid: &mut Grid, a: Pos, b: Pos, rng: &mut Rng) {
        let corner = if rng.coin() {
            Pos { x: b.x, y: a.y }
        } else {
            Pos { x: a.x, y: b.y }
        };
        self.line(grid, a, corner);
        self.line(grid, corner, b);
    }

    /// Carves a straight horizontal or vertical line, both ends included.
    fn line(&mut self, grid: &mut Grid, a: Pos, b: Pos) {
        let top_left = Pos {
            x: a.x.min(b.x),
            y: a.y.min(b.y),
        };
        let (w, h) = (a.x.abs_diff(b.x) + 1, a.y.abs_diff(b.y) + 1);
        if w == 1 && h >= self.long_leg {
            self.column(grid, top_left.x, top_left.y, top_left.y + h - 1);
        } else {
            grid.fill(top_left, w, h, FLOOR);
        }
    }

    /// Carves rows `top..=bottom` (1-based) of column `x`, skipping those
    /// long legs carved before.
    fn column(&mut self, grid: &mut Grid, x: usize, top: usize, bottom: usize) {
        let height = grid.height();
        let next = self
            .next
            .entry(x)
            .or_insert_with(|| (0..=height as u32).collect());
        let mut y = find(next, top);
        while y <= bottom {
            grid.set(Pos { x, y }, FLOOR);
            next[y] = y as u32 + 1;
            y = find(next, y + 1);
        }
    }
}

/// The first row at or below `y` not yet carved (`next[r] == r`), halving
/// the path on the way.
fn find(next: &mut [u32], mut y: usize) -> usize {
    while next[y] as usize != y {
        let up = next[y] as usize;
        next[y] = next[up];
        y = up;
    }
    y
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::WALL;

    #[test]
    fn corridor_is_an_l_joining_both_ends() {
        for long_leg in [LONG_LEG, 1] {
            for seed in 0..20 {
                let mut g = Grid::new(12, 10, WALL);
                let (a, b) = (Pos { x: 2, y: 8 }, Pos { x: 10, y: 3 });
                Corridors::with_long_leg(long_leg).carve(&mut g, a, b, &mut Rng::new(seed));
                let floor = g.cells().iter().filter(|&&c| c == FLOOR).count();
                assert_eq!(floor, 9 + 6 - 1, "two legs sharing the corner");
                assert_eq!(g.get(a), FLOOR);
                assert_eq!(g.get(b), FLOOR);
                let corner_h = g.get(Pos { x: 10, y: 8 }) == FLOOR;
                let corner_v = g.get(Pos { x: 2, y: 3 }) == FLOOR;
                assert!(corner_h != corner_v, "exactly one corner");
            }
        }
    }
}
