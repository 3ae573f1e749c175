//! The memory bound of each call, measured: a counting global allocator
//! records the peak of live heap bytes while one call runs, and the peak must
//! stay within what its bound promises (each a `pub fn bound...` beside
//! the code it bounds, which the binding checks is free before the call
//! starts: see `src/memory.rs`).

#[path = "support/counting.rs"]
mod counting;

use counting::peak_of;
use map::generators::LIST;
use map::grid::{self, Grid, Pos};
use map::input::Arg;
use map::level::json;
use map::level::{self, generate, Params};
use map::native::{self, Bits};
use map::toolkit::{analyze, autotile, board, distances, explore, fov, frame, path, reach};

/// Large, small and narrow maps (the bounds are per cell; debug builds are
/// slow, so not the largest).
const SHAPES: [(i64, i64); 5] = [(400, 400), (80, 50), (7, 32_000), (32_000, 7), (100, 1_600)];

#[test]
fn generation_stays_within_its_bound() {
    let thin = [(3, 40_000), (40_000, 3), (6, 20_000)];
    // example refuses large maps (its own bound, below).
    for algorithm in LIST.iter().filter(|a| a.name != "example") {
        let fits = |&(w, h): &(i64, i64)| {
            w >= algorithm.min_width as i64 && h >= algorithm.min_height as i64
        };
        for (w, h) in SHAPES.into_iter().chain(thin.into_iter().filter(fits)) {
            let params = Params {
                algorithm: Arg::Str(algorithm.name.as_bytes()),
                ..Params::new(Arg::Int(w), Arg::Int(h), Arg::Int(3))
            };
            // Thin cellular caves may have no floor left for items.
            let params = params.with(b"items", Arg::Int(0));
            let (level, peak) = peak_of(|| generate(&params).unwrap());
            let (_, json_peak) = peak_of(|| json::level(&level));
            let cells = (w * h) as usize;
            let bound = level::bound(cells);
            let what = format!("{} {w}x{h}", algorithm.name);
            check_level_peaks(&what, cells, (peak, json_peak), bound);
        }
    }
}

