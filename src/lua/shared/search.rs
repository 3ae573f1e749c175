//! What every search is given: its sources (read by `positions.rs`), its
//! options (avoid, blocked, cost, diagonal, factor, known, max), the
//! limits they set over a window, and the window a search within `max`
//! can reach.

use std::ffi::c_int;

use super::options::{cost_table, read_options, string_option};
use super::positions::{avoid_shape, each_position, sources, sources_shape, PositionsShape};
use crate::grid::{byte_set, Pos, Rect};
use crate::input::{int_in, Arg};
use crate::lua::stack::block::what;
use crate::lua::stack::{Args, Field, Key};
use crate::memory;
use crate::native::field::Field as NativeField;
use crate::native::Bits;
use crate::toolkit::board::{Charges, Limits, Source, Walk, MAX_COST};
use crate::toolkit::distances::{self, search_window, within};
use crate::toolkit::flee::{DEFAULT_FACTOR, FACTORS};

/// The options of `distances` and `path` (whose `diagonal` may be a cost
/// and `occupied` too, with `straight`), and of `flee` (with `factor`).
pub const DISTANCES: &[&str] = &[
    "avoid", "blocked", "cost", "diagonal", "known", "max", "straight",
];
pub const FLEE: &[&str] = &[
    "avoid", "blocked", "cost", "diagonal", "factor", "known", "max",
];

/// What the options of a function that walks say, read before anything
/// proportional to the map: the walk, `max`, `factor`, and the shapes of
/// `avoid` and `known`, whose cells `limits` reads once the memory bound
/// is checked.
pub struct Search {
    pub walk: Walk,
    pub max: Option<i64>,
    pub factor: f64,
    /// The options table's argument index, and whether `avoid` (of what
    /// shape) and `known` were given.
    options_at: c_int,
    avoid: Option<PositionsShape>,
    known: bool,
    /// A level's occupied cells are closed (`{occupied = true}`).
    occupied: bool,
    /// What steps cost besides their cells (`diagonal`, `straight` and
    /// `occupied` as integers, for the functions that take `straight`):
    /// the factors of straight and diagonal steps, and the extra cost of
    /// entering an occupied cell (0: none).
    pub charged: (u64, u64, u64),
    /// A cell `occupied` never closes: the goal of `path` (`open_goal`).
    open: Option<Pos>,
}

