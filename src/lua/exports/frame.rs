//! `map.frame(m, x, y, w, h [, options])` and `lvl:frame(x, y, w, h [,
//! options])`: what a camera rectangle shows (`toolkit::frame`), as rows
//! of strings and of state digits for a terminal, or one string of 4 bytes
//! a cell for a graphics loop.

#![deny(unsafe_op_in_unsafe_fn)]

use std::borrow::Cow;
use std::ffi::c_int;

use mlua::ffi::{self, lua_State};

use crate::grid::{Grid, Pos, Rect};
use crate::input::{int_in, Arg, MAX_CELLS};
use crate::lua::shared::cells::field_position;
use crate::lua::shared::level_method::level_method;
use crate::lua::shared::options::read_options;
use crate::lua::stack::block::what;
use crate::lua::stack::call::function;
use crate::lua::stack::push::make_room;
use crate::lua::stack::{Args, Export, Field, Key, Reply};
use crate::memory;
use crate::native::field::{Cells, Field as NativeField};
use crate::toolkit::frame::{self, Camera, Flags, Mark, Scene};

pub const EXPORT: Export = Export {
    name: "frame",
    function: frame_fn,
    method: Some(level_frame),
    #[cfg(feature = "luajit")]
    helpers: &[],
};

function!(frame_fn, "map.frame", answer);

level_method!(level_frame, "level:frame", |args, _| answer(args));

/// The options, in byte order (`read_options`' message lists them).
const OPTIONS: &[&str] = &["blank", "bytes", "items", "light", "memory", "things", "visible"];
const AT: c_int = 6;

fn answer(args: &Args) -> Result<Drawn, String> {
    args.at_most(AT)?;
    let size = args.map_size(1)?;
    let camera = camera(args)?;
    let cells = camera.w * camera.h;
    memory::check(frame::bound(cells))?;
    let (mut blank, mut bytes) = (b' ', false);
    read_options(args, AT, OPTIONS, |name, value| {
        match name {
            "blank" => blank = one_char(name, value)?,
            "bytes" => bytes = boolean(name, value)?,
            _ => {}
        }
        Ok(())
    })?;
    let (corner, terrain) = terrain(args, camera, size)?;
    let visible = flags_option(args, Field::Visible, size)?;
    let memory = flags_option(args, Field::Memory, size)?;
    let things = marks(args, Field::Things, size)?;
    let items = marks(args, Field::Items, size)?;
    let light = light(args, camera, size, bytes)?;
    let scene = Scene {
        terrain: &terrain,
        corner,
        size,
        visible,
        memory,
        things: &things,
        items: &items,
        blank,
    };
    let made = frame::frame(&scene, camera);
    Ok(match bytes {
        true => Drawn::Bytes(frame::bytes(&made, light.as_deref())),
        false => {
            // States as digits, made here: nothing is allocated while pushing.
            let digits = made.states.iter().map(|&s| b'0' + s).collect();
            Drawn::Rows(made.w, made.chars, digits)
        }
    })
}

/// `x, y, w, h`: the camera, anywhere (its cells off the map are blank),
/// of at most `MAX_CELLS` cells.
fn camera(args: &Args) -> Result<Camera, String> {
    let far = MAX_CELLS as i64;
    let x = int_in("x", args.get(2), -far, far)?;
    let y = int_in("y", args.get(3), -far, far)?;
    let w = int_in("w", args.get(4), 1, far)? as usize;
    let h = int_in("h", args.get(5), 1, far)? as usize;
    if w.saturating_mul(h) > MAX_CELLS {
        return Err(format!(
            "the frame has {} cells ({w}x{h}), at most {MAX_CELLS}",
            w * h
        ));
    }
    Ok(Camera { x, y, w, h })
}

/// The rectangle of the map the camera covers, if any.
fn on_map(camera: Camera, (width, height): (usize, usize)) -> Option<Rect> {
    let span = |start: i64, len: usize, size: usize| {
        let first = start.max(1);
        let last = (start + len as i64 - 1).min(size as i64);
        (first <= last).then(|| (first as usize, (last - first + 1) as usize))
    };
    let (x, w) = span(camera.x, camera.w, width)?;
    let (y, h) = span(camera.y, camera.h, height)?;
    Some(Rect::new(x, y, w, h))
}

/// The terrain the camera shows and its top-left cell: a level's whole
/// terrain, in place; a table's cells under the camera, read and checked.
fn terrain(
    args: &Args,
    camera: Camera,
    size: (usize, usize),
) -> Result<(Pos, Cow<'_, Grid>), String> {
    if let Some(level) = args.level_at(1) {
        return Ok((Pos { x: 1, y: 1 }, Cow::Borrowed(level.terrain())));
    }
    Ok(match on_map(camera, size) {
        Some(r) => {
            let grid = args.window(1, (r.x, r.y), (r.w, r.h), size.0)?;
            (Pos { x: r.x, y: r.y }, Cow::Owned(grid))
        }
        None => (Pos { x: 1, y: 1 }, Cow::Owned(Grid::from_cells(0, 0, Vec::new()))),
    })
}

/// The option `field` (`visible`, `memory`): a field of flags over a map
/// of `size` (a field of view, a memory), or none.
fn flags_option(args: &Args, field: Field, size: (usize, usize)) -> Result<Option<Flags<'_>>, String> {
    let name = field.name();
    args.with_field(AT, Key::Field(field), |a, top| {
        if a.at(top) == Arg::Missing {
            return Ok(None);
        }
        let Some(f) = a.native_ref::<NativeField>(top) else {
            return Err(format!(
                "{name} must be a field of flags (lvl:fov, a memory), got {}",
                what(a, top)
            ));
        };
        let Cells::Flags(cells) = &f.cells else {
            return Err(format!("{name} must be a field of flags (lvl:fov, a memory), got a field of values"));
        };
        if f.size != size {
            let ((w, h), (mw, mh)) = (f.size, size);
            return Err(format!("{name} is a field of {w}x{h}, the map is {mw}x{mh}"));
        }
        Ok(Some(Flags {
            window: f.window,
            cells,
        }))
    })
}

