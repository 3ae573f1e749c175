//! The native block: what every userdata of the module is. A native value
//! (a level, a field, a random source, ...: each a kind of `natives/`,
//! behind the trait `Native`) lives in a block of two words (a tag and a
//! pointer to the boxed value) and a view, with its kind's metatable.
//!
//! Every exported function holds, as its third upvalue (`NATIVES`), a
//! table of the kinds' metatables and method tables, at each kind's slot
//! (given when the module opens, in the order of `mod.rs`'s list), and two
//! tables every kind shares (`CHARS`, `KEYS`). A value is taken as of a
//! kind only when it is a full userdata of exactly a block's size, its
//! metatable is the very table in that upvalue, and its tag matches: a
//! value the debug library gave a stolen metatable is refused, not read.
//! The metatables are protected (`__metatable`), and `__gc` frees the boxed
//! value and clears the pointer, so a method called on a finalized value
//! (resurrected by another finalizer) is an error, not a use after free.
//! What the natives hold is counted, for the collector (`collector.rs`).
//!
//! This file knows no kind by name: each is a `Kind` its own file declares.

#![deny(unsafe_op_in_unsafe_fn)]

use std::cell::Cell;
use std::ffi::{c_int, c_void};
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::OnceLock;

use mlua::ffi::{self, lua_State};
use mlua::{Lua, Table};

use super::args::Args;
use super::call::{call, Reply};
use super::collector::{collect_if_native_grew, native_freed};
use super::upvalues::{Method, Upvalues, NATIVES};

/// The natives' table's own entries, before the kinds' slots.
/// The 256 one-byte strings, at `byte + 1`: `lvl:get` pushes one without
/// allocating.
pub const CHARS: ffi::lua_Integer = 1;
/// The keys `x` and `y`, at 1 and 2: `level:steps` writes the movers'
/// cells with them.
pub const KEYS: ffi::lua_Integer = 2;

/// A kind of native value, declared by its file of `natives/` as a static.
pub struct Kind {
    /// `map.METHODS`' key, the metatable's name (`map.level`) and the
    /// prefix of its methods' messages (`level:get`).
    pub name: &'static str,
    /// The kind in messages: "self must be a names generator".
    pub noun: &'static str,
    /// "a" or "an", before the noun.
    pub article: &'static str,
    /// Eight bytes that mark its blocks.
    pub tag: [u8; 8],
    /// Its slot in the natives' table (`install` gives it).
    slot: AtomicI64,
}

impl Kind {
    pub const fn new(
        name: &'static str,
        noun: &'static str,
        article: &'static str,
        tag: &[u8; 8],
    ) -> Kind {
        Kind {
            name,
            noun,
            article,
            tag: *tag,
            slot: AtomicI64::new(0),
        }
    }

    fn tag(&self) -> u64 {
        u64::from_le_bytes(self.tag)
    }

    /// Its metatable's index in the natives' table (its methods' is next).
    pub fn slot(&self) -> ffi::lua_Integer {
        self.slot.load(Ordering::Relaxed) as ffi::lua_Integer
    }
}

/// A Rust type kept in a native block, and what Lua sees of it.
pub trait Native: Sized + 'static {
    /// Its kind (`static` in its file).
    fn kind() -> &'static Kind;
    /// Its own methods.
    const METHODS: &'static [Method];
    /// Whether the exports' method forms (`lvl:fov`, ...) are its methods
    /// too: a level's.
    const TAKES_METHOD_FORMS: bool = false;
    /// Metamethods besides `__gc`, `__tostring` and `__index` (`__len`).
    const METAMETHODS: &'static [Method] = &[];
    /// What a property read gives (`lvl.width`); kinds without properties
    /// keep `()`, and their `__index` is their method table.
    type Property: Reply;
    const HAS_PROPERTIES: bool = false;
    /// The property `key`, if it is one (nil otherwise).
    fn property(&self, _key: &[u8]) -> Option<Self::Property> {
        None
    }
    /// What `tostring` says after `map.<kind>` (": 80x50").
    fn text(&self) -> String;
    /// The memory it holds, which Lua's collector does not see.
    fn bytes(&self) -> usize;
    /// Where its cells are, for LuaJIT's FFI (none for most kinds).
    fn view(&mut self) -> View {
        View::NONE
    }
}

/// What LuaJIT's FFI reads and writes in place (`luajit/natives.lua`): a
/// level's terrain (a byte a cell), occupancy (64 cells a word) and how
/// many of its cells have an occupant's id (`ids`, read only), or a
/// field's cells (`kind`: `native::field::Cells::NARROW`, ...) over its
/// window (x, y, w, h), for a map of `width` x `height`. The pointers are
/// cleared with the value when it is freed.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct View {
    pub cells: *mut u8,
    pub bits: *mut u64,
    pub kind: u32,
    pub width: u32,
    pub height: u32,
    pub window: [u32; 4],
    pub ids: *const u64,
}

