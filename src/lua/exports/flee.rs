//! `map.flee(m, sources [, options])`: a safety map (the distances scaled
//! by `factor` and rescanned), as rows; `lvl:flee`: a field of it, also
//! from a distance field the game already has.

use crate::lua::shared::level_method::level_method;
use crate::lua::shared::search::{search_options, Search, FLEE};
use crate::lua::shared::searched::{field_of, rows, searched, searched_in_parts, SearchAsked};
use crate::lua::stack::call::function;
use crate::lua::stack::{Args, Export, Fresh, Native};
use crate::memory;
use crate::native::field::{Cells, Field};
use crate::native::{Bits, NativeLevel};
use crate::toolkit::flee;

pub const EXPORT: Export = Export {
    name: "flee",
    function: flee,
    method: Some(level_flee),
    #[cfg(feature = "luajit")]
    helpers: &[
        ("flee_window", luajit::flee_window),
        ("flee_cells", luajit::flee_cells),
    ],
};

function!(flee, "map.flee", |args: &Args| {
    let s = searched(args, FLEE, flee::bound)?;
    Ok(rows(&s, safety_map(&s)?))
});

level_method!(level_flee, "level:flee", flee_on_level);

/// The safety map `s` asks for, over its window, or the error of a value
/// too large, naming its cell of the map.
fn safety_map(s: &SearchAsked) -> Result<Vec<i64>, String> {
    flee::flee(&s.grid, &s.sources, &s.walk, &s.limits, s.factor).map_err(|e| {
        flee::Overflow {
            at: s.window.outside(e.at),
            ..e
        }
        .to_string()
    })
}

/// `flee`'s options from a field: its search is done, so no `max`.
const FLEE_FROM_FIELD: &[&str] = &["avoid", "blocked", "cost", "diagonal", "factor", "known"];

/// `level:flee(sources [, options])` as `map.flee`, or `level:flee(d [,
/// options])` from a distance field `d` the game already has: its values
/// scaled and rescanned over its window, without searching again.
fn flee_on_level(args: &Args, level: &NativeLevel) -> Result<Fresh<Field>, String> {
    if args.native_freed(2, Field::kind()) {
        return Err("d must be a field of values of the level's size, got a freed field".into());
    }
    let Some(d) = args.native_ref::<Field>(2) else {
        let (window, searches) = searched_in_parts(args, FLEE, flee::bound)?;
        return match field_of(window, &searches, safety_map) {
            Ok(field) => Ok(Fresh::new(field)),
            Err(e) if searches.len() == 1 => Err(e),
            // A value too large in a part: named as the search over the
            // window whole names it (its first cell in row order).
            Err(_) => {
                let s = searched(args, FLEE, flee::bound)?;
                Ok(Fresh::new(Field::values(s.size, s.window, safety_map(&s)?)))
            }
        };
    };
    args.at_most(3)?;
    let size = (level.width(), level.height());
    if d.is_flags() || d.size != size {
        return Err(format!(
            "d must be a field of values of the level's size, got a field of {}{}x{}",
            if d.is_flags() { "flags, " } else { "" },
            d.size.0,
            d.size.1
        ));
    }
    let search = search_options(args, 3, FLEE_FROM_FIELD)?;
    let w = d.window;
    memory::check(flee::bound((w.w, w.h), 1, search.walk.cost.is_some()))?;
    if let Cells::Parts(parts) = &d.cells {
        // Each part rescanned alone (no step joins two: `search_parts`);
        // a value too large is named as the window whole names it.
        if search.reads_in_parts(args) {
            // `avoid` read once for all the parts, not once a part.
            let avoided = search.avoided_once(args, size)?;
            let parts = parts
                .iter()
                .map(|part| rescanned(args, &search, part, avoided.as_ref()));
            if let Ok(parts) = parts.collect::<Result<Vec<Field>, String>>() {
                return Ok(Fresh::new(Field::parts(size, w, parts)));
            }
        }
    }
    Ok(Fresh::new(rescanned(args, &search, d, None)?))
}

/// The safety field from the distance field `d` (of the level at 1),
/// rescanned over its window as `search` says; the cells `avoid` names
/// from `avoided` when it was read already.
fn rescanned(args: &Args, search: &Search, d: &Field, avoided: Option<&Bits>) -> Result<Field, String> {
    let w = d.window;
    let limits = search.limits_from(args, w, d.size, avoided)?;
    let grid = args.window(1, (w.x, w.y), (w.w, w.h), d.size.0)?;
    let values = flee::rescan(&grid, d.values_in(w), &search.walk, &limits, search.factor)
        .map_err(|e| {
            let at = w.outside(e.at);
            flee::Overflow { at, ..e }.to_string()
        })?;
    Ok(Field::values(d.size, w, values))
}

#[cfg(feature = "luajit")]
mod luajit {
    use crate::lua::shared::route::{doubles, integer, or_c_function, searched_cells, Window};
    use crate::lua::shared::search::{search_args, FLEE};
    use crate::lua::stack::call::function;
    use crate::lua::stack::Args;
    use crate::toolkit::flee;

    function!(
        /// The window of the map that `flee` reads, as `distances_window`
        /// does `distances`'.
        flee_window,
        "map.flee",
        |args: &Args| {
            let size = (integer(args, 1)?, integer(args, 2)?);
            let asked = search_args(args, size, (3, 4), FLEE, flee::bound)?;
            Ok(Window(asked.window))
        }
    );

    function!(
        /// `flee` as `distances_cells` does `distances`.
        flee_cells,
        "map.flee",
        |args: &Args| {
            or_c_function(|| {
                let s = searched_cells(args, FLEE, flee::bound)?;
                Ok(doubles(&super::safety_map(&s)?))
            })
        }
    );
}
