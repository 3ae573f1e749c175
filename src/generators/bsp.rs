//! Rooms in a binary space partition, after libtcod's
//! `TCOD_bsp_split_recursive` and its BSP sample.
//!
//! The interior is split in two, then each half again, `depth` times or until
//! a part is too small to split: across a part whose length exceeds
//! `max_ratio` times its breadth, at random otherwise, at a random position
//! that leaves both halves at least `min_size` cells across. Each leaf gets
//! one room of random size and place. Then, bottom-up, the two subtrees of
//! every split are joined by an L-shaped corridor (bend chosen by a coin)
//! between the centres of the room of each nearest the split line: for a
//! vertical line, the first subtree's room reaching furthest right and the
//! second's starting furthest left (top and bottom likewise), the first in
//! depth-first order on a tie. Nearest rooms keep corridors short, and every
//! join links two connected subtrees, so the map is connected by construction.
//!
//! The parts tile the interior plus the right and bottom border lines, and a
//! room never takes its part's last column or row: that wall line keeps rooms
//! of neighbouring parts from touching, and the border does it for the last.

use super::shared::{Corridors, MAX_ROOMS};
use super::{Default, Generator, Kind, Layout, OptionSpec, Options};
use crate::args::MAX_CELLS;
use crate::toolkit::flood::{Flood, CLOSED, OPEN, WANTED};
use crate::grid::{Grid, Pos, Rect, FLOOR, WALL};
use crate::rng::Rng;

pub const GENERATOR: Generator = Generator {
    name: "bsp",
    doc: "rooms in the leaves of a binary space partition, joined up the tree by corridors",
    // A 2x1 interior: its one part gives a 2x1 room, so @ and > differ (see
    // `MIN_MIN_SIZE`). 3x3 has a single interior cell. 3x4 would do as well
    // as 4x3, but the two minimums are independent and cannot allow both
    // without 3x3: the extra cell goes to the width, as maps are wide.
    min_width: 4,
    min_height: 3,
    options: &[
        OptionSpec {
            name: "depth",
            kind: Kind::Int {
                min: 0,
                max: MAX_DEPTH,
            },
            default: Default::Int(DEFAULT_DEPTH),
            doc: "levels of splitting: at most 2^depth rooms",
        },
        OptionSpec {
            name: "min_size",
            kind: Kind::Int {
                min: MIN_MIN_SIZE,
                max: MAX_CELLS as i64,
            },
            default: Default::Int(DEFAULT_MIN_SIZE),
            doc: "the fewest cells across a part, its wall included; rooms are at least \
                  min_size - 1 across where the map allows",
        },
        OptionSpec {
            name: "max_ratio",
            kind: Kind::Number {
                min: 1.0,
                max: MAX_RATIO,
                open_min: false,
            },
            default: Default::Number(DEFAULT_MAX_RATIO),
            doc: "a part longer than max_ratio times its breadth is always split across",
        },
        crate::level::doors::OPTION,
        crate::level::loops::OPTION,
    ],
    carve: layout,
};

/// With `depth <= 13`, at most 8192 rooms: within `MAX_ROOMS`, the bound the
/// rooms algorithm puts on the rooms a map reports. It also bounds the
/// recursion, however lopsided the splits.
pub const MAX_DEPTH: i64 = MAX_ROOMS.ilog2() as i64;

/// Up to 32 rooms; at 80x50 with the other defaults, 17 to 32 (25 on
/// average over 1000 seeds), on about half the cells.
pub const DEFAULT_DEPTH: i64 = 5;

/// A part of 3 holds a room 2 across, so every room has two cells (one of
/// them not `@`'s) on every map of at least 4x3.
pub const MIN_MIN_SIZE: i64 = 3;

pub const DEFAULT_MIN_SIZE: i64 = 7;

/// libtcod's BSP sample uses 1.5 for both of its ratios.
pub const DEFAULT_MAX_RATIO: f64 = 1.5;

/// No map is stretched further than this matters for (past it, the split
/// direction is simply random); a bound keeps the message readable.
pub const MAX_RATIO: f64 = 100.0;

