//! `map.rng` (docs/api.md#maprngseed--state): a random source as a
//! userdata, its methods, and `rng = r` in the options of `generate` and
//! `sample` (`seed_option`). Every draw is made in Rust from the source's
//! integers (toolbox/random.rs), so that both interpreters get the same
//! numbers, bit for bit. A method that fails leaves the source as it was.

use std::ffi::c_int;
use std::ptr::NonNull;

use mlua::ffi::{self, lua_State};

use super::calling::call;
use super::native::{self, Fresh, Kind, Metatable};
use super::read::{Args, Field, Key};
use super::toolbox::{Number, Out};
use super::Reply;
use crate::input::{self, Arg, MAX_SEED};
use crate::memory;
use crate::toolbox::random::{Dice, Random, Weights};

pub const METATABLE: Metatable = Metatable {
    kind: Kind::Rng,
    methods: METHODS,
    tostring,
    metamethods: &[],
};

/// The most values one `fill` writes.
pub const MAX_FILL: i64 = 1 << 24;

/// Runs `body` as the method `name` of the source at argument 1.
///
/// # Safety
/// As `call`'s.
unsafe fn method(
    state: *mut lua_State,
    name: &str,
    body: impl FnOnce(&Args, &mut Random) -> Result<Reply, String>,
) -> c_int {
    // SAFETY: the caller's promise; `self` is the only native a method of
    // a source reads, so its reference is the only one.
    unsafe {
        call(state, name, |args| {
            body(args, native::this_mut::<Random>(args)?)
        })
    }
}

/// The methods; `random` the fast one (`random_fast`).
const METHODS: &[(&str, ffi::lua_CFunction)] = &[
    ("random", random_fast),
    ("normal", normal),
    ("dice", dice),
    ("pick", pick),
    ("weighted", weighted),
    ("shuffle", shuffle),
    ("fill", fill),
    ("state", state),
    ("clone", clone),
];

/// `r:random(...)` for its common calls, `()`, `(n)` and `(m, n)` with
/// `self` a live source and the bounds integers within ±2^53, the
/// interval not empty: the draw pushed at once, without `call`'s steps,
/// as nothing here can fail: the reads are raw and allocate nothing, the
/// draw is integer arithmetic that cannot panic (the bounds checked), the
/// push is a number, and no Rust value needs dropping. Anything else goes
/// to `random`, which checks it all and names what is wrong. It halves
/// the cost of a call on Lua 5.4 (docs/performance.md).
///
/// # Safety
/// Lua calls it as a method, with the upvalues of `Upvalues::register`.
unsafe extern "C-unwind" fn random_fast(state: *mut lua_State) -> c_int {
    // SAFETY: Lua called this function with a valid state; `Args` lives
    // only in this call.
    let args = unsafe { Args::new(state) };
    if let Some(source) = args.native(1, Kind::Rng) {
        // SAFETY: a live source, argument 1 (as `native::this_mut`).
        let r = unsafe { &mut *source.cast::<Random>() };
        // A number with an integer value within ±2^53: one type check and
        // one conversion (strings, which `lua_tointegerx` would convert,
        // are not numbers here and go to `random`).
        let int = |i| {
            // SAFETY: reads of the call's own arguments, which allocate
            // nothing (a number is converted in place).
            unsafe {
                if ffi::lua_type(state, i) != ffi::LUA_TNUMBER {
                    return None;
                }
                let mut exact = 0;
                let v = ffi::lua_tointegerx(state, i, &mut exact);
                (exact != 0 && v.unsigned_abs() <= MAX_SEED as u64).then_some(v as i64)
            }
        };
        let drawn = match args.count() {
            1 => Some(Number::Float(r.float())),
            2 => int(2)
                .filter(|&n| n >= 1)
                .map(|n| Number::Int(r.below(n as u64) as i64 + 1)),
            3 => match (int(2), int(3)) {
                (Some(m), Some(n)) if m <= n => Some(Number::Int(r.between(m, n))),
                _ => None,
            },
            _ => None,
        };
        if let Some(n) = drawn {
            // SAFETY: one slot of the LUA_MINSTACK a C function has.
            unsafe { super::toolbox::push_number(state, n) };
            return 1;
        }
    }
    // SAFETY: as above.
    unsafe { random(state) }
}

