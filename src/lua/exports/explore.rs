//! `map.explore(m, known, x, y [, options])`: the path to the nearest
//! frontier cell (walkable, not known, next to a known one), or nil and
//! "explored"; `lvl:explore` on the level, `known` a table or a memory.
//!
//! It reads the map and `known` in windows around the start, from
//! `EXPLORE_RADIUS` on, doubling until the answer is inside one or the
//! window is the map (`explore_within`).

use std::cell::OnceCell;
use std::ffi::c_int;

use crate::grid::{Grid, Pos, Rect};
use crate::lua::shared::cells::{after_cell, cell, table_of_rows};
use crate::lua::shared::level_method::level_method;
use crate::lua::shared::search::{search_options, Search};
use crate::lua::stack::call::function;
use crate::lua::stack::replies::Positions;
use crate::lua::stack::{Args, Export};
use crate::memory;
use crate::native::Bits;
use crate::toolkit::board::Walk;
use crate::toolkit::explore::{self, Kept};

pub const EXPORT: Export = Export {
    name: "explore",
    function: explore,
    method: Some(level_explore),
    #[cfg(feature = "luajit")]
    helpers: &[
        ("explore_avoided", luajit::explore_avoided),
        ("explore_cells", luajit::explore_cells),
    ],
};

function!(explore, "map.explore", answer);

level_method!(level_explore, "level:explore", |args, _| answer(args));

/// The first radius `explore` reads around the start, before doubling it.
pub const EXPLORE_RADIUS: usize = 16;

/// The options of `explore`.
const EXPLORE: &[&str] = &["avoid", "blocked", "cost", "diagonal"];

/// `explore`'s answer, for a table or a level.
fn answer(args: &Args) -> Result<Positions, String> {
    let next = after_cell(args, 3);
    args.at_most(next)?;
    let size = args.map_size(1)?;
    table_of_rows(args, 2, "known")?;
    let start = cell(args, 3, ("x", "y"), "start", size)?;
    let asked = asked(args, size, start, next)?;
    let mut read = Read::default();
    let mut r = EXPLORE_RADIUS;
    loop {
        let window = asked.window(r);
        let whole = window == Rect::whole(asked.size);
        asked.grow(args, window, &mut read)?;
        let grid = Grid::from_cells(window.w, window.h, std::mem::take(&mut read.cells.cells));
        let found = found_in(&asked.searched(&grid, &read.known.cells, &read.avoided.cells, window), whole, r);
        read.cells.cells = grid.into_cells();
        match found {
            Some(found) => return Ok(Positions(found)),
            None => r = r.saturating_mul(2),
        }
    }
}

/// What `explore` was asked, before anything proportional to the map is
/// read: the map's size, the start, and the options.
struct Asked {
    size: (usize, usize),
    start: Pos,
    search: Search,
    /// The cells `avoid` names, read at the first window and kept for the
    /// larger ones (`Search::avoided_bits`), so that `avoid` is read once.
    avoided: OnceCell<Bits>,
}

/// What `explore` has read of the map at 1 and the known rows at 2 over its
/// windows, and of the cells `avoid` names there: each window grown from
/// the one before by reading only the cells it adds (`explore::Kept`).
#[derive(Default)]
struct Read {
    cells: Kept<u8>,
    known: Kept<bool>,
    avoided: Kept<bool>,
}

/// One window of the map as `explore` searches it: its cells, the cells
/// `known` marks and `avoid` names in it (none: empty), the start as a cell
/// of it, and the walk.
struct Window<'a> {
    rect: Rect,
    grid: &'a Grid,
    known: &'a [bool],
    avoided: &'a [bool],
    start: Pos,
    walk: &'a Walk,
}

/// `explore` from `start` on a map of `size`, its options at `options_at`.
fn asked(
    args: &Args,
    size: (usize, usize),
    start: Pos,
    options_at: c_int,
) -> Result<Asked, String> {
    let search = search_options(args, options_at, EXPLORE)?;
    Ok(Asked {
        size,
        start,
        search,
        avoided: OnceCell::new(),
    })
}

impl Asked {
    /// The window of the cells within `r` of the start along each axis.
    fn window(&self, r: usize) -> Rect {
        Rect::around(self.start, r, self.size)
    }

    /// The cells of `window` that `avoid` names or, on a level with
    /// `occupied = true`, that are occupied, row-major (empty without
    /// either).
    fn avoided_in(&self, args: &Args, window: Rect) -> Result<Vec<bool>, String> {
        if !self.search.closes_cells() {
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

    /// Checks the memory bound of a search of `window`.
    fn check(&self, window: Rect) -> Result<(), String> {
        let weighted = self.search.walk.cost.is_some();
        memory::check(explore::bound((window.w, window.h), weighted))
    }

    /// `read` grown to `window` (which holds the window it has read, if
    /// any), after its memory bound is checked: what `avoid` names, the
    /// known rows at 2, then the map at 1 (the order in which a window read
    /// whole meets their errors), each cell read once over the windows.
    fn grow(&self, args: &Args, window: Rect, read: &mut Read) -> Result<(), String> {
        self.check(window)?;
        // Occupied cells are closed as avoided ones are: both go through
        // `avoided_in`, so that `explore` honours `occupied` as every other
        // search does (`Search::limits`).
        if self.search.closes_cells() {
            read.avoided.grow(window, |rect| self.avoided_in(args, rect))?;
        }
        read.known.grow(window, |rect| args.flags(2, "known", (rect.x, rect.y), (rect.w, rect.h)))?;
        read.cells.grow(window, |rect| {
            let cells = args.window(1, (rect.x, rect.y), (rect.w, rect.h), self.size.0)?;
            Ok(cells.into_cells())
        })
    }

    /// `window` to search, of the cells and flags read there.
    fn searched<'a>(
        &'a self,
        grid: &'a Grid,
        known: &'a [bool],
        avoided: &'a [bool],
        window: Rect,
    ) -> Window<'a> {
        Window {
            rect: window,
            grid,
            known,
            avoided,
            start: window.inside(self.start),
            walk: &self.search.walk,
        }
    }
}

