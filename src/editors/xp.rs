//! REXPaint's `.xp` images: gzip of a version (-1), a layer count, then per
//! layer its width and height and its cells column by column, each a
//! little-endian u32 glyph (a CP437 index) and the foreground's and the
//! background's red, green and blue. A map is one layer, its characters
//! as glyphs (the byte itself, or through the game's `glyphs` pairs), white
//! on black. Read back, the layers are laid on each other as REXPaint
//! shows them: a cell of a layer above the first whose background is
//! (255, 0, 255) is transparent.

use std::io::{Read, Write};

use flate2::read::GzDecoder;
use flate2::write::GzEncoder;
use flate2::Compression;

use super::distinct;
use crate::grid::Grid;
use crate::input::MAX_CELLS;
use crate::memory;

/// REXPaint's layers: at most 9.
const MAX_LAYERS: u32 = 9;
const TRANSPARENT: [u8; 3] = [255, 0, 255];

/// The glyph of each of a map's bytes, and back: the game's `glyphs`, pairs
/// of (a map's character, its glyph), over the identity.
pub struct Glyphs {
    glyph: [u8; 256],
    byte: [u8; 256],
}

impl Glyphs {
    /// From `pairs` (a map's byte, then its glyph, each once on either
    /// side). Read back, a glyph given to a character is that character;
    /// every other glyph is its own byte.
    pub fn new(pairs: &[u8]) -> Result<Glyphs, String> {
        if !pairs.len().is_multiple_of(2) {
            return Err("glyphs must hold pairs: a map's character, then its glyph".into());
        }
        let (chars, glyphs): (Vec<u8>, Vec<u8>) = pairs.chunks(2).map(|p| (p[0], p[1])).unzip();
        if !pairs.is_empty() {
            distinct(&chars, "glyphs' characters")?;
            distinct(&glyphs, "glyphs' glyphs")?;
        }
        let mut glyph: [u8; 256] = std::array::from_fn(|b| b as u8);
        let mut byte = glyph;
        for (&c, &g) in chars.iter().zip(&glyphs) {
            glyph[c as usize] = g;
            byte[g as usize] = c;
        }
        Ok(Glyphs { glyph, byte })
    }
}

/// The memory `write` of a map of `size` may use: the image (10 bytes a
/// cell) and its gzip.
pub fn bound_write((width, height): (usize, usize)) -> usize {
    21 * width * height + memory::FIXED
}

/// The map as a gzipped REXPaint image.
pub fn write(grid: &Grid, glyphs: &Glyphs) -> Vec<u8> {
    let (w, h) = (grid.width(), grid.height());
    let mut raw = Vec::with_capacity(16 + 10 * w * h);
    for n in [-1i32, 1, w as i32, h as i32] {
        raw.extend_from_slice(&n.to_le_bytes());
    }
    for x in 0..w {
        for y in 0..h {
            let c = grid.cells()[y * w + x];
            raw.extend_from_slice(&(glyphs.glyph[c as usize] as u32).to_le_bytes());
            raw.extend_from_slice(&[255, 255, 255, 0, 0, 0]);
        }
    }
    let mut gz = GzEncoder::new(
        Vec::with_capacity(raw.len() + raw.len() / 100 + 64),
        Compression::default(),
    );
    gz.write_all(&raw).expect("writing to a Vec");
    gz.finish().expect("writing to a Vec")
}

/// The memory `read` of an image of `size` may use: the grid, and one
/// byte a cell for whether a layer above has painted it.
pub fn bound_read((width, height): (usize, usize)) -> usize {
    2 * width * height + memory::FIXED
}

/// A reader of the image's inflated bytes that names what it was reading
/// when they end.
struct Image<R: Read>(R);

impl<R: Read> Image<R> {
    fn exact<const N: usize>(&mut self, what: &str) -> Result<[u8; N], String> {
        let mut buf = [0; N];
        self.0.read_exact(&mut buf).map_err(|e| match e.kind() {
            std::io::ErrorKind::UnexpectedEof => format!("the image ends inside {what}"),
            _ => format!("the image's gzip is corrupt: {e}"),
        })?;
        Ok(buf)
    }

