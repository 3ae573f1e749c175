//! A random source (`map.rng`, docs/api.md#maprngseed--state) as a
//! userdata: its kind and methods. Every draw is made in Rust from the
//! source's integers (toolbox/random.rs), so that both interpreters get
//! the same numbers, bit for bit. A method that fails leaves the source as
//! it was. (`rng = r` in the options of `generate` and `sample`:
//! `shared/seed.rs`.)

#![deny(unsafe_op_in_unsafe_fn)]

use std::cell::Cell;
use std::ffi::c_int;
use std::ptr::NonNull;

use mlua::ffi::{self, lua_State};

use crate::input::{self, Arg, MAX_SEED};
use crate::lua::stack::block::{changes, methods, native_method_mut, Kind, Native};
use crate::lua::stack::push::make_room;
use crate::lua::stack::{Args, Fresh, Key, Method, Reply};
use crate::memory;
use crate::toolbox::random::{self, Dice, Draw, Random, Weights};

static KIND: Kind = Kind::new("rng", "rng", "an", b"map_rng_");

impl Native for Random {
    fn kind() -> &'static Kind {
        &KIND
    }
    const METHODS: &'static [Method] = METHODS;
    type Property = ();
    fn text(&self) -> String {
        String::new()
    }
    fn bytes(&self) -> usize {
        std::mem::size_of::<Random>()
    }
}

/// The most values one `fill` writes.
pub const MAX_FILL: i64 = 1 << 24;

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
    if let Some(source) = args.native(1, &KIND) {
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
            1 => Some(Draw::Float(r.float())),
            2 => int(2)
                .filter(|&n| n >= 1)
                .map(|n| Draw::Int(r.below(n as u64) as i64 + 1)),
            3 => match (int(2), int(3)) {
                (Some(m), Some(n)) if m <= n => Some(Draw::Int(r.between(m, n))),
                _ => None,
            },
            _ => None,
        };
        if let Some(n) = drawn {
            // SAFETY: one slot of the LUA_MINSTACK a C function has.
            unsafe { push_draw(state, n) };
            return 1;
        }
    }
    // SAFETY: as above.
    unsafe { random(state) }
}

methods! {
    "rng", native_method_mut::<Random, _>, changes::<Random, _, _>;
    random as random_fast => |args, r: &mut Random| {
        args.at_most(3)?;
        let (lo, hi) = match range(args, 2)? {
            None => return Ok(Draw::Float(r.float())),
            Some(range) => range,
        };
        Ok(Draw::Int(draw(r, lo, hi)))
    },
    normal => |args, r: &mut Random| {
        args.at_most(3)?;
        let mean = finite(args.get(2), "mean", 0.0)?;
        let sd = finite(args.get(3), "sd", 1.0)?;
        if sd < 0.0 {
            return Err(format!("sd must be a finite number >= 0, got {}", args.get(3)));
        }
        Ok(Draw::Float(mean + sd * r.normal()))
    },
    dice => |args, r: &mut Random| {
        args.at_most(2)?;
        let dice = match args.get(2) {
            Arg::Str(text) => Dice::parse(text)?,
            other => return Err(format!("dice must be a string like \"3d6+2\", got {}", other.type_name())),
        };
        Ok(Draw::Int(dice.roll(r)))
    },
    pick => |args, r: &mut Random| {
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
        Ok(Element(i as i64))
    },
    weighted => |args, r: &mut Random| {
        args.at_most(2)?;
        Ok(Draw::Int(weighted_index(args, r)? as i64))
    },
    shuffle => |args, r: &mut Random| {
        args.at_most(2)?;
        let n = array(args, 2, "array")?;
        if let Some(i) = (1..=n).find(|&i| !args.with_field(2, Key::Index(i), |a, top| a.at(top) != Arg::Missing)) {
            return Err(format!("array[{i}] is nil: shuffle takes an array without holes"));
        }
        Ok(Shuffled { rng: r, n })
    },
    fill => |args, r: &mut Random| {
        args.at_most(5)?;
        if !args.is_table(2) {
            return Err(format!("t must be a table, got {}", args.get(2).type_name()));
        }
        let count = input::int_in("count", args.get(3), 0, MAX_FILL)? as usize;
        let range = range(args, 4)?;
        memory::check(random::bound_fill(count))?;
        // Drawn from a copy: the source moves once `t` is filled.
        let mut after = r.clone();
        Ok(Filled {
            values: after.fill(count, range),
            source: NonNull::from(r),
            after,
            added: vec![Cell::new(false); count].into_boxed_slice(),
        })
    },
    state => |args, r: &mut Random| {
        args.at_most(1)?;
        Ok(r.save().into_bytes())
    },
    clone => |args, r: &mut Random| {
        args.at_most(1)?;
        Ok(Fresh::new(r.clone()))
    },
}



