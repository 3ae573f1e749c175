//! Putting things on the floor: items on distinct free floor cells.

use crate::grid::{Grid, Pos, FLOOR, GOLD, POTION};
use crate::rng::Rng;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Item {
    pub pos: Pos,
    /// `$` or `!`.
    pub kind: u8,
}

/// Puts `count` items on distinct plain floor (`.`) cells, chosen uniformly,
/// each `$` or `!` at even odds. Errors if there are fewer free cells.
pub fn items(grid: &mut Grid, count: usize, rng: &mut Rng) -> Result<Vec<Item>, String> {
    // Count, then collect without a branch per cell (floor and wall cells
    // alternate unpredictably): each index is written, and kept if floor.
    let cells = grid.cells();
    let floor = cells.iter().filter(|&&c| c == FLOOR).count();
    let mut free = vec![0u32; floor + 1];
    let mut n = 0;
    for (i, &c) in cells.iter().enumerate() {
        free[n] = i as u32;
        n += usize::from(c == FLOOR);
    }
    free.truncate(floor);
    if count > free.len() {
        return Err(format!(
            "cannot place {count} items: only {} free floor cells",
            free.len()
        ));
    }
    // A partial Fisher-Yates shuffle: the first `count` slots become the pick.
    let mut placed = Vec::with_capacity(count);
    for k in 0..count {
        let pick = rng.range(k, free.len() - 1);
        free.swap(k, pick);
        let kind = if rng.coin() { POTION } else { GOLD };
        let pos = grid.pos(free[k] as usize);
        grid.set(pos, kind);
        placed.push(Item { pos, kind });
    }
    Ok(placed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::WALL;

    #[test]
    fn items_land_on_distinct_floor_cells() {
        for seed in 0..100 {
            let mut g = Grid::from_cells(5, 2, b"#....@>..#".to_vec());
            let placed = items(&mut g, 6, &mut Rng::new(seed)).unwrap();
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
        let placed = items(&mut g, 40, &mut Rng::new(3)).unwrap();
        assert!(placed.iter().any(|i| i.kind == GOLD));
        assert!(placed.iter().any(|i| i.kind == POTION));
    }

    #[test]
    fn too_many_items_is_an_error_and_changes_nothing() {
        let mut g = Grid::from_cells(3, 1, b"#.#".to_vec());
        let before = g.clone();
        let err = items(&mut g, 2, &mut Rng::new(0)).unwrap_err();
        assert_eq!(err, "cannot place 2 items: only 1 free floor cells");
        assert_eq!(g, before);
        assert_eq!(
            items(&mut Grid::new(2, 2, WALL), 0, &mut Rng::new(0)),
            Ok(vec![])
        );
    }
}
