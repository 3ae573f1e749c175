//! The arguments of the exports that walk: `distances`, `flee`, `path`,
//! `step` and `explore`, over the search options of `search.rs`.

use std::cell::OnceCell;
use std::ffi::c_int;

use super::cells::{after_cell, cell};
use super::native;
use super::read::Args;
use super::search::{search_args, search_options, Search, SearchBound, DISTANCES};
use crate::grid::{Grid, Pos, Rect};
use crate::memory;
use crate::native::Bits;
use crate::toolkit::board::{Limits, Source, Walk, MAX_VALUE};

/// What `distances` and `flee` were asked, read: the window of the map
/// that a search within `max` can reach (all of it without `max`), its
/// cells, and the sources and limits as cells of it.
pub struct SearchAsked {
    pub size: (usize, usize),
    pub window: Rect,
    pub grid: Grid,
    pub sources: Vec<Source>,
    pub walk: Walk,
    pub limits: Limits,
    pub factor: f64,
}

/// `distances(m, sources [, options])`, or `flee`'s, whose options are
/// `accepted` (`DISTANCES` or `FLEE`), checked against `bound`.
pub fn searched(
    args: &Args,
    accepted: &[&'static str],
    bound: SearchBound,
) -> Result<SearchAsked, String> {
    args.at_most(3)?;
    let size = args.map_size(1)?;
    let asked = search_args(args, size, (2, 3), accepted, bound)?;
    let limits = asked.search.limits(args, asked.window, size)?;
    let w = asked.window;
    let grid = args.window(1, (w.x, w.y), (w.w, w.h), size.0)?;
    Ok(SearchAsked {
        size,
        window: w,
        grid,
        sources: asked.sources,
        walk: asked.search.walk,
        limits,
        factor: asked.search.factor,
    })
}

/// `path(m, x1, y1, x2, y2 [, options])`, each cell `x, y` or a position.
pub fn path(args: &Args) -> Result<PathAsked, String> {
    let second = after_cell(args, 2);
    let options_at = after_cell(args, second);
    args.at_most(options_at)?;
    let size = args.map_size(1)?;
    let from = cell(args, 2, ("x1", "y1"), "start", size)?;
    let to = cell(args, second, ("x2", "y2"), "goal", size)?;
    route(args, options_at, size, (from, to), |w| {
        args.window(1, (w.x, w.y), (w.w, w.h), size.0)
    })
}

/// The route from `from` to `to` on a map of `size` with the options at
/// `options_at`: its window (`route_window`), the limits read over it, and
/// its cells from `cells_of`, called once the memory bound is checked.
pub(super) fn route(
    args: &Args,
    options_at: c_int,
    size: (usize, usize),
    (from, to): (Pos, Pos),
    cells_of: impl FnOnce(Rect) -> Result<Grid, String>,
) -> Result<PathAsked, String> {
    let (search, window, near) = route_window(args, options_at, size, (from, to))?;
    let limits = search.limits(args, window, size)?;
    Ok(PathAsked {
        grid: cells_of(window)?,
        window,
        from,
        to,
        near,
        walk: search.walk,
        limits,
    })
}

/// The options at `options_at` of a path from `from` to `to` on a map of
/// `size`, the window its search from the goal can reach (within `max` of
/// the goal, or the whole map), and whether the start is in it (a start
/// farther is too far, and only the goal is read, to tell a blocked goal),
/// with the window's memory bound checked.
pub(super) fn route_window(
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
    memory::check(memory::bound_path(
        (window.w, window.h),
        search.walk.cost.is_some(),
    ))?;
    Ok((search, window, near))
}

/// What `path` was asked, read: the window its search from the goal can
/// reach, its cells, and the limits as cells of it; `from` and `to` are
/// cells of the map, and `near` says whether `from` is in the window.
pub struct PathAsked {
    pub grid: Grid,
    pub window: Rect,
    pub from: Pos,
    pub to: Pos,
    pub near: bool,
    pub walk: Walk,
    pub limits: Limits,
}

/// The options of `step` and `explore`.
const STEP: &[&str] = &["avoid", "blocked", "diagonal", "known"];
const EXPLORE: &[&str] = &["avoid", "blocked", "cost", "diagonal"];

/// What `step` was asked: the 3x3 window around the cell (clipped to the
/// map), its cells and values in `d`, the cell as one of it, the walk and
/// the closed cells of the window.
pub struct StepAsked {
    pub window: Rect,
    pub grid: Grid,
    pub values: Vec<i64>,
    pub from: Pos,
    pub walk: Walk,
    pub closed: Vec<bool>,
}

/// Argument `index` (`name` in messages) is a table, or on a level a
/// field (its rows are read later).
fn table_of_rows(args: &Args, index: c_int, name: &str) -> Result<(), String> {
    if args.is_table(index) || args.is_method() && native::field_at(args, index).is_some() {
        return Ok(());
    }
    let got = args.get(index).type_name();
    let or_field = if args.is_method() { " or a field" } else { "" };
    Err(format!(
        "{name} must be a table of rows{or_field}, got {got}"
    ))
}

/// `step(m, d, x, y [, options])`: only the cell and its neighbours are
/// read, of the map and of `d` (and of `known`).
pub fn step(args: &Args) -> Result<StepAsked, String> {
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
    Ok(StepAsked {
        from: window.inside(from),
        window,
        grid,
        values,
        walk: search.walk,
        closed,
    })
}

/// What `explore` was asked, before anything proportional to the map is
/// read: the map's size, the start, and the options.
pub(super) struct ExploreAsked {
    pub size: (usize, usize),
    pub start: Pos,
    search: Search,
    /// The cells `avoid` names, read at the first window and kept for the
    /// larger ones (`Search::avoided_bits`), so that `avoid` is read once.
    avoided: OnceCell<Bits>,
}

/// What `explore` reads of one window of the map: its cells, the cells
/// `known` marks and `avoid` names in it, the start as a cell of it, and
/// the walk.
pub struct ExploreWindow {
    pub grid: Grid,
    pub known: Vec<bool>,
    pub avoided: Vec<bool>,
    pub start: Pos,
    pub walk: Walk,
}

/// `explore(m, known, x, y [, options])`.
pub(super) fn explore(args: &Args) -> Result<ExploreAsked, String> {
    let next = after_cell(args, 3);
    args.at_most(next)?;
    let size = args.map_size(1)?;
    table_of_rows(args, 2, "known")?;
    let start = cell(args, 3, ("x", "y"), "start", size)?;
    explore_at(args, size, start, next)
}

/// `explore` from `start` on a map of `size`, its options at `options_at`.
pub(super) fn explore_at(
    args: &Args,
    size: (usize, usize),
    start: Pos,
    options_at: c_int,
) -> Result<ExploreAsked, String> {
    let search = search_options(args, options_at, EXPLORE)?;
    Ok(ExploreAsked {
        size,
        start,
        search,
        avoided: OnceCell::new(),
    })
}

/// The first radius `explore` reads around the start, before doubling it.
pub const EXPLORE_RADIUS: usize = 16;

impl ExploreAsked {
    /// The window of the cells within `r` of the start along each axis.
    pub fn window(&self, r: usize) -> Rect {
        Rect::around(self.start, r, self.size)
    }

    /// The cells of `window` that `avoid` names, row-major (empty without
    /// `avoid`).
    fn avoided_in(&self, args: &Args, window: Rect) -> Result<Vec<bool>, String> {
        if !self.search.avoids() {
            return Ok(Vec::new());
        }
        if self.avoided.get().is_none() {
            let bits = self.search.avoided_bits(args, self.size)?;
            self.avoided.get_or_init(|| bits);
        }
        let bits = self.avoided.get().expect("just read");
        let closed = self
            .search
            .limits_with(args, window, self.size.0, bits)?
            .closed;
        Ok(closed)
    }

    /// What the map table at 1 and the known rows at 2 hold in `window`
    /// (or `already_read`, the cells and known flags `luajit.lua` has read), after
    /// its memory bound is checked.
    pub(super) fn read(
        &self,
        args: &Args,
        window: Rect,
        already_read: Option<(Grid, Vec<bool>)>,
    ) -> Result<ExploreWindow, String> {
        let weighted = self.search.walk.cost.is_some();
        memory::check(memory::bound_explore((window.w, window.h), weighted))?;
        let avoided = self.avoided_in(args, window)?;
        let (corner, size) = ((window.x, window.y), (window.w, window.h));
        let (grid, known) = match already_read {
            Some(read) => read,
            None => {
                let known = args.flags(2, "known", corner, size)?;
                (args.window(1, corner, size, self.size.0)?, known)
            }
        };
        Ok(ExploreWindow {
            grid,
            known,
            avoided,
            start: window.inside(self.start),
            walk: self.search.walk.clone(),
        })
    }
}
