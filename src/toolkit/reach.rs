//! The reachability check: can `@` walk to everything?

use std::fmt;

use super::flood::{Flood, CLOSED, OPEN};
use crate::grid::{byte_set, ByteSet, Grid, Pos, GOLD, PLAYER, POTION, STAIRS, WALL};

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
    check_blocked(grid, &byte_set(&[WALL]))
}

/// `check`, walking through every cell but those of `blocked`.
pub fn check_blocked(grid: &Grid, blocked: &ByteSet) -> Result<(), Unreachable> {
    let cells = grid.cells();
    let start = cells
        .iter()
        .position(|&c| c == PLAYER)
        .ok_or(Unreachable::NoPlayer)?;
    let mut flood = Flood::new(grid, |c| if blocked[c as usize] { CLOSED } else { OPEN });
    flood.farthest(grid.pos(start));
    let targets: Vec<(u8, Pos)> = cells
        .iter()
        .enumerate()
        .filter(|&(_, &c)| matches!(c, STAIRS | GOLD | POTION))
        .map(|(i, &c)| (c, grid.pos(i)))
        .filter(|&(_, p)| !flood.reached(p))
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

/// The memory `reachable` may use: the map's copy, the flood's marks (a
/// byte a padded cell) and its queue (a `u32` an open cell).
pub fn bound(size: (usize, usize)) -> usize {
    let cells = size.0 * size.1;
    cells + super::board::padded(size) + 4 * (cells + 2) + crate::memory::FIXED
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
    fn the_blocked_set_cuts_where_it_says() {
        let g = Grid::from_rows(&["@.~.>", "..=.."]);
        assert_eq!(check_blocked(&g, &byte_set(b"#~")), Ok(()));
        let err = check_blocked(&g, &byte_set(b"#~=")).unwrap_err();
        assert_eq!(err.to_string(), "not reachable from @ at (1,1): > at (5,1)");
        assert_eq!(check(&g), Ok(()));
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
}
