//! The Lua binding: argument conversion in, results out, errors as strings.
//!
//! Each exported function is a raw C function in three steps:
//! 1. read the arguments and run the core inside `catch_unwind`, touching the
//!    Lua stack only through calls that cannot raise a Lua error;
//! 2. on failure, raise the message as a plain Lua string (`raise`), with
//!    no Rust value left alive in the frames that `lua_error` jumps over;
//! 3. on success, push the result (`stack::push_*`) inside `lua_pcall`
//!    (`push_protected`), so that a Lua error while building it, such as
//!    running out of memory, is raised only after the reply is dropped.
//!
//! mlua's own callbacks raise errors as userdata; raising strings keeps
//! `pcall` users' `err:match(...)` working the same on every interpreter.
//!
//! On LuaJIT, `new_map`, `generate`, `render` and `reachable` are wrapped by
//! the Lua code of `jit_tables.lua` (see `jit_tables`), which builds and
//! reads the tables of rows in Lua and calls these C functions for the rest.

mod stack;
mod toolkit;

use std::ffi::{c_int, CStr};
use std::panic::{catch_unwind, AssertUnwindSafe};

use mlua::ffi::{self, lua_State};
use mlua::{Lua, Table};

use crate::algorithm::{self, Algorithm};
#[cfg(feature = "luajit")]
use crate::distance::UNREACHED;
use crate::generate::{self, Level, Params};
use crate::grid::{Grid, Pos, WALL};
use crate::options::{self, MAX_CELLS};
use crate::{json, memory, reach};
use stack::Args;

#[mlua::lua_module(name = "map", skip_memory_check)]
fn open(lua: &Lua) -> mlua::Result<Table> {
    let module = lua.create_table()?;
    let functions: [(&str, ffi::lua_CFunction); 11] = [
        ("new_map", new_map),
        ("render", render),
        ("generate", generate),
        ("generate_text", generate_text),
        ("generate_json", generate_json),
        ("reachable", reachable),
        ("describe", describe),
        ("fov", fov),
        ("distances", distances),
        ("path", path),
        ("_panic_probe", panic_probe),
    ];
    for (name, function) in functions {
        // SAFETY: each function follows the stack discipline described above.
        module.set(name, unsafe { lua.create_c_function(function)? })?;
    }
    // SAFETY: as above; `push_protected` calls it through `lua_pcall`.
    let push = unsafe { lua.create_c_function(push_reply)? };
    lua.set_named_registry_value(PUSH_REPLY.to_str().expect("ASCII"), push)?;
    module.set("VERSION", env!("CARGO_PKG_VERSION"))?;
    module.set("MAX_CELLS", MAX_CELLS)?;
    let names = algorithm::LIST.iter().map(|a| a.name);
    module.set("ALGORITHMS", lua.create_sequence_from(names)?)?;
    #[cfg(feature = "luajit")]
    jit_tables(lua, &module)?;
    Ok(module)
}

/// LuaJIT only: wraps `new_map`, `generate`, `render` and `reachable` in the
/// Lua code of `jit_tables.lua`, which builds and reads the tables of rows
/// itself: on LuaJIT, JIT-compiled Lua does that several times faster than
/// the C API (bench/RESULTS.md, finding 2). On Lua 5.4 the C API is faster.
#[cfg(feature = "luajit")]
fn jit_tables(lua: &Lua, module: &Table) -> mlua::Result<()> {
    let helpers = lua.create_table()?;
    let functions: [(&str, ffi::lua_CFunction); 4] = [
        ("generate_parts", generate_parts),
        ("reach_cells", reach_cells),
        ("fov_cells", fov_cells),
        ("distances_cells", distances_cells),
    ];
    for (name, function) in functions {
        // SAFETY: as in `open`.
        helpers.set(name, unsafe { lua.create_c_function(function)? })?;
    }
    lua.load(include_str!("jit_tables.lua"))
        .set_name("=map/jit_tables.lua")
        .call((module, helpers))
}

