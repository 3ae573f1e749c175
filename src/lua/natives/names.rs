//! A generator of names (`map.names`, docs/api.md#mapnamesexamples--options,
//! toolbox/names.rs) as a userdata: its kind and its method `name`.

use std::ptr::NonNull;

use crate::input::{self, Arg, INTERNAL_ERROR};
use crate::lua::shared::seed::{SeedDraw, Seeded};
use crate::lua::stack::block::{methods, native_method, reads, what, Kind, Native};
use crate::lua::stack::{Args, Method};
use crate::toolbox::names::Names;
use crate::toolbox::random::Random;

static KIND: Kind = Kind::new("names", "names generator", "a", b"mapnames");

impl Native for Names {
    fn kind() -> &'static Kind {
        &KIND
    }
    const METHODS: &'static [Method] = METHODS;
    type Property = ();
    /// `map.names: 5 to 10 characters`.
    fn text(&self) -> String {
        let (min, max) = self.bounds();
        format!(": {min} to {max} characters")
    }
    fn bytes(&self) -> usize {
        Names::bytes(self)
    }
}

methods! {
    "names", native_method::<Names, _>, reads::<Names, _, _>;
    name => draw,
}

/// `g:name([r | seed])`: a name drawn with the source `r` (which then
/// moves on past the draws, once the name is pushed; an error leaves it as
/// it was), with a new source from `seed`, or from a fresh seed.
fn draw(args: &Args, names: &Names) -> Result<Seeded<Vec<u8>>, String> {
    args.at_most(2)?;
    let (drawn, moved) = match (args.get(2), args.native(2, Random::kind())) {
        (_, Some(source)) => {
            let source = NonNull::new(source.cast::<Random>()).ok_or(INTERNAL_ERROR)?;
            // SAFETY: argument 2 holds the source during the call, in which
            // no Lua code runs; it is not `self`.
            let mut after = unsafe { source.as_ref() }.clone();
            let drawn = names.name(&mut after)?;
            (drawn, SeedDraw::moved(source, after))
        }
        (arg @ (Arg::Missing | Arg::Int(_) | Arg::Float(_)), None) => {
            let drawn = names.name(&mut Random::new(input::seed(arg)?))?;
            (drawn, SeedDraw::default())
        }
        (_, None) => {
            return Err(format!(
                "expected a random source (map.rng) or a seed, got {}",
                what(args, 2)
            ))
        }
    };
    Ok(Seeded(drawn.into_bytes(), moved))
}
