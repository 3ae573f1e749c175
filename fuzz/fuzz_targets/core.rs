//! The core under libFuzzer: every generator in the registry
//! (`map::generators::LIST`) with every option it declares, in range, at its
//! bounds, out of range or of the wrong type, into `generate`; arbitrary
//! hand-made grids into `render`, `reach::check` and the flood; and
//! both kinds of level into `json::level`.
//!
//! The input's first byte picks a mode; the rest is read with `Unstructured`.
//! Nothing here may panic except an assertion that an invariant broke, so any
//! crash libFuzzer reports is a bug. Valid sizes are kept to `BOUND` cells so
//! that runs stay fast; sizes over `MAX_CELLS` are fed on purpose and must be
//! refused without allocating (a counting global allocator checks every call
//! against a heap budget).
//!
//! Nothing is hard-coded per generator except a few documented layout rules
//! checked by name when the generator exists (`rooms`, `bsp`, `cave`,
//! `drunkard`, and the shared "farthest floor" stairs rule); whatever `LIST`
//! holds at build time is fuzzed, options and all.

#![no_main]

use libfuzzer_sys::arbitrary::{Result, Unstructured};
use libfuzzer_sys::fuzz_target;

#[path = "../../tests/support/counting.rs"]
mod counting;
#[path = "../../tests/support/oracle.rs"]
mod oracle;

use counting::peak_of as measured;
use serde_json::Value as Json;

use map::generators::rooms::{MAX_ROOM_HEIGHT, MAX_ROOM_WIDTH, MIN_ROOM_HEIGHT, MIN_ROOM_WIDTH};
use map::generators::{Default as Dflt, Generator, Kind, OptionSpec, Value, LIST};
use map::grid::Rect;
use map::grid::{byte_set, Grid, Pos, DOOR, FLOOR, GOLD, PLAYER, POTION, STAIRS, WALL};
use map::input::{quoted, Arg, MAX_CELLS, MAX_SEED};
use map::level::items::Item;
use map::level::json;
use map::level::{generate, Level, Params, ITEMS};
use map::toolkit::flood::{self, Flood};
use map::toolkit::reach::{self, Unreachable};

/// Valid sizes larger than this are skipped (not generated) to keep runs
/// fast: 300x300, the largest the size draws make on purpose.
const BOUND: usize = 90_000;

/// Levels up to this many cells are always generated twice (same seed, same
/// level); larger ones one time in `REPEAT_ONE_IN`.
const REPEAT_CELLS: usize = 10_000;
const REPEAT_ONE_IN: u32 = 8;

/// Up to this many rooms, every pair is also checked with `Rect::crowds`
/// (the painted-grid check below covers any number in linear time).
const PAIRWISE_ROOMS: usize = 64;

/// Heap a call may hold at once: linear in the map's cells.
const BYTES_PER_CELL: usize = 64;
const FIXED_BYTES: usize = 1 << 20;
/// Heap a refused oversized request may hold (the error message).
const REFUSAL_BYTES: usize = 4 << 10;

// ---------------------------------------------------------------------------
// Arbitrary arguments.

const TYPE_NAMES: [&str; 6] = [
    "boolean",
    "table",
    "function",
    "userdata",
    "thread",
    "lightuserdata",
];

const FLOATS: [f64; 22] = [
    f64::NAN,
    f64::INFINITY,
    f64::NEG_INFINITY,
    0.0,
    -0.0,
    0.5,
    1.0,
    -1.0,
    1e-300,
    5e-324,
    0.999_999_999_999_999_9,
    1.000_000_000_000_000_2,
    9_007_199_254_740_992.0,      // 2^53
    -9_007_199_254_740_992.0,     // -2^53
    9_007_199_254_740_994.0,      // 2^53 + 2
    9_223_372_036_854_775_808.0,  // 2^63
    -9_223_372_036_854_775_808.0, // -2^63
    1e308,
    3.0,
    6.0,
    42.0,
    4.5,
];

const INTS: [i64; 21] = [
    i64::MIN,
    i64::MAX,
    -1,
    0,
    1,
    2,
    3,
    5,
    6,
    MAX_SEED,
    -MAX_SEED,
    MAX_SEED + 1,
    -MAX_SEED - 1,
    MAX_CELLS as i64,
    MAX_CELLS as i64 + 1,
    10_000,
    10_001,
    2000,
    2001,
    i32::MAX as i64,
    u32::MAX as i64,
];

/// Names that no generator is called (unless one lands under that name:
/// the oracle reads `LIST`, so that is fine too).
const STRINGS: [&[u8]; 10] = [
    b"",
    b"42",
    b"ROOMS",
    b"rooms\0",
    b"cave ",
    b"\xff\xfe",
    b"Cave",
    b"bsp\n",
    b"labyrinth",
    b"true",
];

/// Keys that look like option names and are not (see `is_known`).
const NEAR_KEYS: [&[u8]; 10] = [
    b"colour",
    b"Rooms",
    b"fill ",
    b"",
    b"width\0",
    b"item",
    b"itemss",
    b"DOORS",
    b"min-size",
    b"\xffdepth",
];

/// Any argument at all.
fn any_arg<'a>(u: &mut Unstructured<'a>) -> Result<Arg<'a>> {
    Ok(match u.int_in_range(0..=10u8)? {
        0 => Arg::Missing,
        1 => Arg::Int(u.arbitrary()?),
        2 => Arg::Int(*u.choose(&INTS)?),
        3 => Arg::Int(u.int_in_range(-3..=64)?),
        4 => Arg::Float(f64::from_bits(u.arbitrary()?)),
        5 => Arg::Float(*u.choose(&FLOATS)?),
        6 => {
            let n: i32 = u.int_in_range(-3..=1000)?;
            let d: i32 = *u.choose(&[1, 2, 10, 1000])?;
            Arg::Float(f64::from(n) / f64::from(d))
        }
        7 => {
            let len = u.int_in_range(0..=16)?;
            Arg::Str(u.bytes(len)?)
        }
        8 => Arg::Str(match u.int_in_range(0..=1u8)? {
            0 => u.choose(&STRINGS)?,
            _ => u.choose(&FUZZED)?.name.as_bytes(),
        }),
        9 => Arg::Bool(u.arbitrary()?),
        _ => Arg::Other(u.choose(&TYPE_NAMES)?),
    })
}

/// True one time in `n`, false once the input runs out (where
/// `Unstructured::ratio` says true): a short input takes the usual path.
fn one_in(u: &mut Unstructured, n: u32) -> Result<bool> {
    Ok(u.int_in_range(1..=n)? == n)
}

/// An integer, sometimes as an integral float (which counts as the integer).
fn int_arg<'a>(u: &mut Unstructured<'a>, n: i64) -> Result<Arg<'a>> {
    Ok(if one_in(u, 8)? {
        Arg::Float(n as f64)
    } else {
        Arg::Int(n)
    })
}

/// The generators this target models: all but `example`, whose sample's
/// meaning, its refusals (sizes past its solver's bound, no level within
/// its attempts) and its solver's memory this oracle does not model (its
/// own tests: src/generators/example/tests.rs, spec/example_spec.lua).
static FUZZED: std::sync::LazyLock<Vec<&'static Generator>> = std::sync::LazyLock::new(|| {
    LIST.iter()
        .copied()
        .filter(|g| g.name != "example")
        .collect()
});

/// A string longer than any text option takes.
static LONG: [u8; 8192] = [b'#'; 8192];

