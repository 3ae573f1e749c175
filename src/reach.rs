//! Walking distances and the reachability check: can `@` get to everything?

use std::collections::VecDeque;
use std::fmt;

use crate::grid::{Grid, Pos, GOLD, PLAYER, POTION, STAIRS, WALL};

/// Marks a cell that cannot be walked to.
pub const UNREACHED: u32 = u32::MAX;

/// 4-neighbour walking distance from `start` to every cell, over every
/// non-`#` cell; `UNREACHED` where no path leads.
pub fn distances(grid: &Grid, start: Pos) -> Vec<u32> {
    let (w, cells) = (grid.width(), grid.cells());
    let mut dist = vec![UNREACHED; cells.len()];
    let mut queue = VecDeque::new();
    let first = grid.index(start);
    dist[first] = 0;
    queue.push_back(first);
    while let Some(i) = queue.pop_front() {
        let next = dist[i] + 1;
        let (x, y) = (i % w, i / w);
        let neighbours = [
            (x > 0).then(|| i - 1),
            (x + 1 < w).then(|| i + 1),
            (y > 0).then(|| i - w),
            (i + w < cells.len()).then(|| i + w),
        ];
        for j in neighbours.into_iter().flatten() {
            if dist[j] == UNREACHED && cells[j] != WALL {
                dist[j] = next;
                queue.push_back(j);
            }
        }
    }
    dist
}

/// Why a map is not fully reachable.
#[derive(Debug, PartialEq, Eq)]
pub enum Unreachable {
    NoPlayer,
    /// The first `@` (row-major) and every target it cannot reach.
    Cut {
        player: Pos,
        targets: Vec<(u8, Pos)>,
    },
}

/// How many unreachable targets a message lists before summarising.
const LISTED: usize = 5;

impl fmt::Display for Unreachable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unreachable::NoPlayer => f.write_str("no @ on the map"),
            Unreachable::Cut { player, targets } => {
                write!(f, "not reachable from @ at ({},{}):", player.x, player.y)?;
                for (cell, p) in targets.iter().take(LISTED) {
                    write!(f, " {} at ({},{})", *cell as char, p.x, p.y)?;
                }
                if targets.len() > LISTED {
                    write!(f, " and {} more", targets.len() - LISTED)?;
                }
                Ok(())
            }
        }
    }
}

/// Checks that the first `@` can walk to every `>`, `$` and `!`.
pub fn check(grid: &Grid) -> Result<(), Unreachable> {
    let cells = grid.cells();
    let start = cells
        .iter()
        .position(|&c| c == PLAYER)
        .ok_or(Unreachable::NoPlayer)?;
    let dist = distances(grid, grid.pos(start));
    let targets: Vec<(u8, Pos)> = cells
        .iter()
        .enumerate()
        .filter(|&(i, &c)| matches!(c, STAIRS | GOLD | POTION) && dist[i] == UNREACHED)
        .map(|(i, &c)| (c, grid.pos(i)))
        .collect();
    if targets.is_empty() {
        Ok(())
    } else {
        Err(Unreachable::Cut {
            player: grid.pos(start),
            targets,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(rows: &[&str]) -> Grid {
        let cells = rows.concat().into_bytes();
        Grid::from_cells(rows[0].len(), rows.len(), cells)
    }

    #[test]
    fn connected_map_passes() {
        let g = grid(&["#####", "#@.>#", "#.#$#", "#!..#", "#####"]);
        assert_eq!(check(&g), Ok(()));
    }

    #[test]
    fn any_non_wall_cell_is_walkable() {
        let g = grid(&["@x~>"]);
        assert_eq!(check(&g), Ok(()));
    }

    #[test]
    fn walls_cut_and_the_message_lists_what_is_cut() {
        let g = grid(&["#######", "#@.#.>#", "#..#$!#", "#######"]);
        let err = check(&g).unwrap_err();
        assert_eq!(
            err.to_string(),
            "not reachable from @ at (2,2): > at (6,2) $ at (5,3) ! at (6,3)"
        );
    }

    #[test]
    fn diagonals_do_not_connect() {
        let g = grid(&["@#", "#>"]);
        assert!(check(&g).is_err());
    }

    #[test]
    fn no_player_is_reported() {
        assert_eq!(check(&grid(&["..>"])), Err(Unreachable::NoPlayer));
    }

    #[test]
    fn long_lists_are_summarised() {
        let g = grid(&["@#$$$$$$$"]);
        assert!(check(&g).unwrap_err().to_string().ends_with(" and 2 more"));
    }

    #[test]
    fn distances_walk_around_walls() {
        let g = grid(&["@#.", "..."]);
        let d = distances(&g, Pos { x: 1, y: 1 });
        assert_eq!(d, vec![0, UNREACHED, 4, 1, 2, 3]);
    }
}
