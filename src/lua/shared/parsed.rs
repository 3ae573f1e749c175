//! The table of a map read from outside (`map.parse`, `map.from_tiled`,
//! `map.from_xp`): its rows, `width`, `height`, and `player` and `stairs`
//! where it has an `@` and a `>`.

#![deny(unsafe_op_in_unsafe_fn)]

use std::ffi::c_int;

use mlua::ffi::{self, lua_State};

use crate::lua::stack::push::{make_room, push_pos, push_rows, push_slots, set_int};
use crate::lua::stack::Reply;
use crate::toolkit::parse::Parsed;

/// `map.parse`'s table (and `from_tiled`'s, `from_xp`'s).
pub struct Table(pub Parsed);

impl Reply for Table {
    unsafe fn push_on(&self, l: *mut lua_State) -> c_int {
        // SAFETY: the pushers' contract.
        unsafe { push_parsed(l, &self.0) }
    }
}

/// `map.parse`'s table: the rows, `width`, `height`, and `player` and
/// `stairs` where the map has an `@` and a `>`.
///
/// # Safety
/// The pushers' contract (`stack/push.rs`).
unsafe fn push_parsed(l: *mut lua_State, parsed: &Parsed) -> c_int {
    // SAFETY: `make_room` above made the slots it uses; each field is set in
    // `map` before the next is made.
    unsafe {
        make_room(l, push_slots(&parsed.grid));
        push_rows(l, &parsed.grid, 4);
        let map = ffi::lua_gettop(l);
        set_int(l, map, c"width", parsed.grid.width() as i64);
        set_int(l, map, c"height", parsed.grid.height() as i64);
        for (key, at) in [(c"player", parsed.player), (c"stairs", parsed.stairs)] {
            if let Some(p) = at {
                push_pos(l, p, 0);
                ffi::lua_setfield(l, map, key.as_ptr());
            }
        }
        1
    }
}
