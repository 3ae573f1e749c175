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
mod design;
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
use crate::grid::{Grid, Pos, Rect, WALL};
use crate::level::{json, Level};
use crate::memory;
use crate::toolkit::board::BEYOND;
use crate::toolkit::path::NoPath;
use crate::toolkit::{
    autotile, distances, explore, flee, fov, line, parse, path, reach, sample, step, visible,
};
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
    ("step", step),
    ("flee", flee),
    ("explore", explore),
    ("sample", sample),
    ("line", line),
    ("visible", visible),
    ("parse", parse),
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
    /// Rows of integers, `false` where unreached.
    Rows(Box<push::Rows>),
    /// An array of `{x=, y=}`, or nil and why.
    Positions(Result<Vec<Pos>, String>),
    /// The level as `luajit.lua` takes it.
    #[cfg(feature = "luajit")]
    Parts(Box<Level>),
    /// `x, y`, or nil.
    Cell(Option<Pos>),
    Boolean(bool),
    /// An array of `{x=, y=}` on any integer coordinates.
    Points(Vec<(i64, i64)>),
    /// A map read from text.
    Parsed(Box<parse::Parsed>),
    /// A window of a map, as `luajit.lua` takes it.
    #[cfg(feature = "luajit")]
    Window(crate::grid::Rect),
    /// A parsed map's size and `@` and `>`, as `luajit.lua` takes them.
    #[cfg(feature = "luajit")]
    ParsedSize(Box<parse::Parsed>),
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
        Ok(Reply::Text(args::level_grid(args)?.render()))
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
        let s = args::searched(args, args::DISTANCES, memory::bound_distances)?;
        let values = distances::distances_from(&s.grid, &s.sources, &s.walk, &s.limits);
        Ok(rows(&s, values))
    })
}

/// A search's values over its window, as the rows of the whole map.
fn rows(s: &args::Searched, values: Vec<i64>) -> Reply {
    Reply::Rows(Box::new(push::Rows {
        size: s.size,
        window: s.window,
        values,
    }))
}

/// `map.path(m, x1, y1, x2, y2 [, options])`: a shortest path, or nil and why.
unsafe extern "C-unwind" fn path(state: *mut lua_State) -> c_int {
    call(state, "map.path", |args| {
        Ok(Reply::Positions(route(&args::path(args)?)))
    })
}

/// The path `route` asks for, as cells of the map, or why there is none.
pub(super) fn route(r: &args::Route) -> Result<Vec<Pos>, String> {
    let (window, from, to) = (r.window, r.from, r.to);
    let found = if r.near {
        let (a, b) = (window.inside(from), window.inside(to));
        path::path_within(&r.grid, a, b, &r.walk, &r.limits)
    } else {
        // Farther than `max`: the grid is the goal's cell alone.
        let open =
            !r.walk.blocked[r.grid.cells()[0] as usize] && r.limits.closed.first() != Some(&true);
        Err(path::too_far(from, to, open))
    };
    match found {
        Ok(mut cells) => {
            cells.iter_mut().for_each(|p| *p = window.outside(*p));
            Ok(cells)
        }
        Err(NoPath::GoalBlocked { .. }) => Err(NoPath::GoalBlocked { goal: to }.to_string()),
        Err(NoPath::NotConnected { .. }) => Err(NoPath::NotConnected { from, to }.to_string()),
    }
}

/// `map.step(m, d, x, y [, options])`: the neighbour to step to, or nil.
unsafe extern "C-unwind" fn step(state: *mut lua_State) -> c_int {
    call(state, "map.step", |args| {
        let s = args::step(args)?;
        let to = step::step(&s.grid, &s.values, s.from, &s.walk, &s.closed);
        Ok(Reply::Cell(to.map(|p| s.window.outside(p))))
    })
}

/// `map.flee(m, sources [, options])`: a safety map.
unsafe extern "C-unwind" fn flee(state: *mut lua_State) -> c_int {
    call(state, "map.flee", |args| {
        let s = args::searched(args, args::FLEE, memory::bound_flee)?;
        let values =
            flee::flee(&s.grid, &s.sources, &s.walk, &s.limits, s.factor).map_err(|e| {
                flee::Overflow {
                    at: s.window.outside(e.at),
                    ..e
                }
                .to_string()
            })?;
        Ok(rows(&s, values))
    })
}

