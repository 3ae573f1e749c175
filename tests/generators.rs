//! Property tests: the invariants every generated map must keep, checked on
//! many random parameter sets drawn by a small hand-rolled generator
//! (SplitMix64, fixed seeds, so every run checks the same cases and a failure
//! names the case that broke).
//!
//! Invariants: the size asked for; an intact wall border; rooms inside the
//! border that never overlap and keep a wall between them; every map passes
//! `reach::check`; exactly one `@` and one `>`, the items asked for on
//! distinct cells holding their bytes; caves carve exactly
//! `round(fill * interior)` cells, all connected.

use map::generators::rooms::DEFAULT_ROOMS;
use map::generators::rooms::{MAX_ROOM_HEIGHT, MAX_ROOM_WIDTH, MIN_ROOM_HEIGHT, MIN_ROOM_WIDTH};
use map::generators::shared::MAX_ROOMS;
use map::generators::{Kind, OptionSpec};
use map::grid::{Pos, DOOR, FLOOR, GOLD, PLAYER, POTION, STAIRS, WALL};
use map::input::{Arg, MAX_CELLS, MAX_SEED};
use map::level::{generate, Level, Params, DEFAULT_ITEMS, MAX_ITEMS};
use map::toolkit::reach;

#[path = "support/oracle.rs"]
mod oracle;

/// SplitMix64: enough randomness for choosing test cases, no dependency.
struct Gen(u64);

impl Gen {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A uniform-enough integer in `lo..=hi`.
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        let span = (i128::from(hi) - i128::from(lo) + 1) as u128;
        (i128::from(lo) + (u128::from(self.next()) % span) as i128) as i64
    }

    fn size(&mut self, lo: usize, hi: usize) -> usize {
        self.range(lo as i64, hi as i64) as usize
    }

    fn chance(&mut self, percent: u64) -> bool {
        self.next() % 100 < percent
    }

    fn pick<T: Copy>(&mut self, options: &[T]) -> T {
        options[self.next() as usize % options.len()]
    }

    /// A seed: mostly anywhere in `-2^53..=2^53`, often an extreme one,
    /// sometimes given as an integral float.
    fn seed(&mut self) -> Arg<'static> {
        let seed = if self.chance(30) {
            self.pick(&[MAX_SEED, -MAX_SEED, MAX_SEED - 1, -MAX_SEED + 1, 0, 1, -1])
        } else {
            self.range(-MAX_SEED, MAX_SEED)
        };
        if self.chance(20) {
            Arg::Float(seed as f64)
        } else {
            Arg::Int(seed)
        }
    }
}

/// What a valid request must produce.
struct Expect {
    width: usize,
    height: usize,
    seed: Option<i64>,
    items: usize,
    /// Rooms wanted (rooms maps) or cells to carve (caves).
    rooms: usize,
    carve: usize,
}

impl Expect {
    /// What the valid request `params` must produce, its defaults filled in.
    fn of(params: &Params) -> Expect {
        let (width, height) = (int(params.width, 0), int(params.height, 0));
        let cave = params.algorithm == Arg::Str(b"cave");
        let fill = match params.option("fill") {
            Arg::Missing => 0.5,
            Arg::Int(i) => i as f64,
            Arg::Float(f) => f,
            other => panic!("not a fill: {other:?}"),
        };
        Expect {
            width,
            height,
            seed: seed_of(params.seed),
            items: int(params.option("items"), DEFAULT_ITEMS),
            rooms: if cave {
                0
            } else {
                int(params.option("rooms"), DEFAULT_ROOMS)
            },
            carve: if cave {
                carve_target(width, height, fill)
            } else {
                0
            },
        }
    }
}

fn is_cave(level: &Level) -> bool {
    level.algorithm == "cave"
}

/// Every invariant of a generated level; `case` names it in failures.
fn check(level: &Level, x: &Expect, case: &str) {
    let g = &level.grid;
    let (w, h) = (x.width, x.height);
    assert_eq!((g.width(), g.height()), (w, h), "{case}: dimensions");
    assert_eq!(g.cells().len(), w * h, "{case}: cell count");
    assert_eq!(g.render().len(), w * h + h - 1, "{case}: render length");
    match x.seed {
        Some(seed) => assert_eq!(level.seed, seed, "{case}: seed"),
        None => assert!((0..MAX_SEED).contains(&level.seed), "{case}: fresh seed"),
    }

    // The border is wall all round.
    for i in 0..g.cells().len() {
        let p = g.pos(i);
        if p.x == 1 || p.y == 1 || p.x == w || p.y == h {
            assert_eq!(g.cells()[i], WALL, "{case}: border broken at {p:?}");
        }
    }

    // One @, one >, the items on distinct cells; nothing else but wall and floor.
    let count = |c: u8| g.cells().iter().filter(|&&v| v == c).count();
    assert_eq!(count(PLAYER), 1, "{case}: @ count");
    assert_eq!(count(STAIRS), 1, "{case}: > count");
    assert_eq!(g.get(level.player), PLAYER, "{case}: @ position");
    assert_eq!(g.get(level.stairs), STAIRS, "{case}: > position");
    assert_eq!(level.items.len(), x.items, "{case}: item count");
    let mut spots: Vec<usize> = level.items.iter().map(|i| g.index(i.pos)).collect();
    spots.sort_unstable();
    spots.dedup();
    assert_eq!(spots.len(), x.items, "{case}: items stacked");
    for item in &level.items {
        assert!(item.kind == GOLD || item.kind == POTION, "{case}: {item:?}");
        assert_eq!(
            g.get(item.pos),
            item.kind,
            "{case}: {item:?} not on the map"
        );
    }
    let kinds = |c: u8| level.items.iter().filter(|i| i.kind == c).count();
    assert_eq!(count(GOLD), kinds(GOLD), "{case}: $ cells");
    assert_eq!(count(POTION), kinds(POTION), "{case}: ! cells");
    let known = count(WALL) + count(FLOOR) + 2 + x.items;
    assert_eq!(known, w * h, "{case}: unexpected cell bytes");

    assert_eq!(reach::check(g), Ok(()), "{case}: not reachable");

    if is_cave(level) {
        check_cave(level, x, case);
    } else {
        check_rooms(level, x, case);
    }
}

