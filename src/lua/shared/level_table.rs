//! Pushing `generate`'s level as a table: its rows, then its metadata
//! (rooms with their exits and links, doors, `@`, `>`, items, vaults,
//! placed things, `up`, `locks`), as the pushers of `stack/push.rs` do (their
//! contract).

#![deny(unsafe_op_in_unsafe_fn)]

use std::ffi::{c_int, CStr};

use mlua::ffi::{self, lua_State};

use crate::grid::Pos;
use crate::level::locks::Lock;
use crate::level::Level;
use crate::lua::stack::push::{make_room, push_pos, push_rows, push_slots, set_int};
use crate::lua::stack::Reply;

/// The fields of `generate`'s table besides its rows (`width`, `height`,
/// `seed`, `algorithm`, `blocked`, `rooms`, `doors`, `player`, `stairs`,
/// `items`, `vaults`, `placed`, `up`, `locks`): room made for them at once.
pub const FIELDS: c_int = 14;

/// `generate`'s table.
impl Reply for Level {
    unsafe fn push_on(&self, l: *mut lua_State) -> c_int {
        // SAFETY: the pushers' contract.
        unsafe { push_level(l, self) }
    }
}

/// # Safety
/// The pushers' contract (`stack/push.rs`).
pub unsafe fn push_level(l: *mut lua_State, level: &Level) -> c_int {
    // SAFETY: `make_room` above made the slots it uses; each field is set
    // in `map` before the next is made, and the keys above `map` are
    // dropped before it is returned.
    unsafe {
        make_room(l, push_slots(&level.grid));
        push_rows(l, &level.grid, FIELDS);
        let map = ffi::lua_gettop(l);
        set_int(l, map, c"width", level.grid.width() as i64);
        set_int(l, map, c"height", level.grid.height() as i64);
        let k = Keys::push(l);
        for &field in META {
            if push_meta(l, &k, level, field) {
                ffi::lua_setfield(l, map, field.to_bytes_with_nul().as_ptr().cast());
            }
        }
        ffi::lua_settop(l, map);
        1
    }
}

/// The fields of `generate`'s table besides its rows, width and height,
/// in the order they are set.
pub const META: &[&CStr] = &[
    c"seed",
    c"algorithm",
    c"blocked",
    c"rooms",
    c"doors",
    c"player",
    c"stairs",
    c"items",
    c"vaults",
    c"placed",
    c"up",
    c"locks",
];

/// One field of `generate`'s table (`lvl.player`) for `level`'s metadata:
/// that field alone is made, whatever the level holds besides.
///
/// # Safety
/// The pushers' contract (`stack/push.rs`); `field` one of `META`.
pub unsafe fn push_level_field(l: *mut lua_State, level: &Level, field: &CStr) -> c_int {
    // SAFETY: the keys and the field's tables, within the room made; the
    // keys are dropped under the value.
    unsafe {
        make_room(l, 16);
        let base = ffi::lua_gettop(l);
        let k = Keys::push(l);
        if !push_meta(l, &k, level, field) {
            ffi::lua_pushnil(l);
        }
        ffi::lua_replace(l, base + 1);
        ffi::lua_settop(l, base + 1);
        1
    }
}

/// Pushes the value of `field` (one of `META`) of `level`; false, and
/// nothing pushed, for a field the level has not (`blocked` where `#`
/// alone blocks, `up` without `arrive`).
///
/// # Safety
/// The pushers' contract, with the keys `k` pushed and a few slots free.
unsafe fn push_meta(l: *mut lua_State, k: &Keys, level: &Level, field: &CStr) -> bool {
    // SAFETY: each arm pushes one value, its nested tables set in it as
    // they are made.
    unsafe {
        match field.to_bytes() {
            b"seed" => ffi::lua_pushinteger(l, level.seed as ffi::lua_Integer),
            b"algorithm" => push_str(l, level.algorithm.as_bytes()),
            b"blocked" => match level.blocked() {
                Some(blocked) => push_str(l, blocked.as_bytes()),
                None => return false,
            },
            b"rooms" => push_rooms(l, k, level),
            b"doors" => k.push_positions(l, &level.doors),
            b"player" => k.push_pos(l, level.player, 0),
            b"stairs" => k.push_pos(l, level.stairs, 0),
            b"items" => {
                let items = level.items.iter().map(|i| (i.pos, i.kind));
                push_marked(l, items, level.items.len(), c"kind");
            }
            b"vaults" => push_vaults(l, level),
            b"placed" => {
                let placed = level.placed.iter().map(|p| (p.pos, p.char));
                push_marked(l, placed, level.placed.len(), c"char");
            }
            b"up" => match level.up {
                Some(up) => push_pos(l, up, 0),
                None => return false,
            },
            b"locks" => match &level.locks {
                Some(locks) => push_locks(l, k, locks),
                None => return false,
            },
            _ => return false,
        }
        true
    }
}

