//! `map.light(m, lights [, options])`: a light map, each light lighting
//! the cells it sees, falling off with the distance; `lvl:light` on the
//! level.

#![deny(unsafe_op_in_unsafe_fn)]

use std::ffi::c_int;

use mlua::ffi::{self, lua_State};

use crate::grid::{byte_set, ByteSet, Grid, Rect};
use crate::input::{int_in, Arg, MAX_CELLS};
use crate::lua::shared::cells::field_position;
use crate::lua::shared::level_method::level_method;
use crate::lua::shared::options::{read_options, string_option};
use crate::lua::shared::sight::OPAQUE;
use crate::lua::stack::call::function;
use crate::lua::stack::push::{make_room, push_number_rows};
use crate::lua::stack::{Args, Export, Field, Key, Reply};
use crate::memory;
use crate::toolkit::light::{self, colored, Ambient, Light};

pub const EXPORT: Export = Export {
    name: "light",
    function: light,
    method: Some(level_light),
    #[cfg(feature = "luajit")]
    helpers: &[],
};

function!(light, "map.light", answer);

level_method!(level_light, "level:light", |args, _| answer(args));

/// `light`'s answer, for a table or a level.
fn answer(args: &Args) -> Result<Lit, String> {
    let asked = asked(args)?;
    let (width, height) = asked.size;
    let channels = light::light(
        asked.size,
        &asked.cells,
        asked.area,
        &asked.lights,
        &asked.opaque,
        asked.ambient,
    );
    Ok(Lit {
        width,
        height,
        channels,
    })
}

/// A light map: its one channel's rows, or `{r =, g =, b =}` of three.
struct Lit {
    width: usize,
    height: usize,
    channels: Vec<Vec<f64>>,
}

impl Reply for Lit {
    unsafe fn push_on(&self, l: *mut lua_State) -> c_int {
        // SAFETY: `make_room` made the slots used: the table, a channel's
        // rows and a row, with a value.
        unsafe {
            make_room(l, 5);
            let (w, h) = (self.width, self.height);
            if let [one] = self.channels.as_slice() {
                push_number_rows(l, w, h, one);
                return 1;
            }
            ffi::lua_createtable(l, 0, 3);
            for (key, channel) in [c"r", c"g", c"b"].iter().zip(&self.channels) {
                push_number_rows(l, w, h, channel);
                ffi::lua_setfield(l, -2, key.as_ptr());
            }
            1
        }
    }
}

/// The most cells all lights' windows may hold together (the squares
/// within each one's radius, clipped to the map), each light counted
/// `LIGHT_CELLS` more for what it costs whatever its window (reading it,
/// its field of view's set-up), which bounds the work of one call: 17
/// times `MAX_CELLS` (16 lights over the largest map, and their due).
const MAX_LIGHT_CELLS: usize = 17 * MAX_CELLS;
const LIGHT_CELLS: usize = 64;

/// What `map.light` was asked: the map's size, the lights, the opaque
/// characters, the ambient level, and the cells of `area`, the rectangle
/// holding every light's window.
struct Asked {
    size: (usize, usize),
    lights: Vec<Light>,
    opaque: ByteSet,
    ambient: Ambient,
    area: Rect,
    cells: Grid,
}

/// `light(m, lights [, options])`: the lights read and checked, then the
/// options, then the cells of the rectangle the lights reach.
fn asked(args: &Args) -> Result<Asked, String> {
    args.at_most(3)?;
    let size = args.map_size(1)?;
    const WHAT: &str = "lights must be an array of lights {x=, y=, radius=}";
    if !args.is_table(2) {
        return Err(format!("{WHAT}, got {}", args.get(2).type_name()));
    }
    let n = args.length(2);
    if n > MAX_CELLS {
        return Err(format!("lights has more than {MAX_CELLS} lights"));
    }
    memory::check(light::bound_lights(n))?;
    let lights = (1..=n)
        .map(|i| args.with_field(2, Key::Index(i), |a, top| one_light(a, top, i, size)))
        .collect::<Result<Vec<Light>, String>>()?;
    let (opaque, ambient) = light_options(args, 3)?;
    let windows = lights.iter().map(|l| l.window(size));
    let reach = windows
        .clone()
        .fold(0usize, |sum, w| sum.saturating_add(w.w * w.h + LIGHT_CELLS));
    if reach > MAX_LIGHT_CELLS {
        return Err(format!(
            "lights reach {reach} cells in all (the squares within their radii, and {LIGHT_CELLS} a \
             light), at most {MAX_LIGHT_CELLS}"
        ));
    }
    let area = windows
        .reduce(|a, b| a.union(&b))
        .unwrap_or(Rect::new(1, 1, 1, 1));
    let channels = if colored(&lights, ambient) { 3 } else { 1 };
    memory::check(light::bound(size, area.w * area.h, channels))?;
    let cells = args.window(1, (area.x, area.y), (area.w, area.h), size.0)?;
    Ok(Asked {
        size,
        lights,
        opaque,
        ambient,
        area,
        cells,
    })
}

