//! `map.generate_json(...)`: the level as JSON text (`level/json.rs`).

use crate::level::json;
use crate::lua::shared::params;
use crate::lua::stack::call::function;
use crate::lua::stack::{Args, Export};

pub const EXPORT: Export = Export {
    name: "generate_json",
    function: generate_json,
    method: None,
    #[cfg(feature = "luajit")]
    helpers: &[],
};

function!(generate_json, "map.generate_json", |args: &Args| {
    Ok(json::level(&params::level(args)?).into_bytes())
});
