//! `map`: roguelike maps for Lua. Its parts, each a folder: the generators
//! (`generators/`, each carving a grid), the level pipeline they share
//! (`level/`: options, doors, `@` and `>`, items, metadata, JSON), the
//! toolkit that works on any map (`toolkit/`: reach, fov, distances, path),
//! the game's toolbox (`toolbox/`: a random source that saves, the order of
//! turns, names), and the Lua binding (`lua/`, built per interpreter).
//! Everything but `lua` is plain Rust with no Lua in it.
//! `docs/architecture.md` has the map.

// Every `unsafe` says why it holds (docs/hardening.md): a block its
// `SAFETY:` comment, checked by clippy in `make lint`; an unsafe function's
// own operations each in a block of their own.
#![deny(clippy::undocumented_unsafe_blocks, unsafe_op_in_unsafe_fn)]

pub mod editors;
pub mod generators;
pub mod grid;
pub mod input;
pub mod level;
pub mod memory;
pub mod native;
pub mod rng;
pub mod toolbox;
pub mod toolkit;

#[cfg(any(feature = "lua54", feature = "luajit"))]
mod lua;