/// A value `kind` accepts: its bounds, values near them, anywhere between.
fn in_range<'a>(u: &mut Unstructured<'a>, kind: Kind) -> Result<Arg<'a>> {
    Ok(match kind {
        Kind::Int { min, max } => {
            let n = match u.int_in_range(0..=5u8)? {
                0 => min,
                1 => max,
                2 => u.int_in_range(min..=max.min(min.saturating_add(3)))?,
                3 => u.int_in_range(max.saturating_sub(3).max(min)..=max)?,
                4 => u.int_in_range(min..=max)?,
                _ => u.int_in_range(min..=max.min(min.saturating_add(40)))?,
            };
            int_arg(u, n)?
        }
        Kind::Number { min, max, open_min } => {
            let lowest = if open_min { min.next_up() } else { min };
            match u.int_in_range(0..=6u8)? {
                0 => Arg::Float(lowest),
                1 => Arg::Float(max),
                2 if max.fract() == 0.0 => Arg::Int(max as i64),
                3 if !open_min && min.fract() == 0.0 => Arg::Int(min as i64),
                4 => {
                    // A random bit pattern folded into the range.
                    let t = (u.arbitrary::<u64>()? >> 11) as f64 / (1u64 << 53) as f64;
                    Arg::Float((lowest + t * (max - lowest)).clamp(lowest, max))
                }
                5 => Arg::Float(max.next_down().max(lowest)),
                _ => {
                    let k = f64::from(u.int_in_range(1..=1000u16)?);
                    Arg::Float((min + (max - min) * k / 1000.0).clamp(lowest, max))
                }
            }
        }
        Kind::Bool => Arg::Bool(u.arbitrary()?),
        Kind::Text { max, .. } => {
            let len = u.int_in_range(0..=max.min(64))?;
            Arg::Str(u.bytes(len)?)
        }
    })
}

/// A value of the right type that `kind` refuses: just past a bound, far
/// past it, NaN, infinities, fractions for integers.
fn out_of_range<'a>(u: &mut Unstructured<'a>, kind: Kind) -> Result<Arg<'a>> {
    Ok(match kind {
        Kind::Int { min, max } => match u.int_in_range(0..=6u8)? {
            0 if min > i64::MIN => int_arg(u, min - 1)?,
            1 if max < i64::MAX => int_arg(u, max + 1)?,
            2 if min > i64::MIN => Arg::Int(u.int_in_range(i64::MIN..=min - 1)?),
            3 if max < i64::MAX => Arg::Int(u.int_in_range(max + 1..=i64::MAX)?),
            4 => Arg::Float(min as f64 + 0.5),
            5 => Arg::Float(*u.choose(&[
                f64::NAN,
                f64::INFINITY,
                f64::NEG_INFINITY,
                9_223_372_036_854_775_808.0,
            ])?),
            _ => Arg::Float(max as f64 - 0.5),
        },
        Kind::Number { min, max, open_min } => match u.int_in_range(0..=6u8)? {
            0 if open_min => Arg::Float(min),
            1 => Arg::Float(min.next_down()),
            2 => Arg::Float(max.next_up()),
            3 => Arg::Int(max as i64 + 1),
            4 => Arg::Int(min as i64 - 1),
            5 => Arg::Float(*u.choose(&[f64::NAN, f64::INFINITY, f64::NEG_INFINITY])?),
            _ => Arg::Float(if u.arbitrary()? { max + 1.0 } else { min - 1.0 }),
        },
        // No booleans out of range: a wrong type instead.
        Kind::Bool => wrong_type(u, kind)?,
        Kind::Text { max, .. } => Arg::Str(&LONG[..(max + 1).min(LONG.len())]),
    })
}

/// A value of another type than `kind` takes.
fn wrong_type<'a>(u: &mut Unstructured<'a>, kind: Kind) -> Result<Arg<'a>> {
    Ok(match u.int_in_range(0..=3u8)? {
        0 => Arg::Other(u.choose(&TYPE_NAMES)?),
        1 if matches!(kind, Kind::Text { .. }) => Arg::Int(1),
        1 => Arg::Str(u.choose(&[&b"1"[..], b"true", b"0.5", b""])?),
        _ => match kind {
            Kind::Bool => match u.int_in_range(0..=2u8)? {
                0 => Arg::Int(u.int_in_range(0..=1)?),
                1 => Arg::Float(1.0),
                _ => Arg::Float(f64::NAN),
            },
            _ => Arg::Bool(u.arbitrary()?),
        },
    })
}

/// A width or a height: mostly from the generator's minimum up to 300, a
/// narrow 3..8 side, or a long one up to 2000 (for narrow shapes), at or
/// just under the minimum; now and then anything at all.
fn side<'a>(u: &mut Unstructured<'a>, min: usize, shape: u8) -> Result<Arg<'a>> {
    let min = min as i64;
    let n = match shape {
        0 => u.int_in_range(min..=min + 40)?,
        1 => u.int_in_range(min..=300)?,
        2 => u.int_in_range(3..=8i64)?.max(min),
        3 => u.int_in_range(min..=2000)?,
        4 => min + u.int_in_range(0..=1)?,
        5 => min - u.int_in_range(1..=3)?,
        _ => return any_arg(u),
    };
    int_arg(u, n)
}

/// One `(key, value)` as `Params::set` takes it.
type Set<'a> = (&'a [u8], Arg<'a>);

/// A request: the keys set in order. Mostly well formed for one generator
/// of the registry, with each of its options (and `items`) left out, in
/// range (bounds included), out of range or of the wrong type; sometimes
/// unknown names, other generators' options, base keys set again, options
/// cleared with nil, in any order.
fn request<'a>(u: &mut Unstructured<'a>) -> Result<Vec<Set<'a>>> {
    let mut sets: Vec<Set<'a>> = Vec::new();
    let mut algorithm = FUZZED[u.choose_index(FUZZED.len())?];
    match u.int_in_range(0..=19u8)? {
        0 => algorithm = LIST[0],
        1 => {
            algorithm = LIST[0];
            sets.push((b"algorithm", Arg::Missing));
        }
        2 => sets.push((b"algorithm", any_arg(u)?)),
        3 => sets.push((b"algorithm", Arg::Str(u.choose(&STRINGS)?))),
        _ => sets.push((b"algorithm", Arg::Str(algorithm.name.as_bytes()))),
    }
    // Width and height: both big, both narrow, or one narrow, one long.
    let (wshape, hshape) = match u.int_in_range(0..=15u8)? {
        0..=5 => (0, 0),
        6 | 7 => (1, 1),
        8 => (2, 3),
        9 => (3, 2),
        10 | 11 => (4, 4),
        12 => (u.int_in_range(0..=6)?, u.int_in_range(0..=6)?),
        13 => (0, 4),
        14 => (4, 1),
        _ => (1, 0),
    };
    if !one_in(u, 64)? {
        sets.push((b"width", side(u, algorithm.min_width, wshape)?));
    }
    if !one_in(u, 64)? {
        sets.push((b"height", side(u, algorithm.min_height, hshape)?));
    }
    match u.int_in_range(0..=15u8)? {
        0 => {} // a fresh seed
        1 => sets.push((b"seed", any_arg(u)?)),
        2 => sets.push((
            b"seed",
            Arg::Int(*u.choose(&[MAX_SEED, -MAX_SEED, MAX_SEED + 1, -MAX_SEED - 1])?),
        )),
        3 => sets.push((
            b"seed",
            Arg::Float(u.int_in_range(-MAX_SEED..=MAX_SEED)? as f64),
        )),
        4..=8 => sets.push((b"seed", Arg::Int(u.int_in_range(-1000..=1000)?))),
        _ => sets.push((b"seed", Arg::Int(u.int_in_range(-MAX_SEED..=MAX_SEED)?))),
    }
    for spec in algorithm.options.iter().chain([&ITEMS]) {
        let key = spec.name.as_bytes();
        match u.int_in_range(0..=47u8)? {
            0..=15 => {} // left out: the default
            16..=39 => sets.push((key, in_range(u, spec.kind)?)),
            40 | 41 => {
                // items: mostly few, so that most maps hold them.
                let kind = match spec.kind {
                    Kind::Int { min, max } => Kind::Int {
                        min,
                        max: max.min(min + 20),
                    },
                    k => k,
                };
                sets.push((key, in_range(u, kind)?))
            }
            42 | 43 => sets.push((key, out_of_range(u, spec.kind)?)),
            44 | 45 => sets.push((key, wrong_type(u, spec.kind)?)),
            _ => sets.push((key, any_arg(u)?)),
        }
    }
    if one_in(u, 4)? {
        for _ in 0..u.int_in_range(1..=4)? {
            let set: Set<'a> = match u.int_in_range(0..=5u8)? {
                0 => {
                    let len = u.int_in_range(0..=12)?;
                    (u.bytes(len)?, any_arg(u)?)
                }
                1 => (u.choose(&NEAR_KEYS)?, any_arg(u)?),
                2 | 3 => {
                    // Another generator's option, with a value it would take.
                    let other = FUZZED[u.choose_index(FUZZED.len())?];
                    match other.options {
                        [] => (ITEMS.name.as_bytes(), in_range(u, ITEMS.kind)?),
                        specs => {
                            let spec: &OptionSpec = u.choose(specs)?;
                            (spec.name.as_bytes(), in_range(u, spec.kind)?)
                        }
                    }
                }
                4 => {
                    // Clearing an option (or any key) with nil.
                    let spec = algorithm
                        .options
                        .get(u.choose_index(algorithm.options.len() + 1)?)
                        .unwrap_or(&ITEMS);
                    (spec.name.as_bytes(), Arg::Missing)
                }
                _ => (
                    u.choose(&[&b"width"[..], b"height", b"seed", b"algorithm"])?,
                    any_arg(u)?,
                ),
            };
            sets.push(set);
        }
    }
    // Now and then in another order (later sets of a key win).
    if sets.len() > 1 && one_in(u, 4)? {
        for _ in 0..u.int_in_range(1..=4)? {
            let (i, j) = (u.choose_index(sets.len())?, u.choose_index(sets.len())?);
            sets.swap(i, j);
        }
    }
    Ok(sets)
}