native::methods! {
    "rng", own list;
    random => |args, r| {
        args.at_most(3)?;
        let (lo, hi) = match range(args, 2)? {
            None => return Ok(number(Number::Float(r.float()))),
            Some(range) => range,
        };
        Ok(number(Number::Int(draw(r, lo, hi))))
    },
    normal => |args, r| {
        args.at_most(3)?;
        let mean = finite(args.get(2), "mean", 0.0)?;
        let sd = finite(args.get(3), "sd", 1.0)?;
        if sd < 0.0 {
            return Err(format!("sd must be a finite number >= 0, got {}", args.get(3)));
        }
        Ok(number(Number::Float(mean + sd * r.normal())))
    },
    dice => |args, r| {
        args.at_most(2)?;
        let dice = match args.get(2) {
            Arg::Str(text) => Dice::parse(text)?,
            other => return Err(format!("dice must be a string like \"3d6+2\", got {}", other.type_name())),
        };
        Ok(number(Number::Int(dice.roll(r))))
    },
    pick => |args, r| {
        args.at_most(2)?;
        let n = array(args, 2, "array")?;
        if n == 0 {
            return Err("array is empty: nothing to pick".into());
        }
        let mut after = r.clone();
        let i = after.below(n as u64) as usize + 1;
        if !args.with_field(2, Key::Index(i), |a, top| a.at(top) != Arg::Missing) {
            return Err(format!("array[{i}] is nil: pick takes an array without holes"));
        }
        *r = after;
        Ok(Reply::Toolbox(Out::Element { table: 2, index: i as i64 }))
    },
    weighted => |args, r| {
        args.at_most(2)?;
        Ok(number(Number::Int(weighted_index(args, r)? as i64)))
    },
    shuffle => |args, r| {
        args.at_most(2)?;
        let n = array(args, 2, "array")?;
        if let Some(i) = (1..=n).find(|&i| !args.with_field(2, Key::Index(i), |a, top| a.at(top) != Arg::Missing)) {
            return Err(format!("array[{i}] is nil: shuffle takes an array without holes"));
        }
        Ok(Reply::Toolbox(Out::Shuffled { rng: r, n }))
    },
    fill => |args, r| {
        args.at_most(5)?;
        if !args.is_table(2) {
            return Err(format!("t must be a table, got {}", args.get(2).type_name()));
        }
        let count = input::int_in("count", args.get(3), 0, MAX_FILL)? as usize;
        let range = range(args, 4)?;
        memory::check(memory::bound_fill(count))?;
        Ok(Reply::Toolbox(Out::Filled(r.fill(count, range))))
    },
    state => |args, r| {
        args.at_most(1)?;
        Ok(Reply::Text(r.save().into_bytes()))
    },
    clone => |args, r| {
        args.at_most(1)?;
        Ok(Reply::Toolbox(Out::NewRng(Fresh::new(r.clone()))))
    },
}

fn number(n: Number) -> Reply {
    Reply::Toolbox(Out::Number(n))
}

/// `random`'s bounds from argument `at` on, as `math.random` takes them:
/// none (a float), `n` (1..n) or `m, n` (m..n); each an integer with
/// `|v| <= 2^53`, the interval not empty.
fn range(args: &Args, at: c_int) -> Result<Option<(i64, i64)>, String> {
    let bound = |i: c_int, name: &str| {
        let arg = args.get(i);
        match arg.integer() {
            Some(v) if v.unsigned_abs() <= MAX_SEED as u64 => Ok(v),
            _ => Err(format!(
                "{name} must be an integer with |{name}| <= 2^53, got {arg}"
            )),
        }
    };
    match args.count() - at + 1 {
        n if n <= 0 => Ok(None),
        1 => {
            let n = bound(at, "n")?;
            if n < 1 {
                return Err(format!("interval is empty (n = {n})"));
            }
            Ok(Some((1, n)))
        }
        _ => {
            let (m, n) = (bound(at, "m")?, bound(at + 1, "n")?);
            if m > n {
                return Err(format!("interval is empty (m = {m} > n = {n})"));
            }
            Ok(Some((m, n)))
        }
    }
}

/// An integer in `lo..=hi` (within ±2^53): 1..n is `below(n) + 1`.
fn draw(r: &mut Random, lo: i64, hi: i64) -> i64 {
    r.between(lo, hi)
}

/// A number argument, `default` when absent; finite.
fn finite(arg: Arg, name: &str, default: f64) -> Result<f64, String> {
    let x = match arg {
        Arg::Missing => return Ok(default),
        Arg::Int(i) => i as f64,
        Arg::Float(x) => x,
        other => {
            return Err(format!(
                "{name} must be a finite number, got {}",
                other.type_name()
            ))
        }
    };
    if !x.is_finite() {
        return Err(format!("{name} must be a finite number, got {arg}"));
    }
    Ok(x)
}

