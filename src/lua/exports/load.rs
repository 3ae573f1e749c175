//! `map.load(s)`: what `map.save` wrote (a value, in either of its forms),
//! or the level or field that `lvl:save()`, `f:save()` wrote.
//!
//! A saved value is read and checked whole in Rust first (its natives by
//! their own loaders), its memory bound checked before; then, in the push
//! step, every table and native is made, then the tables filled and the
//! schedulers given their actors (so that cycles and shared tables are
//! one table each), then the root pushed. No metatable is set and no
//! function made: no code of the save runs.

use std::ffi::c_int;

use mlua::ffi::{self, lua_State};

use crate::input::Arg;
use crate::lua::natives::scheduler::{INDEX, SLOTS};
use crate::lua::stack::block::push_native;
use crate::lua::stack::call::function;
use crate::lua::stack::push::make_room;
use crate::lua::stack::replies::Either;
use crate::lua::stack::{Args, Export, Fresh, Reply};
use crate::memory;
use crate::native::field::Field;
use crate::native::{save, NativeLevel};
use crate::toolbox::graph::{self, Loaded, Native, Node, Value};
use crate::toolbox::names::Names;
use crate::toolbox::random::Random;
use crate::toolbox::scheduler::Scheduler;
use crate::toolkit::noise::Noise;

pub const EXPORT: Export = Export {
    name: "load",
    function: load,
    method: None,
    #[cfg(feature = "luajit")]
    helpers: &[],
};

/// The largest integer the interpreter holds exactly, if it has one.
#[cfg(feature = "luajit")]
const MAX_INT: Option<i64> = Some(1 << 53);
#[cfg(not(feature = "luajit"))]
const MAX_INT: Option<i64> = None;

function!(load, "map.load", |args: &Args| {
    args.at_most(1)?;
    let bytes = match args.get(1) {
        Arg::Str(s) => s,
        other => return Err(format!("s must be a string, got {}", other.type_name())),
    };
    let magic = bytes.get(..8);
    if magic == Some(save::MAGIC) || magic == Some(save::FIELD_MAGIC) {
        memory::check(save::bound_load(bytes.len()))?;
        return Ok(Either::Left(match save::load_saved(bytes)? {
            save::Saved::Level(level) => Either::Left(Fresh::new(level)),
            save::Saved::Field(field) => Either::Right(Fresh::new(field)),
        }));
    }
    memory::check(graph::bound_load(bytes.len()))?;
    let loaded = if bytes.starts_with(graph::TEXT_PREFIX) {
        graph::read(&graph::from_text(bytes)?, MAX_INT)?
    } else if magic == Some(graph::MAGIC) {
        graph::read(bytes, MAX_INT)?
    } else {
        return Err(
            "not a saved value, level or field (no MAPVALUE, MAPLEVEL or MAPFIELD header)".into(),
        );
    };
    Ok(Either::Right(Building::new(loaded)))
});

/// A native made, waiting for its userdata.
enum Made {
    Level(Fresh<NativeLevel>),
    Field(Fresh<Field>),
    Rng(Fresh<Random>),
    Scheduler(Fresh<Scheduler>),
    Names(Fresh<Names>),
    Noise(Fresh<Noise>),
}

/// A saved value read, to push: its tables (ranges of entries) and
/// natives (ranges of actors).
struct Building {
    loaded: Loaded,
    nodes: Vec<(Option<Made>, std::ops::Range<usize>)>,
}

impl Building {
    fn new(mut loaded: Loaded) -> Building {
        let nodes = std::mem::take(&mut loaded.nodes)
            .into_iter()
            .map(|node| match node {
                Node::Table(range) => (None, range),
                Node::Native(native, range) => (
                    Some(match *native {
                        Native::Level(v) => Made::Level(Fresh::new(v)),
                        Native::Field(v) => Made::Field(Fresh::new(v)),
                        Native::Rng(v) => Made::Rng(Fresh::new(v)),
                        Native::Scheduler(v) => Made::Scheduler(Fresh::new(v)),
                        Native::Names(v) => Made::Names(Fresh::new(v)),
                        Native::Noise(v) => Made::Noise(Fresh::new(v)),
                    }),
                    range,
                ),
            })
            .collect();
        Building { loaded, nodes }
    }

