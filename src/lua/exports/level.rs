//! `map.level(m [, options])`, `map.level(text [, options])` or
//! `map.level{generate's options, things =}`: a new level in native memory
//! (its kind and methods: `natives/level.rs`). A map table that names its
//! `algorithm` keeps `generate`'s metadata (`shared/level_meta.rs`).

use std::ffi::c_int;

use crate::grid::{byte_set, ByteSet};
use crate::input::Arg;
use crate::lua::shared::level_meta;
use crate::lua::shared::options::{read_options, string_option};
use crate::lua::shared::params;
use crate::lua::shared::seed::{SeedDraw, Seeded};
use crate::lua::stack::call::function;
use crate::lua::stack::{Args, Export, Fresh, Key};
use crate::memory;
use crate::native::{self, NativeLevel};
use crate::toolkit::parse;

pub const EXPORT: Export = Export {
    name: "level",
    function: level,
    method: None,
    #[cfg(feature = "luajit")]
    helpers: &[],
};

function!(level, "map.level", |args: &Args| {
    let (level, draw) = level_of(args)?;
    Ok(Seeded(Fresh::new(level), draw))
});

/// The level, and the draw of its seed from `rng = r` (`map.level{...}`).
fn level_of(args: &Args) -> Result<(NativeLevel, SeedDraw), String> {
    let is_map = args.is_table(1) && args.with_field(1, Key::Index(1), |a, top| a.is_table(top));
    match args.get(1) {
        Arg::Str(text) => {
            args.at_most(2)?;
            let things = things_option(args, 2)?;
            let size = parse::size(text)?;
            memory::check(native::bound(size.0 * size.1))?;
            let level = NativeLevel::with_things(parse::parse(text, size).grid, &things);
            Ok((level, SeedDraw::default()))
        }
        Arg::Other("table") if is_map => {
            args.at_most(2)?;
            let things = things_option(args, 2)?;
            let size = args.map_size(1)?;
            let blocked = args.map_blocked(1)?;
            memory::check(native::bound(size.0 * size.1))?;
            let meta = level_meta::read(args, 1, size, blocked)?;
            let level = NativeLevel::with_things(args.grid(1, size)?, &things);
            Ok((
                level.with_blocked(blocked).with_meta(meta),
                SeedDraw::default(),
            ))
        }
        _ => {
            let (level, things, draw) = params::level_with_things(args)?;
            Ok((NativeLevel::from_level(level, &byte_set(things)), draw))
        }
    }
}

/// The option `things` (a string of characters) in the table at `index`.
fn things_option(args: &Args, index: c_int) -> Result<ByteSet, String> {
    let mut things = byte_set(b"");
    read_options(args, index, &["things"], |name, value| {
        things = byte_set(string_option(name, value)?);
        Ok(())
    })?;
    Ok(things)
}
