//! Tiled's map formats: the JSON map (`.tmj`) and the Lua export STI loads,
//! written from a map; the JSON map read back (its layer data as an array,
//! or base64, plain, zlib or gzip).
//!
//! A map is one tile layer over one tileset. A character's tile id is its
//! byte (the CP437 order of a 16x16 glyph sheet), or its place in the
//! game's `tiles`; every tile of the tileset carries its character as the
//! property `char`, so that a map edited in Tiled, with tiles it did not
//! use before, reads back without options.

use std::io::Read;

use base64::alphabet;
use base64::engine::general_purpose::{GeneralPurpose, GeneralPurposeConfig};
use base64::engine::DecodePaddingMode;
use base64::Engine;
use flate2::read::{GzDecoder, ZlibDecoder};
use serde_json::{Map, Value};

use super::{cp437, distinct, shown};
use crate::grid::Grid;
use crate::input::MAX_CELLS;
use crate::memory;

/// Which of Tiled's formats to write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Json,
    Lua,
}

/// How a map is written: the game's tiles (None: the 256 bytes), the
/// tile size in pixels, the tileset's image file.
#[derive(Clone, Debug)]
pub struct Writing<'a> {
    pub tiles: Option<&'a [u8]>,
    pub format: Format,
    pub tile_width: u32,
    pub tile_height: u32,
    pub image: &'a str,
}

/// Tiled's flags on a gid (flips and rotation): a character has none.
const FLAGS: u32 = 0xF000_0000;

/// The tileset's characters by tile id: `tiles`, or the 256 bytes.
fn tileset(tiles: Option<&[u8]>) -> Result<Vec<u8>, String> {
    match tiles {
        Some(t) => {
            distinct(t, "tiles")?;
            Ok(t.to_vec())
        }
        None => Ok((0..=255).collect()),
    }
}

/// The text's size for a map of `size`: at most five bytes a cell
/// (`256,`), ten a row (the Lua export's indent), and the tileset's 256
/// tiles with the rest.
fn text_size((width, height): (usize, usize)) -> usize {
    5 * width * height + 10 * height + 256 * 96 + 4096
}

/// The memory `write` of a map of `size` may use: the gids (4 bytes a
/// cell) and the text.
pub fn bound_write((width, height): (usize, usize)) -> usize {
    4 * width * height + text_size((width, height)) + memory::FIXED
}

/// The map in Tiled's JSON or Lua format, or the first character that has
/// no tile.
pub fn write(grid: &Grid, how: &Writing) -> Result<Vec<u8>, String> {
    let chars = tileset(how.tiles)?;
    let mut id_of = [None; 256];
    for (id, &c) in chars.iter().enumerate() {
        id_of[c as usize] = Some(id as u32);
    }
    let mut gids = Vec::with_capacity(grid.cells().len());
    for &c in grid.cells() {
        match id_of[c as usize] {
            Some(id) => gids.push(id + 1),
            None => return Err(format!("the map's character {} is not in tiles", shown(c))),
        }
    }
    let mut out = Vec::with_capacity(text_size((grid.width(), grid.height())));
    match how.format {
        Format::Json => json(&mut out, grid, &gids, &chars, how),
        Format::Lua => lua(&mut out, grid, &gids, &chars, how),
    }
    Ok(out)
}

/// A string as JSON writes it.
fn json_string(out: &mut Vec<u8>, s: &str) {
    out.push(b'"');
    for c in s.chars() {
        match c {
            '"' => out.extend_from_slice(b"\\\""),
            '\\' => out.extend_from_slice(b"\\\\"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                out.extend_from_slice(format!("\\u{:04x}", c as u32).as_bytes())
            }
            c => out.extend_from_slice(c.encode_utf8(&mut [0; 4]).as_bytes()),
        }
    }
    out.push(b'"');
}

/// Bytes as a Lua string literal: printable ASCII as it is, the rest as
/// decimal escapes, so that the text is ASCII and the bytes exact.
fn lua_string(out: &mut Vec<u8>, bytes: &[u8]) {
    out.push(b'"');
    for &b in bytes {
        match b {
            b'"' | b'\\' => out.extend_from_slice(&[b'\\', b]),
            b' '..=b'~' => out.push(b),
            _ => out.extend_from_slice(format!("\\{b:03}").as_bytes()),
        }
    }
    out.push(b'"');
}

