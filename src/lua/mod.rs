//! The Lua binding: arguments in, results out, errors as strings.
//!
//! Each exported function is a raw C function in three steps:
//! 1. read the arguments (`cells.rs`, `search.rs`, `walks.rs`, ..., over
//!    the raw reads of `read.rs`) and run the core inside `catch_unwind`,
//!    touching the Lua stack only through calls that cannot raise a Lua
//!    error;
//! 2. on failure, raise the message as a plain Lua string (`raise`), with
//!    no Rust value left alive in the frames that `lua_error` jumps over;
//! 3. on success, push the result (`push.rs`) inside `lua_pcall`
//!    (`push_protected`), so that a Lua error while building it, such as
//!    running out of memory, is raised only after the reply is dropped.
//!
//! `call` (`calling.rs`) takes every function through these steps.
//! mlua's own callbacks raise errors as userdata; raising strings keeps
//! `pcall` users' `err:match(...)` working the same on every interpreter.
//! On LuaJIT some functions take another route (`luajit.rs`).

#![deny(unsafe_op_in_unsafe_fn)]

mod answers;
mod calling;
mod cells;
mod design;
mod exports;
mod field;
mod level;
#[cfg(feature = "luajit")]
mod luajit;
#[cfg(feature = "luajit")]
mod luajit_native;
#[cfg(feature = "luajit")]
mod luajit_push;
#[cfg(feature = "luajit")]
mod luajit_toolbox;
mod names;
mod native;
mod native_push;
mod noise;
mod options;
mod push;
mod push_level;
mod random;
mod read;
mod scheduler;
mod search;
mod sight;
mod toolbox;
mod walks;

use std::ffi::c_int;

use mlua::ffi::{self, lua_State};
use mlua::{Lua, Table};

use crate::generators::{self, Generator};
use crate::grid::{Grid, Pos, WALL};
use crate::input::MAX_CELLS;
use crate::level::{json, Level};
use crate::memory;
use crate::toolkit::{distances, fov, line, parse};
use answers::{
    answer_autotile, answer_explore, answer_light, answer_path, answer_reachable, answer_sample,
    answer_step, answer_visible, rows, safety_map,
};
use calling::{call, push_reply, silence_panics};

/// The module's functions, by the name Lua sees. Each is an `unsafe extern
/// "C-unwind" fn` whose `# Safety` is the same: Lua calls it as a C function,
/// with a valid `state` and the two upvalues `Upvalues::register` gives it,
/// and nothing else does.
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
    ("step", step),
    ("flee", flee),
    ("explore", explore),
    ("sample", sample),
    ("line", line),
    ("visible", visible),
    ("parse", parse),
    ("level", level::new_level),
    ("load", level::load),
    ("field", field::new_field),
    ("rng", random::new_rng),
    ("scheduler", scheduler::new_scheduler),
    ("names", names::new_names),
    ("noise", noise::new_noise),
    ("light", light),
    #[cfg(feature = "probe")]
    ("_panic_probe", panic_probe),
    #[cfg(feature = "probe")]
    ("_reads", reads_probe),
];

mlua::require_module_feature!();

