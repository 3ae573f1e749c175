//! The saved form of a `NativeLevel` (format 1), all integers little-endian:
//!
//! | bytes | holds |
//! | --- | --- |
//! | 8 | the magic `MAPLEVEL` |
//! | 4 | the version, 1 |
//! | 4 | the length of everything after this field, the checksum included |
//! | 4, 4 | width, height (each at least 1, at most `MAX_CELLS` cells) |
//! | w*h | the terrain, row-major |
//! | 8 each | the occupancy bits, 64 cells a word |
//! | 4, then 5 each | the things: count, then index (u32) and char, in row order |
//! | 1 | 1 if `generate`'s metadata follows, else 0; format 4: flags, 1 the metadata, 2 its locks, 4 `blocked` |
//! | ... | the metadata: seed (i64), algorithm (u8 length, name), then lists, each a u32 count then its entries: rooms (x, y, w, h), doors (x, y), player, stairs, items (x, y, kind), vaults (index, x, y, w, h, rotation), placed (x, y, char), up (count 0 or 1), exits (per room: positions), links (per room: u32s); every coordinate a u32 |
//! | 4, then 18 each | format 3 only, at the end of the metadata: the locks, a count (at most `MAX_LOCKS`), then per lock its door (x, y, char) and its key (x, y, char) |
//! | 1 | format 3 only: 1 if `blocked` follows, else 0 |
//! | 4, then 1 each | formats 2 and 3: the characters that block walking (`blocked`), a count (0 to 256) then each once |
//! | 4, then 12 each | format 4 only: the occupants' ids, a count, then per id its cell's index (u32) and the id (i64, 1 to 2^53), in row order, each on an occupied cell |
//! | 8 | FNV-1a 64 of every byte before it |
//!
//! Format 2 is format 1 with the level's `blocked`: a level whose walking
//! `#` alone blocks is saved in format 1, byte for byte as before, so
//! that strings saved by earlier releases and by this one read alike.
//! Format 3 is format 1 with the locks of a level `generate` made with
//! `locks` (`m.locks`), and `blocked` when it has one; a level without
//! `m.locks` is saved in format 1 or 2, as before.
//! Format 4 (issue 36) is the level with its occupants' ids: its flags
//! byte says which of the metadata, its locks and `blocked` follow, as in
//! formats 1 to 3, and the ids come last. Only a level with an id is
//! saved in it: one without is saved as before, byte for byte.
//!
//! A field (`field.rs`) is saved in the same frame with the magic
//! `MAPFIELD` and its own body (`save/field.rs`); the metadata's lists
//! are written and read in `save/meta.rs`.
//!
//! Loading checks the magic, the version, the length and the checksum
//! before anything else, then every count against the bytes left and every
//! cell against the map: a truncated, corrupted or foreign string is an
//! error, never a wrong level.

use std::rc::Rc;

mod field;
mod meta;
use field::read_field;
pub use field::{field_bound, save_field};
use meta::{read_meta, save_meta};

use super::field::Field;
use super::{Bits, Ids, NativeLevel, Thing, MAX_ID};
use crate::grid::{Grid, Pos, Rect};
use crate::input::MAX_CELLS;

pub const MAGIC: &[u8; 8] = b"MAPLEVEL";
pub const FIELD_MAGIC: &[u8; 8] = b"MAPFIELD";
pub const VERSION: u32 = 1;
/// Format 1 with the level's `blocked` (module doc).
pub const VERSION_BLOCKED: u32 = 2;
/// Format 1 with the level's locks, and its `blocked` if any (module doc).
pub const VERSION_LOCKS: u32 = 3;
/// Any of the formats above with the occupants' ids (module doc).
pub const VERSION_IDS: u32 = 4;
/// Format 4's flags: the metadata, its locks and `blocked` follow.
const HAS_META: u8 = 1;
const HAS_LOCKS: u8 = 2;
const HAS_BLOCKED: u8 = 4;
const HEADER: usize = 16;

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

struct Out(Vec<u8>);

impl Out {
    fn u32(&mut self, v: usize) {
        self.0.extend_from_slice(&(v as u32).to_le_bytes());
    }
    fn pos(&mut self, p: Pos) {
        self.u32(p.x);
        self.u32(p.y);
    }
    fn rect(&mut self, r: Rect) {
        [r.x, r.y, r.w, r.h].into_iter().for_each(|v| self.u32(v));
    }
    fn list<T>(&mut self, items: &[T], each: impl Fn(&mut Out, &T)) {
        self.u32(items.len());
        items.iter().for_each(|t| each(self, t));
    }
}

