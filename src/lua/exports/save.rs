//! `map.save(value [, options])`: a graph of Lua values, the module's
//! natives inside it, as one string (`toolbox/graph.rs`'s format), or its
//! text form with `{text = true}`.
//!
//! The graph's size is known only once it is walked, so the walk runs in
//! the push step, inside its `pcall`, breadth first with no recursion:
//! each table and native met is kept in a list (a Lua table made before
//! anything is read) under its first slot, so that it can be walked when
//! its turn comes, and numbered in the order the canonical writing names
//! it. The walk reads raw (`lua_next`, `lua_rawgeti`: no metamethod runs)
//! and allocates nothing on the Lua heap but the list's growth
//! (`lua_rawseti`, which runs no collector step, so no finalizer, on
//! either interpreter): no Lua code runs between reading a table and
//! writing it. Everything Rust holds lives in the reply (`Walk`), never in
//! a frame a Lua error (out of memory) could jump over; an error of the
//! walk (`value.player.act is a function`) is raised from the reply's own
//! string, inside the `pcall`.

use std::cell::UnsafeCell;
use std::collections::HashMap;
use std::ffi::c_int;

use mlua::ffi::{self, lua_State};

use crate::input::{quoted, Arg};
use crate::lua::natives::scheduler::{scheduler_table, SLOTS};
use crate::lua::shared::options::read_options;
use crate::lua::stack::block::what;
use crate::lua::stack::call::function;
use crate::lua::stack::push::make_room;
use crate::lua::stack::{Args, Export, Reply};
use crate::memory;
use crate::native::field::Field;
use crate::native::NativeLevel;
use crate::toolbox::graph::{self, grow, FnvBuild, Key, NativeRef, Number, Writer};
use crate::toolbox::names::Names;
use crate::toolbox::random::Random;
use crate::toolbox::scheduler::{self, Scheduler};
use crate::toolkit::noise::Noise;

pub const EXPORT: Export = Export {
    name: "save",
    function: save,
    method: None,
    #[cfg(feature = "luajit")]
    helpers: &[],
};

function!(save, "map.save", |args: &Args| {
    args.at_most(2)?;
    let mut text = false;
    read_options(args, 2, &["text"], |_, value| {
        text = match value {
            Arg::Bool(b) => b,
            Arg::Missing => false,
            other => return Err(format!("text must be a boolean, got {other}")),
        };
        Ok(())
    })?;
    Ok(Saving {
        text,
        walk: UnsafeCell::new(Walk::default()),
    })
});

/// Not yet numbered (`Known::id`).
const UNNAMED: u32 = u32::MAX;

/// A table or native met: its slot in the list, its id once named.
#[derive(Clone, Copy)]
struct Known {
    slot: i64,
    id: u32,
}

/// How a node was reached, for messages: from its parent, by a key.
#[derive(Clone, Copy)]
enum Step {
    Root,
    Key(StepKey),
    Actor(usize),
}

#[derive(Clone, Copy)]
enum StepKey {
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(u32),
}

/// A value read, before it is written: scalars, a string (borrowed from
/// the table that holds it), a node by its address.
#[derive(Clone, Copy)]
enum Val {
    Nil,
    Bool(bool),
    Num(Number),
    Str(*const u8, usize),
    Node(usize),
}

/// A key read (a string borrowed as above).
#[derive(Clone, Copy)]
enum RawKey {
    Bool(bool),
    Num(Number),
    Str(*const u8, usize),
}

impl RawKey {
    fn key(&self) -> Key<'_> {
        match *self {
            RawKey::Bool(b) => Key::Bool(b),
            RawKey::Num(n) => match graph::canonical(n, true) {
                Number::Int(i) => Key::Int(i),
                Number::Float(x) => Key::Float(x),
            },
            // SAFETY: the table that holds the key holds the string while
            // the walk reads it, and no Lua code runs to change it.
            RawKey::Str(p, n) => Key::Str(unsafe { std::slice::from_raw_parts(p, n) }),
        }
    }
}

/// All the walk holds.
#[derive(Default)]
struct Walk {
    writer: Option<Writer>,
    known: HashMap<usize, Known, FnvBuild>,
    /// By id: the node's slot in the list, and how it was reached.
    nodes: Vec<(i64, u32, Step)>,
    entries: Vec<(RawKey, Val)>,
    /// A scheduler's slots, in its actors' order.
    order: Vec<u32>,
    slots: i64,
    error: String,
    result: Vec<u8>,
}

/// The reply: the walk, run when pushed.
struct Saving {
    text: bool,
    walk: UnsafeCell<Walk>,
}

