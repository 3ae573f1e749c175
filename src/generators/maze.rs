//! Mazes: a perfect maze by randomized depth-first search (the "recursive
//! backtracker", with an explicit stack), optionally braided into loops.
//!
//! The maze's cells are the lattice of interior cells at even 1-based
//! coordinates, `x = 2, 4, 6, ...` and `y = 2, 4, 6, ...`, with a wall cell
//! between neighbours that a passage opens. A map of even width (height)
//! has one interior column (row) beyond the last lattice cell, which stays
//! wall: a doubled wall at the right (bottom).
//!
//! - Generation: from the first lattice cell (2,2), the search moves to a
//!   random unvisited neighbour of the cell on top of its stack (the
//!   `below(n)`th of the `n` in the order left, right, up, down), opening the
//!   wall between, and backs up when there is none. Every lattice cell is
//!   visited once, so the passages form a spanning tree: one way between any
//!   two cells. Not uniform over all mazes: depth-first search favours long
//!   winding corridors with few branches and few (about a tenth) dead ends,
//!   the classic roguelike maze look.
//! - Braiding (Jamis Buck's "braid"): the dead ends (cells with one passage)
//!   are listed in row order and shuffled; the first `round(braid * dead
//!   ends)` of them, if still dead ends when their turn comes, open a wall to
//!   a random neighbour they are not joined to, another dead end if any is
//!   adjacent (which removes two dead ends at once). `braid = 0` is the
//!   perfect maze; `braid = 1` leaves no dead end on a lattice at least two
//!   cells each way (on a single row or column nothing can be opened).
//! - `@`: the first lattice cell (2,2), where the search starts.

use crate::generators::{self, Generator, Kind, Layout, OptionSpec, Options};
use crate::grid::{Grid, Pos, FLOOR, WALL};
use crate::rng::Rng;

/// A 5x3 map is the smallest with 2 lattice cells ((2,2) and (4,2), joined
/// through (3,2)); 3x5 would do too, but maps are usually wider than tall,
/// as in `cellular` and `drunkard`.
pub const GENERATOR: Generator = Generator {
    name: "maze",
    doc: "A maze by randomized depth-first search on the odd cells, optionally braided into loops",
    min_width: 5,
    min_height: 3,
    options: &[BRAID, super::shared::LOCKS],
    terrain: &super::ROCK,
    hides: true,
    carve,
    bound: super::no_bound,
};

const BRAID: OptionSpec = OptionSpec {
    name: "braid",
    kind: Kind::Number {
        min: 0.0,
        max: 1.0,
        open_min: false,
    },
    default: generators::Default::Number(0.0),
    doc: "fraction of dead ends opened into loops (0: a perfect maze, 1: none left)",
};

/// A lattice cell's passages, one bit per direction `d` (`1 << d`), in
/// `Lattice::open`; directions are left, right, up, down.
const LEFT: usize = 0;
const RIGHT: usize = 1;
const UP: usize = 2;
const DOWN: usize = 3;
const PASSAGES: u8 = 0b1111;
/// Set on each visited cell.
const VISITED: u8 = 16;
/// Set on the padding ring around the lattice, so it is never visited and
/// never opened to.
const OUTSIDE: u8 = 32;

/// `NTH_DIRECTION[bits][k]`: the `k`th direction (from left) set in `bits`.
const NTH_DIRECTION: [[u8; 4]; 16] = nth_directions();

const fn nth_directions() -> [[u8; 4]; 16] {
    let mut table = [[0; 4]; 16];
    let mut bits = 0;
    while bits < 16 {
        let (mut direction, mut k) = (0, 0);
        while direction < 4 {
            if bits & (1 << direction) != 0 {
                table[bits][k] = direction as u8;
                k += 1;
            }
            direction += 1;
        }
        bits += 1;
    }
    table
}

fn bit(direction: usize) -> u8 {
    1 << direction
}

/// Left and right, up and down, swap.
fn opposite(direction: usize) -> usize {
    direction ^ 1
}

