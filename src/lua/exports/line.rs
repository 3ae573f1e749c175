//! `map.line(x1, y1, x2, y2)`, each point `x, y` or a position: the cells
//! of a straight line, on any integer coordinates.

#![deny(unsafe_op_in_unsafe_fn)]

use std::ffi::c_int;

use mlua::ffi::{self, lua_State};

use crate::input::{Arg, MAX_CELLS};
use crate::lua::shared::cells::{after_cell, pair};
use crate::lua::stack::call::function;
use crate::lua::stack::push::{make_room, set_int};
use crate::lua::stack::{Args, Export, Reply};
use crate::toolkit::board::MAX_VALUE;
use crate::toolkit::line;

pub const EXPORT: Export = Export {
    name: "line",
    function: line,
    method: None,
    #[cfg(feature = "luajit")]
    helpers: &[],
};

function!(line, "map.line", |args: &Args| {
    let (a, b) = asked(args)?;
    Ok(Points(a, b))
});

/// A point on integer coordinates, anywhere.
type Point = (i64, i64);

/// A point of `line`, starting at argument `index`: integer coordinates
/// with `|v| <= 2^53`, as `x, y` (called `names`) or a position `name`.
fn point(args: &Args, index: c_int, names: (&str, &str), name: &str) -> Result<Point, String> {
    let coordinate = |value: Arg, what: &dyn Fn() -> String| match value.integer() {
        Some(v) if v.unsigned_abs() <= MAX_VALUE as u64 => Ok(v),
        _ => Err(format!(
            "{} must be an integer with |v| <= 2^53, got {value}",
            what()
        )),
    };
    pair(args, index, names, name, coordinate)
}

/// `line(x1, y1, x2, y2)`, each point `x, y` or a position: at most
/// `MAX_CELLS` cells.
fn asked(args: &Args) -> Result<(Point, Point), String> {
    let second = after_cell(args, 1);
    args.at_most(after_cell(args, second) - 1)?;
    let a = point(args, 1, ("x1", "y1"), "from")?;
    let b = point(args, second, ("x2", "y2"), "to")?;
    let n = a.0.abs_diff(b.0).max(a.1.abs_diff(b.1));
    if n >= MAX_CELLS as u64 {
        return Err(format!(
            "line has more than {MAX_CELLS} cells ({} steps)",
            n
        ));
    }
    Ok((a, b))
}

/// The line's cells, an array of `{x=, y=}` on any integer coordinates,
/// made as they are pushed (`line::cells`): nothing proportional to the
/// line is held in Rust, only the Lua result grows.
struct Points(Point, Point);

impl Reply for Points {
    unsafe fn push_on(&self, l: *mut lua_State) -> c_int {
        let points = line::cells(self.0, self.1);
        // SAFETY: `make_room` above made the slots it uses.
        unsafe {
            make_room(l, 6);
            ffi::lua_createtable(l, points.len() as c_int, 0);
            for (i, (x, y)) in points.enumerate() {
            ffi::lua_createtable(l, 0, 2);
            let t = ffi::lua_gettop(l);
            set_int(l, t, c"x", x);
            set_int(l, t, c"y", y);
            ffi::lua_rawseti(l, -2, i as ffi::lua_Integer + 1);
            }
            1
        }
    }
}