/// The tileset's size: (tile count, columns, rows).
fn sheet(count: usize) -> (usize, usize, usize) {
    let columns = count.min(16);
    (count, columns, count.div_ceil(columns))
}

fn json(out: &mut Vec<u8>, grid: &Grid, gids: &[u32], chars: &[u8], how: &Writing) {
    let (w, h) = (grid.width(), grid.height());
    let (count, columns, rows) = sheet(chars.len());
    let (tw, th) = (how.tile_width, how.tile_height);
    let name = if how.tiles.is_some() { "map" } else { "cp437" };
    out.extend_from_slice(
        format!(
            "{{\"type\":\"map\",\"version\":\"1.10\",\"tiledversion\":\"1.10.2\",\"orientation\":\"orthogonal\",\
             \"renderorder\":\"right-down\",\"infinite\":false,\"compressionlevel\":-1,\"width\":{w},\"height\":{h},\
             \"tilewidth\":{tw},\"tileheight\":{th},\"nextlayerid\":2,\"nextobjectid\":1,\"layers\":[{{\"type\":\"tilelayer\",\
             \"id\":1,\"name\":\"map\",\"x\":0,\"y\":0,\"width\":{w},\"height\":{h},\"opacity\":1,\"visible\":true,\"data\":["
        )
        .as_bytes(),
    );
    for (i, gid) in gids.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        out.extend_from_slice(gid.to_string().as_bytes());
    }
    out.extend_from_slice(
        format!(
            "]}}],\"tilesets\":[{{\"firstgid\":1,\"name\":\"{name}\",\"tilewidth\":{tw},\"tileheight\":{th},\
             \"spacing\":0,\"margin\":0,\"tilecount\":{count},\"columns\":{columns},\"image\":"
        )
        .as_bytes(),
    );
    json_string(out, how.image);
    out.extend_from_slice(
        format!(
            ",\"imagewidth\":{},\"imageheight\":{},\"tiles\":[",
            columns as u32 * tw,
            rows as u32 * th
        )
        .as_bytes(),
    );
    for (id, &c) in chars.iter().enumerate() {
        if id > 0 {
            out.push(b',');
        }
        out.extend_from_slice(
            format!(
                "{{\"id\":{id},\"properties\":[{{\"name\":\"char\",\"type\":\"string\",\"value\":"
            )
            .as_bytes(),
        );
        json_string(out, cp437::UNICODE[c as usize].encode_utf8(&mut [0; 4]));
        out.extend_from_slice(b"}]}");
    }
    out.extend_from_slice(b"]}]}");
}

