//! How every exported function runs (the three steps of mod.rs): `call`
//! runs the core (`run`) with panics caught, then pushes the reply inside
//! `lua_pcall` (`push_protected`, `push_reply`) or raises the error as a
//! plain string (`raise`).

#![deny(unsafe_op_in_unsafe_fn)]

use std::ffi::c_int;
use std::panic::{catch_unwind, AssertUnwindSafe};

use crate::input::INTERNAL_ERROR;
use mlua::ffi::{self, lua_State};

#[cfg(feature = "luajit")]
use super::luajit_push;
use super::read::{self, Args};
use super::{native, native_push, toolbox};
use super::{push, Reply, PUSH_REPLY};

/// A caught panic becomes the Lua error "internal error (please report)"
/// with its message; the default hook would also print it to the host's
/// stderr (nginx's error.log). Other panics keep the default hook.
pub(super) fn silence_panics() {
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
/// `state` is the state of a Lua call to one of `EXPORTS` (or of
/// `luajit.rs`'s functions), whose frame this is: `raise` jumps out of it.
pub(super) unsafe fn call(
    state: *mut lua_State,
    name: &str,
    body: impl FnOnce(&Args) -> Result<Reply, String>,
) -> c_int {
    // SAFETY: `state` is the calling Lua state (this function's contract),
    // and nothing that needs dropping lives here when `raise` jumps.
    unsafe {
        match run(state, name, body) {
            Ok(reply) => push_protected(state, name, reply),
            Err(message) => raise(state, message),
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
unsafe fn push_protected(state: *mut lua_State, name: &str, reply: Reply) -> c_int {
    // SAFETY: `push_plain` pushes only what allocates nothing.
    if let Some(n) = unsafe { push_plain(state, &reply) } {
        return n;
    }
    // SAFETY: the upvalue is `push_reply`, which reads the light userdata
    // only during the `pcall`, while `reply` is alive; the two pushes
    // allocate nothing, into the LUA_MINSTACK slots a C function is given.
    let (base, status) = unsafe {
        let base = ffi::lua_gettop(state);
        ffi::lua_pushvalue(state, PUSH_REPLY);
        ffi::lua_pushlightuserdata(state, std::ptr::from_ref(&reply).cast_mut().cast());
        // The arguments the push writes to or reads from, passed along:
        // the movers of `level:steps`, those of the toolbox's (toolbox.rs).
        let carried: &[c_int] = match &reply {
            Reply::Moved(_) => &[native_push::MOVERS],
            Reply::Toolbox(out) => out.carried(),
            _ => &[],
        };
        for &i in carried {
            ffi::lua_pushvalue(state, i);
        }
        let arguments = 1 + carried.len() as c_int;
        (base, ffi::lua_pcall(state, arguments, ffi::LUA_MULTRET, 0))
    };
    drop(reply);
    if status == ffi::LUA_OK {
        // SAFETY: `state` is valid (this function's contract).
        return unsafe { ffi::lua_gettop(state) } - base;
    }
    // Only `message` may be alive here: `raise` frees it before it jumps.
    // Running out of stack reads the same whichever check met it (and on
    // either interpreter: see luajit.lua).
    // SAFETY: the failed `pcall` left its error value on top, which
    // `read::message` copies; `base` is at or below the top.
    let why = unsafe { read::message(state) };
    let message = match (status, why) {
        (ffi::LUA_ERRMEM, _) => format!("{name}: not enough memory for the result"),
        (_, why) if why.contains("stack overflow") => format!("{name}: stack overflow"),
        (_, why) => format!("{name}: {why}"),
    };
    // SAFETY: as above; `raise` frees `message` before it jumps.
    unsafe {
        ffi::lua_settop(state, base);
        raise(state, message)
    }
}

/// Pushes `reply` if it is a few values that allocate nothing (numbers,
/// booleans, nil, a one-byte string the natives' table holds), which
/// need no `pcall`: the hot small calls (`level:get`, `field:get`, `step`,
/// `visible`) skip its cost. Returns how many, or `None` for any other.
///
/// # Safety
/// As `push_protected`'s: the state of a call with the three upvalues of
/// `Upvalues::register`, a few of its LUA_MINSTACK slots free.
unsafe fn push_plain(state: *mut lua_State, reply: &Reply) -> Option<c_int> {
    // SAFETY: each pusher below pushes at most two values and allocates
    // nothing (the contract of push.rs, without the `pcall`: nothing
    // here can raise).
    unsafe {
        Some(match reply {
            Reply::Integer(n) => push::push_integer(state, *n),
            Reply::Number(v) => push::push_number(state, *v),
            Reply::Boolean(b) => push::push_boolean(state, *b),
            Reply::Cell(cell) => push::push_cell(state, *cell),
            Reply::Value(v) => native_push::push_value(state, *v),
            Reply::Char(c) => native_push::push_char(state, native::NATIVES, *c),
            Reply::Nothing => 0,
            Reply::Toolbox(out) => return toolbox::push_plain(state, out),
            _ => return None,
        })
    }
}

/// The protected part of `push_protected`: its one argument points to the
/// reply, which outlives this call.
///
/// # Safety
/// Called only by `push_protected`'s `lua_pcall`, its one argument a light
/// userdata pointing to a live `Reply`.
pub(super) unsafe extern "C-unwind" fn push_reply(state: *mut lua_State) -> c_int {
    // SAFETY: `push_protected` passes a pointer to its `reply`, alive and
    // not mutated until the `pcall` returns.
    let reply = unsafe { &*ffi::lua_touserdata(state, 1).cast::<Reply>() };
    // SAFETY: inside the `pcall`, so any error the pushers raise (out of
    // memory, no room on the stack) ends it, with no Rust value to drop
    // in this frame but the borrowed `reply`.
    unsafe {
        // Left below the results: the arguments carried, if any.
        ffi::lua_remove(state, 1);
        push_reply_of(state, reply)
    }
}

/// The natives' table, inside `push_reply` (its first upvalue).
const NATIVES_HERE: c_int = ffi::lua_upvalueindex(1);

/// Pushes `reply` by its shape.
///
/// # Safety
/// As the pushers' (see `push.rs`): inside `push_reply`'s protected call.
unsafe fn push_reply_of(state: *mut lua_State, reply: &Reply) -> c_int {
    // SAFETY: this function's contract is each pusher's.
    unsafe {
        match reply {
            Reply::Map(grid) => push::push_grid(state, grid),
            Reply::Terrain(t) => push::push_terrain(state, &t.0, &t.1),
            Reply::Numbers(n) => push::push_numbers(state, n),
            Reply::Lit(lit) => push::push_lit(state, lit),
            Reply::NewNoise(fresh) => native::push_native(state, NATIVES_HERE, fresh),
            Reply::Level(level) => super::push_level::push_level(state, level),
            Reply::Text(text) => push::push_bytes(state, text),
            Reply::Verdict(Ok(())) => push::push_true(state),
            Reply::Verdict(Err(why)) => push::push_false_and(state, why),
            Reply::Description(generator) => push::push_description(state, generator),
            Reply::Visible(fov) => {
                let (fov, seen) = &**fov;
                push::push_visible(state, fov.height, fov.corner, fov.width, seen)
            }
            Reply::Rows(rows) => push::push_rows_of_integers(state, rows),
            Reply::Positions(Ok(cells)) => push::push_positions(state, cells),
            Reply::Positions(Err(why)) => push::push_nil_and(state, why),
            #[cfg(feature = "luajit")]
            Reply::Parts(parts) => luajit_push::push_level_parts(state, parts),
            Reply::Cell(cell) => push::push_cell(state, *cell),
            Reply::Boolean(b) => push::push_boolean(state, *b),
            Reply::Integer(n) => push::push_integer(state, *n),
            Reply::Number(v) => push::push_number(state, *v),
            Reply::Points(points) => push::push_points(state, points),
            Reply::Parsed(parsed) => push::push_parsed(state, parsed),
            #[cfg(feature = "luajit")]
            Reply::Window(window) => luajit_push::push_window(state, *window),
            #[cfg(feature = "luajit")]
            Reply::ParsedSize(parsed) => luajit_push::push_parsed_size(state, parsed),
            Reply::NewLevel(fresh) => native::push_native(state, NATIVES_HERE, fresh),
            Reply::NewField(fresh) => native::push_native(state, NATIVES_HERE, fresh),
            Reply::Char(c) => native_push::push_char(state, NATIVES_HERE, *c),
            Reply::Value(v) => native_push::push_value(state, *v),
            Reply::Things(things) => native_push::push_things(state, NATIVES_HERE, things),
            Reply::FieldRows(field) => native_push::push_field_rows(state, field),
            Reply::LevelField(meta, key) => native_push::push_level_field(state, meta, key),
            Reply::Moved(moves) => native_push::push_moved(state, NATIVES_HERE, 1, moves),
            Reply::Toolbox(out) => toolbox::push(state, NATIVES_HERE, out),
            Reply::Nothing => 0,
            #[cfg(feature = "luajit")]
            Reply::Address(a) => {
                ffi::lua_pushlightuserdata(state, *a);
                1
            }
        }
    }
}

/// Step 1: the core's work, with any panic turned into an error message
/// prefixed by the function's name.
///
/// # Safety
/// `state` is the state of the Lua call this frame serves (see `call`).
unsafe fn run(
    state: *mut lua_State,
    name: &str,
    body: impl FnOnce(&Args) -> Result<Reply, String>,
) -> Result<Reply, String> {
    // SAFETY: `state` is the calling Lua state (this function's contract).
    let args = unsafe { Args::new(state) };
    CALLING.with(|c| c.set(true));
    let result = catch_unwind(AssertUnwindSafe(|| body(&args)));
    CALLING.with(|c| c.set(false));
    match result {
        Ok(result) => result.map_err(|message| format!("{name}: {message}")),
        Err(panic) => {
            let what = panic
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| panic.downcast_ref::<&str>().copied())
                .unwrap_or("unknown panic");
            Err(format!("{name}: {INTERNAL_ERROR}: {what}"))
        }
    }
}

/// The longest message `raise` passes on; messages cut long values to 40
/// bytes, so only a bug would make one longer.
const MESSAGE_BYTES: usize = 1024;

/// Raises `message` as a Lua string error. It is moved into a buffer on the
/// C stack and the `String` freed first: pushing it may itself fail (Lua out
/// of memory) and jump, and then nothing may be left on the heap.
///
/// # Safety
/// `state` is the state of the Lua call this frame serves, and no Rust
/// value that needs dropping is alive in the frames between it and Lua.
unsafe fn raise(state: *mut lua_State, message: String) -> ! {
    let mut buffer = [0u8; MESSAGE_BYTES];
    let mut len = message.len().min(MESSAGE_BYTES);
    while !message.is_char_boundary(len) {
        len -= 1;
    }
    buffer[..len].copy_from_slice(&message.as_bytes()[..len]);
    drop(message);
    // SAFETY: the buffer is on this frame's stack, copied by Lua before
    // `lua_error` jumps; nothing left here needs dropping (the contract).
    unsafe {
        ffi::lua_pushlstring(state, buffer.as_ptr().cast(), len);
        ffi::lua_error(state)
    }
}
