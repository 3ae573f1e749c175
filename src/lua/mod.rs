//! The Lua binding: arguments in, results out, errors as strings.
//!
//! Each exported function is a raw C function in three steps:
//! 1. read the arguments (`args.rs`, over the raw reads of `read.rs`) and
//!    run the core inside `catch_unwind`, touching the Lua stack only
//!    through calls that cannot raise a Lua error;
//! 2. on failure, raise the message as a plain Lua string (`raise`), with
//!    no Rust value left alive in the frames that `lua_error` jumps over;
//! 3. on success, push the result (`push.rs`) inside `lua_pcall`
//!    (`push_protected`), so that a Lua error while building it, such as
//!    running out of memory, is raised only after the reply is dropped.
//!
//! mlua's own callbacks raise errors as userdata; raising strings keeps
//! `pcall` users' `err:match(...)` working the same on every interpreter.
//! On LuaJIT some functions take another route (`luajit.rs`).

mod args;
#[cfg(feature = "luajit")]
mod luajit;
mod push;
mod read;

use std::ffi::c_int;
use std::panic::{catch_unwind, AssertUnwindSafe};

use mlua::ffi::{self, lua_State};
use mlua::{Lua, Table};

use crate::args::MAX_CELLS;
use crate::generators::{self, Generator};
use crate::grid::{Grid, Pos, WALL};
use crate::level::{json, Level};
use crate::memory;
use crate::toolkit::board::UNREACHED;
use crate::toolkit::{autotile, distances, fov, path, reach};
use read::Args;

/// The module's functions, by the name Lua sees.
const EXPORTS: &[(&str, ffi::lua_CFunction)] = &[
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
    ("autotile", autotile),
    ("_panic_probe", panic_probe),
];

#[mlua::lua_module(name = "map", skip_memory_check)]
fn open(lua: &Lua) -> mlua::Result<Table> {
    silence_panics();
    let upvalues = Upvalues::new(lua)?;
    let module = lua.create_table()?;
    upvalues.register(lua, &module, EXPORTS)?;
    module.set("VERSION", env!("CARGO_PKG_VERSION"))?;
    module.set("MAX_CELLS", MAX_CELLS)?;
    let names = generators::LIST.iter().map(|g| g.name);
    module.set("ALGORITHMS", lua.create_sequence_from(names)?)?;
    #[cfg(feature = "luajit")]
    luajit::wrap(lua, &module, &upvalues)?;
    Ok(module)
}

/// What every exported function holds as its upvalues, made once when the
/// module opens, so that no call needs to allocate to reach them: the field
/// names the readers look up (`read::FIELD_NAMES`) and `push_reply`
/// (`PUSH_REPLY`).
struct Upvalues(Table, mlua::Function);

/// The upvalue holding `push_reply`.
const PUSH_REPLY: c_int = ffi::lua_upvalueindex(2);

impl Upvalues {
    fn new(lua: &Lua) -> mlua::Result<Upvalues> {
        let names = lua.create_sequence_from(read::Field::ALL.iter().map(|f| f.name()))?;
        // SAFETY: `push_protected` calls it through `lua_pcall`.
        let push = unsafe { lua.create_c_function(push_reply)? };
        Ok(Upvalues(names, push))
    }

    /// Sets each of `functions` in `table`, as a closure over the upvalues.
    fn register(
        &self,
        lua: &Lua,
        table: &Table,
        functions: &[(&str, ffi::lua_CFunction)],
    ) -> mlua::Result<()> {
        for &(name, function) in functions {
            // SAFETY: the two values pushed become the closure's upvalues;
            // each function follows the stack discipline described above.
            let closure: mlua::Function = unsafe {
                lua.exec_raw((self.0.clone(), self.1.clone()), |l| {
                    ffi::lua_pushcclosure(l, function, 2)
                })?
            };
            table.set(name, closure)?;
        }
        Ok(())
    }
}