fn lua(out: &mut Vec<u8>, grid: &Grid, gids: &[u32], chars: &[u8], how: &Writing) {
    let (w, h) = (grid.width(), grid.height());
    let (count, columns, rows) = sheet(chars.len());
    let (tw, th) = (how.tile_width, how.tile_height);
    let name = if how.tiles.is_some() { "map" } else { "cp437" };
    out.extend_from_slice(
        format!(
            "return {{\n  version = \"1.10\",\n  luaversion = \"5.1\",\n  tiledversion = \"1.10.2\",\n  class = \"\",\n  \
             orientation = \"orthogonal\",\n  renderorder = \"right-down\",\n  width = {w},\n  height = {h},\n  \
             tilewidth = {tw},\n  tileheight = {th},\n  nextlayerid = 2,\n  nextobjectid = 1,\n  properties = {{}},\n  \
             tilesets = {{\n    {{\n      name = \"{name}\",\n      firstgid = 1,\n      class = \"\",\n      \
             tilewidth = {tw},\n      tileheight = {th},\n      spacing = 0,\n      margin = 0,\n      columns = {columns},\n      \
             image = "
        )
        .as_bytes(),
    );
    lua_string(out, how.image.as_bytes());
    out.extend_from_slice(
        format!(
            ",\n      imagewidth = {},\n      imageheight = {},\n      objectalignment = \"unspecified\",\n      \
             tilerendersize = \"tile\",\n      fillmode = \"stretch\",\n      tileoffset = {{ x = 0, y = 0 }},\n      \
             grid = {{ orientation = \"orthogonal\", width = {tw}, height = {th} }},\n      properties = {{}},\n      \
             wangsets = {{}},\n      tilecount = {count},\n      tiles = {{\n",
            columns as u32 * tw,
            rows as u32 * th
        )
        .as_bytes(),
    );
    for (id, &c) in chars.iter().enumerate() {
        out.extend_from_slice(
            format!("        {{ id = {id}, properties = {{ [\"char\"] = ").as_bytes(),
        );
        lua_string(out, &[c]);
        out.extend_from_slice(b" } },\n");
    }
    out.extend_from_slice(
        format!(
            "      }}\n    }}\n  }},\n  layers = {{\n    {{\n      type = \"tilelayer\",\n      x = 0,\n      y = 0,\n      \
             width = {w},\n      height = {h},\n      id = 1,\n      name = \"map\",\n      class = \"\",\n      \
             visible = true,\n      opacity = 1,\n      offsetx = 0,\n      offsety = 0,\n      parallaxx = 1,\n      \
             parallaxy = 1,\n      properties = {{}},\n      encoding = \"lua\",\n      data = {{\n"
        )
        .as_bytes(),
    );
    for row in gids.chunks(w) {
        out.extend_from_slice(b"        ");
        for gid in row {
            out.extend_from_slice(gid.to_string().as_bytes());
            out.push(b',');
        }
        out.push(b'\n');
    }
    out.extend_from_slice(b"      }\n    }\n  }\n}\n");
}

/// How many bytes of parsed JSON a byte of text can become (serde_json's
/// values: 32 bytes each, in vectors that may be twice their length, for
/// an element of two bytes, `1,`), measured in tests/memory.rs.
const JSON_SHARE: usize = 40;

/// The memory `read` of a text of `len` bytes may use before it knows the
/// map's size: the parsed JSON.
pub fn bound_read_json(len: usize) -> usize {
    JSON_SHARE * len + memory::FIXED
}

/// The memory `read` may use besides the parsed JSON, for a map of
/// `cells` cells and layer data of `data` bytes: the data decoded, the
/// gids (4 bytes a cell, twice while inflating) and the grid.
pub fn bound_read_cells(cells: usize, data: usize) -> usize {
    data + 9 * cells + memory::FIXED
}

/// A map read from Tiled JSON: its grid. `tiles` names the characters of
/// tile ids that carry no `char` property (the game's, as written);
/// `empty` is the character of an empty cell (gid 0).
pub fn read(text: &[u8], tiles: Option<&[u8]>, empty: u8) -> Result<Grid, String> {
    if let Some(t) = tiles {
        distinct(t, "tiles")?;
    }
    memory::check(bound_read_json(text.len()))?;
    let root: Value =
        serde_json::from_slice(text).map_err(|e| format!("the text is not JSON: {e}"))?;
    let map = root
        .as_object()
        .ok_or("the text is not a Tiled map (its JSON is not an object)")?;
    if map.get("infinite") == Some(&Value::Bool(true)) {
        return Err("infinite Tiled maps are not read: save it as a fixed-size map".into());
    }
    let (width, height) = (size_of(map, "width")?, size_of(map, "height")?);
    if width * height > MAX_CELLS {
        return Err(format!(
            "the map has more than {MAX_CELLS} cells ({width}x{height})"
        ));
    }
    let layer = tile_layer(map, width, height)?;
    let data_len = layer
        .get("data")
        .and_then(Value::as_str)
        .map_or(0, str::len);
    memory::check(bound_read_json(text.len()) + bound_read_cells(width * height, data_len))?;
    let gids = layer_gids(layer, width * height)?;
    let sets = tilesets(map)?;
    let mut cells = Vec::with_capacity(width * height);
    for (i, gid) in gids.into_iter().enumerate() {
        let gid = gid & !FLAGS;
        let c = if gid == 0 {
            empty
        } else {
            char_of(&sets, gid, tiles)
                .map_err(|e| format!("cell ({},{}): {e}", i % width + 1, i / width + 1))?
        };
        cells.push(c);
    }
    Ok(Grid::from_cells(width, height, cells))
}

