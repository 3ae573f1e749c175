//! LuaJIT only: the route through `luajit/*.lua`.
//!
//! On LuaJIT, JIT-compiled Lua fills and reads a table of rows several
//! times faster than the C API does one cell at a time, and a C function
//! call costs far more than the few loads a level's `get` is, breaking the
//! trace around it (docs/performance.md). So on LuaJIT:
//! - `tables.lua` wraps the exports whose results or arguments are tables
//!   of rows (`levels.lua`: `generate` and `parse`): it builds and reads
//!   the rows in Lua, and calls each export's C helpers (`Export::helpers`)
//!   for the rest, each taking or giving the cells as one string;
//! - `natives.lua` and `toolbox.lua` run the natives' hot methods in Lua,
//!   reading and writing their memory in place through the FFI, with the
//!   FFI functions of `natives.rs` and `toolbox.rs`;
//! - `rules.lua` holds the reading rules those files share, each mirroring
//!   the Rust function that reads the same input (the probe build's
//!   `map._rules` and `map._mirror` let spec/luajit_rules_spec.lua compare
//!   them on random input).
//!
//! Everything the Lua side shares with Rust (the natives' tables by kind,
//! the block's layout, limits and sentinels) reaches it here, by name, in
//! the table `route`. On Lua 5.4 the C API is the faster way and none of
//! this is built.

#![deny(unsafe_op_in_unsafe_fn)]

use std::ffi::{c_int, c_void};

use mlua::ffi::{self, lua_State};
use mlua::{Lua, Table};

mod guard;
#[cfg(feature = "probe")]
mod mirror;
mod natives;
mod toolbox;

use super::exports::autotile::NO_CLASS;
use super::exports::explore::EXPLORE_RADIUS;
use super::natives::rng::MAX_FILL;
use super::natives::scheduler::{INDEX, SLOTS};
use super::shared::level_table::FIELDS as LEVEL_FIELDS;
use super::stack::args::PROBE_LIMIT;
use super::stack::block::{kinds, Block, BLOCK_CDEF, CHARS};
use super::stack::call::function;
use super::stack::upvalues::{Method, Upvalues};
use super::stack::{Args, Export, Reply};
use crate::input::{Arg, MAX_CELLS, MAX_SEED};
use crate::native::field::{Cells, NARROW_BEYOND};
use crate::toolbox::scheduler::{MAX_SPEED, MIN_SPEED};
use crate::toolkit::board::BEYOND;
use crate::toolkit::noise::MAX_COORDINATE;

/// The error `require "map"` raises when the LuaJIT flavour is loaded by
/// another Lua 5.1 (`luaopen_map`).
pub const NOT_LUAJIT: &std::ffi::CStr = c"map: this is map's LuaJIT build (lib/lua/5.1/map.so), and this \
    interpreter is plain Lua 5.1, which map does not support: use LuaJIT, or Lua 5.4 with the Lua 5.4 build";

/// Whether the interpreter holding `state` is LuaJIT: its `jit` library is
/// loaded (`package.loaded.jit`, which sandboxes that hide the global keep).
///
/// # Safety
/// `state` is a valid Lua state with two free stack slots.
pub unsafe fn runs_on_luajit(state: *mut lua_State) -> bool {
    // SAFETY: reads of the registry (which has no metatable) and a raw get
    // from its `_LOADED` table: no metamethod runs, nothing can raise.
    unsafe {
        ffi::lua_getfield(state, ffi::LUA_REGISTRYINDEX, c"_LOADED".as_ptr());
        let found = ffi::lua_type(state, -1) == ffi::LUA_TTABLE && {
            ffi::lua_pushstring(state, c"jit".as_ptr());
            ffi::lua_rawget(state, -2);
            let jit = ffi::lua_type(state, -1) == ffi::LUA_TTABLE;
            ffi::lua_pop(state, 1);
            jit
        };
        ffi::lua_pop(state, 1);
        found
    }
}

/// The route's Lua files after `tables.lua`, run in this order, each given
/// the module table, `route`, what `rules.lua` returns and what
/// `tables.lua` shares.
const FILES: [(&str, &str); 3] = [
    ("=map/luajit/levels.lua", include_str!("levels.lua")),
    ("=map/luajit/natives.lua", include_str!("natives.lua")),
    ("=map/luajit/toolbox.lua", include_str!("toolbox.lua")),
];

