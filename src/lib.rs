//! `map`: roguelike maps for Lua. The core (everything but `lua`) is plain
//! Rust with no Lua in it; `lua` is the thin binding built per interpreter.

pub mod algorithm;
pub mod distance;
pub mod doors;
pub mod fov;
pub mod generate;
pub mod grid;
pub mod json;
pub mod memory;
pub mod options;
pub mod path;
pub mod place;
pub mod reach;
pub mod rng;

/// Declares the generator modules (each one file that declares its
/// `ALGORITHM`) and `GENERATORS`, the list of them, in one place.
macro_rules! generators {
    ($($name:ident),* $(,)?) => {
        $(pub mod $name;)*
        /// Every generator, in the order given to `generators!`.
        pub const GENERATORS: &[&algorithm::Algorithm] = &[$(&$name::ALGORITHM),*];
    };
}

// The generators, in the order `map.ALGORITHMS` lists them; the first is the
// default. Adding one: a new file, and its name here.
generators! {
    rooms,
    cave,
    bsp,
    cellular,
    drunkard,
    maze,
}

#[cfg(any(feature = "lua54", feature = "luajit"))]
mod lua;
