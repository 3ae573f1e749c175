//! How every function of the module runs, in three steps:
//! 1. `call` reads the arguments (`Args`, over reads that allocate
//!    nothing) and runs the core inside `catch_unwind` (`run`), touching the
//!    Lua stack only through calls that cannot raise a Lua error;
//! 2. on failure, it raises the message as a plain Lua string (`raise`),
//!    with no Rust value left alive in the frames that `lua_error` jumps
//!    over;
//! 3. on success, it pushes the reply inside `lua_pcall` (`push_protected`,
//!    `push_reply`), so that a Lua error while building it, such as running
//!    out of memory, is raised only after the reply is dropped.
//!
//! A reply is any `Reply`: each result type pushes itself, in the file
//! that makes it. mlua's own callbacks raise errors as userdata; raising
//! strings keeps `pcall` users' `err:match(...)` working the same on every
//! interpreter.

#![deny(unsafe_op_in_unsafe_fn)]

use std::ffi::c_int;
use std::panic::{catch_unwind, AssertUnwindSafe};

use crate::input::INTERNAL_ERROR;
use mlua::ffi::{self, lua_State};

use super::args::Args;
use super::upvalues::PUSH_REPLY;
use crate::input::Arg;
use std::fmt::Write;

/// What a function hands back to Lua.
pub trait Reply {
    /// Pushes the reply, inside `push_reply`'s protected call; returns how
    /// many values.
    ///
    /// # Safety
    /// The pushers' contract (`push.rs`'s module doc).
    unsafe fn push_on(&self, l: *mut lua_State) -> c_int;

    /// Pushes the reply in the call's own frame, without a `pcall`, if it
    /// is a few values that allocate nothing (numbers, booleans, nil, a
    /// string the natives' table holds): the hot small calls (`level:get`,
    /// `field:get`, `step`, `visible`) skip its cost. `None`: push it the
    /// protected way.
    ///
    /// # Safety
    /// The state of a call with the three upvalues of `Upvalues::register`,
    /// a few of its LUA_MINSTACK slots free.
    unsafe fn push_plain_on(&self, _l: *mut lua_State) -> Option<c_int> {
        None
    }

    /// The call's arguments the protected push writes to or reads from,
    /// passed along to it, at 1, 2, ... there (the movers of
    /// `level:steps`, the array `rng:shuffle` shuffles).
    fn carried(&self) -> &'static [c_int] {
        &[]
    }

    /// What the call changes of its natives once its result is pushed, and
    /// only then (a random source moved past the draws it gave): a call
    /// whose push fails leaves them as they were.
    ///
    /// # Safety
    /// After a successful push, in the call's own frame, with no other
    /// reference to the natives it changes.
    unsafe fn commit(&self) {}

    /// Undoes what a failed push changed of the call's arguments (the keys
    /// `rng:fill` added to its table), which are where the call got them.
    ///
    /// # Safety
    /// After a failed push, in the call's own frame, its arguments in
    /// place; it must allocate nothing.
    unsafe fn undo(&self, _l: *mut lua_State) {}
}

/// A caught panic becomes the Lua error "internal error (please report)"
/// with its message; the default hook would also print it to the host's
/// stderr (nginx's error.log). Other panics keep the default hook.
pub fn silence_panics() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !CALLING.with(std::cell::Cell::get) {
                default(info);
            }
        }));
    });
}

