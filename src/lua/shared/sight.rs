//! What the exports that look share: the radius, the opaque characters
//! and their default.

use std::ffi::c_int;

use super::options::{read_options, string_option};
use crate::grid::{byte_set, ByteSet};
use crate::input::{int_in, Arg};
use crate::lua::stack::Args;

/// `fov`'s default: walls and closed doors block sight.
pub const OPAQUE: &[u8] = b"#+";

/// `fov`'s radius: none, or an integer >= 0, cut to `far` (past the map's
/// far corner a radius is no limit, and r * (r + 1) stays small).
pub fn radius(arg: Arg, far: usize) -> Result<Option<usize>, String> {
    match arg {
        Arg::Missing => Ok(None),
        arg => Ok(Some(
            int_in("radius", arg, 0, i64::MAX)?.min(far as i64) as usize
        )),
    }
}

/// `fov`'s options: the characters that block sight.
pub fn opaque(args: &Args, index: c_int) -> Result<ByteSet, String> {
    let mut opaque = byte_set(OPAQUE);
    // On a level, `into` (a memory to mark) and `field` are read by `level:fov`.
    let names: &[&str] = if args.is_method() {
        &["field", "into", "opaque"]
    } else {
        &["opaque"]
    };
    read_options(args, index, names, |name, value| {
        if name == "opaque" {
            opaque = byte_set(string_option(name, value)?);
        }
        Ok(())
    })?;
    Ok(opaque)
}
