//! LuaJIT only: `guard`, which each wrapper of the route runs inside, so
//! that its errors read as the C function's own.

#![deny(unsafe_op_in_unsafe_fn)]

use std::ffi::c_int;

use mlua::ffi::{self, lua_State};

/// `guard(name, f)`, for `luajit/tables.lua`, once per wrapped export when the
/// module opens: `f` as a C function that calls it inside `lua_pcall` and
/// raises its errors again as the C function `name` would: running out of
/// memory as `name: not enough memory for the result`, a stack overflow
/// outside the module's own messages as `name: stack overflow`, the
/// module's own as they are, anything else prefixed `name: `. Both messages are made here, so raising one allocates
/// nothing; and as the wrapper is a C function, whose frame Lua sizes
/// before the call, the overflow of any Lua frame within it is caught by
/// its `pcall`, as a C function's own is on Lua 5.4.
///
/// # Safety
///
/// Lua calls it, as a C function given its own state (`HELPERS`).
pub unsafe extern "C-unwind" fn guard(state: *mut lua_State) -> c_int {
    // SAFETY: two arguments (`luajit/tables.lua` passes a string and a function),
    // 2 + 4 slots, within LUA_MINSTACK; an error here (out of memory when
    // the module opens) unwinds through no Rust value.
    unsafe {
        ffi::lua_settop(state, 2);
        ffi::lua_pushvalue(state, 2);
        for tail in [
            ": not enough memory for the result",
            ": stack overflow",
            ":",
        ] {
            ffi::lua_pushvalue(state, 1);
            ffi::lua_pushlstring(state, tail.as_ptr().cast(), tail.len());
            ffi::lua_concat(state, 2);
        }
        ffi::lua_pushcclosure(state, guarded, 4);
    }
    1
}

/// The C function `guard` makes: its upvalues are the Lua function, the
/// two messages and the prefix `name:` of the module's own messages. An
/// error that is none of the module's (one a debug hook or a finalizer
/// raised) is prefixed `name: ` as the C function's push would prefix it
/// on Lua 5.4; a bare `not enough memory` raised again by the route's Lua
/// (after it undid a change) reads as running out of memory does.
///
/// # Safety
///
/// Lua calls it, as a C function made by `guard`.
unsafe extern "C-unwind" fn guarded(state: *mut lua_State) -> c_int {
    // SAFETY: the function goes below the arguments (one slot of the
    // LUA_MINSTACK a C function has); after a failed `lua_pcall` only the
    // error is left, and a few more slots hold a message pushed from an
    // upvalue (which allocates nothing) or the parts of a prefixed one. No
    // Rust value lives when `lua_error` unwinds.
    unsafe {
        let n = ffi::lua_gettop(state);
        ffi::lua_pushvalue(state, ffi::lua_upvalueindex(1));
        ffi::lua_insert(state, 1);
        let status = ffi::lua_pcall(state, n, ffi::LUA_MULTRET, 0);
        if status == ffi::LUA_OK {
            return ffi::lua_gettop(state);
        }
        match (status, error_of(state)) {
            (ffi::LUA_ERRMEM, _) | (_, Error::Memory) => {
                ffi::lua_pushvalue(state, ffi::lua_upvalueindex(2))
            }
            (_, Error::Overflow) => ffi::lua_pushvalue(state, ffi::lua_upvalueindex(3)),
            (_, Error::Own) => {}
            (_, Error::Other) => {
                // "name: " and the error as Lua 5.4's push shows it: a
                // string's text or a number's, else its type's name.
                let t = ffi::lua_type(state, -1);
                if t != ffi::LUA_TSTRING && t != ffi::LUA_TNUMBER {
                    ffi::lua_pushstring(state, ffi::lua_typename(state, t));
                    ffi::lua_replace(state, -2);
                }
                ffi::lua_pushvalue(state, ffi::lua_upvalueindex(4));
                ffi::lua_pushstring(state, c" ".as_ptr());
                ffi::lua_pushvalue(state, -3);
                ffi::lua_concat(state, 3);
            }
        }
        ffi::lua_error(state)
    }
}

/// What the error on top of the stack is, to `guarded`.
enum Error {
    /// One of the module's own messages (starting with upvalue 4).
    Own,
    /// Lua's bare "not enough memory", raised again.
    Memory,
    /// A stack overflow, not one of the module's messages.
    Overflow,
    /// Anything else.
    Other,
}

/// What the error on top of the stack of a `guarded` call is.
///
/// # Safety
///
/// `state` must be that of a `guarded` call with its error on top.
unsafe fn error_of(state: *mut lua_State) -> Error {
    // SAFETY: strings are read in place (`lua_type` checked first), so
    // nothing converts or allocates; the slices live while the stack and
    // the upvalue hold the strings, within this call.
    unsafe {
        if ffi::lua_type(state, -1) != ffi::LUA_TSTRING {
            return Error::Other;
        }
        let bytes = |index| {
            let mut len = 0;
            let ptr = ffi::lua_tolstring(state, index, &mut len);
            std::slice::from_raw_parts(ptr.cast::<u8>(), len)
        };
        let (message, own) = (bytes(-1), bytes(ffi::lua_upvalueindex(4)));
        if message.starts_with(own) {
            Error::Own
        } else if message == b"not enough memory" {
            Error::Memory
        } else if message.windows(14).any(|w| w == b"stack overflow") {
            Error::Overflow
        } else {
            Error::Other
        }
    }
}