    fn int(&mut self, what: &str) -> Result<i32, String> {
        Ok(i32::from_le_bytes(self.exact::<4>(what)?))
    }
}

/// A map read from a REXPaint image (the gzipped bytes): its grid.
pub fn read(data: &[u8], glyphs: &Glyphs) -> Result<Grid, String> {
    if !data.starts_with(&[0x1f, 0x8b]) {
        return Err("the data is not a REXPaint image (no gzip header)".into());
    }
    let mut image = Image(GzDecoder::new(data));
    let first = image.int("its header")?;
    // Images before REXPaint 1.02 start with the layer count.
    let layers = if first < 0 {
        image.int("its header")?
    } else {
        first
    };
    if !(1..=MAX_LAYERS as i32).contains(&layers) {
        return Err(format!(
            "the image must have 1 to {MAX_LAYERS} layers, got {layers}"
        ));
    }
    let mut grid: Option<Grid> = None;
    let mut painted = Vec::new();
    for layer in 1..=layers {
        let (w, h) = (image.int("a layer's size")?, image.int("a layer's size")?);
        let size = layer_size(w, h, layer)?;
        let grid = match &mut grid {
            Some(g) if (g.width(), g.height()) != size => {
                return Err(format!(
                    "layer {layer} is {w}x{h}, layer 1 {}x{}",
                    g.width(),
                    g.height()
                ))
            }
            Some(g) => g,
            None => {
                memory::check(bound_read(size))?;
                painted = vec![false; size.0 * size.1];
                grid.insert(Grid::new(size.0, size.1, 0))
            }
        };
        read_layer(&mut image, grid, &mut painted, layer, glyphs)?;
    }
    if image
        .0
        .read(&mut [0])
        .map_err(|e| format!("the image's gzip is corrupt: {e}"))?
        != 0
    {
        return Err("the image has bytes after its last layer".into());
    }
    Ok(grid.expect("at least one layer"))
}

fn layer_size(w: i32, h: i32, layer: i32) -> Result<(usize, usize), String> {
    if w < 1 || h < 1 || (w as i64) * (h as i64) > MAX_CELLS as i64 {
        return Err(format!(
            "layer {layer} is {w}x{h}: a layer must have 1 to {MAX_CELLS} cells"
        ));
    }
    Ok((w as usize, h as usize))
}

