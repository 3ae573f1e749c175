//! Property tests of what a game does every turn (`step`, `flee`,
//! `explore`, `sample`, `line`, `visible`, `parse`) and of the searches'
//! limits (closed cells, `max`, start values), on generated levels and
//! random noise grids, each against a plain statement of its rule:
//!
//! - `distances_from` with closed cells and `max` equals `distances` on the
//!   map with the closed cells turned into walls, cut at `max`; with start
//!   values, the least over per-source searches of value plus distance;
//! - `path_within` equals `path` on that reduced map (or fails past `max`);
//! - walking `step` from every reached cell follows legal steps down a
//!   shortest path to a source;
//! - `flee` is the least fixed point of its rescan rule over its scaled
//!   values;
//! - `explore` goes to the nearest frontier cell (first in row order), by
//!   `path` on the reduced map;
//! - `sample` draws distinct cells that pass every filter, and counts the
//!   candidates as a plain filter does;
//! - `line` is symmetric, 8-connected and rounds as documented;
//! - `visible` equals `fov` for every pair of cells of a few hundred maps;
//! - `parse(render(m))` is `m`, with its `@` and `>`.
//!
//! Cases come from `map::rng::Rng` with fixed seeds, so every run checks the
//! same ones and a failure names the one that broke.

use map::generators::LIST;
use map::grid::{byte_set, Grid, Pos, WALL};
use map::input::Arg;
use map::level::{generate, Params};
use map::rng::Rng;
use map::toolkit::board::{Limits, Source, Walk, BEYOND, UNREACHED};
use map::toolkit::distances::{distances, distances_from};
use map::toolkit::explore::explore;
use map::toolkit::flee::{flee, scaled};
use map::toolkit::fov;
use map::toolkit::line::line;
use map::toolkit::parse;
use map::toolkit::path::{path, path_within};
use map::toolkit::sample::{sample, Filter, Near};
use map::toolkit::step::step;
use map::toolkit::visible::{along, visible};

#[path = "support/cases.rs"]
mod cases;
#[path = "support/oracle.rs"]
mod oracle;

use cases::{level, noise};
use oracle::{around, cost_of, legal};

// ---------------------------------------------------------------------------
// Cases.

/// Generated levels of every algorithm, and noise.
fn cases() -> Vec<(String, Grid)> {
    let mut out = Vec::new();
    for seed in 0..4 {
        for g in LIST {
            let (w, h) = (g.min_width.max(30) as i64, g.min_height.max(14) as i64);
            out.push((
                format!("{} {w}x{h} seed {seed}", g.name),
                level(g.name, w, h, seed),
            ));
        }
    }
    out.extend(noise(&mut Rng::new(17), 120, 20));
    out
}

fn random_cell(rng: &mut Rng, g: &Grid) -> Pos {
    g.pos(rng.below(g.cells().len()))
}

/// A walk rule over the characters the cases use: `#` always blocked.
fn random_walk(rng: &mut Rng) -> Walk {
    let mut blocked = byte_set(b"#");
    for c in [b'~', b'+'] {
        blocked[c as usize] = rng.below(5) == 0;
    }
    let cost = (rng.below(3) == 0).then(|| {
        let mut cost = Box::new([1; 256]);
        for c in [b'.', b'~', b'+', b'@', b'>', b'$', b'!'] {
            cost[c as usize] = rng.range(1, 9) as u64;
        }
        cost
    });
    Walk {
        blocked,
        diagonal: rng.coin(),
        cost,
    }
}

/// Closed cells (a few, or none) and sometimes a `max`.
fn random_limits(rng: &mut Rng, g: &Grid) -> Limits {
    let density = [0, 0, 5, 20][rng.below(4)];
    let closed = if density == 0 {
        Vec::new()
    } else {
        (0..g.cells().len())
            .map(|_| rng.below(100) < density)
            .collect()
    };
    let max = (rng.below(3) == 0).then(|| rng.range(0, 12) as i64);
    Limits { closed, max }
}

