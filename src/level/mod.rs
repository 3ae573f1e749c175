//! The level pipeline: from the caller's parameters to a finished level.
//! What every generator shares lives here: checking the options each one
//! declares (see `generators`), then, after it carves, doors, `@`, `>`,
//! items and the level's metadata.

pub mod design;
pub mod doors;
pub mod exits;
mod fit;
pub mod items;
pub mod json;
pub mod locks;
mod params;
pub mod place;
mod placement;
pub mod rows;
pub mod template;

/// Per cell, at most, for generating a level and its text or JSON form
/// (measured: at most 16, JSON of small maps).
const GENERATE_PER_CELL: usize = 32;

/// The memory `generate`, `generate_text` and `generate_json` on a map of
/// `cells` cells may use (the level's lists, at most `MAX_ROOMS` rooms and
/// `MAX_ITEMS` items, and small buffers within `memory::FIXED`).
pub fn bound(cells: usize) -> usize {
    GENERATE_PER_CELL * cells + memory::FIXED
}

#[cfg(test)]
mod tests_by_generator;
pub mod tunnels;
pub mod vaults;

use crate::generators::{shared, Generator, Options};
use crate::grid::{byte_set, Grid, Pos, Rect, FLOOR, PLAYER, STAIRS, WALL};
use crate::input;
use crate::memory;
use crate::rng::Rng;
use crate::toolkit::flood::{self, Flood};
use design::Design;
use exits::{Exits, Touches};
use items::Item;
use locks::Lock;
use place::Placed;
use vaults::Vault;

pub use params::{all_options, chosen, Params, DEFAULT_ITEMS, ITEMS, MAX_ITEMS};
use params::{checked, foreign_options};

/// A generated map and everything placed on it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Level {
    pub grid: Grid,
    pub seed: i64,
    pub algorithm: &'static str,
    pub rooms: Vec<Rect>,
    pub doors: Vec<Pos>,
    pub player: Pos,
    pub stairs: Pos,
    pub items: Vec<Item>,
    /// The vaults placed, in placement order; their rectangles are the last
    /// `vaults.len()` entries of `rooms`.
    pub vaults: Vec<Vault>,
    /// Where `@` arrived (`arrive`), an up staircase under it.
    pub up: Option<Pos>,
    /// The cells `place` filled, in placement order.
    pub placed: Vec<Placed>,
    /// Each room's exits and links, in the order of `rooms`.
    pub exits: Exits,
    /// The characters that block walking, when not `#` alone.
    pub blocked: Option<String>,
    /// The locks placed, in the order their doors open, when `locks` asked
    /// for some (`None`: it did not, and the level has no `locks` field).
    pub locks: Option<Vec<Lock>>,
}

impl Level {
    /// The characters that block walking on it, when not `#` alone (the
    /// table's `blocked`): its generator's, or its sample's.
    pub fn blocked(&self) -> Option<&str> {
        self.blocked.as_deref()
    }
}

pub fn generate(params: &Params) -> Result<Level, String> {
    generate_with(params, true)
}

/// The map `generate` makes, without working out the rooms' exits and
/// links (`generate_text` shows none of them).
pub fn generate_grid(params: &Params) -> Result<Grid, String> {
    generate_with(params, false).map(|level| level.grid)
}

fn generate_with(params: &Params, with_exits: bool) -> Result<Level, String> {
    if let Some(key) = params.unknown {
        let known: Vec<&str> = ["width", "height", "seed", "algorithm"]
            .into_iter()
            .chain(all_options())
            .chain(design::NAMES)
            .chain(params.also.iter().copied())
            .collect();
        return Err(format!(
            "unknown option {} (options: {})",
            input::quoted(key),
            known.join(", ")
        ));
    }
    let algorithm = chosen(params.algorithm)?;
    generate_by(algorithm, params, with_exits)
}

/// `generate_with` by `algorithm`, whether the registry lists it or not (a
/// test's own generator).
fn generate_by(
    algorithm: &'static Generator,
    params: &Params,
    with_exits: bool,
) -> Result<Level, String> {
    let call = checked_call(algorithm, params)?;
    memory::check(call.bytes)?;
    let (width, height) = call.size;
    build(
        algorithm,
        width,
        height,
        call.seed,
        &call.opts,
        &params.design,
        with_exits,
    )
}