    /// Pushes `v`; nodes are in the list at `list`.
    ///
    /// # Safety
    /// The pushers' contract; one slot.
    unsafe fn push_value(&self, l: *mut lua_State, list: c_int, v: Value) {
        // SAFETY: one slot; a string's bytes are the loaded body's.
        unsafe {
            match v {
                Value::Nil => ffi::lua_pushnil(l),
                Value::Bool(b) => ffi::lua_pushboolean(l, c_int::from(b)),
                #[cfg(feature = "luajit")]
                Value::Int(i) => ffi::lua_pushnumber(l, i as f64),
                #[cfg(not(feature = "luajit"))]
                Value::Int(i) => ffi::lua_pushinteger(l, i),
                Value::Float(x) => ffi::lua_pushnumber(l, x),
                Value::Str(n) => {
                    let s = self.loaded.string(n);
                    ffi::lua_pushlstring(l, s.as_ptr().cast(), s.len());
                }
                Value::Node(id) => {
                    ffi::lua_rawgeti(l, list, ffi::lua_Integer::from(id) + 1);
                }
            }
        }
    }

    /// Each node made, in the list at `list` (at its id + 1).
    ///
    /// # Safety
    /// The pushers' contract; two slots.
    unsafe fn make(&self, l: *mut lua_State, list: c_int) {
        for (i, (made, range)) in self.nodes.iter().enumerate() {
            // SAFETY: the pushers' contract.
            unsafe {
                match made {
                    None => {
                        let pairs = &self.loaded.pairs[range.clone()];
                        let n = pairs.len();
                        let array = pairs
                            .iter()
                            .filter(|(k, _)| matches!(k, Value::Int(i) if (1..=n as i64).contains(i)))
                            .count();
                        ffi::lua_createtable(l, array as c_int, (n - array).min(1 << 26) as c_int);
                    }
                    Some(Made::Level(f)) => _ = push_native(l, f),
                    Some(Made::Field(f)) => _ = push_native(l, f),
                    Some(Made::Rng(f)) => _ = push_native(l, f),
                    Some(Made::Scheduler(f)) => _ = push_native(l, f),
                    Some(Made::Names(f)) => _ = push_native(l, f),
                    Some(Made::Noise(f)) => _ = push_native(l, f),
                }
                ffi::lua_rawseti(l, list, i as ffi::lua_Integer + 1);
            }
        }
    }

    /// Each table filled, each scheduler given its actors.
    ///
    /// # Safety
    /// The pushers' contract; five slots.
    unsafe fn fill(&self, l: *mut lua_State, list: c_int) {
        for (i, (made, range)) in self.nodes.iter().enumerate() {
            // SAFETY: the pushers' contract; each table set before the
            // next is made.
            unsafe {
                ffi::lua_rawgeti(l, list, i as ffi::lua_Integer + 1);
                let node = ffi::lua_gettop(l);
                match made {
                    None => {
                        for &(k, v) in &self.loaded.pairs[range.clone()] {
                            self.push_value(l, list, k);
                            self.push_value(l, list, v);
                            ffi::lua_rawset(l, node);
                        }
                    }
                    Some(Made::Scheduler(_)) => {
                        let actors = &self.loaded.actors[range.clone()];
                        let n = actors.len().min(1 << 24) as c_int;
                        ffi::lua_createtable(l, 2, 0);
                        ffi::lua_createtable(l, n, 0);
                        ffi::lua_createtable(l, 0, n);
                        for (slot, &actor) in actors.iter().enumerate() {
                            let slot = slot as ffi::lua_Integer + 1;
                            self.push_value(l, list, actor);
                            ffi::lua_pushvalue(l, -1);
                            ffi::lua_rawseti(l, node + 2, slot);
                            ffi::lua_pushinteger(l, slot);
                            ffi::lua_rawset(l, node + 3);
                        }
                        ffi::lua_rawseti(l, node + 1, INDEX);
                        ffi::lua_rawseti(l, node + 1, SLOTS);
                        ffi::lua_setuservalue(l, node);
                    }
                    Some(_) => {}
                }
                ffi::lua_settop(l, node - 1);
            }
        }
    }
}

impl Reply for Building {
    unsafe fn push_on(&self, l: *mut lua_State) -> c_int {
        // SAFETY: the pushers' contract, the slots made.
        unsafe {
            make_room(l, 10);
            let count = self.nodes.len().min(1 << 26) as c_int;
            ffi::lua_createtable(l, count, 0);
            let list = ffi::lua_gettop(l);
            self.make(l, list);
            self.fill(l, list);
            self.push_value(l, list, self.loaded.root);
            ffi::lua_remove(l, list);
        }
        1
    }
}
