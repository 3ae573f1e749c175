//! What `distances` and `flee` were asked, read: the window of the map a
//! search within `max` can reach, its cells, the sources and the limits,
//! for the table functions, the level's methods and the LuaJIT route's
//! helpers alike.

use super::search::{search_args, SearchBound};
use crate::grid::{Grid, Rect};
use crate::lua::stack::push::Rows;
use crate::lua::stack::Args;
use crate::toolkit::board::{Charges, Limits, Source, Walk};

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
    /// What steps cost besides their cells (`distances`' `diagonal`,
    /// `straight` and `occupied` costs).
    pub charges: Charges,
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
    let charges = asked.search.charges_in(args, asked.window);
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
        charges,
    })
}

/// A search's values over its window, as the rows of the whole map.
pub fn rows(s: &SearchAsked, values: Vec<i64>) -> Rows {
    Rows {
        size: s.size,
        window: s.window,
        values,
    }
}