impl Reply for Saving {
    unsafe fn push_on(&self, l: *mut lua_State) -> c_int {
        // SAFETY: the walk is this reply's alone during the push; the
        // pushers' contract; the value is carried to 1.
        unsafe {
            let walk = &mut *self.walk.get();
            make_room(l, 12);
            ffi::lua_createtable(l, 0, 0);
            let list = ffi::lua_gettop(l);
            match walk.run(l, list, self.text) {
                Ok(()) => {
                    ffi::lua_settop(l, list - 1);
                    let r = &walk.result;
                    ffi::lua_pushlstring(l, r.as_ptr().cast(), r.len());
                    1
                }
                Err(message) => {
                    walk.error = message;
                    let e = &walk.error;
                    ffi::lua_pushlstring(l, e.as_ptr().cast(), e.len());
                    ffi::lua_error(l)
                }
            }
        }
    }
    fn carried(&self) -> &'static [c_int] {
        &[1]
    }
}

impl Walk {
    /// Walks the value at 1, the list at `list`.
    ///
    /// # Safety
    /// The push step's state, the slots made.
    unsafe fn run(&mut self, l: *mut lua_State, list: c_int, text: bool) -> Result<(), String> {
        self.writer = Some(Writer::new());
        // SAFETY: the caller's contract.
        let args = unsafe { Args::new(l) };
        // SAFETY: the caller's contract; the value is at 1.
        let root = unsafe { self.read_value(&args, l, list, 1, 0, Step::Root) }?;
        self.write_value(root, 0, Step::Root)?;
        let mut id = 0;
        while id < self.nodes.len() {
            let slot = self.nodes[id].0;
            // SAFETY: the list holds every node met; one slot, popped.
            unsafe {
                ffi::lua_rawgeti(l, list, slot as ffi::lua_Integer);
                let at = ffi::lua_gettop(l);
                if ffi::lua_type(l, at) == ffi::LUA_TTABLE {
                    self.table(&args, l, list, at, id as u32)?;
                } else {
                    self.native(&args, l, list, at, id as u32)?;
                }
                ffi::lua_settop(l, at - 1);
            }
            id += 1;
        }
        let bytes = self.writer.take().ok_or(crate::input::INTERNAL_ERROR)?.finish()?;
        self.result = match text {
            true => graph::to_text(&bytes)?,
            false => bytes,
        };
        Ok(())
    }

    fn writer(&mut self) -> &mut Writer {
        self.writer.get_or_insert_with(Writer::new)
    }

    /// The value at `at` as a `Val`: a table or a native is put in the
    /// list (a new slot) the first time it is met. `parent`, `step`: how
    /// it was reached, for the message if it cannot be saved.
    ///
    /// # Safety
    /// The push step's state; `at` a valid index.
    unsafe fn read_value(
        &mut self,
        args: &Args,
        l: *mut lua_State,
        list: c_int,
        at: c_int,
        parent: u32,
        step: Step,
    ) -> Result<Val, String> {
        // SAFETY: reads of the value at `at`; `lua_rawseti` may raise (out
        // of memory), with no Rust value alive to jump over.
        unsafe {
            match ffi::lua_type(l, at) {
                ffi::LUA_TBOOLEAN => Ok(Val::Bool(ffi::lua_toboolean(l, at) != 0)),
                ffi::LUA_TNUMBER => Ok(Val::Num(number(l, at))),
                ffi::LUA_TSTRING => {
                    let mut len = 0;
                    let p = ffi::lua_tolstring(l, at, &mut len);
                    Ok(Val::Str(p.cast(), len))
                }
                ffi::LUA_TTABLE => Ok(Val::Node(self.meet(l, list, at)?)),
                ffi::LUA_TUSERDATA if native_at(args, at).is_some() => {
                    Ok(Val::Node(self.meet(l, list, at)?))
                }
                ffi::LUA_TNIL | ffi::LUA_TNONE => Ok(Val::Nil),
                _ => {
                    let what = what(args, at);
                    let article = if what.starts_with("a ") { "" } else { "a " };
                    Err(format!("{} is {article}{what}", self.path(parent, step)))
                }
            }
        }
    }

    /// The address of the table or native at `at`, kept in the list.
    ///
    /// # Safety
    /// As `read_value`'s.
    unsafe fn meet(&mut self, l: *mut lua_State, list: c_int, at: c_int) -> Result<usize, String> {
        // SAFETY: as the caller's.
        unsafe {
            let address = ffi::lua_topointer(l, at) as usize;
            if self.known.contains_key(&address) {
                return Ok(address);
            }
            if self.known.len() >= graph::MAX_NODES {
                return Err(format!("the value holds more than {} tables and natives", graph::MAX_NODES));
            }
            if self.known.len() == self.known.capacity() {
                let to = (2 * self.known.capacity()).max(64);
                memory::check(to.saturating_mul(48))?;
                self.known.reserve(to - self.known.len());
            }
            self.slots += 1;
            self.known.insert(address, Known { slot: self.slots, id: UNNAMED });
            ffi::lua_pushvalue(l, at);
            ffi::lua_rawseti(l, list, self.slots as ffi::lua_Integer);
            Ok(address)
        }
    }
}