fn params_of<'a>(sets: &[Set<'a>]) -> Params<'a> {
    let mut params = Params::default();
    for &(key, value) in sets {
        params.set(key, value);
    }
    params
}

// ---------------------------------------------------------------------------
// What generate must do, worked out independently from the registry's specs
// and the rules in docs/generators.md (the same way tests/generators.rs derives its
// expectations): the outcome, and for a refusal the start of its message.

/// The request after all its sets, as a Lua table would hold it.
#[derive(Default)]
struct Model<'a> {
    width: Arg<'a>,
    height: Arg<'a>,
    seed: Arg<'a>,
    algorithm: Arg<'a>,
    /// Registered option names given a non-nil value, each once.
    options: Vec<(&'a [u8], Arg<'a>)>,
    /// Keys that no generator takes (set to anything, nil included).
    unknown: Vec<&'a [u8]>,
    /// `vaults`, `arrive`, `place` given a non-nil value (as a table, the
    /// binding reads them; as anything else, they are refused).
    design: Vec<(&'a [u8], Arg<'a>)>,
}

/// The options that direct a level, in the order they are checked.
const DESIGN: [&str; 3] = map::level::design::NAMES;

/// Every option name the registry knows, `items` included.
fn is_known(key: &[u8]) -> bool {
    key == ITEMS.name.as_bytes()
        || LIST
            .iter()
            .any(|a| a.options.iter().any(|o| o.name.as_bytes() == key))
}

impl<'a> Model<'a> {
    fn of(sets: &[Set<'a>]) -> Model<'a> {
        let mut m = Model::default();
        for &(key, value) in sets {
            match key {
                b"width" => m.width = value,
                b"height" => m.height = value,
                b"seed" => m.seed = value,
                b"algorithm" => m.algorithm = value,
                _ if DESIGN.iter().any(|n| n.as_bytes() == key) => {
                    m.design.retain(|&(k, _)| k != key);
                    if value != Arg::Missing {
                        m.design.push((key, value));
                    }
                }
                _ if is_known(key) => {
                    m.options.retain(|&(k, _)| k != key);
                    if value != Arg::Missing {
                        m.options.push((key, value));
                    }
                }
                _ => m.unknown.push(key),
            }
        }
        m
    }

    fn option(&self, name: &str) -> Option<Arg<'a>> {
        self.options
            .iter()
            .find(|&&(k, _)| k == name.as_bytes())
            .map(|&(_, v)| v)
    }
}

/// What a valid request must produce.
struct Expect {
    algorithm: &'static Generator,
    width: usize,
    height: usize,
    seed: Option<i64>,
    /// Every declared option and `items`: the value given or the default.
    values: Vec<(&'static str, Value)>,
}

impl std::fmt::Debug for Expect {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} {}x{} seed {:?} {:?}",
            self.algorithm.name, self.width, self.height, self.seed, self.values
        )
    }
}

impl Expect {
    fn value(&self, name: &str) -> Option<Value> {
        self.values
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.clone())
    }

    fn int(&self, name: &str) -> Option<i64> {
        match self.value(name)? {
            Value::Int(i) => Some(i),
            _ => None,
        }
    }

    fn number(&self, name: &str) -> Option<f64> {
        match self.value(name)? {
            Value::Number(x) => Some(x),
            _ => None,
        }
    }

    fn flag(&self, name: &str) -> bool {
        self.value(name) == Some(Value::Bool(true))
    }

    fn items(&self) -> usize {
        self.int(ITEMS.name).expect("items") as usize
    }

    fn named(&self, name: &str) -> bool {
        self.algorithm.name == name
    }

    /// How the refusal of room sizes that cannot be starts, for a generator
    /// with `room_*` options: a least above its most, or above the interior.
    fn room_sizes_refused(&self) -> Option<String> {
        for (side, interior) in [("width", self.width - 2), ("height", self.height - 2)] {
            let least = self.int(&format!("room_min_{side}"))?;
            let most = self.int(&format!("room_max_{side}"))?;
            if least > most {
                return Some(format!("room_min_{side} ({least}) must be at most"));
            }
            if least as usize > interior {
                return Some(format!("room_min_{side} ({least}) must fit inside"));
            }
        }
        None
    }

    /// `round(fill * interior)` for a generator with a `fill` number.
    fn fill_target(&self) -> Option<usize> {
        let fill = self.number("fill")?;
        Some((fill * ((self.width - 2) * (self.height - 2)) as f64).round() as usize)
    }
}

/// The argument as an exact integer: integral floats count, strings do not.
fn exact(arg: Arg) -> Option<i64> {
    const TWO_63: f64 = 9_223_372_036_854_775_808.0;
    match arg {
        Arg::Int(i) => Some(i),
        Arg::Float(x) if x.is_finite() && x.trunc() == x && (-TWO_63..TWO_63).contains(&x) => {
            Some(x as i64)
        }
        _ => None,
    }
}

/// The value `kind` makes of `arg`, if it accepts it.
fn accepts(kind: Kind, arg: Arg) -> Option<Value> {
    match kind {
        Kind::Int { min, max } => exact(arg)
            .filter(|i| (min..=max).contains(i))
            .map(Value::Int),
        Kind::Number { min, max, open_min } => {
            let x = match arg {
                Arg::Int(i) => i as f64,
                Arg::Float(x) => x,
                _ => return None,
            };
            let above_min = if open_min { x > min } else { x >= min };
            (above_min && x <= max).then_some(Value::Number(x))
        }
        Kind::Bool => match arg {
            Arg::Bool(b) => Some(Value::Bool(b)),
            _ => None,
        },
        Kind::Text { max, .. } => match arg {
            Arg::Str(t) if t.len() <= max => Some(Value::Text(t.to_vec())),
            _ => None,
        },
    }
}

/// Whether `arg` asks for nothing of option `o`, as docs/api.md words the
/// rule: `false` for a switch off by default, 0 for an option whose default
/// and least value are 0.
fn asks_for_nothing(o: &OptionSpec, arg: Arg) -> bool {
    let off = match (o.kind, o.default) {
        (Kind::Bool, Dflt::Bool(false)) => Value::Bool(false),
        (Kind::Int { min: 0, .. }, Dflt::Int(0)) => Value::Int(0),
        (Kind::Number { min, open_min, .. }, Dflt::Number(d))
            if min == 0.0 && !open_min && d == 0.0 =>
        {
            Value::Number(0.0)
        }
        _ => return false,
    };
    accepts(o.kind, arg) == Some(off)
}

