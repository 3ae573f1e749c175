//! `map.render(m)`: the map as text, a line a row; `lvl:render()`: the
//! level's terrain with its things laid on it.

use crate::grid;
use crate::lua::shared::cells::whole_map;
use crate::lua::shared::level_method::level_method;
use crate::lua::stack::call::function;
use crate::lua::stack::{Args, Export};
use crate::memory;

pub const EXPORT: Export = Export {
    name: "render",
    function: render,
    method: Some(level_render),
    #[cfg(feature = "luajit")]
    helpers: &[],
};

function!(render, "map.render", |args: &Args| {
    args.at_most(1)?;
    Ok(whole_map(args, 1, grid::bound_render)?.render())
});

level_method!(level_render, "level:render", |args, level| {
    args.at_most(1)?;
    memory::check(grid::bound_render((level.width(), level.height())))?;
    Ok(level.laid().render())
});