/// What a function hands back to Lua.
enum Reply {
    Map(Grid),
    Level(Box<Level>),
    Text(Vec<u8>),
    Reach(Result<(), String>),
    Description(&'static Algorithm),
    Visible(Box<(toolkit::Fov, Vec<bool>)>),
    Distances(usize, Vec<u64>),
    Path(Result<Vec<Pos>, String>),
    /// The level as `jit_tables.lua` takes it (`stack::push_level_parts`).
    #[cfg(feature = "luajit")]
    Parts(Box<Level>),
}

unsafe extern "C-unwind" fn new_map(state: *mut lua_State) -> c_int {
    call(state, "map.new_map", |args| {
        args.at_most(2)?;
        let (width, height) = options::size(args.get(1), args.get(2), 1, 1)?;
        memory::check(memory::bound_new_map(width * height))?;
        Ok(Reply::Map(Grid::new(width, height, WALL)))
    })
}

unsafe extern "C-unwind" fn render(state: *mut lua_State) -> c_int {
    call(state, "map.render", |args| {
        args.at_most(1)?;
        let (width, height) = args.map_size(1)?;
        memory::check(memory::bound_render(width * height, height))?;
        Ok(Reply::Text(args.grid(1)?.render()))
    })
}

unsafe extern "C-unwind" fn reachable(state: *mut lua_State) -> c_int {
    call(state, "map.reachable", |args| {
        args.at_most(1)?;
        let (width, height) = args.map_size(1)?;
        memory::check(memory::bound_reach(width * height))?;
        let grid = args.grid(1)?;
        Ok(Reply::Reach(reach::check(&grid).map_err(|e| e.to_string())))
    })
}

unsafe extern "C-unwind" fn generate(state: *mut lua_State) -> c_int {
    call(state, "map.generate", |args| {
        Ok(Reply::Level(Box::new(level(args)?)))
    })
}

/// LuaJIT only: `generate`'s level with its cells as one string, for
/// `jit_tables.lua` to build the table; errors as `map.generate`'s.
#[cfg(feature = "luajit")]
unsafe extern "C-unwind" fn generate_parts(state: *mut lua_State) -> c_int {
    call(state, "map.generate", |args| {
        Ok(Reply::Parts(Box::new(level(args)?)))
    })
}

/// LuaJIT only: `reachable` on a map that `jit_tables.lua` has read and
/// checked, given as `(cells, width)`: row-major cells in one string.
#[cfg(feature = "luajit")]
unsafe extern "C-unwind" fn reach_cells(state: *mut lua_State) -> c_int {
    call(state, "map.reachable", |args| {
        let cells = toolkit::Cells::of(args)?;
        memory::check(memory::bound_reach(cells.bytes.len()))?;
        Ok(Reply::Reach(
            reach::check(&cells.grid()).map_err(|e| e.to_string()),
        ))
    })
}

/// LuaJIT only: `fov` on a window `jit_tables.lua` has read (see
/// `toolkit::fov_cells`): one byte per window cell, 1 where visible.
#[cfg(feature = "luajit")]
unsafe extern "C-unwind" fn fov_cells(state: *mut lua_State) -> c_int {
    call(state, "map.fov", |args| {
        let (window, origin, radius, opaque) = toolkit::fov_cells(args)?;
        let seen = crate::fov::visible(&window, origin, radius, &opaque);
        Ok(Reply::Text(seen.into_iter().map(u8::from).collect()))
    })
}

/// LuaJIT only: `distances` on a map `jit_tables.lua` has read (see
/// `toolkit::distances_cells`): one native-endian double per cell, -1 where
/// unreached (LuaJIT's numbers are doubles, and every distance is below 2^53).
#[cfg(feature = "luajit")]
unsafe extern "C-unwind" fn distances_cells(state: *mut lua_State) -> c_int {
    call(state, "map.distances", |args| {
        let (grid, sources, walk) = toolkit::distances_cells(args)?;
        let dist = crate::distance::distances(&grid, &sources, &walk);
        let bytes = dist
            .iter()
            .flat_map(|&d| if d == UNREACHED { -1.0 } else { d as f64 }.to_ne_bytes())
            .collect();
        Ok(Reply::Text(bytes))
    })
}

/// `render(generate(...))` without building the table of rows.
unsafe extern "C-unwind" fn generate_text(state: *mut lua_State) -> c_int {
    call(state, "map.generate_text", |args| {
        Ok(Reply::Text(level(args)?.grid.render()))
    })
}

unsafe extern "C-unwind" fn generate_json(state: *mut lua_State) -> c_int {
    call(state, "map.generate_json", |args| {
        Ok(Reply::Text(json::level(&level(args)?).into_bytes()))
    })
}

/// The level asked for by `(width, height [, seed])` or `{options}`.
fn level(args: &Args) -> Result<Level, String> {
    let params = if args.is_table(1) {
        args.at_most(1)?;
        args.options(1, Params::set)?
    } else {
        args.at_most(3)?;
        Params::new(args.get(1), args.get(2), args.get(3))
    };
    generate::generate(&params)
}

/// `map.describe(name)`: an algorithm's doc, minimum size and options, for
/// the CLI, the server's form and the README to read.
unsafe extern "C-unwind" fn describe(state: *mut lua_State) -> c_int {
    call(state, "map.describe", |args| {
        args.at_most(1)?;
        Ok(Reply::Description(generate::chosen(args.get(1))?))
    })
}

/// `map.fov(m, x, y [, radius [, options]])`: the cells visible from `(x, y)`.
unsafe extern "C-unwind" fn fov(state: *mut lua_State) -> c_int {
    call(state, "map.fov", |args| {
        let fov = toolkit::fov(args)?;
        let seen = crate::fov::visible(&fov.window, fov.origin, fov.radius, &fov.opaque);
        Ok(Reply::Visible(Box::new((fov, seen))))
    })
}

/// `map.distances(m, sources [, options])`: a Dijkstra map.
unsafe extern "C-unwind" fn distances(state: *mut lua_State) -> c_int {
    call(state, "map.distances", |args| {
        let (grid, sources, walk) = toolkit::distances(args)?;
        let dist = crate::distance::distances(&grid, &sources, &walk);
        Ok(Reply::Distances(grid.width(), dist))
    })
}

/// `map.path(m, x1, y1, x2, y2 [, options])`: a shortest path, or nil and why.
unsafe extern "C-unwind" fn path(state: *mut lua_State) -> c_int {
    call(state, "map.path", |args| {
        let (grid, from, to, walk) = toolkit::path(args)?;
        let found = crate::path::path(&grid, from, to, &walk).map_err(|e| e.to_string());
        Ok(Reply::Path(found))
    })
}

/// Panics on purpose, so the tests can show that a panic inside the module
/// surfaces as a Lua error and the host keeps running.
unsafe extern "C-unwind" fn panic_probe(state: *mut lua_State) -> c_int {
    call(state, "map._panic_probe", |_| panic!("probe"))
}

/// Runs `body`, then pushes its reply or raises its error as `"name: message"`.
/// Only `state` and the moved-out reply live in this frame when `raise` jumps.
unsafe fn call(
    state: *mut lua_State,
    name: &str,
    body: impl FnOnce(&Args) -> Result<Reply, String>,
) -> c_int {
    match run(state, name, body) {
        Ok(reply) => push_protected(state, name, reply),
        Err(message) => raise(state, message),
    }
}

/// The registry key of `push_reply`, stored by `open`.
const PUSH_REPLY: &CStr = c"map.push_reply";

/// Step 3: pushes `reply` inside `lua_pcall`, so that a Lua error while
/// building the result (out of memory, no room on the stack) cannot jump
/// over `reply`: it is dropped here, and then the error is raised with the
/// function's name. Fetching `push_reply` from the registry and pushing a
/// light userdata allocate nothing, so nothing before the `pcall` can fail.
unsafe fn push_protected(state: *mut lua_State, name: &str, reply: Reply) -> c_int {
    let base = ffi::lua_gettop(state);
    ffi::lua_getfield(state, ffi::LUA_REGISTRYINDEX, PUSH_REPLY.as_ptr());
    ffi::lua_pushlightuserdata(state, std::ptr::from_ref(&reply).cast_mut().cast());
    let status = ffi::lua_pcall(state, 1, ffi::LUA_MULTRET, 0);
    drop(reply);
    if status == ffi::LUA_OK {
        return ffi::lua_gettop(state) - base;
    }
    // Only `message` may be alive here: `raise` frees it before it jumps.
    let message = if status == ffi::LUA_ERRMEM {
        format!("{name}: not enough memory for the result")
    } else {
        format!("{name}: {}", stack::message(state))
    };
    ffi::lua_settop(state, base);
    raise(state, message)
}

/// The protected part of `push_protected`: its one argument points to the
/// reply, which outlives this call.
unsafe extern "C-unwind" fn push_reply(state: *mut lua_State) -> c_int {
    let reply = &*ffi::lua_touserdata(state, 1).cast::<Reply>();
    ffi::lua_settop(state, 0);
    match reply {
        Reply::Map(grid) => stack::push_grid(state, grid),
        Reply::Level(level) => stack::push_level(state, level),
        Reply::Text(text) => stack::push_bytes(state, text),
        Reply::Reach(Ok(())) => stack::push_true(state),
        Reply::Reach(Err(why)) => stack::push_false_and(state, why),
        Reply::Description(algorithm) => stack::push_description(state, algorithm),
        Reply::Visible(fov) => {
            let (fov, seen) = &**fov;
            stack::push_visible(state, fov.height, fov.corner, fov.window.width(), seen)
        }
        Reply::Distances(width, dist) => stack::push_distances(state, *width, dist),
        Reply::Path(Ok(cells)) => stack::push_path(state, cells),
        Reply::Path(Err(why)) => stack::push_nil_and(state, why),
        #[cfg(feature = "luajit")]
        Reply::Parts(level) => stack::push_level_parts(state, level),
    }
}

/// Step 1: the core's work, with any panic turned into an error message
/// prefixed by the function's name.
unsafe fn run(
    state: *mut lua_State,
    name: &str,
    body: impl FnOnce(&Args) -> Result<Reply, String>,
) -> Result<Reply, String> {
    let args = Args::new(state);
    match catch_unwind(AssertUnwindSafe(|| body(&args))) {
        Ok(result) => result.map_err(|message| format!("{name}: {message}")),
        Err(panic) => {
            let what = panic
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| panic.downcast_ref::<&str>().copied())
                .unwrap_or("unknown panic");
            Err(format!("{name}: internal error (please report): {what}"))
        }
    }
}

/// The longest message `raise` passes on; messages cut long values to 40
/// bytes, so only a bug would make one longer.
const MESSAGE_BYTES: usize = 1024;

/// Raises `message` as a Lua string error. It is moved into a buffer on the
/// C stack and the `String` freed first: pushing it may itself fail (Lua out
/// of memory) and jump, and then nothing may be left on the heap.
unsafe fn raise(state: *mut lua_State, message: String) -> ! {
    let mut buffer = [0u8; MESSAGE_BYTES];
    let mut len = message.len().min(MESSAGE_BYTES);
    while !message.is_char_boundary(len) {
        len -= 1;
    }
    buffer[..len].copy_from_slice(&message.as_bytes()[..len]);
    drop(message);
    ffi::lua_pushlstring(state, buffer.as_ptr().cast(), len);
    ffi::lua_error(state)
}