/// `example` within the bound `generate` checks before anything is made
/// (`level::bound_of`: the level's and the generator's, `example::bound`
/// with the solver's `wfc::bound` inside): built-in samples, the spawn
/// fuzz's 78x11 with items and `place`, the repair's (the maze, a sample
/// without a blocking edge), a corridor sample that makes no level, a
/// one-pattern sample at a large size and a sample of many patterns.
#[test]
fn example_stays_within_its_bounds() {
    use map::generators::example::{self, wfc};
    use map::level::place::Placement;
    let ring = "###\n#.#\n###";
    let corridor = "#############\n##..........#\n#############";
    // 16x16 cells of wall or floor drawn by a hash: 442 patterns
    // of 3x3, no blocking edge (the repair's path from the first).
    let many: String = (0..16usize)
        .map(|y| {
            (0..16usize)
                .map(|x| {
                    let v = (x.wrapping_mul(2_654_435_761) ^ y.wrapping_mul(40_503))
                        .wrapping_mul(2_246_822_519);
                    if (v >> 13) % 2 == 0 {
                        '#'
                    } else {
                        '.'
                    }
                })
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("\n");
    let cases: [(i64, i64, &str, i64, &str); 10] = [
        (48, 32, "caves", 3, ""),
        (96, 64, "caves", 3, ""),
        (78, 11, "caves", 3, "place"),
        (40, 24, "overworld", 3, ""),
        // Every attempt fails on these seeds: the blocks (`blocks.rs`).
        (96, 64, "overworld", 3, ""),
        (12, 150, "rooms", 3, ""),
        (48, 32, "maze", 3, ""),
        (20, 15, corridor, 3, ""),
        (300, 200, ring, 3, ""),
        (30, 20, &many, 3, ""),
    ];
    for (w, h, sample, n, design) in cases {
        for seed in 1..=3 {
            let mut params = Params {
                algorithm: Arg::Str(b"example"),
                ..Params::new(Arg::Int(w), Arg::Int(h), Arg::Int(seed))
            }
            .with(b"sample", Arg::Str(sample.as_bytes()))
            .with(b"n", Arg::Int(n))
            .with(b"items", Arg::Int(4));
            if design == "place" {
                let p = Placement::designed(
                    1,
                    [Arg::Str(b"k"), Arg::Int(3), Arg::Missing, Arg::Missing],
                    None,
                    None,
                );
                params.design.place.push(p.unwrap());
            }
            let declared = level::bound_of(&params).unwrap();
            let (made, peak) = peak_of(|| generate(&params));
            let cells = (w * h) as usize;
            assert!(declared >= level::bound(cells) + example::bound(1, 1, cells));
            assert!(example::bound(1, 1, 1) >= wfc::bound(1, 1));
            let what = format!(
                "example {w}x{h} seed {seed} ({})",
                if made.is_ok() { "made" } else { "refused" }
            );
            println!("{what}: {peak} B held, {declared} B declared");
            assert!(peak <= declared, "{what}: {peak} > {declared}");
            if let Ok(level) = made {
                let (_, json_peak) = peak_of(|| json::level(&level));
                assert!(
                    json_peak <= declared,
                    "{what} json: {json_peak} > {declared}"
                );
            }
        }
    }
}

#[test]
fn locked_levels_stay_within_their_bound() {
    use map::level::locks;
    for algorithm in LIST.iter().filter(|a| a.carves_rock()) {
        for (w, h) in SHAPES {
            let params = Params {
                algorithm: Arg::Str(algorithm.name.as_bytes()),
                ..Params::new(Arg::Int(w), Arg::Int(h), Arg::Int(3))
            };
            let params = params
                .with(b"items", Arg::Int(0))
                .with(b"locks", Arg::Int(26));
            let (level, peak) = peak_of(|| generate(&params).unwrap());
            let (_, json_peak) = peak_of(|| json::level(&level));
            let cells = (w * h) as usize;
            let bound = level::bound(cells) + locks::bound((w as usize, h as usize));
            let placed = level.locks.as_ref().map_or(0, Vec::len);
            let what = format!("{} {w}x{h} ({placed} locks)", algorithm.name);
            check_level_peaks(&what, cells, (peak, json_peak), bound);
        }
    }
}

/// Prints a level's peaks (`generate`'s, its JSON's) per cell against its
/// bound, and checks both.
fn check_level_peaks(what: &str, cells: usize, (peak, json_peak): (usize, usize), bound: usize) {
    let per_cell = |bytes: usize| bytes as f64 / cells as f64;
    println!(
        "{what}: generate {:.1} B/cell, json {:.1} B/cell, bound {:.1}",
        per_cell(peak),
        per_cell(json_peak),
        per_cell(bound)
    );
    assert!(peak <= bound, "{what}: {peak} > {bound}");
    assert!(json_peak <= bound, "{what} json: {json_peak} > {bound}");
}

/// The maps the toolkit is measured on: generated caves of every shape,
/// and all-floor corridors one to three cells wide (the padded board
/// holds three cells per cell of a one-wide map, and every cell is
/// walked), each with two far-apart cells.
fn toolkit_maps() -> Vec<(String, Grid, Pos, Pos)> {
    let mut maps = Vec::new();
    for (w, h) in SHAPES {
        let params = Params {
            algorithm: Arg::Str(b"cave"),
            ..Params::new(Arg::Int(w), Arg::Int(h), Arg::Int(5))
        };
        let level = generate(&params).unwrap();
        let name = format!("cave {w}x{h}");
        maps.push((name, level.grid, level.player, level.stairs));
    }
    for (w, h) in [(1, 200_000), (200_000, 1), (3, 60_000), (60_000, 2)] {
        let far = Pos { x: w, y: h };
        let name = format!("floor {w}x{h}");
        maps.push((name, Grid::new(w, h, b'.'), Pos { x: 1, y: 1 }, far));
    }
    maps
}

/// Each toolkit call as the binding makes it, holding what the binding
/// holds at once: the map's copy, the sources as read, the result and,
/// for LuaJIT's route, the result again as bytes.
#[test]
fn the_toolkit_stays_within_its_bound() {
    let opaque = map::grid::byte_set(b"#");
    let unit = board::Walk::new();
    let weighted = board::Walk {
        diagonal: true,
        cost: Some(Box::new([2; 256])),
        ..board::Walk::new()
    };
    for (name, grid, from, to) in toolkit_maps() {
        let size = (grid.width(), grid.height());
        let cells = size.0 * size.1;
        let mut checks: Vec<(String, usize, usize)> = Vec::new();
        let (_, peak) = peak_of(|| reach::check(&grid.clone()));
        checks.push(("reach".into(), peak, reach::bound(size)));
        for walk in [&unit, &board::Walk::diagonal()] {
            let (_, peak) = peak_of(|| analyze::analyze(&grid.clone(), walk, &[], None));
            checks.push(("analyze".into(), peak, analyze::bound(size, 0, 0)));
        }
        let (_, peak) = peak_of(|| {
            let copy = grid.clone();
            let seen = fov::visible(&copy, from, None, &opaque);
            let bytes: Vec<u8> = seen.iter().map(|&v| u8::from(v)).collect();
            (seen, bytes)
        });
        checks.push(("fov".into(), peak, fov::bound(cells)));
        let (_, peak) = peak_of(|| {
            // A table's window copied, the frame, a light byte a cell and
            // the byte form (the rows' form holds less: a digit a cell).
            let copy = grid.clone();
            let scene = frame::Scene {
                terrain: &copy,
                corner: Pos { x: 1, y: 1 },
                size,
                visible: None,
                memory: None,
                things: &[],
                items: &[],
                blank: b' ',
            };
            let camera = frame::Camera {
                x: 1,
                y: 1,
                w: size.0,
                h: size.1,
            };
            let made = frame::frame(&scene, camera);
            let light = vec![0u8; cells];
            let bytes = frame::bytes(&made, Some(&light));
            (made, light, bytes)
        });
        checks.push(("frame".into(), peak, frame::bound(cells)));
        let tile = autotile::Autotile {
            class: map::grid::byte_set(b"#"),
            mode: autotile::Mode::Blob,
            edge: true,
            index: false,
        };
        let (_, peak) = peak_of(|| {
            let masks = autotile::masks(&grid.clone(), &tile);
            let rows: Vec<i64> = masks
                .iter()
                .map(|m| m.map_or(board::BEYOND, i64::from))
                .collect();
            let bytes: Vec<u8> = masks
                .iter()
                .flat_map(|m| m.map_or(u16::MAX, u16::from).to_ne_bytes())
                .collect();
            (masks, rows, bytes)
        });
        checks.push(("autotile".into(), peak, autotile::bound(size)));
        for (rule, walk) in [("unit", &unit), ("weighted", &weighted)] {
            let is_weighted = walk.cost.is_some();
            let (_, peak) = peak_of(|| {
                let copy = grid.clone();
                let sources = vec![from];
                let d = distances::distances(&copy, &sources, walk);
                let bytes: Vec<u8> = d.iter().flat_map(|&v| (v as f64).to_ne_bytes()).collect();
                (sources, d, bytes)
            });
            let bound = distances::bound(size, 1, is_weighted);
            checks.push((format!("distances, {rule}"), peak, bound));
            let (_, peak) = peak_of(|| path::path(&grid.clone(), from, to, walk));
            checks.push((
                format!("path, {rule}"),
                peak,
                path::bound(size, is_weighted),
            ));
        }
        report(&name, cells, checks);
    }
}

/// Sources by the million, on a one-cell map and on an open room: each is
/// counted in the bound (before any is read), and the search holds each
/// cell once however many sources stand on it.
#[test]
fn many_sources_stay_within_the_bound() {
    let weighted = board::Walk {
        cost: Some(Box::new([1; 256])),
        ..board::Walk::new()
    };
    for (w, h) in [(1, 1), (100, 100)] {
        let grid = Grid::new(w, h, b'.');
        let count = 1_000_000;
        for walk in [board::Walk::new(), weighted.clone()] {
            let (_, peak) = peak_of(|| {
                let copy = grid.clone();
                let sources: Vec<Pos> = (0..count).map(|i| grid.pos(i % (w * h))).collect();
                distances::distances(&copy, &sources, &walk)
            });
            let bound = distances::bound((w, h), count, walk.cost.is_some());
            println!(
                "{count} sources on {w}x{h}, weighted {}: {peak} bytes, bound {bound}",
                walk.cost.is_some()
            );
            assert!(peak <= bound, "{w}x{h}: {peak} > {bound}");
        }
    }
}

/// The most items and rooms on the smallest maps that hold them: the lists
/// (and their JSON) must fit the fixed part of the bound.
#[test]
fn the_longest_lists_stay_within_the_bound() {
    let cases = [
        Params {
            algorithm: Arg::Str(b"cave"),
            ..Params::new(Arg::Int(120), Arg::Int(100), Arg::Int(1))
        }
        .with(b"fill", Arg::Int(1))
        .with(b"items", Arg::Int(level::MAX_ITEMS)),
        Params::new(Arg::Int(1000), Arg::Int(400), Arg::Int(1))
            .with(b"rooms", Arg::Int(10_000))
            .with(b"items", Arg::Int(level::MAX_ITEMS)),
    ];
    for params in cases {
        let (level, peak) = peak_of(|| generate(&params).unwrap());
        let (_, json_peak) = peak_of(|| json::level(&level));
        let cells = level.grid.cells().len();
        let bound = level::bound(cells);
        println!(
            "{} {}x{}, {} rooms, {} items: generate {peak}, json {json_peak}, bound {bound}",
            level.algorithm,
            level.grid.width(),
            level.grid.height(),
            level.rooms.len(),
            level.items.len()
        );
        assert!(peak <= bound && json_peak <= bound, "{params:?}");
    }
}

/// The turn functions and the searches' limits, each as the binding makes
/// the call, holding what it holds at once: the window's copy, the closed
/// cells and the `known` flags read, the sources as read, the result and,
/// for LuaJIT's route, the result again as bytes.
#[test]
fn the_turn_functions_stay_within_their_bounds() {
    use map::grid::Rect;
    use map::toolkit::board::{Limits, Source};
    use map::toolkit::{flee, line, parse, sample, visible};
    let opaque = map::grid::byte_set(b"#");
    for (name, grid, from, to) in toolkit_maps() {
        let size = (grid.width(), grid.height());
        let cells = size.0 * size.1;
        let closed_every = |n: usize| (0..cells).map(|i| i % n == 0).collect::<Vec<bool>>();
        let mut checks: Vec<(String, usize, usize)> = Vec::new();
        for (rule, walk) in [
            ("unit", board::Walk::new()),
            ("diagonal", board::Walk::diagonal()),
        ] {
            let (_, peak) = peak_of(|| {
                let (copy, flags) = (grid.clone(), closed_every(1));
                let sources = vec![
                    Source {
                        pos: from,
                        value: -5,
                    },
                    Source { pos: to, value: 7 },
                ];
                let limits = Limits {
                    closed: closed_every(50),
                    max: None,
                };
                let d = distances::distances_from(&copy, &sources, &walk, &limits);
                let bytes: Vec<u8> = d.iter().flat_map(|&v| (v as f64).to_ne_bytes()).collect();
                (flags, d, bytes)
            });
            let bound = distances::bound(size, 2, true);
            checks.push((
                format!("distances with values and closed cells, {rule}"),
                peak,
                bound,
            ));
            let window = Rect::around(from, 10, size);
            let (_, peak) = peak_of(|| {
                let cells: Vec<u8> = (0..window.w * window.h).map(|_| b'.').collect();
                let copy = Grid::from_cells(window.w, window.h, cells);
                let sources = vec![Source {
                    pos: window.inside(from),
                    value: 0,
                }];
                let limits = Limits {
                    closed: Vec::new(),
                    max: Some(10),
                };
                distances::distances_from(&copy, &sources, &walk, &limits)
            });
            let bound = distances::bound((window.w, window.h), 1, false);
            checks.push((format!("distances within max 10, {rule}"), peak, bound));
            let (_, peak) = peak_of(|| {
                let copy = grid.clone();
                let sources = vec![Source::from(from)];
                let f = flee::flee(&copy, &sources, &walk, &Limits::default(), -1.2).unwrap();
                let bytes: Vec<u8> = f.iter().flat_map(|&v| (v as f64).to_ne_bytes()).collect();
                (f, bytes)
            });
            checks.push((format!("flee, {rule}"), peak, flee::bound(size, 1, false)));
            let (_, peak) = peak_of(|| {
                let limits = Limits {
                    closed: closed_every(97),
                    max: None,
                };
                path::path_within(&grid.clone(), from, to, &walk, &limits)
            });
            checks.push((
                format!("path with closed cells, {rule}"),
                peak,
                path::bound(size, false),
            ));
            // Everything known but the far corner: the whole map is walked.
            let (_, peak) = peak_of(|| {
                let mut known = vec![true; cells];
                known[grid.index(to)] = false;
                let avoided = closed_every(1000);
                explore::explore_within(&grid.clone(), &known, from, &walk, &avoided, None)
            });
            checks.push((
                format!("explore, {rule}"),
                peak,
                explore::bound(size, false),
            ));
            // With `avoid`: its cells read once into a bit each for the
            // whole map, then each window's as a byte each, as `explore`
            // does in the binding (`lua/search.rs`).
            let (_, peak) = peak_of(|| {
                let mut bits = Bits::new(cells);
                (0..cells).step_by(1000).for_each(|i| bits.set(i, true));
                let avoided: Vec<bool> = (0..cells).map(|i| bits.get(i)).collect();
                let mut known = vec![true; cells];
                known[grid.index(to)] = false;
                let found =
                    explore::explore_within(&grid.clone(), &known, from, &walk, &avoided, None);
                (bits, found)
            });
            checks.push((
                format!("explore with avoid, {rule}"),
                peak,
                explore::bound_avoided(size) + explore::bound(size, false),
            ));
        }
        let (_, peak) = peak_of(|| {
            let filter = sample::Filter {
                chars: map::grid::byte_set(b"."),
                from: Some(sample::Near {
                    pos: from,
                    walk: board::Walk::new(),
                    min: 1,
                    max: None,
                }),
                hidden: Some(opaque),
                excluded: Vec::new(),
            };
            let copy = grid.clone();
            let count = copy.cells().iter().filter(|&&c| c == b'.').count() / 4;
            sample::sample(&copy, count, 1, &filter)
        });
        checks.push(("sample".into(), peak, sample::bound(size)));
        let (_, peak) = peak_of(|| visible::visible(&grid.clone(), from, to, None, &opaque));
        checks.push((
            "visible over the whole rectangle".into(),
            peak,
            fov::bound(cells),
        ));
        let text = grid.render();
        let (_, peak) = peak_of(|| parse::parse(&text, parse::size(&text).unwrap()));
        checks.push(("parse".into(), peak, parse::bound(size)));
        let n = size.0.max(size.1);
        let (_, peak) = peak_of(|| line::line((1, 1), (n as i64, 7)));
        checks.push(("line".into(), peak, line::bound(n)));
        report(&name, cells, checks);
    }
}

/// `new_map`, `render` and `explore`'s avoided cells on maps at the cell
/// cap, where the per-cell share outweighs the bounds' fixed part: the
/// grid `new_map` fills; `render`'s copy of the map and its text (a
/// newline a row: a one-wide map has the most); the bit a cell `explore`
/// keeps of `avoid` for its windows, every cell named.
#[test]
fn whole_map_calls_stay_within_their_bounds() {
    for (w, h) in [(2000, 2000), (1, 4_000_000), (4_000_000, 1), (3, 1_333_333)] {
        let cells = w * h;
        let mut checks: Vec<(String, usize, usize)> = Vec::new();
        let (_, peak) = peak_of(|| Grid::new(w, h, b'#'));
        checks.push(("new_map".into(), peak, grid::bound_new(cells)));
        let map = Grid::new(w, h, b'.');
        let (_, peak) = peak_of(|| {
            let copy = map.clone();
            copy.render()
        });
        checks.push(("render".into(), peak, grid::bound_render((w, h))));
        let (_, peak) = peak_of(|| {
            let mut bits = Bits::new(cells);
            (0..cells).for_each(|i| bits.set(i, true));
            bits
        });
        checks.push((
            "explore's avoided cells".into(),
            peak,
            explore::bound_avoided((w, h)),
        ));
        report(&format!("{w}x{h}"), cells, checks);
    }
}

/// Sources with start values by the million: counted before they are read
/// (`bound_sources`), then in the search's bound.
#[test]
fn many_valued_sources_stay_within_the_bound() {
    use map::toolkit::board::{Limits, Source};
    let grid = Grid::new(100, 100, b'.');
    let count = 1_000_000;
    let (_, peak) = peak_of(|| {
        let copy = grid.clone();
        let sources: Vec<Source> = (0..count)
            .map(|i| Source {
                pos: grid.pos(i % 10_000),
                value: (i % 17) as i64,
            })
            .collect();
        distances::distances_from(&copy, &sources, &board::Walk::new(), &Limits::default())
    });
    let bound = distances::bound((100, 100), count, true);
    println!("{count} valued sources on 100x100: {peak} bytes, bound {bound}");
    assert!(peak <= bound, "{peak} > {bound}");
    assert!(distances::bound_sources(count) < bound);
}

/// A template of `side` x `side` cells: floor on its ring, walls inside
/// but for a door on each side's middle.
fn ring_template(side: usize, count: i64) -> map::level::vaults::Template {
    let rows: Vec<Vec<u8>> = (0..side)
        .map(|y| {
            (0..side)
                .map(|x| {
                    let ring = x == 0 || y == 0 || x + 1 == side || y + 1 == side;
                    if ring {
                        b'.'
                    } else if x == side / 2 || y == side / 2 {
                        b'+'
                    } else {
                        b'#'
                    }
                })
                .collect()
        })
        .collect();
    let rows: Vec<&[u8]> = rows.iter().map(Vec::as_slice).collect();
    map::level::vaults::Template::new(1, &rows, Arg::Int(count), Arg::Bool(true), Arg::Bool(false))
        .unwrap()
}

/// Vaults (100 copies, the largest templates), `arrive` and `place` (up to
/// 10,000 cells, with distances and sight) on every generator and shape,
/// its options as given: the peak of `generate` and of its JSON within
/// `bound_generate` plus the design's own bound, refused or not.
#[test]
fn directed_levels_stay_within_their_bound() {
    use map::level::place::Placement;
    for algorithm in LIST {
        for (w, h) in SHAPES {
            let mut params = Params {
                algorithm: Arg::Str(algorithm.name.as_bytes()),
                ..Params::new(Arg::Int(w), Arg::Int(h), Arg::Int(4))
            };
            if algorithm.options.iter().any(|o| o.name == "loops") {
                params.set(b"loops", Arg::Int(20));
                params.set(b"doors", Arg::Bool(true));
            }
            params.design.vaults = vec![ring_template(64, 40), ring_template(12, 60)];
            params.design.arrive = Some((w / 2, h / 2));
            let cells = (w * h) as usize;
            let few = (cells / 40).min(5_000);
            params.design.place = vec![
                Placement {
                    char: b'M',
                    count: few,
                    min: 5,
                    hidden: true,
                    per_room: None,
                    choose: Vec::new(),
                },
                Placement {
                    char: b'k',
                    count: few,
                    min: 0,
                    hidden: false,
                    per_room: None,
                    choose: Vec::new(),
                },
            ];
            let (level, peak) = peak_of(|| generate(&params));
            let bound = level::bound(cells) + params.design.bound(cells);
            let json_peak = level.as_ref().map_or(0, |l| peak_of(|| json::level(l)).1);
            let outcome = match &level {
                Ok(l) => format!("{} vaults, {} placed", l.vaults.len(), l.placed.len()),
                Err(e) => e.clone(),
            };
            let what = format!("{} {w}x{h} directed ({outcome})", algorithm.name);
            check_level_peaks(&what, cells, (peak, json_peak), bound);
        }
    }
    // All floor: every cell a candidate, with its distance and sight.
    for (w, h) in [(400, 400), (7, 32_000)] {
        let mut params = Params {
            algorithm: Arg::Str(b"drunkard"),
            ..Params::new(Arg::Int(w), Arg::Int(h), Arg::Int(4))
        }
        .with(b"fill", Arg::Int(1));
        params.design.place = vec![
            Placement {
                char: b'M',
                count: 10_000,
                min: 1,
                hidden: false,
                per_room: None,
                choose: Vec::new(),
            },
            Placement {
                char: b'k',
                count: 0,
                min: 0,
                hidden: true,
                per_room: None,
                choose: Vec::new(),
            },
        ];
        let cells = (w * h) as usize;
        let (level, peak) = peak_of(|| generate(&params).unwrap());
        let bound = level::bound(cells) + params.design.bound(cells);
        println!(
            "drunkard {w}x{h} all floor, {} placed: generate {:.1} B/cell, bound {:.1}",
            level.placed.len(),
            peak as f64 / cells as f64,
            bound as f64 / cells as f64
        );
        assert!(peak <= bound, "all floor {w}x{h}: {peak} > {bound}");
    }
    // per_room and choose: up to MAX_PLACED cells over many rooms.
    for (w, h, rooms) in [(400, 400, 2_000), (2_000, 2_000, 10_000)] {
        let mut params =
            Params::new(Arg::Int(w), Arg::Int(h), Arg::Int(6)).with(b"rooms", Arg::Int(rooms));
        params.design.place = vec![Placement {
            char: b'M',
            count: 0,
            min: 0,
            hidden: false,
            per_room: Some((0, 2)),
            choose: vec![(b'M', 3), (b'k', 1)],
        }];
        let cells = (w * h) as usize;
        let (level, peak) = peak_of(|| generate(&params));
        let bound = level::bound(cells) + params.design.bound(cells);
        let outcome = match &level {
            Ok(l) => format!("{} placed", l.placed.len()),
            Err(e) => e.clone(),
        };
        println!(
            "rooms {w}x{h} per_room ({outcome}): generate {:.1} B/cell, bound {:.1}",
            peak as f64 / cells as f64,
            bound as f64 / cells as f64
        );
        assert!(peak <= bound, "per_room {w}x{h}: {peak} > {bound}");
    }
}

/// Prints each call's peak and bound per cell of the map `name` of `cells`
/// cells, and checks the peak is within the bound.
fn report(name: &str, cells: usize, checks: Vec<(String, usize, usize)>) {
    for (call, peak, bound) in checks {
        println!(
            "{call} on {name}: {:.1} B/cell, bound {:.1}",
            peak as f64 / cells as f64,
            bound as f64 / cells as f64
        );
        assert!(peak <= bound, "{call} on {name}: {peak} > {bound}");
    }
}

/// A native level (issue 24) holds at most 2 bytes a cell: the terrain (1),
/// the occupancy bits (1/8) and the things. Measured twice: splitting a
/// generated 4,000,000-cell level (its grid, moved in, counted by hand) and
/// loading it back from its saved form, which allocates the whole level.
#[test]
fn a_native_level_takes_at_most_two_bytes_a_cell() {
    use map::native::{save, NativeLevel};
    let (w, h) = (2000, 2000);
    let params = Params::new(Arg::Int(w), Arg::Int(h), Arg::Int(3));
    let level = generate(&params).unwrap();
    let cells = (w * h) as usize;
    let (native, split_peak) =
        peak_of(|| NativeLevel::from_level(level, &map::grid::byte_set(b"")));
    let held = cells + split_peak;
    let bytes = save::save(&native);
    let (loaded, load_peak) = peak_of(|| save::load(&bytes).unwrap());
    assert_eq!(loaded, native);
    println!(
        "native level {w}x{h}: {:.3} bytes/cell split, {:.3} loaded",
        held as f64 / cells as f64,
        load_peak as f64 / cells as f64
    );
    assert!(held <= 2 * cells, "split: {held} bytes for {cells} cells");
    assert!(
        load_peak <= 2 * cells,
        "load: {load_peak} bytes for {cells} cells"
    );
}

/// Occupants' ids (issue 36) hold at most `ID_BYTES` each, whatever the
/// order they come in (row order, backwards, scattered), on a level where
/// every cell has one; a level without ids holds no heap for them; saving
/// and loading a level with ids stays within `save::bound` and
/// `save::bound_load`.
#[test]
fn occupants_ids_stay_within_their_bound() {
    use map::native::{save, NativeLevel, ID_BYTES, MAX_ID};
    let (w, h) = (400usize, 400usize);
    let cells = w * h;
    let grid = Grid::new(w, h, b'.');
    let (empty, peak) = peak_of(|| NativeLevel::from_grid(grid.clone()));
    assert!(peak <= cells + cells / 8 + 64, "no ids: {peak} bytes");
    let scattered = |i: usize| (i * 7919) % cells;
    let orders: [(&str, &dyn Fn(usize) -> usize); 3] = [
        ("row order", &|i| i),
        ("backwards", &|i| cells - 1 - i),
        ("scattered", &scattered),
    ];
    for (name, order) in orders {
        let mut level = empty.clone();
        let (_, peak) = peak_of(|| {
            for i in 0..cells {
                let c = order(i);
                let p = Pos {
                    x: c % w + 1,
                    y: c / w + 1,
                };
                level.occupy_by(p, MAX_ID - i as i64);
            }
        });
        println!(
            "ids {name}: {:.1} bytes/id held at peak (ID_BYTES {ID_BYTES})",
            peak as f64 / cells as f64
        );
        assert!(
            peak <= ID_BYTES * cells,
            "{name}: {peak} > {}",
            ID_BYTES * cells
        );
        let (bytes, peak) = peak_of(|| save::save(&level));
        assert!(peak <= save::bound(&level), "save: {peak}");
        let (back, peak) = peak_of(|| save::load(&bytes).unwrap());
        println!(
            "ids {name}: loaded at {:.2} times the saved bytes",
            peak as f64 / bytes.len() as f64
        );
        assert!(peak <= save::bound_load(bytes.len()), "load: {peak}");
        assert_eq!(back, level);
    }
}

/// The native level's calls: `map.level` of a table (its grid copied, every
/// cell a thing at worst) and of text, `map.field`, `map.load` of a level
/// and of each kind of field, and a field's rows, each within its bound.
#[test]
fn native_calls_stay_within_their_bounds() {
    use map::grid::{byte_set, Rect};
    use map::native::field::{self, Field};
    use map::native::{save, NativeLevel};
    use map::toolkit::parse;
    for (w, h) in [(400usize, 400usize), (7, 32_000), (32_000, 7)] {
        let cells = w * h;
        let name = format!("{w}x{h}");
        let mut checks = Vec::new();
        let grid = Grid::new(w, h, b'.');
        let (level, peak) = peak_of(|| NativeLevel::with_things(grid.clone(), &byte_set(b".")));
        checks.push(("level of a table".into(), peak, native::bound(cells)));
        let text = grid.render();
        let (_, peak) = peak_of(|| {
            let size = parse::size(&text).unwrap();
            NativeLevel::with_things(parse::parse(&text, size).grid, &byte_set(b"."))
        });
        checks.push(("level of text".into(), peak, native::bound(cells)));
        let (_, peak) = peak_of(|| Field::memory((w, h)));
        checks.push(("memory".into(), peak, field::bound_memory(cells)));
        let (bytes, peak) = peak_of(|| save::save(&level));
        checks.push(("save a level".into(), peak, save::bound(&level)));
        let (_, peak) = peak_of(|| save::load_saved(&bytes).unwrap());
        checks.push(("load a level".into(), peak, save::bound_load(bytes.len())));
        let whole = Rect::whole((w, h));
        let fields = [
            Field::values((w, h), whole, vec![1; cells]),
            Field::values((w, h), whole, vec![1 << 40; cells]),
            Field::flags((w, h), whole, vec![true; cells]),
        ];
        for f in &fields {
            let (bytes, peak) = peak_of(|| save::save_field(f));
            checks.push(("save a field".into(), peak, save::field_bound(f)));
            let (_, peak) = peak_of(|| save::load_saved(&bytes).unwrap());
            checks.push(("load a field".into(), peak, save::bound_load(bytes.len())));
            let (_, peak) = peak_of(|| (f.values_in(whole), f.flags_in(whole)));
            checks.push(("a field's rows".into(), peak, field::bound_rows(cells)));
        }
        report(&name, cells, checks);
    }
}

/// A distance field holds at most 4 bytes a cell: a search's values over a
/// 4,000,000-cell level, kept as a field (the search's own memory is the
/// table function's, measured above, and freed when the field is made).
#[test]
fn a_distance_field_takes_at_most_four_bytes_a_cell() {
    use map::grid::Rect;
    use map::native::field::Field;
    let (w, h) = (2000usize, 2000usize);
    let level = generate(&Params::new(
        Arg::Int(w as i64),
        Arg::Int(h as i64),
        Arg::Int(5),
    ))
    .unwrap();
    let values = distances::distances(&level.grid, &[level.player], &board::Walk::new());
    let values: Vec<i64> = values
        .into_iter()
        .map(|d| match d {
            board::UNREACHED => board::BEYOND,
            d => d as i64,
        })
        .collect();
    let (field, peak) = peak_of(|| Field::values((w, h), Rect::whole((w, h)), values));
    let cells = w * h;
    println!(
        "distance field {w}x{h}: {:.2} bytes/cell held",
        field.bytes() as f64 / cells as f64
    );
    assert!(field.bytes() <= 4 * cells && peak <= 4 * cells);
}

/// A saved level crafted with one long list (found by the `level` fuzz
/// target: 70,000 rooms' exits, each an empty list, and no rooms): loading
/// it must stay within `bound_load` of its bytes, though it is refused.
/// Lists grown by doubling while read held up to 17 times the bytes.
#[test]
fn a_crafted_long_list_loads_within_the_bound() {
    use map::native::save::{self, MAGIC, VERSION};
    let fnv1a = |bytes: &[u8]| {
        bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        })
    };
    let u32s =
        |o: &mut Vec<u8>, values: &[u32]| values.iter().for_each(|v| o.extend(v.to_le_bytes()));
    // Rooms, doors, items, vaults, placed, up, exits, links: one entry of
    // each, and how many bytes (a char) follow its u32s.
    let lists: [(&[u32], usize); 8] = [
        (&[1, 1, 1, 1], 0),
        (&[1, 1], 0),
        (&[1, 1], 1),
        (&[0, 1, 1, 1, 1], 1),
        (&[1, 1], 1),
        (&[1, 1], 0),
        (&[0], 0),
        (&[0], 0),
    ];
    for long in 0..lists.len() {
        let mut body = Vec::new();
        u32s(&mut body, &[1, 1]);
        body.push(b'.');
        body.extend(0u64.to_le_bytes());
        u32s(&mut body, &[0]);
        body.push(1);
        body.extend(7i64.to_le_bytes());
        body.push(5);
        body.extend(b"rooms");
        for (list, &(entry, extra)) in lists.iter().enumerate() {
            if list == 2 {
                // The player and the stairs, before the items.
                u32s(&mut body, &[1, 1, 1, 1]);
            }
            let count = if list == long { 70_000 } else { 0 };
            u32s(&mut body, &[count]);
            for _ in 0..count {
                u32s(&mut body, entry);
                body.extend(std::iter::repeat_n(b'$', extra));
            }
        }
        let mut bytes = MAGIC.to_vec();
        u32s(&mut bytes, &[VERSION, body.len() as u32 + 8]);
        bytes.extend(&body);
        let sum = fnv1a(&bytes);
        bytes.extend(sum.to_le_bytes());
        let (loaded, peak) = peak_of(|| save::load_saved(&bytes));
        let bound = save::bound_load(bytes.len());
        println!(
            "list {long}: {} bytes, load held {peak} ({:?})",
            bytes.len(),
            loaded.as_ref().err()
        );
        assert!(peak <= bound, "list {long}: {peak} > {bound}");
    }
}