/// `accepted`, and on a level `occupied` too, in order.
pub fn with_occupied(args: &Args, accepted: &[&'static str]) -> Vec<&'static str> {
    let mut names = accepted.to_vec();
    if args.is_method() {
        names.push("occupied");
        names.sort_unstable();
    }
    names
}

/// The walk the map at argument 1 asks for: its `blocked` (`#` if it
/// says nothing), in one step.
pub fn map_walk(args: &Args) -> Result<Walk, String> {
    let mut walk = Walk::new();
    if let Some(chars) = args.map_blocked(1)? {
        walk.blocked = byte_set(chars);
    }
    Ok(walk)
}

/// The options at `index` of a function that walks: those of `accepted`
/// (sorted) among avoid, blocked, cost, diagonal, factor, known and max.
pub fn search_options(
    args: &Args,
    index: c_int,
    accepted: &[&'static str],
) -> Result<Search, String> {
    let mut search = Search {
        walk: map_walk(args)?,
        max: None,
        factor: DEFAULT_FACTOR,
        options_at: index,
        avoid: None,
        known: false,
        occupied: false,
        charged: (1, 1, 0),
        open: None,
    };
    let mut cost_at = None;
    // Without options no name is looked up: the list is not made.
    let on_level = match args.get(index) {
        Arg::Missing => Vec::new(),
        _ => with_occupied(args, accepted),
    };
    // `distances` and `path` charge steps: `diagonal` and `occupied` may be
    // costs there.
    let charges = accepted.contains(&"straight");
    read_options(args, index, &on_level, |name, value| {
        match name {
            "blocked" => search.walk.blocked = byte_set(string_option(name, value)?),
            "diagonal" => match value {
                Arg::Bool(b) => search.walk.diagonal = b,
                v if charges && v.integer().is_some() => {
                    search.walk.diagonal = true;
                    search.charged.1 = step_factor(name, value, "a boolean or an integer")?;
                }
                other if charges => {
                    step_factor(name, other, "a boolean or an integer").map(drop)?
                }
                other => return Err(format!("diagonal must be a boolean, got {other}")),
            },
            "straight" => search.charged.0 = step_factor(name, value, "an integer")?,
            "max" => search.max = Some(int_in(name, value, 0, i64::MAX)?),
            "factor" => search.factor = factor(value)?,
            "avoid" => {
                let shape = args.with_field(index, Key::Field(Field::Avoid), avoid_shape)?;
                search.avoid = Some(shape);
            }
            "occupied" => match value {
                Arg::Bool(b) => search.occupied = b,
                v if charges && v.integer().is_some() => {
                    search.charged.2 = step_factor(name, value, "a boolean or an integer")?
                }
                other if charges => {
                    step_factor(name, other, "a boolean or an integer").map(drop)?
                }
                other => return Err(format!("occupied must be a boolean, got {other}")),
            },
            "known" if matches!(value, Arg::Other("table")) => search.known = true,
            "known" if args.is_method() && known_is_field(args, index) => search.known = true,
            "known" => {
                let got = args.with_field(index, Key::Field(Field::Known), what);
                return Err(format!("known must be a table of rows, got {got}"));
            }
            _ => cost_at = Some(value),
        }
        Ok(())
    })?;
    if let Some(value) = cost_at {
        if !matches!(value, Arg::Other("table")) {
            return Err(format!(
                "cost must be a table from characters to integers, got {}",
                value.type_name()
            ));
        }
        let costs = args.with_field(index, Key::Field(Field::Cost), cost_table)?;
        search.walk.cost = Some(Box::new(costs));
    }
    search.check_charges()?;
    Ok(search)
}

/// A step's factor or an occupied cell's extra cost: an integer from 1 to
/// `MAX_COST` (the option being `what`, for the message).
fn step_factor(name: &str, value: Arg, what: &str) -> Result<u64, String> {
    match value.integer() {
        Some(i) if (1..=MAX_COST as i64).contains(&i) => Ok(i as u64),
        _ => Err(format!(
            "{name} must be {what} from 1 to {MAX_COST}, got {value}"
        )),
    }
}

impl Search {
    /// Whether steps are charged besides their cells' costs (a weighted
    /// search).
    pub fn charges(&self) -> bool {
        self.charged != (1, 1, 0)
    }

    /// Whether the search is Dijkstra's: costs, or charged steps.
    pub fn weighted(&self) -> bool {
        self.walk.cost.is_some() || self.charges()
    }

    /// The costliest step `diagonal`, `straight`, `occupied` and `cost`
    /// together allow must cost at most `MAX_COST`, so that every sum stays
    /// exact.
    fn check_charges(&self) -> Result<(), String> {
        if !self.charges() {
            return Ok(());
        }
        let (straight, diagonal, extra) = self.charged;
        let dearest = match &self.walk.cost {
            Some(costs) => (0..256)
                .filter(|&c| !self.walk.blocked[c])
                .map(|c| costs[c])
                .max()
                .unwrap_or(1),
            None => 1,
        };
        let factor = if self.walk.diagonal {
            straight.max(diagonal)
        } else {
            straight
        };
        let step = (dearest + extra).saturating_mul(factor);
        if step > MAX_COST {
            return Err(format!(
                "the costliest step (cost {dearest}{}, times {factor}) is {step}: it must be at most {MAX_COST}",
                if extra > 0 { format!(" + occupied {extra}") } else { String::new() }
            ));
        }
        Ok(())
    }

    /// `occupied` (true) does not close `goal`: a path may end on an
    /// occupied cell, as it may start on one.
    pub fn open_goal(&mut self, goal: Pos) {
        self.open = Some(goal);
    }

    /// The charges of a search over `window` on the level at 1: the
    /// factors, and the occupied cells of the window with their extra cost
    /// (`Charges::none` when nothing is charged).
    pub fn charges_in(&self, args: &Args, window: Rect) -> Charges {
        let (straight, diagonal, extra) = self.charged;
        let mut costly = Vec::new();
        if extra > 0 {
            let level = args
                .level_at(1)
                .expect("occupied is an option of levels only");
            costly = window.cells().map(|p| level.occupied(p)).collect();
        }
        Charges {
            straight,
            diagonal,
            extra,
            costly,
        }
    }

    /// The limits of a search over `window` of a map of `size`: the cells
    /// of the window that an `avoid` entry names or that `known` does not
    /// mark, row-major (empty when neither was given), and `max`. Every
    /// `avoid` entry is checked against the whole map; `known` is read
    /// only over the window.
    pub fn limits(
        &self,
        args: &Args,
        window: Rect,
        size: (usize, usize),
    ) -> Result<Limits, String> {
        let mut closed = Vec::new();
        if self.avoid.is_some() {
            closed = vec![false; window.w * window.h];
            self.each_avoided(args, size, |p| {
                if window.contains(p) {
                    let q = window.inside(p);
                    closed[(q.y - 1) * window.w + q.x - 1] = true;
                }
            })?;
        }
        self.close_unknown(args, window, closed)
    }

    /// Each cell an `avoid` entry names (none without `avoid`), every
    /// entry checked against the whole map of `size`.
    fn each_avoided(
        &self,
        args: &Args,
        size: (usize, usize),
        mut each: impl FnMut(Pos),
    ) -> Result<(), String> {
        let Some(shape) = self.avoid else {
            return Ok(());
        };
        args.with_field(self.options_at, Key::Field(Field::Avoid), |a, top| {
            each_position(a, top, shape, "avoid", size, |_, _, p, _| {
                each(p);
                Ok(())
            })
        })
    }

    /// Whether `occupied` was given true, which is then left to the
    /// caller (`level:steps` tracks its own moves).
    pub fn take_occupied(&mut self) -> bool {
        std::mem::take(&mut self.occupied)
    }

    /// `known`, when given as a field (checked against a map of `size`).
    pub fn known_field<'a>(
        &self,
        args: &'a Args,
        size: (usize, usize),
    ) -> Result<Option<&'a NativeField>, String> {
        if !self.known {
            return Ok(None);
        }
        let field = args.with_field(self.options_at, Key::Field(Field::Known), |a, top| {
            a.native_ref::<NativeField>(top)
        });
        match field {
            Some(f) if f.size != size => Err(format!(
                "known is a field of {}x{}, the level is {}x{}",
                f.size.0, f.size.1, size.0, size.1
            )),
            Some(f) if !f.is_flags() => {
                Err("known must be a field of flags (fov, a memory), got a field of values".into())
            }
            other => Ok(other),
        }
    }

    /// The cells of `window` that the table `known` marks, row-major.
    pub fn known_in(&self, args: &Args, window: Rect) -> Result<Vec<bool>, String> {
        args.with_field(self.options_at, Key::Field(Field::Known), |a, top| {
            a.flags(top, "known", (window.x, window.y), (window.w, window.h))
        })
    }

    /// Whether the search reads the same, and fails the same, over any
    /// windows that hold every cell within `max` of its sources: not with
    /// a `known` table, whose cells (and their errors) are read over the
    /// window only.
    pub fn reads_in_parts(&self, args: &Args) -> bool {
        !self.known || known_is_field(args, self.options_at)
    }

    /// Whether `known` was given.
    pub fn knows(&self) -> bool {
        self.known
    }

    /// Whether `avoid` was given.
    pub fn avoids(&self) -> bool {
        self.avoid.is_some()
    }

    /// Whether cells besides the blocked and unknown ones are closed: those
    /// `avoid` names, or a level's occupied cells (`occupied = true`).
    pub fn closes_cells(&self) -> bool {
        self.avoid.is_some() || self.occupied
    }

    /// The cells of a map of `size` that `avoid` names, a bit each,
    /// row-major: `avoid` read once, for a caller that reads several
    /// windows (`explore`), after its memory bound is checked. The bitset
    /// is the native level's (`native::Bits`), so that `tests/memory.rs`
    /// measures the one this holds.
    pub fn avoided_bits(&self, args: &Args, size: (usize, usize)) -> Result<Bits, String> {
        memory::check(crate::toolkit::explore::bound_avoided(size))?;
        let mut bits = Bits::new(size.0 * size.1);
        self.each_avoided(args, size, |p| bits.set((p.y - 1) * size.0 + p.x - 1, true))?;
        Ok(bits)
    }

    /// `avoided_bits` for a search of several windows (fields in parts),
    /// so that `avoid` is read once for them all; none without `avoid`.
    pub fn avoided_once(&self, args: &Args, size: (usize, usize)) -> Result<Option<Bits>, String> {
        self.avoids()
            .then(|| self.avoided_bits(args, size))
            .transpose()
    }

    /// `limits`, or `limits_with` when `avoided` was read (`avoided_once`).
    pub fn limits_from(
        &self,
        args: &Args,
        window: Rect,
        size: (usize, usize),
        avoided: Option<&Bits>,
    ) -> Result<Limits, String> {
        match avoided {
            Some(bits) => self.limits_with(args, window, size.0, bits),
            None => self.limits(args, window, size),
        }
    }

    /// `limits` over `window` of a map `size` wide whose avoided cells
    /// `bits` holds (`avoided_bits`).
    pub fn limits_with(
        &self,
        args: &Args,
        window: Rect,
        width: usize,
        bits: &Bits,
    ) -> Result<Limits, String> {
        let mut closed = Vec::with_capacity(window.w * window.h);
        for y in window.y - 1..window.y - 1 + window.h {
            let row = y * width + window.x - 1;
            closed.extend((row..row + window.w).map(|i| bits.get(i)));
        }
        self.close_unknown(args, window, closed)
    }

    /// The limits from `closed` (the avoided cells of `window`, or empty)
    /// and the cells of `window` that `known` does not mark.
    fn close_unknown(
        &self,
        args: &Args,
        window: Rect,
        mut closed: Vec<bool>,
    ) -> Result<Limits, String> {
        if self.known {
            let known = args.with_field(self.options_at, Key::Field(Field::Known), |a, top| {
                a.flags(top, "known", (window.x, window.y), (window.w, window.h))
            })?;
            closed.resize(known.len(), false);
            closed.iter_mut().zip(known).for_each(|(c, k)| *c |= !k);
        }
        if self.occupied {
            let level = args
                .level_at(1)
                .expect("occupied is an option of levels only");
            closed.resize(window.w * window.h, false);
            for (c, p) in closed.iter_mut().zip(window.cells()) {
                *c |= level.occupied(p) && self.open != Some(p);
            }
        }
        Ok(Limits {
            closed,
            max: self.max,
        })
    }
}

/// Whether `known` in the options table at `options_at` is a field.
fn known_is_field(args: &Args, options_at: c_int) -> bool {
    args.with_field(options_at, Key::Field(Field::Known), |a, top| {
        a.native_ref::<NativeField>(top).is_some()
    })
}

/// `flee`'s `factor`: a number from -10 to -0.1.
fn factor(value: Arg) -> Result<f64, String> {
    let (lo, hi) = FACTORS;
    let x = match value {
        Arg::Int(i) => i as f64,
        Arg::Float(x) => x,
        _ => f64::NAN,
    };
    if (lo..=hi).contains(&x) {
        Ok(x)
    } else {
        Err(format!(
            "factor must be a number from {lo} to {hi}, got {value}"
        ))
    }
}

/// What `search_args` reads of `distances` and `flee`: the map's size,
/// the window a search within `max` can reach, the sources (as cells of
/// the window) and the options.
pub struct SearchArgs {
    pub window: Rect,
    pub sources: Vec<Source>,
    pub search: Search,
}

/// The memory bound of a search over a window of a size, from some
/// sources, by Dijkstra's algorithm or not.
pub type SearchBound = fn((usize, usize), usize, bool) -> usize;

/// The sources at `at.0` and the options at `at.1` (`accepted`) of a
/// search over a map of `size`, checked, and its memory bound (`bound`)
/// over the window `search_window` gives, before anything proportional to
/// the map is read.
pub fn search_args(
    args: &Args,
    size: (usize, usize),
    at: (c_int, c_int),
    accepted: &[&'static str],
    bound: SearchBound,
) -> Result<SearchArgs, String> {
    let mut asked = search_on_map(args, size, at, accepted, bound)?;
    asked.sources = within(asked.sources, asked.window);
    Ok(asked)
}

/// `search_args` with the sources as cells of the map, all of them.
pub fn search_on_map(
    args: &Args,
    size: (usize, usize),
    (sources_at, options_at): (c_int, c_int),
    accepted: &[&'static str],
    bound: SearchBound,
) -> Result<SearchArgs, String> {
    let shape = sources_shape(args, sources_at)?;
    let search = search_options(args, options_at, accepted)?;
    memory::check(distances::bound_sources(shape.count()))?;
    let sources = sources(args, sources_at, shape, size.0, size.1)?;
    let window = search_window(&sources, search.max, size);
    let first = sources[0].value;
    let keyed = search.weighted() || sources.iter().any(|s| s.value != first);
    memory::check(bound((window.w, window.h), sources.len(), keyed))?;
    Ok(SearchArgs {
        window,
        sources,
        search,
    })
}