impl Walk {
    /// Writes `v`, reached from node `parent` by `step`: a node met for the
    /// first time is named (the next id).
    fn write_value(&mut self, v: Val, parent: u32, step: Step) -> Result<(), String> {
        match v {
            Val::Nil => self.writer().nil(),
            Val::Bool(b) => self.writer().boolean(b),
            Val::Num(n) => self.writer().number(n, false),
            Val::Str(p, n) => {
                // SAFETY: as `RawKey::key`'s.
                let s = unsafe { std::slice::from_raw_parts(p, n) };
                self.writer().string(s).map(|_| ())
            }
            Val::Node(address) => {
                let known = self.known.get_mut(&address).ok_or(crate::input::INTERNAL_ERROR)?;
                if known.id == UNNAMED {
                    known.id = self.nodes.len() as u32;
                    let slot = known.slot;
                    grow(&mut self.nodes, 1)?;
                    self.nodes.push((slot, parent, step));
                }
                let id = known.id;
                self.writer().node(id)
            }
        }
    }

    /// Walks the table at `at` (node `id`): its entries read raw, then
    /// written in the keys' order.
    ///
    /// # Safety
    /// As `read_value`'s; `at` holds a table.
    unsafe fn table(&mut self, args: &Args, l: *mut lua_State, list: c_int, at: c_int, id: u32) -> Result<(), String> {
        self.entries.clear();
        // SAFETY: `lua_next` over a table no Lua code changes meanwhile;
        // the key and value take two slots.
        unsafe {
            ffi::lua_pushnil(l);
            while ffi::lua_next(l, at) != 0 {
                let key = match ffi::lua_type(l, -2) {
                    ffi::LUA_TBOOLEAN => RawKey::Bool(ffi::lua_toboolean(l, -2) != 0),
                    ffi::LUA_TNUMBER => RawKey::Num(number(l, -2)),
                    ffi::LUA_TSTRING => {
                        let mut len = 0;
                        let p = ffi::lua_tolstring(l, -2, &mut len);
                        RawKey::Str(p.cast(), len)
                    }
                    _ => {
                        let what = what(args, ffi::lua_absindex(l, -2));
                        return Err(format!(
                            "{} has a {what} as a key (keys must be booleans, numbers or strings)",
                            self.path(id, Step::Root)
                        ));
                    }
                };
                let value_at = ffi::lua_gettop(l);
                let value = self.read_value(args, l, list, value_at, id, Step::Key(step_key(key)))
                    .map_err(|e| self.keyed(e, key))?;
                grow(&mut self.entries, 1)?;
                self.entries.push((key, value));
                ffi::lua_settop(l, -2);
            }
        }
        self.entries.sort_unstable_by(|a, b| a.0.key().order(&b.0.key()));
        let n = self.entries.len();
        self.writer().table(n)?;
        for i in 0..n {
            let (key, value) = self.entries[i];
            let step = match key {
                RawKey::Str(p, len) => {
                    // SAFETY: as `RawKey::key`'s.
                    let s = unsafe { std::slice::from_raw_parts(p, len) };
                    StepKey::Str(self.writer().string(s)?)
                }
                other => {
                    self.writer().key(other.key())?;
                    step_key(other)
                }
            };
            self.write_value(value, id, Step::Key(step))?;
        }
        Ok(())
    }

    /// A message for a value under `key` not yet written: its path ends
    /// with the key read (`step_key` gave a placeholder for a string).
    fn keyed(&self, message: String, key: RawKey) -> String {
        match key {
            RawKey::Str(..) => message.replacen(STRING_MARK, &key_text(key.key()), 1),
            _ => message,
        }
    }

