//! A noise source (`map.noise`, `toolkit/noise.rs`) as a userdata: its
//! options, its methods `get` and `grid`, its properties.

use std::ffi::c_int;

use mlua::ffi::{self, lua_State};

use super::calling::call;
use super::cells::{after_cell, pair};
use super::native::{self, Fresh, Kind, Metatable};
use super::options::read_options;
use super::read::Args;
use super::Reply;
use crate::input::{self, Arg};
use crate::memory;
use crate::toolkit::noise::{self, Noise, Origin, Settings, MAX_COORDINATE};

pub const METATABLE: Metatable = Metatable {
    kind: Kind::Noise,
    methods: METHODS,
    tostring,
    metamethods: &[],
};

native::methods! {
    "noise" for Noise;
    get => |args, noise| {
        args.at_most(after_cell(args, 2) - 1)?;
        let (x, y) = point(args, 2, ("x", "y"), "point")?;
        Ok(Reply::Number(noise.get(x.value(), y.value())))
    },
    grid => grid_of,
}

/// `noise:grid(width, height [, x0, y0])`, the origin `x0, y0` or a
/// position: rows of `get(x0 + x - 1, y0 + y - 1)`.
fn grid_of(args: &Args, noise: &Noise) -> Result<Reply, String> {
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
    memory::check(memory::bound_noise(width * height))?;
    Ok(Reply::Numbers(Box::new(super::push::Numbers {
        width,
        height,
        values: noise.grid(width, height, x0, y0),
    })))
}

/// A coordinate: a finite number with `|v| <= 2^53`, an integer when it
/// is integral (whatever the interpreter made of it: LuaJIT's numbers are
/// all floats), else a float. `Origin::at` adds to an integer exactly and
/// to a float left to right, as Lua adds `x0 + x - 1`; the two agree on
/// both interpreters but where a sum passes 2^53.
fn coordinate(value: Arg, name: &dyn Fn() -> String) -> Result<Origin, String> {
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

impl Origin {
    fn value(self) -> f64 {
        match self {
            Origin::Int(i) => i as f64,
            Origin::Float(x) => x,
        }
    }
}

/// The options of `map.noise`.
const OPTIONS: &[&str] = &[
    "frequency",
    "kind",
    "lacunarity",
    "octaves",
    "persistence",
    "seed",
];

/// A number option in `[min, max]` (or `(min, max]` when `open`).
fn number_in(name: &str, value: Arg, (min, max): (f64, f64), open: bool) -> Result<f64, String> {
    let x = match value {
        Arg::Int(i) => i as f64,
        Arg::Float(x) => x,
        _ => f64::NAN,
    };
    if (x > min || (!open && x == min)) && x <= max {
        return Ok(x);
    }
    let bracket = if open { "(" } else { "[" };
    Err(format!(
        "{name} must be a number in {bracket}{min}, {max}], got {value}"
    ))
}

/// `map.noise{...}`'s settings.
fn settings(args: &Args) -> Result<Settings, String> {
    args.at_most(1)?;
    let mut s = Settings::DEFAULT;
    let mut seed = Arg::Missing;
    read_options(args, 1, OPTIONS, |name, value| {
        match name {
            "seed" => seed = value,
            "kind" => {
                s.kind = match value {
                    Arg::Str(b"simplex") => noise::Kind::Simplex,
                    Arg::Str(b"perlin") => noise::Kind::Perlin,
                    other => {
                        return Err(format!(
                            r#"kind must be "simplex" or "perlin", got {other}"#
                        ))
                    }
                }
            }
            "octaves" => {
                s.octaves = input::int_in(name, value, 1, noise::MAX_OCTAVES as i64)? as usize
            }
            "frequency" => s.frequency = number_in(name, value, (0.0, noise::MAX_FREQUENCY), true)?,
            "persistence" => {
                s.persistence = number_in(name, value, (0.0, noise::MAX_PERSISTENCE), false)?
            }
            _ => s.lacunarity = number_in(name, value, (1.0, noise::MAX_LACUNARITY), false)?,
        }
        Ok(())
    })?;
    s.seed = input::seed(seed)?;
    Ok(s)
}

/// `map.noise{seed =, kind =, octaves =, frequency =, persistence =,
/// lacunarity =}`: a noise source.
///
/// # Safety
/// See `EXPORTS` (mod.rs).
pub unsafe extern "C-unwind" fn new_noise(state: *mut lua_State) -> c_int {
    // SAFETY: Lua called this function with a valid state.
    unsafe {
        call(state, "map.noise", |args| {
            let settings = settings(args)?;
            Ok(Reply::NewNoise(Fresh::new(Noise::new(settings))))
        })
    }
}

/// `noise.seed`, `noise.kind`, `noise.octaves`, `noise.frequency`,
/// `noise.persistence`, `noise.lacunarity`: its settings; nil for any
/// other key.
///
/// # Safety
/// As `call`'s, called by `__index` with the noise and the key.
pub(super) unsafe fn property(state: *mut lua_State) -> c_int {
    // SAFETY: the caller's promise.
    unsafe {
        call(state, "noise", |args| {
            let s = native::this::<Noise>(args)?.settings();
            Ok(match args.get(2) {
                Arg::Str(b"seed") => Reply::Integer(s.seed),
                Arg::Str(b"kind") => Reply::Text(s.kind.name().as_bytes().to_vec()),
                Arg::Str(b"octaves") => Reply::Integer(s.octaves as i64),
                Arg::Str(b"frequency") => Reply::Number(s.frequency),
                Arg::Str(b"persistence") => Reply::Number(s.persistence),
                Arg::Str(b"lacunarity") => Reply::Number(s.lacunarity),
                _ => Reply::Nothing,
            })
        })
    }
}

/// `tostring(noise)`: `map.noise: simplex, 4 octaves, seed 42`.
///
/// # Safety
/// A Lua C function with the upvalues of `Upvalues::register`.
unsafe extern "C-unwind" fn tostring(state: *mut lua_State) -> c_int {
    // SAFETY: Lua called this function with a valid state.
    unsafe {
        native::tostring::<Noise>(state, |n| {
            let s = n.settings();
            let plural = if s.octaves == 1 { "" } else { "s" };
            format!(
                ": {}, {} octave{plural}, seed {}",
                s.kind.name(),
                s.octaves,
                s.seed
            )
        })
    }
}
