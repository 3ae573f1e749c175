//! What a generator is: a name, its options, and a function that carves a
//! grid. Each generator is one file here that declares its `GENERATOR`;
//! `generators!` below lists them. What they share while carving is in
//! `shared.rs`; what every level gets after carving (option checks, doors,
//! `@`, `>`, items, metadata) is the level pipeline, `level/`, which uses this
//! folder (never the other way round).

use crate::grid::{Grid, Pos, Rect};
use crate::rng::Rng;

pub mod loops;
pub mod shared;
pub mod touches;

/// Declares the generator modules and `LIST`, the list of them, in one place.
macro_rules! generators {
    ($($name:ident),* $(,)?) => {
        $(pub mod $name;)*
        /// Every generator, in the order `map.ALGORITHMS` lists them; the
        /// first is the default.
        pub const LIST: &[&Generator] = &[$(&$name::GENERATOR),*];
    };
}

// Adding a generator: a new file declaring its `GENERATOR`, and its name here.
generators! {
    rooms,
    cave,
    bsp,
    cellular,
    drunkard,
    maze,
    overworld,
    example,
}

/// The generator called `name`.
pub fn find(name: &[u8]) -> Option<&'static Generator> {
    LIST.iter().copied().find(|g| g.name.as_bytes() == name)
}

pub struct Generator {
    pub name: &'static str,
    /// One line for the docs, the CLI and the server's form.
    pub doc: &'static str,
    pub min_width: usize,
    pub min_height: usize,
    /// The generator's own options; `items` (every generator) is added by
    /// the level pipeline. An option called `doors` makes the pipeline turn
    /// corridor openings in the rooms' walls into doors.
    pub options: &'static [OptionSpec],
    /// The characters it carves and which of them block walking.
    pub terrain: &'static Terrain,
    /// Whether it promises to hide cells from `@`: on maps of at least
    /// `testing::HIDDEN_MIN_SIZE` (both sides), at least
    /// `testing::HIDDEN_FLOOR` floor cells out of `@`'s sight as `place`
    /// sees it (unlimited, `#` and `+` opaque), so that `place = {{...,
    /// hidden = true}}` finds some. The registry's test holds every
    /// generator that declares it to that; one that does not (an open
    /// arena, the overworld) may keep all its floor in sight, and `place`
    /// asking it for hidden cells is refused before anything is made.
    pub hides: bool,
    /// Carves the solid (all `#`) `grid` of at least `min_width` x
    /// `min_height`, keeping its one-cell border. Every floor cell must be
    /// reachable from `layout.player`.
    pub carve: fn(&mut Grid, &Options, &mut Rng) -> Result<Layout, String>,
    /// The memory `carve` needs beyond `level::bound` for these options on
    /// a `width` x `height` map, which the pipeline checks is free with
    /// the level's before anything is made; an error refuses the request
    /// (what the generator cannot make at that size). `no_bound`: none.
    pub bound: fn(&Options, (usize, usize)) -> Result<usize, String>,
}

/// The `bound` of a generator whose memory is the level's alone.
pub fn no_bound(_: &Options, _: (usize, usize)) -> Result<usize, String> {
    Ok(0)
}

/// What a generator's cells may be: the characters `carve` leaves, those
/// that block walking (the level's `blocked`, `#` on levels carved from
/// rock) and the one its border is made of.
pub struct Terrain {
    pub chars: &'static [u8],
    pub blocked: &'static str,
    pub border: u8,
}

/// The terrain of the levels carved from rock: floor and wall.
pub const ROCK: Terrain = Terrain {
    chars: b".#",
    blocked: "#",
    border: crate::grid::WALL,
};

impl Generator {
    /// Whether its levels are carved from rock (`ROCK`): vaults, `arrive`
    /// and their tunnels need rock to dig through.
    pub fn carves_rock(&self) -> bool {
        self.terrain.chars == ROCK.chars && self.terrain.blocked == ROCK.blocked
    }
}

/// Where things go, as a generator decides.
pub struct Layout {
    /// The rooms, for `m.rooms` and doors (empty where there are none).
    pub rooms: Vec<Rect>,
    pub player: Pos,
    /// `None`: the shared rule, the floor cell farthest from `@` by walking
    /// distance (the first in row order on a tie).
    pub stairs: Option<Pos>,
    /// The characters that block walking on this level, where they are
    /// not its terrain's (a sample's, `example`).
    pub blocked: Option<String>,
}