/// The bytes `save` writes for `level`, at most.
pub fn bound(level: &NativeLevel) -> usize {
    let cells = level.terrain.cells().len();
    let meta = level.meta().map_or(0, |m| {
        let exits: usize = m.exits.exits.iter().map(Vec::len).sum();
        let links: usize = m.exits.links.iter().map(Vec::len).sum();
        let locks = m.locks.as_ref().map_or(0, Vec::len);
        300 + 24 * (m.rooms.len() + m.vaults.len() + m.items.len() + m.placed.len() + locks)
            + 8 * (m.doors.len() + exits + links + 2 * m.rooms.len())
    });
    let blocked = level.blocked.as_ref().map_or(0, |b| 4 + b.len());
    HEADER
        + 8
        + cells
        + cells.div_ceil(64) * 8
        + 4
        + 5 * level.things.len()
        + 1
        + meta
        + blocked
        + 4
        + 12 * level.ids.len()
        + 8
}

pub fn save(level: &NativeLevel) -> Vec<u8> {
    let version = match (has_locks(level), &level.blocked) {
        _ if !level.ids.is_empty() => VERSION_IDS,
        (true, _) => VERSION_LOCKS,
        (false, None) => VERSION,
        (false, Some(_)) => VERSION_BLOCKED,
    };
    framed(MAGIC, version, bound(level), |out| {
        save_level(out, level, version)
    })
}

/// Whether `level` holds `generate`'s metadata with `m.locks`.
fn has_locks(level: &NativeLevel) -> bool {
    level.meta().is_some_and(|m| m.locks.is_some())
}

/// `magic`, the version, the length, what `body` writes and the checksum.
fn framed(magic: &[u8; 8], version: u32, bound: usize, body: impl FnOnce(&mut Out)) -> Vec<u8> {
    let mut out = Out(Vec::with_capacity(bound));
    out.0.extend_from_slice(magic);
    out.u32(version as usize);
    out.u32(0);
    body(&mut out);
    let length = (out.0.len() - HEADER + 8) as u32;
    out.0[12..16].copy_from_slice(&length.to_le_bytes());
    let sum = fnv1a(&out.0);
    out.0.extend_from_slice(&sum.to_le_bytes());
    out.0
}

fn save_level(out: &mut Out, level: &NativeLevel, version: u32) {
    out.u32(level.width());
    out.u32(level.height());
    out.0.extend_from_slice(level.terrain.cells());
    for w in level.occupied.words() {
        out.0.extend_from_slice(&w.to_le_bytes());
    }
    out.list(&level.things, |o, t| {
        o.u32(t.index as usize);
        o.0.push(t.char);
    });
    let with_ids = version == VERSION_IDS;
    let flags = match with_ids {
        true => {
            let meta = if level.meta().is_some() { HAS_META } else { 0 };
            let locks = if has_locks(level) { HAS_LOCKS } else { 0 };
            let blocked = if level.blocked.is_some() {
                HAS_BLOCKED
            } else {
                0
            };
            meta | locks | blocked
        }
        false => u8::from(level.meta().is_some()),
    };
    out.0.push(flags);
    if let Some(m) = level.meta() {
        save_meta(out, m);
    }
    if has_locks(level) && !with_ids {
        out.0.push(u8::from(level.blocked.is_some()));
    }
    if let Some(blocked) = &level.blocked {
        out.list(blocked, |o, &c| o.0.push(c));
    }
    if with_ids {
        out.u32(level.ids.len());
        for (i, id) in level.ids.iter() {
            out.u32(i);
            out.0.extend_from_slice(&id.to_le_bytes());
        }
    }
}

/// A reader that checks every length against the bytes left.
struct In<'a> {
    bytes: &'a [u8],
    size: (usize, usize),
}

const TRUNCATED: &str = "truncated or corrupted saved string";

