//! The rooms-and-corridors layout: rectangular rooms at random spots, each
//! joined to the next by an L-shaped corridor.

use super::loops::{self, LOOPS};
use super::shared::{Corridors, DOORS, MAX_ROOMS};
use super::{Default, Generator, Kind, Layout, OptionSpec, Options};
use crate::grid::{Grid, Pos, Rect, FLOOR};
use crate::rng::Rng;

pub const GENERATOR: Generator = Generator {
    name: "rooms",
    doc: "rectangular rooms, each joined to the next by an L-shaped corridor",
    // The smallest map that holds one room inside its wall border.
    min_width: MIN_ROOM_WIDTH + 2,
    min_height: MIN_ROOM_HEIGHT + 2,
    options: &[
        ROOMS,
        DOORS,
        LOOPS,
        super::shared::LOCKS,
        ROOM_MIN_WIDTH,
        ROOM_MAX_WIDTH,
        ROOM_MIN_HEIGHT,
        ROOM_MAX_HEIGHT,
    ],
    terrain: &super::ROCK,
    hides: true,
    carve: layout,
    bound: super::no_bound,
};

const ROOMS: OptionSpec = OptionSpec {
    name: "rooms",
    kind: Kind::Int {
        min: 1,
        max: MAX_ROOMS,
    },
    default: Default::Int(DEFAULT_ROOMS),
    doc: "rooms wanted; fewer when they do not fit",
};

/// The longest side a room may be given: each room placed is checked
/// against the grid in up to (side + 2)^2 cells once more than `FEW_ROOMS`
/// are kept, so this bounds the work of `MAX_ROOMS` rooms' attempts.
pub const MAX_ROOM_SIDE: i64 = 50;

/// One of the four room-size options.
const fn side_option(name: &'static str, default: usize, doc: &'static str) -> OptionSpec {
    OptionSpec {
        name,
        kind: Kind::Int {
            min: 2,
            max: MAX_ROOM_SIDE,
        },
        default: Default::Int(default as i64),
        doc,
    }
}

const ROOM_MIN_WIDTH: OptionSpec = side_option(
    "room_min_width",
    MIN_ROOM_WIDTH,
    "the narrowest room's floor width (at most room_max_width)",
);
const ROOM_MAX_WIDTH: OptionSpec = side_option(
    "room_max_width",
    MAX_ROOM_WIDTH,
    "the widest room's floor width; narrower on a map too narrow for it",
);
const ROOM_MIN_HEIGHT: OptionSpec = side_option(
    "room_min_height",
    MIN_ROOM_HEIGHT,
    "the lowest room's floor height (at most room_max_height)",
);
const ROOM_MAX_HEIGHT: OptionSpec = side_option(
    "room_max_height",
    MAX_ROOM_HEIGHT,
    "the tallest room's floor height; lower on a map too low for it",
);

/// The options `layout` reads (`doors` is the pipeline's), read once.
struct RoomsOptions {
    rooms: usize,
    loops: usize,
    sizes: RoomSizes,
}

/// The sides a room's floor may have, each range within the map's
/// interior (the default ranges are today's constants: the maps they make
/// never change).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RoomSizes {
    pub width: (usize, usize),
    pub height: (usize, usize),
}

impl RoomSizes {
    /// Today's sizes: 4 to 10 wide, 3 to 6 high.
    pub const DEFAULT: RoomSizes = RoomSizes {
        width: (MIN_ROOM_WIDTH, MAX_ROOM_WIDTH),
        height: (MIN_ROOM_HEIGHT, MAX_ROOM_HEIGHT),
    };
}

