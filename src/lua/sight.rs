//! The arguments of the exports that look: `fov` and `visible`, with their
//! radius and opaque characters.

use std::borrow::Cow;
use std::ffi::c_int;

use super::cells::{after_cell, cell, field_position};
use super::options::{read_options, string_option};
use super::read::{Args, Field, Key};
use crate::grid::{byte_set, ByteSet, Grid, Pos, Rect};
use crate::input::{int_in, Arg, MAX_CELLS};
use crate::memory;
use crate::toolkit::light::{colored, Ambient, Light};

/// `fov`'s default: walls and closed doors block sight.
pub(super) const OPAQUE: &[u8] = b"#+";

/// What `map.fov` was asked: the window of the map it reads (the whole map
/// without a radius) and the origin within it.
pub struct FovAsked<'a> {
    pub height: usize,
    /// The window's top-left cell on the map.
    pub corner: (usize, usize),
    /// Its cells: on a level without a radius, its terrain, not a copy.
    pub window: Cow<'a, Grid>,
    pub origin: Pos,
    pub radius: Option<usize>,
    pub opaque: ByteSet,
}

/// What `map.fov`'s table is made of, besides the cells seen: the map's
/// height and the window's top-left cell and width.
pub struct Seen {
    pub height: usize,
    pub corner: (usize, usize),
    pub width: usize,
}

impl FovAsked<'_> {
    pub fn seen(&self) -> Seen {
        Seen {
            height: self.height,
            corner: self.corner,
            width: self.window.width(),
        }
    }
}

/// `fov(m, x, y [, radius [, options]])`. With a radius, only the rows and
/// cells within it are read (and checked): the work grows with the radius,
/// not with the map.
pub fn fov(args: &Args) -> Result<FovAsked<'_>, String> {
    let next = after_cell(args, 2);
    args.at_most(next + 1)?;
    let (width, height) = args.map_size(1)?;
    let origin = cell(args, 2, ("x", "y"), "origin", (width, height))?;
    let radius = radius(args.get(next), width + height)?;
    let opaque = opaque(args, next + 1)?;
    let reach = radius.unwrap_or(usize::MAX);
    let span = |c: usize, size: usize| {
        (
            c.saturating_sub(reach).max(1),
            c.saturating_add(reach).min(size),
        )
    };
    let ((x0, x1), (y0, y1)) = (span(origin.x, width), span(origin.y, height));
    let size = (x1 - x0 + 1, y1 - y0 + 1);
    memory::check(memory::bound_fov(size.0 * size.1))?;
    let window = match args.level_at(1) {
        Some(level) if size == (width, height) => Cow::Borrowed(level.terrain()),
        _ => Cow::Owned(args.window(1, (x0, y0), size, width)?),
    };
    Ok(FovAsked {
        height,
        corner: (x0, y0),
        window,
        origin: Pos {
            x: origin.x - x0 + 1,
            y: origin.y - y0 + 1,
        },
        radius,
        opaque,
    })
}

/// `fov`'s radius: none, or an integer >= 0, cut to `far` (past the map's
/// far corner a radius is no limit, and r * (r + 1) stays small).
pub(super) fn radius(arg: Arg, far: usize) -> Result<Option<usize>, String> {
    match arg {
        Arg::Missing => Ok(None),
        arg => Ok(Some(
            int_in("radius", arg, 0, i64::MAX)?.min(far as i64) as usize
        )),
    }
}

/// `fov`'s options: the characters that block sight.
pub(super) fn opaque(args: &Args, index: c_int) -> Result<ByteSet, String> {
    let mut opaque = byte_set(OPAQUE);
    // On a level, `into` (a memory to mark) is read by `level:fov`.
    let names: &[&str] = if args.is_method() {
        &["into", "opaque"]
    } else {
        &["opaque"]
    };
    read_options(args, index, names, |name, value| {
        if name == "opaque" {
            opaque = byte_set(string_option(name, value)?);
        }
        Ok(())
    })?;
    Ok(opaque)
}

/// What `visible` was asked: the map's size, the two cells, the radius
/// and the opaque characters, and the rectangle between the cells.
pub struct VisibleAsked {
    pub size: (usize, usize),
    pub from: Pos,
    pub to: Pos,
    pub radius: Option<usize>,
    pub opaque: ByteSet,
    pub window: Rect,
}

/// `visible(m, x1, y1, x2, y2 [, options])`, each cell `x, y` or a
/// position; no cell of the map is read yet.
pub fn visible(args: &Args) -> Result<VisibleAsked, String> {
    let second = after_cell(args, 2);
    let options_at = after_cell(args, second);
    args.at_most(options_at)?;
    let size = args.map_size(1)?;
    let from = cell(args, 2, ("x1", "y1"), "from", size)?;
    let to = cell(args, second, ("x2", "y2"), "to", size)?;
    let (radius, opaque, window) = visible_args(args, options_at, size, (from, to))?;
    Ok(VisibleAsked {
        size,
        from,
        to,
        radius,
        opaque,
        window,
    })
}

/// `visible`'s options at `options_at` (its radius and opaque characters)
/// for the cells `from` and `to` of a map of `size`, and the rectangle
/// between them, with its memory bound checked.
fn visible_args(
    args: &Args,
    options_at: c_int,
    size: (usize, usize),
    (from, to): (Pos, Pos),
) -> Result<(Option<usize>, ByteSet, Rect), String> {
    let (mut radius_given, mut opaque_chars) = (Arg::Missing, byte_set(OPAQUE));
    read_options(args, options_at, &["opaque", "radius"], |name, value| {
        match name {
            "opaque" => opaque_chars = byte_set(string_option(name, value)?),
            _ => radius_given = value,
        }
        Ok(())
    })?;
    let radius = radius(radius_given, size.0 + size.1)?;
    let (corner, (w, h)) = crate::toolkit::visible::between(from, to);
    memory::check(memory::bound_fov(w * h))?;
    let window = Rect {
        x: corner.x,
        y: corner.y,
        w,
        h,
    };
    Ok((radius, opaque_chars, window))
}

/// The most cells all lights' windows may hold together (the squares
/// within each one's radius, clipped to the map), each light counted
/// `LIGHT_CELLS` more for what it costs whatever its window (reading it,
/// its field of view's set-up), which bounds the work of one call: 17
/// times `MAX_CELLS` (16 lights over the largest map, and their due).
pub const MAX_LIGHT_CELLS: usize = 17 * MAX_CELLS;
pub const LIGHT_CELLS: usize = 64;

/// What `map.light` was asked: the map's size, the lights, the opaque
/// characters, the ambient level, and the cells of `area`, the rectangle
/// holding every light's window.
pub struct LightAsked {
    pub size: (usize, usize),
    pub lights: Vec<Light>,
    pub opaque: ByteSet,
    pub ambient: Ambient,
    pub area: Rect,
    pub cells: Grid,
}

/// `light(m, lights [, options])`: the lights read and checked, then the
/// options, then the cells of the rectangle the lights reach.
pub fn light(args: &Args) -> Result<LightAsked, String> {
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
    memory::check(memory::bound_lights(n))?;
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
    memory::check(memory::bound_light(size, area.w * area.h, channels))?;
    let cells = args.window(1, (area.x, area.y), (area.w, area.h), size.0)?;
    Ok(LightAsked {
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