/// The userdata's memory: the kind's tag, the boxed value (null once
/// finalized) and its view.
#[repr(C)]
pub struct Block {
    tag: u64,
    value: *mut c_void,
    view: View,
}

#[cfg(feature = "luajit")]
/// `Block` as LuaJIT's FFI declares it (`luajit/natives.lua`), beside the
/// struct so that the two are written together; the route checks its size.
pub const BLOCK_CDEF: &str = "struct { uint64_t tag; void *value; uint8_t *cells; uint64_t *bits; \
                              uint32_t kind, width, height, x, y, w, h; const uint64_t *ids; }";

impl View {
    pub const NONE: View = View {
        cells: std::ptr::null_mut(),
        bits: std::ptr::null_mut(),
        kind: 0,
        width: 0,
        height: 0,
        window: [0; 4],
        ids: std::ptr::null(),
    };
}

impl Block {
    pub const SIZE: usize = std::mem::size_of::<Block>();

    /// The value a block of `kind` holds, if `block` is one and its value
    /// is alive.
    ///
    /// # Safety
    /// `block` points to `SIZE` readable bytes (a userdata of that size).
    pub unsafe fn value(block: *const Block, kind: &Kind) -> Option<*mut c_void> {
        // SAFETY: the caller's promise; the block is plain data.
        let b = unsafe { &*block };
        (b.tag == kind.tag() && !b.value.is_null()).then_some(b.value)
    }

    /// Whether `block` is of `kind`, its value alive or not.
    ///
    /// # Safety
    /// As `value`'s.
    pub unsafe fn is(block: *const Block, kind: &Kind) -> bool {
        // SAFETY: the caller's promise.
        unsafe { (*block).tag == kind.tag() }
    }
}

/// A new value for `push_native` to move into a userdata; as a reply, the
/// new native.
pub struct Fresh<T>(Cell<Option<Box<T>>>);

impl<T> Fresh<T> {
    pub fn new(value: T) -> Fresh<T> {
        Fresh(Cell::new(Some(Box::new(value))))
    }
}

impl<T: Native> Reply for Fresh<T> {
    unsafe fn push_on(&self, l: *mut lua_State) -> c_int {
        // SAFETY: the pushers' contract, inside `push_reply`.
        unsafe { push_native(l, self) }
    }
}

