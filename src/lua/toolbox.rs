//! What the toolbox's natives (`map.rng`: random.rs, `map.scheduler`:
//! scheduler.rs, `map.names`: names.rs) hand back, and its pushers, under
//! push.rs's contract. The plain ones (`push_plain`) allocate nothing and
//! run in the call's own frame, without a `pcall`: a draw, an element of
//! an array argument, the actor whose turn it is. The others run inside
//! `push_reply`'s protected call, the arguments they write to or read from
//! passed along to it (`carried`), at 1, 2, ... there.

#![deny(unsafe_op_in_unsafe_fn)]

use std::ffi::c_int;

use mlua::ffi::{self, lua_State};

use super::native::{self, Fresh};
use crate::toolbox::names::Names;
use crate::toolbox::random::Random;
use crate::toolbox::scheduler::Scheduler;

/// A number pushed: an integer, or a float.
pub use crate::toolbox::random::Draw as Number;

pub enum Out {
    /// A number: an integer or a float.
    Number(Number),
    /// Element `index` of the array at argument `table`, raw.
    Element {
        table: c_int,
        index: i64,
    },
    /// The actor in `slot` of the scheduler at argument 1, and its time.
    Turn {
        slot: u32,
        time: Number,
    },
    /// The actor at argument 2, in `slot` of the scheduler at argument 1,
    /// left: both tables forget it; then `true`.
    Removed {
        slot: u32,
    },
    /// `r:shuffle(array)`: the array (argument 2) shuffled in place by
    /// `rng`, then returned.
    Shuffled {
        rng: *mut Random,
        n: usize,
    },
    /// `r:fill(t, ...)`: `t` (argument 2) given these values from 1 on,
    /// then returned.
    Filled(Vec<Number>),
    /// `s:add(actor, speed)`: the actor (argument 2) put in `slot` of the
    /// scheduler at argument 1 (both tables), then the scheduler given
    /// it, with turns every `period`.
    Added {
        scheduler: *mut Scheduler,
        slot: u32,
        period: u128,
    },
    /// A new scheduler; loaded, with `actors` actors from the array at
    /// argument 2 in its slots 1, 2, ...
    NewScheduler {
        fresh: Fresh<Scheduler>,
        actors: usize,
    },
    /// The actors of the scheduler at argument 1, in these slots.
    Actors(Vec<u32>),
    NewRng(Fresh<Random>),
    NewNames(Fresh<Names>),
}

/// A scheduler's user value holds its two tables: slot -> actor at 1,
/// actor -> slot at 2.
const SLOTS: ffi::lua_Integer = 1;
const INDEX: ffi::lua_Integer = 2;

impl Out {
    /// The arguments the protected push needs, by their index in the call.
    pub fn carried(&self) -> &'static [c_int] {
        match self {
            Out::Shuffled { .. } | Out::Filled(_) => &[2],
            Out::Added { .. } => &[1, 2],
            Out::NewScheduler { actors, .. } if *actors > 0 => &[2],
            Out::Actors(_) => &[1],
            _ => &[],
        }
    }
}