/// The toolbox's calls: training names on many examples (short and long,
/// at the lowest and highest orders), a scheduler loaded or grown to many
/// actors and its state, `rng:fill`'s values, each within its bound.
#[test]
fn the_toolbox_stays_within_its_bounds() {
    use map::toolbox::names::{self, Names, Options};
    use map::toolbox::random::{self, Random};
    use map::toolbox::scheduler::{self, Scheduler};
    let mut r = Random::new(1);
    let mut checks = Vec::new();
    // Words of random letters, then long words: the most contexts.
    let letters: Vec<char> = ('a'..='z').chain('A'..='Z').chain('à'..='ö').collect();
    for (count, length) in [(20_000, 8), (500, 200), (1, 20_000)] {
        let words: Vec<String> = (0..count)
            .map(|_| {
                (0..length)
                    .map(|_| letters[r.below(letters.len() as u64) as usize])
                    .collect()
            })
            .collect();
        let refs: Vec<&str> = words.iter().map(String::as_str).collect();
        let chars = count * length;
        for order in [1, 3, 8] {
            let options = Options {
                order,
                ..Options::default()
            };
            let (names, peak) = peak_of(|| Names::new(&refs, options).unwrap());
            let bound = names::bound(chars, count, order);
            checks.push((format!("names {count}x{length} order {order}"), peak, bound));
            checks.push((
                format!("names {count}x{length} order {order} held"),
                names.bytes(),
                bound,
            ));
        }
    }
    report("names", 1, checks);
    let mut checks = Vec::new();
    for actors in [1usize, 1000, 300_000] {
        let (mut s, peak) = peak_of(|| {
            let mut s = Scheduler::new();
            for i in 0..actors {
                let period = scheduler::units(1.0 + (i % 97) as f64 / 7.0, true).unwrap();
                if let Some(bytes) = s.can_add(period).unwrap() {
                    assert!(bytes <= scheduler::bound(actors.max(4)));
                }
                s.add(period);
            }
            s
        });
        checks.push((
            format!("scheduler of {actors} by add"),
            peak,
            scheduler::bound(actors),
        ));
        for _ in 0..actors {
            s.next_turn().unwrap();
        }
        let (text, peak) = peak_of(|| s.save());
        checks.push((
            format!("scheduler of {actors}: state"),
            peak,
            scheduler::bound_state(actors),
        ));
        let (_, peak) = peak_of(|| s.by_order());
        checks.push((
            format!("scheduler of {actors}: actors"),
            peak,
            scheduler::bound_state(actors),
        ));
        let named = Scheduler::count_saved(text.as_bytes());
        assert_eq!(named, actors);
        let (_, peak) = peak_of(|| Scheduler::load(text.as_bytes()).unwrap());
        checks.push((
            format!("scheduler of {actors}: load"),
            peak,
            scheduler::bound(named),
        ));
    }
    report("scheduler", 1, checks);
    let count = 1 << 20;
    let (_, peak) = peak_of(|| r.fill(count, Some((1, 6))));
    report(
        "fill",
        1,
        vec![("fill of 2^20".into(), peak, random::bound_fill(count))],
    );
}

