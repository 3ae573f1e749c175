//! `map.generate(width, height [, seed])` or `map.generate{options}`: a
//! level as a table of rows with its metadata (`shared/level_table.rs`).

use crate::lua::shared::params;
use crate::lua::shared::seed::Seeded;
use crate::lua::stack::call::function;
use crate::lua::stack::{Args, Export};

pub const EXPORT: Export = Export {
    name: "generate",
    function: generate,
    method: None,
    #[cfg(feature = "luajit")]
    helpers: &[("generate_parts", luajit::generate_parts)],
};

function!(generate, "map.generate", |args: &Args| {
    let (level, draw) = params::level(args)?;
    Ok(Seeded(level, draw))
});

/// On LuaJIT, `luajit/levels.lua` builds the table in Lua from the level's
/// cells and numbers, each handed over as one string.
#[cfg(feature = "luajit")]
mod luajit {
    #![deny(unsafe_op_in_unsafe_fn)]

    use std::ffi::c_int;

    use mlua::ffi::{self, lua_State};

    use crate::level::Level;
    use crate::lua::shared::params;
    use crate::lua::shared::seed::Seeded;
    use crate::lua::stack::call::function;
    use crate::lua::stack::push::push_bytes;
    use crate::lua::stack::{Args, Reply};

    function!(
        /// `generate`'s level with its cells as one string, for
        /// `luajit/levels.lua` to build the table; errors as `map.generate`'s.
        generate_parts,
        "map.generate",
        |args: &Args| {
            let (level, draw) = params::level(args)?;
            Ok(Seeded(Parts::of(level), draw))
        }
    );

    /// A level, and its numbers as native-endian `u32`s in one string
    /// (read there through the FFI, where an array of them filled through
    /// the C API cost a `lua_rawseti` each): player x, y, stairs x, y, the
    /// room count, then per room x, y, w, h, its exit count, x, y per exit,
    /// its link count and the links (1-based); the door count, then x, y
    /// per door; the item count, then x, y and the kind's byte per item; the
    /// vault count, then index (1-based), x, y, w, h and rotation per vault;
    /// the placed count, then x, y and the byte per placed cell; 0, or 1 and
    /// the up staircase's x, y; last 0, or 1, the lock count and per lock
    /// its door's x, y and byte, its key's x, y and byte. Every number is below 2^32:
    /// coordinates and counts are bounded by `MAX_CELLS` and the lists' own
    /// limits.
    struct Parts {
        level: Level,
        numbers: Vec<u8>,
    }

    impl Parts {
        /// Made in the call's first step, so that its memory is within
        /// `generate`'s bound: 4 bytes a number, less than the JSON text of the
        /// same numbers, which `tests/memory.rs` measures within that bound.
        fn of(level: Level) -> Parts {
            let (player, stairs) = (level.player, level.stairs);
            let head = [player.x, player.y, stairs.x, stairs.y, level.rooms.len()];
            let (exits, links) = (&level.exits.exits, &level.exits.links);
            let rooms = level.rooms.iter().enumerate().flat_map(|(i, r)| {
                let (room_exits, room_links) = (&exits[i], &links[i]);
                [r.x, r.y, r.w, r.h, room_exits.len()]
                    .into_iter()
                    .chain(room_exits.iter().flat_map(|e| [e.x, e.y]))
                    .chain([room_links.len()])
                    .chain(room_links.iter().map(|&k| k as usize + 1))
            });
            let doors = level.doors.iter().flat_map(|d| [d.x, d.y]);
            let items = level
                .items
                .iter()
                .flat_map(|i| [i.pos.x, i.pos.y, i.kind as usize]);
            let vaults = level.vaults.iter().flat_map(|v| {
                let r = v.rect;
                [v.index + 1, r.x, r.y, r.w, r.h, v.rotation as usize]
            });
            let placed = level
                .placed
                .iter()
                .flat_map(|p| [p.pos.x, p.pos.y, p.char as usize]);
            let up = match level.up {
                Some(p) => vec![1, p.x, p.y],
                None => vec![0],
            };
            let locks = match &level.locks {
                Some(locks) => [1, locks.len()]
                    .into_iter()
                    .chain(locks.iter().flat_map(|l| {
                        let (d, k) = (l.door, l.key);
                        [d.x, d.y, l.door_char as usize, k.x, k.y, l.key_char as usize]
                    }))
                    .collect(),
                None => vec![0],
            };
            let room_parts: usize = (0..level.rooms.len())
                .map(|i| 6 + 2 * exits[i].len() + links[i].len())
                .sum();
            let count = head.len()
                + room_parts
                + 1
                + 2 * level.doors.len()
                + 1
                + 3 * level.items.len()
                + 1
                + 6 * level.vaults.len()
                + 1
                + 3 * level.placed.len()
                + up.len()
                + locks.len();
            let mut numbers = Vec::with_capacity(4 * count);
            head.into_iter()
                .chain(rooms)
                .chain([level.doors.len()])
                .chain(doors)
                .chain([level.items.len()])
                .chain(items)
                .chain([level.vaults.len()])
                .chain(vaults)
                .chain([level.placed.len()])
                .chain(placed)
                .chain(up)
                .chain(locks)
                .for_each(|v| numbers.extend_from_slice(&(v as u32).to_ne_bytes()));
            Parts { level, numbers }
        }
    }

    /// Pushes the cells (row-major, one
    /// string), width, height, seed, algorithm, the numbers (`Parts`) and
    /// the level's `blocked` (nil where `#` alone blocks: a sample's own on
    /// `example`, so not the algorithm's to say). Needs 7 slots, within the `LUA_MINSTACK` Lua guarantees, as `generate`
    /// takes at most 3 arguments.
    ///
    /// # Safety
    ///
    /// `l` must be the state of a running C function with room for its
    /// pushes (`push_reply`, inside `lua_pcall`, which catches a failed push).
    unsafe fn push_level_parts(l: *mut lua_State, parts: &Parts) -> c_int {
        // SAFETY: the caller's promise; every push is a plain value.
        unsafe {
            let (level, grid) = (&parts.level, &parts.level.grid);
            push_bytes(l, grid.cells());
            ffi::lua_pushinteger(l, grid.width() as ffi::lua_Integer);
            ffi::lua_pushinteger(l, grid.height() as ffi::lua_Integer);
            ffi::lua_pushinteger(l, level.seed as ffi::lua_Integer);
            ffi::lua_pushlstring(l, level.algorithm.as_ptr().cast(), level.algorithm.len());
            push_bytes(l, &parts.numbers);
            match level.blocked() {
                Some(blocked) => {
                    push_bytes(l, blocked.as_bytes());
                }
                None => ffi::lua_pushnil(l),
            }
            7
        }
    }

    impl Reply for Parts {
        unsafe fn push_on(&self, l: *mut lua_State) -> c_int {
            // SAFETY: the pushers' contract.
            unsafe { push_level_parts(l, self) }
        }
    }
}