impl RoomsOptions {
    /// The options, the sizes checked against each other and `grid`: the
    /// least of each side at most its most and at most the interior's
    /// side; the most cut down to the interior's side (as it always was).
    fn read(opts: &Options, grid: &Grid) -> Result<RoomsOptions, String> {
        let side = |least: &OptionSpec, most: &OptionSpec, what: &str, interior: usize| {
            let (lo, hi) = (opts.count(least), opts.count(most));
            if lo > hi {
                return Err(format!(
                    "{} ({lo}) must be at most {} ({hi})",
                    least.name, most.name
                ));
            }
            if lo > interior {
                return Err(format!(
                    "{} ({lo}) must fit inside the map's border: at most {interior} on a map {} {what}",
                    least.name,
                    interior + 2
                ));
            }
            Ok((lo, hi.min(interior)))
        };
        let width = side(&ROOM_MIN_WIDTH, &ROOM_MAX_WIDTH, "wide", grid.width() - 2)?;
        let height = side(&ROOM_MIN_HEIGHT, &ROOM_MAX_HEIGHT, "high", grid.height() - 2)?;
        Ok(RoomsOptions {
            rooms: opts.count(&ROOMS),
            loops: opts.count(&LOOPS),
            sizes: RoomSizes { width, height },
        })
    }
}

pub const DEFAULT_ROOMS: i64 = 10;

pub const MIN_ROOM_WIDTH: usize = 4;
pub const MAX_ROOM_WIDTH: usize = 10;
pub const MIN_ROOM_HEIGHT: usize = 3;
pub const MAX_ROOM_HEIGHT: usize = 6;

/// Placement attempts per requested room: enough that a 60x20 map gets
/// all ten default rooms almost always (measured: docs/generators.md), while
/// bounding the work on maps too crowded to take them all.
pub const ATTEMPTS_PER_ROOM: usize = 10;

/// Up to this many kept rooms, a new room is checked against the list.
const FEW_ROOMS: usize = 16;

/// The rooms, `@` at the centre of the first, `>` on a random other cell of
/// the last.
fn layout(grid: &mut Grid, opts: &Options, rng: &mut Rng) -> Result<Layout, String> {
    let opts = RoomsOptions::read(opts, grid)?;
    let rooms = carve_sized(grid, opts.rooms, opts.sizes, rng);
    loops::add(grid, &rooms, opts.loops, rng);
    let (first, last) = (rooms[0], rooms[rooms.len() - 1]);
    let player = first.centre();
    let spots: Vec<Pos> = last.cells().filter(|&p| p != player).collect();
    let stairs = spots[rng.below(spots.len())];
    Ok(Layout {
        rooms,
        player,
        stairs: Some(stairs),
        blocked: None,
    })
}

/// Places up to `wanted` rooms on a solid `grid` (at least 6x5), carves them
/// and the corridors, and returns the rooms in corridor order.
pub fn carve(grid: &mut Grid, wanted: usize, rng: &mut Rng) -> Vec<Rect> {
    carve_sized(grid, wanted, RoomSizes::DEFAULT, rng)
}

/// `carve` with rooms of `sizes` (each range within the interior, or its
/// most cut down to it).
fn carve_sized(grid: &mut Grid, wanted: usize, sizes: RoomSizes, rng: &mut Rng) -> Vec<Rect> {
    carve_with(grid, wanted, sizes, rng, Corridors::default())
}

/// `carve` with the given `corridors` (the tests compare their settings:
/// the maps are the same).
fn carve_with(
    grid: &mut Grid,
    wanted: usize,
    sizes: RoomSizes,
    rng: &mut Rng,
    mut corridors: Corridors,
) -> Vec<Rect> {
    let mut rooms: Vec<Rect> = Vec::new();
    for _ in 0..wanted * ATTEMPTS_PER_ROOM {
        if rooms.len() == wanted {
            break;
        }
        let room = random_room(grid, sizes, rng);
        // Few kept rooms: comparing with each is cheaper than reading up to
        // 12x8 cells (by default); many: the grid bounds the work. Both give the same answer.
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
        corridors.carve(grid, pair[0].centre(), pair[1].centre(), rng);
    }
    rooms
}

/// True when neither the room nor the ring around it holds floor. Before the
/// corridors only kept rooms are carved, so this is "crowds no kept room",
/// checked in at most 12x8 cells by default (52x52 with the largest
/// `room_max_*`) however many rooms there are.
fn has_space(grid: &Grid, room: &Rect) -> bool {
    (room.y - 1..=room.y + room.h)
        .all(|y| (room.x - 1..=room.x + room.w).all(|x| grid.get(Pos { x, y }) != FLOOR))
}

