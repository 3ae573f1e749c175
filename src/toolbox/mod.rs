//! The game's toolbox: what a game needs besides maps, with `map`'s
//! guarantees (the same results everywhere and across releases, no crash
//! on any input, clear errors). A random source that saves (`random.rs`),
//! the order of turns (`scheduler.rs`) and names (`names.rs`).

pub mod graph;
pub mod names;
pub mod random;
pub mod scheduler;