fn check_rooms(level: &Level, x: &Expect, case: &str) {
    let (g, rooms) = (&level.grid, &level.rooms);
    assert!(
        (1..=x.rooms).contains(&rooms.len()),
        "{case}: {} rooms",
        rooms.len()
    );
    for (i, r) in rooms.iter().enumerate() {
        assert!(
            (MIN_ROOM_WIDTH..=MAX_ROOM_WIDTH).contains(&r.w)
                && (MIN_ROOM_HEIGHT..=MAX_ROOM_HEIGHT).contains(&r.h),
            "{case}: room size {r:?}"
        );
        // Floor from x to x+w-1: inside the border means x >= 2, x+w-1 <= width-1.
        assert!(
            r.x >= 2 && r.x + r.w <= x.width && r.y >= 2 && r.y + r.h <= x.height,
            "{case}: {r:?} crosses the border"
        );
        assert!(
            r.cells().all(|p| g.get(p) != WALL),
            "{case}: {r:?} not carved"
        );
        for other in &rooms[i + 1..] {
            assert!(
                oracle::apart(r, other),
                "{case}: {r:?} and {other:?} overlap or touch"
            );
        }
    }
    let first = rooms[0];
    let centre = Pos {
        x: first.x + (first.w - 1) / 2,
        y: first.y + (first.h - 1) / 2,
    };
    assert_eq!(
        level.player, centre,
        "{case}: @ not at the first room's centre"
    );
    let last = rooms[rooms.len() - 1];
    assert!(
        last.cells().any(|p| p == level.stairs),
        "{case}: > not in the last room"
    );
}

fn check_cave(level: &Level, x: &Expect, case: &str) {
    let g = &level.grid;
    assert!(level.rooms.is_empty(), "{case}: a cave with rooms");
    let open = g.cells().iter().filter(|&&c| c != WALL).count();
    assert_eq!(open, x.carve, "{case}: carved count");
    let centre = Pos {
        x: x.width.div_ceil(2),
        y: x.height.div_ceil(2),
    };
    assert_eq!(level.player, centre, "{case}: @ not at the centre");
    let dist = oracle::walk_distances(g, level.player);
    let stairs = dist[g.index(level.stairs)];
    for (i, &c) in g.cells().iter().enumerate() {
        if c != WALL {
            assert!(dist[i].is_some(), "{case}: {:?} cut off", g.pos(i));
            assert!(dist[i] <= stairs, "{case}: {:?} beyond >", g.pos(i));
        }
    }
}

/// `round(fill * interior)`, halves rounded up.
fn carve_target(width: usize, height: usize, fill: f64) -> usize {
    (fill * ((width - 2) * (height - 2)) as f64).round() as usize
}

fn seed_of(arg: Arg) -> Option<i64> {
    match arg {
        Arg::Int(i) => Some(i),
        Arg::Float(f) => Some(f as i64),
        _ => None,
    }
}

/// A random rooms request: sizes from minimal and narrow to large.
fn rooms_case(gen: &mut Gen) -> Params<'static> {
    let (width, height) = match gen.next() % 10 {
        0 => (6, 5),
        1 => (gen.size(6, 7), gen.size(5, 200)),
        2 => (gen.size(6, 300), gen.size(5, 6)),
        3 => (gen.size(6, 200), gen.size(5, 100)),
        _ => (gen.size(6, 80), gen.size(5, 40)),
    };
    // Many rooms cost `10 * rooms` placement attempts: only on small maps,
    // and now and then, to keep this test fast in a debug build.
    let crowded = width * height <= 1500 && gen.chance(1);
    let rooms = match gen.next() % 4 {
        _ if crowded && gen.chance(50) => Arg::Int(MAX_ROOMS),
        _ if crowded => Arg::Int(gen.range(41, MAX_ROOMS)),
        0 => Arg::Missing,
        1 => Arg::Int(1),
        _ => Arg::Int(gen.range(1, 40)),
    };
    Params {
        width: Arg::Int(width as i64),
        height: Arg::Int(height as i64),
        seed: if gen.chance(5) {
            Arg::Missing
        } else {
            gen.seed()
        },
        algorithm: if gen.chance(50) {
            Arg::Str(b"rooms")
        } else {
            Arg::Missing
        },
        ..Params::default()
    }
    .with(b"rooms", rooms)
    .with(
        b"items",
        match gen.next() % 4 {
            0 => Arg::Missing,
            1 => Arg::Int(gen.range(0, 10)),
            2 => Arg::Int(gen.range(0, 200)),
            _ => Arg::Float(gen.range(0, 10) as f64),
        },
    )
}

fn int(arg: Arg, default: i64) -> usize {
    match arg {
        Arg::Missing => default as usize,
        Arg::Int(i) => i as usize,
        Arg::Float(f) => f as usize,
        other => panic!("not an integer: {other:?}"),
    }
}

