//! Native values as Lua userdata: a level (`native::NativeLevel`) and a
//! field (`native::field::Field`), each a block of two words (a tag and a
//! pointer to the boxed value) with its metatable.
//!
//! Every exported function holds, as its third upvalue (`NATIVES`), a
//! table of the metatables and method tables by `Slot`, made when the
//! module opens. A value is taken as a level or a field only when it is a
//! full userdata of exactly a block's size, its metatable is the very
//! table in that upvalue, and its tag matches: a value the debug library
//! gave a stolen metatable is refused, not read. The metatables are
//! protected (`__metatable`), and `__gc` frees the boxed value and clears
//! the pointer, so a method called on a finalized value (resurrected by
//! another finalizer) is an error, not a use after free. What the natives
//! hold is counted, for the collector (`collect_if_native_grew`).
//!
//! Methods are the functions of `level.rs` and `field.rs`, called with
//! `self` first, as `map`'s functions take the map first; they read
//! `self` as the map (`Args::on_level`) and run no Lua code.

#![deny(unsafe_op_in_unsafe_fn)]

use std::cell::Cell;
use std::ffi::{c_int, c_void};

use mlua::ffi::{self, lua_State};
use mlua::{Lua, Table};

mod collector;

use super::calling::call;
use super::read::Args;
use super::Reply;
use super::Upvalues;
use crate::native::field::Field;
use crate::native::NativeLevel;
use crate::toolbox::names::Names;
use crate::toolbox::random::Random;
use crate::toolbox::scheduler::Scheduler;
use crate::toolkit::noise::Noise;
use collector::{collect_if_native_grew, native_freed};

/// The upvalue of every exported function that holds the natives' table.
pub const NATIVES: c_int = ffi::lua_upvalueindex(3);

/// The natives' table's entries.
#[derive(Clone, Copy)]
pub enum Slot {
    LevelMeta = 1,
    FieldMeta = 2,
    LevelMethods = 3,
    FieldMethods = 4,
    /// The 256 one-byte strings, at `byte + 1`: `lvl:get` pushes one
    /// without allocating.
    Chars = 5,
    /// The keys `x` and `y`, at 1 and 2: `level:steps` writes the movers'
    /// cells with them.
    Keys = 6,
    /// The toolbox's natives (`map.rng`, `map.scheduler`, `map.names`):
    /// each kind's metatable, then its method table.
    RngMeta = 7,
    RngMethods = 8,
    SchedulerMeta = 9,
    SchedulerMethods = 10,
    NamesMeta = 11,
    NamesMethods = 12,
    /// `map.noise`'s metatable, then its method table.
    NoiseMeta = 13,
    NoiseMethods = 14,
}

/// The kinds of native value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Level,
    Field,
    /// `map.rng`'s random source (toolbox, lua/random.rs).
    Rng,
    /// `map.scheduler`'s queue of turns (lua/scheduler.rs).
    Scheduler,
    /// `map.names`' generator (lua/names.rs).
    Names,
    /// `map.noise`'s source (toolkit/noise.rs, lua/noise.rs).
    Noise,
}

impl Kind {
    pub const ALL: [Kind; 6] = [
        Kind::Level,
        Kind::Field,
        Kind::Rng,
        Kind::Scheduler,
        Kind::Names,
        Kind::Noise,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Kind::Level => "level",
            Kind::Field => "field",
            Kind::Rng => "rng",
            Kind::Scheduler => "scheduler",
            Kind::Names => "names",
            Kind::Noise => "noise",
        }
    }

    /// The kind in messages: "self must be a names generator".
    pub fn noun(self) -> &'static str {
        match self {
            Kind::Names => "names generator",
            _ => self.name(),
        }
    }

    pub fn meta(self) -> Slot {
        match self {
            Kind::Level => Slot::LevelMeta,
            Kind::Field => Slot::FieldMeta,
            Kind::Rng => Slot::RngMeta,
            Kind::Scheduler => Slot::SchedulerMeta,
            Kind::Names => Slot::NamesMeta,
            Kind::Noise => Slot::NoiseMeta,
        }
    }

    pub fn methods(self) -> Slot {
        match self {
            Kind::Level => Slot::LevelMethods,
            Kind::Field => Slot::FieldMethods,
            Kind::Rng => Slot::RngMethods,
            Kind::Scheduler => Slot::SchedulerMethods,
            Kind::Names => Slot::NamesMethods,
            Kind::Noise => Slot::NoiseMethods,
        }
    }

    fn tag(self) -> u64 {
        match self {
            Kind::Level => u64::from_le_bytes(*b"maplevel"),
            Kind::Field => u64::from_le_bytes(*b"mapfield"),
            Kind::Rng => u64::from_le_bytes(*b"map_rng_"),
            Kind::Scheduler => u64::from_le_bytes(*b"mapsched"),
            Kind::Names => u64::from_le_bytes(*b"mapnames"),
            Kind::Noise => u64::from_le_bytes(*b"mapnoise"),
        }
    }
}

