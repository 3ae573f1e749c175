//! `map.fov(m, x, y [, radius [, options]])`: the cells visible from a
//! cell, as rows of `true`; `lvl:fov(...)`: a field of them, or, with
//! `into` (a memory of the level), the count of cells seen, marked in it
//! (with `field = true`, marked in it and the field returned).

use std::borrow::Cow;
use std::ffi::c_int;

use crate::grid::{ByteSet, Grid, Pos, Rect};
use crate::input::Arg;
use crate::lua::shared::cells::{after_cell, cell};
use crate::lua::shared::level_method::level_method;
use crate::lua::shared::options::read_options;
use crate::lua::shared::sight::{opaque, radius};
use crate::lua::stack::call::function;
use crate::lua::stack::block::what;
use crate::lua::stack::replies::{Either, Visible};
use crate::lua::stack::{Args, Export, Field, Fresh, Key, Native};
use crate::memory;
use crate::native::field::{Cells, Field as NativeField};
use crate::toolkit::fov;

pub const EXPORT: Export = Export {
    name: "fov",
    function: fov,
    method: Some(level_fov),
    #[cfg(feature = "luajit")]
    helpers: &[("fov_cells", luajit::fov_cells)],
};

function!(fov, "map.fov", |args: &Args| {
    let asked = asked(args)?;
    let seen = fov::visible(&asked.window, asked.origin, asked.radius, &asked.opaque);
    Ok(Visible {
        height: asked.height,
        corner: asked.corner,
        width: asked.window.width(),
        seen,
    })
});

level_method!(level_fov, "level:fov", |args, _| {
    let asked = asked(args)?;
    let (x, y) = asked.corner;
    let window = Rect::new(x, y, asked.window.width(), asked.window.height());
    let size = args.map_size(1)?;
    let options_at = after_cell(args, 2) + 1;
    let into = args.with_field(options_at, Key::Field(Field::Into), |a, top| {
        match a.at(top) {
            Arg::Missing => Ok(None),
            // SAFETY: a field, not the level (`self`): nothing else refers to it.
            _ => unsafe { memory_at(a, top, size) }.map(Some),
        }
    })?;
    let field = wants_field(args, options_at)?;
    Ok(match into {
        // The turn's usual call: the scan marks the memory itself.
        Some(memory) if !field => Either::Left(mark(&asked, memory) as i64),
        Some(memory) => {
            let seen = fov::visible(&asked.window, asked.origin, asked.radius, &asked.opaque);
            memory.mark(window, &seen);
            Either::Right(Fresh::new(NativeField::flags(size, window, seen)))
        }
        None => {
            let seen = fov::visible(&asked.window, asked.origin, asked.radius, &asked.opaque);
            Either::Right(Fresh::new(NativeField::flags(size, window, seen)))
        }
    })
});

/// The cells `asked` sees, marked in `memory` (a memory of the whole map,
/// `memory_at`'s check), and their count.
fn mark(asked: &Asked<'_>, memory: &mut NativeField) -> usize {
    let width = memory.size.0;
    // `memory_at` lets only flags through.
    let Cells::Flags(flags) = &mut memory.cells else {
        return 0;
    };
    let out = fov::Out {
        flags,
        width,
        corner: asked.corner,
    };
    fov::mark(&asked.window, asked.origin, asked.radius, &asked.opaque, out)
}

/// `level:fov`'s option `field`: with `into`, return the field of what is
/// visible as well as marking it (`true`), or the count (`false`, the default).
fn wants_field(args: &Args, index: c_int) -> Result<bool, String> {
    let mut field = false;
    read_options(args, index, &["field", "into", "opaque"], |name, value| {
        if name == "field" {
            field = match value {
                Arg::Bool(b) => b,
                other => return Err(format!("field must be a boolean, got {other}")),
            };
        }
        Ok(())
    })?;
    Ok(field)
}

/// What `fov` was asked: the window of the map it reads (the whole map
/// without a radius) and the origin within it.
struct Asked<'a> {
    height: usize,
    /// The window's top-left cell on the map.
    corner: (usize, usize),
    /// Its cells: on a level without a radius, its terrain, not a copy.
    window: Cow<'a, Grid>,
    origin: Pos,
    radius: Option<usize>,
    opaque: ByteSet,
}

/// `fov(m, x, y [, radius [, options]])`. With a radius, only the rows and
/// cells within it are read (and checked): the work grows with the radius,
/// not with the map.
fn asked(args: &Args) -> Result<Asked<'_>, String> {
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
    memory::check(fov::bound(size.0 * size.1))?;
    let window = match args.level_at(1) {
        Some(level) if size == (width, height) => Cow::Borrowed(level.terrain()),
        _ => Cow::Owned(args.window(1, (x0, y0), size, width)?),
    };
    Ok(Asked {
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

/// The memory at `index` to mark (`level:fov{into =}`): a field of flags
/// over the whole of a map of `size`.
///
/// # Safety
/// The caller holds no other reference to that field while this one lives.
#[expect(
    clippy::mut_from_ref,
    reason = "the field lives in a userdata, not in `args`; the contract makes it unique"
)]
unsafe fn memory_at(
    args: &Args,
    index: c_int,
    size: (usize, usize),
) -> Result<&mut NativeField, String> {
    const WHAT: &str = "into must be a memory (map.field or level:field())";
    // SAFETY: as `this_mut`: the options table holds it during the call,
    // and nothing else refers to it (it is not `self`, a level).
    let Some(field) = args
        .native(index, NativeField::kind())
        .map(|value| unsafe { &mut *value.cast::<NativeField>() })
    else {
        return Err(format!("{WHAT}, got {}", what(args, index)));
    };
    if !field.is_flags() {
        return Err(format!("{WHAT}, got a field of values"));
    }
    if field.window != Rect::whole(field.size) {
        let w = field.window;
        return Err(format!("{WHAT}, got a field of {}x{}", w.w, w.h));
    }
    if field.size != size {
        let ((w, h), (lw, lh)) = (field.size, size);
        return Err(format!(
            "into is a memory of {w}x{h}, the level is {lw}x{lh}"
        ));
    }
    Ok(field)
}

#[cfg(feature = "luajit")]
mod luajit {
    use crate::grid::{ByteSet, Grid, Pos};
    use crate::lua::shared::cells::position;
    use crate::lua::shared::route::Cells;
    use crate::lua::shared::sight::{opaque, radius};
    use crate::lua::stack::call::function;
    use crate::lua::stack::Args;
    use crate::memory;
    use crate::toolkit::fov;

    function!(
        /// `fov` on a window `luajit/tables.lua` has read (see `asked`): one
        /// byte per window cell, 1 where visible.
        fov_cells,
        "map.fov",
        |args: &Args| {
            let (window, origin, radius, opaque) = asked(args)?;
            let seen = fov::visible(&window, origin, radius, &opaque);
            Ok(seen.into_iter().map(u8::from).collect::<Vec<u8>>())
        }
    );

    /// `fov` on a window that `luajit/tables.lua` has read and checked, as
    /// `(cells, window width, origin x, origin y, radius, options)`, the
    /// origin within the window and the radius as the caller gave it.
    fn asked(args: &Args) -> Result<(Grid, Pos, Option<usize>, ByteSet), String> {
        let cells = Cells::of(args)?;
        let (w, h) = (cells.width, cells.height());
        let origin = position(args.get(3), args.get(4), ("x", "y"), w, h)?;
        let radius = radius(args.get(5), w + h)?;
        let opaque = opaque(args, 6)?;
        memory::check(fov::bound(w * h))?;
        Ok((cells.grid(), origin, radius, opaque))
    }
}
