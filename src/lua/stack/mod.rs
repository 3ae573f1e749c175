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
