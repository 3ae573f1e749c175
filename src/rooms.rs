//! The rooms-and-corridors layout: rectangular rooms at random spots, each
//! joined to the next by an L-shaped corridor.

use std::collections::HashMap;

use crate::algorithm::{Algorithm, Default, Kind, Layout, OptionSpec, Options};
use crate::grid::{Grid, Pos, FLOOR};
use crate::options::MAX_ROOMS;
use crate::rng::Rng;

pub const ALGORITHM: Algorithm = Algorithm {
    name: "rooms",
    doc: "rectangular rooms, each joined to the next by an L-shaped corridor",
    // The smallest map that holds one room inside its wall border.
    min_width: MIN_ROOM_WIDTH + 2,
    min_height: MIN_ROOM_HEIGHT + 2,
    options: &[
        OptionSpec {
            name: "rooms",
            kind: Kind::Int {
                min: 1,
                max: MAX_ROOMS,
            },
            default: Default::Int(DEFAULT_ROOMS),
            doc: "rooms wanted; fewer when they do not fit",
        },
        crate::doors::OPTION,
    ],
    carve: layout,
};

pub const DEFAULT_ROOMS: i64 = 10;

pub const MIN_ROOM_WIDTH: usize = 4;
pub const MAX_ROOM_WIDTH: usize = 10;
pub const MIN_ROOM_HEIGHT: usize = 3;
pub const MAX_ROOM_HEIGHT: usize = 6;

/// Placement attempts per requested room: enough that a 60x20 map gets
/// all ten default rooms almost always (measured, see the README), while
/// bounding the work on maps too crowded to take them all.
pub const ATTEMPTS_PER_ROOM: usize = 10;

/// Up to this many kept rooms, a new room is checked against the list.
const FEW_ROOMS: usize = 16;

/// A room's floor: top-left cell (1-based) and size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Room {
    pub x: usize,
    pub y: usize,
    pub w: usize,
    pub h: usize,
}

impl Room {
    pub fn centre(&self) -> Pos {
        Pos {
            x: self.x + (self.w - 1) / 2,
            y: self.y + (self.h - 1) / 2,
        }
    }

    pub fn cells(&self) -> impl Iterator<Item = Pos> + '_ {
        (self.y..self.y + self.h)
            .flat_map(move |y| (self.x..self.x + self.w).map(move |x| Pos { x, y }))
    }

    /// True when the rooms share a cell or touch: kept rooms need a wall between.
    /// (`&`, not `&&`: the four tests run without branches, which the
    /// placement loop's unpredictable outcomes make cheaper.)
    pub fn crowds(&self, other: &Room) -> bool {
        (self.x <= other.x + other.w)
            & (other.x <= self.x + self.w)
            & (self.y <= other.y + other.h)
            & (other.y <= self.y + self.h)
    }
}

/// The rooms, `@` at the centre of the first, `>` on a random other cell of
/// the last.
fn layout(grid: &mut Grid, opts: &Options, rng: &mut Rng) -> Result<Layout, String> {
    let rooms = carve(grid, opts.int("rooms") as usize, rng);
    let (first, last) = (rooms[0], rooms[rooms.len() - 1]);
    let player = first.centre();
    let spots: Vec<Pos> = last.cells().filter(|&p| p != player).collect();
    let stairs = spots[rng.below(spots.len())];
    Ok(Layout {
        rooms,
        player,
        stairs: Some(stairs),
    })
}

/// Places up to `wanted` rooms on a solid `grid` (at least 6x5), carves them
/// and the corridors, and returns the rooms in corridor order.
pub fn carve(grid: &mut Grid, wanted: usize, rng: &mut Rng) -> Vec<Room> {
    carve_with(grid, wanted, rng, Columns::new(LONG_LEG))
}