thread_local! {
    /// Whether this thread is inside `run`, where a panic is caught.
    static CALLING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `body`, then pushes its reply or raises its error as `"name: message"`.
/// Only `state` and the moved-out reply live in this frame when `raise` jumps.
///
/// # Safety
/// `state` is the state of a Lua call to a function of the module (or of
/// the LuaJIT route's helpers), whose frame this is: `raise` jumps out of it.
pub unsafe fn call<R: Reply>(
    state: *mut lua_State,
    name: &str,
    body: impl FnOnce(&Args) -> Result<R, String>,
) -> c_int {
    // SAFETY: `state` is the calling Lua state (this function's contract),
    // and nothing that needs dropping lives here when `raise` jumps.
    unsafe {
        match run(state, body) {
            Ok(reply) => push_protected(state, name, reply),
            Err(message) => raise(state, name, message),
        }
    }
}

/// Step 3: pushes `reply` inside `lua_pcall`, so that a Lua error while
/// building the result (out of memory, no room on the stack) cannot jump
/// over `reply`: it is dropped here, and then the error is raised with the
/// function's name. Pushing `push_reply` (an upvalue) and a light userdata
/// allocate nothing, so nothing before the `pcall` can fail.
///
/// # Safety
/// As `call`'s: `state` is a Lua call's whose closure has `push_reply` as
/// its upvalue `PUSH_REPLY` (`Upvalues::register`).
unsafe fn push_protected<R: Reply>(state: *mut lua_State, name: &str, reply: R) -> c_int {
    // SAFETY: `push_plain` pushes only what allocates nothing.
    if let Some(n) = unsafe { reply.push_plain_on(state) } {
        // SAFETY: the push succeeded, in the call's own frame.
        unsafe { reply.commit() };
        return n;
    }
    let dynamic: &dyn Reply = &reply;
    // SAFETY: the upvalue is `push_reply`, which reads the light userdata
    // (a pointer to `dynamic`) only during the `pcall`, while `reply` is
    // alive; the two pushes allocate nothing, into the LUA_MINSTACK slots a
    // C function is given.
    let (base, status) = unsafe {
        let base = ffi::lua_gettop(state);
        ffi::lua_pushvalue(state, PUSH_REPLY);
        ffi::lua_pushlightuserdata(state, std::ptr::from_ref(&dynamic).cast_mut().cast());
        let carried = reply.carried();
        for &i in carried {
            ffi::lua_pushvalue(state, i);
        }
        let arguments = 1 + carried.len() as c_int;
        (base, ffi::lua_pcall(state, arguments, ffi::LUA_MULTRET, 0))
    };
    if status == ffi::LUA_OK {
        // SAFETY: the push succeeded, in the call's own frame; `state` is
        // valid (this function's contract).
        unsafe {
            reply.commit();
            drop(reply);
            return ffi::lua_gettop(state) - base;
        }
    }

    // The message is made in a buffer on this frame, not on the heap: the
    // push may have failed because the address space is full (`ulimit
    // -v`), where a Rust allocation, however small, would abort. Running
    // out of stack reads the same whichever check met it (and on either
    // interpreter: see luajit/guard.rs).
    let mut message = Message::new();
    message.add(name.as_bytes());
    message.add(b": ");
    if status == ffi::LUA_ERRMEM {
        message.add(b"not enough memory for the result");
    } else {
        // SAFETY: the failed `pcall` left its error value on top, which
        // this reads (a string's bytes are copied before it is popped).
        let args = unsafe { Args::new(state) };
        match args.at(-1) {
            Arg::Str(why) if why.windows(14).any(|w| w == b"stack overflow") => {
                message.add(b"stack overflow")
            }
            Arg::Str(why) => message.add(why),
            other => {
                let _ = write!(message, "{other}");
            }
        }
    }
    // SAFETY: the arguments are in place below `base`, where `undo` finds
    // them (it allocates nothing); nothing left here needs dropping when
    // `raise_bytes` jumps.
    unsafe {
        ffi::lua_settop(state, base);
        reply.undo(state);
        drop(reply);
        raise_bytes(state, message.bytes())
    }
}

/// The protected part of `push_protected`: its one argument points to the
/// reply, which outlives this call.
///
/// # Safety
/// Called only by `push_protected`'s `lua_pcall`, its one argument a light
/// userdata pointing to a live `Reply`.
pub unsafe extern "C-unwind" fn push_reply(state: *mut lua_State) -> c_int {
    // SAFETY: `push_protected` passes a pointer to its `&dyn Reply`, alive
    // and not mutated until the `pcall` returns.
    let reply = unsafe { *ffi::lua_touserdata(state, 1).cast::<&dyn Reply>() };
    // SAFETY: inside the `pcall`, so any error the pushers raise (out of
    // memory, no room on the stack) ends it, with no Rust value to drop
    // in this frame but the borrowed `reply`.
    unsafe {
        // Left below the results: the arguments carried, if any.
        ffi::lua_remove(state, 1);
        reply.push_on(state)
    }
}

/// Step 1: the core's work, with any panic turned into an error message
/// (`raise` prefixes the function's name).
///
/// # Safety
/// `state` is the state of the Lua call this frame serves (see `call`).
unsafe fn run<R>(
    state: *mut lua_State,
    body: impl FnOnce(&Args) -> Result<R, String>,
) -> Result<R, String> {
    // SAFETY: `state` is the calling Lua state (this function's contract).
    let args = unsafe { Args::new(state) };
    CALLING.with(|c| c.set(true));
    let result = catch_unwind(AssertUnwindSafe(|| body(&args)));
    CALLING.with(|c| c.set(false));
    match result {
        Ok(result) => result,
        Err(panic) => {
            let what = panic
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| panic.downcast_ref::<&str>().copied())
                .unwrap_or("unknown panic");
            Err(format!("{INTERNAL_ERROR}: {what}"))
        }
    }
}