/// `noise:grid` and `light` as the binding calls them: the grid's values
/// (and a row's coordinates); the lights as read, the cells of the
/// rectangle they reach copied, and the result's channels, one or three.
#[test]
fn noise_and_light_stay_within_their_bounds() {
    use map::grid::Rect;
    use map::toolkit::light::{self, Ambient, Light};
    use map::toolkit::noise::{self, Noise, Origin, Settings};

    let noise = Noise::new(Settings {
        octaves: 3,
        ..Settings::DEFAULT
    });
    for (w, h) in [(400, 400), (1, 200_000), (200_000, 1), (3, 60_000)] {
        let (_, peak) = peak_of(|| noise.grid(w, h, Origin::Int(1), Origin::Float(0.5)));
        let check = ("noise:grid".to_string(), peak, noise::bound_grid(w * h));
        report(&format!("{w}x{h}"), w * h, vec![check]);
    }
    let opaque = map::grid::byte_set(b"#");
    for (name, grid, from, to) in toolkit_maps() {
        let size = (grid.width(), grid.height());
        let mut checks: Vec<(String, usize, usize)> = Vec::new();
        for color in [None, Some([1.0, 0.5, 0.0])] {
            let big = Light {
                pos: from,
                radius: (size.0 + size.1) as u64,
                intensity: 1.0,
                color,
            };
            let small = Light {
                pos: to,
                radius: 5,
                ..big
            };
            let lights = vec![big, small];
            let area = lights[0].window(size).union(&lights[1].window(size));
            let channels = if color.is_some() { 3 } else { 1 };
            let (_, peak) = peak_of(|| {
                let read = lights.clone();
                let mut cells = Vec::with_capacity(area.w * area.h);
                for y in area.y..area.y + area.h {
                    let start = grid.index(Pos { x: area.x, y });
                    cells.extend_from_slice(&grid.cells()[start..start + area.w]);
                }
                let copy = Grid::from_cells(area.w, area.h, cells);
                let lit = light::light(size, &copy, area, &read, &opaque, Ambient::Grey(0.1));
                (read, copy, lit)
            });
            let bound =
                light::bound_lights(lights.len()) + light::bound(size, area.w * area.h, channels);
            checks.push((format!("light, {channels} channels"), peak, bound));
            assert_eq!(
                area,
                Rect::whole(size),
                "{name}: the big light reaches everything"
            );
        }
        report(&name, size.0 * size.1, checks);
    }
}