/// `Ok` with what the map must be, or `Err` with how the refusal's message
/// starts: the first check that fails in the documented order (unknown
/// names, algorithm, other generators' options, size, seed, then each option
/// in declaration order and `items`).
fn oracle(m: &Model) -> std::result::Result<Expect, String> {
    if let Some(key) = m.unknown.iter().min() {
        return Err(format!("unknown option {}", quoted(key)));
    }
    let algorithm: &'static Generator = match m.algorithm {
        Arg::Missing => LIST[0],
        Arg::Str(name) => match LIST.iter().find(|a| a.name.as_bytes() == name) {
            Some(a) => a,
            None => return Err("algorithm must be ".into()),
        },
        _ => return Err("algorithm must be ".into()),
    };
    // Registry order: each generator's options in turn, each name once; a
    // value that asks for nothing is taken (and ignored) by every algorithm.
    let takes = |n: &str| n == ITEMS.name || algorithm.options.iter().any(|o| o.name == n);
    for a in LIST {
        for o in a.options {
            let foreign = m.option(o.name).filter(|&arg| !asks_for_nothing(o, arg));
            if !takes(o.name) && foreign.is_some() {
                return Err(format!("option {} applies only to algorithm", o.name));
            }
        }
    }
    let (min_w, min_h) = (algorithm.min_width as i64, algorithm.min_height as i64);
    let width = exact(m.width)
        .filter(|&w| w >= min_w)
        .ok_or_else(|| format!("width must be an integer >= {min_w}, got "))?;
    let height = exact(m.height)
        .filter(|&h| h >= min_h)
        .ok_or_else(|| format!("height must be an integer >= {min_h}, got "))?;
    if i128::from(width) * i128::from(height) > MAX_CELLS as i128 {
        return Err(format!("width*height must be at most {MAX_CELLS} cells"));
    }
    let seed = match m.seed {
        Arg::Missing => None,
        arg => Some(
            exact(arg)
                .filter(|s| (-MAX_SEED..=MAX_SEED).contains(s))
                .ok_or("seed must be an integer with |seed| <= 2^53")?,
        ),
    };
    let mut values = Vec::new();
    for spec in algorithm.options.iter().chain([&ITEMS]) {
        let value = match m.option(spec.name) {
            None => match spec.default {
                Dflt::Int(i) => Value::Int(i),
                Dflt::Number(x) => Value::Number(x),
                Dflt::Bool(b) => Value::Bool(b),
                Dflt::Text(t) => Value::Text(t.as_bytes().to_vec()),
                Dflt::ShorterSide => Value::Int(width.min(height)),
            },
            Some(arg) => {
                accepts(spec.kind, arg).ok_or_else(|| format!("{} must be ", spec.name))?
            }
        };
        values.push((spec.name, value));
    }
    for name in DESIGN {
        let given = m.design.iter().find(|&&(k, _)| k == name.as_bytes());
        if given.is_some_and(|&(_, v)| v != Arg::Other("table")) {
            return Err(format!("{name} must be "));
        }
    }
    Ok(Expect {
        algorithm,
        width: width as usize,
        height: height as usize,
        seed,
        values,
    })
}

// ---------------------------------------------------------------------------
// Mode: generate a request from the registry.

fn fuzz_generate(u: &mut Unstructured) -> Result<()> {
    let sets = request(u)?;
    let params = params_of(&sets);
    let x = oracle(&Model::of(&sets));
    let cells = x.as_ref().map_or(0, |x| x.width * x.height);
    if cells > BOUND {
        return Ok(()); // valid but slow: not here
    }
    let (result, heap) = measured(|| generate(&params));
    assert!(
        heap <= BYTES_PER_CELL * cells + FIXED_BYTES,
        "generate held {heap} bytes for {cells} cells: {params:?}"
    );
    match (result, x) {
        (Ok(level), Ok(x)) => {
            check_level(&level, &x, &params);
            // Same seed, same level (a fresh seed is given back as the seed).
            if cells <= REPEAT_CELLS || one_in(u, REPEAT_ONE_IN)? {
                let again = params.clone().with(b"seed", Arg::Int(level.seed));
                assert_eq!(generate(&again).as_ref(), Ok(&level), "not deterministic");
            }
        }
        (Ok(level), Err(why)) => panic!(
            "invalid params accepted (expected \"{why}...\"): {params:?} gave a {}x{} {}",
            level.grid.width(),
            level.grid.height(),
            level.algorithm
        ),
        (Err(e), Ok(x)) => check_refusal(&e, &x, &params),
        (Err(e), Err(why)) => {
            assert!(!e.is_empty() && !e.contains("internal"), "{e}");
            assert!(e.starts_with(&why), "{e:?} is not {why:?}...: {params:?}");
        }
    }
    Ok(())
}

/// A valid request may fail only when the map cannot hold what was asked:
/// more items than free floor (checked on the same map made without items,
/// when the seed is known), or a `fill` too small for `@` and `>`.
fn check_refusal(e: &str, x: &Expect, params: &Params) {
    if let Some(why) = x.room_sizes_refused() {
        assert!(e.starts_with(&why), "{e:?} is not {why:?}...: {params:?}");
        return;
    }
    let items = x.items();
    if let Some(rest) = e.strip_prefix(&format!("cannot place {items} items: only ")) {
        let free: usize = rest
            .strip_suffix(" free floor cells")
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("malformed refusal {e:?}: {params:?}"));
        assert!(free < items, "{e}: {params:?}");
        if x.seed.is_some() {
            let bare = generate(&params.clone().with(b"items", Arg::Int(0)))
                .unwrap_or_else(|e2| panic!("{e}, and without items {e2}: {params:?}"));
            let floor = bare.grid.cells().iter().filter(|&&c| c == FLOOR).count();
            assert_eq!(floor, free, "{e}, yet {floor} free cells: {params:?}");
        }
        return;
    }
    let too_few = x.fill_target().is_some_and(|t| t < 2) && e.contains("@ and > need at least 2");
    assert!(too_few, "valid params refused: {e}: {params:?} ({x:?})");
}

/// Sizes over `MAX_CELLS` (with arbitrary other options) must be refused at
/// once, holding no more heap than the message.
fn fuzz_huge(u: &mut Unstructured) -> Result<()> {
    let mut sets = request(u)?;
    let max = MAX_CELLS as i64;
    let (mut w, mut h) = match u.int_in_range(0..=3u8)? {
        0 => {
            let h = u.int_in_range(1..=max)?;
            (max / h + 1 + u.int_in_range(0..=3)?, h)
        }
        1 => (
            u.int_in_range(1..=i64::MAX)?,
            u.int_in_range(max + 1..=i64::MAX)?,
        ),
        2 => (
            u.int_in_range(2001..=i64::MAX)?,
            u.int_in_range(2001..=i64::MAX)?,
        ),
        _ => *u.choose(&[
            (2001, 2000),
            (800_001, 5),
            (666_667, 6),
            (1_333_334, 3),
            (i64::MAX, i64::MAX),
            (i64::MAX, 6),
            (1 << 32, 1 << 32),
            (MAX_SEED, MAX_SEED),
        ])?,
    };
    if u.arbitrary()? {
        std::mem::swap(&mut w, &mut h);
    }
    let as_arg = |n: i64, float: bool| {
        if float {
            Arg::Float(n as f64)
        } else {
            Arg::Int(n)
        }
    };
    sets.push((b"width", as_arg(w, one_in(u, 4)?)));
    sets.push((b"height", as_arg(h, one_in(u, 4)?)));
    let params = params_of(&sets);
    let why = match oracle(&Model::of(&sets)) {
        Ok(x) => panic!("the oracle takes {w}x{h}: {x:?}"),
        Err(why) => why,
    };
    let (result, heap) = measured(|| generate(&params));
    let e = match result {
        Ok(level) => panic!(
            "{w}x{h} accepted: {}x{}",
            level.grid.width(),
            level.grid.height()
        ),
        Err(e) => e,
    };
    assert!(heap <= REFUSAL_BYTES, "refusing {w}x{h} held {heap} bytes");
    assert!(e.starts_with(&why), "{e:?} is not {why:?}...: {params:?}");
    Ok(())
}