/// A room of random size within `sizes` at a random spot inside the
/// border. With the default sizes, the draws of every release before the
/// size options: `min(most, interior)` is the same bound.
fn random_room(grid: &Grid, sizes: RoomSizes, rng: &mut Rng) -> Rect {
    let (w_lo, w_hi) = sizes.width;
    let (h_lo, h_hi) = sizes.height;
    let w = rng.range(w_lo, w_hi.min(grid.width() - 2));
    let h = rng.range(h_lo, h_hi.min(grid.height() - 2));
    let x = rng.range(2, grid.width() - w);
    let y = rng.range(2, grid.height() - h);
    Rect { x, y, w, h }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::WALL;

    #[test]
    fn rooms_crowd_when_overlapping_or_touching() {
        let a = Rect::new(2, 2, 4, 3); // floor x 2..=5, y 2..=4
        assert!(a.crowds(&Rect::new(5, 4, 4, 3)), "overlap");
        assert!(a.crowds(&Rect::new(6, 2, 4, 3)), "side by side, no wall");
        assert!(!a.crowds(&Rect::new(7, 2, 4, 3)), "one wall column between");
        assert!(a.crowds(&Rect::new(2, 5, 4, 3)), "stacked, no wall");
        assert!(!a.crowds(&Rect::new(2, 6, 4, 3)), "one wall row between");
        assert!(a.crowds(&Rect::new(6, 5, 4, 3)), "corners touch diagonally");
    }

    #[test]
    fn centre_rounds_towards_top_left() {
        assert_eq!(Rect::new(2, 2, 4, 3).centre(), Pos { x: 3, y: 3 });
        assert_eq!(Rect::new(2, 2, 5, 4).centre(), Pos { x: 4, y: 3 });
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
                let maps: Vec<(Grid, Vec<Rect>)> = [
                    Corridors::with_long_leg(usize::MAX),
                    Corridors::with_long_leg(1),
                    Corridors::default(),
                ]
                .into_iter()
                .map(|corridors| {
                    let mut g = Grid::new(w, h, WALL);
                    let rooms = carve_with(&mut g, wanted, RoomSizes::DEFAULT, &mut Rng::new(seed), corridors);
                    (g, rooms)
                })
                .collect();
                assert_eq!(maps[0], maps[1], "seed {seed} {w}x{h}: every leg skips carved rows");
                assert_eq!(maps[0], maps[2], "seed {seed} {w}x{h}: long legs skip carved rows");
            }
        }
    }

    #[test]
    fn a_smallest_map_gets_exactly_one_room() {
        let mut g = Grid::new(6, 5, WALL);
        let rooms = carve(&mut g, 10, &mut Rng::new(1));
        assert_eq!(rooms, vec![Rect::new(2, 2, 4, 3)]);
    }

    #[test]
    fn room_sizes_stay_within_the_options() {
        for seed in 0..100 {
            for sizes in [
                RoomSizes {
                    width: (6, 10),
                    height: (6, 10),
                },
                RoomSizes {
                    width: (2, 2),
                    height: (2, 3),
                },
                RoomSizes {
                    width: (20, 30),
                    height: (5, 5),
                },
            ] {
                let mut g = Grid::new(80, 50, WALL);
                let rooms = carve_sized(&mut g, 30, sizes, &mut Rng::new(seed));
                assert!(!rooms.is_empty());
                for r in &rooms {
                    assert!((sizes.width.0..=sizes.width.1).contains(&r.w), "{r:?}");
                    assert!((sizes.height.0..=sizes.height.1).contains(&r.h), "{r:?}");
                }
            }
        }
    }

    #[test]
    fn default_sizes_draw_as_before() {
        for seed in 0..50 {
            let (mut a, mut b) = (Grid::new(60, 20, WALL), Grid::new(60, 20, WALL));
            let ra = carve(&mut a, 10, &mut Rng::new(seed));
            let rb = carve_sized(&mut b, 10, RoomSizes::DEFAULT, &mut Rng::new(seed));
            assert_eq!((ra, a), (rb, b));
        }
    }
}
