//! The native memory the natives hold, which Lua's collector does not
//! see: counted as natives are made and freed, with a full collection when
//! it grows past the collector's own pause rule.

use std::cell::Cell;
use std::ffi::c_int;

use mlua::ffi::{self, lua_State};

thread_local! {
    /// The bytes the natives made on this thread hold, and the count at
    /// which `collect_if_native_grew` next runs a full collection.
    static NATIVE: Cell<(usize, usize)> = const { Cell::new((0, NATIVE_PAUSE)) };
}

/// The native memory that may pile up before a full collection: Lua's
/// collector counts a block, not what it holds.
const NATIVE_PAUSE: usize = 32 << 20;

/// Counts `bytes` more of native memory and, when the natives hold more
/// than the threshold, has Lua collect fully (unless the program stopped
/// its collector); the next threshold is then twice what the natives
/// still hold, or the Lua heap's size, or `NATIVE_PAUSE`, the largest:
/// the collector's own pause rule, for memory it cannot see. Neither a
/// step's debt nor a generational collection would do: Lua 5.4's
/// generational mode frees an old object only in a major collection,
/// which only the Lua heap's growth triggers, so a field a game held
/// across two turns stayed (hundreds of MiB).
///
/// # Safety
/// Inside `push_reply`'s protected call (a finalizer may run and raise).
pub(super) unsafe fn collect_if_native_grew(l: *mut lua_State, bytes: usize) {
    /// `LUA_GCISRUNNING`, 9 in both lua.h (mlua names it for Lua 5.4 only).
    const IS_RUNNING: c_int = 9;
    let (held, next) = NATIVE.get();
    let held = held + bytes;
    NATIVE.set((held, next));
    // SAFETY: the caller's promise.
    unsafe {
        if held <= next || ffi::lua_gc(l, IS_RUNNING, 0) == 0 {
            return;
        }
        ffi::lua_gc(l, ffi::LUA_GCCOLLECT, 0);
        let heap = ffi::lua_gc(l, ffi::LUA_GCCOUNT, 0).max(0) as usize * 1024;
        let held = NATIVE.get().0;
        NATIVE.set((held, (2 * held).max(heap).max(NATIVE_PAUSE)));
    }
}

/// What `__gc` gives back of the native memory counted.
pub(super) fn native_freed(bytes: usize) {
    let (held, next) = NATIVE.get();
    NATIVE.set((held.saturating_sub(bytes), next));
}
