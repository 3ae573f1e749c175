//! `map.step(m, d, x, y [, options])`: the neighbour to step to down the
//! distance map `d`, as `x, y`, or nil; `lvl:step` on the level, `d` a
//! table of rows or a field.

use crate::grid::{Grid, Pos, Rect};
use crate::lua::shared::cells::{after_cell, cell, table_of_rows};
use crate::lua::shared::level_method::level_method;
use crate::lua::shared::search::search_options;
use crate::lua::stack::call::function;
use crate::lua::stack::replies::Cell;
use crate::lua::stack::{Args, Export};
use crate::toolkit::board::Walk;
use crate::toolkit::step;

pub const EXPORT: Export = Export {
    name: "step",
    function: step,
    method: Some(level_step),
    #[cfg(feature = "luajit")]
    helpers: &[],
};

function!(step, "map.step", answer);

level_method!(level_step, "level:step", |args, _| answer(args));

/// The options of `step`.
const STEP: &[&str] = &["avoid", "blocked", "diagonal", "known"];

/// `step`'s answer, for a table or a level.
fn answer(args: &Args) -> Result<Cell, String> {
    let s = asked(args)?;
    let to = step::step(&s.grid, &s.values, s.from, &s.walk, &s.closed);
    Ok(Cell(to.map(|p| s.window.outside(p))))
}

/// What `step` was asked: the 3x3 window around the cell (clipped to the
/// map), its cells and values in `d`, the cell as one of it, the walk and
/// the closed cells of the window.
struct Asked {
    window: Rect,
    grid: Grid,
    values: Vec<i64>,
    from: Pos,
    walk: Walk,
    closed: Vec<bool>,
}

/// `step(m, d, x, y [, options])`: only the cell and its neighbours are
/// read, of the map and of `d` (and of `known`).
fn asked(args: &Args) -> Result<Asked, String> {
    let next = after_cell(args, 3);
    args.at_most(next)?;
    let size = args.map_size(1)?;
    table_of_rows(args, 2, "d")?;
    let from = cell(args, 3, ("x", "y"), "from", size)?;
    let search = search_options(args, next, STEP)?;
    let window = Rect::around(from, 1, size);
    let closed = search.limits(args, window, size)?.closed;
    let values = args.values(2, "d", (window.x, window.y), (window.w, window.h))?;
    let grid = args.window(1, (window.x, window.y), (window.w, window.h), size.0)?;
    Ok(Asked {
        from: window.inside(from),
        window,
        grid,
        values,
        walk: search.walk,
        closed,
    })
}
