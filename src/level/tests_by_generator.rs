//! The pipeline's tests of whole levels of one generator: where a
//! generator's own promises (`@`, `>`, its options' checks) meet the
//! pipeline. (The generators' files test their carving alone: `generators/`
//! never uses `level/`.)

use super::place::entry;
use super::{generate, generate_by, Params};
use crate::generators::testing::{check_generator, hidden_floor, run, HIDDEN_MIN_SIZE};
use crate::generators::{Generator, Layout, Options, ROCK};
use crate::grid::{Grid, Pos, Rect, FLOOR, WALL};
use crate::input::Arg;
use crate::rng::Rng;
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

/// An open generator of this test's own, not in the registry: the whole
/// interior one room, `@` at its centre, every cell in its sight. So it
/// does not declare that it hides.
const ARENA: Generator = Generator {
    name: "arena",
    doc: "one open room, the whole interior",
    min_width: 4,
    min_height: 3,
    options: &[],
    terrain: &ROCK,
    hides: false,
    carve: arena,
    bound: crate::generators::no_bound,
};

fn arena(grid: &mut Grid, _: &Options, _: &mut Rng) -> Result<Layout, String> {
    let (w, h) = (grid.width(), grid.height());
    let room = Rect::new(2, 2, w - 2, h - 2);
    for p in room.cells() {
        grid.set(p, FLOOR);
    }
    Ok(Layout {
        rooms: vec![room],
        player: Pos {
            x: w.div_ceil(2),
            y: h.div_ceil(2),
        },
        stairs: None,
        blocked: None,
    })
}

#[test]
fn an_open_generator_keeps_the_contract_without_hiding_and_refuses_place_hidden() {
    // The contract but the hidden floor, which it does not declare: it
    // hides nothing, and would break it if it declared it.
    check_generator(&ARENA);
    let (grid, layout) = run(arena, HIDDEN_MIN_SIZE, 1, &Options::default());
    assert_eq!(hidden_floor(&grid, &layout), 0);
    let claiming = Generator {
        hides: true,
        ..ARENA
    };
    assert!(std::panic::catch_unwind(|| check_generator(&claiming)).is_err());

    // Through the pipeline: `place` without `hidden`, or hidden with no
    // cell asked, is taken; `hidden` with a count is refused by name.
    for seed in 0..20 {
        let mut params = Params::new(Arg::Int(60), Arg::Int(30), Arg::Int(seed));
        params.design.place = vec![entry(b'M', 5, 10, false), entry(b'k', 0, 0, true)];
        let level = generate_by(&ARENA, &params, true).unwrap();
        assert_eq!(level.algorithm, "arena");
        assert_eq!(level.placed.len(), 5);
        assert_eq!(reach::check(&level.grid), Ok(()), "seed {seed}");
        params.design.place.push(entry(b'g', 2, 0, true));
        assert_eq!(
            generate_by(&ARENA, &params, true).unwrap_err(),
            "place[3].hidden applies only to algorithms that hide cells from @, not to \"arena\" \
             (its levels may keep every cell in sight)"
        );
    }
}

#[test]
fn place_hidden_is_taken_by_the_generators_that_hide_and_refused_by_the_others() {
    for algorithm in crate::generators::LIST {
        let mut params = Params {
            algorithm: Arg::Str(algorithm.name.as_bytes()),
            ..Params::new(Arg::Int(80), Arg::Int(40), Arg::Int(3))
        };
        params.design.place = vec![entry(b'M', 3, 0, true)];
        match generate(&params) {
            Ok(level) => {
                assert!(algorithm.hides, "{}", algorithm.name);
                assert_eq!(level.placed.len(), 3);
            }
            Err(e) => {
                assert!(!algorithm.hides, "{}: {e}", algorithm.name);
                assert_eq!(
                    e,
                    format!(
                        "place[1].hidden applies only to algorithms that hide cells from @, \
                         not to \"{}\" (its levels may keep every cell in sight)",
                        algorithm.name
                    )
                );
            }
        }
    }
}

/// Whether a search over (cell, keys held) from `@`, where a door opens
/// once its key is held, reaches `>` and every key, and how many keys.
fn solvable(level: &crate::level::Level) -> bool {
    let locks = level.locks.as_deref().unwrap_or(&[]);
    let g = &level.grid;
    let door_of = |i: usize| locks.iter().position(|l| g.index(l.door) == i);
    let key_of = |i: usize| locks.iter().position(|l| g.index(l.key) == i);
    let states = 1usize << locks.len();
    let mut seen = vec![false; g.cells().len() * states];
    let start = (g.index(level.player), 0usize);
    let mut queue = vec![start];
    seen[start.0 * states] = true;
    let (mut stairs, mut keys) = (false, 0usize);
    while let Some((i, held)) = queue.pop() {
        stairs |= i == g.index(level.stairs);
        let held = key_of(i).map_or(held, |k| held | 1 << k);
        keys |= held;
        for step in crate::grid::steps(g.width()) {
            let j = i.wrapping_add_signed(step);
            let shut = door_of(j).is_some_and(|d| held & 1 << d == 0);
            if g.cells()[j] == WALL || shut || seen[j * states + held] {
                continue;
            }
            seen[j * states + held] = true;
            queue.push((j, held));
        }
    }
    stairs && keys == states - 1
}

#[test]
fn locks_are_solvable_on_every_generator_of_rock_and_change_nothing_else() {
    for algorithm in crate::generators::LIST.iter().filter(|g| g.carves_rock()) {
        let (mut placed, mut asked) = (0, 0);
        for seed in 0..300 {
            for (w, h, n) in [(30, 20, 3), (80, 50, 8)] {
                let base = Params {
                    algorithm: Arg::Str(algorithm.name.as_bytes()),
                    ..Params::new(Arg::Int(w), Arg::Int(h), Arg::Int(seed))
                };
                let plain = generate(&base).unwrap();
                let level = generate(&base.clone().with(b"locks", Arg::Int(n))).unwrap();
                let case = format!("{} {w}x{h} seed {seed}", algorithm.name);
                assert!(solvable(&level), "{case}");
                let locks = level.locks.as_ref().unwrap();
                (placed, asked) = (placed + locks.len(), asked + n as usize);
                // The same level but the locks, keys and items: the cells
                // that are not doors or keys are as they were or items.
                let lettered = |c: u8| c.is_ascii_alphabetic();
                for (a, b) in plain.grid.cells().iter().zip(level.grid.cells()) {
                    assert!(a == b || lettered(*b) || b"$!.".contains(a), "{case}");
                }
                assert_eq!((plain.player, plain.stairs), (level.player, level.stairs));
            }
        }
        println!("{}: {placed} of {asked} locks placed", algorithm.name);
    }
}