/// One option: its name, what values it takes, its default and a line of doc.
pub struct OptionSpec {
    pub name: &'static str,
    pub kind: Kind,
    pub default: Default,
    pub doc: &'static str,
}

impl OptionSpec {
    /// The value that asks for nothing: `false` for a switch that is off by
    /// default, 0 for a count or fraction whose default and least value are
    /// 0 (`doors = false`, `loops = 0`, `braid = 0`). An algorithm that does
    /// not take the option accepts it at this value, so that one table of
    /// options serves every algorithm (a game's per-depth settings); `None`
    /// where every value asks for something (`rooms`, `fill`).
    pub fn nothing(&self) -> Option<Value> {
        match (self.kind, self.default) {
            (Kind::Bool, Default::Bool(false)) => Some(Value::Bool(false)),
            (Kind::Int { min: 0, .. }, Default::Int(0)) => Some(Value::Int(0)),
            (
                Kind::Number {
                    min,
                    open_min: false,
                    ..
                },
                Default::Number(d),
            ) if min == 0.0 && d == 0.0 => Some(Value::Number(0.0)),
            _ => None,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Kind {
    /// An integer in `min..=max`.
    Int {
        min: i64,
        max: i64,
    },
    /// A number in `[min, max]`, or `(min, max]` when `open_min`.
    Number {
        min: f64,
        max: f64,
        open_min: bool,
    },
    Bool,
    /// A string of at most `max` bytes (a sample, a template, a name);
    /// with `rows`, also an array of strings, its rows, which the front end
    /// joins with newlines within the same bound (`level::rows`).
    Text {
        max: usize,
        rows: bool,
    },
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Default {
    Int(i64),
    Number(f64),
    Bool(bool),
    Text(&'static str),
    /// `min(width, height)`.
    ShorterSide,
}

impl Default {
    /// The value on a map whose shorter side is `shorter_side`.
    pub fn value(self, shorter_side: usize) -> Value {
        match self {
            Default::Int(i) => Value::Int(i),
            Default::Number(x) => Value::Number(x),
            Default::Bool(b) => Value::Bool(b),
            Default::Text(t) => Value::Text(t.as_bytes().to_vec()),
            Default::ShorterSide => Value::Int(shorter_side as i64),
        }
    }
}

impl std::fmt::Display for Default {
    /// The default as the docs and `map.describe` show it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Default::Int(i) => write!(f, "{i}"),
            Default::Number(x) => write!(f, "{x}"),
            Default::Bool(b) => write!(f, "{b}"),
            Default::Text(t) => write!(f, "{t:?}"),
            Default::ShorterSide => f.write_str("min(width, height)"),
        }
    }
}

/// A checked value.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Int(i64),
    Number(f64),
    Bool(bool),
    Text(Vec<u8>),
}

/// An algorithm's options, checked, with defaults filled in.
#[derive(Debug, Default)]
pub struct Options {
    values: Vec<(&'static str, Value)>,
}

impl Options {
    pub fn new(values: Vec<(&'static str, Value)>) -> Options {
        Options { values }
    }

    fn get(&self, spec: &OptionSpec) -> Option<&Value> {
        self.values
            .iter()
            .find(|(n, _)| *n == spec.name)
            .map(|(_, v)| v)
    }

    /// An integer option the algorithm declared. Options are looked up by
    /// their declaration (`OptionSpec`), never by a name typed again, so a
    /// misspelt name cannot compile; reading an option the generator did not
    /// declare panics, which the registry's contract test (`testing`) would
    /// show at once.
    pub fn int(&self, spec: &OptionSpec) -> i64 {
        match self.get(spec) {
            Some(&Value::Int(i)) => i,
            other => panic!("option {} is not an integer: {other:?}", spec.name),
        }
    }

    /// An integer option that counts something (its range starts at 0 or more).
    pub fn count(&self, spec: &OptionSpec) -> usize {
        self.int(spec) as usize
    }

    pub fn number(&self, spec: &OptionSpec) -> f64 {
        match self.get(spec) {
            Some(&Value::Number(x)) => x,
            other => panic!("option {} is not a number: {other:?}", spec.name),
        }
    }

    /// A boolean option; false when the algorithm has no such option.
    pub fn flag(&self, spec: &OptionSpec) -> bool {
        matches!(self.get(spec), Some(Value::Bool(true)))
    }

    /// A text option the algorithm declared.
    pub fn text(&self, spec: &OptionSpec) -> &[u8] {
        match self.get(spec) {
            Some(Value::Text(t)) => t,
            other => panic!("option {} is not text: {other:?}", spec.name),
        }
    }
}

/// What the generators' own tests share: the contract of `carve`, and
/// the test that every generator of the registry keeps it.
#[cfg(test)]
pub mod testing {
    use super::{Generator, Layout, Options, Terrain, LIST, ROCK};
    use crate::grid::{byte_set, Grid, FLOOR, WALL};
    use crate::rng::Rng;
    use crate::toolkit::board::{Walk, UNREACHED};
    use crate::toolkit::distances::distances;
    use crate::toolkit::fov;

    /// The options `generator` declares, each its default on a `w` x `h` map.
    pub fn defaults(generator: &Generator, (w, h): (usize, usize)) -> Options {
        let values = generator.options.iter();
        Options::new(
            values
                .map(|o| (o.name, o.default.value(w.min(h))))
                .collect(),
        )
    }

    /// `carve` run on a solid `w` x `h` grid.
    pub fn run(
        carve: fn(&mut Grid, &Options, &mut Rng) -> Result<Layout, String>,
        (w, h): (usize, usize),
        seed: i64,
        options: &Options,
    ) -> (Grid, Layout) {
        let mut grid = Grid::new(w, h, WALL);
        let layout = carve(&mut grid, options, &mut Rng::new(seed)).expect("carves");
        (grid, layout)
    }

    /// The contract every `carve` keeps on rock (`check_terrain_contract`
    /// with `ROCK`): only `.` and `#`, the border whole, ...
    pub fn check_contract(grid: &Grid, layout: &Layout) {
        check_terrain_contract(grid, layout, &ROCK);
    }

    /// The contract every `carve` keeps: only its terrain's characters,
    /// the border whole (of its border character), at least 2 cells that do
    /// not block walking, `@` on the floor and every such cell reachable
    /// from it (4-neighbour steps through all but `terrain.blocked`).
    pub fn check_terrain_contract(grid: &Grid, layout: &Layout, terrain: &Terrain) {
        let (w, h) = (grid.width(), grid.height());
        let cells = grid.cells();
        let chars = byte_set(terrain.chars);
        assert!(
            cells.iter().all(|&c| chars[c as usize]),
            "not only {:?}",
            String::from_utf8_lossy(terrain.chars)
        );
        for (i, &c) in cells.iter().enumerate() {
            let p = grid.pos(i);
            if p.x == 1 || p.y == 1 || p.x == w || p.y == h {
                assert_eq!(c, terrain.border, "border broken at {p:?}");
            }
        }
        let blocked = byte_set(terrain.blocked.as_bytes());
        let open = |c: u8| !blocked[c as usize];
        assert!(
            cells.iter().filter(|&&c| open(c)).count() >= 2,
            "fewer than 2 floor cells"
        );
        assert_eq!(grid.get(layout.player), FLOOR, "@ not on the floor");
        let mut walk = Walk::new();
        walk.blocked = blocked;
        let dist = distances(grid, &[layout.player], &walk);
        assert!(
            (0..cells.len()).all(|i| !open(cells[i]) || dist[i] != UNREACHED),
            "unreachable floor"
        );
        if let Some(stairs) = layout.stairs {
            assert!(
                open(grid.get(stairs)) && stairs != layout.player,
                "> at {stairs:?}"
            );
        }
    }

    /// The hidden contract of a generator that declares it hides
    /// (`Generator::hides`): on a map of at least `HIDDEN_MIN_SIZE` (both
    /// sides), at least `HIDDEN_FLOOR` floor cells lie out of `@`'s sight
    /// (`fov`, unlimited, `#` opaque: the sight `place ... hidden` uses, on
    /// the carved map, before doors, which only hide more). An open arena
    /// breaks it, and so does not declare it: `place = {{..., hidden =
    /// true}}` would find nothing there, and is refused on it;
    /// spec/design_spec.lua asks for 6 such cells on maps of 60x30 and more.
    pub const HIDDEN_MIN_SIZE: (usize, usize) = (40, 20);
    pub const HIDDEN_FLOOR: usize = 10;

    /// How many floor cells `@` does not see.
    pub fn hidden_floor(grid: &Grid, layout: &Layout) -> usize {
        let seen = fov::visible(grid, layout.player, None, &byte_set(b"#+"));
        let floor = grid.cells().iter().zip(&seen);
        floor.filter(|&(&c, &s)| c == FLOOR && !s).count()
    }

    /// Sizes from each generator's smallest to long and thin ones (the
    /// contract: every carve on a map of at least 12x9 succeeds).
    fn sizes(generator: &Generator) -> Vec<(usize, usize)> {
        let (w, h) = (generator.min_width, generator.min_height);
        vec![
            (w, h),
            (w + 1, h + 2),
            (w.max(12), h.max(9)),
            (HIDDEN_MIN_SIZE.0, HIDDEN_MIN_SIZE.1),
            (60, 30),
            (80, 50),
            (200, 30),
            (w.max(7), 150),
        ]
    }

    /// The contract of a generator, on 30 seeds of each of its `sizes` at
    /// its options' defaults: `check_terrain_contract` on every map, and
    /// the hidden floor on those of `HIDDEN_MIN_SIZE` and more when it
    /// declares it hides. The registry's test runs it over every generator
    /// of the list; a test's own generator (level/tests_by_generator.rs)
    /// runs it too.
    pub fn check_generator(generator: &Generator) {
        for (w, h) in sizes(generator) {
            for seed in 0..30 {
                let options = defaults(generator, (w, h));
                let case = format!("{} {w}x{h} seed {seed}", generator.name);
                let mut grid = Grid::new(w, h, WALL);
                let carved = (generator.carve)(&mut grid, &options, &mut Rng::new(seed));
                // A carve may refuse a map too small for its options
                // (cave's `fill` on 3x3), with a message; never one of 12x9.
                let layout = match carved {
                    Ok(layout) => layout,
                    Err(e) => {
                        assert!(w < 12 || h < 9, "{case}: refused: {e}");
                        assert!(!e.is_empty(), "{case}: an empty message");
                        continue;
                    }
                };
                assert_eq!((grid.width(), grid.height()), (w, h), "{case}");
                check_terrain_contract(&grid, &layout, generator.terrain);
                if generator.hides && w >= HIDDEN_MIN_SIZE.0 && h >= HIDDEN_MIN_SIZE.1 {
                    let hidden = hidden_floor(&grid, &layout);
                    assert!(
                        hidden >= HIDDEN_FLOOR,
                        "{case}: only {hidden} floor cells hidden from @, and it declares it hides"
                    );
                }
            }
        }
    }

    #[test]
    fn every_generator_of_the_registry_keeps_the_contract() {
        for generator in LIST {
            check_generator(generator);
        }
        assert!(LIST.iter().any(|g| g.hides), "no generator hides");
        // `locks` needs rock to put its doors in, and every level of rock takes it.
        for generator in LIST {
            let locks = generator.options.iter().any(|o| o.name == "locks");
            assert_eq!(locks, generator.carves_rock(), "{}", generator.name);
        }
    }

    /// `cargo test hidden_floor_margin -- --ignored --nocapture`: the fewest
    /// hidden floor cells each generator left, the margin `HIDDEN_FLOOR` has.
    #[test]
    #[ignore]
    fn hidden_floor_margin() {
        for generator in LIST.iter().filter(|g| g.hides) {
            let fewest = (0..1000)
                .map(|seed| {
                    let size = HIDDEN_MIN_SIZE;
                    let (grid, layout) =
                        run(generator.carve, size, seed, &defaults(generator, size));
                    hidden_floor(&grid, &layout)
                })
                .min();
            println!(
                "{}: at least {fewest:?} hidden floor cells at 40x20",
                generator.name
            );
        }
    }
}