/// A call's arguments checked, before anything is made.
struct Call {
    size: (usize, usize),
    seed: i64,
    opts: Options,
    /// The memory it may use (`declared`).
    bytes: usize,
}

fn checked_call(algorithm: &'static Generator, params: &Params) -> Result<Call, String> {
    foreign_options(algorithm, params)?;
    let size = input::size(
        params.width,
        params.height,
        algorithm.min_width as i64,
        algorithm.min_height as i64,
    )?;
    let seed = input::seed(params.seed)?;
    let (opts, bytes) = declared(algorithm, params, size)?;
    Ok(Call {
        size,
        seed,
        opts,
        bytes,
    })
}

/// The options checked, and the memory the call may use (the level's, the
/// design's, the locks' and the generator's own): everything refused
/// before anything is made.
fn declared(
    algorithm: &'static Generator,
    params: &Params,
    (width, height): (usize, usize),
) -> Result<(Options, usize), String> {
    let opts = checked(algorithm, params, width.min(height))?;
    locks::check_chars(lock_count(algorithm, &opts), &params.design)?;
    // What cannot be asked of the algorithm at all, before how it is asked.
    off_rock(algorithm, &params.design)?;
    params.design.check_hidden(algorithm)?;
    params.design.check(width, height)?;
    let locks = match lock_count(algorithm, &opts) {
        0 => 0,
        _ => locks::bound((width, height)),
    };
    let own = (algorithm.bound)(&opts, (width, height))?;
    let cells = width * height;
    let bytes = bound(cells) + params.design.bound(cells) + locks + own;
    Ok((opts, bytes))
}

/// The memory `generate` on `params` may use, which it checks is free
/// before anything is made (the fuzz targets' and tests/memory.rs'
/// measure); the error it would give when it refuses them.
pub fn bound_of(params: &Params) -> Result<usize, String> {
    checked_call(chosen(params.algorithm)?, params).map(|call| call.bytes)
}

/// An error when `vaults` or `arrive` ask for something on a level not
/// carved from rock: their tunnels dig through rock.
fn off_rock(algorithm: &Generator, design: &Design) -> Result<(), String> {
    if algorithm.carves_rock() {
        return Ok(());
    }
    let asked = match (design.vaults.is_empty(), design.arrive.is_none()) {
        (false, _) => "vaults",
        (_, false) => "arrive",
        _ => return Ok(()),
    };
    Err(format!(
        "{asked} applies only to levels carved from rock, not to \"{}\" (its tunnels dig through #)",
        algorithm.name
    ))
}

