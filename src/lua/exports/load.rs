//! `map.load(s)`: the level or field `s` (from `save`) holds.

use crate::input::Arg;
use crate::lua::stack::call::function;
use crate::lua::stack::replies::Either;
use crate::lua::stack::{Args, Export, Fresh};
use crate::memory;
use crate::native::save;

pub const EXPORT: Export = Export {
    name: "load",
    function: load,
    method: None,
    #[cfg(feature = "luajit")]
    helpers: &[],
};

function!(load, "map.load", |args: &Args| {
    args.at_most(1)?;
    let bytes = match args.get(1) {
        Arg::Str(s) => s,
        other => return Err(format!("s must be a string, got {}", other.type_name())),
    };
    memory::check(save::bound_load(bytes.len()))?;
    Ok(match save::load_saved(bytes)? {
        save::Saved::Level(level) => Either::Left(Fresh::new(level)),
        save::Saved::Field(field) => Either::Right(Fresh::new(field)),
    })
});
