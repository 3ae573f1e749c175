//! `map.generate_text(...)`: `render(generate(...))` without building the
//! table of rows (no rooms' exits worked out).

use crate::lua::shared::params;
use crate::lua::shared::seed::Seeded;
use crate::lua::stack::call::function;
use crate::lua::stack::{Args, Export};

pub const EXPORT: Export = Export {
    name: "generate_text",
    function: generate_text,
    method: None,
    #[cfg(feature = "luajit")]
    helpers: &[],
};

function!(generate_text, "map.generate_text", |args: &Args| {
    let (grid, draw) = params::level_grid(args)?;
    Ok(Seeded(grid.render(), draw))
});
