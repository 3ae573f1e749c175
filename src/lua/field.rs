//! A field (`level:fov`, `level:distances`, `level:flee`, `map.field`):
//! its methods and `map.field`.

use std::ffi::c_int;

use mlua::ffi::{self, lua_State};

use super::calling::call;
use super::cells::{after_cell, cell};
use super::native::{self, Kind, Metatable};
use super::Reply;
use crate::input::{size, Arg};
use crate::memory;
use crate::native::field::Field;
use crate::native::save;

pub const METATABLE: Metatable = Metatable {
    kind: Kind::Field,
    methods: METHODS,
    tostring,
    metamethods: &[],
};

native::methods! {
    "field" for Field;
    get => |args, field| {
        args.at_most(after_cell(args, 2) - 1)?;
        Ok(Reply::Value(field.get(cell(args, 2, ("x", "y"), "cell", field.size)?)))
    },
    table => |args, field| {
        args.at_most(1)?;
        memory::check(memory::bound_field_rows(field.window.w * field.window.h))?;
        Ok(Reply::FieldRows(Box::new(field.clone())))
    },
    save => |args, field| {
        args.at_most(1)?;
        memory::check(save::field_bound(field))?;
        Ok(Reply::Text(save::save_field(field)))
    },
}

/// `field.width`, `field.height` (the map's); nil for any other key.
///
/// # Safety
/// As `call`'s, called by `__index` with the field and the key.
pub(super) unsafe fn property(state: *mut lua_State) -> c_int {
    // SAFETY: the caller's promise.
    unsafe {
        call(state, "field", |args| {
            let field = native::this::<Field>(args)?;
            Ok(match args.get(2) {
                Arg::Str(b"width") => Reply::Integer(field.size.0 as i64),
                Arg::Str(b"height") => Reply::Integer(field.size.1 as i64),
                _ => Reply::Nothing,
            })
        })
    }
}

/// `tostring(field)`: `map.field: 80x50`.
///
/// # Safety
/// A Lua C function with the upvalues of `Upvalues::register`.
unsafe extern "C-unwind" fn tostring(state: *mut lua_State) -> c_int {
    // SAFETY: Lua called this function with a valid state.
    unsafe { native::tostring::<Field>(state, |f| format!(": {}x{}", f.size.0, f.size.1)) }
}

/// `map.field(width, height)`: a memory, no cell set.
///
/// # Safety
/// See `EXPORTS` (mod.rs).
pub unsafe extern "C-unwind" fn new_field(state: *mut lua_State) -> c_int {
    // SAFETY: Lua called this function with a valid state.
    unsafe {
        call(state, "map.field", |args| {
            args.at_most(2)?;
            super::level::new_memory(size(args.get(1), args.get(2), 1, 1)?)
        })
    }
}
