//! `map.visible(m, x1, y1, x2, y2 [, options])`: whether the second cell
//! is in the first's field of view; `lvl:visible` on the level.
//!
//! It reads the target first: one that is not opaque is decided by the
//! cells on the ray to it alone (`visible::along`), read one at a time up
//! to the first that blocks; an opaque one by the rectangle between the
//! two.

use std::ffi::c_int;

use crate::grid::{byte_set, ByteSet, Pos, Rect};
use crate::input::Arg;
use crate::lua::shared::cells::{after_cell, cell};
use crate::lua::shared::level_method::level_method;
use crate::lua::shared::options::{read_options, string_option};
use crate::lua::shared::sight::{radius, OPAQUE};
use crate::lua::stack::call::function;
use crate::lua::stack::{Args, Export};
use crate::memory;
use crate::toolkit::{fov, visible};

pub const EXPORT: Export = Export {
    name: "visible",
    function: visible,
    method: Some(level_visible),
    #[cfg(feature = "luajit")]
    helpers: &[],
};

function!(visible, "map.visible", answer);

level_method!(level_visible, "level:visible", |args, _| answer(args));

/// `visible`'s answer, for a table or a level.
fn answer(args: &Args) -> Result<bool, String> {
    let s = asked(args)?;
    let width = s.size.0;
    let target = args.cell_at(1, (s.to.x, s.to.y), width)?;
    if s.opaque[target as usize] {
        let w = s.window;
        let grid = args.window(1, (w.x, w.y), (w.w, w.h), width)?;
        let (from, to) = (w.inside(s.from), w.inside(s.to));
        return Ok(visible::visible(&grid, from, to, s.radius, &s.opaque));
    }
    visible::along(s.from, s.to, s.radius, &s.opaque, |p| {
        args.cell_at(1, (p.x, p.y), width)
    })
}

/// What `visible` was asked: the map's size, the two cells, the radius
/// and the opaque characters, and the rectangle between the cells.
struct Asked {
    size: (usize, usize),
    from: Pos,
    to: Pos,
    radius: Option<usize>,
    opaque: ByteSet,
    window: Rect,
}

/// `visible(m, x1, y1, x2, y2 [, options])`, each cell `x, y` or a
/// position; no cell of the map is read yet.
fn asked(args: &Args) -> Result<Asked, String> {
    let second = after_cell(args, 2);
    let options_at = after_cell(args, second);
    args.at_most(options_at)?;
    let size = args.map_size(1)?;
    let from = cell(args, 2, ("x1", "y1"), "from", size)?;
    let to = cell(args, second, ("x2", "y2"), "to", size)?;
    let (radius, opaque, window) = visible_args(args, options_at, size, (from, to))?;
    Ok(Asked {
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
    let (corner, (w, h)) = visible::between(from, to);
    memory::check(fov::bound(w * h))?;
    let window = Rect {
        x: corner.x,
        y: corner.y,
        w,
        h,
    };
    Ok((radius, opaque_chars, window))
}