/// Pushes the value `fresh` holds as a new userdata with its kind's
/// metatable. The userdata is made first: if that fails (out of memory),
/// the value is still in `fresh`, dropped with the reply; once it is made
/// nothing else can fail, and the value is moved into it.
///
/// # Safety
/// The pushers' contract (`push.rs`).
pub unsafe fn push_native<T: Native>(l: *mut lua_State, fresh: &Fresh<T>) -> c_int {
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
            tag: T::kind().tag(),
            value: value.cast(),
            view,
        });
        ffi::lua_rawgeti(l, NATIVES, T::kind().slot());
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
            if let Some(value) = Block::value(block, T::kind()) {
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

/// `__index` of a kind with properties: a method by its name, else a
/// property (run as any exported function is), else nil.
///
/// # Safety
/// A Lua C function with the three upvalues of `Upvalues::register`.
unsafe extern "C-unwind" fn index<T: Native>(l: *mut lua_State) -> c_int {
    // SAFETY: raw reads of the natives' table (an upvalue) allocate nothing.
    unsafe {
        ffi::lua_settop(l, 2);
        ffi::lua_rawgeti(l, NATIVES, T::kind().slot() + 1);
        ffi::lua_pushvalue(l, 2);
        if ffi::lua_rawget(l, -2) != ffi::LUA_TNIL {
            return 1;
        }
        ffi::lua_settop(l, 2);
        call(l, T::kind().name, |args| {
            let this = this::<T>(args)?;
            Ok(match args.get(2) {
                crate::input::Arg::Str(key) => this.property(key),
                _ => None,
            })
        })
    }
}

/// `__tostring`: `map.<kind>` and what `text` says of it (`map.level:
/// 80x50`), or `map.<kind>: freed` for one whose finalizer has run.
///
/// # Safety
/// A Lua C function with the three upvalues of `Upvalues::register`.
unsafe extern "C-unwind" fn tostring<T: Native>(l: *mut lua_State) -> c_int {
    let name = T::kind().name;
    // SAFETY: Lua called this function with a valid state.
    unsafe {
        call(l, name, |args| {
            let what = match this::<T>(args) {
                Ok(value) => value.text(),
                Err(_) => ": freed".into(),
            };
            Ok(format!("map.{name}{what}").into_bytes())
        })
    }
}

/// The kinds the module opened with, for messages that say what a value
/// is (`what`, `not_a`).
static KINDS: OnceLock<Vec<&'static Kind>> = OnceLock::new();

impl Args {
    /// The value of the native userdata at `index`, if it is one of
    /// `kind`: a full userdata of a block's size, whose metatable is the
    /// kind's own in the natives' table and whose tag matches. Needs the
    /// natives' upvalue (every exported function has it).
    pub fn native(&self, index: c_int, kind: &Kind) -> Option<*mut c_void> {
        // SAFETY: `native_block` checked the userdata has a block's size.
        self.native_block(index, kind)
            .and_then(|block| unsafe { Block::value(block, kind) })
    }

    /// The `T` at `index`, if it is a live one.
    pub fn native_ref<T: Native>(&self, index: c_int) -> Option<&T> {
        // SAFETY: the argument (or the table holding it) keeps it alive
        // during the call, in which no Lua code runs to free it.
        self.native(index, T::kind())
            .map(|value| unsafe { &*value.cast::<T>() })
    }

    /// The address of the userdata at `index` (a native's block, checked
    /// by `native`), for LuaJIT's FFI.
    #[cfg(feature = "luajit")]
    pub fn block_address(&self, index: c_int) -> *mut c_void {
        self.with_raw(|l| {
            // SAFETY: `lua_touserdata` reads any value.
            unsafe { ffi::lua_touserdata(l, index) }
        })
    }

    /// Whether the value at `index` is a block of `kind` whose value was
    /// freed by its finalizer (and the userdata since resurrected).
    pub fn native_freed(&self, index: c_int, kind: &Kind) -> bool {
        self.native_block(index, kind).is_some() && self.native(index, kind).is_none()
    }

    /// The block of the native userdata at `index`, if it is one of `kind`
    /// (see `native`), its value alive or not.
    fn native_block(&self, index: c_int, kind: &Kind) -> Option<*const Block> {
        if self.kind(index) != ffi::LUA_TUSERDATA {
            return None;
        }
        self.with_raw(|l| {
            // SAFETY: raw reads that allocate nothing, two slots popped
            // before returning; the block is read only once its size is
            // known.
            unsafe {
                if ffi::lua_rawlen(l, index) != Block::SIZE || ffi::lua_getmetatable(l, index) == 0
                {
                    return None;
                }
                ffi::lua_rawgeti(l, NATIVES, kind.slot());
                let ours = ffi::lua_rawequal(l, -1, -2) != 0;
                ffi::lua_settop(l, -3);
                if !ours {
                    return None;
                }
                let block = ffi::lua_touserdata(l, index).cast::<Block>().cast_const();
                Block::is(block, kind).then_some(block)
            }
        })
    }
}

/// `self`, argument 1, as a `T`; else the error that says what it is.
pub fn this<T: Native>(args: &Args) -> Result<&T, String> {
    args.native_ref::<T>(1)
        .ok_or_else(|| not_a(args, 1, T::kind()))
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
    match args.native(1, T::kind()) {
        // SAFETY: as `this`; the caller's promise makes it the only reference.
        Some(value) => Ok(unsafe { &mut *value.cast::<T>() }),
        None => Err(not_a(args, 1, T::kind())),
    }
}

/// What the value at `index` is, for a message: `self must be a level, got field`.
pub fn not_a(args: &Args, index: c_int, kind: &Kind) -> String {
    if args.native_freed(index, kind) {
        return format!(
            "the {} was freed by the collector (used from a finalizer)",
            kind.noun
        );
    }
    let got = kinds()
        .find(|k| args.native(index, k).is_some())
        .map_or(args.get(index).type_name(), |k| k.noun);
    let what = if index == 1 { "self" } else { "argument" };
    format!("{what} must be {} {}, got {got}", kind.article, kind.noun)
}

/// What the value at stack `index` is, for a message: a native's kind
/// (`rng`, `a freed rng`), else its Lua type.
pub fn what(args: &Args, index: c_int) -> String {
    for kind in kinds() {
        if args.native(index, kind).is_some() {
            return kind.noun.into();
        }
        if args.native_freed(index, kind) {
            return format!("a freed {}", kind.noun);
        }
    }
    args.at(index).type_name().into()
}

pub fn kinds() -> impl Iterator<Item = &'static Kind> {
    KINDS.get().into_iter().flatten().copied()
}