/// `analyze` on its worst shapes: a checkerboard (a region a cell, a dead
/// end none), a strip of floor (a chokepoint a cell, a search as deep as
/// the map) and a level of many rooms with their links.
#[test]
fn analyze_stays_within_its_bound() {
    let mut checker = Grid::new(400, 400, b'#');
    for i in 0..checker.cells().len() {
        if (i % 400 + i / 400) % 2 == 0 {
            checker.set_at(i, b'.');
        }
    }
    checker.set_at(0, b'@');
    let mut strip = Grid::new(100_000, 1, b'.');
    strip.set_at(50_000, b'@');
    for (name, grid) in [("checkerboard", checker), ("strip", strip)] {
        let size = (grid.width(), grid.height());
        for walk in [board::Walk::new(), board::Walk::diagonal()] {
            let (_, peak) = peak_of(|| analyze::analyze(&grid.clone(), &walk, &[], None));
            let bound = analyze::bound(size, 0, 0);
            eprintln!("analyze {name}: {peak} bytes, bound {bound}");
            assert!(peak <= bound, "{name}: {peak} > {bound}");
        }
    }
    let params =
        Params::new(Arg::Int(800), Arg::Int(800), Arg::Int(3)).with(b"rooms", Arg::Int(2000));
    let level = generate(&params).unwrap();
    let links = &level.exits.links;
    let listed = links.iter().map(Vec::len).sum();
    let size = (level.grid.width(), level.grid.height());
    let (_, peak) =
        peak_of(|| analyze::analyze(&level.grid.clone(), &board::Walk::new(), &[], Some(links)));
    let bound = analyze::bound(size, links.len(), listed);
    assert!(peak <= bound, "rooms: {peak} > {bound}");
}