/// `@` at the centre of the first room, `>` on the room cell with the
/// longest walk from it.
fn layout(grid: &mut Grid, opts: &Options, rng: &mut Rng) -> Result<Layout, String> {
    let rooms = carve(
        grid,
        Settings {
            depth: opts.int("depth") as usize,
            min_size: opts.int("min_size") as usize,
            max_ratio: opts.number("max_ratio"),
        },
        rng,
    );
    crate::level::loops::add(grid, &rooms, opts.int("loops") as usize, rng);
    let player = rooms[0].centre();
    let stairs = farthest_room_cell(grid, &rooms, player);
    Ok(Layout {
        rooms,
        player,
        stairs: Some(stairs),
    })
}

/// The options that shape the partition.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    pub depth: usize,
    pub min_size: usize,
    pub max_ratio: f64,
}

/// A part of the partition (1-based top-left cell and size).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Part {
    x: usize,
    y: usize,
    w: usize,
    h: usize,
}

impl Part {
    /// The parts either side of the line through column (`vertical`) or row
    /// `at`, which starts the second.
    fn cut(self, vertical: bool, at: usize) -> (Part, Part) {
        if vertical {
            let first = Part {
                w: at - self.x,
                ..self
            };
            let second = Part {
                x: at,
                w: self.x + self.w - at,
                ..self
            };
            (first, second)
        } else {
            let first = Part {
                h: at - self.y,
                ..self
            };
            let second = Part {
                y: at,
                h: self.y + self.h - at,
                ..self
            };
            (first, second)
        }
    }
}

/// The rooms of a subtree nearest each of its sides, as indices into the
/// room list: the candidates for a corridor to a sibling on that side.
#[derive(Clone, Copy, Debug)]
struct Ends {
    left: usize,
    right: usize,
    top: usize,
    bottom: usize,
}

/// Partitions the solid `grid` (at least 4x3), carves a room per leaf and
/// the corridors, and returns the rooms, leaves in depth-first order (first
/// halves first: left before right, top before bottom).
pub fn carve(grid: &mut Grid, settings: Settings, rng: &mut Rng) -> Vec<Rect> {
    let whole = Part {
        x: 2,
        y: 2,
        w: grid.width() - 1,
        h: grid.height() - 1,
    };
    let mut bsp = Bsp {
        grid,
        rng,
        settings,
        rooms: Vec::new(),
        corridors: Corridors::default(),
    };
    bsp.partition(whole, settings.depth);
    bsp.rooms
}

struct Bsp<'a> {
    grid: &'a mut Grid,
    rng: &'a mut Rng,
    settings: Settings,
    rooms: Vec<Rect>,
    corridors: Corridors,
}