/// Declares, in a native's file, each method's C function, named
/// `<kind>:<name>` in messages, each running its body through `$runner`
/// (which finds `self`: `native_method` for a method that only reads it,
/// `native_method_mut` for one that may change it, or the file's own;
/// `$typed` gives each body its parameters' types: `reads`, `changes`), and
/// `METHODS`, their list; `name as entry => body` lists the C function
/// `entry` under `name` (a faster route that falls back to `name`).
macro_rules! methods {
    ($kind:literal, $runner:path, $typed:path; $($name:ident $(as $entry:ident)? => $body:expr,)*) => {
        $(
            /// # Safety
            /// Lua calls it as a method, with the upvalues of `Upvalues::register`.
            unsafe extern "C-unwind" fn $name(state: *mut mlua::ffi::lua_State) -> std::ffi::c_int {
                let body = $typed($body);
                // SAFETY: Lua called this function with a valid state.
                unsafe { $runner(state, concat!($kind, ":", stringify!($name)), body) }
            }
        )*
        const METHODS: &[$crate::lua::stack::upvalues::Method] = &[
            $((stringify!($name), $crate::lua::stack::block::methods!(@entry $name $($entry)?))),*
        ];
    };
    (@entry $name:ident) => { $name };
    (@entry $name:ident $entry:ident) => { $entry };
}
pub(crate) use methods;

/// `body` as `native_method` takes it (`methods!`'s `$typed`).
pub fn reads<T, R, F: FnOnce(&Args, &T) -> Result<R, String>>(body: F) -> F {
    body
}

/// `body` as `native_method_mut` takes it (`methods!`'s `$typed`).
pub fn changes<T, R, F: FnOnce(&Args, &mut T) -> Result<R, String>>(body: F) -> F {
    body
}

/// Runs `body` as the method `name` of the `T` at argument 1, which it
/// only reads.
///
/// # Safety
/// As `call`'s.
pub unsafe fn native_method<T: Native, R: Reply>(
    state: *mut lua_State,
    name: &str,
    body: impl FnOnce(&Args, &T) -> Result<R, String>,
) -> c_int {
    // SAFETY: the caller's promise.
    unsafe { call(state, name, |args| body(args, this::<T>(args)?)) }
}

/// Runs `body` as the method `name` of the `T` at argument 1, which it may
/// change: `self` is the only native such a method reaches.
///
/// # Safety
/// As `call`'s, and `body` reaches no other reference to `self`.
pub unsafe fn native_method_mut<T: Native, R: Reply>(
    state: *mut lua_State,
    name: &str,
    body: impl FnOnce(&Args, &mut T) -> Result<R, String>,
) -> c_int {
    // SAFETY: the caller's promise.
    unsafe { call(state, name, |args| body(args, this_mut::<T>(args)?)) }
}

/// Fills the natives' table with kind `T`'s metatable and method table
/// (its own methods, then, for a kind that takes them, `forms`: the
/// exports' method forms), at the slot after those already there. Returns
/// the methods' names, in that order.
pub fn install<T: Native>(
    lua: &Lua,
    upvalues: &Upvalues,
    forms: &[Method],
) -> mlua::Result<Vec<&'static str>> {
    let forms = if T::TAKES_METHOD_FORMS { forms } else { &[] };
    let natives = &upvalues.natives;
    let kind = T::kind();
    // After `CHARS` and `KEYS` (`prepare`), each kind takes two slots.
    let slot = natives.raw_len() as i64 + 1;
    kind.slot.store(slot, Ordering::Relaxed);
    let methods = lua.create_table()?;
    upvalues.register(lua, &methods, T::METHODS)?;
    upvalues.register(lua, &methods, forms)?;
    let meta = lua.create_table()?;
    upvalues.register(
        lua,
        &meta,
        &[("__gc", collect::<T>), ("__tostring", tostring::<T>)],
    )?;
    match T::HAS_PROPERTIES {
        true => upvalues.register(lua, &meta, &[("__index", index::<T>)])?,
        // No properties: methods are found without a call.
        false => meta.raw_set("__index", &methods)?,
    }
    upvalues.register(lua, &meta, T::METAMETHODS)?;
    let name = format!("map.{}", kind.name);
    meta.set("__metatable", name.as_str())?;
    meta.set("__name", name)?;
    natives.raw_set(slot, meta)?;
    natives.raw_set(slot + 1, methods)?;
    Ok(T::METHODS
        .iter()
        .chain(forms)
        .map(|&(name, _)| name)
        .collect())
}

/// Fills the natives' own entries (`CHARS`, `KEYS`) and keeps the list of
/// kinds for messages; `install` then adds each kind after them.
pub fn prepare(lua: &Lua, upvalues: &Upvalues, kinds: Vec<&'static Kind>) -> mlua::Result<()> {
    let natives = &upvalues.natives;
    let chars: Table = lua.create_table_with_capacity(256, 0)?;
    for c in 0..=255u8 {
        chars.raw_set(i64::from(c) + 1, lua.create_string([c])?)?;
    }
    natives.raw_set(CHARS, chars)?;
    natives.raw_set(KEYS, lua.create_sequence_from(["x", "y"])?)?;
    // The same list every time the module opens.
    let _ = KINDS.set(kinds);
    Ok(())
}
