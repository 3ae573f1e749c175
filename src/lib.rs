//! `map`: roguelike maps for Lua. The core (everything but `lua`) is plain
//! Rust with no Lua in it; `lua` is the thin binding built per interpreter.

pub mod algorithm;
pub mod bsp;
pub mod cave;
pub mod cellular;
pub mod distance;
pub mod doors;
pub mod drunkard;
pub mod fov;
pub mod generate;
pub mod grid;
pub mod json;
pub mod maze;
pub mod memory;
pub mod options;
pub mod path;
pub mod place;
pub mod reach;
pub mod rng;
pub mod rooms;

#[cfg(any(feature = "lua54", feature = "luajit"))]
mod lua;