/// What `require "map"` calls: what `#[mlua::lua_module]` would write, with
/// the LuaJIT flavour first checking that it runs on LuaJIT. Plain Lua 5.1
/// has the same C API, so the library loads there, and `open` would fail on
/// the first LuaJIT library `luajit.lua` needs, with an error that is not a
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
            ffi::lua_pushstring(state, luajit::NOT_LUAJIT.as_ptr());
            ffi::lua_error(state);
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
    let upvalues = Upvalues::new(lua)?;
    let module = lua.create_table()?;
    upvalues.register(lua, &module, EXPORTS)?;
    let natives = [
        level::METATABLE,
        field::METATABLE,
        random::METATABLE,
        scheduler::METATABLE,
        names::METATABLE,
        noise::METATABLE,
    ];
    native::install(lua, &upvalues, &natives)?;
    module.set("VERSION", env!("CARGO_PKG_VERSION"))?;
    module.set("MAX_CELLS", MAX_CELLS)?;
    module.set("INTERNAL_ERROR", crate::input::INTERNAL_ERROR)?;
    let names = generators::LIST.iter().map(|g| g.name);
    module.set("ALGORITHMS", lua.create_sequence_from(names)?)?;
    let methods = lua.create_table()?;
    for m in natives {
        let names = lua.create_sequence_from(m.methods.iter().map(|&(name, _)| name))?;
        methods.set(m.kind.name(), names)?;
    }
    module.set("METHODS", methods)?;
    #[cfg(feature = "luajit")]
    {
        let shared = luajit::wrap(lua, &module, &upvalues)?;
        luajit_native::wrap(lua, &upvalues, shared)?;
        luajit_toolbox::wrap(lua, &upvalues)?;
    }
    Ok(module)
}

/// What every exported function holds as its upvalues, made once when the
/// module opens, so that no call needs to allocate to reach them: the field
/// names the readers look up (`read::FIELD_NAMES`), `push_reply`
/// (`PUSH_REPLY`) and the natives' metatables (`native::NATIVES`).
struct Upvalues {
    field_names: Table,
    push_reply: mlua::Function,
    natives: Table,
}

/// The upvalue holding `push_reply` (the first holds `field_names`).
const PUSH_REPLY: c_int = ffi::lua_upvalueindex(2);

impl Upvalues {
    fn new(lua: &Lua) -> mlua::Result<Upvalues> {
        let field_names = lua.create_sequence_from(read::Field::ALL.iter().map(|f| f.name()))?;
        let natives = lua.create_table()?;
        let row: mlua::Function = lua.load(push::ROW_CHUNK).set_name("=map/row").eval()?;
        // SAFETY: `push_protected` calls it through `lua_pcall`; its
        // upvalues are the natives' table, for the pushers of new natives,
        // and the row maker `push::ROW` names.
        let push: mlua::Function = unsafe {
            lua.exec_raw((natives.clone(), row), |l| {
                ffi::lua_pushcclosure(l, push_reply, 2)
            })?
        };
        Ok(Upvalues {
            field_names,
            push_reply: push,
            natives,
        })
    }

    /// Sets each of `functions` in `table`, as a closure over the upvalues.
    fn register(
        &self,
        lua: &Lua,
        table: &Table,
        functions: &[(&str, ffi::lua_CFunction)],
    ) -> mlua::Result<()> {
        for &(name, function) in functions {
            let upvalues = (
                self.field_names.clone(),
                self.push_reply.clone(),
                self.natives.clone(),
            );
            // SAFETY: the three values pushed become the closure's
            // upvalues; each function follows the stack discipline
            // described above.
            let closure: mlua::Function =
                unsafe { lua.exec_raw(upvalues, |l| ffi::lua_pushcclosure(l, function, 3))? };
            table.set(name, closure)?;
        }
        Ok(())
    }
}

