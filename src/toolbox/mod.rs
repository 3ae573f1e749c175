//! The game's toolbox: what a game needs besides maps, with `map`'s
//! guarantees (the same results everywhere and across releases, no crash
//! on any input, clear errors). A random source that saves (`random.rs`),
//! the order of turns (`scheduler.rs`), names (`names.rs`) and a whole
//! game saved (`graph.rs`).

pub mod graph;
pub mod names;
pub mod random;
pub mod scheduler;
