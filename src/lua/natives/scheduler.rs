//! `map.scheduler` (docs/api.md#mapschedulerstate-actors): the order of
//! turns as a userdata, its methods, `#s`. The queue is Rust's
//! (toolbox/scheduler.rs), over slots; the actors, any Lua values, are in
//! two tables in the userdata's user value (slot -> actor, actor -> slot),
//! read raw, so that no metamethod of an actor ever runs. An actor is
//! written into them in the push step (`Added`), before the queue takes
//! it.

#![deny(unsafe_op_in_unsafe_fn)]

use std::ffi::c_int;

use mlua::ffi::{self, lua_State};

use crate::input::Arg;
use crate::lua::stack::block::{changes, methods, native_method, native_method_mut, Kind, Native};
use crate::lua::stack::push::make_room;
use crate::lua::stack::{Args, Fresh, Method, Reply};
use crate::memory;
use crate::toolbox::random::Draw;
use crate::toolbox::scheduler::{self, Scheduler, MAX_SPEED, MAX_TURNS, MIN_SPEED};

static KIND: Kind = Kind::new("scheduler", "scheduler", "a", b"mapsched");

impl Native for Scheduler {
    fn kind() -> &'static Kind {
        &KIND
    }
    const METHODS: &'static [Method] = METHODS;
    const METAMETHODS: &'static [Method] = &[("__len", len)];
    type Property = ();
    /// `map.scheduler: 3 actors`.
    fn text(&self) -> String {
        format!(": {} actors", self.len())
    }
    /// Its queue grows and shrinks with the actors, which the Lua side
    /// holds too (the collector sees them): only its header is counted.
    fn bytes(&self) -> usize {
        std::mem::size_of::<Scheduler>()
    }
}

methods! {
    "scheduler", native_method_mut::<Scheduler, _>, changes::<Scheduler, _, _>;
    add => |args, s: &mut Scheduler| {
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
        Ok(Added { scheduler: s, slot, period })
    },
    next => |args, s: &mut Scheduler| {
        args.at_most(1)?;
        Ok(s.next_turn()?.map(|(slot, time)| Turn { slot, time: time_of(time) }))
    },
    remove => |args, s: &mut Scheduler| {
        args.at_most(2)?;
        actor(args)?;
        let Some(slot) = slot_of(args, 1, 2).filter(|&slot| s.holds(slot)) else {
            return Ok(Removed(None));
        };
        s.remove(slot);
        Ok(Removed(Some(slot)))
    },
    delay => |args, s: &mut Scheduler| {
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
        Ok(())
    },
    time => |args, s: &mut Scheduler| {
        args.at_most(1)?;
        Ok(time_of(s.now()))
    },
    state => |args, s: &mut Scheduler| {
        args.at_most(1)?;
        memory::check(scheduler::bound_state(s.len()))?;
        Ok(s.save().into_bytes())
    },
    actors => |args, s: &mut Scheduler| {
        args.at_most(1)?;
        memory::check(scheduler::bound_state(s.len()))?;
        Ok(Actors(s.by_order()))
    },
}

/// A time in units as Lua gets it: an integer when it is a whole number
/// of turns (printed alike on both interpreters), else a float.
fn time_of(units: u128) -> Draw {
    match scheduler::whole_turns(units) {
        Some(n) => Draw::Int(n as i64),
        None => Draw::Float(scheduler::turns(units)),
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
        native_method(state, "scheduler:__len", |_, s: &Scheduler| {
            Ok(s.len() as i64)
        })
    }
}

/// A scheduler's user value holds its two tables: slot -> actor at 1,
/// actor -> slot at 2.
pub const SLOTS: ffi::lua_Integer = 1;
pub const INDEX: ffi::lua_Integer = 2;

/// Pushes the user value table `which` (`SLOTS`, `INDEX`) of the
/// scheduler at `at`; nil if it has none (never, once made).
///
/// # Safety
/// Two free slots; `at` a valid index.
pub unsafe fn scheduler_table(l: *mut lua_State, at: c_int, which: ffi::lua_Integer) {
    // SAFETY: reads that allocate nothing; one slot left.
    unsafe {
        if ffi::lua_getuservalue(l, at) == ffi::LUA_TTABLE {
            ffi::lua_rawgeti(l, -1, which);
        } else {
            ffi::lua_pushnil(l);
        }
        ffi::lua_remove(l, -2);
    }
}

