//! A noise source (`map.noise`, `toolkit/noise.rs`) as a userdata: its
//! kind, its methods `get` and `grid`, its properties.

#![deny(unsafe_op_in_unsafe_fn)]

use std::ffi::c_int;

use mlua::ffi::lua_State;

use crate::input::{self, Arg};
use crate::lua::shared::cells::{after_cell, pair};
use crate::lua::stack::block::{methods, native_method, reads, Kind, Native};
use crate::lua::stack::push::{make_room, push_number_rows};
use crate::lua::stack::{Args, Method, Reply};
use crate::memory;
use crate::toolkit::noise::{self, Noise, Origin, MAX_COORDINATE};

static KIND: Kind = Kind::new("noise", "noise", "a", b"mapnoise");

impl Native for Noise {
    fn kind() -> &'static Kind {
        &KIND
    }
    const METHODS: &'static [Method] = METHODS;
    type Property = Property;
    const HAS_PROPERTIES: bool = true;
    /// `noise.seed`, `noise.kind`, `noise.octaves`, `noise.frequency`,
    /// `noise.persistence`, `noise.lacunarity`: its settings; nil for any
    /// other key.
    fn property(&self, key: &[u8]) -> Option<Property> {
        let s = self.settings();
        Some(match key {
            b"seed" => Property::Integer(s.seed),
            b"kind" => Property::Text(s.kind.name()),
            b"octaves" => Property::Integer(s.octaves as i64),
            b"frequency" => Property::Number(s.frequency),
            b"persistence" => Property::Number(s.persistence),
            b"lacunarity" => Property::Number(s.lacunarity),
            _ => return None,
        })
    }
    /// `map.noise: simplex, 4 octaves, seed 42`.
    fn text(&self) -> String {
        let s = self.settings();
        let plural = if s.octaves == 1 { "" } else { "s" };
        format!(
            ": {}, {} octave{plural}, seed {}",
            s.kind.name(),
            s.octaves,
            s.seed
        )
    }
    fn bytes(&self) -> usize {
        Noise::bytes(self)
    }
}

methods! {
    "noise", native_method::<Noise, _>, reads::<Noise, _, _>;
    get => |args, noise: &Noise| {
        args.at_most(after_cell(args, 2) - 1)?;
        let (x, y) = point(args, 2, ("x", "y"), "point")?;
        Ok(noise.get(x.value(), y.value()))
    },
    grid => grid_of,
}

/// `noise:grid(width, height [, x0, y0])`, the origin `x0, y0` or a
/// position: rows of `get(x0 + x - 1, y0 + y - 1)`.
fn grid_of(args: &Args, noise: &Noise) -> Result<Numbers, String> {
    let origin_at = 4;
    let given = args.get(origin_at) != Arg::Missing || args.get(origin_at + 1) != Arg::Missing;
    args.at_most(match given {
        true => after_cell(args, origin_at) - 1,
        false => 3,
    })?;
    let (width, height) = input::size(args.get(2), args.get(3), 1, 1)?;
    let (x0, y0) = match given {
        true => point(args, origin_at, ("x0", "y0"), "origin")?,
        false => (Origin::Int(1), Origin::Int(1)),
    };
    noise.check_grid(width * height)?;
    memory::check(noise::bound_grid(width * height))?;
    Ok(Numbers {
        width,
        height,
        values: noise.grid(width, height, x0, y0),
    })
}

/// A coordinate: a finite number with `|v| <= 2^53`, an integer when it
/// is integral (whatever the interpreter made of it: LuaJIT's numbers are
/// all floats), else a float. `Origin::at` adds to an integer exactly and
/// to a float left to right, as Lua adds `x0 + x - 1`; the two agree on
/// both interpreters but where a sum passes 2^53.
pub fn coordinate(value: Arg, name: &dyn Fn() -> String) -> Result<Origin, String> {
    match value {
        Arg::Int(i) if i.unsigned_abs() <= MAX_COORDINATE as u64 => Ok(Origin::Int(i)),
        Arg::Float(x) if x.abs() <= MAX_COORDINATE => Ok(Origin::of(x)),
        other => Err(format!(
            "{} must be a number with |v| <= 2^53, got {other}",
            name()
        )),
    }
}

/// The point starting at argument `index`: `x, y` (called `names`) or a
/// position `{x=, y=}` (called `name`).
fn point(
    args: &Args,
    index: c_int,
    names: (&str, &str),
    name: &str,
) -> Result<(Origin, Origin), String> {
    pair(args, index, names, name, coordinate)
}

trait Value {
    fn value(self) -> f64;
}

impl Value for Origin {
    fn value(self) -> f64 {
        match self {
            Origin::Int(i) => i as f64,
            Origin::Float(x) => x,
        }
    }
}

/// Rows of numbers: `noise:grid`'s.
struct Numbers {
    width: usize,
    height: usize,
    /// Row-major.
    values: Vec<f64>,
}

impl Reply for Numbers {
    unsafe fn push_on(&self, l: *mut lua_State) -> c_int {
        // SAFETY: `make_room` made the slots `push_number_rows` uses.
        unsafe {
            make_room(l, 4);
            push_number_rows(l, self.width, self.height, &self.values);
        }
        1
    }
}

/// A property of a noise: one of its settings.
pub enum Property {
    Integer(i64),
    Number(f64),
    Text(&'static str),
}

impl Reply for Property {
    unsafe fn push_on(&self, l: *mut lua_State) -> c_int {
        // SAFETY: the pushers' contract.
        unsafe {
            match self {
                Property::Integer(n) => n.push_on(l),
                Property::Number(x) => x.push_on(l),
                Property::Text(text) => text.as_bytes().to_vec().push_on(l),
            }
        }
    }
    unsafe fn push_plain_on(&self, l: *mut lua_State) -> Option<c_int> {
        // SAFETY: as the caller's.
        unsafe {
            match self {
                Property::Integer(n) => n.push_plain_on(l),
                Property::Number(x) => x.push_plain_on(l),
                Property::Text(_) => None,
            }
        }
    }
}