#[test]
fn rooms_maps_keep_their_invariants() {
    let mut gen = Gen(0x5eed_0001);
    for n in 0..1500 {
        let params = rooms_case(&mut gen);
        let case = format!("case {n}: {params:?}");
        let x = Expect::of(&params);
        match generate(&params) {
            Ok(level) => {
                check(&level, &x, &case);
                // The same seed makes the same level.
                let mut again = params;
                again.seed = Arg::Int(level.seed);
                assert_eq!(
                    generate(&again).as_ref(),
                    Ok(&level),
                    "{case}: not repeatable"
                );
            }
            Err(e) => {
                // Only more items than free floor: then the same map without
                // items must indeed have fewer free cells than asked.
                assert!(x.items > 10, "{case}: refused: {e}");
                assert!(
                    e.starts_with(&format!("cannot place {} items", x.items)),
                    "{case}: {e}"
                );
                if x.seed.is_some() {
                    let mut bare = params;
                    bare.set(b"items", Arg::Int(0));
                    let level = generate(&bare).expect("the same map without items");
                    let free = level.grid.cells().iter().filter(|&&c| c == FLOOR).count();
                    assert!(free < x.items, "{case}: {free} free cells, yet refused");
                }
            }
        }
    }
}

/// A random cave request: sizes from minimal and narrow to large.
fn cave_case(gen: &mut Gen) -> (Params<'static>, usize, usize, f64) {
    let (width, height) = match gen.next() % 10 {
        0 => gen.pick(&[(3, 4), (4, 3), (4, 4), (3, 3), (5, 3), (3, 5)]),
        1 => (gen.size(3, 4), gen.size(3, 300)),
        2 => (gen.size(3, 300), gen.size(3, 4)),
        3 => (gen.size(3, 160), gen.size(3, 100)),
        _ => (gen.size(3, 60), gen.size(3, 40)),
    };
    let (fill_arg, fill) = match gen.next() % 6 {
        0 => (Arg::Missing, 0.5),
        1 => (Arg::Int(1), 1.0),
        2 => (Arg::Float(1.0), 1.0),
        3 => {
            let f = gen.range(1, 1000) as f64 / 1000.0;
            (Arg::Float(f), f)
        }
        _ => {
            let f = gen.range(1, 100) as f64 / 100.0;
            (Arg::Float(f), f)
        }
    };
    let max_frontier = match gen.next() % 5 {
        0 => Arg::Int(1),
        1 => Arg::Int(gen.range(1, 8)),
        2 => Arg::Int(MAX_CELLS as i64),
        3 => Arg::Int(gen.range(1, 500)),
        _ => Arg::Missing,
    };
    let params = Params {
        width: Arg::Int(width as i64),
        height: Arg::Int(height as i64),
        seed: if gen.chance(5) {
            Arg::Missing
        } else {
            gen.seed()
        },
        algorithm: Arg::Str(b"cave"),
        ..Params::default()
    }
    .with(b"fill", fill_arg)
    .with(b"max_frontier", max_frontier);
    (params, width, height, fill)
}

#[test]
fn caves_keep_their_invariants() {
    let mut gen = Gen(0x5eed_0002);
    for n in 0..1500 {
        let (mut params, width, height, fill) = cave_case(&mut gen);
        let target = carve_target(width, height, fill);
        // Items: any number up to the free cells (all cells but @ and >),
        // and now and then one too many.
        let free = target.saturating_sub(2);
        let items = match gen.next() % 4 {
            0 => DEFAULT_ITEMS as usize,
            1 => free + 1,
            2 => free,
            _ => gen.size(0, free.min(30)),
        }
        .min(MAX_ITEMS as usize);
        params.set(b"items", Arg::Int(items as i64));
        let case = format!("case {n}: {params:?}");
        let result = generate(&params);
        if target < 2 {
            let e = result.expect_err(&case);
            assert!(e.contains("@ and > need at least 2"), "{case}: {e}");
            continue;
        }
        if items > free {
            let e = result.expect_err(&case);
            assert!(
                e.starts_with(&format!("cannot place {items} items: only {free} free")),
                "{case}: {e}"
            );
            continue;
        }
        let level = result.unwrap_or_else(|e| panic!("{case}: refused: {e}"));
        let x = Expect::of(&params);
        check(&level, &x, &case);
        let mut again = params;
        again.seed = Arg::Int(level.seed);
        assert_eq!(
            generate(&again).as_ref(),
            Ok(&level),
            "{case}: not repeatable"
        );
    }
}

#[test]
fn minimal_and_narrow_maps_on_many_seeds() {
    let mut gen = Gen(0x5eed_0003);
    for n in 0..300 {
        let seed = gen.seed();
        for (w, h) in [(6, 5), (7, 5), (6, 6), (6, 60), (120, 5)] {
            let params = Params {
                width: Arg::Int(w),
                height: Arg::Int(h),
                seed,
                ..Params::default()
            }
            .with(b"items", Arg::Int(10));
            let level = generate(&params).unwrap_or_else(|e| panic!("{params:?}: {e}"));
            let x = Expect::of(&params);
            check(&level, &x, &format!("rooms {n} {w}x{h}"));
        }
        for (w, h) in [(3, 4), (4, 3), (3, 60), (60, 3), (4, 4), (5, 5)] {
            let params = Params {
                width: Arg::Int(w),
                height: Arg::Int(h),
                seed,
                algorithm: Arg::Str(b"cave"),
                ..Params::default()
            }
            .with(b"items", Arg::Int(0))
            .with(b"fill", Arg::Int(1))
            .with(b"max_frontier", Arg::Int(gen.range(1, 4)));
            let level = generate(&params).unwrap_or_else(|e| panic!("{params:?}: {e}"));
            let x = Expect::of(&params);
            check(&level, &x, &format!("cave {n} {w}x{h}"));
        }
    }
}

#[test]
fn the_most_rooms_on_the_smallest_maps() {
    for (w, h, seed) in [(6, 5, 1), (6, 12, 2), (30, 10, -MAX_SEED)] {
        let params = Params {
            width: Arg::Int(w),
            height: Arg::Int(h),
            seed: Arg::Int(seed),
            ..Params::default()
        }
        .with(b"rooms", Arg::Int(MAX_ROOMS))
        .with(b"items", Arg::Int(10));
        let level = generate(&params).unwrap_or_else(|e| panic!("{params:?}: {e}"));
        let x = Expect::of(&params);
        check(&level, &x, &format!("{params:?}"));
    }
}

