//! The Lua binding: `require "map"`, built once per interpreter. Its
//! layers, each importing only those beneath it:
//! - `stack/`: the Lua stack as the module touches it: reads that allocate
//!   nothing, pushes, a call's three steps with its protected push, the
//!   native block;
//! - `shared/`: what several exports share: cells, options, searches,
//!   `generate`'s arguments and table, a level's methods;
//! - `exports/`: one file per function of the module (its arguments, its
//!   answer, its method form on a level, its LuaJIT helpers), and
//!   `natives/`: one file per kind of native value (its methods and
//!   properties, behind `stack::Native`);
//! - `luajit/` (LuaJIT only): the route that builds and reads tables of
//!   rows in Lua, and the natives' hot methods through the FFI.
//!
//! This file: the lists of exports and natives (a line each), and opening
//! the module.

#![deny(unsafe_op_in_unsafe_fn)]

use std::ffi::c_int;

use mlua::ffi::lua_State;
use mlua::{Lua, Table};

use crate::generators;
use crate::input::{INTERNAL_ERROR, MAX_CELLS};

mod shared;
mod stack;

#[cfg(feature = "luajit")]
mod luajit;

use stack::block::{install, prepare};
use stack::call::silence_panics;
use stack::upvalues::{Method, Upvalues};
use stack::{Export, Native};

/// Declares `exports/<name>.rs` for each name, and `EXPORTS`, their
/// `EXPORT`s in that order.
macro_rules! exports {
    ($($(#[$cfg:meta])* $name:ident,)*) => {
        mod exports {
            $($(#[$cfg])* pub mod $name;)*
        }
        const EXPORTS: &[Export] = &[$($(#[$cfg])* exports::$name::EXPORT,)*];
    };
}

/// Declares `natives/<name>.rs` for each name, and `install_natives`,
/// which fills the natives' table with each kind, `$t`, in that order.
macro_rules! natives {
    ($($name:ident: $t:ty,)*) => {
        mod natives {
            $(pub mod $name;)*
        }

        /// Each kind installed; `map.METHODS`' lists, by kind.
        fn install_natives(
            lua: &Lua,
            upvalues: &Upvalues,
            forms: &[Method],
        ) -> mlua::Result<Vec<(&'static str, Vec<&'static str>)>> {
            prepare(lua, upvalues, vec![$(<$t as Native>::kind()),*])?;
            Ok(vec![$((<$t as Native>::kind().name, install::<$t>(lua, upvalues, forms)?),)*])
        }
    };
}

exports! {
    new_map,
    render,
    generate,
    generate_text,
    generate_json,
    describe,
    parse,
    to_tiled,
    from_tiled,
    to_xp,
    from_xp,
    line,
    fov,
    visible,
    distances,
    flee,
    path,
    step,
    explore,
    sample,
    reachable,
    analyze,
    autotile,
    light,
    level,
    load,
    field,
    rng,
    scheduler,
    names,
    noise,
    save,
    frame,
    #[cfg(feature = "probe")]
    panic_probe,
    #[cfg(feature = "probe")]
    reads,
    #[cfg(feature = "probe")]
    faults,
}

natives! {
    level: crate::native::NativeLevel,
    field: crate::native::field::Field,
    rng: crate::toolbox::random::Random,
    scheduler: crate::toolbox::scheduler::Scheduler,
    names: crate::toolbox::names::Names,
    noise: crate::toolkit::noise::Noise,
}

mlua::require_module_feature!();

/// What `require "map"` calls: what `#[mlua::lua_module]` would write, with
/// the LuaJIT flavour first checking that it runs on LuaJIT. Plain Lua 5.1
/// has the same C API, so the library loads there, and `open` would fail on
/// the first LuaJIT library the route needs, with an error that is not a
/// string (mlua's userdata, which `lua5.1` prints as "(error object is not
/// a string)"); it gets a message, as a string, instead.
///
/// # Safety
/// Lua calls it, as `require` does, with a valid state.
#[unsafe(no_mangle)]
unsafe extern "C-unwind" fn luaopen_map(state: *mut lua_State) -> c_int {
    #[cfg(feature = "luajit")]
    // SAFETY: `state` is valid (this function's contract); no Rust value
    // is alive for `lua_error` to jump over.
    unsafe {
        if !luajit::runs_on_luajit(state) {
            mlua::ffi::lua_pushstring(state, luajit::NOT_LUAJIT.as_ptr());
            mlua::ffi::lua_error(state);
        }
    }
    // SAFETY: as the attribute macro's expansion does.
    unsafe {
        Lua::entrypoint1(state, move |lua| {
            lua.skip_memory_check(true);
            open(lua)
        })
    }
}

fn open(lua: &Lua) -> mlua::Result<Table> {
    silence_panics();
    let upvalues = stack::upvalues(lua)?;
    let module = lua.create_table()?;
    let functions: Vec<Method> = EXPORTS.iter().map(|e| (e.name, e.function)).collect();
    upvalues.register(lua, &module, &functions)?;
    let forms: Vec<Method> = EXPORTS
        .iter()
        .filter_map(|e| e.method.map(|m| (e.name, m)))
        .collect();
    let methods = lua.create_table()?;
    for (kind, names) in install_natives(lua, &upvalues, &forms)? {
        methods.set(kind, lua.create_sequence_from(names)?)?;
    }
    module.set("METHODS", methods)?;
    module.set("VERSION", env!("CARGO_PKG_VERSION"))?;
    module.set("MAX_CELLS", MAX_CELLS)?;
    module.set("INTERNAL_ERROR", INTERNAL_ERROR)?;
    let names = generators::LIST.iter().map(|g| g.name);
    module.set("ALGORITHMS", lua.create_sequence_from(names)?)?;
    #[cfg(feature = "luajit")]
    luajit::wrap(lua, &module, &upvalues, EXPORTS)?;
    Ok(module)
}