fn carve(grid: &mut Grid, options: &Options, rng: &mut Rng) -> Result<Layout, String> {
    let (w, h) = (grid.width(), grid.height());
    let mut lattice = Lattice::new(w, h);
    lattice.search(rng);
    lattice.braid(options.number(&BRAID), rng);
    *grid = lattice.draw(w, h);
    Ok(Layout {
        rooms: Vec::new(),
        player: Pos { x: 2, y: 2 },
        stairs: None,
        blocked: None,
    })
}

/// The maze's cells, with a padding ring: the lattice cell (i, j), 0-based,
/// is `open[(j + 1) * stride + i + 1]`, the grid cell `(2 + 2i, 2 + 2j)`.
struct Lattice {
    width: usize,
    height: usize,
    stride: usize,
    open: Vec<u8>,
    /// The index offset towards each direction.
    offsets: [usize; 4],
}

impl Lattice {
    fn new(grid_width: usize, grid_height: usize) -> Lattice {
        let (width, height) = ((grid_width - 1) / 2, (grid_height - 1) / 2);
        let stride = width + 2;
        let mut open = vec![OUTSIDE; stride * (height + 2)];
        for j in 1..=height {
            open[j * stride + 1..j * stride + 1 + width].fill(0);
        }
        let mut offsets = [0; 4];
        offsets[LEFT] = usize::MAX;
        offsets[RIGHT] = 1;
        offsets[UP] = stride.wrapping_neg();
        offsets[DOWN] = stride;
        Lattice {
            width,
            height,
            stride,
            open,
            offsets,
        }
    }

    fn neighbour(&self, cell: usize, direction: usize) -> usize {
        cell.wrapping_add(self.offsets[direction])
    }

    /// Opens the wall between `cell` and its neighbour towards `direction`.
    fn join(&mut self, cell: usize, direction: usize) {
        let next = self.neighbour(cell, direction);
        self.open[cell] |= bit(direction);
        self.open[next] |= bit(opposite(direction));
    }

    /// The randomized depth-first search from the first cell. The current
    /// cell is kept apart from the stack of cells to back up to, which
    /// holds at most every cell once (4 bytes each).
    fn search(&mut self, rng: &mut Rng) {
        let mut cell = self.stride + 1;
        self.open[cell] |= VISITED;
        let mut stack: Vec<u32> = Vec::new();
        loop {
            let unvisited = self.unvisited(cell);
            let count = unvisited.count_ones() as usize;
            if count == 0 {
                match stack.pop() {
                    Some(back) => cell = back as usize,
                    None => return,
                }
                continue;
            }
            // One choice needs no draw.
            let pick = if count == 1 { 0 } else { rng.below(count) };
            let direction = NTH_DIRECTION[unvisited as usize][pick] as usize;
            let next = self.neighbour(cell, direction);
            self.open[cell] |= bit(direction);
            self.open[next] |= VISITED | bit(opposite(direction));
            stack.push(cell as u32);
            cell = next;
        }
    }

    /// The directions from `cell` to unvisited cells, as bits. Collected
    /// without branches: which neighbours are visited is unpredictable.
    fn unvisited(&self, cell: usize) -> u8 {
        (0..4).fold(0, |bits, direction| {
            let n = self.open[self.neighbour(cell, direction)];
            bits | u8::from(n & (VISITED | OUTSIDE) == 0) << direction
        })
    }

    fn is_dead_end(&self, cell: usize) -> bool {
        (self.open[cell] & PASSAGES).count_ones() == 1
    }

    /// Opens `round(braid * dead ends)` of the dead ends, in a shuffled
    /// order (see the module doc). The shuffle is a partial Fisher-Yates:
    /// only the opened ones are drawn, and `braid = 0` draws nothing.
    fn braid(&mut self, braid: f64, rng: &mut Rng) {
        if braid == 0.0 {
            return;
        }
        let mut dead_ends: Vec<usize> = self.cells().filter(|&c| self.is_dead_end(c)).collect();
        let opened = (braid * dead_ends.len() as f64).round() as usize;
        for k in 0..opened {
            let pick = k + rng.below(dead_ends.len() - k);
            dead_ends.swap(k, pick);
            let cell = dead_ends[k];
            if self.is_dead_end(cell) {
                self.open_dead_end(cell, rng);
            }
        }
    }

