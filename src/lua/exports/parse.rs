//! `map.parse(text)`: the map a text draws, with its `width`, `height`,
//! and `player` and `stairs` where it has an `@` and a `>`.

#![deny(unsafe_op_in_unsafe_fn)]

use crate::input::Arg;
use crate::lua::shared::parsed::Table;
use crate::lua::stack::call::function;
use crate::lua::stack::{Args, Export};
use crate::memory;
use crate::toolkit::parse::{self, Parsed};

pub const EXPORT: Export = Export {
    name: "parse",
    function: parse,
    method: None,
    #[cfg(feature = "luajit")]
    helpers: &[("parse_size", luajit::parse_size)],
};

function!(parse, "map.parse", |args: &Args| Ok(Table(parsed(args)?)));

/// `parse(text)`, checked and read.
fn parsed(args: &Args) -> Result<Parsed, String> {
    args.at_most(1)?;
    let text = match args.get(1) {
        Arg::Str(text) => text,
        other => return Err(format!("text must be a string, got {}", other.type_name())),
    };
    let size = parse::size(text)?;
    memory::check(parse::bound(size))?;
    Ok(parse::parse(text, size))
}

#[cfg(feature = "luajit")]
mod luajit {
    #![deny(unsafe_op_in_unsafe_fn)]

    use std::ffi::c_int;

    use mlua::ffi::{self, lua_State};

    use super::parsed;
    use crate::lua::stack::call::function;
    use crate::lua::stack::{Args, Reply};
    use crate::toolkit::parse::Parsed;

    function!(
        /// `parse`'s checks of the text at 1: its width and height, and the
        /// first `@` and `>` (x, y each, or nil), for `luajit/levels.lua` to
        /// build the rows; raises `parse`'s errors.
        parse_size,
        "map.parse",
        |args: &Args| Ok(Size(parsed(args)?))
    );

    /// A parsed map's width, height, and its `@` and `>` (x, y each, or
    /// nil, nil).
    struct Size(Parsed);

    impl Reply for Size {
        unsafe fn push_on(&self, l: *mut lua_State) -> c_int {
            let p = &self.0;
            // SAFETY: six plain values, within the slots of the pushers'
            // contract.
            unsafe {
                ffi::lua_pushinteger(l, p.grid.width() as ffi::lua_Integer);
                ffi::lua_pushinteger(l, p.grid.height() as ffi::lua_Integer);
                for at in [p.player, p.stairs] {
                    match at {
                        Some(c) => {
                            ffi::lua_pushinteger(l, c.x as ffi::lua_Integer);
                            ffi::lua_pushinteger(l, c.y as ffi::lua_Integer);
                        }
                        None => {
                            ffi::lua_pushnil(l);
                            ffi::lua_pushnil(l);
                        }
                    }
                }
            }
            6
        }
    }
}