/// Declares, in a native's file, each method's C function, named
/// `<kind>:<name>` in messages, each running its body through that file's
/// own `method` (which finds `self`), and `METHODS`, their list (unless
/// the file keeps its `own list`).
macro_rules! methods {
    // Methods that only read `self`, a `$t`, need no `method` of their own.
    ($kind:literal for $t:ty; $($name:ident => $body:expr,)*) => {
        $(
            /// # Safety
            /// Lua calls it as a method, with the upvalues of `Upvalues::register`.
            unsafe extern "C-unwind" fn $name(state: *mut lua_State) -> c_int {
                // SAFETY: Lua called this function with a valid state.
                unsafe {
                    native::method::<$t>(state, concat!($kind, ":", stringify!($name)), $body)
                }
            }
        )*
        native::methods!(@list; $($name)*);
    };
    ($kind:literal $(, $own:ident list)?; $($name:ident => $body:expr,)*) => {
        $(
            /// # Safety
            /// Lua calls it as a method, with the upvalues of `Upvalues::register`.
            unsafe extern "C-unwind" fn $name(state: *mut lua_State) -> c_int {
                // SAFETY: Lua called this function with a valid state.
                unsafe { method(state, concat!($kind, ":", stringify!($name)), $body) }
            }
        )*
        native::methods!(@list $($own)?; $($name)*);
    };
    (@list; $($name:ident)*) => {
        const METHODS: &[(&str, ffi::lua_CFunction)] = &[$((stringify!($name), $name)),*];
    };
    (@list $own:ident; $($name:ident)*) => {};
}
pub(crate) use methods;

/// Runs `body` as the method `name` of the `T` at argument 1, which it
/// only reads (`methods!`'s form `"<kind>" for T`).
///
/// # Safety
/// As `call`'s.
pub unsafe fn method<T: Native>(
    state: *mut lua_State,
    name: &str,
    body: impl FnOnce(&Args, &T) -> Result<Reply, String>,
) -> c_int {
    // SAFETY: the caller's promise.
    unsafe { call(state, name, |args| body(args, this::<T>(args)?)) }
}

/// A Rust type kept in a native block.
pub trait Native {
    const KIND: Kind;
    /// The memory it holds, which Lua's collector does not see.
    fn bytes(&self) -> usize;
    /// Where its cells are, for LuaJIT's FFI (none: a toolbox native).
    fn view(&mut self) -> View {
        View::NONE
    }
}

impl Native for NativeLevel {
    const KIND: Kind = Kind::Level;
    fn bytes(&self) -> usize {
        let cells = self.width() * self.height();
        cells + cells / 8 + 8 * self.things().len()
    }
    fn view(&mut self) -> View {
        let (width, height) = (self.width() as u32, self.height() as u32);
        let (cells, bits) = self.raw_parts();
        View {
            cells,
            bits,
            kind: 0,
            width,
            height,
            window: [1, 1, width, height],
        }
    }
}

impl Native for Field {
    const KIND: Kind = Kind::Field;
    fn bytes(&self) -> usize {
        Field::bytes(self)
    }
    fn view(&mut self) -> View {
        let ((width, height), w) = (self.size, self.window);
        let (cells, kind) = self.raw_cells();
        View {
            cells,
            bits: std::ptr::null_mut(),
            kind,
            width: width as u32,
            height: height as u32,
            window: [w.x, w.y, w.w, w.h].map(|v| v as u32),
        }
    }
}

impl Native for Random {
    const KIND: Kind = Kind::Rng;
    fn bytes(&self) -> usize {
        std::mem::size_of::<Random>()
    }
}

impl Native for Scheduler {
    const KIND: Kind = Kind::Scheduler;
    /// Its queue grows and shrinks with the actors, which the Lua side
    /// holds too (the collector sees them): only its header is counted.
    fn bytes(&self) -> usize {
        std::mem::size_of::<Scheduler>()
    }
}

