//! Walking distances and the reachability check: can `@` get to everything?

use std::fmt;

use crate::grid::{Grid, Pos, GOLD, PLAYER, POTION, STAIRS, WALL};

/// Marks a cell that cannot be walked to.
pub const UNREACHED: u32 = u32::MAX;

/// Walls and the padding ring in `distances`' working array.
const BLOCKED: u32 = u32::MAX - 1;

/// 4-neighbour walking distance from `start` to every cell, over every
/// non-`#` cell; `UNREACHED` where no path leads.
///
/// Works on a copy padded with a ring of walls, so neighbours need no bounds
/// test, and walls are marked in the distance array itself, so each neighbour
/// costs one test, done without a branch (open cells and walls alternate
/// unpredictably): its index is always written to the queue and kept if open.
pub fn distances(grid: &Grid, start: Pos) -> Vec<u32> {
    let (w, h) = (grid.width(), grid.height());
    let pw = w + 2;
    let mut d = vec![BLOCKED; pw * (h + 2)];
    let mut open = 0;
    for (y, row) in grid.rows().enumerate() {
        let base = (y + 1) * pw + 1;
        for (slot, &c) in d[base..base + w].iter_mut().zip(row) {
            let is_open = c != WALL;
            *slot = if is_open { UNREACHED } else { BLOCKED };
            open += usize::from(is_open);
        }
    }
    let first = start.y * pw + start.x;
    d[first] = 0;
    let mut queue = vec![0u32; open + 2];
    queue[0] = first as u32;
    let (mut head, mut tail) = (0, 1);
    while head < tail {
        let i = queue[head] as usize;
        head += 1;
        let next = d[i] + 1;
        for j in [i - 1, i + 1, i - pw, i + pw] {
            let is_open = d[j] == UNREACHED;
            queue[tail] = j as u32;
            tail += usize::from(is_open);
            d[j] = if is_open { next } else { d[j] };
        }
    }
    // Unpad in place (each cell moves towards the front), walls back to UNREACHED.
    for y in 0..h {
        for x in 0..w {
            let v = d[(y + 1) * pw + x + 1];
            d[y * w + x] = if v == BLOCKED { UNREACHED } else { v };
        }
    }
    d.truncate(w * h);
    d
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

    #[test]
    fn connected_map_passes() {
        let g = Grid::from_rows(&["#####", "#@.>#", "#.#$#", "#!..#", "#####"]);
        assert_eq!(check(&g), Ok(()));
    }

    #[test]
    fn any_non_wall_cell_is_walkable() {
        let g = Grid::from_rows(&["@x~>"]);
        assert_eq!(check(&g), Ok(()));
    }

    #[test]
    fn walls_cut_and_the_message_lists_what_is_cut() {
        let g = Grid::from_rows(&["#######", "#@.#.>#", "#..#$!#", "#######"]);
        let err = check(&g).unwrap_err();
        assert_eq!(
            err.to_string(),
            "not reachable from @ at (2,2): > at (6,2) $ at (5,3) ! at (6,3)"
        );
    }

    #[test]
    fn diagonals_do_not_connect() {
        let g = Grid::from_rows(&["@#", "#>"]);
        assert!(check(&g).is_err());
    }

    #[test]
    fn no_player_is_reported() {
        assert_eq!(
            check(&Grid::from_rows(&["..>"])),
            Err(Unreachable::NoPlayer)
        );
    }

    #[test]
    fn long_lists_are_summarised() {
        let g = Grid::from_rows(&["@#$$$$$$$"]);
        assert!(check(&g).unwrap_err().to_string().ends_with(" and 2 more"));
    }

    #[test]
    fn distances_walk_around_walls() {
        let g = Grid::from_rows(&["@#.", "..."]);
        let d = distances(&g, Pos { x: 1, y: 1 });
        assert_eq!(d, vec![0, UNREACHED, 4, 1, 2, 3]);
    }
}