impl<'a> In<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        if n > self.bytes.len() {
            return Err(TRUNCATED.into());
        }
        let (head, rest) = self.bytes.split_at(n);
        self.bytes = rest;
        Ok(head)
    }
    fn u8(&mut self) -> Result<u8, String> {
        Ok(self.take(1)?[0])
    }
    fn u32(&mut self) -> Result<usize, String> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize)
    }
    /// A count of entries of at least `each` bytes, bounded by the bytes left.
    fn count(&mut self, each: usize) -> Result<usize, String> {
        let n = self.u32()?;
        if n.saturating_mul(each) > self.bytes.len() {
            return Err(TRUNCATED.into());
        }
        Ok(n)
    }
    /// A list of entries of at least `each` bytes, held in a vector of
    /// exactly its count: one grown by doubling (as collecting a `Result`
    /// does) would hold up to three times it while growing, past
    /// `memory::bound_load` for a long list of small entries.
    fn list<T>(
        &mut self,
        each: usize,
        mut one: impl FnMut(&mut In<'a>) -> Result<T, String>,
    ) -> Result<Vec<T>, String> {
        let n = self.count(each)?;
        let mut out = Vec::with_capacity(n);
        for _ in 0..n {
            out.push(one(self)?);
        }
        Ok(out)
    }
    fn pos(&mut self) -> Result<Pos, String> {
        let p = Pos {
            x: self.u32()?,
            y: self.u32()?,
        };
        let (w, h) = self.size;
        match (1..=w).contains(&p.x) && (1..=h).contains(&p.y) {
            true => Ok(p),
            false => Err("saved string has a cell outside its map".into()),
        }
    }
    fn rect(&mut self) -> Result<Rect, String> {
        let (x, y, w, h) = (self.u32()?, self.u32()?, self.u32()?, self.u32()?);
        let inside = x >= 1 && y >= 1 && w >= 1 && h >= 1;
        if !inside || x + w - 1 > self.size.0 || y + h - 1 > self.size.1 {
            return Err("saved string has a rectangle outside its map".into());
        }
        Ok(Rect::new(x, y, w, h))
    }
}

/// The level `bytes` holds, checked (see the module doc). The caller
/// bounds the memory by `bytes.len()` first: nothing here allocates more
/// than a few times it.
pub fn load(bytes: &[u8]) -> Result<NativeLevel, String> {
    match load_saved(bytes)? {
        Saved::Level(level) => Ok(level),
        Saved::Field(_) => Err("a saved field, not a level".into()),
    }
}

/// What a saved string holds: a level or a field.
#[derive(Debug)]
pub enum Saved {
    Level(NativeLevel),
    Field(Field),
}

/// The level or field `bytes` holds, checked as `load` checks a level.
pub fn load_saved(bytes: &[u8]) -> Result<Saved, String> {
    let magic = bytes.get(..8);
    if magic == Some(MAGIC) {
        let versions = [VERSION, VERSION_BLOCKED, VERSION_LOCKS, VERSION_IDS];
        let (version, body) = unframed(bytes, &versions)?;
        read_body(body, version).map(Saved::Level)
    } else if magic == Some(FIELD_MAGIC) {
        read_field(unframed(bytes, &[VERSION])?.1).map(Saved::Field)
    } else {
        Err("not a saved level or field (no MAPLEVEL or MAPFIELD header)".into())
    }
}

/// The version and the body of a framed string (after its magic), its
/// version (one of `versions`), length and checksum checked.
fn unframed<'a>(bytes: &'a [u8], versions: &[u32]) -> Result<(u32, &'a [u8]), String> {
    if bytes.len() < HEADER + 8 {
        return Err(TRUNCATED.into());
    }
    let version = u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]);
    if !versions.contains(&version) {
        let read: Vec<String> = versions.iter().map(u32::to_string).collect();
        return Err(format!(
            "saved format {version} is not supported (this module reads {})",
            read.join(" and ")
        ));
    }
    let length = u32::from_le_bytes([bytes[12], bytes[13], bytes[14], bytes[15]]) as usize;
    if length != bytes.len() - HEADER {
        return Err(TRUNCATED.into());
    }
    let (body, sum) = bytes.split_at(bytes.len() - 8);
    if fnv1a(body).to_le_bytes() != sum {
        return Err("saved string is corrupted (checksum mismatch)".into());
    }
    Ok((version, &body[HEADER..]))
}

/// `cells` bits, 64 a word; none set past `cells`.
fn read_bits(r: &mut In, cells: usize) -> Result<Bits, String> {
    let mut bits = Bits::new(cells);
    for (i, chunk) in r.take(cells.div_ceil(64) * 8)?.chunks_exact(8).enumerate() {
        let word = u64::from_le_bytes(chunk.try_into().map_err(|_| TRUNCATED)?);
        for b in (0..64).filter(|b| word >> b & 1 == 1) {
            if i * 64 + b >= cells {
                return Err("saved bits past the map's cells".into());
            }
            bits.set(i * 64 + b, true);
        }
    }
    Ok(bits)
}