/// `map.explore(m, known, x, y [, options])`: the path to the nearest
/// frontier cell, or nil and "explored". It reads the map and `known` in
/// windows around the start, from `EXPLORE_RADIUS` on, doubling until the
/// answer is inside one or the window is the map (`explore_within`).
unsafe extern "C-unwind" fn explore(state: *mut lua_State) -> c_int {
    call(state, "map.explore", |args| {
        let asked = args::explore(args)?;
        let mut r = args::EXPLORE_RADIUS;
        loop {
            let window = asked.window(r);
            let whole = window == crate::grid::Rect::whole(asked.size);
            match explore_in(&asked.read(args, window, None)?, window, whole, r) {
                Some(found) => return Ok(Reply::Positions(found)),
                None => r = r.saturating_mul(2),
            }
        }
    })
}

/// The answer `explore` finds in `window` (of radius `r`, or the whole
/// map), as cells of the map; `None` to read a larger window.
pub(super) fn explore_in(
    e: &args::ExploreWindow,
    window: crate::grid::Rect,
    whole: bool,
    r: usize,
) -> Option<Result<Vec<Pos>, String>> {
    let max = (!whole).then(|| r as i64 - 1);
    match explore::explore_within(&e.grid, &e.known, e.start, &e.walk, &e.avoided, max) {
        Some(mut path) => {
            path.iter_mut().for_each(|p| *p = window.outside(*p));
            Some(Ok(path))
        }
        None if whole => Some(Err("explored".to_string())),
        None => None,
    }
}

/// `map.sample(m, count [, options])`: distinct random cells.
unsafe extern "C-unwind" fn sample(state: *mut lua_State) -> c_int {
    call(state, "map.sample", |args| {
        let (grid, count, seed, filter) = args::sample(args)?;
        let cells = sample::sample(&grid, count, seed, &filter).map_err(|e| e.to_string())?;
        Ok(Reply::Positions(Ok(cells)))
    })
}

/// `map.line(x1, y1, x2, y2)`: the cells of a straight line.
unsafe extern "C-unwind" fn line(state: *mut lua_State) -> c_int {
    call(state, "map.line", |args| {
        let (a, b) = args::line(args)?;
        Ok(Reply::Points(line::line(a, b)))
    })
}

/// `map.visible(m, x1, y1, x2, y2 [, options])`: whether the second cell
/// is in the first's field of view. It reads the target first: one that
/// is not opaque is decided by the cells on the ray to it alone
/// (`visible::along`), read one at a time up to the first that blocks; an
/// opaque one by the rectangle between the two.
unsafe extern "C-unwind" fn visible(state: *mut lua_State) -> c_int {
    call(state, "map.visible", |args| {
        let s = args::visible(args)?;
        let width = s.size.0;
        let target = args.cell_at(1, (s.to.x, s.to.y), width)?;
        let seen = if s.opaque[target as usize] {
            let w = s.window;
            let grid = args.window(1, (w.x, w.y), (w.w, w.h), width)?;
            let (from, to) = (w.inside(s.from), w.inside(s.to));
            visible::visible(&grid, from, to, s.radius, &s.opaque)
        } else {
            visible::along(s.from, s.to, s.radius, &s.opaque, |p| {
                args.cell_at(1, (p.x, p.y), width)
            })?
        };
        Ok(Reply::Boolean(seen))
    })
}

/// `map.parse(text)`: the map a text draws.
unsafe extern "C-unwind" fn parse(state: *mut lua_State) -> c_int {
    call(state, "map.parse", |args| {
        Ok(Reply::Parsed(Box::new(args::parse(args)?)))
    })
}

/// `map.autotile(m [, options])`: each cell's mask of its neighbours of the
/// same class, `false` for cells of no class.
unsafe extern "C-unwind" fn autotile(state: *mut lua_State) -> c_int {
    call(state, "map.autotile", |args| {
        let (grid, tile) = args::autotile(args)?;
        let masks = autotile::masks(&grid, &tile);
        let size = (grid.width(), grid.height());
        Ok(Reply::Rows(Box::new(push::Rows {
            size,
            window: Rect::whole(size),
            values: masks.iter().map(|m| m.map_or(BEYOND, i64::from)).collect(),
        })))
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
        Reply::Rows(rows) => push::push_rows_of_integers(state, rows),
        Reply::Positions(Ok(cells)) => push::push_positions(state, cells),
        Reply::Positions(Err(why)) => push::push_nil_and(state, why),
        #[cfg(feature = "luajit")]
        Reply::Parts(level) => luajit::push_level_parts(state, level),
        Reply::Cell(cell) => push::push_cell(state, *cell),
        Reply::Boolean(b) => push::push_boolean(state, *b),
        Reply::Points(points) => push::push_points(state, points),
        Reply::Parsed(parsed) => push::push_parsed(state, parsed),
        #[cfg(feature = "luajit")]
        Reply::Window(window) => luajit::push_window(state, *window),
        #[cfg(feature = "luajit")]
        Reply::ParsedSize(parsed) => luajit::push_parsed_size(state, parsed),
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
