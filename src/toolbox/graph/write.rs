//! Writing a save (`graph.rs`'s format): the binding's walk gives each
//! value in order, and every allocation is checked against the memory
//! free before it is made (`crate::memory`), as the graph's size is known
//! only once walked.

use std::collections::HashMap;

use super::bytes::{grow, Out};
use super::natives::NativeRef;
use super::{canonical, fnv1a, Key, Number, HEADER, MAGIC, VERSION};
use super::{FALSE, FLOAT, INT, NEW_STRING, NIL, NODE, STRING, TABLE, TRUE};
use crate::memory;

/// A save being written.
#[derive(Default)]
pub struct Writer {
    out: Out,
    /// Each string written, by its bytes: its number.
    numbers: HashMap<Box<[u8]>, u32, FnvBuild>,
    /// Where each string's bytes are in `out`, by number.
    places: Vec<(usize, usize)>,
}

/// A hasher for the walk's maps: FNV-1a over the key's bytes (an address,
/// a string), faster than the standard SipHash for these short keys, which
/// come from the program's own values, not from an adversary over the
/// network (a save is made of the game's own tables).
#[derive(Default, Clone, Copy)]
pub struct Fnv(u64);

impl std::hash::Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        let start = if self.0 == 0 {
            0xcbf2_9ce4_8422_2325
        } else {
            self.0
        };
        self.0 = bytes.iter().fold(start, |h, &b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        });
    }
    fn write_usize(&mut self, n: usize) {
        // An address: its bits mixed (multiplied by a large odd constant).
        self.0 = (n as u64 ^ self.0)
            .wrapping_mul(0x9e37_79b9_7f4a_7c15)
            .rotate_left(29);
    }
}

/// Makes `Fnv` hashers.
pub type FnvBuild = std::hash::BuildHasherDefault<Fnv>;

impl Writer {
    pub fn new() -> Writer {
        let mut start = MAGIC.to_vec();
        start.extend_from_slice(&VERSION.to_le_bytes());
        start.extend_from_slice(&[0; 4]);
        Writer {
            out: Out::from(start),
            ..Writer::default()
        }
    }

    pub fn nil(&mut self) -> Result<(), String> {
        self.out.byte(NIL)
    }

    pub fn boolean(&mut self, b: bool) -> Result<(), String> {
        self.out.byte(if b { TRUE } else { FALSE })
    }

    /// A number as a value (`key`: as a table's key), in its written form.
    pub fn number(&mut self, n: Number, key: bool) -> Result<(), String> {
        match canonical(n, key) {
            Number::Int(i) => {
                self.out.byte(INT)?;
                self.out.int(i)
            }
            Number::Float(x) => {
                self.out.byte(FLOAT)?;
                self.out.f64(x)
            }
        }
    }

    /// A string: new, or the number of the same string written before.
    /// Returns its number.
    pub fn string(&mut self, s: &[u8]) -> Result<u32, String> {
        if let Some(&n) = self.numbers.get(s) {
            self.out.byte(STRING)?;
            self.out.uleb(u64::from(n))?;
            return Ok(n);
        }
        let n = self.places.len() as u32;
        if self.numbers.len() == self.numbers.capacity() {
            let to = (2 * self.numbers.capacity()).max(64);
            memory::check(to.saturating_mul(64))?;
            self.numbers.reserve(to - self.numbers.len());
        }
        grow(&mut self.places, 1)?;
        self.out.byte(NEW_STRING)?;
        self.out.uleb(s.len() as u64)?;
        self.places.push((self.out.written().len(), s.len()));
        self.out.bytes(s)?;
        memory::check(s.len().saturating_mul(2) + 64)?;
        self.numbers.insert(s.into(), n);
        Ok(n)
    }

    /// String number `n`'s bytes (for a message's path).
    pub fn string_bytes(&self, n: u32) -> &[u8] {
        let (at, len) = self.places[n as usize];
        &self.out.written()[at..at + len]
    }

    /// A key, in its written form.
    pub fn key(&mut self, key: Key) -> Result<(), String> {
        match key {
            Key::Bool(b) => self.boolean(b),
            Key::Int(i) => self.number(Number::Int(i), true),
            Key::Float(x) => self.number(Number::Float(x), true),
            Key::Str(s) => self.string(s).map(|_| ()),
        }
    }

    /// The node `id` (a table or a native).
    pub fn node(&mut self, id: u32) -> Result<(), String> {
        self.out.byte(NODE)?;
        self.out.uleb(u64::from(id))
    }

    /// A table's record: its count of entries, which the caller then
    /// writes, keys in `Key::order`.
    pub fn table(&mut self, entries: usize) -> Result<(), String> {
        self.out.byte(TABLE)?;
        self.out.uleb(entries as u64)
    }

    /// A native's record (a scheduler's actors follow: the caller writes
    /// them as values).
    pub fn native(&mut self, native: NativeRef) -> Result<(), String> {
        native.write(&mut self.out)
    }

    /// The bytes written, framed: the length and the checksum.
    pub fn finish(self) -> Result<Vec<u8>, String> {
        let mut out = self.out.into_bytes();
        grow(&mut out, 8)?;
        let length = (out.len() - HEADER + 8) as u32;
        out[12..16].copy_from_slice(&length.to_le_bytes());
        let sum = fnv1a(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        Ok(out)
    }
}

/// The text form of a save: `mapvalue1:` and its bytes in base64.
pub fn to_text(bytes: &[u8]) -> Result<Vec<u8>, String> {
    use base64::Engine;
    let len = super::TEXT_PREFIX.len() + bytes.len().div_ceil(3) * 4;
    memory::check(len.saturating_mul(2))?;
    let mut text = Vec::with_capacity(len);
    text.extend_from_slice(super::TEXT_PREFIX);
    let mut encoded = String::with_capacity(len - super::TEXT_PREFIX.len());
    base64::engine::general_purpose::STANDARD.encode_string(bytes, &mut encoded);
    text.extend_from_slice(encoded.as_bytes());
    Ok(text)
}
