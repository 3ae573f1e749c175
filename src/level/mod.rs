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
pub mod place;
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

use crate::generators::{self, shared, Default, Generator, Kind, Options, Value, LIST};
use crate::grid::{byte_set, Grid, Pos, Rect, FLOOR, PLAYER, STAIRS, WALL};
use crate::input::{self, Arg};
use crate::memory;
use crate::rng::Rng;
use crate::toolkit::flood::{self, Flood};
use design::Design;
use exits::{Exits, Touches};
use items::Item;
use place::Placed;
use vaults::Vault;

/// The option every algorithm takes, checked by the shared code.
pub const ITEMS: generators::OptionSpec = generators::OptionSpec {
    name: "items",
    kind: Kind::Int {
        min: 0,
        max: MAX_ITEMS,
    },
    default: Default::Int(DEFAULT_ITEMS),
    doc: "items ($ or !) on distinct floor cells; more than the free floor is an error",
};
pub const DEFAULT_ITEMS: i64 = 5;
/// The most items one level may ask for: their Lua tables (about 100 bytes
/// each) stay a few MiB, where the free floor of a 2000x2000 cave (4 million)
/// made a 700 MB Lua heap.
pub const MAX_ITEMS: i64 = 10_000;

/// The parameters as given; `Missing` where the caller left one out.
#[derive(Clone, Debug, Default)]
pub struct Params<'a> {
    pub width: Arg<'a>,
    pub height: Arg<'a>,
    pub seed: Arg<'a>,
    pub algorithm: Arg<'a>,
    /// The algorithms' options given, by name (each name at most once).
    pub options: Vec<(&'static str, Arg<'a>)>,
    /// The first (bytewise) of the unknown option names given, if any: the
    /// error names it whatever order the caller's table is traversed in.
    pub unknown: Option<&'a [u8]>,
    /// `vaults`, `arrive` and `place`, read by the binding.
    pub design: Design,
    /// Names the caller takes besides (`map.level`'s `things`), listed
    /// with the options when one given is unknown.
    pub also: &'static [&'static str],
}

impl<'a> Params<'a> {
    /// `width`, `height` and `seed`, the positional form.
    pub fn new(width: Arg<'a>, height: Arg<'a>, seed: Arg<'a>) -> Params<'a> {
        Params {
            width,
            height,
            seed,
            ..Params::default()
        }
    }

    /// The option called `name` as given (`Missing` if it was not).
    pub fn option(&self, name: &str) -> Arg<'a> {
        self.options
            .iter()
            .find(|&&(n, _)| n == name)
            .map_or(Arg::Missing, |&(_, a)| a)
    }

    /// The same parameters with one more option set.
    pub fn with(mut self, key: &'a [u8], value: Arg<'a>) -> Params<'a> {
        self.set(key, value);
        self
    }

    /// Sets one named option, as from `generate{key = value}`. Unknown names
    /// are reported by `generate`, after all options are in.
    pub fn set(&mut self, key: &'a [u8], value: Arg<'a>) {
        let slot = match key {
            b"width" => &mut self.width,
            b"height" => &mut self.height,
            b"seed" => &mut self.seed,
            b"algorithm" => &mut self.algorithm,
            _ => match option_name(key) {
                // A design option: the binding reads a table; `check` reports anything else.
                Some(name) if design::NAMES.contains(&name) => {
                    let type_name = (value != Arg::Missing).then(|| value.type_name());
                    self.design.given(name, type_name);
                    return;
                }
                Some(name) => {
                    // nil is as good as absent, as in a Lua table.
                    self.options.retain(|&(n, _)| n != name);
                    if value != Arg::Missing {
                        self.options.push((name, value));
                    }
                    return;
                }
                None => {
                    if self.unknown.is_none_or(|u| key < u) {
                        self.unknown = Some(key);
                    }
                    return;
                }
            },
        };
        *slot = value;
    }
}

/// The name as the registry spells it, if some algorithm (or the shared
/// code) takes an option so called, or it is a design option.
fn option_name(key: &[u8]) -> Option<&'static str> {
    all_options()
        .chain(design::NAMES)
        .find(|&n| n.as_bytes() == key)
}

/// Every option name, in registry order, each once.
pub fn all_options() -> impl Iterator<Item = &'static str> {
    let names = LIST
        .iter()
        .flat_map(|a| a.options.iter().map(|o| o.name))
        .chain([ITEMS.name]);
    let mut seen: Vec<&str> = Vec::new();
    names.filter(move |n| {
        let new = !seen.contains(n);
        if new {
            seen.push(n);
        }
        new
    })
}

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
}

