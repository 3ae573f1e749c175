//! Putting things on the floor: items on distinct free floor cells.

use crate::grid::{Grid, Pos, FLOOR, GOLD, POTION};
use crate::rng::Rng;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Item {
    pub pos: Pos,
    /// `$` or `!`.
    pub kind: u8,
}

/// Up to this many items, the shuffle below is kept sparse.
const SPARSE_ITEMS: usize = 32;

/// Puts `count` items on distinct plain floor (`.`) cells, chosen uniformly,
/// each `$` or `!` at even odds. Errors if there are fewer free cells.
///
/// The choice is a partial Fisher-Yates shuffle of the floor cells in row
/// order: slot `k` swaps with a random slot `pick >= k` and becomes item `k`.
/// For a few items only the swapped slots are stored and the others are
/// found by counting floor cells row by row, so a handful of items on a
/// large map does not list every floor cell; both ways make the same draws
/// and the same choice.
pub fn place(grid: &mut Grid, count: usize, rng: &mut Rng) -> Result<Vec<Item>, String> {
    let floor = Floor::new(grid);
    if count > floor.len() {
        return Err(format!(
            "cannot place {count} items: only {} free floor cells",
            floor.len()
        ));
    }
    let picks = if count <= SPARSE_ITEMS {
        sparse_shuffle(&floor, count, rng)
    } else {
        dense_shuffle(&floor, count, rng)
    };
    Ok(picks
        .into_iter()
        .map(|(cell, kind)| {
            let pos = grid.pos(cell);
            grid.set(pos, kind);
            Item { pos, kind }
        })
        .collect())
}

/// The floor cells of a grid, in row order, counted per row.
struct Floor<'a> {
    grid: &'a Grid,
    per_row: Vec<usize>,
    total: usize,
}