/// # Safety
/// One slot free.
unsafe fn push_str(l: *mut lua_State, s: &[u8]) {
    // SAFETY: Lua copies the bytes.
    unsafe { ffi::lua_pushlstring(l, s.as_ptr().cast(), s.len()) };
}

/// The rooms, each `{x=, y=, w=, h=, exits=, links=}`.
///
/// # Safety
/// The pushers' contract, with the keys `k` pushed and a few slots free.
unsafe fn push_rooms(l: *mut lua_State, k: &Keys, level: &Level) {
    // SAFETY: each room is set in the array before the next is made.
    unsafe {
        ffi::lua_createtable(l, level.rooms.len() as c_int, 0);
        for (i, room) in level.rooms.iter().enumerate() {
            ffi::lua_createtable(l, 0, 6);
            let t = ffi::lua_gettop(l);
            for (key, v) in [(k.x, room.x), (k.y, room.y), (k.w, room.w), (k.h, room.h)] {
                set_at(l, t, key, v as i64);
            }
            push_exits(l, k, t, &level.exits.exits[i], &level.exits.links[i]);
            ffi::lua_rawseti(l, -2, i as ffi::lua_Integer + 1);
        }
    }
}

/// An array of `{x=, y=, [key] = the byte's character}`, `n` of them.
///
/// # Safety
/// The pushers' contract, with a few slots free.
unsafe fn push_marked(
    l: *mut lua_State,
    cells: impl Iterator<Item = (Pos, u8)>,
    n: usize,
    key: &CStr,
) {
    // SAFETY: each entry is set in the array before the next is made.
    unsafe {
        ffi::lua_createtable(l, n as c_int, 0);
        for (i, (p, c)) in cells.enumerate() {
            push_pos(l, p, 1);
            ffi::lua_pushlstring(l, [c].as_ptr().cast(), 1);
            ffi::lua_setfield(l, -2, key.as_ptr());
            ffi::lua_rawseti(l, -2, i as ffi::lua_Integer + 1);
        }
    }
}

/// The locks, each `{door = {x=, y=, char=}, key = {x=, y=, char=}}`.
///
/// # Safety
/// The pushers' contract, with the keys `k` pushed and a few slots free.
unsafe fn push_locks(l: *mut lua_State, k: &Keys, locks: &[Lock]) {
    // SAFETY: each lock is set in the array before the next is made, each
    // of its cells in it before the next.
    unsafe {
        ffi::lua_createtable(l, locks.len() as c_int, 0);
        for (i, lock) in locks.iter().enumerate() {
            ffi::lua_createtable(l, 0, 2);
            for (field, p, c) in [
                (c"door", lock.door, lock.door_char),
                (c"key", lock.key, lock.key_char),
            ] {
                k.push_pos(l, p, 1);
                ffi::lua_pushlstring(l, [c].as_ptr().cast(), 1);
                ffi::lua_setfield(l, -2, c"char".as_ptr());
                ffi::lua_setfield(l, -2, field.as_ptr());
            }
            ffi::lua_rawseti(l, -2, i as ffi::lua_Integer + 1);
        }
    }
}

/// The vaults placed, each `{index=, x=, y=, w=, h=, rotation=}`.
///
/// # Safety
/// The pushers' contract, with a few slots free.
unsafe fn push_vaults(l: *mut lua_State, level: &Level) {
    // SAFETY: each vault is set in the array before the next is made.
    unsafe {
        ffi::lua_createtable(l, level.vaults.len() as c_int, 0);
        for (i, v) in level.vaults.iter().enumerate() {
            ffi::lua_createtable(l, 0, 6);
            let t = ffi::lua_gettop(l);
            for (key, n) in [
                (c"index", v.index + 1),
                (c"x", v.rect.x),
                (c"y", v.rect.y),
                (c"w", v.rect.w),
                (c"h", v.rect.h),
                (c"rotation", v.rotation as usize),
            ] {
                set_int(l, t, key, n as i64);
            }
            ffi::lua_rawseti(l, -2, i as ffi::lua_Integer + 1);
        }
    }
}