    /// Writes the native at `at` (node `id`); a scheduler's actors after.
    ///
    /// # Safety
    /// As `read_value`'s; `at` holds a native of the module.
    unsafe fn native(&mut self, args: &Args, l: *mut lua_State, list: c_int, at: c_int, id: u32) -> Result<(), String> {
        let native = native_at(args, at).ok_or(crate::input::INTERNAL_ERROR)?;
        self.writer().native(native)?;
        let NativeRef::Scheduler(s) = native else {
            return Ok(());
        };
        memory::check(scheduler::bound_state(s.len()))?;
        self.order = s.by_order();
        // SAFETY: raw reads of the scheduler's slots table (one slot), each
        // actor read and popped.
        unsafe {
            scheduler_table(l, at, SLOTS);
            let slots = ffi::lua_gettop(l);
            for i in 0..self.order.len() {
                let slot = self.order[i];
                ffi::lua_rawgeti(l, slots, ffi::lua_Integer::from(slot));
                let step = Step::Actor(i + 1);
                let actor = match ffi::lua_type(l, -1) {
                    ffi::LUA_TNIL => Err(crate::input::INTERNAL_ERROR.to_string()),
                    _ => self.read_value(args, l, list, ffi::lua_gettop(l), id, step),
                };
                actor.and_then(|v| self.write_value(v, id, step))?;
                ffi::lua_settop(l, -2);
            }
            ffi::lua_settop(l, slots - 1);
        }
        Ok(())
    }

    /// Where node `id` is, from the value saved, and then `step`.
    fn path(&self, id: u32, step: Step) -> String {
        let mut steps = vec![step];
        let mut at = id as usize;
        while at < self.nodes.len() && at != 0 {
            let (_, parent, s) = self.nodes[at];
            steps.push(s);
            at = parent as usize;
        }
        let mut text = String::from("value");
        for s in steps.iter().rev() {
            match *s {
                Step::Root => {}
                Step::Actor(i) => text.push_str(&format!(":actors()[{i}]")),
                Step::Key(StepKey::Str(n)) if n == u32::MAX => text.push_str(STRING_MARK),
                Step::Key(StepKey::Str(n)) => {
                    let bytes = self.writer.as_ref().map_or(&b""[..], |w| w.string_bytes(n));
                    text.push_str(&key_text(Key::Str(bytes)));
                }
                Step::Key(StepKey::Bool(b)) => text.push_str(&key_text(Key::Bool(b))),
                Step::Key(StepKey::Int(i)) => text.push_str(&key_text(Key::Int(i))),
                Step::Key(StepKey::Float(x)) => text.push_str(&key_text(Key::Float(x))),
            }
            if text.len() > 200 {
                let mut cut = 200;
                while !text.is_char_boundary(cut) {
                    cut -= 1;
                }
                text.truncate(cut);
                text.push_str("...");
                break;
            }
        }
        text
    }
}

/// Stands for a string key not yet numbered, in a message (`keyed`).
const STRING_MARK: &str = "\u{1}key\u{1}";

/// A key as a step of a path (a string key's number is not known yet).
fn step_key(key: RawKey) -> StepKey {
    match key.key() {
        Key::Bool(b) => StepKey::Bool(b),
        Key::Int(i) => StepKey::Int(i),
        Key::Float(x) => StepKey::Float(x),
        Key::Str(_) => StepKey::Str(u32::MAX),
    }
}

/// `.name` for a name Lua could write so, else `[key]`.
fn key_text(key: Key) -> String {
    match key {
        Key::Str(s) => {
            let name = s.first().is_some_and(|c| c.is_ascii_alphabetic() || *c == b'_')
                && s.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'_')
                && s.len() <= 40;
            match name {
                true => format!(".{}", String::from_utf8_lossy(s)),
                false => format!("[{}]", quoted(s)),
            }
        }
        Key::Bool(b) => format!("[{b}]"),
        Key::Int(i) => format!("[{i}]"),
        Key::Float(x) => format!("[{}]", Arg::Float(x)),
    }
}

/// The number at `at`: Lua 5.4's integers as integers, every other number
/// (LuaJIT's all) as a double; `graph::canonical` then writes each by its
/// value.
///
/// # Safety
/// `at` holds a number.
unsafe fn number(l: *mut lua_State, at: c_int) -> Number {
    // SAFETY: reads of a number.
    unsafe {
        #[cfg(not(feature = "luajit"))]
        if ffi::lua_isinteger(l, at) != 0 {
            return Number::Int(ffi::lua_tointeger(l, at));
        }
        Number::Float(ffi::lua_tonumber(l, at))
    }
}

/// The module's native at `at`, if it is a live one.
fn native_at(args: &Args, at: c_int) -> Option<NativeRef<'_>> {
    if let Some(v) = args.native_ref::<NativeLevel>(at) {
        return Some(NativeRef::Level(v));
    }
    if let Some(v) = args.native_ref::<Field>(at) {
        return Some(NativeRef::Field(v));
    }
    if let Some(v) = args.native_ref::<Random>(at) {
        return Some(NativeRef::Rng(v));
    }
    if let Some(v) = args.native_ref::<Scheduler>(at) {
        return Some(NativeRef::Scheduler(v));
    }
    if let Some(v) = args.native_ref::<Names>(at) {
        return Some(NativeRef::Names(v));
    }
    args.native_ref::<Noise>(at).map(NativeRef::Noise)
}