/// `random`'s bounds from argument `at` on, as `math.random` takes them:
/// none (a float), `n` (1..n) or `m, n` (m..n); each an integer with
/// `|v| <= 2^53`, the interval not empty.
fn range(args: &Args, at: c_int) -> Result<Option<(i64, i64)>, String> {
    let bound = |i: c_int, name: &str| {
        let arg = args.get(i);
        bound(arg).ok_or_else(|| format!("{name} must be an integer with |{name}| <= 2^53, got {arg}"))
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

/// A bound of `random`: an integer within ±2^53.
pub fn bound(arg: Arg) -> Option<i64> {
    arg.integer().filter(|v| v.unsigned_abs() <= MAX_SEED as u64)
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

/// A draw: an integer, or a float.
impl Reply for Draw {
    unsafe fn push_on(&self, l: *mut lua_State) -> c_int {
        // SAFETY: one slot.
        unsafe { push_draw(l, *self) };
        1
    }
    unsafe fn push_plain_on(&self, l: *mut lua_State) -> Option<c_int> {
        // SAFETY: one slot, nothing allocated.
        unsafe { push_draw(l, *self) };
        Some(1)
    }
}

/// # Safety
/// One free slot.
pub unsafe fn push_draw(l: *mut lua_State, n: Draw) {
    // SAFETY: a number allocates nothing.
    unsafe {
        match n {
            Draw::Int(n) => ffi::lua_pushinteger(l, n as ffi::lua_Integer),
            Draw::Float(x) => ffi::lua_pushnumber(l, x),
        }
    }
}

/// Element `index` of the array at argument 2 (`pick`'s), raw: it
/// allocates nothing.
struct Element(i64);

impl Reply for Element {
    unsafe fn push_on(&self, l: *mut lua_State) -> c_int {
        // SAFETY: as `push_plain`'s.
        unsafe { self.push_plain_on(l) }.unwrap_or(0)
    }
    unsafe fn push_plain_on(&self, l: *mut lua_State) -> Option<c_int> {
        // SAFETY: a raw read of an argument, one slot.
        unsafe { ffi::lua_rawgeti(l, 2, self.0 as ffi::lua_Integer) };
        Some(1)
    }
}

/// `r:shuffle(array)`: the array (argument 2, carried to 1) shuffled in
/// place by `rng`, then returned.
struct Shuffled {
    rng: *mut Random,
    n: usize,
}

impl Reply for Shuffled {
    unsafe fn push_on(&self, l: *mut lua_State) -> c_int {
        // SAFETY: raw reads and sets of present keys (the array has no
        // hole: checked): nothing allocates, nothing runs, so `rng` is the
        // only reference to the source while it draws.
        unsafe {
            make_room(l, 8);
            let rng = &mut *self.rng;
            for i in (2..=self.n as u64).rev() {
                let j = rng.below(i) + 1;
                if j != i {
                    ffi::lua_rawgeti(l, 1, i as ffi::lua_Integer);
                    ffi::lua_rawgeti(l, 1, j as ffi::lua_Integer);
                    ffi::lua_rawseti(l, 1, i as ffi::lua_Integer);
                    ffi::lua_rawseti(l, 1, j as ffi::lua_Integer);
                }
            }
            ffi::lua_pushvalue(l, 1);
        }
        1
    }
    fn carried(&self) -> &'static [c_int] {
        &[2]
    }
}

/// `r:fill(t, ...)`: `t` (argument 2, carried to 1) given these values from
/// 1 on, then returned, and the source (`source`) moved to `after`. The
/// keys `t` lacks are added first (the table may grow: running out of
/// memory ends the protected call, and `undo` takes the added keys away);
/// then every value is set, which allocates nothing, every key present. So
/// a fill that fails leaves the table and the source as they were.
struct Filled {
    values: Vec<Draw>,
    source: NonNull<Random>,
    after: Random,
    /// Whether each key was added to `t`: cells, not a `RefCell`, as a
    /// Lua error may end `push_on` where no guard would be dropped.
    added: Box<[Cell<bool>]>,
}

impl Reply for Filled {
    unsafe fn push_on(&self, l: *mut lua_State) -> c_int {
        // SAFETY: the pushers' contract; one value pushed and set at a time.
        unsafe {
            make_room(l, 8);
            for (i, added) in (1..).zip(self.added.iter()) {
                if ffi::lua_rawgeti(l, 1, i) == ffi::LUA_TNIL {
                    ffi::lua_pushboolean(l, 0);
                    ffi::lua_rawseti(l, 1, i);
                    added.set(true);
                }
                ffi::lua_settop(l, -2);
            }
            for (i, &v) in self.values.iter().enumerate() {
                push_draw(l, v);
                ffi::lua_rawseti(l, 1, i as ffi::lua_Integer + 1);
            }
            ffi::lua_pushvalue(l, 1);
        }
        1
    }
    fn carried(&self) -> &'static [c_int] {
        &[2]
    }
    unsafe fn commit(&self) {
        // SAFETY: the source is argument 1, alive; nothing else refers to it.
        unsafe { *self.source.as_ptr() = self.after.clone() };
    }
    unsafe fn undo(&self, l: *mut lua_State) {
        // SAFETY: `t` is argument 2; setting a present key to nil allocates
        // nothing.
        unsafe {
            for (i, added) in (1..).zip(self.added.iter()) {
                if added.get() {
                    ffi::lua_pushnil(l);
                    ffi::lua_rawseti(l, 2, i);
                }
            }
        }
    }
}
