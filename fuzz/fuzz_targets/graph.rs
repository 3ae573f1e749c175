//! The reader of a whole game saved (`map::toolbox::graph`, what
//! `map.load` reads from `map.save`'s strings) under libFuzzer: any bytes
//! are read without a panic, within `graph::bound_load` of heap, and what
//! is read writes back to the same bytes (`graph::write_again`: every
//! value is read only in the form `map.save` writes it). The first input
//! byte picks a mode:
//!
//! - **raw**: the bytes as they are, as LuaJIT (integers within 2^53) and
//!   Lua 5.4 read them, and as a text form (`mapvalue1:` then the rest);
//! - **framed** (most inputs): the rest framed as a save (the magic, the
//!   version, a right length and checksum), so that any body reaches the
//!   reader's deeper checks (its values, tables, natives).

#![no_main]

use libfuzzer_sys::fuzz_target;
use map::toolbox::graph::{self, fnv1a, MAGIC, VERSION};

#[path = "../../tests/support/counting.rs"]
mod counting;

fn framed(body: &[u8]) -> Vec<u8> {
    let mut out = MAGIC.to_vec();
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&((body.len() + 8) as u32).to_le_bytes());
    out.extend_from_slice(body);
    let sum = fnv1a(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

/// Reads `bytes` both ways, within the bound; what loads writes back the same.
fn check(bytes: &[u8]) {
    for max_int in [None, Some(1i64 << 53)] {
        let (loaded, peak) = counting::peak_of(|| graph::read(bytes, max_int));
        assert!(peak <= graph::bound_load(bytes.len()), "{peak} bytes");
        if let Ok(loaded) = loaded {
            assert_eq!(graph::write_again(&loaded).unwrap(), bytes);
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    if mode < 32 {
        check(rest);
        let mut text = graph::TEXT_PREFIX.to_vec();
        text.extend_from_slice(rest);
        if let Ok(bytes) = graph::from_text(&text) {
            check(&bytes);
        }
    } else {
        check(&framed(rest));
    }
});
