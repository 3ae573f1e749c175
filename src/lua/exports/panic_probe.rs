//! `map._panic_probe()`: panics on purpose, so the tests can show that a
//! panic inside the module surfaces as a Lua error and the host keeps
//! running. Only in the probe modules (`make probe`, the cargo feature
//! `probe`).

use crate::lua::stack::call::function;
use crate::lua::stack::{Args, Export};

pub const EXPORT: Export = Export {
    name: "_panic_probe",
    function: panic_probe,
    method: None,
    #[cfg(feature = "luajit")]
    helpers: &[],
};

function!(panic_probe, "map._panic_probe", |_: &Args| -> Result<(), String> {
    panic!("probe")
});