// ---------------------------------------------------------------------------
// The invariants of a generated level.

fn check_level(level: &Level, x: &Expect, params: &Params) {
    let g = &level.grid;
    let (w, h) = (x.width, x.height);
    let doors_wanted = x.flag("doors");
    assert_eq!((g.width(), g.height()), (w, h), "dimensions");
    assert_eq!(g.cells().len(), w * h);
    match x.seed {
        Some(seed) => assert_eq!(level.seed, seed),
        None => assert!(
            (0..MAX_SEED).contains(&level.seed),
            "fresh seed {}",
            level.seed
        ),
    }
    assert_eq!(level.algorithm, x.algorithm.name);
    // The generator's terrain: its border, its characters, what blocks
    // walking (`#` for the levels carved from rock).
    let terrain = x.algorithm.terrain;
    let blocked = terrain.blocked.as_bytes();
    assert_eq!(
        level.blocked(),
        Some(terrain.blocked).filter(|_| !x.algorithm.carves_rock()),
        "the level's blocked: {params:?}"
    );
    let at = |x: usize, y: usize| g.cells()[(y - 1) * w + (x - 1)];
    let border = (terrain.border, terrain.border);
    for px in 1..=w {
        assert_eq!(
            (at(px, 1), at(px, h)),
            border,
            "border broken at column {px}: {params:?}"
        );
    }
    for py in 1..=h {
        assert_eq!(
            (at(1, py), at(w, py)),
            border,
            "border broken at row {py}: {params:?}"
        );
    }
    let count = |c: u8| g.cells().iter().filter(|&&v| v == c).count();
    let mut known = terrain.chars.to_vec();
    known.extend([WALL, FLOOR, PLAYER, STAIRS, GOLD, POTION]);
    if doors_wanted {
        known.push(DOOR);
    }
    for lock in level.locks.iter().flatten() {
        known.extend([lock.door_char, lock.key_char]);
    }
    if let Some(bad) = g.cells().iter().position(|c| !known.contains(c)) {
        panic!(
            "cell {:?} is {:?}: {params:?}",
            g.pos(bad),
            g.cells()[bad] as char
        );
    }
    assert_eq!(
        (count(PLAYER), count(STAIRS)),
        (1, 1),
        "entities stacked: {params:?}"
    );
    assert_eq!(at(level.player.x, level.player.y), PLAYER);
    assert_eq!(at(level.stairs.x, level.stairs.y), STAIRS);
    check_items(g, &level.items, x.items());

    // Every cell that does not block walking is walkable from @ (a plain
    // breadth-first search), and reach::check (with the terrain's blocked)
    // agrees.
    let dist = oracle::walk_distances_by(g, level.player, blocked);
    let open = |i: usize| !blocked.contains(&g.cells()[i]);
    if let Some(cut) = (0..dist.len()).find(|&i| open(i) && dist[i].is_none()) {
        panic!("{:?} cut off from @: {params:?}", g.pos(cut));
    }
    assert_eq!(
        reach::check_blocked(g, &byte_set(blocked)),
        Ok(()),
        "unreachable: {params:?}"
    );
    if x.algorithm.carves_rock() {
        assert_eq!(reach::check(g), Ok(()), "unreachable: {params:?}");
    }
    if x.named("overworld") {
        check_overworld(level, &dist, params);
    }

    check_rooms(level, x, &dist, params);
    check_doors(level, doors_wanted, params);
    if x.named("cave") || x.named("drunkard") {
        let open = g.cells().iter().filter(|&&c| c != WALL).count();
        assert_eq!(Some(open), x.fill_target(), "carved count: {params:?}");
        assert_eq!(
            level.player,
            Pos {
                x: w.div_ceil(2),
                y: h.div_ceil(2)
            },
            "@ not at the centre: {params:?}"
        );
    }
    if ["cave", "cellular", "drunkard", "maze"].contains(&level.algorithm) {
        // The shared rule: > on the first cell in row order farthest from @.
        let s = g.index(level.stairs);
        for (i, &c) in g.cells().iter().enumerate() {
            if c != WALL {
                assert!(
                    dist[i] <= dist[s],
                    "{:?} farther than >: {params:?}",
                    g.pos(i)
                );
                assert!(i >= s || dist[i] < dist[s], "{:?} ties > earlier", g.pos(i));
            }
        }
    }
    check_locks(level, params);
    check_render(g);
    check_json(level);
}

/// `locks`: each door and key on the map with its character, and a search
/// over (cell, keys held) from `@`, a door entered once its key is held,
/// reaches `>` and every key.
fn check_locks(level: &Level, params: &Params) {
    let Some(locks) = &level.locks else { return };
    let g = &level.grid;
    for l in locks {
        assert_eq!(
            (g.get(l.door), g.get(l.key)),
            (l.door_char, l.key_char),
            "{params:?}"
        );
    }
    let door_of = |i: usize| locks.iter().position(|l| g.index(l.door) == i);
    let key_of = |i: usize| locks.iter().position(|l| g.index(l.key) == i);
    // At most 2^22 states (a flag each): the specs and the unit tests
    // check the larger ones.
    let states = 1usize << locks.len();
    if g.cells().len().saturating_mul(states) > 1 << 22 {
        return;
    }
    let mut seen = vec![false; g.cells().len() * states];
    let mut stack = vec![(g.index(level.player), 0usize)];
    let (mut stairs, mut keys) = (false, 0usize);
    while let Some((i, held)) = stack.pop() {
        stairs |= i == g.index(level.stairs);
        keys |= held;
        let w = g.width() as isize;
        for step in [-w, -1, 1, w] {
            let j = i.wrapping_add_signed(step);
            let shut = door_of(j).is_some_and(|d| held & 1 << d == 0);
            let now = key_of(j).map_or(held, |k| held | 1 << k);
            if g.cells()[j] != WALL && !shut && !seen[j * states + now] {
                seen[j * states + now] = true;
                stack.push((j, now));
            }
        }
    }
    assert!(
        stairs && keys == states - 1,
        "locks not solvable: {params:?}"
    );
}

/// The overworld's own rules: `>` on the land cell (`.` or `"`; an item's
/// cell was plains) farthest from `@` by walking, the first in row order on
/// a tie; no rooms, no doors.
fn check_overworld(level: &Level, dist: &[Option<u32>], params: &Params) {
    use map::generators::overworld::FOREST;
    let g = &level.grid;
    let was_land = |c: u8| matches!(c, FLOOR | FOREST | GOLD | POTION | STAIRS);
    let best = (0..g.cells().len())
        .filter(|&i| was_land(g.cells()[i]) && dist[i].is_some())
        .max_by_key(|&i| (dist[i], std::cmp::Reverse(i)))
        .map(|i| g.pos(i));
    assert_eq!(
        best,
        Some(level.stairs),
        "> is not the farthest land: {params:?}"
    );
    assert!(
        level.rooms.is_empty() && level.doors.is_empty(),
        "{params:?}"
    );
}

fn check_items(g: &Grid, items: &[Item], wanted: usize) {
    assert_eq!(items.len(), wanted, "item count");
    let mut spots: Vec<usize> = items.iter().map(|i| g.index(i.pos)).collect();
    spots.sort_unstable();
    spots.dedup();
    assert_eq!(spots.len(), items.len(), "items stacked");
    for item in items {
        assert!(g.contains(item.pos));
        assert!(item.kind == GOLD || item.kind == POTION);
        assert_eq!(g.get(item.pos), item.kind);
    }
    let count = |c: u8| g.cells().iter().filter(|&&v| v == c).count();
    let kinds = |c: u8| items.iter().filter(|i| i.kind == c).count();
    assert_eq!((count(GOLD), count(POTION)), (kinds(GOLD), kinds(POTION)));
}

