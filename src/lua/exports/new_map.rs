//! `map.new_map(width, height)`: a map of walls.

use crate::grid::{self, Grid, WALL};
use crate::input::size;
use crate::lua::stack::call::function;
use crate::lua::stack::replies::MapRows;
use crate::lua::stack::{Args, Export};
use crate::memory;

pub const EXPORT: Export = Export {
    name: "new_map",
    function: new_map,
    method: None,
    #[cfg(feature = "luajit")]
    helpers: &[],
};

function!(new_map, "map.new_map", |args: &Args| {
    args.at_most(2)?;
    let (width, height) = size(args.get(1), args.get(2), 1, 1)?;
    memory::check(grid::bound_new(width * height))?;
    Ok(MapRows(Grid::new(width, height, WALL)))
});