/// The grid with the closed cells turned into walls.
fn reduced(g: &Grid, closed: &[bool]) -> Grid {
    let cells = g
        .cells()
        .iter()
        .enumerate()
        .map(|(i, &c)| {
            if closed.get(i) == Some(&true) {
                WALL
            } else {
                c
            }
        })
        .collect();
    Grid::from_cells(g.width(), g.height(), cells)
}

/// `distances` as `distances_from` reports it: signed, `BEYOND` past `max`.
fn cut(d: &[u64], offset: i64, max: i64) -> Vec<i64> {
    d.iter()
        .map(|&v| match v {
            UNREACHED => BEYOND,
            v if v as i64 + offset > max => BEYOND,
            v => v as i64 + offset,
        })
        .collect()
}

fn open(g: &Grid, walk: &Walk, limits: &Limits, p: Pos) -> bool {
    !walk.blocked[g.get(p) as usize] && limits.closed.get(g.index(p)) != Some(&true)
}

// ---------------------------------------------------------------------------
// Limits and start values.

#[test]
fn closed_cells_and_max_equal_distances_on_the_reduced_map() {
    let mut rng = Rng::new(1);
    for (case, g) in cases() {
        for _ in 0..4 {
            let walk = random_walk(&mut rng);
            let limits = random_limits(&mut rng, &g);
            let sources: Vec<Pos> = (0..rng.range(1, 3))
                .map(|_| random_cell(&mut rng, &g))
                .collect();
            let valued: Vec<Source> = sources.iter().map(|&p| p.into()).collect();
            let small = reduced(&g, &limits.closed);
            let want = cut(&distances(&small, &sources, &walk), 0, limits.max_value());
            let got = distances_from(&g, &valued, &walk, &limits);
            assert_eq!(got, want, "{case}, {sources:?}, {walk:?}, {limits:?}");
            let (from, to) = (random_cell(&mut rng, &g), random_cell(&mut rng, &g));
            let plain = path(&small, from, to, &walk);
            let within = path_within(&g, from, to, &walk, &limits);
            match (&plain, limits.max) {
                (Ok(cells), Some(max))
                    if cells
                        .iter()
                        .skip(1)
                        .map(|&p| cost_of(&g, &walk, p))
                        .sum::<u64>()
                        > max as u64 =>
                {
                    assert!(within.is_err(), "{case}: {from:?} -> {to:?} past max {max}");
                }
                _ => assert_eq!(within, plain, "{case}: {from:?} -> {to:?}, {limits:?}"),
            }
        }
    }
}

#[test]
fn start_values_give_the_least_over_the_sources() {
    let mut rng = Rng::new(2);
    for (case, g) in cases() {
        for _ in 0..3 {
            let walk = random_walk(&mut rng);
            let limits = random_limits(&mut rng, &g);
            let small = reduced(&g, &limits.closed);
            let sources: Vec<Source> = (0..rng.range(1, 4))
                .map(|_| Source {
                    pos: random_cell(&mut rng, &g),
                    value: rng.range(0, 30) as i64 - 15,
                })
                .collect();
            let max = limits.max_value();
            let mut want = vec![BEYOND; g.cells().len()];
            for s in &sources {
                if s.value > max {
                    continue;
                }
                let one = cut(&distances(&small, &[s.pos], &walk), s.value, max);
                for (w, v) in want.iter_mut().zip(one) {
                    *w = (*w).min(v);
                }
            }
            let got = distances_from(&g, &sources, &walk, &limits);
            assert_eq!(got, want, "{case}, {sources:?}, {walk:?}, {limits:?}");
        }
    }
}

// ---------------------------------------------------------------------------
// step and flee.

