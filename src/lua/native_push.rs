//! The pushers of what levels and fields give back (the shapes of
//! `Reply` that only they use), under push.rs's contract: inside
//! `push_reply`'s protected call.

#![deny(unsafe_op_in_unsafe_fn)]

use std::ffi::{c_int, CStr};

use mlua::ffi::{self, lua_State};

use super::native::Slot;
use super::push::{self, push_pos, Rows};
use crate::grid::Pos;
use crate::level::Level;
use crate::native::field::{Cells, Field, Value};

/// The argument of `level:steps` that holds the movers.
pub const MOVERS: c_int = 3;

/// A cell's character, one of the natives' one-byte strings (made when the
/// module opens: no allocation).
///
/// # Safety
/// The pushers' contract (push.rs), `natives` the natives' table.
pub unsafe fn push_char(l: *mut lua_State, natives: c_int, c: u8) -> c_int {
    // SAFETY: two slots, within the free ones a C function has.
    unsafe {
        ffi::lua_rawgeti(l, natives, Slot::Chars as ffi::lua_Integer);
        ffi::lua_rawgeti(l, -1, ffi::lua_Integer::from(c) + 1);
        ffi::lua_remove(l, -2);
        1
    }
}

/// One cell of a field as the table would hold it.
///
/// # Safety
/// The pushers' contract (push.rs).
pub unsafe fn push_value(l: *mut lua_State, v: Value) -> c_int {
    // SAFETY: one slot.
    unsafe {
        match v {
            Value::Int(n) => ffi::lua_pushinteger(l, n as ffi::lua_Integer),
            Value::Unreached => ffi::lua_pushboolean(l, 0),
            Value::Seen => ffi::lua_pushboolean(l, 1),
            Value::Unseen => ffi::lua_pushnil(l),
        }
        1
    }
}

/// `level:things()`: an array of `{char=, x=, y=}`, each character one of
/// the natives' one-byte strings (`natives` the natives' table).
///
/// # Safety
/// The pushers' contract (push.rs).
pub unsafe fn push_things(l: *mut lua_State, natives: c_int, things: &[(u8, Pos)]) -> c_int {
    // SAFETY: room made for the array, the strings' table, a thing and a value.
    unsafe {
        ffi::luaL_checkstack(l, 5, c"no room on the Lua stack for the result".as_ptr());
        ffi::lua_rawgeti(l, natives, Slot::Chars as ffi::lua_Integer);
        let chars = ffi::lua_gettop(l);
        ffi::lua_createtable(l, things.len() as c_int, 0);
        for (i, &(c, p)) in things.iter().enumerate() {
            push_pos(l, p, 1);
            ffi::lua_rawgeti(l, chars, ffi::lua_Integer::from(c) + 1);
            ffi::lua_setfield(l, -2, c"char".as_ptr());
            ffi::lua_rawseti(l, -2, i as ffi::lua_Integer + 1);
        }
        ffi::lua_remove(l, chars);
        1
    }
}

/// `field:table()`: flags as `fov`'s rows, values as `distances`' rows.
///
/// # Safety
/// The pushers' contract (push.rs).
pub unsafe fn push_field_rows(l: *mut lua_State, field: &Field) -> c_int {
    let (size, w) = (field.size, field.window);
    // SAFETY: the pushers' own contracts, which make their room.
    unsafe {
        match &field.cells {
            Cells::Flags(_) => {
                let seen = field.flags_in(w);
                push::push_visible(l, size.1, (w.x, w.y), w.w, &seen)
            }
            _ => push::push_rows_of_integers(
                l,
                &Rows {
                    size,
                    window: w,
                    values: field.values_in(w),
                },
            ),
        }
    }
}

/// One field of `generate`'s table for the level whose metadata is `meta`
/// (`level.rooms`): the table without rows is built, the field taken.
///
/// # Safety
/// The pushers' contract (push.rs).
pub unsafe fn push_level_field(l: *mut lua_State, meta: &Level, key: &CStr) -> c_int {
    // SAFETY: `push_level` makes its room; one more slot for the field.
    unsafe {
        super::push_level::push_level(l, meta);
        ffi::lua_getfield(l, -1, key.as_ptr());
        ffi::lua_remove(l, -2);
        1
    }
}

/// `level:steps`' writes: each mover (an index into the array at `movers`)
/// gets its new `x` and `y`, raw; then the count moved.
///
/// # Safety
/// The pushers' contract (push.rs), with the movers' array at `movers` and
/// the natives' table at `natives`.
pub unsafe fn push_moved(
    l: *mut lua_State,
    natives: c_int,
    movers: c_int,
    moves: &[(usize, Pos)],
) -> c_int {
    // SAFETY: the movers were read as tables with `x` and `y` and no Lua
    // code ran since; a raw set of a present key allocates nothing; the
    // keys come from the natives' table (made when the module opened).
    unsafe {
        ffi::luaL_checkstack(l, 4, c"no room on the Lua stack for the result".as_ptr());
        ffi::lua_rawgeti(l, natives, Slot::Keys as ffi::lua_Integer);
        let keys = ffi::lua_gettop(l);
        for &(i, p) in moves {
            ffi::lua_rawgeti(l, movers, i as ffi::lua_Integer);
            if ffi::lua_type(l, -1) == ffi::LUA_TTABLE {
                for (key, v) in [(1, p.x), (2, p.y)] {
                    ffi::lua_rawgeti(l, keys, key);
                    ffi::lua_pushinteger(l, v as ffi::lua_Integer);
                    ffi::lua_rawset(l, -3);
                }
            }
            ffi::lua_settop(l, -2);
        }
        ffi::lua_settop(l, keys - 1);
        ffi::lua_pushinteger(l, moves.len() as ffi::lua_Integer);
        1
    }
}