/// The editors' formats (issue 39): Tiled JSON and Lua written, Tiled JSON
/// read in each layer encoding, REXPaint written and read, on maps of
/// every byte; and the parsed JSON's share on the texts that parse into
/// the most values per byte (a list of one-digit numbers, of empty lists,
/// an object of short keys), which a reader must bound before it knows
/// the map's size.
#[test]
fn the_editors_stay_within_their_bounds() {
    use map::editors::{tiled, xp};
    use std::io::Write;
    for (w, h) in [(1000, 1000), (1, 1_000_000), (1_000_000, 1), (300, 300)] {
        let cells = w * h;
        let grid = Grid::from_cells(w, h, (0..cells).map(|i| (i * 7 % 256) as u8).collect());
        let mut checks: Vec<(String, usize, usize)> = Vec::new();
        let mut texts = Vec::new();
        for format in [tiled::Format::Json, tiled::Format::Lua] {
            let how = tiled::Writing {
                tiles: None,
                format,
                tile_width: 16,
                tile_height: 16,
                image: "x.png",
            };
            let (text, peak) = peak_of(|| tiled::write(&grid, &how).unwrap());
            checks.push((
                format!("to_tiled {format:?}"),
                peak,
                tiled::bound_write((w, h)),
            ));
            texts.push(text);
        }
        let json = &texts[0];
        let (read, peak) = peak_of(|| tiled::read(json, None, b' ').unwrap());
        assert_eq!(read, grid);
        let bound = tiled::bound_read_json(json.len()) + tiled::bound_read_cells(cells, 0);
        checks.push(("from_tiled, data an array".into(), peak, bound));
        let raw: Vec<u8> = grid
            .cells()
            .iter()
            .flat_map(|&c| (c as u32 + 1).to_le_bytes())
            .collect();
        let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
        z.write_all(&raw).unwrap();
        let data = base64(&z.finish().unwrap());
        let start = find(json, b"\"data\":[");
        let end = start + find(&json[start..], b"]");
        let mut packed = json[..start].to_vec();
        packed.extend_from_slice(
            format!("\"encoding\":\"base64\",\"compression\":\"zlib\",\"data\":\"{data}\"")
                .as_bytes(),
        );
        packed.extend_from_slice(&json[end + 1..]);
        let (read, peak) = peak_of(|| tiled::read(&packed, None, b' ').unwrap());
        assert_eq!(read, grid);
        let bound =
            tiled::bound_read_json(packed.len()) + tiled::bound_read_cells(cells, data.len());
        checks.push(("from_tiled, data base64 zlib".into(), peak, bound));
        let glyphs = xp::Glyphs::new(b"").unwrap();
        let (image, peak) = peak_of(|| xp::write(&grid, &glyphs));
        checks.push(("to_xp".into(), peak, xp::bound_write((w, h))));
        let (read, peak) = peak_of(|| xp::read(&image, &glyphs).unwrap());
        assert_eq!(read, grid);
        checks.push(("from_xp".into(), peak, xp::bound_read((w, h))));
        report(&format!("{w}x{h}"), cells, checks);
    }
    let n = 1_000_000;
    for (name, text) in [
        ("numbers", format!("[{}0]", "1,".repeat(n))),
        ("empty lists", format!("[{}[]]", "[],".repeat(n))),
        (
            "short keys",
            format!(
                "{{{}\"\":0}}",
                (0..n).map(|i| format!("\"{i}\":0,")).collect::<String>()
            ),
        ),
    ] {
        let (_, peak) = peak_of(|| tiled::read(text.as_bytes(), None, b' ').unwrap_err());
        let bound = tiled::bound_read_json(text.len());
        println!(
            "from_tiled's JSON, {name}: {:.1} B/byte, bound {:.1}",
            peak as f64 / text.len() as f64,
            bound as f64 / text.len() as f64
        );
        assert!(peak <= bound, "from_tiled's JSON, {name}: {peak} > {bound}");
    }
}

