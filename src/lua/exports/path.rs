//! `map.path(m, x1, y1, x2, y2 [, options])`, each cell `x, y` or a
//! position: a shortest path, or nil and why; `lvl:path` on the level.

use std::ffi::c_int;

use crate::grid::{Grid, Pos, Rect};
use crate::lua::shared::cells::{after_cell, cell};
use crate::lua::shared::level_method::level_method;
use crate::lua::shared::search::{search_options, Search, DISTANCES};
use crate::lua::stack::call::function;
use crate::lua::stack::replies::Positions;
use crate::lua::stack::{Args, Export};
use crate::memory;
use crate::toolkit::board::{Charges, Limits, Walk, MAX_VALUE};
use crate::toolkit::path::{self, NoPath};

pub const EXPORT: Export = Export {
    name: "path",
    function: path,
    method: Some(level_path),
    #[cfg(feature = "luajit")]
    helpers: &[
        ("path_window", luajit::path_window),
        ("path_cells", luajit::path_cells),
    ],
};

function!(path, "map.path", answer);

level_method!(level_path, "level:path", |args, _| answer(args));

/// `path`'s answer, for a table or a level.
fn answer(args: &Args) -> Result<Positions, String> {
    let second = after_cell(args, 2);
    let options_at = after_cell(args, second);
    args.at_most(options_at)?;
    let size = args.map_size(1)?;
    let from = cell(args, 2, ("x1", "y1"), "start", size)?;
    let to = cell(args, second, ("x2", "y2"), "goal", size)?;
    let asked = route(args, options_at, size, (from, to), |w| {
        args.window(1, (w.x, w.y), (w.w, w.h), size.0)
    })?;
    Ok(Positions(found(&asked)))
}

/// What `path` was asked, read: the window its search from the goal can
/// reach, its cells, and the limits as cells of it; `from` and `to` are
/// cells of the map, and `near` says whether `from` is in the window.
struct Asked {
    grid: Grid,
    window: Rect,
    from: Pos,
    to: Pos,
    near: bool,
    walk: Walk,
    limits: Limits,
    charges: Charges,
}

/// The route from `from` to `to` on a map of `size` with the options at
/// `options_at`: its window (`route_window`), the limits read over it, and
/// its cells from `cells_of`, called once the memory bound is checked.
fn route(
    args: &Args,
    options_at: c_int,
    size: (usize, usize),
    (from, to): (Pos, Pos),
    cells_of: impl FnOnce(Rect) -> Result<Grid, String>,
) -> Result<Asked, String> {
    let (mut search, window, near) = route_window(args, options_at, size, (from, to))?;
    search.open_goal(to);
    let limits = search.limits(args, window, size)?;
    let charges = search.charges_in(args, window);
    Ok(Asked {
        grid: cells_of(window)?,
        window,
        from,
        to,
        near,
        walk: search.walk,
        limits,
        charges,
    })
}

/// The options at `options_at` of a path from `from` to `to` on a map of
/// `size`, the window its search from the goal can reach (within `max` of
/// the goal, or the whole map), and whether the start is in it (a start
/// farther is too far, and only the goal is read, to tell a blocked goal),
/// with the window's memory bound checked.
fn route_window(
    args: &Args,
    options_at: c_int,
    size: (usize, usize),
    (from, to): (Pos, Pos),
) -> Result<(Search, Rect, bool), String> {
    let search = search_options(args, options_at, DISTANCES)?;
    let mut window = search.max.map_or(Rect::whole(size), |max| {
        Rect::around(to, max.min(MAX_VALUE) as usize, size)
    });
    let near = window.contains(from);
    if !near {
        window = Rect::around(to, 0, size);
    }
    memory::check(path::bound((window.w, window.h), search.weighted()))?;
    Ok((search, window, near))
}

/// The path `r` asks for, as cells of the map, or why there is none.
fn found(r: &Asked) -> Result<Vec<Pos>, String> {
    let (window, from, to) = (r.window, r.from, r.to);
    let found = if r.near {
        let (a, b) = (window.inside(from), window.inside(to));
        path::path_charged(&r.grid, (a, b), &r.walk, &r.limits, &r.charges)
    } else {
        // Farther than `max`: the grid is the goal's cell alone.
        let open =
            !r.walk.blocked[r.grid.cells()[0] as usize] && r.limits.closed.first() != Some(&true);
        Err(path::too_far(from, to, open))
    };
    match found {
        Ok(mut cells) => {
            cells.iter_mut().for_each(|p| *p = window.outside(*p));
            Ok(cells)
        }
        Err(NoPath::GoalBlocked { .. }) => Err(NoPath::GoalBlocked { goal: to }.to_string()),
        Err(NoPath::NotConnected { .. }) => Err(NoPath::NotConnected { from, to }.to_string()),
    }
}

#[cfg(feature = "luajit")]
mod luajit {
    use super::{found, route, route_window};
    use crate::lua::shared::route::{checked_cell, integer, or_c_function, packed, read_window, Window};
    use crate::lua::stack::call::function;
    use crate::lua::stack::replies::{Either, Positions};
    use crate::lua::stack::Args;

    function!(
        /// The window of the map that `path` reads, for `(width, height, x1,
        /// y1, x2, y2, options)` of a map `luajit/tables.lua` has sized, the
        /// cells checked: four integers; raises `path`'s errors for the
        /// options.
        path_window,
        "map.path",
        |args: &Args| {
            let size = (integer(args, 1)?, integer(args, 2)?);
            let ends = (checked_cell(args, 3, size)?, checked_cell(args, 5, size)?);
            Ok(Window(route_window(args, 7, size, ends)?.1))
        }
    );

    function!(
        /// `path` on the window `luajit/tables.lua` has read, as `(cells,
        /// window width, width, height, window x, y, x1, y1, x2, y2,
        /// options)`: the path's cells as `packed` gives them, or nil and why.
        path_cells,
        "map.path",
        |args: &Args| {
            let size = (integer(args, 3)?, integer(args, 4)?);
            let (from, to) = (checked_cell(args, 7, size)?, checked_cell(args, 9, size)?);
            or_c_function(|| {
                let asked = route(args, 11, size, (from, to), |w| read_window(args, 5, w))?;
                Ok(match found(&asked) {
                    Ok(cells) => Either::Left(packed(&cells)),
                    Err(why) => Either::Right(Positions(Err(why))),
                })
            })
        }
    );
}
