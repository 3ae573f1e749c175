//! `map.field(width, height)`: a memory, no cell set (a field's kind and
//! methods: `natives/field.rs`).

use crate::input::size;
use crate::lua::natives::field::new_memory;
use crate::lua::stack::call::function;
use crate::lua::stack::{Args, Export};

pub const EXPORT: Export = Export {
    name: "field",
    function: field,
    method: None,
    #[cfg(feature = "luajit")]
    helpers: &[],
};

function!(field, "map.field", |args: &Args| {
    args.at_most(2)?;
    new_memory(size(args.get(1), args.get(2), 1, 1)?)
});
