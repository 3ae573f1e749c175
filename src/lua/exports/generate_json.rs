//! `map.generate_json(...)`: the level as JSON text (`level/json.rs`).

use crate::level::json;
use crate::lua::shared::params;
use crate::lua::shared::seed::Seeded;
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
    let (level, draw) = params::level(args)?;
    Ok(Seeded(json::level(&level).into_bytes(), draw))
});
