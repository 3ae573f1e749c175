//! `map.rng([seed | state])`: a new random source, from a seed (an
//! integer, `|seed| <= 2^53`; a fresh one when none) or a saved state (its
//! kind and methods: `natives/rng.rs`).

use crate::input::{self, Arg};
use crate::lua::stack::call::function;
use crate::lua::stack::{Args, Export, Fresh};
use crate::toolbox::random::Random;

pub const EXPORT: Export = Export {
    name: "rng",
    function: rng,
    method: None,
    #[cfg(feature = "luajit")]
    helpers: &[],
};

function!(rng, "map.rng", |args: &Args| {
    args.at_most(1)?;
    let r = match args.get(1) {
        Arg::Str(text) => Random::load(text)?,
        arg @ (Arg::Missing | Arg::Int(_) | Arg::Float(_)) => Random::new(input::seed(arg)?),
        other => {
            return Err(format!(
                "expected a seed (an integer with |seed| <= 2^53) or a state (rng:state()), got {}",
                other.type_name()
            ))
        }
    };
    Ok(Fresh::new(r))
});