/// `carve`, with vertical legs of `columns.long_leg` rows or more carved
/// through `columns` (the tests compare thresholds: the maps are the same).
fn carve_with(grid: &mut Grid, wanted: usize, rng: &mut Rng, mut columns: Columns) -> Vec<Room> {
    let mut rooms: Vec<Room> = Vec::new();
    for _ in 0..wanted * ATTEMPTS_PER_ROOM {
        if rooms.len() == wanted {
            break;
        }
        let room = random_room(grid, rng);
        // Few kept rooms: comparing with each is cheaper than reading up to
        // 12x8 cells; many: the grid bounds the work. Both give the same answer.
        let fits = if rooms.len() <= FEW_ROOMS {
            !rooms
                .iter()
                .fold(false, |hit, kept| hit | kept.crowds(&room))
        } else {
            has_space(grid, &room)
        };
        if fits {
            grid.fill(
                Pos {
                    x: room.x,
                    y: room.y,
                },
                room.w,
                room.h,
                FLOOR,
            );
            rooms.push(room);
        }
    }
    for pair in rooms.windows(2) {
        corridor(grid, pair[0].centre(), pair[1].centre(), &mut columns, rng);
    }
    rooms
}

/// Vertical legs at least this long go through `Columns`.
const LONG_LEG: usize = 64;

/// For each column that a long vertical leg went down, which rows such legs
/// have carved: a union-find whose roots are the rows not yet carved (each
/// carved row points further down). On tall, narrow maps the corridors run
/// down the same few columns: 10,000 rooms on a 6x666666 map rewrote 2.2
/// billion cells (5 s); this way each cell is carved once. The map is the
/// same either way, as carving floor twice changes nothing.
struct Columns {
    next: HashMap<usize, Vec<u32>>,
    long_leg: usize,
}

impl Columns {
    fn new(long_leg: usize) -> Columns {
        Columns {
            next: HashMap::new(),
            long_leg,
        }
    }