/// A positive integer field of a map or layer, at most `MAX_CELLS`.
fn size_of(map: &Map<String, Value>, key: &str) -> Result<usize, String> {
    match map.get(key).and_then(Value::as_u64) {
        Some(n) if n >= 1 && n <= MAX_CELLS as u64 => Ok(n as usize),
        _ => Err(format!(
            "the map's {key} must be an integer from 1 to {MAX_CELLS}"
        )),
    }
}

/// The map's first tile layer, of the map's size.
fn tile_layer(
    map: &Map<String, Value>,
    width: usize,
    height: usize,
) -> Result<&Map<String, Value>, String> {
    let layers = map
        .get("layers")
        .and_then(Value::as_array)
        .ok_or("the map has no layers")?;
    let layer = layers
        .iter()
        .filter_map(Value::as_object)
        .find(|l| l.get("type").and_then(Value::as_str) == Some("tilelayer"))
        .ok_or("the map has no tile layer")?;
    for (key, want) in [("width", width), ("height", height)] {
        if let Some(n) = layer.get(key) {
            if n.as_u64() != Some(want as u64) {
                return Err(format!("the tile layer's {key} is not the map's ({want})"));
            }
        }
    }
    Ok(layer)
}

/// The layer's gids, exactly `cells` of them: an array, or base64 text of
/// little-endian u32s, plain, zlib or gzip.
fn layer_gids(layer: &Map<String, Value>, cells: usize) -> Result<Vec<u32>, String> {
    match layer.get("data") {
        Some(Value::Array(items)) => {
            if items.len() != cells {
                return Err(format!(
                    "the tile layer holds {} cells, the map {cells}",
                    items.len()
                ));
            }
            items
                .iter()
                .enumerate()
                .map(|(i, v)| {
                    v.as_u64()
                        .and_then(|n| u32::try_from(n).ok())
                        .ok_or_else(|| {
                            format!("the tile layer's data[{}] is not a tile gid", i + 1)
                        })
                })
                .collect()
        }
        Some(Value::String(text)) => {
            let encoding = layer
                .get("encoding")
                .and_then(Value::as_str)
                .unwrap_or("csv");
            if encoding != "base64" {
                return Err(format!(
                    "the tile layer's data is text in the encoding {encoding:?}, not base64"
                ));
            }
            let packed = base64(text.as_bytes())?;
            let compression = layer
                .get("compression")
                .and_then(Value::as_str)
                .unwrap_or("");
            let bytes = inflate(&packed, compression, 4 * cells)?;
            Ok(bytes
                .chunks_exact(4)
                .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                .collect())
        }
        _ => Err("the tile layer has no data (an array of gids or base64 text)".into()),
    }
}

/// Base64 as Tiled writes it: the standard alphabet, `=` padding optional.
const BASE64: GeneralPurpose = GeneralPurpose::new(
    &alphabet::STANDARD,
    GeneralPurposeConfig::new().with_decode_padding_mode(DecodePaddingMode::Indifferent),
);

/// The layer's base64 text decoded, whitespace skipped (a copy only when
/// there is some).
fn base64(text: &[u8]) -> Result<Vec<u8>, String> {
    let decoded = if text.iter().any(u8::is_ascii_whitespace) {
        let packed: Vec<u8> = text
            .iter()
            .copied()
            .filter(|b| !b.is_ascii_whitespace())
            .collect();
        BASE64.decode(packed)
    } else {
        BASE64.decode(text)
    };
    decoded.map_err(|e| format!("the tile layer's base64 data is not base64: {e}"))
}