impl Native for Names {
    const KIND: Kind = Kind::Names;
    fn bytes(&self) -> usize {
        Names::bytes(self)
    }
}

impl Native for Noise {
    const KIND: Kind = Kind::Noise;
    fn bytes(&self) -> usize {
        Noise::bytes(self)
    }
}

/// What LuaJIT's FFI reads and writes in place (`luajit_native.lua`): a
/// level's terrain (a byte a cell) and occupancy (64 cells a word), or a
/// field's cells (`kind` 1: `i32` values, 2: `i64`, 3: flags, a byte each)
/// over its window (x, y, w, h), for a map of `width` x `height`. The
/// pointers are cleared with the value when it is freed.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct View {
    cells: *mut u8,
    bits: *mut u64,
    kind: u32,
    width: u32,
    height: u32,
    window: [u32; 4],
}

/// The userdata's memory: the kind's tag, the boxed value (null once
/// finalized) and its view.
#[repr(C)]
pub struct Block {
    tag: u64,
    value: *mut c_void,
    view: View,
}

impl View {
    const NONE: View = View {
        cells: std::ptr::null_mut(),
        bits: std::ptr::null_mut(),
        kind: 0,
        width: 0,
        height: 0,
        window: [0; 4],
    };
}

impl Block {
    pub const SIZE: usize = std::mem::size_of::<Block>();

    /// The value a block of `kind` holds, if `block` is one and its value
    /// is alive.
    ///
    /// # Safety
    /// `block` points to `SIZE` readable bytes (a userdata of that size).
    pub unsafe fn value(block: *const Block, kind: Kind) -> Option<*mut c_void> {
        // SAFETY: the caller's promise; the block is plain data.
        let b = unsafe { &*block };
        (b.tag == kind.tag() && !b.value.is_null()).then_some(b.value)
    }

    /// Whether `block` is of `kind`, its value alive or not.
    ///
    /// # Safety
    /// As `value`'s.
    pub unsafe fn is(block: *const Block, kind: Kind) -> bool {
        // SAFETY: the caller's promise.
        unsafe { (*block).tag == kind.tag() }
    }
}

/// A new value for `push_native` to move into a userdata.
pub struct Fresh<T>(Cell<Option<Box<T>>>);

impl<T> Fresh<T> {
    pub fn new(value: T) -> Fresh<T> {
        Fresh(Cell::new(Some(Box::new(value))))
    }
}

/// Pushes the value `fresh` holds as a new userdata with its kind's
/// metatable, from the natives' table at `natives`. The userdata is made
/// first: if that fails (out of memory), the value is still in `fresh`,
/// dropped with the reply; once it is made nothing else can fail, and the
/// value is moved into it.
///
/// # Safety
/// The pushers' contract (push.rs), with `natives` the natives' table.
pub unsafe fn push_native<T: Native>(l: *mut lua_State, natives: c_int, fresh: &Fresh<T>) -> c_int {
    // SAFETY: the userdata has `Block::SIZE` bytes, aligned for a pointer;
    // `lua_rawgeti` and `lua_setmetatable` allocate nothing. A collection
    // runs only after the value is in its block (it may raise, in the
    // `pcall`, leaving the block to the collector).
    unsafe {
        let block = ffi::lua_newuserdata(l, Block::SIZE).cast::<Block>();
        let mut value = fresh.0.take();
        let bytes = value.as_ref().map_or(0, |v| v.bytes());
        let view = value.as_mut().map_or(View::NONE, |v| v.view());
        let value = value.map_or(std::ptr::null_mut(), Box::into_raw);
        block.write(Block {
            tag: T::KIND.tag(),
            value: value.cast(),
            view,
        });
        ffi::lua_rawgeti(l, natives, T::KIND.meta() as ffi::lua_Integer);
        ffi::lua_setmetatable(l, -2);
        collect_if_native_grew(l, bytes);
        1
    }
}

