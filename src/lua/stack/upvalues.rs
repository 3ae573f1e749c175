//! What every function of the module holds as its upvalues, made once when
//! the module opens (`stack::upvalues`), so that no call needs to allocate
//! to reach them: where each is, and setting a function with them.

use std::ffi::c_int;

use mlua::ffi;
use mlua::{Lua, Table};

/// A C function by the name Lua sees it under.
pub type Method = (&'static str, ffi::lua_CFunction);

/// Upvalue 1 of every function: the field names the readers look up
/// (`args::Field`).
pub const FIELD_NAMES: c_int = ffi::lua_upvalueindex(1);
/// Upvalue 2 of every function: `push_reply` (`call.rs`).
pub const PUSH_REPLY: c_int = ffi::lua_upvalueindex(2);
/// Upvalue 3 of every function, and of `push_reply`: the natives' table
/// (`block.rs`).
pub const NATIVES: c_int = ffi::lua_upvalueindex(3);
/// Upvalue 2 of `push_reply`: the row maker (`push::ROW_CHUNK`).
pub const ROW: c_int = ffi::lua_upvalueindex(2);

/// The three upvalues, once made (`stack::upvalues`).
pub struct Upvalues {
    pub field_names: Table,
    pub push_reply: mlua::Function,
    pub natives: Table,
}

impl Upvalues {
    /// Sets each of `functions` in `table`, as a closure over the upvalues.
    pub fn register(&self, lua: &Lua, table: &Table, functions: &[Method]) -> mlua::Result<()> {
        for &(name, function) in functions {
            let upvalues = (
                self.field_names.clone(),
                self.push_reply.clone(),
                self.natives.clone(),
            );
            // SAFETY: the three values pushed become the closure's
            // upvalues; each function follows the stack discipline of
            // `call.rs`.
            let closure: mlua::Function =
                unsafe { lua.exec_raw(upvalues, |l| ffi::lua_pushcclosure(l, function, 3))? };
            table.set(name, closure)?;
        }
        Ok(())
    }
}