/// A caught panic becomes the Lua error "internal error (please report)"
/// with its message; the default hook would also print it to the host's
/// stderr (nginx's error.log). Other panics keep the default hook.
fn silence_panics() {
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

/// What a function hands back to Lua, by the shape of the Lua value.
enum Reply {
    /// A table of rows of cells.
    Map(Grid),
    Level(Box<Level>),
    /// A string.
    Text(Vec<u8>),
    /// `true`, or `false` and why.
    Verdict(Result<(), String>),
    Description(&'static Generator),
    /// `fov`'s rows of `true` (see `push::push_visible`).
    Visible(Box<(args::Fov, Vec<bool>)>),
    /// Rows of integers, `false` where unreached, `width` a row.
    Rows(usize, Vec<u64>),
    /// An array of `{x=, y=}`, or nil and why.
    Positions(Result<Vec<Pos>, String>),
    /// The level as `luajit.lua` takes it.
    #[cfg(feature = "luajit")]
    Parts(Box<Level>),
}

unsafe extern "C-unwind" fn new_map(state: *mut lua_State) -> c_int {
    call(state, "map.new_map", |args| {
        let (width, height) = args::new_map(args)?;
        memory::check(memory::bound_new_map(width * height))?;
        Ok(Reply::Map(Grid::new(width, height, WALL)))
    })
}

unsafe extern "C-unwind" fn render(state: *mut lua_State) -> c_int {
    call(state, "map.render", |args| {
        Ok(Reply::Text(
            args::whole_map(args, memory::bound_render)?.render(),
        ))
    })
}

unsafe extern "C-unwind" fn reachable(state: *mut lua_State) -> c_int {
    call(state, "map.reachable", |args| {
        let grid = args::whole_map(args, memory::bound_reach)?;
        Ok(Reply::Verdict(
            reach::check(&grid).map_err(|e| e.to_string()),
        ))
    })
}

unsafe extern "C-unwind" fn generate(state: *mut lua_State) -> c_int {
    call(state, "map.generate", |args| {
        Ok(Reply::Level(Box::new(args::level(args)?)))
    })
}

/// `render(generate(...))` without building the table of rows.
unsafe extern "C-unwind" fn generate_text(state: *mut lua_State) -> c_int {
    call(state, "map.generate_text", |args| {
        Ok(Reply::Text(args::level(args)?.grid.render()))
    })
}

unsafe extern "C-unwind" fn generate_json(state: *mut lua_State) -> c_int {
    call(state, "map.generate_json", |args| {
        Ok(Reply::Text(json::level(&args::level(args)?).into_bytes()))
    })
}

/// `map.describe(name)`: a generator's doc, minimum size and options, for
/// the CLI, the server's form and the docs to read.
unsafe extern "C-unwind" fn describe(state: *mut lua_State) -> c_int {
    call(state, "map.describe", |args| {
        Ok(Reply::Description(args::generator(args)?))
    })
}

/// `map.fov(m, x, y [, radius [, options]])`: the cells visible from `(x, y)`.
unsafe extern "C-unwind" fn fov(state: *mut lua_State) -> c_int {
    call(state, "map.fov", |args| {
        let asked = args::fov(args)?;
        let seen = fov::visible(&asked.window, asked.origin, asked.radius, &asked.opaque);
        Ok(Reply::Visible(Box::new((asked, seen))))
    })
}

/// `map.distances(m, sources [, options])`: a Dijkstra map.
unsafe extern "C-unwind" fn distances(state: *mut lua_State) -> c_int {
    call(state, "map.distances", |args| {
        let (grid, sources, walk) = args::distances(args)?;
        let dist = distances::distances(&grid, &sources, &walk);
        Ok(Reply::Rows(grid.width(), dist))
    })
}

/// `map.path(m, x1, y1, x2, y2 [, options])`: a shortest path, or nil and why.
unsafe extern "C-unwind" fn path(state: *mut lua_State) -> c_int {
    call(state, "map.path", |args| {
        let (grid, from, to, walk) = args::path(args)?;
        let found = path::path(&grid, from, to, &walk).map_err(|e| e.to_string());
        Ok(Reply::Positions(found))
    })
}

/// `map.autotile(m [, options])`: each cell's mask of its neighbours of the
/// same class, `false` for cells of no class.
unsafe extern "C-unwind" fn autotile(state: *mut lua_State) -> c_int {
    call(state, "map.autotile", |args| {
        let (grid, tile) = args::autotile(args)?;
        let masks = autotile::masks(&grid, &tile);
        let rows = masks
            .iter()
            .map(|m| m.map_or(UNREACHED, u64::from))
            .collect();
        Ok(Reply::Rows(grid.width(), rows))
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

/// Step 3: pushes `reply` inside `lua_pcall`, so that a Lua error while
/// building the result (out of memory, no room on the stack) cannot jump
/// over `reply`: it is dropped here, and then the error is raised with the
/// function's name. Pushing `push_reply` (an upvalue) and a light userdata
/// allocate nothing, so nothing before the `pcall` can fail.
unsafe fn push_protected(state: *mut lua_State, name: &str, reply: Reply) -> c_int {
    let base = ffi::lua_gettop(state);
    ffi::lua_pushvalue(state, PUSH_REPLY);
    ffi::lua_pushlightuserdata(state, std::ptr::from_ref(&reply).cast_mut().cast());
    let status = ffi::lua_pcall(state, 1, ffi::LUA_MULTRET, 0);
    drop(reply);
    if status == ffi::LUA_OK {
        return ffi::lua_gettop(state) - base;
    }
    // Only `message` may be alive here: `raise` frees it before it jumps.
    // Running out of stack reads the same whichever check met it (and on
    // either interpreter: see luajit.lua).
    let message = match (status, read::message(state)) {
        (ffi::LUA_ERRMEM, _) => format!("{name}: not enough memory for the result"),
        (_, why) if why.contains("stack overflow") => format!("{name}: stack overflow"),
        (_, why) => format!("{name}: {why}"),
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
        Reply::Map(grid) => push::push_grid(state, grid),
        Reply::Level(level) => push::push_level(state, level),
        Reply::Text(text) => push::push_bytes(state, text),
        Reply::Verdict(Ok(())) => push::push_true(state),
        Reply::Verdict(Err(why)) => push::push_false_and(state, why),
        Reply::Description(generator) => push::push_description(state, generator),
        Reply::Visible(fov) => {
            let (fov, seen) = &**fov;
            push::push_visible(state, fov.height, fov.corner, fov.window.width(), seen)
        }
        Reply::Rows(width, values) => push::push_rows_of_integers(state, *width, values),
        Reply::Positions(Ok(cells)) => push::push_positions(state, cells),
        Reply::Positions(Err(why)) => push::push_nil_and(state, why),
        #[cfg(feature = "luajit")]
        Reply::Parts(level) => luajit::push_level_parts(state, level),
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
