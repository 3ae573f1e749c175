//! Reading from the Lua stack: the arguments and the tables they hold
//! (maps: `maps.rs`).
//!
//! No Lua code may run between checking a value and using it: a finalizer
//! could change a table while it is read, or raise an error across these
//! frames. Lua runs finalizers only in a collection step, and steps only
//! when something allocates, so reading allocates nothing: only raw
//! accessors are used (`lua_rawgeti`, `lua_rawget`,
//! `lua_next`, `lua_tolstring` on values already strings), which never run
//! metamethods, never allocate and never raise, and field names are Lua
//! strings made once when the module opens (`Field`), so that looking one
//! up only copies it. Each read pushes at most two values and pops them
//! before returning, so it stays within the `LUA_MINSTACK` slots Lua
//! guarantees a C function, and every function that reads a table checks
//! its type itself.
//!
//! A table's length is its probe border (`Args::length`, the one definition
//! of a map's shape, docs/hardening.md): it depends only on which keys are
//! present, never on how the table stores them, so Lua 5.4 and LuaJIT
//! agree, and it costs O(log n). Only the unsafe primitives of `Args` touch
//! the C API; everything above them is safe code.
#![deny(unsafe_op_in_unsafe_fn)]

use std::ffi::{c_int, CStr};

use mlua::ffi::{self, lua_State};

use std::ptr::NonNull;

use super::upvalues::FIELD_NAMES;
use crate::input::Arg;
use crate::native::NativeLevel;

/// The raw reads of table entries made since `take_reads` last ran, in the
/// probe modules only (`map._reads`): `spec/luajit_spec.lua` counts them,
/// so that what reading a map costs (the cells and rows read, whatever the
/// tables' capacity) is a test that counts, not one that times.
#[cfg(feature = "probe")]
static READS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// Counts one raw read of a table entry (probe modules only).
fn count_read() {
    #[cfg(feature = "probe")]
    READS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
}

/// The raw reads counted since the last call, and the count set to 0.
#[cfg(feature = "probe")]
pub fn take_reads() -> usize {
    READS.swap(0, std::sync::atomic::Ordering::Relaxed)
}

/// Declares `Field`, the names the readers look up in tables.
macro_rules! fields {
    ($($field:ident = $name:literal),* $(,)?) => {
        /// A field name the readers look up. `open` makes each a Lua string
        /// once, in an array that every exported function holds as its first
        /// upvalue, at the position `Field::ALL` gives it.
        #[derive(Clone, Copy, Debug)]
        pub enum Field {
            $($field),*
        }

        impl Field {
            pub const ALL: &'static [Field] = &[$(Field::$field),*];

            pub fn name(self) -> &'static str {
                match self {
                    $(Field::$field => $name),*
                }
            }
        }
    };
}

fields! {
    X = "x",
    Y = "y",
    Cost = "cost",
    Value = "value",
    Avoid = "avoid",
    Known = "known",
    From = "from",
    Vaults = "vaults",
    Rows = "rows",
    Count = "count",
    Rotate = "rotate",
    Required = "required",
    Arrive = "arrive",
    Place = "place",
    Char = "char",
    Min = "min",
    Hidden = "hidden",
    Into = "into",
    Rng = "rng",
    Blocked = "blocked",
    Radius = "radius",
    Intensity = "intensity",
    Color = "color",
    R = "r",
    G = "g",
    B = "b",
    Ambient = "ambient",
    Rooms = "rooms",
    Links = "links",
    PerRoom = "per_room",
    Choose = "choose",
    Seed = "seed",
    Algorithm = "algorithm",
    Player = "player",
    Stairs = "stairs",
    Up = "up",
    Doors = "doors",
    Items = "items",
    Placed = "placed",
    Locks = "locks",
    Exits = "exits",
    Kind = "kind",
    Index = "index",
    Rotation = "rotation",
    W = "w",
    H = "h",
    Door = "door",
    KeyCell = "key",
    Visible = "visible",
    Memory = "memory",
    Things = "things",
    Light = "light",
    Sample = "sample",
    Fixed = "fixed",
}

/// A table key for `Args::with_field`.
#[derive(Clone, Copy)]
pub enum Key {
    Field(Field),
    Index(usize),
}

/// The highest index a probe border may reach, exclusive: 2^53, past which
/// LuaJIT's numbers no longer tell consecutive keys apart. The probe never
/// reads a key from there on.
pub const PROBE_LIMIT: usize = 1 << 53;

/// The arguments of one call of an exported C function: its Lua state and
/// how many arguments it was given.
pub struct Args {
    state: *mut lua_State,
    count: c_int,
    /// The level a method was called on (argument 1, `on_level`): the
    /// map readers read its terrain in place of a table of rows.
    level: std::cell::Cell<Option<NonNull<NativeLevel>>>,
}

impl Args {
    /// # Safety
    ///
    /// `state` must be the state of the C function being called, and the
    /// `Args` must not outlive that call: every read goes to its stack.
    pub unsafe fn new(state: *mut lua_State) -> Args {
        Args {
            state,
            // SAFETY: `state` is the running function's, as the caller promised.
            count: unsafe { ffi::lua_gettop(state) },
            level: std::cell::Cell::new(None),
        }
    }

