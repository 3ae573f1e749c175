//! The `glyphs` option of `map.to_xp` and `map.from_xp`.

use std::ffi::c_int;

use crate::editors::cp437;
use crate::editors::xp::Glyphs;
use crate::input::Arg;
use crate::lua::shared::options::read_options;
use crate::lua::stack::Args;

/// The `glyphs` option of `to_xp` and `from_xp`: pairs of a map's
/// character and its glyph, as CP437 characters in UTF-8 (`"#█.·"`).
pub fn glyphs(args: &Args, index: c_int) -> Result<Glyphs, String> {
    let mut pairs = Vec::new();
    read_options(args, index, &["glyphs"], |_, value| {
        let text = match value {
            Arg::Str(s) => std::str::from_utf8(s)
                .map_err(|_| format!("glyphs must be UTF-8 text, got {value}"))?,
            other => return Err(format!("glyphs must be a string, got {other}")),
        };
        pairs = cp437::bytes_of(text)
            .map_err(|c| format!("glyphs must be CP437 characters, got '{c}'"))?;
        Ok(())
    })?;
    Glyphs::new(&pairs)
}