impl<'a> Floor<'a> {
    fn new(grid: &'a Grid) -> Floor<'a> {
        let per_row: Vec<usize> = grid.rows().map(count_floor).collect();
        let total = per_row.iter().sum();
        Floor {
            grid,
            per_row,
            total,
        }
    }

    fn len(&self) -> usize {
        self.total
    }

    /// The cell index of the `n`th floor cell (0-based) in row order.
    fn nth(&self, mut n: usize) -> usize {
        let w = self.grid.width();
        for (y, &count) in self.per_row.iter().enumerate() {
            if n < count {
                let row = &self.grid.cells()[y * w..(y + 1) * w];
                let x = row
                    .iter()
                    .enumerate()
                    .filter(|&(_, &c)| c == FLOOR)
                    .nth(n)
                    .map(|(x, _)| x);
                return y * w + x.expect("the row has n floor cells");
            }
            n -= count;
        }
        unreachable!("fewer than n floor cells")
    }

    /// Every floor cell index, in row order.
    fn all(&self) -> Vec<u32> {
        // Without a branch per cell (floor and wall alternate unpredictably):
        // each index is written, and kept if it is floor.
        let mut free = vec![0u32; self.total + 1];
        let mut n = 0;
        for (i, &c) in self.grid.cells().iter().enumerate() {
            free[n] = i as u32;
            n += usize::from(c == FLOOR);
        }
        free.truncate(self.total);
        free
    }
}

/// How many of `cells` are floor.
fn count_floor(cells: &[u8]) -> usize {
    count(cells, FLOOR)
}

/// How many of `cells` are `cell`. Counted in `u8`s, 255 cells at a time,
/// which the compiler turns into 16-byte vector compares; `filter().count()`
/// widens every cell to a `u64` and runs several times slower.
pub fn count(cells: &[u8], cell: u8) -> usize {
    cells
        .chunks(255)
        .map(|chunk| usize::from(chunk.iter().fold(0u8, |n, &c| n + u8::from(c == cell))))
        .sum()
}

/// The draws of one item: its slot's partner, then its kind.
fn draw(k: usize, total: usize, rng: &mut Rng) -> (usize, u8) {
    let pick = rng.range(k, total - 1);
    let kind = if rng.coin() { POTION } else { GOLD };
    (pick, kind)
}

fn dense_shuffle(floor: &Floor, count: usize, rng: &mut Rng) -> Vec<(usize, u8)> {
    let mut free = floor.all();
    (0..count)
        .map(|k| {
            let (pick, kind) = draw(k, free.len(), rng);
            free.swap(k, pick);
            (free[k] as usize, kind)
        })
        .collect()
}

fn sparse_shuffle(floor: &Floor, count: usize, rng: &mut Rng) -> Vec<(usize, u8)> {
    // Slots moved by earlier swaps, with the cell they now hold. Slot `k` is
    // never read after step `k` (picks are >= k), so only `pick` is recorded.
    let mut moved: Vec<(usize, usize)> = Vec::with_capacity(count);
    let slot = |moved: &[(usize, usize)], s: usize| {
        moved
            .iter()
            .rev()
            .find(|&&(m, _)| m == s)
            .map_or_else(|| floor.nth(s), |&(_, cell)| cell)
    };
    (0..count)
        .map(|k| {
            let (pick, kind) = draw(k, floor.len(), rng);
            let (mine, theirs) = (slot(&moved, k), slot(&moved, pick));
            moved.push((pick, mine));
            (theirs, kind)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::WALL;

    #[test]
    fn items_land_on_distinct_floor_cells() {
        for seed in 0..100 {
            let mut g = Grid::from_cells(5, 2, b"#....@>..#".to_vec());
            let placed = place(&mut g, 6, &mut Rng::new(seed)).unwrap();
            assert_eq!(placed.len(), 6);
            assert_eq!(g.cells().iter().filter(|&&c| c == FLOOR).count(), 0);
            assert_eq!(g.get(Pos { x: 1, y: 2 }), b'@');
            for it in &placed {
                assert_eq!(g.get(it.pos), it.kind);
                assert!(it.kind == GOLD || it.kind == POTION);
            }
        }
    }

    #[test]
    fn both_kinds_occur() {
        let mut g = Grid::new(10, 10, FLOOR);
        let placed = place(&mut g, 40, &mut Rng::new(3)).unwrap();
        assert!(placed.iter().any(|i| i.kind == GOLD));
        assert!(placed.iter().any(|i| i.kind == POTION));
    }

    #[test]
    fn too_many_items_is_an_error_and_changes_nothing() {
        let mut g = Grid::from_cells(3, 1, b"#.#".to_vec());
        let before = g.clone();
        let err = place(&mut g, 2, &mut Rng::new(0)).unwrap_err();
        assert_eq!(err, "cannot place 2 items: only 1 free floor cells");
        assert_eq!(g, before);
        assert_eq!(
            place(&mut Grid::new(2, 2, WALL), 0, &mut Rng::new(0)),
            Ok(vec![])
        );
    }

    #[test]
    fn sparse_and_dense_shuffles_choose_alike() {
        for seed in 0..200 {
            let mut rng = Rng::new(seed);
            let (w, h) = (rng.range(1, 40), rng.range(1, 12));
            let cells = (0..w * h)
                .map(|_| if rng.coin() { FLOOR } else { WALL })
                .collect();
            let g = Grid::from_cells(w, h, cells);
            let floor = Floor::new(&g);
            let count = floor.len().min(SPARSE_ITEMS);
            let sparse = sparse_shuffle(&floor, count, &mut Rng::new(seed));
            let dense = dense_shuffle(&floor, count, &mut Rng::new(seed));
            assert_eq!(sparse, dense, "seed {seed}");
        }
    }

    #[test]
    fn floor_is_counted_past_255_cells() {
        let g = Grid::new(600, 2, FLOOR);
        assert_eq!(Floor::new(&g).len(), 1200);
        assert_eq!(Floor::new(&g).nth(1199), 1199);
    }
}