#[test]
fn extreme_seeds_work_and_integral_floats_are_the_same_seed() {
    for seed in [MAX_SEED, -MAX_SEED, MAX_SEED - 1, -MAX_SEED + 1, 0, 1, -1] {
        for algorithm in [&b"rooms"[..], b"cave"] {
            let params = |seed| Params {
                width: Arg::Int(40),
                height: Arg::Int(20),
                seed,
                algorithm: Arg::Str(algorithm),
                ..Params::default()
            };
            let level = generate(&params(Arg::Int(seed))).unwrap();
            assert_eq!(level.seed, seed);
            let as_float = generate(&params(Arg::Float(seed as f64))).unwrap();
            assert_eq!(level, as_float, "seed {seed} as a float");
            let x = Expect::of(&params(Arg::Int(seed)));
            check(&level, &x, &format!("seed {seed}"));
        }
    }
    // One past the range either way is refused.
    for seed in [MAX_SEED + 1, -MAX_SEED - 1, i64::MAX, i64::MIN] {
        let params = Params {
            width: Arg::Int(40),
            height: Arg::Int(20),
            seed: Arg::Int(seed),
            ..Params::default()
        };
        assert!(generate(&params).unwrap_err().starts_with("seed must be"));
    }
}

/// Hostile arguments: any mix of values, every outcome an `Ok` that keeps the
/// invariants or an `Err` with a message, never a panic.
#[test]
fn hostile_arguments_never_panic() {
    let mut gen = Gen(0x5eed_0004);
    let values = |gen: &mut Gen| -> Arg<'static> {
        match gen.next() % 10 {
            0 => Arg::Missing,
            1 => Arg::Int(gen.next() as i64),
            2 => Arg::Int(gen.range(-2, 40)),
            3 => Arg::Float(f64::from_bits(gen.next())),
            4 => gen.pick(&[
                Arg::Float(f64::NAN),
                Arg::Float(f64::INFINITY),
                Arg::Float(f64::NEG_INFINITY),
                Arg::Float(-0.0),
                Arg::Float(0.5),
                Arg::Float(2f64.powi(63)),
                Arg::Float(1e300),
            ]),
            5 => Arg::Float(gen.range(0, 40) as f64 / 4.0),
            6 => gen.pick(&[
                Arg::Str(b"rooms"),
                Arg::Str(b"cave"),
                Arg::Str(b"12"),
                Arg::Str(b""),
            ]),
            7 => Arg::Other("table"),
            _ => Arg::Int(gen.range(0, 60)),
        }
    };
    let mut ok = 0;
    for n in 0..3000 {
        let mut params = Params::default();
        for _ in 0..gen.range(0, 9) {
            let key = gen.pick(&[
                &b"width"[..],
                b"height",
                b"seed",
                b"algorithm",
                b"rooms",
                b"items",
                b"fill",
                b"max_frontier",
            ]);
            let value = values(&mut gen);
            // Now and then an unknown name, which always makes an error.
            params.set(if gen.chance(3) { b"colour" } else { key }, value);
        }
        // Keep valid sizes small: this is about arguments, not big maps.
        let small = |a: Arg| match a {
            Arg::Int(i) => i.unsigned_abs() <= 100,
            Arg::Float(f) => f.is_nan() || f.abs() <= 100.0,
            _ => true,
        };
        if !small(params.width) || !small(params.height) {
            continue;
        }
        match generate(&params) {
            Ok(level) => {
                ok += 1;
                let g = &level.grid;
                assert_eq!(g.width(), int(params.width, 0), "case {n}");
                assert_eq!(g.height(), int(params.height, 0), "case {n}");
                assert_eq!(reach::check(g), Ok(()), "case {n}: {params:?}");
                assert_eq!(
                    g.cells().iter().filter(|&&c| c == PLAYER).count(),
                    1,
                    "case {n}: {params:?}"
                );
            }
            Err(e) => assert!(!e.is_empty() && !e.contains("internal"), "{e}"),
        }
    }
    assert!(ok > 0, "no hostile case produced a map");
}

/// The reachability check against a plain depth-first search, on random
/// hand-made grids.
/// A value for `spec` drawn for a property case: often a bound, else anywhere
/// in its range (bounded where a huge value would only make a slow map).
fn option_value(gen: &mut Gen, spec: &OptionSpec) -> Arg<'static> {
    match spec.kind {
        Kind::Int { min, max } => {
            let max = max.min(min + 40);
            Arg::Int(if gen.chance(40) {
                gen.pick(&[min, max])
            } else {
                gen.range(min, max)
            })
        }
        Kind::Number { min, max, open_min } => {
            let low = if open_min {
                min + (max - min) / 1000.0
            } else {
                min
            };
            let x = match gen.next() % 3 {
                0 => low,
                1 => max,
                _ => low + (max - low) * gen.range(0, 1000) as f64 / 1000.0,
            };
            Arg::Float(x)
        }
        Kind::Bool => Arg::Bool(gen.chance(50)),
        // A text's meaning is its generator's (example's tests): its default.
        Kind::Text { .. } => match spec.default {
            map::generators::Default::Text(t) => Arg::Str(t.as_bytes()),
            other => panic!("{}: a text option's default is {other}", spec.name),
        },
    }
}

