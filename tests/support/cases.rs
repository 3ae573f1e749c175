//! The maps the property tests run over: generated levels and noise grids.

#![allow(dead_code)]

use map::grid::Grid;
use map::input::Arg;
use map::level::{generate, Params};
use map::rng::Rng;

/// The grid of a generated level.
pub fn level(algorithm: &str, width: i64, height: i64, seed: i64) -> Grid {
    let params = Params::new(Arg::Int(width), Arg::Int(height), Arg::Int(seed))
        .with(b"algorithm", Arg::Str(algorithm.as_bytes()));
    generate(&params).expect("a valid level").grid
}

/// Borderless grids of `.`, `#` and a few other characters, from 1x1 up to
/// `max` a side, at several densities.
pub fn noise(rng: &mut Rng, count: usize, max: usize) -> Vec<(String, Grid)> {
    (0..count)
        .map(|n| {
            let (w, h) = (rng.range(1, max), rng.range(1, max));
            let walls = rng.range(0, 60);
            let cells = (0..w * h)
                .map(|_| match rng.below(100) {
                    r if r < walls => b'#',
                    r if r < walls + 5 => b'~',
                    r if r < walls + 8 => b'+',
                    _ => b'.',
                })
                .collect();
            (format!("noise {n} {w}x{h}"), Grid::from_cells(w, h, cells))
        })
        .collect()
}