/// `__gc`: frees the value and clears the pointer.
///
/// # Safety
/// A Lua C function.
unsafe extern "C-unwind" fn collect<T: Native>(l: *mut lua_State) -> c_int {
    // SAFETY: a block is read only when the userdata has its size; the
    // pointer is cleared before the box is dropped, which runs no Lua.
    unsafe {
        if ffi::lua_type(l, 1) == ffi::LUA_TUSERDATA && ffi::lua_rawlen(l, 1) == Block::SIZE {
            let block = ffi::lua_touserdata(l, 1).cast::<Block>();
            if let Some(value) = Block::value(block, T::KIND) {
                (*block).value = std::ptr::null_mut();
                (*block).view = View::NONE;
                let value = Box::from_raw(value.cast::<T>());
                native_freed(value.bytes());
                drop(value);
            }
        }
        0
    }
}

/// `__index`: a method by its name, else a property (`property`, run as
/// any exported function is).
///
/// # Safety
/// A Lua C function with the three upvalues of `Upvalues::register`.
unsafe extern "C-unwind" fn index<T: Native>(l: *mut lua_State) -> c_int {
    let methods = T::KIND.methods();
    // SAFETY: raw reads of the natives' table (an upvalue) allocate nothing.
    unsafe {
        ffi::lua_settop(l, 2);
        ffi::lua_rawgeti(l, NATIVES, methods as ffi::lua_Integer);
        ffi::lua_pushvalue(l, 2);
        if ffi::lua_rawget(l, -2) != ffi::LUA_TNIL {
            return 1;
        }
        ffi::lua_settop(l, 2);
        match T::KIND {
            Kind::Level => super::level::property(l),
            Kind::Field => super::field::property(l),
            Kind::Noise => super::noise::property(l),
            // The toolbox's natives have no properties: __index is their
            // method table.
            _ => 0,
        }
    }
}

/// `self`, argument 1, as a `T`; else the error that says what it is.
pub fn this<T: Native>(args: &Args) -> Result<&T, String> {
    match args.native(1, T::KIND) {
        // SAFETY: the userdata is argument 1, alive for the whole call; no
        // Lua code runs during it, so nothing else reaches the value.
        Some(value) => Ok(unsafe { &*value.cast::<T>() }),
        None => Err(not_a(args, 1, T::KIND)),
    }
}

/// `self` as a `T` to change (`set`, `occupy`, `steps`).
///
/// # Safety
/// The caller holds no other reference to the value while this one lives
/// (no `this`, no `Args::level_at` after `Args::off_level`).
#[expect(
    clippy::mut_from_ref,
    reason = "the value lives in a userdata, not in `args`; the contract makes it unique"
)]
pub unsafe fn this_mut<T: Native>(args: &Args) -> Result<&mut T, String> {
    match args.native(1, T::KIND) {
        // SAFETY: as `this`; the caller's promise makes it the only reference.
        Some(value) => Ok(unsafe { &mut *value.cast::<T>() }),
        None => Err(not_a(args, 1, T::KIND)),
    }
}

/// What the value at `index` is, for a message: `self must be a level, got field`.
pub fn not_a(args: &Args, index: c_int, kind: Kind) -> String {
    if args.native_freed(index, kind) {
        return format!(
            "the {} was freed by the collector (used from a finalizer)",
            kind.noun()
        );
    }
    let got = Kind::ALL
        .into_iter()
        .find(|&k| args.native(index, k).is_some())
        .map_or(args.get(index).type_name(), Kind::noun);
    let what = if index == 1 { "self" } else { "argument" };
    let article = if kind == Kind::Rng { "an" } else { "a" };
    format!("{what} must be {article} {}, got {got}", kind.noun())
}

/// What the value at stack `index` is, for a message: a native's kind
/// (`rng`, `a freed rng`), else its Lua type.
pub fn what(args: &Args, index: c_int) -> String {
    for kind in Kind::ALL {
        if args.native(index, kind).is_some() {
            return kind.noun().into();
        }
        if args.native_freed(index, kind) {
            return format!("a freed {}", kind.noun());
        }
    }
    args.at(index).type_name().into()
}

/// The argument at `index` as a field, if it is one.
pub fn field_at(args: &Args, index: c_int) -> Option<&Field> {
    // SAFETY: as `this`: the argument keeps it alive during the call.
    args.native(index, Kind::Field)
        .map(|value| unsafe { &*value.cast::<Field>() })
}

/// The functions of one kind's metatable.
pub struct Metatable {
    pub kind: Kind,
    pub methods: &'static [(&'static str, ffi::lua_CFunction)],
    pub tostring: ffi::lua_CFunction,
    /// Other metamethods (`__len`).
    pub metamethods: &'static [(&'static str, ffi::lua_CFunction)],
}