/// What a function hands back to Lua, by the shape of the Lua value.
enum Reply {
    /// A table of rows of cells.
    Map(Grid),
    /// A table of rows of cells with its `blocked` field.
    Terrain(Box<(Grid, Vec<u8>)>),
    Level(Box<Level>),
    /// A string.
    Text(Vec<u8>),
    /// `true`, or `false` and why.
    Verdict(Result<(), String>),
    Description(&'static Generator),
    /// `fov`'s rows of `true` (see `push::push_visible`).
    Visible(Box<(sight::Seen, Vec<bool>)>),
    /// Rows of integers, `false` where unreached.
    Rows(Box<push::Rows>),
    /// An array of `{x=, y=}`, or nil and why.
    Positions(Result<Vec<Pos>, String>),
    /// The level as `luajit_levels.lua` takes it.
    #[cfg(feature = "luajit")]
    Parts(Box<luajit_push::Parts>),
    /// `x, y`, or nil.
    Cell(Option<Pos>),
    Boolean(bool),
    /// An integer, such as a count.
    Integer(i64),
    /// A number (`noise:get`).
    Number(f64),
    /// Rows of numbers (`noise:grid`).
    Numbers(Box<push::Numbers>),
    /// A light map.
    Lit(Box<push::Lit>),
    /// A new noise source, as a userdata.
    NewNoise(native::Fresh<crate::toolkit::noise::Noise>),
    /// An array of `{x=, y=}` on any integer coordinates.
    Points(Vec<(i64, i64)>),
    /// A map read from text.
    Parsed(Box<parse::Parsed>),
    /// A new level, as a userdata.
    NewLevel(native::Fresh<crate::native::NativeLevel>),
    /// A new field, as a userdata.
    NewField(native::Fresh<crate::native::field::Field>),
    /// One cell's character (pushed from the natives' one-byte strings).
    Char(u8),
    /// One cell of a field: an integer, `false`, `true` or nil.
    Value(crate::native::field::Value),
    /// A level's things: `{char=, x=, y=}` each.
    Things(Vec<(u8, Pos)>),
    /// A field of flags as `fov`'s rows, or of values as `distances`' rows.
    FieldRows(Box<crate::native::field::Field>),
    /// A field of `generate`'s table (`level.rooms`), from its metadata.
    LevelField(Box<Level>, &'static std::ffi::CStr),
    /// Movers moved by `level:steps`: each mover's index in the array at
    /// argument 3 and its new cell; the count moved is returned.
    Moved(Vec<(usize, Pos)>),
    /// What the toolbox's natives give (`map.rng`, `map.scheduler`,
    /// `map.names`: toolbox.rs).
    Toolbox(toolbox::Out),
    /// No value.
    Nothing,
    /// A light userdata: an address for LuaJIT's FFI.
    #[cfg(feature = "luajit")]
    Address(*mut std::ffi::c_void),
    /// A window of a map, as `luajit.lua` takes it.
    #[cfg(feature = "luajit")]
    Window(crate::grid::Rect),
    /// A parsed map's size and `@` and `>`, as `luajit.lua` takes them.
    #[cfg(feature = "luajit")]
    ParsedSize(Box<parse::Parsed>),
}

/// # Safety
/// See `EXPORTS`.
unsafe extern "C-unwind" fn new_map(state: *mut lua_State) -> c_int {
    // SAFETY: Lua called this function with a valid state (see `EXPORTS`).
    unsafe {
        call(state, "map.new_map", |args| {
            let (width, height) = cells::new_map(args)?;
            memory::check(memory::bound_new_map(width * height))?;
            Ok(Reply::Map(Grid::new(width, height, WALL)))
        })
    }
}

/// # Safety
/// See `EXPORTS`.
unsafe extern "C-unwind" fn render(state: *mut lua_State) -> c_int {
    // SAFETY: Lua called this function with a valid state (see `EXPORTS`).
    unsafe {
        call(state, "map.render", |args| {
            args.at_most(1)?;
            let grid = cells::whole_map(args, 1, memory::bound_render)?;
            Ok(Reply::Text(grid.render()))
        })
    }
}

/// # Safety
/// See `EXPORTS`.
unsafe extern "C-unwind" fn reachable(state: *mut lua_State) -> c_int {
    // SAFETY: Lua called this function with a valid state (see `EXPORTS`).
    unsafe { call(state, "map.reachable", answer_reachable) }
}

/// # Safety
/// See `EXPORTS`.
unsafe extern "C-unwind" fn generate(state: *mut lua_State) -> c_int {
    // SAFETY: Lua called this function with a valid state (see `EXPORTS`).
    unsafe {
        call(state, "map.generate", |args| {
            Ok(Reply::Level(Box::new(exports::level(args)?)))
        })
    }
}

/// `render(generate(...))` without building the table of rows.
///
/// # Safety
/// See `EXPORTS`.
unsafe extern "C-unwind" fn generate_text(state: *mut lua_State) -> c_int {
    // SAFETY: Lua called this function with a valid state (see `EXPORTS`).
    unsafe {
        call(state, "map.generate_text", |args| {
            Ok(Reply::Text(exports::level_grid(args)?.render()))
        })
    }
}

/// # Safety
/// See `EXPORTS`.
unsafe extern "C-unwind" fn generate_json(state: *mut lua_State) -> c_int {
    // SAFETY: Lua called this function with a valid state (see `EXPORTS`).
    unsafe {
        call(state, "map.generate_json", |args| {
            Ok(Reply::Text(
                json::level(&exports::level(args)?).into_bytes(),
            ))
        })
    }
}

/// `map.describe(name)`: a generator's doc, minimum size and options, for
/// the CLI, the server's form and the docs to read.
///
/// # Safety
/// See `EXPORTS`.
unsafe extern "C-unwind" fn describe(state: *mut lua_State) -> c_int {
    // SAFETY: Lua called this function with a valid state (see `EXPORTS`).
    unsafe {
        call(state, "map.describe", |args| {
            Ok(Reply::Description(exports::generator(args)?))
        })
    }
}

/// `map.fov(m, x, y [, radius [, options]])`: the cells visible from `(x, y)`.
///
/// # Safety
/// See `EXPORTS`.
unsafe extern "C-unwind" fn fov(state: *mut lua_State) -> c_int {
    // SAFETY: Lua called this function with a valid state (see `EXPORTS`).
    unsafe {
        call(state, "map.fov", |args| {
            let asked = sight::fov(args)?;
            let seen = fov::visible(&asked.window, asked.origin, asked.radius, &asked.opaque);
            Ok(Reply::Visible(Box::new((asked.seen(), seen))))
        })
    }
}

/// `map.distances(m, sources [, options])`: a Dijkstra map.
///
/// # Safety
/// See `EXPORTS`.
unsafe extern "C-unwind" fn distances(state: *mut lua_State) -> c_int {
    // SAFETY: Lua called this function with a valid state (see `EXPORTS`).
    unsafe {
        call(state, "map.distances", |args| {
            let s = walks::searched(args, search::DISTANCES, memory::bound_distances)?;
            let values = distances::distances_from(&s.grid, &s.sources, &s.walk, &s.limits);
            Ok(rows(&s, values))
        })
    }
}

/// `map.path(m, x1, y1, x2, y2 [, options])`: a shortest path, or nil and why.
///
/// # Safety
/// See `EXPORTS`.
unsafe extern "C-unwind" fn path(state: *mut lua_State) -> c_int {
    // SAFETY: Lua called this function with a valid state (see `EXPORTS`).
    unsafe { call(state, "map.path", answer_path) }
}

/// `map.step(m, d, x, y [, options])`: the neighbour to step to, or nil.
///
/// # Safety
/// See `EXPORTS`.
unsafe extern "C-unwind" fn step(state: *mut lua_State) -> c_int {
    // SAFETY: Lua called this function with a valid state (see `EXPORTS`).
    unsafe { call(state, "map.step", answer_step) }
}

/// `map.flee(m, sources [, options])`: a safety map.
///
/// # Safety
/// See `EXPORTS`.
unsafe extern "C-unwind" fn flee(state: *mut lua_State) -> c_int {
    // SAFETY: Lua called this function with a valid state (see `EXPORTS`).
    unsafe {
        call(state, "map.flee", |args| {
            let s = walks::searched(args, search::FLEE, memory::bound_flee)?;
            Ok(rows(&s, safety_map(&s)?))
        })
    }
}

/// `map.explore(m, known, x, y [, options])`: the path to the nearest
/// frontier cell, or nil and "explored". It reads the map and `known` in
/// windows around the start, from `EXPLORE_RADIUS` on, doubling until the
/// answer is inside one or the window is the map (`explore_within`).
///
/// # Safety
/// See `EXPORTS`.
unsafe extern "C-unwind" fn explore(state: *mut lua_State) -> c_int {
    // SAFETY: Lua called this function with a valid state (see `EXPORTS`).
    unsafe { call(state, "map.explore", answer_explore) }
}

/// `map.sample(m, count [, options])`: distinct random cells.
///
/// # Safety
/// See `EXPORTS`.
unsafe extern "C-unwind" fn sample(state: *mut lua_State) -> c_int {
    // SAFETY: Lua called this function with a valid state (see `EXPORTS`).
    unsafe { call(state, "map.sample", answer_sample) }
}

/// `map.line(x1, y1, x2, y2)`: the cells of a straight line.
///
/// # Safety
/// See `EXPORTS`.
unsafe extern "C-unwind" fn line(state: *mut lua_State) -> c_int {
    // SAFETY: Lua called this function with a valid state (see `EXPORTS`).
    unsafe {
        call(state, "map.line", |args| {
            let (a, b) = cells::line(args)?;
            Ok(Reply::Points(line::line(a, b)))
        })
    }
}

/// `map.visible(m, x1, y1, x2, y2 [, options])`: whether the second cell
/// is in the first's field of view. It reads the target first: one that
/// is not opaque is decided by the cells on the ray to it alone
/// (`visible::along`), read one at a time up to the first that blocks; an
/// opaque one by the rectangle between the two.
///
/// # Safety
/// See `EXPORTS`.
unsafe extern "C-unwind" fn visible(state: *mut lua_State) -> c_int {
    // SAFETY: Lua called this function with a valid state (see `EXPORTS`).
    unsafe { call(state, "map.visible", answer_visible) }
}

/// `map.parse(text)`: the map a text draws.
///
/// # Safety
/// See `EXPORTS`.
unsafe extern "C-unwind" fn parse(state: *mut lua_State) -> c_int {
    // SAFETY: Lua called this function with a valid state (see `EXPORTS`).
    unsafe {
        call(state, "map.parse", |args| {
            Ok(Reply::Parsed(Box::new(exports::parse(args)?)))
        })
    }
}

/// `map.autotile(m [, options])`: each cell's mask of its neighbours of the
/// same class, `false` for cells of no class.
///
/// # Safety
/// See `EXPORTS`.
unsafe extern "C-unwind" fn autotile(state: *mut lua_State) -> c_int {
    // SAFETY: Lua called this function with a valid state (see `EXPORTS`).
    unsafe { call(state, "map.autotile", answer_autotile) }
}

/// `map.light(m, lights [, options])`: a light map.
///
/// # Safety
/// See `EXPORTS`.
unsafe extern "C-unwind" fn light(state: *mut lua_State) -> c_int {
    // SAFETY: Lua called this function with a valid state (see `EXPORTS`).
    unsafe { call(state, "map.light", answer_light) }
}

/// Panics on purpose, so the tests can show that a panic inside the module
/// surfaces as a Lua error and the host keeps running. Only in the probe
/// modules (`make probe`, the cargo feature `probe`).
///
/// # Safety
/// See `EXPORTS`.
#[cfg(feature = "probe")]
unsafe extern "C-unwind" fn panic_probe(state: *mut lua_State) -> c_int {
    // SAFETY: Lua called this function with a valid state (see `EXPORTS`).
    unsafe { call(state, "map._panic_probe", |_| panic!("probe")) }
}

/// `map._reads()`: the raw reads of table entries since the last call
/// (`read::take_reads`), for the spec that counts what reading a map costs.
/// Only in the probe modules.
///
/// # Safety
/// See `EXPORTS`.
#[cfg(feature = "probe")]
unsafe extern "C-unwind" fn reads_probe(state: *mut lua_State) -> c_int {
    // SAFETY: Lua called this function with a valid state (see `EXPORTS`).
    unsafe {
        call(state, "map._reads", |_| {
            Ok(Reply::Integer(read::take_reads() as i64))
        })
    }
}
