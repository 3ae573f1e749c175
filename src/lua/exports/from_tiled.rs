//! `map.from_tiled(text [, options])`: the map a Tiled JSON map (`.tmj`)
//! draws, as `map.parse` returns a map (rows, `width`, `height`, `player`,
//! `stairs`).

use std::ffi::c_int;

use crate::editors::tiled;
use crate::input::Arg;
use crate::lua::shared::options::{read_options, string_option};
use crate::lua::shared::parsed::Table;
use crate::lua::stack::call::function;
use crate::lua::stack::{Args, Export};
use crate::toolkit::parse;

pub const EXPORT: Export = Export {
    name: "from_tiled",
    function: from_tiled,
    method: None,
    #[cfg(feature = "luajit")]
    helpers: &[],
};

function!(from_tiled, "map.from_tiled", |args: &Args| {
    args.at_most(2)?;
    let text = match args.get(1) {
        Arg::Str(text) => text,
        other => return Err(format!("text must be a string, got {}", other.type_name())),
    };
    let (tiles, empty) = reading(args, 2)?;
    // tiled::read checks its bounds itself: the JSON's before parsing it,
    // the cells' once the map's size is read.
    Ok(Table(parse::of_grid(tiled::read(text, tiles, empty)?)))
});

/// `from_tiled`'s options: the game's tiles (for tiles without a `char`
/// property), the character of an empty cell (default a space).
fn reading(args: &Args, index: c_int) -> Result<(Option<&[u8]>, u8), String> {
    let (mut tiles, mut empty) = (None, b' ');
    read_options(args, index, &["empty", "tiles"], |name, value| {
        if name == "tiles" {
            tiles = Some(string_option("tiles", value)?);
        } else {
            empty = match value {
                Arg::Str(&[c]) => c,
                other => return Err(format!("empty must be one character, got {other}")),
            };
        }
        Ok(())
    })?;
    Ok((tiles, empty))
}
