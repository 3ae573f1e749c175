//! A method of a level (`lvl:fov`, `lvl:get`): run as the table function
//! is, with the level at argument 1 read as the map (`Args::on_level`), so
//! that every check, option and message is the table function's, named
//! `level:<fn>`.

use std::ffi::c_int;

use mlua::ffi::lua_State;

use crate::lua::stack::block::this;
use crate::lua::stack::{call, Args, Reply};
use crate::native::NativeLevel;

/// Runs `body` as the method `name` of the level at argument 1, which the
/// map readers then read as the map.
///
/// # Safety
/// As `call`'s.
pub unsafe fn on_level<R: Reply>(
    state: *mut lua_State,
    name: &str,
    body: impl FnOnce(&Args, &NativeLevel) -> Result<R, String>,
) -> c_int {
    // SAFETY: the caller's promise.
    unsafe {
        call(state, name, |args| {
            let level = this::<NativeLevel>(args)?;
            args.on_level(level);
            body(args, level)
        })
    }
}

/// `body` as `on_level` takes it: gives a closure its parameters' types,
/// outside the `unsafe` block that calls it.
pub fn body<R, F: FnOnce(&Args, &NativeLevel) -> Result<R, String>>(body: F) -> F {
    body
}

/// Declares an export's method form on a level, `lvl:<name>` (`$label`
/// in messages), which runs `$body` (given the call's `Args` and the
/// level) through `on_level`.
macro_rules! level_method {
    ($name:ident, $label:literal, $body:expr) => {
        /// # Safety
        /// Lua calls it as a method, with the upvalues of
        /// `Upvalues::register`.
        unsafe extern "C-unwind" fn $name(state: *mut mlua::ffi::lua_State) -> std::ffi::c_int {
            let body = $crate::lua::shared::level_method::body($body);
            // SAFETY: Lua called this function with a valid state.
            unsafe { $crate::lua::shared::level_method::on_level(state, $label, body) }
        }
    };
}
pub(crate) use level_method;
