//! Loops: extra corridors between rooms that are near each other but not
//! linked (`touches.rs`), so that a level of rooms is not a tree.

use super::shared::Corridors;
use super::touches::Touches;
use super::{Default, Kind, OptionSpec};
use crate::grid::{Grid, Rect};
use crate::rng::Rng;

/// The option, for the generators with rooms to declare; they call `add`
/// once their rooms and corridors are carved, before they choose `>`.
pub const LOOPS: OptionSpec = OptionSpec {
    name: "loops",
    kind: Kind::Int {
        min: 0,
        max: MAX_LOOPS,
    },
    default: Default::Int(0),
    doc: "extra corridors, each from a random room to the nearest room not linked to it",
};

/// The most loops one map may ask for: each looks at every room once, so
/// this bounds the work on maps of thousands of rooms (docs/hardening.md).
pub const MAX_LOOPS: i64 = 1_000;

/// Carves up to `loops` corridors. Each draws a room (`rng.below(rooms)`);
/// the nearest other room by the walk between centres (`|dx| + |dy|`, the
/// lower index on a tie) that is neither linked to it (before the loops)
/// nor joined to it by an earlier loop gets an L-shaped corridor from centre
/// to centre, bend chosen by a coin as the generators' own. A room linked to
/// every other gets none (its draw is spent). `loops = 0` draws nothing.
pub fn add(grid: &mut Grid, rooms: &[Rect], loops: usize, rng: &mut Rng) {
    if loops == 0 || rooms.len() < 2 {
        return;
    }
    let touches = Touches::of(grid, rooms);
    // The rooms each room was joined to by a loop, and those with none left.
    let mut joined: Vec<Vec<u32>> = vec![Vec::new(); rooms.len()];
    let mut spent = vec![false; rooms.len()];
    let mut corridors = Corridors::default();
    for _ in 0..loops {
        let a = rng.below(rooms.len());
        if spent[a] {
            continue;
        }
        let from = rooms[a].centre();
        let mut best: Option<(usize, usize)> = None;
        for (b, room) in rooms.iter().enumerate() {
            let to = room.centre();
            let d = from.x.abs_diff(to.x) + from.y.abs_diff(to.y);
            if b == a || best.is_some_and(|(bd, _)| d >= bd) {
                continue;
            }
            if !joined[a].contains(&(b as u32)) && !touches.linked(a, b) {
                best = Some((d, b));
            }
        }
        match best {
            Some((_, b)) => {
                corridors.carve(grid, from, rooms[b].centre(), rng);
                joined[a].push(b as u32);
                joined[b].push(a as u32);
            }
            None => spent[a] = true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::WALL;

    #[test]
    fn no_loops_draws_and_carves_nothing() {
        let mut g = Grid::new(60, 20, WALL);
        let rooms = crate::generators::rooms::carve(&mut g, 10, &mut Rng::new(3));
        let before = g.clone();
        let mut rng = Rng::new(9);
        add(&mut g, &rooms, 0, &mut rng);
        assert_eq!(g, before);
        assert_eq!(rng.below(1000), Rng::new(9).below(1000));
    }

    #[test]
    fn a_loop_joins_the_nearest_unlinked_room() {
        // Three rooms in a row, 0-1 and 1-2 joined: 0 and 2 are not linked.
        let mut g = Grid::from_rows(&[
            "################",
            "#..#..#..#######",
            "#..+..+..#######",
            "#..#..#..#######",
            "################",
            "################",
            "#..#############",
            "#..#############",
            "################",
        ]);
        let room = |x, y| Rect { x, y, w: 2, h: 3 };
        let rooms = [
            room(2, 2),
            room(5, 2),
            room(8, 2),
            Rect {
                x: 2,
                y: 7,
                w: 2,
                h: 2,
            },
        ];
        let t = Touches::of(&g, &rooms);
        assert!(t.linked(0, 1) && t.linked(1, 2) && !t.linked(0, 2) && !t.linked(0, 3));
        add(&mut g, &rooms, 1, &mut Rng::new(0));
        let t = Touches::of(&g, &rooms);
        let pairs = [(0, 2), (0, 3), (1, 3), (2, 3)];
        let new: Vec<_> = pairs.iter().filter(|&&(a, b)| t.linked(a, b)).collect();
        assert!(!new.is_empty(), "the loop linked nothing new");
    }
}