/// Every generator of the registry, with its options drawn from their
/// declared ranges (bounds included), sizes from its smallest to 300 wide
/// and seeds to ±2^53: the shared invariants (size, border, one `@` and `>`,
/// the items, every floor cell reachable from `@`), or an error of the
/// declared kinds only (a fill too small for `@` and `>`, too many items).
#[test]
fn every_generator_keeps_the_shared_invariants() {
    let mut gen = Gen(0x5eed_0006);
    for algorithm in map::generators::LIST {
        let (mut made, mut sized_out) = (0, 0);
        for n in 0..300 {
            let (min_w, min_h) = (algorithm.min_width, algorithm.min_height);
            let (w, h) = match gen.next() % 4 {
                0 => (min_w, min_h),
                1 => (gen.size(min_w, min_w + 3), gen.size(min_h, 200)),
                2 => (gen.size(min_w, 300), gen.size(min_h, min_h + 3)),
                _ => (gen.size(min_w, 120), gen.size(min_h, 60)),
            };
            let mut params = Params {
                algorithm: Arg::Str(algorithm.name.as_bytes()),
                ..Params::new(Arg::Int(w as i64), Arg::Int(h as i64), gen.seed())
            };
            for spec in algorithm.options {
                if gen.chance(60) {
                    params.set(spec.name.as_bytes(), option_value(&mut gen, spec));
                }
            }
            let items = gen.range(0, 4);
            params.set(b"items", Arg::Int(items));
            let case = format!("{} case {n}: {params:?}", algorithm.name);
            match generate(&params) {
                Ok(level) => {
                    made += 1;
                    check_shared(&level, w, h, items as usize, &case);
                    assert_eq!(
                        generate(&params).as_ref(),
                        Ok(&level),
                        "{case}: not deterministic"
                    );
                }
                // example's bounds: sizes refused before starting, and no
                // level within its attempts (its success rates: its tests).
                // rooms' sizes drawn each in its range: a least above its
                // most, or wider than the map's interior (not counted).
                Err(e) if e.starts_with("room_min_") => {
                    sized_out += 1;
                    assert!(
                        e.contains(") must be at most room_max_")
                            || e.contains(") must fit inside the map's border"),
                        "{case}: {e}"
                    );
                }
                Err(e) => assert!(
                    e.contains("@ and > need at least 2")
                        || e.starts_with("cannot place")
                        || (algorithm.name == "example"
                            && (e.contains("from this sample is too large")
                                || e.starts_with("no level from this sample"))),
                    "{case}: {e}"
                ),
            }
        }
        assert!(
            2 * made >= 300 - sized_out,
            "{}: only {made} of {} cases made a map",
            algorithm.name,
            300 - sized_out
        );
    }
}

/// What every generator promises, whatever its layout: its border whole,
/// one `@` and one `>`, the items, and every cell that does not block
/// walking (`#`, or the level's `blocked`) reachable from `@`.
fn check_shared(level: &Level, w: usize, h: usize, items: usize, case: &str) {
    let g = &level.grid;
    let terrain = map::generators::find(level.algorithm.as_bytes())
        .expect("a generator of the registry")
        .terrain;
    assert_eq!((g.width(), g.height()), (w, h), "{case}: dimensions");
    for i in 0..g.cells().len() {
        let p = g.pos(i);
        if p.x == 1 || p.y == 1 || p.x == w || p.y == h {
            assert_eq!(
                g.cells()[i],
                terrain.border,
                "{case}: border broken at {p:?}"
            );
        }
    }
    let blocked = terrain.blocked.as_bytes();
    assert_eq!(level.blocked(), Some(terrain.blocked).filter(|&b| b != "#"));
    let count = |c: u8| g.cells().iter().filter(|&&v| v == c).count();
    assert_eq!(
        (count(PLAYER), count(STAIRS)),
        (1, 1),
        "{case}: @ and > counts"
    );
    assert_eq!(g.get(level.player), PLAYER, "{case}: @ position");
    assert_eq!(g.get(level.stairs), STAIRS, "{case}: > position");
    assert_eq!(level.items.len(), items, "{case}: item count");
    assert_eq!(count(GOLD) + count(POTION), items, "{case}: items stacked");
    assert_eq!(count(DOOR), level.doors.len(), "{case}: doors listed");
    let dist = oracle::walk_distances_by(g, level.player, blocked);
    for (i, &c) in g.cells().iter().enumerate() {
        assert!(
            blocked.contains(&c) || dist[i].is_some(),
            "{case}: {:?} unreachable",
            g.pos(i)
        );
    }
    assert_eq!(
        reach::check_blocked(g, &byte_set(blocked)),
        Ok(()),
        "{case}: reach"
    );
}

// ---------------------------------------------------------------------------
// Levels a designer directs (`vaults`, `arrive`, `place`, `loops`), on every
// generator of the registry: every walkable cell reachable from `@`; each
// vault's cells its turned template's but for the spaces; the vaults inside
// the border and a cell apart; `@` on `arrive` or a vault's `@`, `>` on a
// vault's `>` or the farthest floor; placed cells where their filters say;
// no two doors touching; exits the walkable ring cells, links symmetric;
// the same level twice; and refusals only of the kinds the contract names.

use map::generators::Generator;
use map::grid::{byte_set, Grid};
use map::level::place::Placement;
use map::level::vaults::Template;
use map::toolkit::fov;

/// Templates for the cases: doors on four sides, a ring all entrances, spaces,
/// a `>`, an `@`, a thin one, interior walls. No `$` or `!`: the items count.
const TEMPLATES: [&[&str]; 7] = [
    &[
        "#####+#####",
        "#.........#",
        "+....M....+",
        "#.........#",
        "#####+#####",
    ],
    &["~~~", "~_~", "~~~"],
    &["# #.#", " ... ", "#.k.#", " ... ", "# #.#"],
    &["##.##", "#...#", "..>..", "#...#", "##.##"],
    &["  @  ", " ... ", "....."],
    &["#.#"],
    &[
        "############",
        "#....#.....#",
        "#.##.#.###.#",
        "+.#..+...#..",
        "#.#.##.#.#.#",
        "#...#..#...#",
        "############",
    ],
];
const WITH_STAIRS: usize = 3;
const WITH_PLAYER: usize = 4;

