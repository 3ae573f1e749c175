//! The level editors' readers (`map::editors`, issue 39) under libFuzzer,
//! meant to run under AddressSanitizer: what `map.from_tiled` and
//! `map.from_xp` may be handed. The first input byte picks a mode; the rest
//! is the file, or the map that is written first and then damaged.
//!
//! - **tiled bytes** and **xp bytes**: any bytes as the file.
//! - **tiled written** and **xp written**: a map of any bytes (up to 40x40)
//!   written by `tiled::write` (JSON, the game's tiles or not) or
//!   `xp::write` (with glyph pairs or not), which must read back equal;
//!   then damaged (bytes flipped, truncated, a run inserted) and read
//!   again: an error or a map, never a panic, and within the bound.
//!
//! Every read holds at most its bound of heap (a counting allocator):
//! `tiled::bound_read_json` plus `bound_read_cells` of what it read,
//! `xp::bound_read` of the size it read.

#![no_main]

use libfuzzer_sys::arbitrary::{Result, Unstructured};
use libfuzzer_sys::fuzz_target;
use map::editors::{tiled, xp};
use map::grid::Grid;

#[path = "../../tests/support/counting.rs"]
#[allow(dead_code)]
mod counting;

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else {
        return;
    };
    let _ = match mode % 4 {
        0 => {
            read_tiled(rest);
            Ok(())
        }
        1 => {
            read_xp(rest);
            Ok(())
        }
        2 => written_tiled(&mut Unstructured::new(rest)),
        _ => written_xp(&mut Unstructured::new(rest)),
    };
});

/// Reads Tiled JSON: no panic, and the heap within the bound.
fn read_tiled(text: &[u8]) -> Option<Grid> {
    let (read, peak) = counting::peak_of(|| tiled::read(text, None, b' '));
    // Refused, it may have asked for the largest map it can read.
    let cells = read
        .as_ref()
        .map_or(map::input::MAX_CELLS, |g| g.cells().len());
    let bound = tiled::bound_read_json(text.len()) + tiled::bound_read_cells(cells, text.len());
    assert!(peak <= bound, "tiled::read: {peak} > {bound}");
    read.ok()
}

/// Reads a REXPaint image: no panic, and the heap within the bound.
fn read_xp(data: &[u8]) -> Option<Grid> {
    let glyphs = xp::Glyphs::new(b"").unwrap();
    let (read, peak) = counting::peak_of(|| xp::read(data, &glyphs));
    if let Ok(g) = &read {
        let bound = xp::bound_read((g.width(), g.height()));
        assert!(peak <= bound, "xp::read: {peak} > {bound}");
    } else {
        // Refused: at most what the largest image would take, and a gzip's state.
        assert!(
            peak <= xp::bound_read((2000, 2000)),
            "xp::read refused with {peak} bytes"
        );
    }
    read.ok()
}

fn grid(u: &mut Unstructured) -> Result<Grid> {
    let (w, h) = (u.int_in_range(1..=40)?, u.int_in_range(1..=40)?);
    let mut cells = Vec::with_capacity(w * h);
    for _ in 0..w * h {
        cells.push(u.arbitrary()?);
    }
    Ok(Grid::from_cells(w, h, cells))
}

/// Damages `bytes` one to three times.
fn damage(u: &mut Unstructured, bytes: &mut Vec<u8>) -> Result<()> {
    for _ in 0..u.int_in_range(1..=3)? {
        if bytes.is_empty() {
            break;
        }
        let at = u.choose_index(bytes.len())?;
        match u.int_in_range(0..=2)? {
            0 => bytes[at] ^= u.int_in_range(1..=255)?,
            1 => bytes.truncate(at),
            _ => {
                let run: Vec<u8> = u.arbitrary()?;
                bytes.splice(at..at, run);
            }
        }
    }
    Ok(())
}

fn written_tiled(u: &mut Unstructured) -> Result<()> {
    let g = grid(u)?;
    let mut used: Vec<u8> = g.cells().to_vec();
    used.sort_unstable();
    used.dedup();
    let own = u.arbitrary::<bool>()?;
    let how = tiled::Writing {
        tiles: own.then_some(&used[..]),
        format: tiled::Format::Json,
        tile_width: 16,
        tile_height: 16,
        image: "x.png",
    };
    let mut text = tiled::write(&g, &how).expect("every character is a tile");
    assert_eq!(
        read_tiled(&text).as_ref(),
        Some(&g),
        "a written map reads back"
    );
    damage(u, &mut text)?;
    read_tiled(&text);
    Ok(())
}

fn written_xp(u: &mut Unstructured) -> Result<()> {
    let g = grid(u)?;
    let pairs: Vec<u8> = if u.arbitrary()? {
        vec![b'#', 219, b'.', 250]
    } else {
        Vec::new()
    };
    let glyphs = xp::Glyphs::new(&pairs).unwrap();
    let mut data = xp::write(&g, &glyphs);
    if pairs.is_empty() {
        assert_eq!(
            read_xp(&data).as_ref(),
            Some(&g),
            "a written image reads back"
        );
    }
    damage(u, &mut data)?;
    read_xp(&data);
    Ok(())
}
