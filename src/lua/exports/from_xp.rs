//! `map.from_xp(data [, options])`: the map a REXPaint image draws (the
//! `.xp` file's bytes), its layers laid on each other, as `map.parse`
//! returns a map.

use crate::editors::xp;
use crate::input::Arg;
use crate::lua::shared::glyphs::glyphs;
use crate::lua::shared::parsed::Table;
use crate::lua::stack::call::function;
use crate::lua::stack::{Args, Export};
use crate::toolkit::parse;

pub const EXPORT: Export = Export {
    name: "from_xp",
    function: from_xp,
    method: None,
    #[cfg(feature = "luajit")]
    helpers: &[],
};

function!(from_xp, "map.from_xp", |args: &Args| {
    args.at_most(2)?;
    let data = match args.get(1) {
        Arg::Str(data) => data,
        other => return Err(format!("data must be a string, got {}", other.type_name())),
    };
    let glyphs = glyphs(args, 2)?;
    // xp::read checks its bound once the image's size is read.
    Ok(Table(parse::of_grid(xp::read(data, &glyphs)?)))
});