/// The longest message `raise` passes on; messages cut long values to 40
/// bytes, so only a bug would make one longer.
const MESSAGE_BYTES: usize = 1024;

/// A message in a buffer of `MESSAGE_BYTES` on the stack, cut there (at a
/// character's start).
struct Message {
    buffer: [u8; MESSAGE_BYTES],
    len: usize,
}

impl Message {
    fn new() -> Message {
        Message {
            buffer: [0; MESSAGE_BYTES],
            len: 0,
        }
    }

    fn add(&mut self, bytes: &[u8]) {
        let mut n = bytes.len().min(MESSAGE_BYTES - self.len);
        // Cut at a character's start: a byte that is not a continuation.
        while n < bytes.len() && n > 0 && bytes[n] & 0xC0 == 0x80 {
            n -= 1;
        }
        self.buffer[self.len..self.len + n].copy_from_slice(&bytes[..n]);
        self.len += n;
    }

    fn bytes(&self) -> &[u8] {
        &self.buffer[..self.len]
    }
}

impl std::fmt::Write for Message {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.add(s.as_bytes());
        Ok(())
    }
}

/// Raises `name: message` as a Lua string error. It is made in a buffer on
/// the C stack (no allocation) and the `String` freed first: pushing it may
/// itself fail (Lua out of memory) and jump, and then nothing may be left
/// on the heap.
///
/// # Safety
/// `state` is the state of the Lua call this frame serves, and no Rust
/// value that needs dropping is alive in the frames between it and Lua.
unsafe fn raise(state: *mut lua_State, name: &str, message: String) -> ! {
    let mut buffer = Message::new();
    buffer.add(name.as_bytes());
    buffer.add(b": ");
    buffer.add(message.as_bytes());
    drop(message);
    // SAFETY: the caller's contract.
    unsafe { raise_bytes(state, buffer.bytes()) }
}

/// Raises `message` as a Lua string error.
///
/// # Safety
/// As `raise`'s; `message` lives on the caller's stack (Lua copies it
/// before `lua_error` jumps).
unsafe fn raise_bytes(state: *mut lua_State, message: &[u8]) -> ! {
    // SAFETY: the caller's contract.
    unsafe {
        ffi::lua_pushlstring(state, message.as_ptr().cast(), message.len());
        ffi::lua_error(state)
    }
}

/// `body` as `call` takes it: gives a closure its parameter's type,
/// outside the `unsafe` block that calls it.
pub fn body<R, F: FnOnce(&Args) -> Result<R, String>>(body: F) -> F {
    body
}

/// Declares a C function of the module named `$label` in messages (an
/// export's `map.<name>`, a helper of the LuaJIT route), which runs
/// `$body`, given the call's `Args`, through `call`.
macro_rules! function {
    ($(#[$doc:meta])* $name:ident, $label:expr, $body:expr) => {
        $(#[$doc])*
        ///
        /// # Safety
        /// Lua calls it as a C function with the upvalues of
        /// `Upvalues::register`.
        pub unsafe extern "C-unwind" fn $name(
            state: *mut mlua::ffi::lua_State,
        ) -> std::ffi::c_int {
            let body = $crate::lua::stack::call::body($body);
            // SAFETY: Lua called this function with a valid state.
            unsafe { $crate::lua::stack::call::call(state, $label, body) }
        }
    };
}
pub(crate) use function;