impl Bsp<'_> {
    /// Splits `part` up to `depth` more times, carves its rooms and joins
    /// them; returns its rooms nearest each side.
    fn partition(&mut self, part: Part, depth: usize) -> Ends {
        let Some((first, second, vertical)) = self.split(part, depth) else {
            return self.leaf(part);
        };
        let a = self.partition(first, depth - 1);
        let b = self.partition(second, depth - 1);
        let (from, to) = if vertical {
            (a.right, b.left)
        } else {
            (a.bottom, b.top)
        };
        let (from, to) = (self.rooms[from].centre(), self.rooms[to].centre());
        self.corridors.carve(self.grid, from, to, self.rng);
        self.merge(a, b)
    }

    /// libtcod's choice: no split at depth 0 or when neither side holds two
    /// parts of `min_size`; across the length of a part stretched beyond
    /// `max_ratio` (or too short the other way); otherwise a coin. The cut
    /// leaves `min_size` or more on each side. `true`: a vertical cut line.
    fn split(&mut self, part: Part, depth: usize) -> Option<(Part, Part, bool)> {
        let Settings {
            min_size: min,
            max_ratio,
            ..
        } = self.settings;
        let (fits_w, fits_h) = (part.w >= 2 * min, part.h >= 2 * min);
        if depth == 0 || !(fits_w || fits_h) {
            return None;
        }
        let (w, h) = (part.w as f64, part.h as f64);
        let vertical = if !fits_h || w > h * max_ratio {
            true
        } else if !fits_w || h > w * max_ratio {
            false
        } else {
            self.rng.coin()
        };
        let (start, length) = if vertical {
            (part.x, part.w)
        } else {
            (part.y, part.h)
        };
        let at = self.rng.range(start + min, start + length - min);
        let (first, second) = part.cut(vertical, at);
        Some((first, second, vertical))
    }

    /// Carves a room in `part` short of its last column and row: each side
    /// from `min_size - 1` (or all there is) up to all there is, at a random
    /// place.
    fn leaf(&mut self, part: Part) -> Ends {
        let least = self.settings.min_size - 1;
        let (room_w, room_h) = (part.w - 1, part.h - 1);
        let w = self.rng.range(least.min(room_w), room_w);
        let h = self.rng.range(least.min(room_h), room_h);
        let x = self.rng.range(part.x, part.x + room_w - w);
        let y = self.rng.range(part.y, part.y + room_h - h);
        self.grid.fill(Pos { x, y }, w, h, FLOOR);
        let i = self.rooms.len();
        self.rooms.push(Rect { x, y, w, h });
        Ends {
            left: i,
            right: i,
            top: i,
            bottom: i,
        }
    }

    /// The ends of two sibling subtrees taken together; on a tie, the room
    /// of `a`, the first subtree (so the first room in depth-first order).
    fn merge(&self, a: Ends, b: Ends) -> Ends {
        let r = &self.rooms;
        let pick = |a: usize, b: usize, b_nearer: bool| if b_nearer { b } else { a };
        Ends {
            left: pick(a.left, b.left, r[b.left].x < r[a.left].x),
            right: pick(
                a.right,
                b.right,
                r[b.right].x + r[b.right].w > r[a.right].x + r[a.right].w,
            ),
            top: pick(a.top, b.top, r[b.top].y < r[a.top].y),
            bottom: pick(
                a.bottom,
                b.bottom,
                r[b.bottom].y + r[b.bottom].h > r[a.bottom].y + r[a.bottom].h,
            ),
        }
    }
}