fn read_body(bytes: &[u8], version: u32) -> Result<NativeLevel, String> {
    let mut r = In {
        bytes,
        size: (0, 0),
    };
    let (w, h) = (r.u32()?, r.u32()?);
    if w == 0 || h == 0 || w.saturating_mul(h) > MAX_CELLS {
        return Err("level has a bad size".into());
    }
    r.size = (w, h);
    let cells = w * h;
    let terrain = Grid::from_cells(w, h, r.take(cells)?.to_vec());
    let occupied = read_bits(&mut r, cells)?;
    let things = r.list(5, |r| {
        let index = r.u32()?;
        Ok(Thing {
            index: index as u32,
            char: r.u8()?,
        })
    })?;
    let ordered = things.windows(2).all(|p| p[0].index < p[1].index);
    if !ordered || things.last().is_some_and(|t| t.index as usize >= cells) {
        return Err("level's things are out of order or outside its map".into());
    }
    let flags = r.u8()?;
    let known = match version {
        VERSION_IDS => HAS_META | HAS_LOCKS | HAS_BLOCKED,
        _ => HAS_META,
    };
    if flags & !known != 0 || flags & (HAS_META | HAS_LOCKS) == HAS_LOCKS {
        return Err(TRUNCATED.into());
    }
    let with_locks = version == VERSION_LOCKS || flags & HAS_LOCKS != 0;
    let mut meta = match flags & HAS_META {
        0 => None,
        _ => Some(read_meta(&mut r, with_locks)?),
    };
    let with_blocked = match version {
        VERSION_LOCKS => r.u8()? == 1,
        VERSION_IDS => flags & HAS_BLOCKED != 0,
        v => v == VERSION_BLOCKED,
    };
    let blocked = match with_blocked {
        false => None,
        true => {
            // None is a list too: `map.level{..., blocked = ""}` (nothing
            // blocks) saves one (found by the `save` fuzz target).
            let chars = r.list(1, In::u8)?;
            if chars.len() > 256 || super::distinct(&chars) != chars {
                return Err("level's blocked characters are not at most 256 distinct bytes".into());
            }
            Some(chars)
        }
    };
    // The metadata's `blocked` is the level's (`NativeLevel::from_level`,
    // `map.level` of a table), saved once.
    if let (Some(m), Some(chars)) = (&mut meta, &blocked) {
        let text = String::from_utf8(chars.clone());
        m.blocked =
            Some(text.map_err(|_| {
                "level's blocked characters are not text, with generate's metadata"
            })?);
    }
    let ids = match version {
        VERSION_IDS => read_ids(&mut r, &occupied)?,
        _ => Ids::default(),
    };
    if !r.bytes.is_empty() {
        return Err(TRUNCATED.into());
    }
    Ok(NativeLevel {
        terrain,
        things: Rc::from(things),
        occupied,
        ids,
        meta: meta.map(Rc::new),
        blocked,
    })
}

/// Format 4's ids: at least one, in row order, each on an occupied cell
/// and from 1 to `MAX_ID`.
fn read_ids(r: &mut In, occupied: &Bits) -> Result<Ids, String> {
    let pairs = r.list(12, |r| {
        let i = r.u32()?;
        let id = i64::from_le_bytes(r.take(8)?.try_into().map_err(|_| TRUNCATED)?);
        Ok((i, id))
    })?;
    let cells = r.size.0 * r.size.1;
    let ordered = pairs.windows(2).all(|p| p[0].0 < p[1].0);
    let on_occupied = pairs.iter().all(|&(i, _)| i < cells && occupied.get(i));
    if pairs.is_empty() || !ordered || !on_occupied {
        return Err("level's ids are out of order or not on occupied cells".into());
    }
    if pairs.iter().any(|&(_, id)| !(1..=MAX_ID).contains(&id)) {
        return Err("level has an id outside 1 to 2^53".into());
    }
    Ok(Ids::from_sorted(
        pairs.into_iter().map(|(i, id)| (i as u32, id)),
    ))
}

/// The memory `map.load` of `bytes` may use: a level is its terrain, bits
/// and things again (at most twice the bytes), a field of flags a byte a
/// saved bit with the bits read first (9 times the bytes).
pub fn bound_load(bytes: usize) -> usize {
    10 * bytes + crate::memory::FIXED
}

#[cfg(test)]
mod tests;
