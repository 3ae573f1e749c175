//! `map.reachable(m)`: `true`, or `false` and why, whether every walkable
//! cell is reachable from `@`; `lvl:reachable()` on the level's terrain.

use crate::grid::PLAYER;
use crate::lua::shared::cells::whole_map;
use crate::lua::shared::level_method::level_method;
use crate::lua::shared::search::map_walk;
use crate::lua::stack::call::function;
use crate::lua::stack::replies::Verdict;
use crate::lua::stack::{Args, Export};
use crate::toolkit::reach;

pub const EXPORT: Export = Export {
    name: "reachable",
    function: reachable,
    method: Some(level_reachable),
    #[cfg(feature = "luajit")]
    helpers: &[("reach_cells", luajit::reach_cells)],
};

function!(reachable, "map.reachable", answer);

/// `reachable`'s answer, for a table.
fn answer(args: &Args) -> Result<Verdict, String> {
    args.at_most(1)?;
    let walk = map_walk(args)?;
    let grid = whole_map(args, 1, reach::bound)?;
    Ok(Verdict(
        reach::check_blocked(&grid, &walk.blocked).map_err(|e| e.to_string()),
    ))
}

// `map.reachable` of the level's terrain, with `@` at `level.player` where
// the player was moved out with the things.
level_method!(level_reachable, "level:reachable", |args, level| {
    args.at_most(1)?;
    let walk = map_walk(args)?;
    let mut grid = whole_map(args, 1, reach::bound)?;
    if let Some(meta) = level.meta() {
        if !grid.cells().contains(&PLAYER) {
            grid.set(meta.player, PLAYER);
        }
    }
    Ok(Verdict(
        reach::check_blocked(&grid, &walk.blocked).map_err(|e| e.to_string()),
    ))
});

#[cfg(feature = "luajit")]
mod luajit {
    use crate::lua::shared::route::Cells;
    use crate::lua::stack::call::function;
    use crate::lua::stack::replies::Verdict;
    use crate::lua::stack::Args;
    use crate::memory;
    use crate::toolkit::reach;

    function!(
        /// `reachable` on a map that `luajit/tables.lua` has read and
        /// checked, given as `(cells, width)`: row-major cells in one string.
        reach_cells,
        "map.reachable",
        |args: &Args| {
            let cells = Cells::of(args)?;
            memory::check(reach::bound((cells.width, cells.height())))?;
            Ok(Verdict(reach::check(&cells.grid()).map_err(|e| e.to_string())))
        }
    );
}
