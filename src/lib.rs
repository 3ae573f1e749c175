//! `map`: roguelike maps for Lua. The core (everything but `lua`) is plain
//! Rust with no Lua in it; `lua` is the thin binding built per interpreter.

pub mod cave;
pub mod generate;
pub mod grid;
pub mod json;
pub mod options;
pub mod place;
pub mod reach;
pub mod rng;
pub mod rooms;

#[cfg(any(feature = "lua54", feature = "luajit"))]
mod lua;