    /// Makes `level` (argument 1, a method's `self`) the map the readers
    /// read at index 1.
    pub fn on_level(&self, level: &NativeLevel) {
        self.level.set(Some(NonNull::from(level)));
    }

    /// Ends `on_level`: from here the readers read tables only, and the
    /// method may change its level.
    pub fn off_level(&self) {
        self.level.set(None);
    }

    /// The level a method was called on, if the map at `index` is it.
    pub fn level_at(&self, index: c_int) -> Option<&NativeLevel> {
        // SAFETY: `on_level` was given argument 1's value, alive during
        // the call; no Lua code runs during it to change or free it.
        self.level
            .get()
            .filter(|_| index == 1)
            .map(|l| unsafe { l.as_ref() })
    }

    /// Whether this is a method of a level.
    pub fn is_method(&self) -> bool {
        self.level.get().is_some()
    }

    /// Runs `f` with the call's state, for a raw read the readers here do
    /// not cover (a scheduler's tables, natives/scheduler.rs). `f` must leave the
    /// stack as it found it, allocate nothing and raise nothing.
    pub fn with_raw<R>(&self, f: impl FnOnce(*mut lua_State) -> R) -> R {
        f(self.state)
    }

    /// How many arguments the call was given (trailing nils included).
    pub fn count(&self) -> c_int {
        self.count
    }

    pub fn at_most(&self, max: c_int) -> Result<(), String> {
        if self.count <= max {
            return Ok(());
        }
        let s = if max == 1 { "" } else { "s" };
        Err(format!(
            "expected at most {max} argument{s}, got {}",
            self.count
        ))
    }

    /// The Lua type of the value at stack `index`.
    pub(super) fn kind(&self, index: c_int) -> c_int {
        // SAFETY: `lua_type` accepts any index, valid or not, and raises nothing.
        unsafe { ffi::lua_type(self.state, index) }
    }

    pub fn is_table(&self, index: c_int) -> bool {
        self.kind(index) == ffi::LUA_TTABLE
    }

    /// Stack `index` as an absolute index, which pushes do not move.
    pub(super) fn absolute(&self, index: c_int) -> c_int {
        // SAFETY: `lua_absindex` only computes an index.
        unsafe { ffi::lua_absindex(self.state, index) }
    }

