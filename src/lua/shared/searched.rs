//! What `distances` and `flee` were asked, read: the window of the map a
//! search within `max` can reach, its cells, the sources and the limits,
//! for the table functions, the level's methods and the LuaJIT route's
//! helpers alike.

use super::search::{search_args, search_on_map, Search, SearchBound};
use crate::grid::{Grid, Rect};
use crate::lua::stack::push::Rows;
use crate::lua::stack::Args;
use crate::native::field::Field;
use crate::native::Bits;
use crate::toolkit::board::{Charges, Limits, Source, Walk};
use crate::toolkit::distances::{reaching, search_parts, within};

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
    over(args, size, asked.window, asked.sources, &asked.search, None)
}

/// `searched`, over the windows apart that `search_parts` gives (sources
/// far apart within `max`: a search costs the cells near them, not the
/// box round them all), with the window round them all; one search over
/// that window when `search_parts` gives one or the options are read over
/// the window whole (`reads_in_parts`).
pub fn searched_in_parts(
    args: &Args,
    accepted: &[&'static str],
    bound: SearchBound,
) -> Result<(Rect, Vec<SearchAsked>), String> {
    args.at_most(3)?;
    let size = args.map_size(1)?;
    let asked = search_on_map(args, size, (2, 3), accepted, bound)?;
    let window = asked.window;
    let parts = match asked.search.reads_in_parts(args) {
        true => search_parts(&asked.sources, asked.search.max, size),
        false => vec![window],
    };
    if let [whole] = parts[..] {
        let sources = within(asked.sources, whole);
        return Ok((
            window,
            vec![over(args, size, whole, sources, &asked.search, None)?],
        ));
    }
    // `avoid` read once for all the parts, not once a part.
    let avoided = asked.search.avoided_once(args, size)?;
    // Only the sources within `max` start a search (the others may come
    // by the million): at most `MAX_PART_SOURCES`, each in one part.
    let reaching: Vec<Source> = reaching(&asked.sources, asked.search.max)
        .copied()
        .collect();
    let part = |&part: &Rect| {
        over(
            args,
            size,
            part,
            within(reaching.iter().copied(), part),
            &asked.search,
            avoided.as_ref(),
        )
    };
    Ok((window, parts.iter().map(part).collect::<Result<_, _>>()?))
}

/// The field of the `values` of the searches `searched_in_parts` gave:
/// one window's, or in parts within `window`.
pub fn field_of(
    window: Rect,
    searches: &[SearchAsked],
    values: impl Fn(&SearchAsked) -> Result<Vec<i64>, String>,
) -> Result<Field, String> {
    let field = |s: &SearchAsked| Ok(Field::values(s.size, s.window, values(s)?));
    match searches {
        [s] => field(s),
        _ => {
            let parts = searches.iter().map(field).collect::<Result<_, String>>()?;
            Ok(Field::parts(searches[0].size, window, parts))
        }
    }
}

/// What a search over `window` of a map of `size` from `sources` (cells
/// of the window) reads of the map and the options; the cells `avoid`
/// names from `avoided` when it was read already.
fn over(
    args: &Args,
    size: (usize, usize),
    window: Rect,
    sources: Vec<Source>,
    search: &Search,
    avoided: Option<&Bits>,
) -> Result<SearchAsked, String> {
    let limits = search.limits_from(args, window, size, avoided)?;
    let charges = search.charges_in(args, window);
    let grid = args.window(1, (window.x, window.y), (window.w, window.h), size.0)?;
    Ok(SearchAsked {
        size,
        window,
        grid,
        sources,
        walk: search.walk.clone(),
        limits,
        factor: search.factor,
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
