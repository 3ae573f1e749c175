//! `map`: roguelike maps for Lua. Four parts, each a folder: the
//! generators (`generators/`, each carving a grid), the level pipeline they
//! share (`level/`: options, doors, `@` and `>`, items, metadata, JSON), the
//! toolkit that works on any map (`toolkit/`: reach, fov, distances, path),
//! and the Lua binding (`lua/`, built per interpreter). Everything but `lua`
//! is plain Rust with no Lua in it. `docs/architecture.md` has the map.

pub mod args;
pub mod generators;
pub mod grid;
pub mod level;
pub mod memory;
pub mod rng;
pub mod toolkit;

#[cfg(any(feature = "lua54", feature = "luajit"))]
mod lua;
