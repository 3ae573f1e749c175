//! The toolkit: what a game does with any map, generated or hand-made.
//! Each function reads a `Grid` and returns plain data; the binding turns
//! that into Lua tables.

pub mod analyze;
pub mod autotile;
pub mod board;
pub mod distances;
pub mod explore;
pub mod flee;
pub mod flood;
pub mod fov;
pub mod frame;
pub mod light;
pub mod line;
pub mod noise;
pub mod parse;
pub mod path;
mod radix_heap;
pub mod reach;
pub mod sample;
pub mod step;
pub mod visible;