/// Rooms, whoever makes them: inside the border, carved, never sharing a
/// cell or touching (not even at a corner). Then the layout rules of
/// `rooms` and `bsp`.
fn check_rooms(level: &Level, x: &Expect, dist: &[Option<u32>], params: &Params) {
    let (g, rooms) = (&level.grid, &level.rooms);
    let (w, h) = (x.width, x.height);
    if x.named("rooms") || x.named("bsp") {
        assert!(!rooms.is_empty(), "no rooms: {params:?}");
    }
    for r in rooms {
        assert!(
            r.w >= 1 && r.h >= 1 && r.x >= 2 && r.y >= 2 && r.x + r.w <= w && r.y + r.h <= h,
            "{r:?} outside the border: {params:?}"
        );
        assert!(r.cells().all(|p| g.get(p) != WALL), "{r:?} not carved");
    }
    // Linear: paint each room (plus one) into a grid; no room may find
    // another's paint inside itself or on its ring, corners included.
    let mut paint = vec![0u32; w * h];
    for (k, r) in rooms.iter().enumerate() {
        let id = k as u32 + 1;
        for p in r.cells() {
            let cell = &mut paint[g.index(p)];
            assert_eq!(*cell, 0, "{r:?} overlaps room {}: {params:?}", *cell - 1);
            *cell = id;
        }
    }
    for (k, r) in rooms.iter().enumerate() {
        let id = k as u32 + 1;
        for y in r.y - 1..=r.y + r.h {
            for px in r.x - 1..=r.x + r.w {
                let other = paint[g.index(Pos { x: px, y })];
                assert!(
                    other == 0 || other == id,
                    "{r:?} and {:?} touch: {params:?}",
                    rooms[other as usize - 1]
                );
            }
        }
    }
    if rooms.len() <= PAIRWISE_ROOMS {
        for (i, r) in rooms.iter().enumerate() {
            for other in &rooms[i + 1..] {
                assert!(
                    oracle::apart(r, other),
                    "{r:?} and {other:?} share a cell or touch"
                );
                assert!(
                    !r.crowds(other) && !other.crowds(r),
                    "{r:?} crowds {other:?}"
                );
            }
        }
    }
    if rooms.is_empty() {
        return;
    }
    let first = rooms[0];
    let centre = Pos {
        x: first.x + (first.w - 1) / 2,
        y: first.y + (first.h - 1) / 2,
    };
    if x.named("rooms") {
        let wanted = x.int("rooms").expect("rooms option") as usize;
        assert!(rooms.len() <= wanted, "{} rooms of {wanted}", rooms.len());
        // The room sizes given (today's constants by default), the most
        // cut down to the interior.
        let side = |name: &str, default: usize| x.int(name).map_or(default, |v| v as usize);
        let widths = side("room_min_width", MIN_ROOM_WIDTH)
            ..=side("room_max_width", MAX_ROOM_WIDTH).min(x.width - 2);
        let heights = side("room_min_height", MIN_ROOM_HEIGHT)
            ..=side("room_max_height", MAX_ROOM_HEIGHT).min(x.height - 2);
        for r in rooms {
            assert!(widths.contains(&r.w), "{r:?} not {widths:?} wide");
            assert!(heights.contains(&r.h), "{r:?} not {heights:?} high");
        }
        assert_eq!(level.player, centre, "@ not at the first room's centre");
        let last: &Rect = &rooms[rooms.len() - 1];
        assert!(
            last.cells().any(|p| p == level.stairs),
            "stairs outside the last room: {params:?}"
        );
    }
    if x.named("bsp") {
        let depth = x.int("depth").expect("depth option") as u32;
        assert!(
            rooms.len() <= 1usize << depth,
            "{} rooms at depth {depth}",
            rooms.len()
        );
        assert_eq!(level.player, centre, "@ not at the first room's centre");
        // > on the room cell with the longest walk from @, the first in row
        // order on a tie.
        let s = g.index(level.stairs);
        assert_ne!(paint[s], 0, "> outside the rooms: {params:?}");
        for (i, &id) in paint.iter().enumerate() {
            if id != 0 {
                assert!(
                    dist[i] <= dist[s],
                    "{:?} farther than >: {params:?}",
                    g.pos(i)
                );
                assert!(i >= s || dist[i] < dist[s], "{:?} ties > earlier", g.pos(i));
            }
        }
    }
}

/// With `doors`: `level.doors` lists every `+` once, in row order, each on
/// a room's ring (corners excluded) opening its wall one cell wide; taking
/// the openings in row order, each with the cell in front of it (outside
/// the first room whose ring has it open), an opening is a door exactly when
/// neither it nor its front touches (8 neighbours) an earlier door or that
/// door's front. Without: no `+` and no doors.
fn check_doors(level: &Level, wanted: bool, params: &Params) {
    let g = &level.grid;
    let plus: Vec<Pos> = (0..g.cells().len())
        .filter(|&i| g.cells()[i] == DOOR)
        .map(|i| g.pos(i))
        .collect();
    assert_eq!(level.doors, plus, "doors listed vs + cells: {params:?}");
    if !wanted {
        assert!(level.doors.is_empty());
        return;
    }
    let cell = |x: isize, y: isize| {
        let inside = x >= 1 && y >= 1 && x as usize <= g.width() && y as usize <= g.height();
        if inside {
            g.get(Pos {
                x: x as usize,
                y: y as usize,
            })
        } else {
            WALL
        }
    };
    let mut openings: Vec<(usize, Pos, Pos)> = Vec::new();
    for r in &level.rooms {
        let (x, y, w, h) = (r.x as isize, r.y as isize, r.w as isize, r.h as isize);
        let ring = (x..x + w)
            .flat_map(|cx| [((cx, y - 1), (0, 1)), ((cx, y + h), (0, -1))])
            .chain((y..y + h).flat_map(|cy| [((x - 1, cy), (1, 0)), ((x + w, cy), (-1, 0))]));
        for ((cx, cy), (dx, dy)) in ring {
            let opening = cell(cx, cy) != WALL
                && cell(cx + dx, cy + dy) != WALL
                && cell(cx - dx, cy - dy) != WALL
                && cell(cx + dy, cy + dx) == WALL
                && cell(cx - dy, cy - dx) == WALL;
            if opening {
                let at = |x: isize, y: isize| Pos {
                    x: x as usize,
                    y: y as usize,
                };
                let door = at(cx, cy);
                openings.push((g.index(door), door, at(cx - dx, cy - dy)));
            }
        }
    }
    // Stable: on one cell, the first room's front.
    openings.sort_by_key(|o| o.0);
    openings.dedup_by_key(|o| o.0);
    let touch = |a: Pos, b: Pos| a.x.abs_diff(b.x) <= 1 && a.y.abs_diff(b.y) <= 1;
    let mut doors: Vec<(Pos, Pos)> = Vec::new();
    for &(_, d, f) in &openings {
        let clear = doors
            .iter()
            .all(|&(e, g)| !touch(d, e) && !touch(d, g) && !touch(f, e) && !touch(f, g));
        if clear {
            doors.push((d, f));
        }
    }
    let doors: Vec<Pos> = doors.into_iter().map(|(d, _)| d).collect();
    assert_eq!(level.doors, doors, "doors vs wall openings: {params:?}");
}

fn check_render(g: &Grid) {
    let (w, h) = (g.width(), g.height());
    let mut want = Vec::with_capacity(w * h + h);
    for y in 0..h {
        if y > 0 {
            want.push(b'\n');
        }
        want.extend_from_slice(&g.cells()[y * w..(y + 1) * w]);
    }
    assert_eq!(g.render(), want, "render");
}