/// `lights[i]`, the value at `top`: `{x=, y=, radius=, intensity=, color=}`.
fn one_light(args: &Args, top: c_int, i: usize, (w, h): (usize, usize)) -> Result<Light, String> {
    let name = || format!("lights[{i}]");
    if !args.is_table(top) {
        let got = args.at(top).type_name();
        return Err(format!(
            "{} must be a light {{x=, y=, radius=}}, got {got}",
            name()
        ));
    }
    let pos = field_position(args, top, &name, w, h)?;
    let field = |f: Field| args.with_field(top, Key::Field(f), |a, v| a.at(v));
    let radius = int_in(
        &format!("{}.radius", name()),
        field(Field::Radius),
        0,
        i64::MAX,
    )? as u64;
    let intensity = match field(Field::Intensity) {
        Arg::Missing => 1.0,
        v => match v {
            Arg::Int(n) if n >= 0 => n as f64,
            Arg::Float(x) if x.is_finite() && x >= 0.0 => x,
            other => {
                return Err(format!(
                    "{}.intensity must be a finite number >= 0, got {other}",
                    name()
                ))
            }
        },
    };
    let color = match field(Field::Color) {
        Arg::Missing => None,
        _ => Some(args.with_field(top, Key::Field(Field::Color), |a, c| {
            colour(a, c, &format!("{}.color", name()))
        })?),
    };
    Ok(Light {
        pos,
        radius,
        intensity,
        color,
    })
}

/// The colour at `top`, called `name`: `{r, g, b}` or `{r=, g=, b=}`, each
/// a number from 0 to 1.
fn colour(args: &Args, top: c_int, name: &str) -> Result<[f64; 3], String> {
    if !args.is_table(top) {
        return Err(format!(
            "{name} must be a colour {{r, g, b}} or {{r=, g=, b=}}, got {}",
            args.at(top).type_name()
        ));
    }
    let by_name = [Field::R, Field::G, Field::B];
    let named = by_name
        .iter()
        .any(|&f| args.with_field(top, Key::Field(f), |a, v| a.at(v)) != Arg::Missing);
    let mut out = [0.0; 3];
    for (k, slot) in out.iter_mut().enumerate() {
        let (value, what) = match named {
            true => (
                args.with_field(top, Key::Field(by_name[k]), |a, v| a.at(v)),
                format!("{name}.{}", by_name[k].name()),
            ),
            false => (
                args.with_field(top, Key::Index(k + 1), |a, v| a.at(v)),
                format!("{name}[{}]", k + 1),
            ),
        };
        *slot = match value {
            Arg::Int(n) if (0..=1).contains(&n) => n as f64,
            Arg::Float(x) if (0.0..=1.0).contains(&x) => x,
            other => return Err(format!("{what} must be a number from 0 to 1, got {other}")),
        };
    }
    Ok(out)
}

/// `light`'s options: the opaque characters and the ambient level (a
/// number from 0 to 1, or a colour).
fn light_options(args: &Args, index: c_int) -> Result<(ByteSet, Ambient), String> {
    let (mut opaque, mut ambient) = (byte_set(OPAQUE), Ambient::Grey(0.0));
    read_options(args, index, &["ambient", "opaque"], |name, value| {
        match (name, value) {
            ("opaque", v) => opaque = byte_set(string_option(name, v)?),
            (_, Arg::Int(n)) if (0..=1).contains(&n) => ambient = Ambient::Grey(n as f64),
            (_, Arg::Float(x)) if (0.0..=1.0).contains(&x) => ambient = Ambient::Grey(x),
            (_, Arg::Other("table")) => {
                let c = args.with_field(index, Key::Field(Field::Ambient), |a, top| {
                    colour(a, top, "ambient")
                })?;
                ambient = Ambient::Color(c);
            }
            (_, other) => {
                return Err(format!(
                    "ambient must be a number from 0 to 1 or a colour {{r, g, b}}, got {other}"
                ))
            }
        }
        Ok(())
    })?;
    Ok((opaque, ambient))
}
