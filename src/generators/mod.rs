//! What a generator is: a name, its options, and a function that carves a
//! grid. Each generator is one file here that declares its `GENERATOR`;
//! `generators!` below lists them. What they share while carving is in
//! `shared.rs`; what every level gets after carving (option checks, doors,
//! `@`, `>`, items, metadata) is the level pipeline, `crate::level`.

use crate::grid::{Grid, Pos, Rect};
use crate::rng::Rng;

pub mod shared;

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
    /// Carves the solid (all `#`) `grid` of at least `min_width` x
    /// `min_height`, keeping its one-cell border. Every floor cell must be
    /// reachable from `layout.player`.
    pub carve: fn(&mut Grid, &Options, &mut Rng) -> Result<Layout, String>,
}

/// Where things go, as a generator decides.
pub struct Layout {
    /// The rooms, for `m.rooms` and doors (empty where there are none).
    pub rooms: Vec<Rect>,
    pub player: Pos,
    /// `None`: the shared rule, the floor cell farthest from `@` by walking
    /// distance (the first in row order on a tie).
    pub stairs: Option<Pos>,
}

/// One option: its name, what values it takes, its default and a line of doc.
pub struct OptionSpec {
    pub name: &'static str,
    pub kind: Kind,
    pub default: Default,
    pub doc: &'static str,
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
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Default {
    Int(i64),
    Number(f64),
    Bool(bool),
    /// `min(width, height)`.
    ShorterSide,
}

impl std::fmt::Display for Default {
    /// The default as the docs and `map.describe` show it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Default::Int(i) => write!(f, "{i}"),
            Default::Number(x) => write!(f, "{x}"),
            Default::Bool(b) => write!(f, "{b}"),
            Default::ShorterSide => f.write_str("min(width, height)"),
        }
    }
}

/// A checked value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value {
    Int(i64),
    Number(f64),
    Bool(bool),
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

    fn get(&self, name: &str) -> Option<Value> {
        self.values
            .iter()
            .find(|(n, _)| *n == name)
            .map(|&(_, v)| v)
    }

    /// An integer option the algorithm declared (a bug otherwise).
    pub fn int(&self, name: &str) -> i64 {
        match self.get(name) {
            Some(Value::Int(i)) => i,
            other => panic!("option {name} is not an integer: {other:?}"),
        }
    }

    pub fn number(&self, name: &str) -> f64 {
        match self.get(name) {
            Some(Value::Number(x)) => x,
            other => panic!("option {name} is not a number: {other:?}"),
        }
    }

    /// A boolean option; false when the algorithm has no such option.
    pub fn flag(&self, name: &str) -> bool {
        matches!(self.get(name), Some(Value::Bool(true)))
    }
}

/// What the generators' own tests share: the contract of `carve`.
#[cfg(test)]
pub mod testing {
    use super::{Layout, Options};
    use crate::grid::{Grid, FLOOR, WALL};
    use crate::rng::Rng;
    use crate::toolkit::board::{Walk, UNREACHED};
    use crate::toolkit::distances::distances;

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

    /// The contract every `carve` keeps: only `.` and `#`, the border whole,
    /// at least 2 floor cells, `@` on the floor and every floor cell
    /// reachable from it.
    pub fn check_contract(grid: &Grid, layout: &Layout) {
        let (w, h) = (grid.width(), grid.height());
        let cells = grid.cells();
        assert!(
            cells.iter().all(|&c| c == FLOOR || c == WALL),
            "not only . and #"
        );
        for (i, &c) in cells.iter().enumerate() {
            let p = grid.pos(i);
            if p.x == 1 || p.y == 1 || p.x == w || p.y == h {
                assert_eq!(c, WALL, "border broken at {p:?}");
            }
        }
        assert!(
            cells.iter().filter(|&&c| c == FLOOR).count() >= 2,
            "fewer than 2 floor cells"
        );
        assert_eq!(grid.get(layout.player), FLOOR, "@ not on the floor");
        let dist = distances(grid, &[layout.player], &Walk::new());
        assert!(
            (0..cells.len()).all(|i| cells[i] != FLOOR || dist[i] != UNREACHED),
            "unreachable floor"
        );
    }
}
