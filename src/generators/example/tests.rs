//! The generator's properties by brute force: every window of every output
//! one of the sample's, fixed cells kept, the level connected; and the
//! success rates over seeds 1-1000 at 48x32 on every built-in sample.

use super::*;
use crate::generators::testing::check_terrain_contract;
use crate::generators::Value;
use crate::grid::WALL;

fn options(sample: &str, extra: &[(&'static str, Value)]) -> Options {
    let mut values: Vec<(&'static str, Value)> = GENERATOR
        .options
        .iter()
        .map(|o| (o.name, o.default.value(10)))
        .collect();
    values[0].1 = Value::Text(sample.as_bytes().to_vec());
    for (name, v) in extra {
        let slot = values.iter_mut().find(|(n, _)| n == name).unwrap();
        slot.1 = v.clone();
    }
    Options::new(values)
}

fn run(opts: &Options, (w, h): (usize, usize), seed: i64) -> Result<(Grid, Layout), String> {
    let mut grid = Grid::new(w, h, WALL);
    let layout = carve(&mut grid, opts, &mut Rng::new(seed))?;
    Ok((grid, layout))
}

/// Every n x n window of `grid` is a window of the sample under its
/// symmetries, found by reading the sample again (not the solver's list).
fn check_windows(grid: &Grid, opts: &Options) {
    let problem = problem(opts, (grid.width(), grid.height())).unwrap();
    let n = problem.patterns.n;
    let (w, h) = (grid.width(), grid.height());
    let cells = grid.cells();
    let mut window = vec![0u8; n * n];
    for y in 0..=h - n {
        for x in 0..=w - n {
            for dy in 0..n {
                window[dy * n..][..n].copy_from_slice(&cells[(y + dy) * w + x..][..n]);
            }
            assert!(
                problem.patterns.contains(&window),
                "window at ({}, {}) not in the sample:\n{}",
                x + 1,
                y + 1,
                String::from_utf8_lossy(&grid.render())
            );
        }
    }
}

#[test]
fn every_sample_makes_levels_whose_windows_are_the_samples() {
    for (name, ..) in SAMPLES.iter() {
        let opts = options(name, &[]);
        for seed in 1..=20 {
            let (grid, layout) = run(&opts, (48, 32), seed).unwrap();
            check_windows(&grid, &opts);
            let blocked = layout.blocked.clone().unwrap();
            let terrain = Terrain {
                chars: TERRAIN.chars,
                blocked: Box::leak(blocked.into_boxed_str()),
                border: grid.cells()[0],
            };
            check_terrain_contract(&grid, &layout, &terrain);
        }
    }
}

const SEEDS: i64 = 1000;

/// `cargo test --release success_rates -- --ignored --nocapture`
#[test]
#[ignore]
fn success_rates() {
    for (name, ..) in SAMPLES {
        let opts = options(name, &[]);
        let size = match std::env::var("SIZE").as_deref() {
            Ok("49x33") => (49, 33),
            _ => (48, 32),
        };
        let t = std::time::Instant::now();
        let mut ok = 0;
        let mut worst = std::time::Duration::ZERO;
        for seed in 1..=SEEDS {
            let t1 = std::time::Instant::now();
            let r = run(&opts, size, seed);
            worst = worst.max(t1.elapsed());
            if r.is_ok() {
                ok += 1;
            }
        }
        println!(
            "{name}: {ok}/1000 in {:?} (worst {worst:?}), {} patterns",
            t.elapsed(),
            problem(&opts, (48, 32)).unwrap().patterns.len()
        );
    }
}