#[test]
fn step_walks_down_a_shortest_path_to_a_source_from_every_reached_cell() {
    let mut rng = Rng::new(3);
    for (case, g) in cases() {
        let walk = random_walk(&mut rng);
        let limits = random_limits(&mut rng, &g);
        let sources: Vec<Source> = (0..rng.range(1, 3))
            .map(|_| Source {
                pos: random_cell(&mut rng, &g),
                value: rng.range(0, 6) as i64,
            })
            .filter(|s| open(&g, &walk, &limits, s.pos))
            .collect();
        let d = distances_from(&g, &sources, &walk, &limits);
        let small = reduced(&g, &limits.closed);
        // A source whose own value is its cell's: where a shortest walk
        // from a farther cell may end (walking on, down to a lower source,
        // is still downhill).
        let is_source = |p: Pos| {
            sources
                .iter()
                .any(|s| s.pos == p && s.value == d[g.index(p)])
        };
        for start in (0..d.len()).filter(|&i| d[i] != BEYOND).map(|i| g.pos(i)) {
            let (mut at, mut walked, mut first) = (start, 0, None);
            loop {
                if first.is_none() && is_source(at) {
                    first = Some((at, walked));
                }
                let Some(next) = step(&g, &d, at, &walk, &limits.closed) else {
                    break;
                };
                assert!(
                    legal(&small, &walk, at, next, None),
                    "{case}: {at:?} -> {next:?}"
                );
                assert!(d[g.index(next)] < d[g.index(at)]);
                walked += cost_of(&g, &walk, at) as i64;
                at = next;
            }
            assert!(is_source(at), "{case}: from {start:?}, stopped at {at:?}");
            let (source, cost) = first.expect("a source on the way");
            assert_eq!(
                cost,
                d[g.index(start)] - d[g.index(source)],
                "{case}: from {start:?}"
            );
        }
    }
}

#[test]
fn flee_is_the_least_fixed_point_of_its_rescan() {
    let mut rng = Rng::new(4);
    for (case, g) in cases() {
        let walk = random_walk(&mut rng);
        let limits = random_limits(&mut rng, &g);
        let sources: Vec<Source> = (0..rng.range(1, 3))
            .map(|_| random_cell(&mut rng, &g).into())
            .collect();
        let factor = [-1.2, -0.1, -10.0, -1.0, -2.5][rng.below(5)];
        let d = distances_from(&g, &sources, &walk, &limits);
        let f = flee(&g, &sources, &walk, &limits, factor).expect("small values");
        let small = reduced(&g, &limits.closed);
        for i in 0..d.len() {
            let c = g.pos(i);
            if d[i] == BEYOND {
                assert_eq!(f[i], BEYOND, "{case}: {c:?} unreached");
                continue;
            }
            let own = scaled(d[i], factor) as i64;
            assert!(f[i] <= own, "{case}: {c:?} above its scaled value");
            // The least value a legal step into c from a reached cell gives.
            let stepped = around(&g, c, walk.diagonal)
                .into_iter()
                .filter(|&n| f[g.index(n)] != BEYOND && legal(&small, &walk, n, c, None))
                .map(|n| f[g.index(n)] + cost_of(&g, &walk, c) as i64)
                .min();
            if open(&g, &walk, &limits, c) {
                assert!(stepped.is_none_or(|v| f[i] <= v), "{case}: {c:?}");
            }
            assert!(
                f[i] == own || stepped == Some(f[i]),
                "{case}: {c:?} is {}, not its own {own} nor a step's {stepped:?}",
                f[i]
            );
        }
    }
}

// ---------------------------------------------------------------------------
// explore and sample.