/// The actor `actor` (an index)'s slot in the scheduler at `at`, if it is
/// in it: a raw read of the index table, which allocates nothing.
fn slot_of(args: &Args, at: c_int, actor: c_int) -> Option<u32> {
    args.with_raw(|l| {
        // SAFETY: reads of the call's own stack, two slots popped.
        unsafe {
            scheduler_table(l, at, INDEX);
            if ffi::lua_type(l, -1) != ffi::LUA_TTABLE {
                ffi::lua_settop(l, -2);
                return None;
            }
            ffi::lua_pushvalue(l, actor);
            ffi::lua_rawget(l, -2);
            let slot = (ffi::lua_type(l, -1) == ffi::LUA_TNUMBER)
                .then(|| ffi::lua_tointeger(l, -1) as u32);
            ffi::lua_settop(l, -3);
            slot
        }
    })
}

/// The actor in `slot` of the scheduler at argument 1, and its time: it
/// allocates nothing.
struct Turn {
    slot: u32,
    time: Draw,
}

impl Reply for Turn {
    unsafe fn push_on(&self, l: *mut lua_State) -> c_int {
        // SAFETY: as `push_plain`'s.
        unsafe { self.push_plain_on(l) }.unwrap_or(0)
    }
    unsafe fn push_plain_on(&self, l: *mut lua_State) -> Option<c_int> {
        // SAFETY: raw reads and a number: nothing allocates, runs a
        // metamethod or raises.
        unsafe {
            scheduler_table(l, 1, SLOTS);
            if ffi::lua_type(l, -1) == ffi::LUA_TTABLE {
                ffi::lua_rawgeti(l, -1, ffi::lua_Integer::from(self.slot));
                ffi::lua_remove(l, -2);
            }
            self.time.push_plain_on(l);
        }
        Some(2)
    }
}

/// `s:remove(actor)`: with the actor's slot (the actor at argument 2,
/// left: both tables forget it) `true`; without, `false`. It allocates
/// nothing.
struct Removed(Option<u32>);

impl Reply for Removed {
    unsafe fn push_on(&self, l: *mut lua_State) -> c_int {
        // SAFETY: as `push_plain`'s.
        unsafe { self.push_plain_on(l) }.unwrap_or(0)
    }
    unsafe fn push_plain_on(&self, l: *mut lua_State) -> Option<c_int> {
        let Some(slot) = self.0 else {
            // SAFETY: one slot.
            return unsafe { false.push_plain_on(l) };
        };
        // SAFETY: raw reads and sets of present keys to nil: nothing
        // allocates, runs a metamethod or raises.
        unsafe {
            scheduler_table(l, 1, INDEX);
            if ffi::lua_type(l, -1) == ffi::LUA_TTABLE {
                ffi::lua_pushvalue(l, 2);
                ffi::lua_pushnil(l);
                ffi::lua_rawset(l, -3);
            }
            ffi::lua_settop(l, -2);
            scheduler_table(l, 1, SLOTS);
            if ffi::lua_type(l, -1) == ffi::LUA_TTABLE {
                ffi::lua_pushnil(l);
                ffi::lua_rawseti(l, -2, ffi::lua_Integer::from(slot));
            }
            ffi::lua_settop(l, -2);
            ffi::lua_pushboolean(l, 1);
        }
        Some(1)
    }
}

/// `s:add(actor, speed)`: the actor (argument 2) put in `slot` of the
/// scheduler at argument 1 (both tables), then the scheduler given it,
/// with turns every `period`. Both are carried to 1 and 2.
struct Added {
    scheduler: *mut Scheduler,
    slot: u32,
    period: u128,
}