/// Carves, then stamps the vaults and joins them, `arrive` and whatever
/// they cut off; then puts `@`, doors, `>`, the locks and their keys, the
/// items and the placed cells, and lists the rooms' exits. The draws, in
/// order: the generator's own, the vaults' (`vaults::stamp`), the locks'
/// (none without them), the items', then `place`'s.
fn build(
    algorithm: &'static Generator,
    width: usize,
    height: usize,
    seed: i64,
    opts: &Options,
    design: &Design,
    with_exits: bool,
) -> Result<Level, String> {
    let mut rng = Rng::new(seed);
    let mut grid = Grid::new(width, height, WALL);
    let layout = (algorithm.carve)(&mut grid, opts, &mut rng)?;
    place::check_rooms(&design.place, layout.rooms.len(), algorithm.name)?;
    let shaped = design::shape(&mut grid, &layout, design, &mut rng)?;
    let player = shaped.player;
    grid.set(player, PLAYER);
    let mut doors = if opts.flag(&shared::DOORS) {
        doors::add(&mut grid, &layout.rooms, |i| shaped.in_vault(i))
    } else {
        Vec::new()
    };
    shaped.cover(&mut grid);
    // One walk from @ serves both `>` and `place`'s `min` when it needs one.
    let blocked_chars = layout
        .blocked
        .clone()
        .unwrap_or_else(|| algorithm.terrain.blocked.to_string());
    let blocked = byte_set(blocked_chars.as_bytes());
    let dist = place::needs_distances(&design.place)
        .then(|| place::walking_distances_by(&grid, player, &blocked));
    let stairs = match (shaped.stairs, layout.stairs) {
        (Some(stairs), _) => stairs,
        (None, Some(stairs)) if design.arrive.is_none() => stairs,
        _ => farthest_floor(&grid, player, dist.as_deref()),
    };
    if stairs == player {
        return Err("no floor cell outside the vaults is left for >".into());
    }
    grid.set(stairs, STAIRS);
    let asked = lock_count(algorithm, opts);
    let locks = (asked > 0).then(|| locks::place(&mut grid, player, stairs, asked, &mut rng));
    let items = items::place(&mut grid, opts.count(&ITEMS), &mut rng)?;
    let placed = place::place(
        &mut grid,
        player,
        &design.place,
        &layout.rooms,
        dist.as_deref(),
        &mut rng,
    )?;
    shaped.uncover(&mut grid);
    shaped.add_doors(&grid, &mut doors);
    let mut rooms = layout.rooms;
    rooms.extend(shaped.vaults().iter().map(|v| v.rect));
    let exits = match with_exits {
        true => Touches::of(&grid, &rooms).into_exits(),
        false => Exits::default(),
    };
    Ok(Level {
        grid,
        seed,
        algorithm: algorithm.name,
        rooms,
        doors,
        player,
        stairs,
        items,
        vaults: shaped.vaults().to_vec(),
        up: design.arrival(),
        placed,
        exits,
        blocked: (blocked_chars != "#").then_some(blocked_chars),
        locks,
    })
}

/// The locks asked for: `locks` where the algorithm declares it (every one
/// of the registry carving from rock does, as its test checks), else none.
fn lock_count(algorithm: &Generator, opts: &Options) -> usize {
    let declared = algorithm
        .options
        .iter()
        .any(|o| o.name == shared::LOCKS.name);
    match declared {
        true => opts.count(&shared::LOCKS),
        false => 0,
    }
}

