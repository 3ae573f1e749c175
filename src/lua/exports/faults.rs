//! `map._faults([k])`: ends the fault-injection measure begun by the last
//! call and begins another, whose `k`-th memory check fails (0 or none: no
//! check fails); returns the measure that ended, as the number of checks
//! (the allocation points), whether the armed one failed, the module's
//! heap at its peak and now over what was live when it began, and whether
//! that peak was within its largest check and `memory::FIXED`
//! (`memory::faults`). Only in the probe modules, for
//! tests/faults/.

use std::ffi::c_int;

use mlua::ffi::lua_State;

use crate::input::{self, Arg};
use crate::lua::stack::call::{function, Reply};
use crate::lua::stack::{push, Args, Export};
use crate::memory::faults::{self, Measure};
use crate::memory;

pub const EXPORT: Export = Export {
    name: "_faults",
    function: measure,
    method: None,
    #[cfg(feature = "luajit")]
    helpers: &[],
};

impl Reply for Measure {
    unsafe fn push_on(&self, l: *mut lua_State) -> c_int {
        let count = |n: usize| i64::try_from(n).unwrap_or(i64::MAX);
        // SAFETY: the pushers' contract, five values.
        unsafe {
            push::push_integer(l, count(self.points));
            push::push_boolean(l, self.failed);
            push::push_integer(l, self.peak as i64);
            push::push_integer(l, self.live as i64);
            push::push_boolean(l, self.peak <= (self.checked + memory::FIXED) as isize);
        }
        5
    }
}

function!(measure, "map._faults", |args: &Args| {
    args.at_most(1)?;
    let armed = match args.get(1) {
        Arg::Missing => 0,
        arg => input::int_in("k", arg, 0, i64::from(u32::MAX))?,
    };
    Ok(faults::restart(armed as usize))
});