/// One layer's cells, column by column, onto the grid: the top layer's
/// painted cell wins (layers are read bottom up).
fn read_layer<R: Read>(
    image: &mut Image<R>,
    grid: &mut Grid,
    painted: &mut [bool],
    layer: i32,
    glyphs: &Glyphs,
) -> Result<(), String> {
    let (w, h) = (grid.width(), grid.height());
    for x in 0..w {
        for y in 0..h {
            let cell: [u8; 10] = image.exact("a layer's cells")?;
            let glyph = u32::from_le_bytes([cell[0], cell[1], cell[2], cell[3]]);
            if layer > 1 && cell[7..10] == TRANSPARENT {
                continue;
            }
            let g = u8::try_from(glyph).map_err(|_| {
                format!(
                    "layer {layer}, cell ({},{}): glyph {glyph} is not CP437 (0 to 255)",
                    x + 1,
                    y + 1
                )
            })?;
            let i = y * w + x;
            grid.set_at(i, glyphs.byte[g as usize]);
            painted[i] = true;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gz(raw: &[u8]) -> Vec<u8> {
        let mut gz = GzEncoder::new(Vec::new(), Compression::default());
        gz.write_all(raw).unwrap();
        gz.finish().unwrap()
    }

    #[test]
    fn goes_there_and_back() {
        let grid = Grid::from_rows(&["#####", "#@.>#", "#####"]);
        let plain = Glyphs::new(b"").unwrap();
        assert_eq!(read(&write(&grid, &plain), &plain).unwrap(), grid);
        let mine = Glyphs::new(&[b'#', 219, b'.', 250]).unwrap();
        let data = write(&grid, &mine);
        assert_eq!(read(&data, &mine).unwrap(), grid);
        assert_eq!(read(&data, &plain).unwrap().cells()[0], 219);
        let all = Grid::from_cells(16, 16, (0..=255).collect());
        assert_eq!(read(&write(&all, &plain), &plain).unwrap(), all);
    }

    #[test]
    fn lays_layers_on_each_other() {
        let mut raw = Vec::new();
        for n in [-1i32, 2, 2, 1] {
            raw.extend_from_slice(&n.to_le_bytes());
        }
        for g in [b'#', b'.'] {
            raw.extend_from_slice(&(g as u32).to_le_bytes());
            raw.extend_from_slice(&[255, 255, 255, 0, 0, 0]);
        }
        raw.extend_from_slice(&2i32.to_le_bytes());
        raw.extend_from_slice(&1i32.to_le_bytes());
        raw.extend_from_slice(&(b'@' as u32).to_le_bytes());
        raw.extend_from_slice(&[255, 255, 255, 0, 0, 0]);
        raw.extend_from_slice(&0u32.to_le_bytes());
        raw.extend_from_slice(&[0, 0, 0, 255, 0, 255]);
        assert_eq!(
            read(&gz(&raw), &Glyphs::new(b"").unwrap()).unwrap(),
            Grid::from_rows(&["@."])
        );
    }

    #[test]
    fn refuses_what_is_not_an_image() {
        let plain = Glyphs::new(b"").unwrap();
        let err = |raw: &[u8]| read(&gz(raw), &plain).unwrap_err();
        assert_eq!(
            read(b"not gzip", &plain).unwrap_err(),
            "the data is not a REXPaint image (no gzip header)"
        );
        let mut torn = write(&Grid::from_rows(&["##"]), &plain);
        torn.truncate(torn.len() - 12);
        assert!(read(&torn, &plain).unwrap_err().starts_with("the image"));
        assert_eq!(err(&[]), "the image ends inside its header");
        assert_eq!(
            err(&[255, 255, 255, 255, 10, 0, 0, 0]),
            "the image must have 1 to 9 layers, got 10"
        );
        let huge: Vec<u8> = [-1i32, 1, 5000, 5000]
            .iter()
            .flat_map(|n| n.to_le_bytes())
            .collect();
        assert_eq!(
            err(&huge),
            "layer 1 is 5000x5000: a layer must have 1 to 4000000 cells"
        );
        let short: Vec<u8> = [-1i32, 1, 2, 2]
            .iter()
            .flat_map(|n| n.to_le_bytes())
            .collect();
        assert_eq!(err(&short), "the image ends inside a layer's cells");
        let mut wide: Vec<u8> = [-1i32, 1, 1, 1, 300]
            .iter()
            .flat_map(|n| n.to_le_bytes())
            .collect();
        wide.extend_from_slice(&[0; 6]);
        assert_eq!(
            err(&wide),
            "layer 1, cell (1,1): glyph 300 is not CP437 (0 to 255)"
        );
        let mut extra = write(&Grid::from_rows(&["#"]), &plain);
        extra = {
            let mut raw = Vec::new();
            GzDecoder::new(&extra[..]).read_to_end(&mut raw).unwrap();
            raw.push(0);
            gz(&raw)
        };
        assert_eq!(
            read(&extra, &plain).unwrap_err(),
            "the image has bytes after its last layer"
        );
        assert_eq!(
            Glyphs::new(b"#").err().unwrap(),
            "glyphs must hold pairs: a map's character, then its glyph"
        );
        assert_eq!(
            Glyphs::new(b"#a.a").err().unwrap(),
            "glyphs' glyphs holds 'a' twice"
        );
    }
}