    /// Joins the dead end `cell` to a random lattice neighbour it is not
    /// joined to, preferring neighbours that are dead ends too. Nothing
    /// happens when there is no such neighbour (a single row or column).
    fn open_dead_end(&mut self, cell: usize, rng: &mut Rng) {
        let closed: Vec<usize> = (0..4)
            .filter(|&d| self.open[cell] & bit(d) == 0)
            .filter(|&d| self.open[self.neighbour(cell, d)] & OUTSIDE == 0)
            .collect();
        let dead: Vec<usize> = closed
            .iter()
            .copied()
            .filter(|&d| self.is_dead_end(self.neighbour(cell, d)))
            .collect();
        let choices = if dead.is_empty() { closed } else { dead };
        if !choices.is_empty() {
            let direction = choices[rng.below(choices.len())];
            self.join(cell, direction);
        }
    }

    /// The lattice cells' indices, in row order.
    fn cells(&self) -> impl Iterator<Item = usize> + '_ {
        (1..=self.height).flat_map(move |j| (1..=self.width).map(move |i| j * self.stride + i))
    }

    /// The map: the lattice cells and their passages right and down (every
    /// passage is one of those from one of its two cells) on solid rock.
    /// The cells right of and below a lattice cell are always on the map
    /// (the border or a doubled wall at worst) and are written either way,
    /// `#` where closed: no branch on the maze's unpredictable shape.
    fn draw(&self, w: usize, h: usize) -> Grid {
        let mut cells = vec![WALL; w * h];
        // A table, not a choice, which the compiler turns into jumps that the
        // maze's unpredictable shape defeats.
        let cell = |open: u8, direction: usize| [WALL, FLOOR][usize::from(open >> direction & 1)];
        for j in 0..self.height {
            // The lattice row's grid row, 0-based, and the next, which holds
            // its passages down.
            let (lattice_row, below) = cells[(1 + 2 * j) * w..(3 + 2 * j) * w].split_at_mut(w);
            let open = &self.open[(j + 1) * self.stride + 1..][..self.width];
            let pairs = lattice_row[1..].chunks_exact_mut(2);
            for ((pair, under), &open) in pairs.zip(below[1..].chunks_exact_mut(2)).zip(open) {
                pair[0] = FLOOR;
                pair[1] = cell(open, RIGHT);
                under[0] = cell(open, DOWN);
            }
        }
        Grid::from_cells(w, h, cells)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generators::testing;
    use crate::generators::Value;

    fn run(w: usize, h: usize, seed: i64, braid: f64) -> Grid {
        let options = Options::new(vec![(BRAID.name, Value::Number(braid))]);
        let (grid, layout) = testing::run(carve, (w, h), seed, &options);
        check(&grid, &layout, w, h);
        grid
    }

    /// The contract: size kept, border whole, only `.` and `#`, at least 2
    /// floor cells, all reachable from `@` at (2,2); every lattice cell is
    /// floor, no pillar (both coordinates odd) is, and an even side leaves
    /// its last interior line wall.
    fn check(grid: &Grid, layout: &Layout, w: usize, h: usize) {
        assert_eq!((grid.width(), grid.height()), (w, h));
        assert_eq!(layout.player, Pos { x: 2, y: 2 });
        assert!(layout.stairs.is_none());
        let cells = grid.cells();
        assert!(cells.iter().all(|&c| c == FLOOR || c == WALL));
        for (i, &c) in cells.iter().enumerate() {
            let p = grid.pos(i);
            let edge = p.x == 1 || p.y == 1 || p.x == w || p.y == h;
            let doubled =
                (w.is_multiple_of(2) && p.x == w - 1) || (h.is_multiple_of(2) && p.y == h - 1);
            if edge || doubled || (!p.x.is_multiple_of(2) && !p.y.is_multiple_of(2)) {
                assert_eq!(c, WALL, "wall expected at {p:?}");
            } else if is_lattice(p) {
                assert_eq!(c, FLOOR, "lattice cell {p:?} not carved");
            }
        }
        testing::check_contract(grid, layout);
    }

    fn is_lattice(p: Pos) -> bool {
        p.x.is_multiple_of(2) && p.y.is_multiple_of(2)
    }

    fn floor(grid: &Grid) -> usize {
        grid.cells().iter().filter(|&&c| c == FLOOR).count()
    }

    /// Pairs of side-by-side floor cells.
    fn adjacent_pairs(grid: &Grid) -> usize {
        let (w, c) = (grid.width(), grid.cells());
        let across = (0..c.len()).filter(|&i| i % w + 1 < w && c[i] == FLOOR && c[i + 1] == FLOOR);
        let down = (0..c.len() - w).filter(|&i| c[i] == FLOOR && c[i + w] == FLOOR);
        across.count() + down.count()
    }

    /// Lattice cells with exactly one passage.
    fn dead_ends(grid: &Grid) -> usize {
        let (w, c) = (grid.width(), grid.cells());
        (0..c.len())
            .filter(|&i| is_lattice(grid.pos(i)) && c[i] == FLOOR)
            .filter(|&i| {
                [i - 1, i + 1, i - w, i + w]
                    .iter()
                    .filter(|&&n| c[n] == FLOOR)
                    .count()
                    == 1
            })
            .count()
    }

    const SIZES: [(usize, usize); 14] = [
        (5, 3),
        (6, 3),
        (5, 4),
        (6, 4),
        (5, 5),
        (7, 5),
        (8, 6),
        (11, 7),
        (12, 12),
        (80, 50),
        (79, 49),
        (300, 41),
        (41, 300),
        (300, 300),
    ];

    #[test]
    fn perfect_mazes_are_trees_over_every_lattice_cell() {
        for seed in 0..30 {
            for (w, h) in SIZES {
                let g = run(w, h, seed, 0.0);
                let lattice = ((w - 1) / 2) * ((h - 1) / 2);
                assert_eq!(floor(&g), 2 * lattice - 1, "{w}x{h}");
                assert_eq!(adjacent_pairs(&g), floor(&g) - 1, "{w}x{h}: a loop");
            }
        }
    }

    #[test]
    fn full_braiding_leaves_no_dead_end() {
        for seed in 0..30 {
            for (w, h) in SIZES {
                let g = run(w, h, seed, 1.0);
                let wide = (w - 1) / 2 >= 2 && (h - 1) / 2 >= 2;
                if wide {
                    assert_eq!(dead_ends(&g), 0, "{w}x{h}");
                } else {
                    // A single row: nothing to open, the perfect maze.
                    assert_eq!(g, run(w, h, seed, 0.0));
                }
            }
        }
    }

    #[test]
    fn partial_braiding_opens_at_least_its_share() {
        for seed in 0..30 {
            for braid in [0.25, 0.5, 0.75] {
                let before = dead_ends(&run(61, 41, seed, 0.0));
                let after = dead_ends(&run(61, 41, seed, braid));
                let opened = (braid * before as f64).round() as usize;
                assert!(after <= before - opened, "{after} > {before} - {opened}");
                assert!(after > 0);
            }
        }
    }

    #[test]
    fn odd_shapes_keep_the_contract() {
        for seed in 0..3 {
            for (w, h) in [(5, 2000), (6, 2000), (2000, 3), (2000, 4), (7, 2001)] {
                for braid in [0.0, 0.5, 1.0] {
                    run(w, h, seed, braid);
                }
            }
        }
    }

    #[test]
    fn the_smallest_maze_is_one_passage() {
        let g = run(5, 3, 1, 1.0);
        assert_eq!(g.render(), b"#####\n#...#\n#####");
    }

    #[test]
    fn same_seed_same_maze_other_seed_other_maze() {
        for braid in [0.0, 0.3, 1.0] {
            let a = run(81, 51, 7, braid);
            assert_eq!(a, run(81, 51, 7, braid));
            assert_ne!(a, run(81, 51, 8, braid));
        }
    }
}
