//! Maps for the editors people draw levels in: Tiled (`tiled.rs`: its JSON
//! map, `.tmj`, and its Lua export, which LÖVE's STI loads) and REXPaint
//! (`xp.rs`: its gzipped `.xp` images), each written from a map and read
//! back into one. A map's character is a byte; as a tile it is a tile id
//! (by default the byte itself, CP437's order, `cp437.rs`), as a glyph a
//! CP437 index. Plain Rust, no Lua: the binding is `lua/exports/to_tiled.rs`
//! and its siblings.

pub mod cp437;
pub mod tiled;
pub mod xp;

/// The characters a game gives as its tiles or glyphs, checked: at most
/// 256, each once. `what` names the option in messages.
pub fn distinct(chars: &[u8], what: &str) -> Result<(), String> {
    if chars.is_empty() || chars.len() > 256 {
        return Err(format!(
            "{what} must hold 1 to 256 characters, got {}",
            chars.len()
        ));
    }
    let mut seen = [false; 256];
    for &c in chars {
        if std::mem::replace(&mut seen[c as usize], true) {
            return Err(format!("{what} holds {} twice", shown(c)));
        }
    }
    Ok(())
}

/// A byte as messages show it: `'#'`, or `byte 200`.
pub fn shown(c: u8) -> String {
    if (b' '..=b'~').contains(&c) {
        format!("'{}'", c as char)
    } else {
        format!("byte {c}")
    }
}