/// The length of the array at `at` (`name` in messages): its probe border.
fn array(args: &Args, at: c_int, name: &str) -> Result<usize, String> {
    if !args.is_table(at) {
        return Err(format!(
            "{name} must be an array (a table), got {}",
            args.get(at).type_name()
        ));
    }
    Ok(args.length(at))
}

/// `weighted`'s index: the weights read raw three times (checked and the
/// largest found; summed as integers; walked to the drawn one), nothing
/// kept between.
fn weighted_index(args: &Args, r: &mut Random) -> Result<usize, String> {
    let n = array(args, 2, "weights")?;
    if n == 0 {
        return Err("weights is empty: nothing to draw".into());
    }
    let weight = |i: usize| {
        args.with_field(2, Key::Index(i), |a, top| match a.at(top) {
            Arg::Int(k) if k >= 0 => Ok(k as f64),
            Arg::Float(x) if x.is_finite() && x >= 0.0 => Ok(x),
            other => Err(format!(
                "weights[{i}] must be a finite number >= 0, got {other}"
            )),
        })
    };
    let mut max = 0.0f64;
    for i in 1..=n {
        max = max.max(weight(i)?);
    }
    if max == 0.0 {
        return Err("weights are all zero: nothing to draw".into());
    }
    let scale = Weights::for_largest(max);
    let mut total = 0u128;
    for i in 1..=n {
        total += u128::from(scale.scaled(weight(i)?));
    }
    let mut pick = r.below_wide(total);
    for i in 1..=n {
        let w = u128::from(scale.scaled(weight(i)?));
        if pick < w {
            return Ok(i);
        }
        pick -= w;
    }
    Err(crate::input::INTERNAL_ERROR.into())
}

/// `tostring(r)`: `map.rng`.
///
/// # Safety
/// A Lua C function with the upvalues of `Upvalues::register`.
unsafe extern "C-unwind" fn tostring(state: *mut lua_State) -> c_int {
    // SAFETY: Lua called this function with a valid state.
    unsafe { native::tostring::<Random>(state, |_| String::new()) }
}

/// `map.rng([seed | state])`: a new random source, from a seed (an
/// integer, `|seed| <= 2^53`; a fresh one when none) or a saved state.
///
/// # Safety
/// See `EXPORTS` (mod.rs).
pub unsafe extern "C-unwind" fn new_rng(state: *mut lua_State) -> c_int {
    // SAFETY: Lua called this function with a valid state.
    unsafe {
        call(state, "map.rng", |args| {
            args.at_most(1)?;
            let r = match args.get(1) {
                Arg::Str(text) => Random::load(text)?,
                arg @ (Arg::Missing | Arg::Int(_) | Arg::Float(_)) => Random::new(input::seed(arg)?),
                other => {
                    return Err(format!(
                        "expected a seed (an integer with |seed| <= 2^53) or a state (rng:state()), got {}",
                        other.type_name()
                    ))
                }
            };
            Ok(Reply::Toolbox(Out::NewRng(Fresh::new(r))))
        })
    }
}

/// A seed drawn from a source, kept aside until the call it seeds has
/// succeeded (`commit`): a call that fails leaves the source as it was.
#[derive(Default)]
pub struct SeedDraw(Option<(NonNull<Random>, Random)>);

impl SeedDraw {
    /// Advances the source past the seed drawn.
    pub fn commit(self) {
        if let Some((source, after)) = self.0 {
            // SAFETY: the source is a userdata the call's arguments hold
            // (`seed_option`), alive and reached by nothing else during
            // the call, in which no Lua code runs.
            unsafe { *source.as_ptr() = after };
        }
    }
}

/// The seed that the options table at `options_at` gives with `rng = r`
/// (`given`: the option was there), unless `seed` is given too; `seed`
/// itself when not.
pub fn seed_option<'a>(
    args: &Args,
    options_at: c_int,
    given: bool,
    seed: Arg<'a>,
) -> Result<(Arg<'a>, SeedDraw), String> {
    if !given {
        return Ok((seed, SeedDraw::default()));
    }
    if seed != Arg::Missing {
        return Err("seed and rng are exclusive: give one".into());
    }
    let source = args.with_field(options_at, Key::Field(Field::Rng), |a, top| {
        a.native(top, Kind::Rng).ok_or_else(|| {
            format!(
                "rng must be a random source (map.rng), got {}",
                native::what(a, top)
            )
        })
    })?;
    let source = NonNull::new(source.cast::<Random>()).ok_or(crate::input::INTERNAL_ERROR)?;
    // SAFETY: as `SeedDraw::commit`'s.
    let mut after = unsafe { source.as_ref() }.clone();
    let seed = after.seed();
    Ok((Arg::Int(seed), SeedDraw(Some((source, after)))))
}
