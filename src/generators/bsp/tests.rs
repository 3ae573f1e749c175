//! The tests of `bsp.rs`: every map it promises, on many sizes, settings
//! and seeds, and the partition's own rules.

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
        (DEPTH.name, Value::Int(s.depth as i64)),
        (MIN_SIZE.name, Value::Int(s.min_size as i64)),
        (MAX_RATIO_OPTION.name, Value::Number(s.max_ratio)),
        (DOORS.name, Value::Bool(false)),
        (LOOPS.name, Value::Int(0)),
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
