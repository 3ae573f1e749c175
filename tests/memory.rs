//! The memory bound of each call, measured: a counting global allocator
//! records the peak of live heap bytes while one call runs, and the peak must
//! stay within what `memory::bound_*` promises (and the binding checks is
//! free before the call starts: see `src/memory.rs`).

#[path = "support/counting.rs"]
mod counting;

use counting::peak_of;
use map::args::Arg;
use map::generators::LIST;
use map::level::json;
use map::level::{self, generate, Params};
use map::memory;
use map::toolkit::{board, distances, fov, path, reach};

/// Large, small and narrow maps (the bounds are per cell; debug builds are
/// slow, so not the largest).
const SHAPES: [(i64, i64); 5] = [(400, 400), (80, 50), (7, 32_000), (32_000, 7), (100, 1_600)];

#[test]
fn generation_stays_within_its_bound() {
    for algorithm in LIST {
        for (w, h) in SHAPES {
            let params = Params {
                algorithm: Arg::Str(algorithm.name.as_bytes()),
                ..Params::new(Arg::Int(w), Arg::Int(h), Arg::Int(3))
            };
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

#[test]
fn the_toolkit_stays_within_its_bound() {
    for (w, h) in SHAPES {
        let params = Params {
            algorithm: Arg::Str(b"cave"),
            ..Params::new(Arg::Int(w), Arg::Int(h), Arg::Int(5))
        };
        let level = generate(&params).unwrap();
        let (grid, from, to) = (&level.grid, level.player, level.stairs);
        let cells = (w * h) as usize;
        let opaque = map::grid::byte_set(b"#");
        let walk = board::Walk::new();
        let diagonal = board::Walk {
            diagonal: true,
            cost: Some(Box::new([2; 256])),
            ..board::Walk::new()
        };
        type Check<'a> = (&'a str, usize, Box<dyn Fn() + 'a>);
        let checks: [Check; 5] = [
            (
                "reach",
                memory::bound_reach(cells),
                Box::new(|| drop(reach::check(grid))),
            ),
            (
                "fov",
                memory::bound_fov(cells),
                Box::new(|| drop(fov::visible(grid, from, None, &opaque))),
            ),
            (
                "distances",
                memory::bound_distances(cells, 1),
                Box::new(|| drop(distances::distances(grid, &[from], &walk))),
            ),
            (
                "path",
                memory::bound_path(cells),
                Box::new(|| drop(path::path(grid, from, to, &walk))),
            ),
            (
                "weighted path",
                memory::bound_path(cells),
                Box::new(|| drop(path::path(grid, from, to, &diagonal))),
            ),
        ];
        for (name, bound, call) in checks {
            let ((), peak) = peak_of(call);
            println!(
                "{name} {w}x{h}: {:.1} B/cell, bound {:.1}",
                peak as f64 / cells as f64,
                bound as f64 / cells as f64
            );
            assert!(peak <= bound, "{name} {w}x{h}: {peak} > {bound}");
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