#[test]
fn explore_goes_to_the_nearest_frontier_cell() {
    let mut rng = Rng::new(5);
    for (case, g) in cases() {
        for _ in 0..3 {
            let mut walk = random_walk(&mut rng);
            walk.cost = None;
            let seen_from = random_cell(&mut rng, &g);
            let radius = rng.range(0, 10);
            let known = fov::visible(&g, seen_from, Some(radius), &byte_set(b"#"));
            let avoided: Vec<bool> = (0..known.len()).map(|_| rng.below(30) == 0).collect();
            let start = seen_from;
            let closed: Vec<bool> = (0..known.len()).map(|i| !known[i] || avoided[i]).collect();
            let small = reduced(&g, &closed);
            let d = distances(&small, &[start], &walk);
            let n = if walk.diagonal { 8 } else { 4 };
            let frontier = |i: usize| {
                let p = g.pos(i);
                known[i]
                    && !avoided[i]
                    && !walk.blocked[g.get(p) as usize]
                    && around(&g, p, true)
                        .into_iter()
                        .filter(|q| n == 8 || q.x == p.x || q.y == p.y)
                        .any(|q| !known[g.index(q)])
            };
            let want = (0..d.len())
                .filter(|&i| d[i] != UNREACHED && frontier(i))
                .min_by_key(|&i| (d[i], i));
            let got = explore(&g, &known, start, &walk, &avoided);
            match want {
                None => assert_eq!(got, None, "{case}: from {start:?}"),
                Some(t) => {
                    let p = got.unwrap_or_else(|| panic!("{case}: no path to {:?}", g.pos(t)));
                    assert_eq!(p.last(), Some(&g.pos(t)), "{case}: from {start:?}");
                    assert_eq!(Ok(p), path(&small, start, g.pos(t), &walk), "{case}");
                }
            }
        }
    }
}

#[test]
fn sample_draws_distinct_cells_that_pass_every_filter() {
    let mut rng = Rng::new(6);
    for (case, g) in cases() {
        for _ in 0..3 {
            let from = random_cell(&mut rng, &g);
            let walk = Walk {
                diagonal: rng.coin(),
                ..Walk::new()
            };
            let (min, max) = (
                rng.range(0, 6) as i64,
                (rng.coin()).then(|| rng.range(3, 20) as i64),
            );
            let near = rng.coin().then(|| Near {
                pos: from,
                walk: walk.clone(),
                min,
                max,
            });
            let hidden = (near.is_some() && rng.coin()).then(|| byte_set(b"#+"));
            let filter = Filter {
                chars: byte_set(if rng.coin() { b"." } else { b".~" }),
                from: near,
                hidden,
                excluded: Vec::new(),
            };
            let d = distances(&g, &[from], &walk);
            let seen = fov::visible(&g, from, None, &byte_set(b"#+"));
            let passes = |i: usize| {
                filter.chars[g.cells()[i] as usize]
                    && filter.from.as_ref().is_none_or(|n| {
                        d[i] != UNREACHED
                            && d[i] as i64 >= n.min
                            && n.max.is_none_or(|m| d[i] as i64 <= m)
                    })
                    && (filter.hidden.is_none() || !seen[i])
            };
            let candidates = (0..d.len()).filter(|&i| passes(i)).count();
            let count = rng.range(0, candidates + 1);
            let seed = rng.below(1000) as i64;
            let cells = sample(&g, count, seed, &filter);
            if count > candidates {
                let err = cells.unwrap_err();
                assert_eq!(err.candidates, candidates, "{case}");
                continue;
            }
            let cells = cells.unwrap();
            assert_eq!(cells.len(), count, "{case}");
            let mut indices: Vec<usize> = cells.iter().map(|&p| g.index(p)).collect();
            assert!(indices.iter().all(|&i| passes(i)), "{case}: {cells:?}");
            indices.sort_unstable();
            indices.dedup();
            assert_eq!(indices.len(), count, "{case}: not distinct");
            assert_eq!(
                sample(&g, count, seed, &filter),
                Ok(cells),
                "{case}: not the same again"
            );
        }
    }
}

// ---------------------------------------------------------------------------
// line, visible, parse.