/// The floor cell with the longest walk from `from` (through every cell
/// but `#`); the first in row order on a tie, `from` when no floor is
/// reached. Read from `dist` when the pipeline walked it for `place`
/// (`place::walking_distances` from `from`), else found by the flood,
/// which stores no distances: the same cell either way.
fn farthest_floor(grid: &Grid, from: Pos, dist: Option<&[u32]>) -> Pos {
    let Some(dist) = dist else {
        return Flood::new(grid, |c| match c {
            WALL => flood::CLOSED,
            FLOOR => flood::WANTED,
            _ => flood::OPEN,
        })
        .farthest(from);
    };
    let mut best: Option<(u32, usize)> = None;
    for (i, (&c, &d)) in grid.cells().iter().zip(dist).enumerate() {
        if c == FLOOR && d != place::FAR && best.is_none_or(|(bd, _)| d > bd) {
            best = Some((d, i));
        }
    }
    best.map_or(from, |(_, i)| grid.pos(i))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generators::LIST;
    use crate::input::Arg;
    use crate::toolkit::reach;

    fn params(width: i64, height: i64, seed: i64) -> Params<'static> {
        Params::new(Arg::Int(width), Arg::Int(height), Arg::Int(seed))
    }

    #[test]
    fn same_seed_same_level() {
        let a = generate(&params(60, 20, 42)).unwrap();
        let b = generate(&params(60, 20, 42)).unwrap();
        assert_eq!(a, b);
        assert_ne!(a.grid, generate(&params(60, 20, 43)).unwrap().grid);
    }

    #[test]
    fn levels_are_whole_bordered_and_reachable() {
        for seed in 0..500 {
            for (w, h) in [(6, 5), (9, 7), (60, 20), (200, 60)] {
                let level = generate(&params(w, h, seed)).unwrap();
                let g = &level.grid;
                assert_eq!((g.width(), g.height()), (w as usize, h as usize));
                for p in (0..g.cells().len()).map(|i| g.pos(i)) {
                    let edge = p.x == 1 || p.y == 1 || p.x == g.width() || p.y == g.height();
                    assert!(
                        !edge || g.get(p) == WALL,
                        "border broken at {p:?}, seed {seed}"
                    );
                }
                assert_eq!(g.get(level.player), PLAYER);
                assert_eq!(g.get(level.stairs), STAIRS);
                assert_eq!(level.items.len(), DEFAULT_ITEMS as usize);
                for item in &level.items {
                    assert_eq!(g.get(item.pos), item.kind);
                }
                let count = |c: u8| g.cells().iter().filter(|&&x| x == c).count();
                assert_eq!((count(PLAYER), count(STAIRS)), (1, 1), "entities stacked");
                assert_eq!(reach::check(g), Ok(()), "seed {seed} {w}x{h}");
            }
        }
    }

    #[test]
    fn options_are_checked() {
        let with = |key: &[u8], value| generate(&params(60, 20, 1).with(key, value)).map(|_| ());
        assert_eq!(
            generate(&params(5, 20, 1)).unwrap_err(),
            "width must be an integer >= 6, got 5"
        );
        assert!(with(b"rooms", Arg::Int(0))
            .unwrap_err()
            .starts_with("rooms must be"));
        assert!(with(b"items", Arg::Int(-1))
            .unwrap_err()
            .starts_with("items must be"));
        assert!(with(b"algorithm", Arg::Str(b"labyrinth"))
            .unwrap_err()
            .contains("\"labyrinth\""));
        assert!(with(b"colour", Arg::Int(1))
            .unwrap_err()
            .starts_with("unknown option \"colour\""));
        assert_eq!(
            with(b"items", Arg::Int(5000))
                .unwrap_err()
                .split(':')
                .next(),
            Some("cannot place 5000 items")
        );
    }

    #[test]
    fn options_that_ask_for_nothing_are_taken_by_every_algorithm() {
        // Each shared name is declared alike wherever it is (asks_for_nothing
        // reads the first declaration).
        for name in all_options() {
            let specs: Vec<_> = LIST
                .iter()
                .flat_map(|a| a.options.iter())
                .filter(|o| o.name == name)
                .collect();
            assert!(
                specs.iter().all(|o| o.nothing() == specs[0].nothing()),
                "{name}"
            );
        }
        let nothing: Vec<_> = all_options()
            .filter(|&n| n != ITEMS.name)
            .filter(|&n| {
                let spec = LIST
                    .iter()
                    .flat_map(|a| a.options.iter())
                    .find(|o| o.name == n);
                spec.unwrap().nothing().is_some()
            })
            .collect();
        assert_eq!(nothing, ["doors", "loops", "locks", "braid", "wraps"]);
        let zero = [
            (b"doors".as_slice(), Arg::Bool(false)),
            (b"loops", Arg::Int(0)),
            (b"loops", Arg::Float(0.0)),
            (b"braid", Arg::Int(0)),
            (b"braid", Arg::Float(-0.0)),
            (b"locks", Arg::Int(0)),
        ];
        for algorithm in LIST {
            let base = Params {
                algorithm: Arg::Str(algorithm.name.as_bytes()),
                ..params(60, 20, 5)
            };
            let plain = generate(&base).unwrap();
            let mut all = base.clone();
            for &(key, value) in &zero {
                let one = generate(&base.clone().with(key, value)).unwrap();
                assert_eq!(one, plain, "{} {value:?}", algorithm.name);
                all.set(key, value);
            }
            assert_eq!(generate(&all).unwrap(), plain, "{}", algorithm.name);
            // A value that asks for something is still refused where it
            // does not apply, and so is an option with no such value at
            // its default.
            let takes = |n: &str| algorithm.options.iter().any(|o| o.name == n);
            for (key, value) in [
                (b"doors".as_slice(), Arg::Bool(true)),
                (b"loops", Arg::Int(1)),
                (b"braid", Arg::Float(0.5)),
                (b"locks", Arg::Int(1)),
                (b"doors", Arg::Int(0)),
                (b"rooms", Arg::Int(10)),
                (b"fill", Arg::Float(0.5)),
            ] {
                let name = std::str::from_utf8(key).unwrap();
                if takes(name) {
                    continue;
                }
                let err = generate(&base.clone().with(key, value)).unwrap_err();
                assert!(
                    err.starts_with(&format!("option {name} applies only to")),
                    "{err}"
                );
            }
        }
    }
}