impl Level {
    /// The characters that block walking on it, when not `#` alone (the
    /// table's `blocked`): its generator's.
    pub fn blocked(&self) -> Option<&'static str> {
        generators::find(self.algorithm.as_bytes())
            .filter(|g| !g.carves_rock())
            .map(|g| g.terrain.blocked)
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
    foreign_options(algorithm, params)?;
    let (width, height) = input::size(
        params.width,
        params.height,
        algorithm.min_width as i64,
        algorithm.min_height as i64,
    )?;
    let seed = input::seed(params.seed)?;
    let opts = checked(algorithm, params, width.min(height))?;
    // What cannot be asked of the algorithm at all, before how it is asked.
    off_rock(algorithm, &params.design)?;
    params.design.check_hidden(algorithm)?;
    params.design.check(width, height)?;
    memory::check(bound(width * height) + params.design.bound(width * height))?;
    build(
        algorithm,
        width,
        height,
        seed,
        &opts,
        &params.design,
        with_exits,
    )
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

/// The algorithm asked for; the first in the list when none is.
pub fn chosen(arg: Arg) -> Result<&'static Generator, String> {
    match arg {
        Arg::Missing => Some(LIST[0]),
        Arg::Str(name) => generators::find(name),
        _ => None,
    }
    .ok_or_else(|| {
        let names: Vec<String> = LIST.iter().map(|a| format!("\"{}\"", a.name)).collect();
        format!("algorithm must be {}, got {arg}", listed(&names, "or"))
    })
}

/// An error naming the first option given (in registry order) that only
/// other algorithms take, unless its value asks for nothing
/// (`OptionSpec::nothing`: `doors = false` on a cave is accepted, and
/// ignored: the map is the one made without it).
fn foreign_options(algorithm: &Generator, params: &Params) -> Result<(), String> {
    if params.options.is_empty() {
        return Ok(());
    }
    let takes = |name: &str| name == ITEMS.name || algorithm.options.iter().any(|o| o.name == name);
    let refused = |name: &str| {
        let given = params.option(name);
        !takes(name) && given != Arg::Missing && !asks_for_nothing(name, given)
    };
    if let Some(name) = all_options().find(|&n| refused(n)) {
        let owners: Vec<String> = LIST
            .iter()
            .filter(|a| a.options.iter().any(|o| o.name == name))
            .map(|a| format!("\"{}\"", a.name))
            .collect();
        let s = if owners.len() == 1 { "" } else { "s" };
        return Err(format!(
            "option {name} applies only to algorithm{s} {}",
            listed(&owners, "and")
        ));
    }
    Ok(())
}

/// Whether `arg` is the value of option `name` that asks for nothing, as
/// the first algorithm declaring it checks it (`loops = 0.0` is `loops = 0`).
fn asks_for_nothing(name: &str, arg: Arg) -> bool {
    let spec = LIST
        .iter()
        .flat_map(|a| a.options.iter())
        .find(|o| o.name == name);
    spec.is_some_and(|spec| {
        spec.nothing()
            .is_some_and(|nothing| check(name, spec.kind, arg).ok() == Some(nothing))
    })
}

/// "a", "a and b", "a, b and c" (or another conjunction).
fn listed(words: &[String], conjunction: &str) -> String {
    match words.split_last() {
        Some((last, rest)) if !rest.is_empty() => {
            format!("{} {conjunction} {last}", rest.join(", "))
        }
        Some((last, _)) => last.clone(),
        None => String::new(),
    }
}

/// The algorithm's options and `items`, in declaration order, each the
/// value given or its default.
fn checked(algorithm: &Generator, given: &Params, shorter_side: usize) -> Result<Options, String> {
    let specs = algorithm.options.iter().chain([&ITEMS]);
    let mut values = Vec::with_capacity(algorithm.options.len() + 1);
    for spec in specs {
        let arg = given.option(spec.name);
        let value = match arg {
            Arg::Missing => spec.default.value(shorter_side),
            _ => check(spec.name, spec.kind, arg)?,
        };
        values.push((spec.name, value));
    }
    Ok(Options::new(values))
}

/// One given value against its kind, with the message every front end shows.
fn check(name: &str, kind: Kind, arg: Arg) -> Result<Value, String> {
    match kind {
        Kind::Int { min, max } => input::int_in(name, arg, min, max).map(Value::Int),
        Kind::Number { min, max, open_min } => {
            let x = match arg {
                Arg::Int(i) => Some(i as f64),
                Arg::Float(x) => Some(x),
                _ => None,
            };
            match x {
                Some(x) if (x > min || (!open_min && x == min)) && x <= max => Ok(Value::Number(x)),
                _ => {
                    let open = if open_min { "(" } else { "[" };
                    Err(format!(
                        "{name} must be a number in {open}{min}, {max}], got {arg}"
                    ))
                }
            }
        }
        Kind::Bool => match arg {
            Arg::Bool(b) => Ok(Value::Bool(b)),
            _ => Err(format!("{name} must be a boolean, got {arg}")),
        },
    }
}

/// Carves, then stamps the vaults and joins them, `arrive` and whatever
/// they cut off; then puts `@`, doors, `>`, the items and the placed cells,
/// and lists the rooms' exits. The draws, in order: the generator's own,
/// the vaults' (`vaults::stamp`), the items', then `place`'s.
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
    let blocked = byte_set(algorithm.terrain.blocked.as_bytes());
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
    let items = items::place(&mut grid, opts.count(&ITEMS), &mut rng)?;
    let placed = place::place(&mut grid, player, &design.place, dist.as_deref(), &mut rng)?;
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
    })
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
        assert_eq!(nothing, ["doors", "loops", "braid"]);
        let zero = [
            (b"doors".as_slice(), Arg::Bool(false)),
            (b"loops", Arg::Int(0)),
            (b"loops", Arg::Float(0.0)),
            (b"braid", Arg::Int(0)),
            (b"braid", Arg::Float(-0.0)),
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