/// Pushes the user value table `which` (`SLOTS`, `INDEX`) of the
/// scheduler at `at`; nil if it has none (never, once made).
///
/// # Safety
/// Two free slots; `at` a valid index.
unsafe fn scheduler_table(l: *mut lua_State, at: c_int, which: ffi::lua_Integer) {
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
pub fn slot_of(args: &super::read::Args, at: c_int, actor: c_int) -> Option<u32> {
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

/// # Safety
/// One free slot.
pub unsafe fn push_number(l: *mut lua_State, n: Number) {
    // SAFETY: a number allocates nothing.
    unsafe {
        match n {
            Number::Int(n) => ffi::lua_pushinteger(l, n as ffi::lua_Integer),
            Number::Float(x) => ffi::lua_pushnumber(l, x),
        }
    }
}

/// Pushes `out` if it allocates nothing; how many values, or None.
///
/// # Safety
/// As `calling::push_plain`'s: the call's own frame, a few slots free.
pub unsafe fn push_plain(l: *mut lua_State, out: &Out) -> Option<c_int> {
    // SAFETY: raw reads, numbers and sets of present keys to nil: nothing
    // allocates, runs a metamethod or raises.
    unsafe {
        Some(match *out {
            Out::Number(n) => {
                push_number(l, n);
                1
            }
            Out::Element { table, index } => {
                ffi::lua_rawgeti(l, table, index as ffi::lua_Integer);
                1
            }
            Out::Turn { slot, time } => {
                scheduler_table(l, 1, SLOTS);
                if ffi::lua_type(l, -1) == ffi::LUA_TTABLE {
                    ffi::lua_rawgeti(l, -1, ffi::lua_Integer::from(slot));
                    ffi::lua_remove(l, -2);
                }
                push_number(l, time);
                2
            }
            Out::Removed { slot } => {
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
                1
            }
            _ => return None,
        })
    }
}

/// Pushes `out` inside `push_reply`'s protected call, its carried
/// arguments at 1, 2, ...
///
/// # Safety
/// The pushers' contract (push.rs); `natives` the natives' table.
pub unsafe fn push(l: *mut lua_State, natives: c_int, out: &Out) -> c_int {
    // SAFETY: each arm's own comment.
    unsafe {
        ffi::luaL_checkstack(l, 8, c"no room on the Lua stack for the result".as_ptr());
        match out {
            Out::NewRng(fresh) => native::push_native(l, natives, fresh),
            Out::NewNames(fresh) => native::push_native(l, natives, fresh),
            // Raw reads and sets of present keys (the array has no hole:
            // checked): nothing allocates, nothing runs, so `rng` is the
            // only reference to the source while it draws.
            Out::Shuffled { rng, n } => {
                let rng = &mut **rng;
                for i in (2..=*n as u64).rev() {
                    let j = rng.below(i) + 1;
                    if j != i {
                        ffi::lua_rawgeti(l, 1, i as ffi::lua_Integer);
                        ffi::lua_rawgeti(l, 1, j as ffi::lua_Integer);
                        ffi::lua_rawseti(l, 1, i as ffi::lua_Integer);
                        ffi::lua_rawseti(l, 1, j as ffi::lua_Integer);
                    }
                }
                ffi::lua_pushvalue(l, 1);
                1
            }
            // The table may grow (an out-of-memory error ends the pcall).
            Out::Filled(values) => {
                for (i, &v) in values.iter().enumerate() {
                    push_number(l, v);
                    ffi::lua_rawseti(l, 1, i as ffi::lua_Integer + 1);
                }
                ffi::lua_pushvalue(l, 1);
                1
            }
            // The tables first, then the scheduler: if a table cannot grow
            // (out of memory), the pcall ends with the scheduler as it was
            // (a slot's stale actor is overwritten by the next add there).
            // Raw sets run no collector step (no finalizer, no Lua code)
            // on either interpreter: nothing else reaches the scheduler
            // between the body's checks and this.
            Out::Added {
                scheduler,
                slot,
                period,
            } => {
                scheduler_table(l, 1, SLOTS);
                scheduler_table(l, 1, INDEX);
                let (slots, index) = (ffi::lua_gettop(l) - 1, ffi::lua_gettop(l));
                ffi::lua_pushvalue(l, 2);
                ffi::lua_rawseti(l, slots, ffi::lua_Integer::from(*slot));
                ffi::lua_pushvalue(l, 2);
                ffi::lua_pushinteger(l, ffi::lua_Integer::from(*slot));
                ffi::lua_rawset(l, index);
                ffi::lua_settop(l, slots - 1);
                let got = (**scheduler).add(*period);
                debug_assert_eq!(got, *slot);
                0
            }
            Out::NewScheduler { fresh, actors } => {
                native::push_native(l, natives, fresh);
                let n = *actors;
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
                1
            }
            Out::Actors(slots) => {
                ffi::lua_createtable(l, slots.len().min(1 << 24) as c_int, 0);
                scheduler_table(l, 1, SLOTS);
                for (i, &slot) in slots.iter().enumerate() {
                    ffi::lua_rawgeti(l, -1, ffi::lua_Integer::from(slot));
                    ffi::lua_rawseti(l, -3, i as ffi::lua_Integer + 1);
                }
                ffi::lua_settop(l, -2);
                1
            }
            Out::Number(_) | Out::Element { .. } | Out::Turn { .. } | Out::Removed { .. } => {
                push_plain(l, out).unwrap_or(0)
            }
        }
    }
}
