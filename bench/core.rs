//! Criterion benches of the core alone (no Lua): the generators, the
//! rooms' exits and links, the reachability check, render, the toolkit and
//! its two breadth-first searches, at the sizes of the Lua benchmarks
//! (bench/bench.lua; every algorithm at 80x50 and 1000x1000 as in
//! bench/generators.lua, group `generators`). Throughput is set to the cell count, so criterion's
//! "thrpt" is cells per second; bench/run.sh turns the medians into ns per
//! cell.
//!
//! `cargo bench --bench core` (add `-- --quick` or criterion's usual flags).

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

use map::generators;
use map::grid::{Grid, WALL};
use map::grid::{Pos, FLOOR};
use map::input::Arg;
use map::level::exits::Touches;
use map::level::{generate, Level, Params};
use map::toolkit::board::{Walk, UNREACHED};
use map::toolkit::distances::distances;
use map::toolkit::flood::{self, Flood};
use map::toolkit::{fov, path, reach};

/// Seeds cycle through 1..=SEEDS, as in the Lua benchmark.
const SEEDS: i64 = 100;

fn params(width: usize, height: usize, seed: i64, algorithm: &'static [u8]) -> Params<'static> {
    Params {
        width: Arg::Int(width as i64),
        height: Arg::Int(height as i64),
        seed: Arg::Int(seed),
        algorithm: Arg::Str(algorithm),
        ..Params::default()
    }
}

fn level(width: usize, height: usize, seed: i64, algorithm: &'static [u8]) -> Level {
    generate(&params(width, height, seed, algorithm)).expect("benchmark parameters are valid")
}

/// Whole levels (layout, `@`, `>`, items), seeds 1..=SEEDS in turn.
fn bench_generate(c: &mut Criterion) {
    let mut group = c.benchmark_group("rooms");
    for (w, h) in [(60, 20), (200, 60)] {
        group.throughput(Throughput::Elements((w * h) as u64));
        group.bench_function(BenchmarkId::from_parameter(format!("{w}x{h}")), |b| {
            let mut seed = 0;
            b.iter(|| {
                seed = seed % SEEDS + 1;
                black_box(level(w, h, seed, b"rooms"))
            })
        });
    }
    group.finish();

    let mut group = c.benchmark_group("cave");
    group.sample_size(10);
    for (w, h) in [(60, 20), (1000, 1000)] {
        group.throughput(Throughput::Elements((w * h) as u64));
        group.bench_function(BenchmarkId::from_parameter(format!("{w}x{h}")), |b| {
            let mut seed = 0;
            b.iter(|| {
                seed = seed % SEEDS + 1;
                black_box(level(w, h, seed, b"cave"))
            })
        });
    }
    group.finish();
}

/// Every algorithm of `generators::LIST` with its default options, at the
/// sizes of bench/generators.lua: `generators/<name>/<w>x<h>`. Few samples
/// at 1000x1000 (up to about 30 ms a level), so the group stays within a
/// minute or two.
fn bench_generators(c: &mut Criterion) {
    let mut group = c.benchmark_group("generators");
    for (w, h, samples) in [(80, 50, 30), (1000, 1000, 10)] {
        group.sample_size(samples);
        group.throughput(Throughput::Elements((w * h) as u64));
        for alg in generators::LIST {
            group.bench_function(BenchmarkId::new(alg.name, format!("{w}x{h}")), |b| {
                let mut seed = 0;
                b.iter(|| {
                    seed = seed % SEEDS + 1;
                    let params = Params {
                        algorithm: Arg::Str(alg.name.as_bytes()),
                        ..Params::new(Arg::Int(w), Arg::Int(h), Arg::Int(seed))
                    };
                    black_box(generate(&params).expect("benchmark parameters are valid"))
                })
            });
        }
    }
    group.finish();
}

/// `reach::check` on generated 60x20 maps (all reachable, so the whole
/// flood fill runs).
fn bench_reachable(c: &mut Criterion) {
    let mut group = c.benchmark_group("reachable");
    let (w, h) = (60, 20);
    let grids: Vec<Grid> = (1..=SEEDS).map(|s| level(w, h, s, b"rooms").grid).collect();
    group.throughput(Throughput::Elements((w * h) as u64));
    group.bench_function(BenchmarkId::from_parameter(format!("{w}x{h}")), |b| {
        let mut i = 0;
        b.iter(|| {
            i = (i + 1) % grids.len();
            black_box(reach::check(black_box(&grids[i])).is_ok())
        })
    });
    group.finish();
}

/// The rooms' exits and links of generated 60x20 rooms levels, as
/// `generate` works them out for its table (`generate_text` does not).
fn bench_exits(c: &mut Criterion) {
    let mut group = c.benchmark_group("exits");
    let (w, h) = (60, 20);
    let levels: Vec<Level> = (1..=SEEDS).map(|s| level(w, h, s, b"rooms")).collect();
    group.throughput(Throughput::Elements((w * h) as u64));
    group.bench_function(BenchmarkId::from_parameter(format!("{w}x{h}")), |b| {
        let mut i = 0;
        b.iter(|| {
            i = (i + 1) % levels.len();
            let l = black_box(&levels[i]);
            black_box(Touches::of(&l.grid, &l.rooms).into_exits())
        })
    });
    group.finish();
}

/// `Grid::render`: the text form, as `render` and `generate_text` make it.
fn bench_render(c: &mut Criterion) {
    let mut group = c.benchmark_group("render");
    for (w, h) in [(60, 20), (200, 60), (1000, 1000)] {
        let grid = Grid::new(w, h, WALL);
        group.throughput(Throughput::Elements((w * h) as u64));
        group.bench_function(BenchmarkId::from_parameter(format!("{w}x{h}")), |b| {
            b.iter(|| black_box(black_box(&grid).render()))
        });
    }
    group.finish();
}

/// The toolkit on a 1000x1000 cave from its centre: `fov` with a radius of
/// 8 on the window the binding reads, `distances` by each rule, and `path`
/// to the farthest cell.
fn bench_toolkit(c: &mut Criterion) {
    let cave = level(1000, 1000, 1, b"cave").grid;
    let centre = Pos { x: 500, y: 500 };
    let mut group = c.benchmark_group("toolkit");
    group.sample_size(10);
    let window = fov_window(&cave, centre, 8);
    let opaque = map::grid::byte_set(b"#");
    group.bench_function("fov_r8/1000x1000", |b| {
        b.iter(|| black_box(fov::visible(&window, Pos { x: 9, y: 9 }, Some(8), &opaque)))
    });
    let mut weighted = Walk::new();
    let mut cost = Box::new([1; 256]);
    cost[FLOOR as usize] = 3;
    weighted.cost = Some(cost);
    for (rule, walk) in [
        ("unit", Walk::new()),
        ("diagonal", Walk::diagonal()),
        ("weighted", weighted.clone()),
    ] {
        group.bench_function(format!("distances_{rule}/1000x1000"), |b| {
            b.iter(|| black_box(distances(&cave, &[centre], &walk)))
        });
    }
    let far = farthest_by_board(&cave, centre);
    group.bench_function("path/1000x1000", |b| {
        b.iter(|| black_box(path::path(&cave, centre, far, &Walk::new())))
    });
    group.bench_function("path_weighted/1000x1000", |b| {
        b.iter(|| black_box(path::path(&cave, centre, far, &weighted)))
    });
    group.finish();
}

/// The `(2r+1)x(2r+1)` window around `p` (inside the map here).
fn fov_window(g: &Grid, p: Pos, r: usize) -> Grid {
    let side = 2 * r + 1;
    let mut cells = Vec::with_capacity(side * side);
    for y in p.y - r..=p.y + r {
        for x in p.x - r..=p.x + r {
            cells.push(g.get(Pos { x, y }));
        }
    }
    Grid::from_cells(side, side, cells)
}

/// The farthest floor cell by the board's breadth-first search and a scan
/// of its distances: what the flood does, done the board's way.
fn farthest_by_board(g: &Grid, from: Pos) -> Pos {
    let d = distances(g, &[from], &Walk::new());
    let mut best = g.index(from);
    for (i, &v) in d.iter().enumerate() {
        if v != UNREACHED && g.cells()[i] == FLOOR && v > d[best] {
            best = i;
        }
    }
    g.pos(best)
}

/// The farthest floor cell of a 2000x2000 cave (4 million cells) by the
/// flood and by the board: why the flood exists beside the board (see
/// src/toolkit/flood.rs).
fn bench_breadth_first(c: &mut Criterion) {
    let cave = level(2000, 2000, 1, b"cave").grid;
    let start = Pos { x: 1000, y: 1000 };
    let by_flood = |g: &Grid| {
        Flood::new(g, |c| match c {
            b'#' => flood::CLOSED,
            FLOOR => flood::WANTED,
            _ => flood::OPEN,
        })
        .farthest(start)
    };
    assert_eq!(by_flood(&cave), farthest_by_board(&cave, start));
    let mut group = c.benchmark_group("breadth_first");
    group.sample_size(10);
    group.throughput(Throughput::Elements(cave.cells().len() as u64));
    group.bench_function("flood/2000x2000", |b| b.iter(|| black_box(by_flood(&cave))));
    group.bench_function("board/2000x2000", |b| {
        b.iter(|| black_box(farthest_by_board(&cave, start)))
    });
    group.finish();
}

criterion_group!(
    benches,
    bench_generate,
    bench_generators,
    bench_reachable,
    bench_exits,
    bench_render,
    bench_toolkit,
    bench_breadth_first
);
criterion_main!(benches);