/// A checked template `t` of `TEMPLATES`.
fn template(t: usize, count: i64, rotate: bool, required: bool) -> Template {
    let rows: Vec<&[u8]> = TEMPLATES[t].iter().map(|r| r.as_bytes()).collect();
    Template::new(
        t + 1,
        &rows,
        Arg::Int(count),
        Arg::Bool(rotate),
        Arg::Bool(required),
    )
    .expect("a valid template")
}

/// A request for `algorithm` with vaults (some with `@` or `>`), maybe
/// `arrive`, `place`, doors and loops; sizes from a little above the
/// smallest to 90x50.
fn directed_case(gen: &mut Gen, algorithm: &'static Generator) -> Params<'static> {
    let (w, h) = if gen.chance(20) {
        (
            gen.size(algorithm.min_width.max(9), 20),
            gen.size(algorithm.min_height.max(7), 14),
        )
    } else {
        (
            gen.size(algorithm.min_width.max(14), 90),
            gen.size(algorithm.min_height.max(9), 50),
        )
    };
    let mut params = Params {
        algorithm: Arg::Str(algorithm.name.as_bytes()),
        ..Params::new(Arg::Int(w as i64), Arg::Int(h as i64), gen.seed())
    };
    let arrive = gen.chance(50);
    if arrive {
        params.design.arrive = Some((gen.range(2, w as i64 - 1), gen.range(2, h as i64 - 1)));
    }
    let (mut stairs, mut player) = (false, false);
    for _ in 0..gen.range(0, 3) {
        let t = gen.size(0, TEMPLATES.len() - 1);
        let single = t == WITH_STAIRS || t == WITH_PLAYER;
        if (t == WITH_STAIRS && stairs) || (t == WITH_PLAYER && (player || arrive)) {
            continue;
        }
        stairs |= t == WITH_STAIRS;
        player |= t == WITH_PLAYER;
        let count = if single { 1 } else { gen.range(1, 4) };
        let required = gen.chance(if w * h >= 2500 { 30 } else { 5 });
        params
            .design
            .vaults
            .push(template(t, count, gen.chance(60), required));
    }
    for _ in 0..gen.range(0, 2) {
        let entry = Placement {
            char: gen.pick(b"Mg&k"),
            count: if gen.chance(5) { 300 } else { gen.size(0, 6) },
            min: gen.pick(&[0, 0, 3, 10, 60]),
            // Only of a generator that declares it hides (`place ...
            // hidden` on one that does not is refused: tests_by_generator).
            hidden: algorithm.hides && gen.chance(40),
            per_room: None,
            choose: Vec::new(),
        };
        params.design.place.push(entry);
    }
    for spec in algorithm.options {
        match spec.name {
            "doors" => params.set(b"doors", Arg::Bool(gen.chance(50))),
            "loops" => params.set(b"loops", Arg::Int(gen.range(0, 5))),
            _ => {}
        }
    }
    params.set(b"items", Arg::Int(gen.range(0, 4)));
    params
}

/// The generators whose levels are carved from rock, which take `vaults`
/// and `arrive` (the others refuse them: `levels_off_rock_refuse_vaults_and_arrive`).
fn carved_from_rock() -> impl Iterator<Item = &'static Generator> {
    map::generators::LIST
        .iter()
        .copied()
        .filter(|g| g.carves_rock())
}

/// Levels not carved from rock (the overworld) refuse `vaults` and
/// `arrive`, whose tunnels dig through rock, naming them; `place` they
/// take, its walks through all but their `blocked`: the placed cells are
/// plains reachable from `@` at least `min` steps away.
#[test]
fn levels_off_rock_refuse_vaults_and_arrive_and_take_place() {
    let mut gen = Gen(0x5eed_000a);
    let open: Vec<&Generator> = map::generators::LIST
        .iter()
        .copied()
        .filter(|g| !g.carves_rock())
        .collect();
    assert!(!open.is_empty());
    for algorithm in open {
        for n in 0..40 {
            let mut params = Params {
                algorithm: Arg::Str(algorithm.name.as_bytes()),
                ..Params::new(
                    Arg::Int(gen.range(30, 90)),
                    Arg::Int(gen.range(20, 50)),
                    gen.seed(),
                )
            };
            params.design.place = vec![Placement {
                char: b'M',
                count: gen.size(1, 6),
                min: gen.pick(&[0, 5, 20]),
                hidden: false,
                per_room: None,
                choose: Vec::new(),
            }];
            let case = format!("{} case {n}: {params:?}", algorithm.name);
            match generate(&params) {
                Ok(level) => {
                    let items = int(params.option("items"), DEFAULT_ITEMS);
                    check_shared(
                        &level,
                        level.grid.width(),
                        level.grid.height(),
                        items,
                        &case,
                    );
                    let blocked = algorithm.terrain.blocked.as_bytes();
                    let dist = oracle::walk_distances_by(&level.grid, level.player, blocked);
                    assert_eq!(level.placed.len(), params.design.place[0].count, "{case}");
                    for p in &level.placed {
                        let d = dist[level.grid.index(p.pos)].expect("placed on a reachable cell");
                        assert!(
                            d as usize >= params.design.place[0].min,
                            "{case}: {p:?} at {d}"
                        );
                    }
                }
                Err(e) => check_directed_refusal(&e, &params, &case),
            }
            let mut arriving = params.clone();
            arriving.design.arrive = Some((3, 3));
            let refused = generate(&arriving).unwrap_err();
            assert!(
                refused.starts_with("arrive applies only to levels carved from rock"),
                "{refused}"
            );
            let mut vaulted = params.clone();
            vaulted.design.vaults = vec![template(0, 1, false, false)];
            let refused = generate(&vaulted).unwrap_err();
            assert!(
                refused.starts_with("vaults applies only to levels carved from rock"),
                "{refused}"
            );
        }
    }
}