/// Makes `route` and runs the route's Lua files with it: they replace the
/// functions and methods they wrap.
pub fn wrap(
    lua: &Lua,
    module: &Table,
    upvalues: &Upvalues,
    exports: &[Export],
) -> mlua::Result<()> {
    let route = lua.create_table()?;
    let mut helpers: Vec<Method> = vec![("guard", guard::guard), ("native_block", native_block)];
    helpers.extend(exports.iter().flat_map(|e| e.helpers.iter().copied()));
    let c = lua.create_table()?;
    upvalues.register(lua, &c, &helpers)?;
    #[cfg(feature = "probe")]
    upvalues.register(lua, module, &[("_mirror", mirror::mirror)])?;
    route.set("c", c)?;
    let addresses = lua.create_table()?;
    for (name, address) in natives::ffi().into_iter().chain(toolbox::ffi()) {
        addresses.set(name, mlua::LightUserData(address))?;
    }
    route.set("ffi", addresses)?;
    route.set("kinds", kinds_by_name(lua, &upvalues.natives)?)?;
    route.set("CHARS", upvalues.natives.raw_get::<Table>(CHARS)?)?;
    set_constants(lua, &route)?;
    let rules: Table = lua
        .load(include_str!("rules.lua"))
        .set_name("=map/luajit/rules.lua")
        .call(&route)?;
    let shared: Table = lua
        .load(include_str!("tables.lua"))
        .set_name("=map/luajit/tables.lua")
        .call((module, &route, &rules))?;
    for (name, code) in FILES {
        lua.load(code)
            .set_name(name)
            .call::<()>((module, &route, &rules, &shared))?;
    }
    #[cfg(feature = "probe")]
    module.set("_rules", rules)?;
    Ok(())
}

/// Each kind's metatable and method table, by its name.
fn kinds_by_name(lua: &Lua, natives: &Table) -> mlua::Result<Table> {
    let kinds_table = lua.create_table()?;
    for kind in kinds() {
        let k = lua.create_table()?;
        k.set("meta", natives.raw_get::<Table>(kind.slot())?)?;
        k.set("methods", natives.raw_get::<Table>(kind.slot() + 1)?)?;
        kinds_table.set(kind.name, k)?;
    }
    Ok(kinds_table)
}

/// The limits, sentinels and layouts the Lua side shares with Rust.
fn set_constants(lua: &Lua, route: &Table) -> mlua::Result<()> {
    route.set("MAX_CELLS", MAX_CELLS)?;
    route.set("PROBE_LIMIT", PROBE_LIMIT as f64)?;
    route.set("MAX_SEED", MAX_SEED as f64)?;
    route.set("MAX_COORDINATE", MAX_COORDINATE)?;
    route.set("EXPLORE_RADIUS", EXPLORE_RADIUS)?;
    route.set("NO_CLASS", NO_CLASS)?;
    route.set("LEVEL_FIELDS", LEVEL_FIELDS)?;
    route.set("MIN_SPEED", MIN_SPEED)?;
    route.set("MAX_SPEED", MAX_SPEED)?;
    route.set("MAX_FILL", MAX_FILL)?;
    route.set("SCHEDULER_SLOTS", SLOTS)?;
    route.set("SCHEDULER_INDEX", INDEX)?;
    route.set("BLOCK_SIZE", Block::SIZE)?;
    route.set("BLOCK_CDEF", BLOCK_CDEF)?;
    let cells = lua.create_table()?;
    cells.set("narrow", Cells::NARROW)?;
    cells.set("wide", Cells::WIDE)?;
    cells.set("flags", Cells::FLAGS)?;
    cells.set("parts", Cells::PARTS)?;
    route.set("FIELD_CELLS", cells)?;
    route.set("UNREACHED_NARROW", NARROW_BEYOND)?;
    // An i64 beyond a double's exact integers: its bytes, for the FFI.
    route.set("UNREACHED_WIDE", lua.create_string(BEYOND.to_ne_bytes())?)?;
    Ok(())
}

function!(
    /// `native_block(v, kind [, store])`: the address of `v`'s block (a
    /// light userdata) if `v` is a live native of the kind named `kind`
    /// (checked as every method checks `self`), and with `store` its user
    /// value (a scheduler's tables); else nil.
    native_block,
    "map",
    |args: &Args| {
        let kind = match args.get(2) {
            Arg::Str(name) => kinds().find(|k| k.name.as_bytes() == name),
            _ => None,
        };
        let block = kind.and_then(|k| args.native(1, k)).map(|_| args.block_address(1));
        Ok(Found(block, args.get(3) != Arg::Missing))
    }
);

/// `native_block`'s answer: the address, and the user value if asked. It
/// allocates nothing.
struct Found(Option<*mut c_void>, bool);

impl Reply for Found {
    unsafe fn push_on(&self, l: *mut lua_State) -> c_int {
        // SAFETY: as `push_plain`'s.
        unsafe { self.push_plain_on(l) }.unwrap_or(0)
    }
    unsafe fn push_plain_on(&self, l: *mut lua_State) -> Option<c_int> {
        // SAFETY: a light userdata and a read of argument 1's user value:
        // two slots, nothing allocated.
        unsafe {
            let Some(address) = self.0 else {
                ffi::lua_pushnil(l);
                return Some(1);
            };
            ffi::lua_pushlightuserdata(l, address);
            if !self.1 {
                return Some(1);
            }
            if ffi::lua_getuservalue(l, 1) != ffi::LUA_TTABLE {
                ffi::lua_settop(l, -3);
                ffi::lua_pushnil(l);
                return Some(1);
            }
        }
        Some(2)
    }
}
