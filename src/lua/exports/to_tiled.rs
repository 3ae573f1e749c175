//! `map.to_tiled(m [, options])`: the map as a Tiled map, JSON (`.tmj`) or
//! Tiled's Lua export (what STI loads); `lvl:to_tiled` on the level, its
//! things laid on it as `lvl:render` lays them.

use std::ffi::c_int;

use crate::editors::tiled::{self, Format, Writing};
use crate::grid::Grid;
use crate::input::Arg;
use crate::lua::shared::level_method::level_method;
use crate::lua::shared::options::{read_options, string_option};
use crate::lua::stack::call::function;
use crate::lua::stack::{Args, Export};
use crate::memory;

pub const EXPORT: Export = Export {
    name: "to_tiled",
    function: to_tiled,
    method: Some(level_to_tiled),
    #[cfg(feature = "luajit")]
    helpers: &[],
};

function!(to_tiled, "map.to_tiled", |args: &Args| {
    args.at_most(2)?;
    let size = args.map_size(1)?;
    let how = writing(args, 2)?;
    memory::check(tiled::bound_write(size) + size.0 * size.1)?;
    tiled::write(&args.grid(1, size)?, &how)
});

level_method!(level_to_tiled, "level:to_tiled", |args, level| {
    args.at_most(2)?;
    let how = writing(args, 2)?;
    let size = (level.width(), level.height());
    memory::check(tiled::bound_write(size) + size.0 * size.1)?;
    let laid: Grid = level.laid();
    tiled::write(&laid, &how)
});

/// A tile's side in pixels: 1 to 4096.
fn side(name: &str, value: Arg) -> Result<u32, String> {
    match value {
        Arg::Int(n) if (1..=4096).contains(&n) => Ok(n as u32),
        other => Err(format!("{name} must be an integer from 1 to 4096, got {other}")),
    }
}

/// `to_tiled`'s options: the format, the game's tiles, the tile size, the
/// tileset's image.
fn writing(args: &Args, index: c_int) -> Result<Writing<'_>, String> {
    let mut how = Writing {
        tiles: None,
        format: Format::Json,
        tile_width: 16,
        tile_height: 16,
        image: "cp437_16x16.png",
    };
    read_options(
        args,
        index,
        &["format", "image", "tile_height", "tile_width", "tiles"],
        |name, value| {
            match name {
                "format" => {
                    how.format = match value {
                        Arg::Str(b"json") => Format::Json,
                        Arg::Str(b"lua") => Format::Lua,
                        other => return Err(format!(r#"format must be "json" or "lua", got {other}"#)),
                    }
                }
                "image" => {
                    how.image = match value {
                        Arg::Str(s) if !s.is_empty() => std::str::from_utf8(s)
                            .map_err(|_| format!("image must be a file name in UTF-8, got {value}"))?,
                        other => return Err(format!("image must be a file name, got {other}")),
                    }
                }
                "tiles" => how.tiles = Some(string_option("tiles", value)?),
                "tile_width" => how.tile_width = side(name, value)?,
                _ => how.tile_height = side(name, value)?,
            }
            Ok(())
        },
    )?;
    Ok(how)
}