fn check_directed(level: &Level, params: &Params, case: &str) {
    let g = &level.grid;
    let items = int(params.option("items"), DEFAULT_ITEMS);
    check_shared(level, g.width(), g.height(), items, case);
    let dist = oracle::walk_distances(g, level.player);
    oracle::check_vaults(level, params, case);
    match params.design.arrival() {
        Some(p) => {
            assert_eq!((level.player, level.up), (p, Some(p)), "{case}: arrive");
        }
        None => assert_eq!(level.up, None, "{case}: up without arrive"),
    }
    for v in &level.vaults {
        let t = &params.design.vaults[v.index];
        let holds = |c: u8| t.cells.contains(&c);
        let inside = |p: Pos| v.rect.cells().any(|q| q == p);
        assert!(
            !holds(PLAYER) || inside(level.player),
            "{case}: @ not the vault's"
        );
        assert!(
            !holds(STAIRS) || inside(level.stairs),
            "{case}: > not the vault's"
        );
    }
    for item in &level.items {
        assert!(
            !oracle::in_vault(level, item.pos),
            "{case}: an item in a vault"
        );
    }
    oracle::check_stairs(level, params, &dist, case);
    oracle::check_placed(level, params, &dist, case);
    oracle::check_doors_and_exits(level, case);
}

/// A refusal of a valid request must be one the contract names, and a
/// "too few candidates" must count them right.
fn check_directed_refusal(e: &str, params: &Params, case: &str) {
    if e.contains(" does not fit in ") {
        assert!(
            params.design.vaults.iter().any(|t| t.required),
            "{case}: {e}, but no vault is required"
        );
        return;
    }
    if e.starts_with("cannot place ") {
        return;
    }
    let Some(rest) = e.strip_prefix("place[") else {
        panic!("{case}: refused: {e}");
    };
    let n: usize = rest.split(']').next().unwrap().parse().unwrap();
    let found: usize = e
        .split(": only ")
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("{case}: malformed {e}"));
    // The same level without the entry that failed and those after it.
    let mut before = params.clone();
    before.design.place.truncate(n - 1);
    let level = generate(&before).unwrap_or_else(|e2| panic!("{case}: {e}, then {e2}"));
    let g = &level.grid;
    let entry = params.design.place[n - 1].clone();
    let blocked = level.blocked().unwrap_or("#").as_bytes();
    let dist = oracle::walk_distances_by(g, level.player, blocked);
    let seen = fov::visible(g, level.player, None, &byte_set(b"#+"));
    let candidates = (0..g.cells().len())
        .filter(|&i| g.cells()[i] == FLOOR && !oracle::in_vault(&level, g.pos(i)))
        .filter(|&i| dist[i].is_some_and(|d| d as usize >= entry.min))
        .filter(|&i| !(entry.hidden && seen[i]))
        .count();
    assert_eq!(candidates, found, "{case}: {e}");
    assert!(found < entry.count, "{case}: {e}");
}

#[test]
fn directed_levels_keep_their_promises_on_every_generator() {
    let mut gen = Gen(0x5eed_0007);
    for algorithm in carved_from_rock() {
        let (mut made, mut vaults) = (0, 0);
        for n in 0..150 {
            let params = directed_case(&mut gen, algorithm);
            let case = format!("{} directed case {n}: {params:?}", algorithm.name);
            match generate(&params) {
                Ok(level) => {
                    made += 1;
                    vaults += level.vaults.len();
                    check_directed(&level, &params, &case);
                    assert_eq!(
                        generate(&params).as_ref(),
                        Ok(&level),
                        "{case}: not repeatable"
                    );
                }
                Err(e) => check_directed_refusal(&e, &params, &case),
            }
        }
        assert!(made >= 100, "{}: only {made} of 150 made", algorithm.name);
        assert!(
            vaults >= 100,
            "{}: only {vaults} vaults placed",
            algorithm.name
        );
    }
}

/// Round vaults: spaces outside the shape (the corners), which no entrance
/// reaches. On every generator they are placed and the level keeps every
/// promise of a directed level (everything reachable from `@`, each
/// vault's cells its template's but for the spaces).
const ROUND: [&[&str]; 2] = [
    &[
        "  #.#  ", " ##.## ", "##...##", "#.....#", "##...##", " ##.## ", "  ###  ",
    ],
    &[" ### ", "#...#", "+.M.+", "#...#", " ### "],
];

#[test]
fn round_vaults_with_spaces_outside_their_shape_on_every_generator() {
    let mut gen = Gen(0x5eed_0009);
    for algorithm in carved_from_rock() {
        let mut vaults = 0;
        for n in 0..60 {
            let (w, h) = (gen.size(30, 90), gen.size(20, 50));
            let mut params = Params {
                algorithm: Arg::Str(algorithm.name.as_bytes()),
                ..Params::new(Arg::Int(w as i64), Arg::Int(h as i64), gen.seed())
            };
            for (t, rows) in ROUND.iter().enumerate() {
                let rows: Vec<&[u8]> = rows.iter().map(|r| r.as_bytes()).collect();
                let count = Arg::Int(gen.range(1, 3));
                let rotate = Arg::Bool(gen.chance(50));
                let template = Template::new(t + 1, &rows, count, rotate, Arg::Bool(true))
                    .expect("a round vault is a valid template");
                params.design.vaults.push(template);
            }
            let case = format!("{} round case {n}: {params:?}", algorithm.name);
            let level = generate(&params).unwrap_or_else(|e| panic!("{case}: {e}"));
            vaults += level.vaults.len();
            check_directed(&level, &params, &case);
        }
        assert!(
            vaults >= 120,
            "{}: only {vaults} round vaults",
            algorithm.name
        );
    }
}