/// The answer `explore` finds in window `e` (of radius `r`, or the whole
/// map), as cells of the map; `None` to read a larger window.
fn found_in(e: &Window, whole: bool, r: usize) -> Option<Result<Vec<Pos>, String>> {
    let max = (!whole).then(|| r as i64 - 1);
    match explore::explore_within(e.grid, e.known, e.start, e.walk, e.avoided, max) {
        Some(mut path) => {
            path.iter_mut().for_each(|p| *p = e.rect.outside(*p));
            Some(Ok(path))
        }
        None if whole => Some(Err("explored".to_string())),
        None => None,
    }
}

#[cfg(feature = "luajit")]
mod luajit {
    use super::{asked, explore, found_in, EXPLORE_RADIUS};
    use crate::grid::Rect;
    use crate::input::{Arg, INTERNAL_ERROR};
    use crate::lua::shared::route::{checked_cell, integer, packed, read_window, ANOTHER_WINDOW};
    use crate::lua::stack::call::function;
    use crate::lua::stack::replies::Positions;
    use crate::lua::stack::{Args, Reply};

    function!(
        /// The cells `avoid` names on a map of `(width, height)`, explored
        /// from `(x, y)` with `options`, read once for all the windows
        /// `luajit/tables.lua` reads, after the first window's memory bound
        /// is checked, as the C function reads them: a bit a cell,
        /// row-major, in little-endian 64-bit words (empty without `avoid`).
        explore_avoided,
        "map.explore",
        |args: &Args| {
            let size = (integer(args, 1)?, integer(args, 2)?);
            let start = checked_cell(args, 3, size)?;
            let asked = asked(args, size, start, 5)?;
            if !asked.search.avoids() {
                return Ok(Vec::new());
            }
            asked.check(asked.window(EXPLORE_RADIUS))?;
            let bits = asked.search.avoided_bits(args, size)?;
            // Their bytes, as many as the bits' words hold.
            crate::memory::check(explore::bound_avoided(size))?;
            Ok(bits.words().iter().flat_map(|w| w.to_le_bytes()).collect::<Vec<u8>>())
        }
    );

    function!(
        /// `explore` on the window of radius `r` that `luajit/tables.lua`
        /// has read, as `(cells, window width, known flags (a byte a cell, 1
        /// where known), width, height, window x, y, x, y, r, options,
        /// avoided)`, `avoided` what `explore_avoided` gave: the path as
        /// `packed` gives it; nil and "explored"; or false, to read a larger
        /// window.
        explore_cells,
        "map.explore",
        |args: &Args| {
            let size = (integer(args, 4)?, integer(args, 5)?);
            let start = checked_cell(args, 8, size)?;
            let r = integer(args, 10)?;
            let asked = asked(args, size, start, 11)?;
            let window = asked.window(r);
            // Its window is the start's, r and the map's size, all given
            // as checked integers: only a bug makes it another.
            let grid = read_window(args, 6, window).map_err(|e| match e.as_str() {
                ANOTHER_WINDOW => format!("{INTERNAL_ERROR}: another window"),
                _ => e,
            })?;
            let known: Vec<bool> = match args.get(3) {
                Arg::Str(flags) if flags.len() == grid.cells().len() => {
                    flags.iter().map(|&k| k == 1).collect()
                }
                _ => return Err(format!("{INTERNAL_ERROR}: bad known flags")),
            };
            asked.check(window)?;
            let avoided = match args.get(12) {
                _ if !asked.search.avoids() => Vec::new(),
                Arg::Str(bits) if bits.len() == (size.0 * size.1).div_ceil(64) * 8 => {
                    avoided_in(bits, window, size.0)
                }
                _ => return Err(format!("{INTERNAL_ERROR}: bad avoided cells")),
            };
            let whole = window == Rect::whole(size);
            Ok(match found_in(&asked.searched(&grid, &known, &avoided, window), whole, r) {
                Some(Ok(path)) => Box::new(packed(&path)) as Box<dyn Reply>,
                Some(Err(why)) => Box::new(Positions(Err(why))),
                None => Box::new(false),
            })
        }
    );

    /// The cells of `window` set in `bits` (as `explore_avoided` gives
    /// them, for a map `width` wide), row-major.
    fn avoided_in(bits: &[u8], window: Rect, width: usize) -> Vec<bool> {
        let mut out = Vec::with_capacity(window.w * window.h);
        for y in window.y - 1..window.y - 1 + window.h {
            let row = y * width + window.x - 1;
            out.extend((row..row + window.w).map(|i| bits[i / 8] >> (i % 8) & 1 == 1));
        }
        out
    }
}