/// `packed` inflated as `compression` says, exactly `want` bytes: more or
/// fewer is an error, and no more than `want + 1` is ever inflated.
fn inflate(packed: &[u8], compression: &str, want: usize) -> Result<Vec<u8>, String> {
    let mut out = Vec::with_capacity(want + 1);
    let limit = want as u64 + 1;
    let read = match compression {
        "" => {
            out.extend_from_slice(&packed[..packed.len().min(want + 1)]);
            Ok(out.len())
        }
        "zlib" => ZlibDecoder::new(packed).take(limit).read_to_end(&mut out),
        "gzip" => GzDecoder::new(packed).take(limit).read_to_end(&mut out),
        other => {
            return Err(format!(
                "the tile layer's compression {other:?} is not read (zlib, gzip or none)"
            ))
        }
    };
    read.map_err(|e| format!("the tile layer's {compression} data is corrupt: {e}"))?;
    if out.len() != want {
        let more = if out.len() > want { "more than " } else { "" };
        return Err(format!(
            "the tile layer's data holds {more}{} bytes, the map needs {want} (4 a cell)",
            out.len().min(want)
        ));
    }
    Ok(out)
}

/// A tileset: its first gid, its tile count, and its tiles' `char`s.
struct Tileset {
    first: u32,
    count: u32,
    name: String,
    chars: Vec<(u32, u8)>,
}

/// The map's tilesets, by first gid.
fn tilesets(map: &Map<String, Value>) -> Result<Vec<Tileset>, String> {
    let list = map
        .get("tilesets")
        .and_then(Value::as_array)
        .ok_or("the map has no tilesets")?;
    let mut sets = Vec::new();
    for (i, v) in list.iter().enumerate() {
        let set = v
            .as_object()
            .ok_or(format!("tileset {} is not an object", i + 1))?;
        let first = set
            .get("firstgid")
            .and_then(Value::as_u64)
            .and_then(|n| u32::try_from(n).ok())
            .ok_or(format!("tileset {} has no firstgid", i + 1))?;
        let name = match (set.get("name"), set.get("source")) {
            (Some(Value::String(n)), _) => n.clone(),
            (_, Some(Value::String(s))) => s.clone(),
            _ => format!("{}", i + 1),
        };
        let count = set
            .get("tilecount")
            .and_then(Value::as_u64)
            .map_or(u32::MAX, |n| n.min(u32::MAX as u64) as u32);
        let mut chars = Vec::new();
        for tile in set
            .get("tiles")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            if let Some(pair) = tile_char(tile, &name)? {
                chars.push(pair);
            }
        }
        chars.sort_unstable();
        sets.push(Tileset {
            first,
            count,
            name,
            chars,
        });
    }
    sets.sort_by_key(|s| s.first);
    Ok(sets)
}

/// A tile's id and its `char` property, if it has one (a CP437 character).
fn tile_char(tile: &Value, set: &str) -> Result<Option<(u32, u8)>, String> {
    let id = tile
        .get("id")
        .and_then(Value::as_u64)
        .and_then(|n| u32::try_from(n).ok());
    let props = tile.get("properties").and_then(Value::as_array);
    let value = props.into_iter().flatten().find_map(|p| {
        (p.get("name").and_then(Value::as_str) == Some("char")).then(|| p.get("value"))
    });
    let (Some(id), Some(value)) = (id, value) else {
        return Ok(None);
    };
    let text = value.and_then(Value::as_str).unwrap_or("");
    let mut chars = text.chars();
    match (chars.next().and_then(cp437::byte_of), chars.next()) {
        (Some(b), None) => Ok(Some((id, b))),
        _ => Err(format!(
            "tileset {set:?}, tile {id}: its char must be one CP437 character, got {text:?}"
        )),
    }
}

/// The character of `gid` (flags cleared, not 0).
fn char_of(sets: &[Tileset], gid: u32, tiles: Option<&[u8]>) -> Result<u8, String> {
    let set = sets
        .iter()
        .rev()
        .find(|s| s.first <= gid)
        .ok_or(format!("gid {gid} is in no tileset"))?;
    let id = gid - set.first;
    if id >= set.count {
        return Err(format!(
            "gid {gid} is past the tiles of tileset {:?}",
            set.name
        ));
    }
    if let Ok(i) = set.chars.binary_search_by_key(&id, |&(tid, _)| tid) {
        return Ok(set.chars[i].1);
    }
    match tiles.and_then(|t| t.get(id as usize)) {
        Some(&c) => Ok(c),
        None => Err(format!(
            "tile {id} of tileset {:?} has no char property, and options.tiles names no character for it",
            set.name
        )),
    }
}

#[cfg(test)]
mod tests;