#[test]
fn lines_are_symmetric_connected_and_nearest() {
    let mut rng = Rng::new(7);
    for _ in 0..20_000 {
        let base = match rng.below(3) {
            0 => 0,
            1 => (1 << 53) - 40,
            _ => -(1 << 53),
        };
        let reach = [3, 40, 1000][rng.below(3)];
        let mut coordinate = || base + rng.range(0, reach) as i64;
        let (a, b) = ((coordinate(), coordinate()), (coordinate(), coordinate()));
        let cells = line(a, b);
        let n = (a.0 - b.0).abs().max((a.1 - b.1).abs());
        assert_eq!(cells.len() as i64, n + 1, "{a:?} {b:?}");
        assert_eq!((cells[0], cells[n as usize]), (a, b));
        for pair in cells.windows(2) {
            let (dx, dy) = ((pair[1].0 - pair[0].0).abs(), (pair[1].1 - pair[0].1).abs());
            assert!(dx.max(dy) == 1, "{a:?} {b:?}: {pair:?}");
        }
        let mut back = line(b, a);
        back.reverse();
        assert_eq!(cells, back, "{a:?} {b:?}");
        // Within 1/2 of the exact line, the lower cell at a half: with
        // `m` the minor coordinate at step i, 2n(m - a) - 2 i d is in [-n, n).
        let x_major = (b.0 - a.0).abs() >= (b.1 - a.1).abs();
        for (i, &c) in cells.iter().enumerate().filter(|_| n > 0) {
            let (m, a_m, d) = if x_major {
                (c.1, a.1, b.1 - a.1)
            } else {
                (c.0, a.0, b.0 - a.0)
            };
            let off = 2 * n as i128 * (m - a_m) as i128 - 2 * i as i128 * d as i128;
            assert!(
                -(n as i128) <= off && off < n as i128,
                "{a:?} {b:?} step {i}: {c:?}"
            );
        }
    }
}

#[test]
fn visible_equals_fov_for_every_pair_of_cells() {
    let mut rng = Rng::new(8);
    let mut maps = noise(&mut rng, 240, 14);
    for seed in 0..10 {
        maps.push((format!("cave seed {seed}"), level("cave", 16, 12, seed)));
        maps.push((format!("rooms seed {seed}"), level("rooms", 20, 10, seed)));
        maps.push((format!("bsp seed {seed}"), level("bsp", 14, 12, seed)));
    }
    let mut pairs = 0;
    for (case, g) in maps {
        let opaque = [byte_set(b"#"), byte_set(b"#+"), byte_set(b"#~")][rng.below(3)];
        let radius = (rng.below(3) == 0).then(|| rng.range(0, 8));
        for i in 0..g.cells().len() {
            let from = g.pos(i);
            let seen = fov::visible(&g, from, radius, &opaque);
            for (j, &s) in seen.iter().enumerate() {
                let to = g.pos(j);
                assert_eq!(
                    visible(&g, from, to, radius, &opaque),
                    s,
                    "{case}: {from:?} -> {to:?}, radius {radius:?}"
                );
                if !opaque[g.get(to) as usize] {
                    let ray = along(from, to, radius, &opaque, |p| Ok::<u8, ()>(g.get(p)));
                    assert_eq!(
                        ray,
                        Ok(s),
                        "{case}: {from:?} -> {to:?} along, radius {radius:?}"
                    );
                }
                pairs += 1;
            }
        }
    }
    assert!(pairs > 1_000_000, "{pairs} pairs");
}

#[test]
fn parse_reads_back_what_render_writes() {
    for g in LIST {
        for seed in 0..5 {
            let (w, h) = (g.min_width.max(40) as i64, g.min_height.max(20) as i64);
            let params = Params::new(Arg::Int(w), Arg::Int(h), Arg::Int(seed))
                .with(b"algorithm", Arg::Str(g.name.as_bytes()));
            let level = generate(&params).unwrap();
            let text = level.grid.render();
            for text in [text.clone(), [text, b"\n".to_vec()].concat()] {
                let size = parse::size(&text).unwrap();
                let parsed = parse::parse(&text, size);
                assert_eq!(parsed.grid, level.grid, "{} seed {seed}", g.name);
                assert_eq!(parsed.player, Some(level.player));
                assert_eq!(parsed.stairs, Some(level.stairs));
            }
        }
    }
}
