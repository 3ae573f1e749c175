//! `map.autotile(m [, options])`: each cell's mask of its neighbours of the
//! same class (or, blob only, its rank), `false` for cells of no class;
//! `lvl:autotile` on the level.

use std::ffi::c_int;

use crate::grid::{byte_set, Grid, Rect};
use crate::input::Arg;
use crate::lua::shared::level_method::level_method;
use crate::lua::shared::options::read_options;
use crate::lua::stack::call::function;
use crate::lua::stack::push::Rows;
use crate::lua::stack::{Args, Export};
use crate::memory;
use crate::toolkit::autotile::{self, Autotile, Mode};
use crate::toolkit::board::BEYOND;

pub const EXPORT: Export = Export {
    name: "autotile",
    function: autotile,
    method: Some(level_autotile),
    #[cfg(feature = "luajit")]
    helpers: &[("autotile_cells", luajit::autotile_cells)],
};

function!(autotile, "map.autotile", answer);

level_method!(level_autotile, "level:autotile", |args, _| answer(args));

/// What the LuaJIT route's answer holds for a cell of no class (its masks
/// and ranks are below it).
#[cfg(feature = "luajit")]
pub const NO_CLASS: u16 = u16::MAX;

/// `autotile`'s answer, for a table or a level.
fn answer(args: &Args) -> Result<Rows, String> {
    let (grid, tile) = asked(args)?;
    let masks = autotile::masks(&grid, &tile);
    let size = (grid.width(), grid.height());
    Ok(Rows {
        size,
        window: Rect::whole(size),
        values: masks.iter().map(|m| m.map_or(BEYOND, i64::from)).collect(),
    })
}

/// `autotile(m [, options])`.
fn asked(args: &Args) -> Result<(Grid, Autotile), String> {
    args.at_most(2)?;
    let size = args.map_size(1)?;
    let tile = options(args, 2)?;
    memory::check(autotile::bound(size))?;
    Ok((args.grid(1, size)?, tile))
}

/// `autotile`'s options: the class's characters, the mode, the edge rule,
/// and ranks instead of masks (blob only).
fn options(args: &Args, index: c_int) -> Result<Autotile, String> {
    let mut tile = Autotile {
        class: byte_set(b"#"),
        mode: Mode::Blob,
        edge: true,
        index: false,
    };
    read_options(
        args,
        index,
        &["chars", "edge", "index", "mode"],
        |name, value| {
            match (name, value) {
                ("chars", Arg::Str(chars)) if !chars.is_empty() => tile.class = byte_set(chars),
                ("chars", other) => {
                    return Err(format!(
                        "chars must be a non-empty string of characters, got {other}"
                    ))
                }
                ("mode", Arg::Str(b"blob")) => tile.mode = Mode::Blob,
                ("mode", Arg::Str(b"8")) => tile.mode = Mode::Eight,
                ("mode", Arg::Str(b"4")) => tile.mode = Mode::Four,
                ("mode", other) => {
                    return Err(format!(r#"mode must be "blob", "8" or "4", got {other}"#))
                }
                (_, Arg::Bool(b)) if name == "edge" => tile.edge = b,
                (_, Arg::Bool(b)) => tile.index = b,
                (_, other) => return Err(format!("{name} must be a boolean, got {other}")),
            }
            Ok(())
        },
    )?;
    if tile.index && tile.mode != Mode::Blob {
        return Err(r#"index applies only to mode "blob""#.into());
    }
    Ok(tile)
}

#[cfg(feature = "luajit")]
mod luajit {
    use super::options;
    use crate::lua::shared::route::Cells;
    use crate::lua::stack::call::function;
    use crate::lua::stack::Args;
    use crate::memory;
    use crate::toolkit::autotile;

    function!(
        /// `autotile` on a map `luajit/tables.lua` has read, as `(cells,
        /// width, options)`: one native-endian `u16` per cell, the mask or
        /// rank, or `NO_CLASS` for a cell of no class.
        autotile_cells,
        "map.autotile",
        |args: &Args| {
            let cells = Cells::of(args)?;
            let tile = options(args, 3)?;
            memory::check(autotile::bound((cells.width, cells.height())))?;
            let masks = autotile::masks(&cells.grid(), &tile);
            Ok(masks
                .iter()
                .flat_map(|m| m.map_or(super::NO_CLASS, u16::from).to_ne_bytes())
                .collect::<Vec<u8>>())
        }
    );
}