fn find(hay: &[u8], needle: &[u8]) -> usize {
    hay.windows(needle.len()).position(|w| w == needle).unwrap()
}

fn base64(bytes: &[u8]) -> String {
    use base64::Engine;
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

/// `map.load` of a saved value (`toolbox/graph.rs`) stays within
/// `graph::bound_load` of its bytes: the shapes that cost the most read
/// per byte (many one-entry tables, many short strings, long arrays of
/// small integers, a chain of nested tables) and a level inside.
#[test]
fn a_saved_value_loads_within_its_bound() {
    use map::native::NativeLevel;
    use map::toolbox::graph::{self, Key, NativeRef, Number, Writer};
    let tables = |n: u32| {
        let mut w = Writer::new();
        w.node(0).unwrap();
        for id in 0..n {
            w.table(1).unwrap();
            w.key(Key::Bool(true)).unwrap();
            match id + 1 < n {
                true => w.node(id + 1).unwrap(),
                false => w.boolean(false).unwrap(),
            }
        }
        w.finish().unwrap()
    };
    let strings = |n: usize| {
        let mut w = Writer::new();
        w.node(0).unwrap();
        w.table(n).unwrap();
        for i in 0..n {
            w.key(Key::Int(i as i64 + 1)).unwrap();
            w.string(format!("{i:x}").as_bytes()).unwrap();
        }
        w.finish().unwrap()
    };
    let integers = |n: usize| {
        let mut w = Writer::new();
        w.node(0).unwrap();
        w.table(n).unwrap();
        for i in 0..n {
            w.key(Key::Int(i as i64 + 1)).unwrap();
            w.number(Number::Int(0), false).unwrap();
        }
        w.finish().unwrap()
    };
    let level = NativeLevel::from_grid(Grid::new(400, 400, b'.'));
    let with_level = {
        let mut w = Writer::new();
        w.node(0).unwrap();
        w.native(NativeRef::Level(&level)).unwrap();
        w.finish().unwrap()
    };
    let saves = [
        ("a chain of 200,000 tables", tables(200_000)),
        ("200,000 strings", strings(200_000)),
        ("an array of 1,000,000 zeros", integers(1_000_000)),
        ("a 400x400 level", with_level),
    ];
    for (name, bytes) in saves {
        let (loaded, peak) = peak_of(|| graph::read(&bytes, None).unwrap());
        drop(loaded);
        let bound = graph::bound_load(bytes.len());
        println!(
            "load {name}: {} bytes, peak {peak}, {:.1} B a byte, bound {bound}",
            bytes.len(),
            peak as f64 / bytes.len() as f64
        );
        assert!(peak <= bound, "{name}: {peak} > {bound}");
    }
}