/// Fills the natives' table: each kind's metatable and method table, and
/// the one-byte strings.
pub fn install(lua: &Lua, upvalues: &Upvalues, kinds: &[Metatable]) -> mlua::Result<()> {
    let natives = &upvalues.natives;
    for m in kinds {
        let methods = lua.create_table()?;
        upvalues.register(lua, &methods, m.methods)?;
        let meta = lua.create_table()?;
        let gc: ffi::lua_CFunction = match m.kind {
            Kind::Level => collect::<NativeLevel>,
            Kind::Field => collect::<Field>,
            Kind::Rng => collect::<Random>,
            Kind::Scheduler => collect::<Scheduler>,
            Kind::Names => collect::<Names>,
            Kind::Noise => collect::<Noise>,
        };
        upvalues.register(lua, &meta, &[("__gc", gc), ("__tostring", m.tostring)])?;
        match m.kind {
            Kind::Level => upvalues.register(lua, &meta, &[("__index", index::<NativeLevel>)])?,
            Kind::Field => upvalues.register(lua, &meta, &[("__index", index::<Field>)])?,
            Kind::Noise => upvalues.register(lua, &meta, &[("__index", index::<Noise>)])?,
            // No properties: methods are found without a call.
            _ => meta.raw_set("__index", &methods)?,
        }
        upvalues.register(lua, &meta, m.metamethods)?;
        let name = format!("map.{}", m.kind.name());
        meta.set("__metatable", name.as_str())?;
        meta.set("__name", name)?;
        natives.raw_set(m.kind.meta() as i64, meta)?;
        natives.raw_set(m.kind.methods() as i64, methods)?;
    }
    let chars: Table = lua.create_table_with_capacity(256, 0)?;
    for c in 0..=255u8 {
        chars.raw_set(i64::from(c) + 1, lua.create_string([c])?)?;
    }
    natives.raw_set(Slot::Chars as i64, chars)?;
    natives.raw_set(Slot::Keys as i64, lua.create_sequence_from(["x", "y"])?)?;
    Ok(())
}

/// `__tostring` for the `T` at argument 1: `map.<kind>` and what `text`
/// says of it (`map.level: 80x50`), or `map.<kind>: freed` for one whose
/// finalizer has run.
///
/// # Safety
/// As `call`'s.
pub unsafe fn tostring<T: Native>(state: *mut lua_State, text: impl FnOnce(&T) -> String) -> c_int {
    let kind = T::KIND.name();
    // SAFETY: the caller's promise.
    unsafe {
        call(state, kind, |args| {
            let what = match this::<T>(args) {
                Ok(value) => text(value),
                Err(_) => ": freed".into(),
            };
            Ok(Reply::Text(format!("map.{kind}{what}").into_bytes()))
        })
    }
}

/// Whether `known` in the options table at `options_at` is a field.
pub fn field_at_option(args: &Args, options_at: c_int) -> bool {
    use super::read::{Field as Name, Key};
    args.with_field(options_at, Key::Field(Name::Known), |a, top| {
        field_at(a, top).is_some()
    })
}

/// The memory at `index` to mark (`level:fov{into =}`): a field of flags
/// over the whole of a map of `size`.
///
/// # Safety
/// The caller holds no other reference to that field while this one lives.
#[expect(
    clippy::mut_from_ref,
    reason = "the field lives in a userdata, not in `args`; the contract makes it unique"
)]
pub unsafe fn field_mut_at(
    args: &Args,
    index: c_int,
    size: (usize, usize),
) -> Result<&mut Field, String> {
    const WHAT: &str = "into must be a memory (map.field or level:field())";
    // SAFETY: as `this_mut`: the options table holds it during the call,
    // and nothing else refers to it (it is not `self`, a level).
    let Some(field) = args
        .native(index, Kind::Field)
        .map(|value| unsafe { &mut *value.cast::<Field>() })
    else {
        return Err(format!("{WHAT}, got {}", args.at(index).type_name()));
    };
    if !field.is_flags() {
        return Err(format!("{WHAT}, got a field of values"));
    }
    if field.window != crate::grid::Rect::whole(field.size) {
        let w = field.window;
        return Err(format!("{WHAT}, got a field of {}x{}", w.w, w.h));
    }
    if field.size != size {
        let ((w, h), (lw, lh)) = (field.size, size);
        return Err(format!(
            "into is a memory of {w}x{h}, the level is {lw}x{lh}"
        ));
    }
    Ok(field)
}