/// The option `field` (`things`, `items`): a list of `{x=, y=, char=}` on
/// a map of `size`, or, on a level, `true` for the level's own things.
fn marks(args: &Args, field: Field, size: (usize, usize)) -> Result<Vec<Mark>, String> {
    let name = field.name();
    args.with_field(AT, Key::Field(field), |a, top| match a.at(top) {
        Arg::Missing => Ok(Vec::new()),
        Arg::Bool(true) => match a.level_at(1) {
            Some(level) => {
                memory::check(level.things().len() * std::mem::size_of::<Mark>())?;
                Ok(level
                    .things()
                    .iter()
                    .map(|&t| Mark {
                        at: level.thing_pos(t),
                        char: t.char,
                    })
                    .collect())
            }
            None => Err(format!(
                "{name} = true is a level's things: give a list of {{x=, y=, char=}} with a table map"
            )),
        },
        Arg::Other("table") => list(a, top, name, size),
        other => Err(format!(
            "{name} must be a list of {{x=, y=, char=}} or true, got {}",
            other.type_name()
        )),
    })
}

/// A list of `{x=, y=, char=}` at stack `index`, its length its border.
fn list(args: &Args, index: c_int, name: &str, (w, h): (usize, usize)) -> Result<Vec<Mark>, String> {
    let count = args.length(index);
    memory::check(count.saturating_mul(std::mem::size_of::<Mark>()))?;
    let mut out = Vec::with_capacity(count);
    for i in 1..=count {
        let mark = args.with_field(index, Key::Index(i), |a, entry| {
            if !a.is_table(entry) {
                return Err(format!(
                    "{name}[{i}] must be a table {{x=, y=, char=}}, got {}",
                    what(a, entry)
                ));
            }
            let at = field_position(a, entry, &|| format!("{name}[{i}]"), w, h)?;
            let char = a.with_field(entry, Key::Field(Field::Char), |a, c| a.at(c));
            let char = one_char(&format!("{name}[{i}].char"), char)?;
            Ok(Mark { at, char })
        })?;
        out.push(mark);
    }
    Ok(out)
}

/// The option `light`: a light map's rows (`map.light`'s one channel),
/// each cell under the camera as a byte (its value times 255, rounded),
/// 0 off the map; read only for the byte form.
fn light(args: &Args, camera: Camera, size: (usize, usize), bytes: bool) -> Result<Option<Vec<u8>>, String> {
    args.with_field(AT, Key::Field(Field::Light), |a, top| {
        if a.at(top) == Arg::Missing {
            return Ok(None);
        }
        if !bytes {
            return Err("light is drawn only in the byte form (bytes = true)".into());
        }
        if !a.is_table(top) {
            return Err(format!("light must be a table of rows of numbers (map.light), got {}", what(a, top)));
        }
        let mut out = vec![0u8; camera.w * camera.h];
        let Some(r) = on_map(camera, size) else {
            return Ok(Some(out));
        };
        let values = a.numbers(top, "light", (r.x, r.y), (r.w, r.h))?;
        let (dx, dy) = ((r.x as i64 - camera.x) as usize, (r.y as i64 - camera.y) as usize);
        for (i, v) in values.iter().enumerate() {
            let (c, row) = (i % r.w + dx, i / r.w + dy);
            out[row * camera.w + c] = (v * 255.0 + 0.5).floor() as u8;
        }
        Ok(Some(out))
    })
}

fn one_char(name: &str, value: Arg) -> Result<u8, String> {
    match value {
        Arg::Str(&[c]) => Ok(c),
        other => Err(format!("{name} must be a one-character string, got {other}")),
    }
}

fn boolean(name: &str, value: Arg) -> Result<bool, String> {
    match value {
        Arg::Bool(b) => Ok(b),
        other => Err(format!("{name} must be a boolean, got {other}")),
    }
}

/// A frame: its width, characters and state digits, or its bytes.
enum Drawn {
    Rows(usize, Vec<u8>, Vec<u8>),
    Bytes(Vec<u8>),
}

impl Reply for Drawn {
    unsafe fn push_on(&self, l: *mut lua_State) -> c_int {
        // SAFETY: `make_room` made the slots used: two tables and a row.
        unsafe {
            make_room(l, 3);
            match self {
                Drawn::Bytes(b) => {
                    ffi::lua_pushlstring(l, b.as_ptr().cast(), b.len());
                    1
                }
                Drawn::Rows(w, chars, digits) => {
                    push_strings(l, *w, chars);
                    push_strings(l, *w, digits);
                    2
                }
            }
        }
    }
}

/// A table of `bytes.len() / w` strings of `w` bytes each.
///
/// # Safety
/// The pushers' contract, two slots free.
unsafe fn push_strings(l: *mut lua_State, w: usize, bytes: &[u8]) {
    let h = bytes.len() / w;
    // SAFETY: the caller's contract; Lua copies each row.
    unsafe {
        ffi::lua_createtable(l, h.min(i32::MAX as usize) as c_int, 0);
        for (r, cells) in bytes.chunks(w).enumerate() {
            ffi::lua_pushlstring(l, cells.as_ptr().cast(), cells.len());
            ffi::lua_rawseti(l, -2, (r + 1) as ffi::lua_Integer);
        }
    }
}