    /// Argument `index` (1-based), `Missing` when absent or nil.
    pub fn get(&self, index: c_int) -> Arg<'_> {
        if index > self.count {
            return Arg::Missing;
        }
        self.at(index)
    }

    /// The value at stack `index` (which may be above the arguments). A
    /// string borrowed from it stays valid while the value is referenced:
    /// by the arguments, or by a table they hold, which no Lua code can
    /// change during the call.
    pub fn at(&self, index: c_int) -> Arg<'_> {
        match self.kind(index) {
            ffi::LUA_TNONE | ffi::LUA_TNIL => Arg::Missing,
            // SAFETY: the value at `index` is a number; this reads it.
            ffi::LUA_TNUMBER if unsafe { ffi::lua_isinteger(self.state, index) } != 0 => {
                // SAFETY: the value at `index` is an integer.
                Arg::Int(unsafe { ffi::lua_tointeger(self.state, index) })
            }
            // SAFETY: the value at `index` is a number.
            ffi::LUA_TNUMBER => Arg::Float(unsafe { ffi::lua_tonumber(self.state, index) }),
            ffi::LUA_TSTRING => Arg::Str(self.string(index)),
            // SAFETY: `lua_toboolean` reads any value.
            ffi::LUA_TBOOLEAN => Arg::Bool(unsafe { ffi::lua_toboolean(self.state, index) } != 0),
            other => Arg::Other(self.type_name(other)),
        }
    }

    /// The bytes of the string at `index`, borrowed as `at` says.
    pub(super) fn string(&self, index: c_int) -> &[u8] {
        let mut len = 0;
        // SAFETY: the value at `index` is a string (the callers check), so
        // `lua_tolstring` converts nothing and allocates nothing; the bytes
        // live as long as the string, which the stack or a table holds
        // while `self` lives.
        unsafe {
            let ptr = ffi::lua_tolstring(self.state, index, &mut len);
            std::slice::from_raw_parts(ptr.cast(), len)
        }
    }

    /// The name of the Lua type `t`.
    pub(super) fn type_name(&self, t: c_int) -> &'static str {
        // SAFETY: `lua_typename` returns a static C string for any type tag.
        let name = unsafe { CStr::from_ptr(ffi::lua_typename(self.state, t)) };
        name.to_str().unwrap_or("value")
    }

    /// Runs `f` with `t[i]` (a raw get; `t` an absolute index of a table)
    /// pushed, given its type and its index, then pops it.
    pub(super) fn with_index<R>(&self, t: c_int, i: usize, f: impl FnOnce(c_int, c_int) -> R) -> R {
        count_read();
        // SAFETY: `t` holds a table (the callers check); `lua_rawgeti`
        // runs no metamethod, allocates nothing and raises nothing, and
        // the one slot it takes is within LUA_MINSTACK (see the module's
        // doc); the value is popped before returning.
        unsafe {
            let kind = ffi::lua_rawgeti(self.state, t, i as ffi::lua_Integer);
            let result = f(kind, ffi::lua_gettop(self.state));
            ffi::lua_settop(self.state, -2);
            result
        }
    }

    /// `t[i]` (a raw get; `t` an absolute index of a table) if it is a
    /// number of an integer value (as `Arg::integer`), else `None`: three
    /// calls of the C API where `with_field` and `at` take seven, for the
    /// arrays of coordinates `level:steps_xy` reads (docs/performance.md, N5).
    pub fn integer_at(&self, t: c_int, i: usize) -> Option<i64> {
        count_read();
        let mut exact = 0;
        // SAFETY: as `with_index`'s; `lua_tointegerx` is given a number,
        // which it converts without allocating or raising.
        unsafe {
            let kind = ffi::lua_rawgeti(self.state, t, i as ffi::lua_Integer);
            let v = match kind {
                ffi::LUA_TNUMBER => ffi::lua_tointegerx(self.state, -1, &mut exact),
                _ => 0,
            };
            ffi::lua_settop(self.state, -2);
            (exact != 0).then_some(v)
        }
    }

    /// Whether `t[i]` is not nil (`t` an absolute index of a table).
    pub(super) fn present(&self, t: c_int, i: usize) -> bool {
        self.with_index(t, i, |kind, _| kind != ffi::LUA_TNIL)
    }

    /// The probe border of the table at `index` (0 for anything else):
    /// `t[1], t[2], t[4], ...` read until one is nil, then the gap between
    /// the last present `i` and that `j` halved down to an `n` with `t[n]`
    /// present and `t[n + 1]` nil (0 if `t[1]` is nil). For a sequence it
    /// is `#t`; for any table it depends only on the keys present, so both
    /// interpreters see the same; it costs O(log n) raw reads, whatever
    /// the table's capacity, and no key past it is ever looked at.
    pub fn length(&self, index: c_int) -> usize {
        if !self.is_table(index) {
            return 0;
        }
        let t = self.absolute(index);
        if !self.present(t, 1) {
            return 0;
        }
        // t[lo] is present; t[hi] is nil (or at the limit, not read).
        let (mut lo, mut hi) = (1, PROBE_LIMIT);
        while lo * 2 < PROBE_LIMIT {
            if !self.present(t, lo * 2) {
                hi = lo * 2;
                break;
            }
            lo *= 2;
        }
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            if self.present(t, mid) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        lo
    }

    /// Walks the table at `index` raw, feeding each key and value to `each`;
    /// stops at the first error. Nothing but a table is walked.
    pub fn each_pair<'a>(
        &'a self,
        index: c_int,
        mut each: impl FnMut(Arg<'a>, Arg<'a>) -> Result<(), String>,
    ) -> Result<(), String> {
        if !self.is_table(index) {
            return Err(format!("expected a table, got {}", self.at(index)));
        }
        let (l, t) = (self.state, self.absolute(index));
        // SAFETY: `t` holds a table; `lua_next` is given a key it returned
        // (or nil) and runs no metamethod; the key and value take two
        // slots, the value popped before `each` runs, the key before an
        // early return.
        unsafe {
            ffi::lua_pushnil(l);
            while ffi::lua_next(l, t) != 0 {
                count_read();
                // Strings stay alive while the table holds them.
                let (key, value) = (self.at(-2), self.at(-1));
                ffi::lua_settop(l, -2);
                if let Err(message) = each(key, value) {
                    ffi::lua_settop(l, -2);
                    return Err(message);
                }
            }
        }
        Ok(())
    }

    /// Runs `f` with the raw field `key` of the table at `index` pushed on
    /// the stack (its index given to `f`), then pops it. `f` must leave the
    /// stack as it found it; a string read from the field stays valid while
    /// the table holds it. Not a table at `index`: `f` sees nil.
    pub fn with_field<'a, R>(
        &'a self,
        index: c_int,
        key: Key,
        f: impl FnOnce(&'a Args, c_int) -> R,
    ) -> R {
        let (l, t) = (self.state, self.absolute(index));
        // SAFETY: raw gets on a table (checked), or a nil pushed; the
        // field names' array is the function's upvalue (`FIELD_NAMES`);
        // one slot, popped before returning.
        unsafe {
            if ffi::lua_type(l, t) != ffi::LUA_TTABLE {
                ffi::lua_pushnil(l);
            } else {
                count_read();
                match key {
                    Key::Field(field) => {
                        ffi::lua_rawgeti(l, FIELD_NAMES, field as ffi::lua_Integer + 1);
                        ffi::lua_rawget(l, t);
                    }
                    Key::Index(i) => {
                        ffi::lua_rawgeti(l, t, i as ffi::lua_Integer);
                    }
                }
            }
            let result = f(self, ffi::lua_gettop(l));
            ffi::lua_settop(l, -2);
            result
        }
    }
}