fn check_json(level: &Level) {
    let text = json::level(level);
    let v: Json = serde_json::from_str(&text).expect("json::level is not JSON");
    let g = &level.grid;
    assert_eq!(v["width"].as_u64(), Some(g.width() as u64));
    assert_eq!(v["height"].as_u64(), Some(g.height() as u64));
    assert_eq!(v["seed"].as_i64(), Some(level.seed));
    assert_eq!(v["algorithm"].as_str(), Some(level.algorithm));
    let pos = |p: &Json| (p["x"].as_u64(), p["y"].as_u64());
    let want = |p: Pos| (Some(p.x as u64), Some(p.y as u64));
    assert_eq!(pos(&v["player"]), want(level.player));
    assert_eq!(pos(&v["stairs"]), want(level.stairs));
    let rooms = v["rooms"].as_array().expect("rooms");
    assert_eq!(rooms.len(), level.rooms.len());
    for (j, r) in rooms.iter().zip(&level.rooms) {
        let got: Vec<_> = ["x", "y", "w", "h"].iter().map(|k| j[k].as_u64()).collect();
        let want: Vec<_> = [r.x, r.y, r.w, r.h]
            .iter()
            .map(|&n| Some(n as u64))
            .collect();
        assert_eq!(got, want);
    }
    let doors = v["doors"].as_array().expect("doors");
    assert_eq!(doors.len(), level.doors.len());
    for (j, &d) in doors.iter().zip(&level.doors) {
        assert_eq!(pos(j), want(d));
    }
    let items = v["items"].as_array().expect("items");
    assert_eq!(items.len(), level.items.len());
    for (j, item) in items.iter().zip(&level.items) {
        assert_eq!(pos(j), want(item.pos));
        assert_eq!(
            j["kind"].as_str(),
            Some((item.kind as char).to_string().as_str())
        );
    }
    let rows = v["rows"].as_array().expect("rows");
    if g.width() > 0 {
        assert_eq!(rows.len(), g.height());
    }
    for (j, row) in rows.iter().zip(g.rows()) {
        assert_eq!(j.as_str(), Some(String::from_utf8_lossy(row).as_ref()));
    }
}

// ---------------------------------------------------------------------------
// Mode: hand-made grids into render, check, distances and json.