    /// Carves rows `top..=bottom` (1-based) of column `x`, skipping those
    /// long legs carved before.
    fn carve(&mut self, grid: &mut Grid, x: usize, top: usize, bottom: usize) {
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

/// True when neither the room nor the ring around it holds floor. Before the
/// corridors only kept rooms are carved, so this is "crowds no kept room",
/// checked in at most 12x8 cells however many rooms there are.
fn has_space(grid: &Grid, room: &Room) -> bool {
    (room.y - 1..=room.y + room.h)
        .all(|y| (room.x - 1..=room.x + room.w).all(|x| grid.get(Pos { x, y }) != FLOOR))
}

/// A room of random size at a random spot inside the border.
fn random_room(grid: &Grid, rng: &mut Rng) -> Room {
    let w = rng.range(MIN_ROOM_WIDTH, MAX_ROOM_WIDTH.min(grid.width() - 2));
    let h = rng.range(MIN_ROOM_HEIGHT, MAX_ROOM_HEIGHT.min(grid.height() - 2));
    let x = rng.range(2, grid.width() - w);
    let y = rng.range(2, grid.height() - h);
    Room { x, y, w, h }
}

/// Carves an L from `a` to `b`, horizontal leg first or vertical leg first.
fn corridor(grid: &mut Grid, a: Pos, b: Pos, columns: &mut Columns, rng: &mut Rng) {
    let corner = if rng.coin() {
        Pos { x: b.x, y: a.y }
    } else {
        Pos { x: a.x, y: b.y }
    };
    carve_line(grid, a, corner, columns);
    carve_line(grid, corner, b, columns);
}

/// Carves a straight horizontal or vertical line, both ends included.
fn carve_line(grid: &mut Grid, a: Pos, b: Pos, columns: &mut Columns) {
    let top_left = Pos {
        x: a.x.min(b.x),
        y: a.y.min(b.y),
    };
    let (w, h) = (a.x.abs_diff(b.x) + 1, a.y.abs_diff(b.y) + 1);
    if w == 1 && h >= columns.long_leg {
        columns.carve(grid, top_left.x, top_left.y, top_left.y + h - 1);
    } else {
        grid.fill(top_left, w, h, FLOOR);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::WALL;

    fn room(x: usize, y: usize, w: usize, h: usize) -> Room {
        Room { x, y, w, h }
    }

    #[test]
    fn rooms_crowd_when_overlapping_or_touching() {
        let a = room(2, 2, 4, 3); // floor x 2..=5, y 2..=4
        assert!(a.crowds(&room(5, 4, 4, 3)), "overlap");
        assert!(a.crowds(&room(6, 2, 4, 3)), "side by side, no wall");
        assert!(!a.crowds(&room(7, 2, 4, 3)), "one wall column between");
        assert!(a.crowds(&room(2, 5, 4, 3)), "stacked, no wall");
        assert!(!a.crowds(&room(2, 6, 4, 3)), "one wall row between");
        assert!(a.crowds(&room(6, 5, 4, 3)), "corners touch diagonally");
    }

    #[test]
    fn centre_rounds_towards_top_left() {
        assert_eq!(room(2, 2, 4, 3).centre(), Pos { x: 3, y: 3 });
        assert_eq!(room(2, 2, 5, 4).centre(), Pos { x: 4, y: 3 });
    }

    #[test]
    fn corridor_is_an_l_joining_both_ends() {
        for seed in 0..20 {
            let mut g = Grid::new(12, 10, WALL);
            let (a, b) = (Pos { x: 2, y: 8 }, Pos { x: 10, y: 3 });
            corridor(&mut g, a, b, &mut Columns::new(LONG_LEG), &mut Rng::new(seed));
            let floor = g.cells().iter().filter(|&&c| c == FLOOR).count();
            assert_eq!(floor, 9 + 6 - 1, "two legs sharing the corner");
            assert_eq!(g.get(a), FLOOR);
            assert_eq!(g.get(b), FLOOR);
            let corner_h = g.get(Pos { x: 10, y: 8 }) == FLOOR;
            let corner_v = g.get(Pos { x: 2, y: 3 }) == FLOOR;
            assert!(corner_h != corner_v, "exactly one corner");
        }
    }

    #[test]
    fn rooms_fit_inside_the_border_and_never_crowd() {
        for seed in 0..300 {
            for (w, h) in [(6, 5), (7, 9), (60, 20), (120, 40)] {
                let mut g = Grid::new(w, h, WALL);
                let rooms = carve(&mut g, 10, &mut Rng::new(seed));
                assert!(!rooms.is_empty());
                for (i, r) in rooms.iter().enumerate() {
                    assert!((MIN_ROOM_WIDTH..=MAX_ROOM_WIDTH).contains(&r.w));
                    assert!((MIN_ROOM_HEIGHT..=MAX_ROOM_HEIGHT).contains(&r.h));
                    assert!(r.x >= 2 && r.x + r.w <= w, "{r:?} in {w}x{h}");
                    assert!(r.y >= 2 && r.y + r.h <= h, "{r:?} in {w}x{h}");
                    assert!(r.cells().all(|p| g.get(p) == FLOOR));
                    for other in &rooms[i + 1..] {
                        assert!(!r.crowds(other), "{r:?} crowds {other:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn skipping_carved_rows_makes_the_same_map() {
        for seed in 0..40 {
            for (w, h, wanted) in [(6, 3000, 300), (12, 2000, 200), (40, 400, 60), (60, 20, 10)] {
                let maps: Vec<(Grid, Vec<Room>)> = [usize::MAX, 1, LONG_LEG]
                    .into_iter()
                    .map(|long_leg| {
                        let mut g = Grid::new(w, h, WALL);
                        let rooms =
                            carve_with(&mut g, wanted, &mut Rng::new(seed), Columns::new(long_leg));
                        (g, rooms)
                    })
                    .collect();
                assert_eq!(maps[0], maps[1], "seed {seed} {w}x{h}: every leg through Columns");
                assert_eq!(maps[0], maps[2], "seed {seed} {w}x{h}: long legs through Columns");
            }
        }
    }

    #[test]
    fn a_smallest_map_gets_exactly_one_room() {
        let mut g = Grid::new(6, 5, WALL);
        let rooms = carve(&mut g, 10, &mut Rng::new(1));
        assert_eq!(rooms, vec![room(2, 2, 4, 3)]);
    }
}
