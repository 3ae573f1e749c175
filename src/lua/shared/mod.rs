//! What several exports share, above the stack (`stack/`) and below the
//! exports (`exports/`) and natives (`natives/`): maps and cells among the
//! arguments (`cells.rs`), options tables (`options.rs`), what every
//! search is given (`search.rs`, its positions: `positions.rs`) and what
//! `distances` and `flee` read (`searched.rs`), what the exports that look
//! share (`sight.rs`),
//! `generate`'s arguments (`params.rs`, with `vaults`, `arrive` and
//! `place`: `design.rs`, `rng = r`: `seed.rs`, and a sample's rows:
//! `rows.rs`), `generate`'s table
//! (`level_table.rs`) and its metadata read back (`level_meta.rs`), a map
//! read from outside (`parsed.rs`) and the editors' `glyphs` (`glyphs.rs`),
//! a level's methods (`level_method.rs`) and, on LuaJIT, what the route's
//! helpers share (`route.rs`).

pub mod cells;
pub mod design;
pub mod glyphs;
pub mod level_meta;
pub mod level_method;
pub mod level_table;
pub mod options;
pub mod params;
pub mod parsed;
pub mod positions;
#[cfg(feature = "luajit")]
pub mod route;
pub mod rows;
pub mod search;
pub mod searched;
pub mod seed;
pub mod sight;