/// The stack slots of the keys a level sets most (every room's and every
/// position's), each string pushed once: setting a field from a slot with
/// `lua_rawset` skips the lookup of its C string that `lua_setfield` makes
/// on every call. (Fields go in the same order either way, so the tables
/// are laid out the same.)
struct Keys {
    x: c_int,
    y: c_int,
    w: c_int,
    h: c_int,
    exits: c_int,
    links: c_int,
}

impl Keys {
    /// Pushes the keys.
    ///
    /// # Safety
    /// The pushers' contract, with 6 slots free.
    unsafe fn push(l: *mut lua_State) -> Keys {
        // SAFETY: the caller made room for the 6 strings.
        let slot = |key: &str| unsafe {
            ffi::lua_pushlstring(l, key.as_ptr().cast(), key.len());
            ffi::lua_gettop(l)
        };
        Keys {
            x: slot("x"),
            y: slot("y"),
            w: slot("w"),
            h: slot("h"),
            exits: slot("exits"),
            links: slot("links"),
        }
    }

    /// An array of `{x=, y=}`.
    ///
    /// # Safety
    /// The pushers' contract, with four slots free.
    unsafe fn push_positions(&self, l: *mut lua_State, cells: &[Pos]) {
        // SAFETY: each position is set in the array before the next is made.
        unsafe {
            ffi::lua_createtable(l, cells.len() as c_int, 0);
            for (i, &p) in cells.iter().enumerate() {
                self.push_pos(l, p, 0);
                ffi::lua_rawseti(l, -2, i as ffi::lua_Integer + 1);
            }
        }
    }

    /// Pushes `{x=, y=}` with room for `extra` more fields, as `push_pos`.
    ///
    /// # Safety
    /// The pushers' contract, with three slots free.
    unsafe fn push_pos(&self, l: *mut lua_State, p: Pos, extra: c_int) {
        // SAFETY: the caller leaves room for the table, a key and a value.
        unsafe {
            ffi::lua_createtable(l, 0, 2 + extra);
            let t = ffi::lua_gettop(l);
            set_at(l, t, self.x, p.x as i64);
            set_at(l, t, self.y, p.y as i64);
        }
    }
}

/// Sets the field whose key is in slot `key` of the table at `table` to `v`.
///
/// # Safety
/// The pushers' contract, with two slots free, a table at `table` and a
/// string at `key`.
unsafe fn set_at(l: *mut lua_State, table: c_int, key: c_int, v: i64) {
    // SAFETY: `table` is a fresh table on the stack (no metatable, so a raw
    // set is the set) and `key` a string (this function's contract).
    unsafe {
        ffi::lua_pushvalue(l, key);
        ffi::lua_pushinteger(l, v as ffi::lua_Integer);
        ffi::lua_rawset(l, table);
    }
}

/// A room's `exits` (`{x=, y=}` each) and `links` (1-based room indices),
/// set in the room's table at `t`.
///
/// # Safety
/// The pushers' contract, with a few slots free and a table at `t`.
unsafe fn push_exits(l: *mut lua_State, k: &Keys, t: c_int, exits: &[Pos], links: &[u32]) {
    // SAFETY: the caller made room for the nested tables (`push_slots`); `t` is
    // the room's table.
    unsafe {
        ffi::lua_pushvalue(l, k.exits);
        ffi::lua_createtable(l, exits.len() as c_int, 0);
        for (i, &p) in exits.iter().enumerate() {
            k.push_pos(l, p, 0);
            ffi::lua_rawseti(l, -2, i as ffi::lua_Integer + 1);
        }
        ffi::lua_rawset(l, t);
        ffi::lua_pushvalue(l, k.links);
        ffi::lua_createtable(l, links.len() as c_int, 0);
        for (i, &r) in links.iter().enumerate() {
            ffi::lua_pushinteger(l, r as ffi::lua_Integer + 1);
            ffi::lua_rawseti(l, -2, i as ffi::lua_Integer + 1);
        }
        ffi::lua_rawset(l, t);
    }
}