/// `arrive` alone changes only the rock of one shortest tunnel from it to
/// the nearest walkable cell: every other cell of the carved level stays.
#[test]
fn arrive_carves_one_shortest_tunnel_and_nothing_else() {
    let mut gen = Gen(0x5eed_0008);
    for algorithm in carved_from_rock() {
        for n in 0..60 {
            let (w, h) = (
                gen.size(algorithm.min_width.max(8), 70),
                gen.size(algorithm.min_height.max(6), 40),
            );
            let plain = Params {
                algorithm: Arg::Str(algorithm.name.as_bytes()),
                ..Params::new(Arg::Int(w as i64), Arg::Int(h as i64), gen.seed())
            }
            .with(b"items", Arg::Int(0));
            let (x, y) = (gen.size(2, w - 1), gen.size(2, h - 1));
            let mut arriving = plain.clone();
            arriving.design.arrive = Some((x as i64, y as i64));
            let case = format!("{} case {n}: arrive ({x},{y}) {plain:?}", algorithm.name);
            let (before, after) = (generate(&plain).unwrap(), generate(&arriving).unwrap());
            let open = |g: &Grid, i: usize| g.cells()[i] != WALL;
            let carved: Vec<usize> = (0..w * h)
                .filter(|&i| open(&after.grid, i) != open(&before.grid, i))
                .collect();
            assert!(
                carved.iter().all(|&i| open(&after.grid, i)),
                "{case}: walled"
            );
            // The tunnel's length: the walk through rock from the cell to
            // the nearest open cell of the level without it.
            let mut rock = before.grid.clone();
            let start = rock.index(Pos { x, y });
            let to_open = oracle_rock_distance(&mut rock, start);
            assert_eq!(carved.len(), to_open, "{case}: not one shortest tunnel");
            assert_eq!(after.player, Pos { x, y }, "{case}");
            assert_eq!(after.grid.get(after.player), PLAYER, "{case}");
        }
    }
}

/// Steps from `start` through interior rock to the nearest open cell (0
/// when `start` is open): the cells a shortest tunnel carves.
fn oracle_rock_distance(g: &mut Grid, start: usize) -> usize {
    if g.cells()[start] != WALL {
        return 0;
    }
    let (w, h) = (g.width(), g.height());
    let mut dist = vec![usize::MAX; w * h];
    dist[start] = 1;
    let mut queue = std::collections::VecDeque::from([start]);
    while let Some(i) = queue.pop_front() {
        let p = g.pos(i);
        for q in oracle::around(g, p, false) {
            let j = g.index(q);
            if g.cells()[j] != WALL {
                return dist[i];
            }
            let inside = q.x > 1 && q.y > 1 && q.x < w && q.y < h;
            if inside && dist[j] == usize::MAX {
                dist[j] = dist[i] + 1;
                queue.push_back(j);
            }
        }
    }
    panic!("no open cell")
}

#[test]
fn the_doors_of_the_crowded_bsp_map_do_not_touch() {
    let params = Params {
        algorithm: Arg::Str(b"bsp"),
        ..Params::new(Arg::Int(80), Arg::Int(50), Arg::Int(12345))
    }
    .with(b"doors", Arg::Bool(true));
    let level = generate(&params).unwrap();
    oracle::check_doors_and_exits(&level, "bsp 80x50 seed 12345");
    assert!(level.doors.len() >= 30, "{} doors", level.doors.len());
}

#[test]
fn loops_link_rooms_that_were_not_linked() {
    let mut more = 0;
    for algorithm in [&b"rooms"[..], b"bsp"] {
        for seed in 0..40 {
            let base = Params {
                algorithm: Arg::Str(algorithm),
                ..Params::new(Arg::Int(80), Arg::Int(40), Arg::Int(seed))
            };
            let links = |p: &Params| -> usize {
                generate(p).unwrap().exits.links.iter().map(Vec::len).sum()
            };
            let (without, with) = (
                links(&base),
                links(&base.clone().with(b"loops", Arg::Int(3))),
            );
            assert!(with >= without, "seed {seed}: loops lost links");
            more += usize::from(with > without);
            let zero = base.clone().with(b"loops", Arg::Int(0));
            assert_eq!(generate(&zero).unwrap().grid, generate(&base).unwrap().grid);
        }
    }
    assert!(more >= 60, "loops added links on only {more} of 80 maps");
}

#[test]
fn a_vault_that_does_not_fit_is_named() {
    let mut params = Params::new(Arg::Int(30), Arg::Int(12), Arg::Int(1));
    params.design.vaults = vec![template(1, 1, false, true), template(6, 1, true, true)];
    // Template 7 is 12x7, or 7x12 turned: too tall for a 30x12 map turned,
    // and upright there may be no room beside vault 1. Some seed says so.
    let named = (0..50).any(|seed| {
        params.seed = Arg::Int(seed);
        generate(&params).err().as_deref() == Some("vault 2 does not fit in 30x12")
    });
    assert!(named, "no seed refused vault 2");
    let mut big = Params::new(Arg::Int(30), Arg::Int(12), Arg::Int(1));
    let rows = vec![&b"........................."[..]; 9];
    big.design.vaults =
        vec![Template::new(1, &rows, Arg::Missing, Arg::Missing, Arg::Missing).unwrap()];
    assert_eq!(generate(&big).unwrap_err(), "vault 1 does not fit in 30x12");
    big.design.vaults[0].required = false;
    assert!(generate(&big).unwrap().vaults.is_empty());
}
