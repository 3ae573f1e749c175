//! `map.scheduler` (docs/api.md#mapschedulerstate-actors): the order of
//! turns as a userdata, its methods, `#s`. The queue is Rust's
//! (toolbox/scheduler.rs), over slots; the actors, any Lua values, are in
//! two tables in the userdata's user value (slot -> actor, actor -> slot),
//! read raw, so that no metamethod of an actor ever runs. An actor is
//! written into them in the push step (toolbox.rs), before the queue takes
//! it.

use std::ffi::c_int;

use mlua::ffi::{self, lua_State};

use super::calling::call;
use super::native::{self, Fresh, Kind, Metatable};
use super::read::Args;
use super::toolbox::{slot_of, Number, Out};
use super::Reply;
use crate::input::Arg;
use crate::memory;
use crate::toolbox::scheduler::{self, Scheduler, MAX_SPEED, MAX_TURNS, MIN_SPEED};

pub const METATABLE: Metatable = Metatable {
    kind: Kind::Scheduler,
    methods: METHODS,
    tostring,
    metamethods: &[("__len", len)],
};

/// Runs `body` as the method `name` of the scheduler at argument 1.
///
/// # Safety
/// As `call`'s.
unsafe fn method(
    state: *mut lua_State,
    name: &str,
    body: impl FnOnce(&Args, &mut Scheduler) -> Result<Reply, String>,
) -> c_int {
    // SAFETY: the caller's promise; `self` is the only native these
    // methods reach, so its reference is the only one.
    unsafe {
        call(state, name, |args| {
            body(args, native::this_mut::<Scheduler>(args)?)
        })
    }
}

native::methods! {
    "scheduler";
    add => |args, s| {
        args.at_most(3)?;
        actor(args)?;
        let speed = number(args.get(3), "speed", MIN_SPEED, MAX_SPEED, "from 2^-20 to 2^20")?;
        if slot_of(args, 1, 2).is_some() {
            return Err("actor is already in the scheduler (remove it first)".into());
        }
        let period = scheduler::units(speed, true).ok_or(crate::input::INTERNAL_ERROR)?;
        if let Some(bytes) = s.can_add(period)? {
            memory::check(bytes)?;
        }
        let slot = s.next_slot();
        Ok(Reply::Toolbox(Out::Added { scheduler: s, slot, period }))
    },
    next => |args, s| {
        args.at_most(1)?;
        Ok(match s.next_turn()? {
            None => Reply::Nothing,
            Some((slot, time)) => Reply::Toolbox(Out::Turn { slot, time: time_of(time) }),
        })
    },
    remove => |args, s| {
        args.at_most(2)?;
        actor(args)?;
        let Some(slot) = slot_of(args, 1, 2).filter(|&slot| s.holds(slot)) else {
            return Ok(Reply::Boolean(false));
        };
        s.remove(slot);
        Ok(Reply::Toolbox(Out::Removed { slot }))
    },
    delay => |args, s| {
        args.at_most(3)?;
        actor(args)?;
        let t = number(args.get(3), "t", 0.0, MAX_TURNS as f64, "from 0 to 2^53")?;
        let Some(slot) = slot_of(args, 1, 2).filter(|&slot| s.holds(slot)) else {
            return Err("actor is not in the scheduler".into());
        };
        let by = match t > 0.0 {
            true => scheduler::units(t, false).ok_or(crate::input::INTERNAL_ERROR)?,
            false => 0,
        };
        s.delay(slot, by)?;
        Ok(Reply::Nothing)
    },
    time => |args, s| {
        args.at_most(1)?;
        Ok(Reply::Toolbox(Out::Number(time_of(s.now()))))
    },
    state => |args, s| {
        args.at_most(1)?;
        memory::check(memory::bound_scheduler_state(s.len()))?;
        Ok(Reply::Text(s.save().into_bytes()))
    },
    actors => |args, s| {
        args.at_most(1)?;
        memory::check(memory::bound_scheduler_state(s.len()))?;
        Ok(Reply::Toolbox(Out::Actors(s.by_order())))
    },
}

/// A time in units as Lua gets it: an integer when it is a whole number
/// of turns (printed alike on both interpreters), else a float.
fn time_of(units: u128) -> Number {
    match scheduler::whole_turns(units) {
        Some(n) => Number::Int(n as i64),
        None => Number::Float(scheduler::turns(units)),
    }
}

/// Checks the actor at argument 2: any value a table can key.
fn actor(args: &Args) -> Result<(), String> {
    match args.get(2) {
        Arg::Missing => Err("actor must not be nil".into()),
        Arg::Float(x) if x.is_nan() => Err("actor must not be NaN".into()),
        _ => Ok(()),
    }
}

/// A number argument within `min..=max` (`range` in words).
fn number(arg: Arg, name: &str, min: f64, max: f64, range: &str) -> Result<f64, String> {
    let x = match arg {
        Arg::Int(i) => i as f64,
        Arg::Float(x) => x,
        _ => f64::NAN,
    };
    if !(min..=max).contains(&x) {
        return Err(format!("{name} must be a number {range}, got {arg}"));
    }
    Ok(x)
}

/// `#s`: how many actors.
///
/// # Safety
/// A Lua C function with the upvalues of `Upvalues::register`.
unsafe extern "C-unwind" fn len(state: *mut lua_State) -> c_int {
    // SAFETY: Lua called this function with a valid state.
    unsafe {
        call(state, "scheduler:__len", |args| {
            Ok(Reply::Integer(native::this::<Scheduler>(args)?.len() as i64))
        })
    }
}

/// `tostring(s)`: `map.scheduler: 3 actors`.
///
/// # Safety
/// A Lua C function with the upvalues of `Upvalues::register`.
unsafe extern "C-unwind" fn tostring(state: *mut lua_State) -> c_int {
    // SAFETY: Lua called this function with a valid state.
    unsafe { native::tostring::<Scheduler>(state, |s| format!(": {} actors", s.len())) }
}

/// `map.scheduler()`, or `map.scheduler(state, actors)`: a scheduler
/// saved by `s:state()`, its actors the game's, in the order `s:actors()`
/// gave them.
///
/// # Safety
/// See `EXPORTS` (mod.rs).
pub unsafe extern "C-unwind" fn new_scheduler(state: *mut lua_State) -> c_int {
    // SAFETY: Lua called this function with a valid state.
    unsafe {
        call(state, "map.scheduler", |args| {
            args.at_most(2)?;
            let text = match args.get(1) {
                Arg::Missing if args.get(2) == Arg::Missing => {
                    let fresh = Fresh::new(Scheduler::new());
                    return Ok(Reply::Toolbox(Out::NewScheduler { fresh, actors: 0 }));
                }
                Arg::Str(text) => text,
                other => {
                    return Err(format!(
                        "state must be a string from scheduler:state(), got {}",
                        other.type_name()
                    ))
                }
            };
            let named = Scheduler::count_saved(text);
            memory::check(memory::bound_scheduler(named))?;
            let s = Scheduler::load(text)?;
            let n = s.len();
            let given = match args.is_table(2) {
                true => args.length(2),
                false if n == 0 && args.get(2) == Arg::Missing => 0,
                false => {
                    return Err(format!(
                        "actors must be an array of the state's {n} actors (in the order of scheduler:actors()), got {}",
                        args.get(2).type_name()
                    ))
                }
            };
            if given != n {
                return Err(format!("actors has {given} actors, the state names {n}"));
            }
            Ok(Reply::Toolbox(Out::NewScheduler {
                fresh: Fresh::new(s),
                actors: n,
            }))
        })
    }
}
