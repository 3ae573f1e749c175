//! The board's unit tests.

use super::*;

/// `keyed_breadth_first` (unit costs) finds `dijkstra`'s distances from
/// keyed sources, with diagonals, closed and barred cells and a limit,
/// keys close together (counted) and far apart (sorted).
#[test]
fn keyed_breadth_first_is_dijkstra() {
    let mut rng = crate::rng::Rng::new(1);
    let mut next = |n: u64| rng.below(n as usize) as u64;
    for round in 0..3000 {
        let (w, h) = (1 + next(9) as usize, 1 + next(9) as usize);
        let cells: Vec<u8> = (0..w * h).map(|_| b"..#"[next(3) as usize]).collect();
        let grid = Grid::from_cells(w, h, cells);
        let walk = Walk {
            diagonal: next(2) == 0,
            ..Walk::new()
        };
        let closed: Vec<bool> = (0..w * h).map(|_| next(7) == 0).collect();
        let barred: Vec<bool> = (0..w * h).map(|_| next(7) == 0).collect();
        let spread = if round % 2 == 0 { 5 } else { 1 << 40 };
        let count = 1 + next(6) as usize;
        let board = Board::new(&grid, &walk);
        let sources: Vec<(usize, u64)> = (0..count)
            .map(|_| {
                let p = grid.pos(next((w * h) as u64) as usize);
                (board.index(p), next(spread))
            })
            .collect();
        let limit = if next(3) == 0 { next(8) } else { u64::MAX };
        let run = |unit: bool| {
            let mut b = Board::new(&grid, &walk);
            b.close(&closed);
            b.bar(&barred);
            b.set_limit(limit);
            if unit {
                b.keyed_breadth_first(&sources);
            } else {
                b.dijkstra(sources.iter().copied(), None);
            }
            b.distances()
        };
        assert_eq!(run(true), run(false), "{grid:?} {sources:?} limit {limit}");
    }
}
