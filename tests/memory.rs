//! The memory bound of each call, measured: a counting global allocator
//! records the peak of live heap bytes while one call runs, and the peak must
//! stay within what `memory::bound_*` promises (and the binding checks is
//! free before the call starts: see `src/memory.rs`).

#[path = "support/counting.rs"]
mod counting;

use counting::peak_of;
use map::args::Arg;
use map::generators::LIST;
use map::grid::{Grid, Pos};
use map::level::json;
use map::level::{self, generate, Params};
use map::memory;
use map::toolkit::{autotile, board, distances, fov, path, reach};

/// Large, small and narrow maps (the bounds are per cell; debug builds are
/// slow, so not the largest).
const SHAPES: [(i64, i64); 5] = [(400, 400), (80, 50), (7, 32_000), (32_000, 7), (100, 1_600)];

#[test]
fn generation_stays_within_its_bound() {
    let thin = [(3, 40_000), (40_000, 3), (6, 20_000)];
    for algorithm in LIST {
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
            let bound = memory::bound_generate(cells);
            println!(
                "{} {w}x{h}: generate {:.1} B/cell, json {:.1} B/cell, bound {:.1}",
                algorithm.name,
                peak as f64 / cells as f64,
                json_peak as f64 / cells as f64,
                bound as f64 / cells as f64
            );
            assert!(
                peak <= bound,
                "{} {w}x{h}: {peak} > {bound}",
                algorithm.name
            );
            assert!(
                json_peak <= bound,
                "{} {w}x{h} json: {json_peak} > {bound}",
                algorithm.name
            );
        }
    }
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
        checks.push(("reach".into(), peak, memory::bound_reach(size)));
        let (_, peak) = peak_of(|| {
            let copy = grid.clone();
            let seen = fov::visible(&copy, from, None, &opaque);
            let bytes: Vec<u8> = seen.iter().map(|&v| u8::from(v)).collect();
            (seen, bytes)
        });
        checks.push(("fov".into(), peak, memory::bound_fov(cells)));
        let tile = autotile::Autotile {
            class: map::grid::byte_set(b"#"),
            mode: autotile::Mode::Blob,
            edge: true,
            index: false,
        };
        let (_, peak) = peak_of(|| {
            let masks = autotile::masks(&grid.clone(), &tile);
            let rows: Vec<u64> = masks
                .iter()
                .map(|m| m.map_or(u64::MAX, u64::from))
                .collect();
            let bytes: Vec<u8> = masks
                .iter()
                .flat_map(|m| m.map_or(u16::MAX, u16::from).to_ne_bytes())
                .collect();
            (masks, rows, bytes)
        });
        checks.push(("autotile".into(), peak, memory::bound_autotile(size)));
        for (rule, walk) in [("unit", &unit), ("weighted", &weighted)] {
            let is_weighted = walk.cost.is_some();
            let (_, peak) = peak_of(|| {
                let copy = grid.clone();
                let sources = vec![from];
                let d = distances::distances(&copy, &sources, walk);
                let bytes: Vec<u8> = d.iter().flat_map(|&v| (v as f64).to_ne_bytes()).collect();
                (sources, d, bytes)
            });
            let bound = memory::bound_distances(size, 1, is_weighted);
            checks.push((format!("distances, {rule}"), peak, bound));
            let (_, peak) = peak_of(|| path::path(&grid.clone(), from, to, walk));
            checks.push((
                format!("path, {rule}"),
                peak,
                memory::bound_path(size, is_weighted),
            ));
        }
        for (call, peak, bound) in checks {
            println!(
                "{call} on {name}: {:.1} B/cell, bound {:.1}",
                peak as f64 / cells as f64,
                bound as f64 / cells as f64
            );
            assert!(peak <= bound, "{call} on {name}: {peak} > {bound}");
        }
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
            let bound = memory::bound_distances((w, h), count, walk.cost.is_some());
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
        let bound = memory::bound_generate(cells);
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
