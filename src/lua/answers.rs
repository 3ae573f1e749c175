//! The answers of the toolkit's exports, which a level's methods share
//! (`level:path` is `map.path` on the level's cells): each reads its
//! arguments from `Args` and returns its `Reply`.

use crate::grid::{Pos, Rect};
use crate::memory;
use crate::toolkit::board::BEYOND;
use crate::toolkit::path::NoPath;
use crate::toolkit::{autotile, explore, flee, path, reach, sample, step, visible};

use super::read::Args;
use super::{cells, exports, push, search, sight, walks, Reply};

/// `reachable`'s answer, for a table or a level.
pub(super) fn answer_reachable(args: &Args) -> Result<Reply, String> {
    args.at_most(1)?;
    let walk = search::map_walk(args)?;
    let grid = cells::whole_map(args, 1, memory::bound_reach)?;
    Ok(Reply::Verdict(
        reach::check_blocked(&grid, &walk.blocked).map_err(|e| e.to_string()),
    ))
}

/// A search's values over its window, as the rows of the whole map.
pub(super) fn rows(s: &walks::SearchAsked, values: Vec<i64>) -> Reply {
    Reply::Rows(Box::new(push::Rows {
        size: s.size,
        window: s.window,
        values,
    }))
}

/// `path`'s answer, for a table or a level.
pub(super) fn answer_path(args: &Args) -> Result<Reply, String> {
    Ok(Reply::Positions(route(&walks::path(args)?)))
}

/// `step`'s answer, for a table or a level.
pub(super) fn answer_step(args: &Args) -> Result<Reply, String> {
    let s = walks::step(args)?;
    let to = step::step(&s.grid, &s.values, s.from, &s.walk, &s.closed);
    Ok(Reply::Cell(to.map(|p| s.window.outside(p))))
}

/// `explore`'s answer, for a table or a level.
pub(super) fn answer_explore(args: &Args) -> Result<Reply, String> {
    let asked = walks::explore(args)?;
    let mut r = walks::EXPLORE_RADIUS;
    loop {
        let window = asked.window(r);
        let whole = window == Rect::whole(asked.size);
        match explore_in(&asked.read(args, window, None)?, window, whole, r) {
            Some(found) => return Ok(Reply::Positions(found)),
            None => r = r.saturating_mul(2),
        }
    }
}

/// `sample`'s answer, for a table or a level.
pub(super) fn answer_sample(args: &Args) -> Result<Reply, String> {
    let (grid, count, seed, filter, draw) = exports::sample(args)?;
    let cells = sample::sample(&grid, count, seed, &filter).map_err(|e| e.to_string())?;
    draw.commit();
    Ok(Reply::Positions(Ok(cells)))
}

/// `visible`'s answer, for a table or a level.
pub(super) fn answer_visible(args: &Args) -> Result<Reply, String> {
    let s = sight::visible(args)?;
    let width = s.size.0;
    let target = args.cell_at(1, (s.to.x, s.to.y), width)?;
    let seen = if s.opaque[target as usize] {
        let w = s.window;
        let grid = args.window(1, (w.x, w.y), (w.w, w.h), width)?;
        let (from, to) = (w.inside(s.from), w.inside(s.to));
        visible::visible(&grid, from, to, s.radius, &s.opaque)
    } else {
        visible::along(s.from, s.to, s.radius, &s.opaque, |p| {
            args.cell_at(1, (p.x, p.y), width)
        })?
    };
    Ok(Reply::Boolean(seen))
}

/// `autotile`'s answer, for a table or a level.
pub(super) fn answer_autotile(args: &Args) -> Result<Reply, String> {
    let (grid, tile) = exports::autotile(args)?;
    let masks = autotile::masks(&grid, &tile);
    let size = (grid.width(), grid.height());
    Ok(Reply::Rows(Box::new(push::Rows {
        size,
        window: Rect::whole(size),
        values: masks.iter().map(|m| m.map_or(BEYOND, i64::from)).collect(),
    })))
}

/// `light`'s answer, for a table or a level.
pub(super) fn answer_light(args: &Args) -> Result<Reply, String> {
    let asked = sight::light(args)?;
    let (w, h) = asked.size;
    let channels = crate::toolkit::light::light(
        asked.size,
        &asked.cells,
        asked.area,
        &asked.lights,
        &asked.opaque,
        asked.ambient,
    );
    Ok(Reply::Lit(Box::new(push::Lit {
        width: w,
        height: h,
        channels,
    })))
}

/// The path `route` asks for, as cells of the map, or why there is none.
pub(super) fn route(r: &walks::PathAsked) -> Result<Vec<Pos>, String> {
    let (window, from, to) = (r.window, r.from, r.to);
    let found = if r.near {
        let (a, b) = (window.inside(from), window.inside(to));
        path::path_within(&r.grid, a, b, &r.walk, &r.limits)
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

/// The safety map `s` asks for, over its window, or the error of a value
/// too large, naming its cell of the map.
pub(super) fn safety_map(s: &walks::SearchAsked) -> Result<Vec<i64>, String> {
    flee::flee(&s.grid, &s.sources, &s.walk, &s.limits, s.factor).map_err(|e| {
        flee::Overflow {
            at: s.window.outside(e.at),
            ..e
        }
        .to_string()
    })
}

/// The answer `explore` finds in `window` (of radius `r`, or the whole
/// map), as cells of the map; `None` to read a larger window.
pub(super) fn explore_in(
    e: &walks::ExploreWindow,
    window: crate::grid::Rect,
    whole: bool,
    r: usize,
) -> Option<Result<Vec<Pos>, String>> {
    let max = (!whole).then(|| r as i64 - 1);
    match explore::explore_within(&e.grid, &e.known, e.start, &e.walk, &e.avoided, max) {
        Some(mut path) => {
            path.iter_mut().for_each(|p| *p = window.outside(*p));
            Some(Ok(path))
        }
        None if whole => Some(Err("explored".to_string())),
        None => None,
    }
}