fn fuzz_grid(u: &mut Unstructured) -> Result<()> {
    let (w, h): (usize, usize) = match u.int_in_range(0..=3u8)? {
        0 => (u.int_in_range(0..=12)?, u.int_in_range(0..=12)?),
        1 => (u.int_in_range(0..=200)?, u.int_in_range(0..=200)?),
        2 => (u.int_in_range(0..=4)?, u.int_in_range(0..=10_000)?),
        _ => (u.int_in_range(0..=10_000)?, u.int_in_range(0..=4)?),
    };
    let start = Pos {
        x: u.int_in_range(1..=w.max(1))?,
        y: u.int_in_range(1..=h.max(1))?,
    };
    let palette: &[u8] = match u.int_in_range(0..=2u8)? {
        0 => b"",
        1 => b"#.@>$!x#",
        _ => b"##.#..#.##..$>!@",
    };
    let seed: i64 = u.arbitrary()?;
    let put_player = u.arbitrary()?;
    let junk_level = u.arbitrary::<bool>()?;
    let src = u.bytes(u.len().min(w * h))?;
    let mut cells = Vec::with_capacity(w * h);
    for i in 0..w * h {
        let b = if src.is_empty() {
            FLOOR
        } else {
            src[i % src.len()]
        };
        cells.push(if palette.is_empty() {
            b
        } else {
            palette[b as usize % palette.len()]
        });
    }
    let mut g = Grid::from_cells(w, h, cells);
    if put_player && w > 0 && h > 0 {
        g.set(start, PLAYER);
    }
    let cells = w * h;

    let (rendered, heap) = measured(|| g.render());
    assert!(heap <= 2 * cells + FIXED_BYTES, "render held {heap} bytes");
    if w > 0 {
        // (A 0-wide grid renders as "", not as h-1 newlines: unreachable from
        // Lua, which refuses an empty row 1, so it is not asserted.)
        assert_eq!(rendered.len(), cells + h.saturating_sub(1));
        check_render(&g);
    }

    let (result, heap) = measured(|| reach::check(&g));
    assert!(
        heap <= BYTES_PER_CELL * cells + FIXED_BYTES,
        "check held {heap} bytes"
    );
    assert_eq!(result, oracle::reachability(&g), "reach::check disagrees");
    if let Err(e) = &result {
        let text = e.to_string();
        if let Unreachable::Cut { targets, .. } = e {
            assert_eq!(text.contains(" more"), targets.len() > 5, "{text}");
        }
    }

    if w > 0 && h > 0 {
        // The flood from `start`: the farthest floor cell, and what it reached.
        let ((flood, farthest), heap) = measured(|| {
            let mut flood = Flood::new(&g, |c| match c {
                WALL => flood::CLOSED,
                FLOOR => flood::WANTED,
                _ => flood::OPEN,
            });
            let farthest = flood.farthest(start);
            (flood, farthest)
        });
        assert!(
            heap <= BYTES_PER_CELL * cells + FIXED_BYTES,
            "the flood held {heap} bytes"
        );
        let floor = |p: Pos| g.get(p) == FLOOR;
        assert_eq!(
            farthest,
            oracle::farthest(&g, start, floor),
            "farthest floor"
        );
        let dist = oracle::walk_distances(&g, start);
        for i in (0..cells).filter(|&i| g.cells()[i] != WALL) {
            assert_eq!(flood.reached(g.pos(i)), dist[i].is_some(), "{:?}", g.pos(i));
        }
    }

    if junk_level {
        // json::level on a level nobody generated: it must still be JSON.
        let level = Level {
            grid: g,
            seed,
            algorithm: if seed & 1 == 0 { "rooms" } else { "cave" },
            rooms: vec![Rect {
                x: start.x,
                y: start.y,
                w: seed as usize,
                h: 0,
            }],
            doors: vec![
                start,
                Pos {
                    x: 0,
                    y: usize::MAX,
                },
            ],
            player: start,
            stairs: Pos {
                x: usize::MAX,
                y: 0,
            },
            items: vec![Item {
                pos: start,
                kind: (seed >> 8) as u8,
            }],
            vaults: vec![map::level::vaults::Vault {
                index: seed as usize,
                rect: Rect {
                    x: 0,
                    y: usize::MAX,
                    w: 1,
                    h: 1,
                },
                rotation: (seed >> 16) as u8,
            }],
            up: (seed & 2 == 0).then_some(start),
            placed: vec![map::level::place::Placed {
                char: (seed >> 24) as u8,
                pos: start,
            }],
            // Fewer entries than rooms, on purpose.
            exits: Default::default(),
            blocked: None,
            locks: (seed & 4 == 0).then(|| {
                vec![map::level::locks::Lock {
                    door: start,
                    door_char: (seed >> 32) as u8,
                    key: start,
                    key_char: b'"',
                }]
            }),
        };
        check_json(&level);
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// Mode: the options that direct a level (vaults, arrive, place, loops) on
// any generator of the registry.

/// The bytes templates are made of: the map's own, glyphs, spaces, and some
/// no template may hold.
const TEMPLATE_BYTES: &[u8] = b"##..+ @>M~_$!\t\x7f\x00\xff";

/// Rows for a template: mostly small and even, sometimes ragged, empty,
/// over 64 either way, or of any bytes.
fn template_rows<'a>(u: &mut Unstructured<'a>) -> Result<Vec<Vec<u8>>> {
    let (w, h): (usize, usize) = match u.int_in_range(0..=9u8)? {
        0 => (u.int_in_range(0..=66)?, u.int_in_range(0..=66)?),
        1 => (64, 64),
        _ => (u.int_in_range(1..=9)?, u.int_in_range(1..=7)?),
    };
    let ragged = one_in(u, 16)?;
    let mut rows = Vec::with_capacity(h);
    for _ in 0..h {
        let len = if ragged {
            u.int_in_range(0..=w + 1)?
        } else {
            w
        };
        let mut row = Vec::with_capacity(len);
        for _ in 0..len {
            row.push(match u.int_in_range(0..=15u8)? {
                0 => u.arbitrary()?,
                1..=3 => *u.choose(TEMPLATE_BYTES)?,
                4..=6 => b'#',
                _ => b'.',
            });
        }
        rows.push(row);
    }
    Ok(rows)
}

/// A count, flag or number field: left out, a usual value, or anything.
fn field<'a>(u: &mut Unstructured<'a>, usual: Arg<'a>) -> Result<Arg<'a>> {
    Ok(match u.int_in_range(0..=7u8)? {
        0..=2 => Arg::Missing,
        3..=5 => usual,
        _ => any_arg(u)?,
    })
}

fn fuzz_design(u: &mut Unstructured) -> Result<()> {
    use map::level::place::{self, Placement};
    use map::level::vaults::Template;
    let algorithm = LIST[u.choose_index(LIST.len())?];
    let w = u.int_in_range(algorithm.min_width..=120)?;
    let h = u.int_in_range(algorithm.min_height..=80)?;
    let mut params = Params {
        algorithm: Arg::Str(algorithm.name.as_bytes()),
        ..Params::new(
            Arg::Int(w as i64),
            Arg::Int(h as i64),
            Arg::Int(u.int_in_range(-MAX_SEED..=MAX_SEED)?),
        )
    }
    .with(b"items", Arg::Int(u.int_in_range(0..=4)?));
    for spec in algorithm.options {
        if spec.name == "doors" || spec.name == "loops" {
            params.set(spec.name.as_bytes(), in_range(u, spec.kind)?);
        }
    }
    // Each part is checked as the binding checks it; a refusal ends the case.
    let refused = |e: String, prefix: &str| {
        assert!(e.starts_with(prefix) && !e.contains("internal"), "{e}");
    };
    for n in 1..=u.int_in_range(0..=4)? {
        let rows = template_rows(u)?;
        let rows: Vec<&[u8]> = rows.iter().map(Vec::as_slice).collect();
        let usual = Arg::Int(u.int_in_range(0..=101)?);
        let count = field(u, usual)?;
        let (rotate, required) = (field(u, Arg::Bool(true))?, field(u, Arg::Bool(false))?);
        match Template::new(n, &rows, count, rotate, required) {
            Ok(t) => params.design.vaults.push(t),
            Err(e) => {
                refused(e, &format!("vaults[{n}]"));
                return Ok(());
            }
        }
    }
    if u.arbitrary()? {
        let (x, y) = (
            u.int_in_range(-1..=w as i64 + 1)?,
            u.int_in_range(-1..=h as i64 + 1)?,
        );
        params.design.arrive = Some((x, y));
    }
    for n in 1..=u.int_in_range(0..=3)? {
        let char = match u.int_in_range(0..=3u8)? {
            0 => any_arg(u)?,
            _ => Arg::Str(u.choose(&[&b"M"[..], b"k", b"&", b"#", b"@", b"$", b"MM"])?),
        };
        let usual = (
            Arg::Int(u.int_in_range(0..=40)?),
            Arg::Int(u.int_in_range(0..=30)?),
        );
        let (count, min) = (field(u, usual.0)?, field(u, usual.1)?);
        let hidden = field(u, Arg::Bool(true))?;
        let name = format!("place[{n}]");
        let per_room = match one_in(u, 4)? {
            true => {
                let usual = (
                    Arg::Int(u.int_in_range(0..=2)?),
                    Arg::Int(u.int_in_range(0..=4)?),
                );
                let (least, most) = (field(u, usual.0)?, field(u, usual.1)?);
                match place::per_room(&name, least, most) {
                    Ok(range) => Some(range),
                    Err(e) => {
                        refused(e, &name);
                        return Ok(());
                    }
                }
            }
            false => None,
        };
        let choose = match one_in(u, 4)? {
            true => {
                let mut choices = Vec::new();
                for i in 1..=u.int_in_range(1..=4)? {
                    let char = Arg::Str(u.choose(&[&b"M"[..], b"k", b"#", b"g"])?);
                    let usual = Arg::Int(u.int_in_range(0..=5)?);
                    let weight = field(u, usual)?;
                    match place::choice(&name, i, char, weight) {
                        Ok(c) => choices.push(c),
                        Err(e) => {
                            refused(e, &name);
                            return Ok(());
                        }
                    }
                }
                Some(choices)
            }
            false => None,
        };
        let (count, char) = match (per_room.is_some(), choose.is_some()) {
            (true, _) if one_in(u, 2)? => (Arg::Missing, char),
            (_, true) if one_in(u, 2)? => (count, Arg::Missing),
            _ => (count, char),
        };
        match Placement::designed(n, [char, count, min, hidden], per_room, choose) {
            Ok(p) => params.design.place.push(p),
            Err(e) => {
                refused(e, &format!("place[{n}]"));
                return Ok(());
            }
        }
    }
    let cells = w * h;
    // What `generate` checks before it makes anything: the level's, the
    // design's and the generator's own (`example`'s solver); a refusal
    // there holds no more than the level's and the design's.
    let declared = map::level::bound_of(&params);
    let (result, heap) = measured(|| generate(&params));
    let bound = declared.unwrap_or(map::level::bound(cells) + params.design.bound(cells));
    assert!(
        heap <= bound,
        "generate held {heap} bytes, bound {bound}: {params:?}"
    );
    // Off rock, vaults and arrive are refused before anything is made.
    let off_rock = !algorithm.carves_rock()
        && (!params.design.vaults.is_empty() || params.design.arrive.is_some());
    if off_rock {
        let asked = if params.design.vaults.is_empty() {
            "arrive"
        } else {
            "vaults"
        };
        let e = result.expect_err("vaults or arrive taken off rock");
        let why = format!("{asked} applies only to levels carved from rock");
        assert!(e.starts_with(&why), "{e}: {params:?}");
        return Ok(());
    }
    let level = match result {
        Ok(level) => level,
        Err(e) => {
            let named = [
                "vault",
                "arrive",
                "place",
                "cannot place",
                "no floor cell outside the vaults",
            ];
            let fill = e.contains("@ and > need at least 2");
            assert!(
                named.iter().any(|n| e.starts_with(n)) || fill,
                "refused: {e}: {params:?}"
            );
            assert!(!e.contains("internal"), "{e}: {params:?}");
            return Ok(());
        }
    };
    let g = &level.grid;
    let case = format!("{params:?}");
    let count = |c: u8| g.cells().iter().filter(|&&v| v == c).count();
    assert_eq!(
        (count(PLAYER), count(STAIRS)),
        (1, 1),
        "@ and > counts: {case}"
    );
    assert_eq!(
        (g.get(level.player), g.get(level.stairs)),
        (PLAYER, STAIRS),
        "{case}"
    );
    let terrain = algorithm.terrain;
    for i in 0..cells {
        let p = g.pos(i);
        if p.x == 1 || p.y == 1 || p.x == w || p.y == h {
            assert_eq!(
                g.cells()[i],
                terrain.border,
                "border broken at {p:?}: {case}"
            );
        }
    }
    let blocked = terrain.blocked.as_bytes();
    let dist = oracle::walk_distances_by(g, level.player, blocked);
    for (i, (&cell, d)) in g.cells().iter().zip(&dist).enumerate() {
        assert!(
            blocked.contains(&cell) || d.is_some(),
            "{:?} cut off: {case}",
            g.pos(i)
        );
    }
    oracle::check_vaults(&level, &params, &case);
    oracle::check_placed(&level, &params, &dist, &case);
    oracle::check_stairs(&level, &params, &dist, &case);
    for item in &level.items {
        assert!(
            !oracle::in_vault(&level, item.pos),
            "an item in a vault: {case}"
        );
    }
    if params
        .design
        .vaults
        .iter()
        .all(|t| !t.cells.contains(&DOOR))
    {
        oracle::check_doors_and_exits(&level, &case);
    }
    check_json(&level);
    if cells <= REPEAT_CELLS {
        assert_eq!(generate(&params).as_ref(), Ok(&level), "not deterministic");
    }
    Ok(())
}

fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    let _ = match u.int_in_range(0..=11u8) {
        Ok(0..=5) => fuzz_generate(&mut u),
        Ok(6) => fuzz_huge(&mut u),
        Ok(7 | 8) => fuzz_design(&mut u),
        _ => fuzz_grid(&mut u),
    };
});
