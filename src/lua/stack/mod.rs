//! The bottom layer of the binding: the Lua stack as the module touches
//! it, importing nothing else of `lua/`. Reads that allocate nothing
//! (`args.rs`; maps, their windows and cells: `maps.rs`), pushes
//! (`push.rs`; the replies many functions share: `replies.rs`), a call's
//! three steps with the protected push and errors as strings (`call.rs`),
//! the native block every userdata of the module is (`block.rs`, with the
//! native memory's count for the collector, `collector.rs`) and the
//! upvalues every function holds (`upvalues.rs`).

pub mod args;
pub mod block;
pub mod call;
mod collector;
pub mod maps;
pub mod push;
pub mod replies;
pub mod upvalues;

use mlua::ffi;
use mlua::Lua;

pub use args::{Args, Field, Key};
pub use block::{Fresh, Native};
pub use call::{call, Reply};
pub use upvalues::Method;

/// A function of `require "map"`, as its file declares it (`EXPORT`):
/// `map.<name>`, its method form on a level (`lvl:<name>`) where it has
/// one, and the C functions only the LuaJIT route calls.
pub struct Export {
    pub name: &'static str,
    pub function: mlua::ffi::lua_CFunction,
    pub method: Option<mlua::ffi::lua_CFunction>,
    #[cfg(feature = "luajit")]
    pub helpers: &'static [Method],
}

/// The upvalues every function holds, made once: the field names the
/// readers look up, `push_reply` with its own (the row maker and the
/// natives' table) and the natives' table.
pub fn upvalues(lua: &Lua) -> mlua::Result<upvalues::Upvalues> {
    let field_names = lua.create_sequence_from(Field::ALL.iter().map(|f| f.name()))?;
    let natives = lua.create_table()?;
    let row: mlua::Function = lua.load(push::ROW_CHUNK).set_name("=map/row").eval()?;
    // SAFETY: `push_protected` calls it through `lua_pcall`; its upvalues
    // are the field names (unused), the row maker (`ROW`) and the natives'
    // table (`NATIVES`), for the pushers of new natives.
    let push_reply: mlua::Function = unsafe {
        lua.exec_raw((field_names.clone(), row, natives.clone()), |l| {
            ffi::lua_pushcclosure(l, call::push_reply, 3)
        })?
    };
    Ok(upvalues::Upvalues {
        field_names,
        push_reply,
        natives,
    })
}
