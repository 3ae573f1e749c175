//! Criterion benches of the core alone (no Lua): the generators, the
//! reachability check and render, at the sizes of the Lua benchmarks
//! (bench/bench.lua; every algorithm at 80x50 and 1000x1000 as in
//! bench/generators.lua, group `generators`). Throughput is set to the cell count, so criterion's
//! "thrpt" is cells per second; bench/run.sh turns the medians into ns per
//! cell.
//!
//! `cargo bench --bench core` (add `-- --quick` or criterion's usual flags).

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

use map::args::Arg;
use map::generators;
use map::grid::{Grid, WALL};
use map::level::{generate, Level, Params};
use map::toolkit::reach;

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

criterion_group!(
    benches,
    bench_generate,
    bench_generators,
    bench_reachable,
    bench_render
);
criterion_main!(benches);