/// The room cell with the longest walk from `player`, the first in row
/// order on a tie. Rooms are at least two cells, so it is never `player`'s.
fn farthest_room_cell(grid: &Grid, rooms: &[Rect], player: Pos) -> Pos {
    let mut flood = Flood::new(grid, |c| if c == WALL { CLOSED } else { OPEN });
    for room in rooms {
        for y in room.y..room.y + room.h {
            flood.mark_run(Pos { x: room.x, y }, room.w, WANTED);
        }
    }
    flood.farthest(player)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generators::Value;
    use crate::toolkit::board::{Walk, UNREACHED};
    use crate::toolkit::distances::distances;

    const DEFAULTS: Settings = Settings {
        depth: DEFAULT_DEPTH as usize,
        min_size: DEFAULT_MIN_SIZE as usize,
        max_ratio: DEFAULT_MAX_RATIO,
    };

    fn options(s: Settings) -> Options {
        Options::new(vec![
            ("depth", Value::Int(s.depth as i64)),
            ("min_size", Value::Int(s.min_size as i64)),
            ("max_ratio", Value::Number(s.max_ratio)),
            ("doors", Value::Bool(false)),
            ("loops", Value::Int(0)),
        ])
    }

    fn run(w: usize, h: usize, s: Settings, seed: i64) -> (Grid, Layout) {
        let mut g = Grid::new(w, h, WALL);
        let layout = layout(&mut g, &options(s), &mut Rng::new(seed)).expect("bsp never fails");
        (g, layout)
    }

    /// Everything the generator promises about one map.
    fn check(g: &Grid, layout: &Layout, s: Settings) {
        let (w, h) = (g.width(), g.height());
        let at = |w: usize, h: usize| format!("{w}x{h} {s:?}");
        assert!(
            g.cells().iter().all(|&c| c == FLOOR || c == WALL),
            "stray cell, {}",
            at(w, h)
        );
        for (i, &c) in g.cells().iter().enumerate() {
            let p = g.pos(i);
            if p.x == 1 || p.y == 1 || p.x == w || p.y == h {
                assert_eq!(c, WALL, "border broken at {p:?}, {}", at(w, h));
            }
        }
        check_rooms(g, &layout.rooms, s);
        assert_eq!(layout.player, layout.rooms[0].centre());
        let dist = distances(g, &[layout.player], &Walk::new());
        assert!(
            (0..dist.len()).all(|i| g.cells()[i] != FLOOR || dist[i] != UNREACHED),
            "floor cut off, {}",
            at(w, h)
        );
        check_stairs(g, layout, &dist);
    }

    /// Inside the border, floor, at least two cells and `min_size - 1`
    /// across where the map allows, never crowding, at most `2^depth`.
    fn check_rooms(g: &Grid, rooms: &[Rect], s: Settings) {
        let (w, h) = (g.width(), g.height());
        assert!(!rooms.is_empty() && rooms.len() <= 1 << s.depth);
        for r in rooms {
            assert!(r.x >= 2 && r.x + r.w <= w, "{r:?} in {w}x{h}");
            assert!(r.y >= 2 && r.y + r.h <= h, "{r:?} in {w}x{h}");
            assert!(r.w >= (s.min_size - 1).min(w - 2), "{r:?} {s:?}");
            assert!(r.h >= (s.min_size - 1).min(h - 2), "{r:?} {s:?}");
            assert!(r.w * r.h >= 2, "{r:?}");
            assert!(r.cells().all(|p| g.get(p) == FLOOR));
        }
        assert_none_crowd(rooms, h > w);
    }

    /// `crowds` is false for every pair. Sorted along the map's length, a
    /// room can only crowd the next ones that start before it ends (plus
    /// one): the rest are skipped, so thousands of rooms check quickly.
    fn assert_none_crowd(rooms: &[Rect], by_rows: bool) {
        let span = |r: &Rect| if by_rows { (r.y, r.h) } else { (r.x, r.w) };
        let mut order: Vec<&Rect> = rooms.iter().collect();
        order.sort_by_key(|r| span(r).0);
        for (i, a) in order.iter().enumerate() {
            let (start, length) = span(a);
            for b in order[i + 1..]
                .iter()
                .take_while(|b| span(b).0 <= start + length)
            {
                assert!(!a.crowds(b), "{a:?} crowds {b:?}");
            }
        }
    }

    /// `>`: a room cell, not `@`'s, the first in row order of the farthest.
    fn check_stairs(g: &Grid, layout: &Layout, dist: &[u64]) {
        let stairs = layout.stairs.expect("bsp places >");
        assert_ne!(stairs, layout.player);
        let room_cells: Vec<usize> = layout
            .rooms
            .iter()
            .flat_map(|r| r.cells())
            .map(|p| g.index(p))
            .collect();
        let far = room_cells.iter().map(|&i| dist[i]).max().unwrap();
        let first = room_cells.iter().copied().filter(|&i| dist[i] == far).min();
        assert_eq!(Some(g.index(stairs)), first);
    }

    #[test]
    fn maps_are_bordered_connected_and_roomy_at_every_size() {
        let widths = [4, 5, 6, 7, 8, 11, 14, 16, 25, 40, 80, 150, 300];
        let heights = [3, 4, 5, 6, 9, 13, 14, 20, 50, 100];
        for seed in 0..12 {
            for w in widths {
                for h in heights {
                    let (g, layout) = run(w, h, DEFAULTS, seed);
                    check(&g, &layout, DEFAULTS);
                }
            }
        }
    }

    #[test]
    fn small_settings_on_small_maps() {
        // The smallest parts and rooms, where off-by-ones would show.
        for seed in 0..40 {
            for (w, h) in [(4, 3), (5, 4), (6, 6), (7, 7), (8, 5), (9, 9), (13, 11)] {
                for min_size in [3, 4, 5] {
                    for max_ratio in [1.0, 1.5, MAX_RATIO] {
                        let s = Settings {
                            depth: MAX_DEPTH as usize,
                            min_size,
                            max_ratio,
                        };
                        let (g, layout) = run(w, h, s, seed);
                        check(&g, &layout, s);
                    }
                }
            }
        }
    }

    #[test]
    fn options_at_their_bounds() {
        let depths = [0, 1, DEFAULT_DEPTH as usize, MAX_DEPTH as usize];
        let min_sizes = [MIN_MIN_SIZE as usize, 4, MAX_CELLS];
        for seed in 0..4 {
            for (w, h) in [(4, 3), (9, 7), (80, 50), (300, 60)] {
                for depth in depths {
                    for min_size in min_sizes {
                        for max_ratio in [1.0, MAX_RATIO] {
                            let s = Settings {
                                depth,
                                min_size,
                                max_ratio,
                            };
                            let (g, layout) = run(w, h, s, seed);
                            check(&g, &layout, s);
                            if depth == 0 || min_size == MAX_CELLS {
                                assert_eq!(layout.rooms.len(), 1);
                            }
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn odd_shapes() {
        let deepest = Settings {
            depth: MAX_DEPTH as usize,
            min_size: MIN_MIN_SIZE as usize,
            ..DEFAULTS
        };
        for seed in 0..2 {
            for (w, h) in [(2000, 5), (5, 2000), (100_000, 3), (4, 100_000), (2000, 4)] {
                for s in [DEFAULTS, deepest] {
                    let (g, layout) = run(w, h, s, seed);
                    check(&g, &layout, s);
                }
            }
        }
    }

    #[test]
    fn the_smallest_map_is_one_room_of_two_cells() {
        for seed in 0..20 {
            for s in [
                DEFAULTS,
                Settings {
                    depth: MAX_DEPTH as usize,
                    min_size: 3,
                    max_ratio: 1.0,
                },
            ] {
                let (_, layout) = run(4, 3, s, seed);
                assert_eq!(
                    layout.rooms,
                    vec![Rect {
                        x: 2,
                        y: 2,
                        w: 2,
                        h: 1
                    }]
                );
                assert_eq!(layout.player, Pos { x: 2, y: 2 });
                assert_eq!(layout.stairs, Some(Pos { x: 3, y: 2 }));
            }
        }
        assert_eq!((GENERATOR.min_width, GENERATOR.min_height), (4, 3));
    }

    #[test]
    fn same_seed_same_map_other_seeds_differ() {
        let (a, la) = run(80, 50, DEFAULTS, 7);
        let (b, lb) = run(80, 50, DEFAULTS, 7);
        assert_eq!(a, b);
        assert_eq!(la.rooms, lb.rooms);
        assert_eq!((la.player, la.stairs), (lb.player, lb.stairs));
        let differ = (8..18).filter(|&seed| run(80, 50, DEFAULTS, seed).0 != a);
        assert_eq!(differ.count(), 10);
    }

    #[test]
    fn the_defaults_fill_an_80x50_map_with_rooms() {
        let counts: Vec<usize> = (0..50)
            .map(|seed| run(80, 50, DEFAULTS, seed).1.rooms.len())
            .collect();
        let (least, most) = (counts.iter().min(), counts.iter().max());
        assert!(*least.unwrap() >= 16 && *most.unwrap() <= 32, "{counts:?}");
    }

    #[test]
    fn declared_defaults_are_in_range() {
        for spec in GENERATOR.options {
            let fits = match (spec.kind, spec.default) {
                (Kind::Int { min, max }, Default::Int(v)) => (min..=max).contains(&v),
                (Kind::Number { min, max, .. }, Default::Number(v)) => (min..=max).contains(&v),
                (Kind::Bool, Default::Bool(_)) => true,
                _ => false,
            };
            assert!(fits, "{}", spec.name);
        }
    }

    // The deepest tree fits `MAX_ROOMS`, and one level more would not.
    const _: () = assert!(1 << MAX_DEPTH <= MAX_ROOMS && 1 << (MAX_DEPTH + 1) > MAX_ROOMS);

    fn bsp<'a>(grid: &'a mut Grid, rng: &'a mut Rng, s: Settings) -> Bsp<'a> {
        Bsp {
            grid,
            rng,
            settings: s,
            rooms: Vec::new(),
            corridors: Corridors::default(),
        }
    }

    #[test]
    fn splits_follow_libtcod() {
        let (mut g, mut rng) = (Grid::new(10, 10, WALL), Rng::new(3));
        let mut b = bsp(&mut g, &mut rng, DEFAULTS);
        let part = |w, h| Part { x: 2, y: 2, w, h };
        for _ in 0..50 {
            // Stretched beyond 1.5, or too short to cut the other way.
            let (first, second, vertical) = b.split(part(40, 20), 1).unwrap();
            assert!(vertical);
            assert_eq!(
                (first.x, first.w + second.w, second.x),
                (2, 40, 2 + first.w)
            );
            assert!(first.w >= 7 && second.w >= 7 && first.h == 20);
            assert!(!b.split(part(20, 40), 1).unwrap().2);
            assert!(b.split(part(14, 13), 1).unwrap().2);
            assert!(!b.split(part(13, 14), 1).unwrap().2);
            let (first, second, _) = b.split(part(14, 14), 1).unwrap();
            assert!([first.w, first.h, second.w, second.h]
                .iter()
                .all(|&s| s >= 7));
        }
        assert_eq!(b.split(part(40, 20), 0), None, "depth spent");
        assert_eq!(b.split(part(13, 13), 5), None, "too small");
        let both = (0..100).map(|_| b.split(part(30, 30), 1).unwrap().2);
        let vertical = both.filter(|&v| v).count();
        assert!(
            (20..=80).contains(&vertical),
            "a square part is cut either way"
        );
    }

    #[test]
    fn two_parts_are_joined_by_one_corridor() {
        for seed in 0..30 {
            let s = Settings {
                depth: 1,
                ..DEFAULTS
            };
            let (g, layout) = run(30, 10, s, seed);
            let [a, b] = layout.rooms[..] else {
                panic!("two rooms side by side")
            };
            assert!(a.x + a.w < b.x);
            let floor = g.cells().iter().filter(|&&c| c == FLOOR).count();
            let rooms = a.w * a.h + b.w * b.h;
            let (ca, cb) = (a.centre(), b.centre());
            let l = ca.x.abs_diff(cb.x) + ca.y.abs_diff(cb.y) + 1;
            assert!(floor > rooms && floor <= rooms + l);
        }
    }

    #[test]
    fn ends_are_the_rooms_nearest_each_side_the_first_on_a_tie() {
        let (mut g, mut rng) = (Grid::new(40, 40, WALL), Rng::new(1));
        let mut b = bsp(&mut g, &mut rng, DEFAULTS);
        b.rooms = vec![
            Rect {
                x: 2,
                y: 10,
                w: 4,
                h: 4,
            }, // 0: leftmost
            Rect {
                x: 8,
                y: 2,
                w: 6,
                h: 3,
            }, // 1: top, right edge 14
            Rect {
                x: 3,
                y: 20,
                w: 11,
                h: 5,
            }, // 2: bottom, right edge 14
            Rect {
                x: 20,
                y: 2,
                w: 3,
                h: 9,
            }, // 3: top too, bottom edge 11
            Rect {
                x: 30,
                y: 15,
                w: 5,
                h: 10,
            }, // 4: rightmost, bottom edge 25
        ];
        let leaf = |i| Ends {
            left: i,
            right: i,
            top: i,
            bottom: i,
        };
        let a = b.merge(b.merge(leaf(0), leaf(1)), leaf(2));
        assert_eq!((a.left, a.right, a.top, a.bottom), (0, 1, 1, 2));
        let c = b.merge(leaf(3), leaf(4));
        assert_eq!((c.left, c.right, c.top, c.bottom), (3, 4, 3, 4));
        let all = b.merge(a, c);
        assert_eq!((all.left, all.right, all.top, all.bottom), (0, 4, 1, 2));
    }
}
