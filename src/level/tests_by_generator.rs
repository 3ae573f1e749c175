//! The pipeline's tests of whole levels of one generator: where a
//! generator's own promises (`@`, `>`, its options' checks) meet the
//! pipeline. (The generators' files test their carving alone: `generators/`
//! never uses `level/`.)

use super::{generate, Params};
use crate::grid::{Pos, WALL};
use crate::input::Arg;
use crate::toolkit::board::{Walk, UNREACHED};
use crate::toolkit::distances::distances;
use crate::toolkit::reach;

/// The parameters of a whole rooms level, through the pipeline.
fn rooms_params(width: i64, height: i64, seed: i64) -> Params<'static> {
    Params::new(Arg::Int(width), Arg::Int(height), Arg::Int(seed))
}

#[test]
fn player_sits_at_the_first_room_centre_and_stairs_in_the_last() {
    let level = generate(&rooms_params(60, 20, 7)).unwrap();
    assert_eq!(level.player, level.rooms[0].centre());
    let last = level.rooms.last().unwrap();
    assert!(last.cells().any(|p| p == level.stairs));
}

#[test]
fn one_room_maps_still_get_separate_player_and_stairs() {
    for seed in 0..200 {
        let p = rooms_params(6, 5, seed).with(b"items", Arg::Int(10));
        let level = generate(&p).unwrap();
        assert_eq!(level.rooms.len(), 1);
        assert_ne!(level.player, level.stairs);
    }
}

/// The parameters of a whole cave level, through the pipeline.
fn cave_params(width: i64, height: i64, seed: i64) -> Params<'static> {
    Params {
        algorithm: Arg::Str(b"cave"),
        ..Params::new(Arg::Int(width), Arg::Int(height), Arg::Int(seed))
    }
}

#[test]
fn caves_are_reachable_with_stairs_farthest_from_the_player() {
    for seed in 0..200 {
        for (w, h) in [(3, 200), (6, 200), (80, 50), (9, 5)] {
            let level = generate(&cave_params(w, h, seed)).unwrap();
            let g = &level.grid;
            assert_eq!(level.algorithm, "cave");
            assert!(level.rooms.is_empty());
            assert_eq!(reach::check(g), Ok(()), "seed {seed} {w}x{h}");
            assert_eq!(
                level.player,
                Pos {
                    x: (w as usize).div_ceil(2),
                    y: (h as usize).div_ceil(2)
                }
            );
            let dist = distances(g, &[level.player], &Walk::new());
            let stairs = dist[g.index(level.stairs)];
            let walkable = |i: usize| g.cells()[i] != WALL && dist[i] != UNREACHED;
            assert!((0..dist.len())
                .filter(|&i| walkable(i))
                .all(|i| dist[i] <= stairs));
            let interior = (w - 2) * (h - 2);
            let floor = g.cells().iter().filter(|&&c| c != WALL).count() as i64;
            assert_eq!(
                floor,
                (interior as f64 * 0.5).round() as i64,
                "carved count"
            );
        }
    }
}

#[test]
fn cave_options_are_checked() {
    let with =
        |key: &[u8], value| generate(&cave_params(80, 50, 1).with(key, value)).map(|l| l.grid);
    let fill_error = "fill must be a number in (0, 1], got";
    for bad in [
        Arg::Float(0.0),
        Arg::Float(1.5),
        Arg::Float(f64::NAN),
        Arg::Int(2),
        Arg::Str(b"x"),
    ] {
        assert!(
            with(b"fill", bad).unwrap_err().starts_with(fill_error),
            "{bad:?}"
        );
    }
    assert!(with(b"fill", Arg::Int(1)).is_ok());
    for bad in [Arg::Int(0), Arg::Float(2.5), Arg::Int(-3)] {
        let err = with(b"max_frontier", bad).unwrap_err();
        assert!(
            err.starts_with("max_frontier must be an integer from 1"),
            "{err}"
        );
    }
    assert_eq!(
        with(b"rooms", Arg::Int(3)).unwrap_err(),
        "option rooms applies only to algorithm \"rooms\""
    );
    let rooms = Params::new(Arg::Int(60), Arg::Int(20), Arg::Int(1)).with(b"fill", Arg::Float(0.3));
    assert!(generate(&rooms)
        .unwrap_err()
        .starts_with("option fill applies only to algorithm"));
    assert!(generate(&cave_params(3, 3, 1))
        .unwrap_err()
        .contains("@ and > need at least 2"));
    assert_eq!(
        generate(&cave_params(2, 9, 1)).unwrap_err(),
        "width must be an integer >= 3, got 2"
    );
}

#[test]
fn max_frontier_and_fill_change_the_cave() {
    let base = generate(&cave_params(80, 50, 5)).unwrap().grid;
    let p = cave_params(80, 50, 5).with(b"max_frontier", Arg::Int(3));
    assert_ne!(generate(&p).unwrap().grid, base);
    let p = cave_params(80, 50, 5).with(b"fill", Arg::Float(0.9));
    let dense = generate(&p).unwrap().grid;
    assert_eq!(dense.cells().iter().filter(|&&c| c != WALL).count(), 3370);
}
