//! `map.to_xp(m [, options])`: the map as a REXPaint image (`.xp`, the
//! gzipped bytes); `lvl:to_xp` on the level, its things laid on it.

use crate::editors::xp;
use crate::grid::Grid;
use crate::lua::shared::level_method::level_method;
use crate::lua::shared::glyphs::glyphs;
use crate::lua::stack::call::function;
use crate::lua::stack::{Args, Export};
use crate::memory;

pub const EXPORT: Export = Export {
    name: "to_xp",
    function: to_xp,
    method: Some(level_to_xp),
    #[cfg(feature = "luajit")]
    helpers: &[],
};

function!(to_xp, "map.to_xp", |args: &Args| {
    args.at_most(2)?;
    let size = args.map_size(1)?;
    let glyphs = glyphs(args, 2)?;
    memory::check(xp::bound_write(size) + size.0 * size.1)?;
    Ok(xp::write(&args.grid(1, size)?, &glyphs))
});

level_method!(level_to_xp, "level:to_xp", |args, level| {
    args.at_most(2)?;
    let glyphs = glyphs(args, 2)?;
    let size = (level.width(), level.height());
    memory::check(xp::bound_write(size) + size.0 * size.1)?;
    let laid: Grid = level.laid();
    Ok(xp::write(&laid, &glyphs))
});