impl Reply for Added {
    unsafe fn push_on(&self, l: *mut lua_State) -> c_int {
        // The tables first, then the scheduler: if a table cannot grow
        // (out of memory), the pcall ends with the scheduler as it was (a
        // slot's stale actor is overwritten by the next add there). Raw
        // sets run no collector step (no finalizer, no Lua code) on either
        // interpreter: nothing else reaches the scheduler between the
        // body's checks and this.
        // SAFETY: as said; the slots made by `make_room`.
        unsafe {
            make_room(l, 8);
            scheduler_table(l, 1, SLOTS);
            scheduler_table(l, 1, INDEX);
            let (slots, index) = (ffi::lua_gettop(l) - 1, ffi::lua_gettop(l));
            ffi::lua_pushvalue(l, 2);
            ffi::lua_rawseti(l, slots, ffi::lua_Integer::from(self.slot));
            ffi::lua_pushvalue(l, 2);
            ffi::lua_pushinteger(l, ffi::lua_Integer::from(self.slot));
            ffi::lua_rawset(l, index);
            ffi::lua_settop(l, slots - 1);
            let got = (*self.scheduler).add(self.period);
            debug_assert_eq!(got, self.slot);
        }
        0
    }
    fn carried(&self) -> &'static [c_int] {
        &[1, 2]
    }
}

/// A new scheduler; loaded, with `actors` actors from the array at
/// argument 2 (carried to 1) in its slots 1, 2, ...
pub struct NewScheduler {
    pub fresh: Fresh<Scheduler>,
    pub actors: usize,
}

impl Reply for NewScheduler {
    unsafe fn push_on(&self, l: *mut lua_State) -> c_int {
        // SAFETY: the pushers' contract; each table set before the next is
        // made; an actor the array no longer holds as it was is an error,
        // raised inside the protected call.
        unsafe {
            make_room(l, 8);
            crate::lua::stack::block::push_native(l, &self.fresh);
            let n = self.actors;
            ffi::lua_createtable(l, 2, 0);
            ffi::lua_createtable(l, n.min(1 << 24) as c_int, 0);
            ffi::lua_rawseti(l, -2, SLOTS);
            ffi::lua_createtable(l, 0, n.min(1 << 24) as c_int);
            ffi::lua_rawseti(l, -2, INDEX);
            let store = ffi::lua_gettop(l);
            ffi::lua_rawgeti(l, store, SLOTS);
            ffi::lua_rawgeti(l, store, INDEX);
            let (slots, index) = (store + 1, store + 2);
            for i in 1..=n as ffi::lua_Integer {
                // A finalizer run by the allocations above may have
                // changed the array: each actor is checked as read.
                let kind = ffi::lua_rawgeti(l, 1, i);
                if kind == ffi::LUA_TNIL {
                    ffi::lua_pushfstring(l, c"actors[%d] is nil".as_ptr(), i as c_int);
                    ffi::lua_error(l);
                }
                if kind == ffi::LUA_TNUMBER && ffi::lua_tonumber(l, -1).is_nan() {
                    ffi::lua_pushfstring(l, c"actors[%d] is NaN".as_ptr(), i as c_int);
                    ffi::lua_error(l);
                }
                ffi::lua_pushvalue(l, -1);
                if ffi::lua_rawget(l, index) != ffi::LUA_TNIL {
                    let first = ffi::lua_tointeger(l, -1) as c_int;
                    ffi::lua_pushfstring(
                        l,
                        c"actors[%d] is actors[%d] again: each actor once".as_ptr(),
                        i as c_int,
                        first,
                    );
                    ffi::lua_error(l);
                }
                ffi::lua_settop(l, -2);
                ffi::lua_pushvalue(l, -1);
                ffi::lua_rawseti(l, slots, i);
                ffi::lua_pushinteger(l, i);
                ffi::lua_rawset(l, index);
            }
            ffi::lua_settop(l, store);
            ffi::lua_setuservalue(l, store - 1);
        }
        1
    }
    fn carried(&self) -> &'static [c_int] {
        if self.actors > 0 {
            &[2]
        } else {
            &[]
        }
    }
}

/// The actors of the scheduler at argument 1 (carried to 1), in these
/// slots.
struct Actors(Vec<u32>);

impl Reply for Actors {
    unsafe fn push_on(&self, l: *mut lua_State) -> c_int {
        // SAFETY: the pushers' contract; raw reads of the slots' table.
        unsafe {
            make_room(l, 8);
            ffi::lua_createtable(l, self.0.len().min(1 << 24) as c_int, 0);
            scheduler_table(l, 1, SLOTS);
            for (i, &slot) in self.0.iter().enumerate() {
                ffi::lua_rawgeti(l, -1, ffi::lua_Integer::from(slot));
                ffi::lua_rawseti(l, -3, i as ffi::lua_Integer + 1);
            }
            ffi::lua_settop(l, -2);
        }
        1
    }
    fn carried(&self) -> &'static [c_int] {
        &[1]
    }
}
