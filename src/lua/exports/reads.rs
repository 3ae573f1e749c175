//! `map._reads()`: the raw reads of table entries since the last call
//! (`args::take_reads`), for the spec that counts what reading a map costs.
//! Only in the probe modules.

use crate::lua::stack::args::take_reads;
use crate::lua::stack::call::function;
use crate::lua::stack::{Args, Export};

pub const EXPORT: Export = Export {
    name: "_reads",
    function: reads,
    method: None,
    #[cfg(feature = "luajit")]
    helpers: &[],
};

function!(reads, "map._reads", |_: &Args| Ok(take_reads() as i64));
