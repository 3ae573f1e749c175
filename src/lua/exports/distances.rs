//! `map.distances(m, sources [, options])`: a Dijkstra map, as rows of the
//! steps from the nearest source (`false` where unreached); `lvl:distances`:
//! a field of them.

use crate::lua::shared::level_method::level_method;
use crate::lua::shared::search::DISTANCES;
use crate::lua::shared::searched::{field_of, rows, searched, searched_in_parts, SearchAsked};
use crate::lua::stack::call::function;
use crate::lua::stack::{Args, Export, Fresh};
use crate::toolkit::distances::{self, distances_charged};

pub const EXPORT: Export = Export {
    name: "distances",
    function: distances,
    method: Some(level_distances),
    #[cfg(feature = "luajit")]
    helpers: &[
        ("distances_window", luajit::distances_window),
        ("distances_cells", luajit::distances_cells),
    ],
};

function!(distances, "map.distances", |args: &Args| {
    let s = searched(args, DISTANCES, distances::bound)?;
    Ok(rows(&s, values(&s)))
});

level_method!(level_distances, "level:distances", |args, _| {
    let (window, searches) = searched_in_parts(args, DISTANCES, distances::bound)?;
    Ok(Fresh::new(field_of(window, &searches, |s| Ok(values(s)))?))
});

/// The distances over the window searched.
fn values(s: &SearchAsked) -> Vec<i64> {
    distances_charged(&s.grid, &s.sources, &s.walk, &s.limits, &s.charges)
}

#[cfg(feature = "luajit")]
mod luajit {
    use crate::lua::shared::route::{doubles, integer, or_c_function, searched_cells, Window};
    use crate::lua::shared::search::{search_args, DISTANCES};
    use crate::lua::stack::call::function;
    use crate::lua::stack::Args;
    use crate::toolkit::distances;

    function!(
        /// The window of the map that `distances` reads, for `(width,
        /// height, sources, options)` of a map `luajit/tables.lua` has
        /// sized: its top-left cell and size, four integers; raises the
        /// function's errors for the sources and options.
        distances_window,
        "map.distances",
        |args: &Args| {
            let size = (integer(args, 1)?, integer(args, 2)?);
            let asked = search_args(args, size, (3, 4), DISTANCES, distances::bound)?;
            Ok(Window(asked.window))
        }
    );

    function!(
        /// `distances` on the window `luajit/tables.lua` has read (see
        /// `searched_cells`): one native-endian double per cell of the
        /// window, NaN where unreached (LuaJIT's numbers are doubles, and
        /// every value lies within 2^53).
        distances_cells,
        "map.distances",
        |args: &Args| {
            or_c_function(|| {
                let s = searched_cells(args, DISTANCES, distances::bound)?;
                Ok(doubles(&super::values(&s)))
            })
        }
    );
}
