//! A whole game saved: a graph of Lua values (`map.save`, `map.load`) as
//! bytes, the same on every interpreter whatever order its tables were
//! filled in. This is the format, with no Lua in it: what the binding's
//! walk writes (`Writer`), and the checked reading (`read`) whose result
//! the binding builds again as Lua values. The format (version 1), all
//! integers little-endian:
//!
//! | bytes | holds |
//! | --- | --- |
//! | 8 | the magic `MAPVALUE` |
//! | 4 | the version, 1 |
//! | 4 | the length of everything after this field, the checksum included |
//! | ... | the root value, then each node's record, node 0 first |
//! | 8 | FNV-1a 64 of every byte before it |
//!
//! A value is a tag byte and its data: 0 nil, 1 false, 2 true; 3 an
//! integer (zigzag LEB128, at most 10 bytes, no byte more than it needs);
//! 4 a float (its 8 bytes); 5 a new string (its LEB128 length, its bytes:
//! it takes the next string number, from 0); 6 a string met before (its
//! number); 7 a node (a table or a native) by its id: an id met before, or
//! the next one, which is a new node. Nodes are numbered in the order the
//! values that name them are written, so the records follow in a
//! breadth-first walk from the root.
//!
//! A record is a kind byte and its data: 0 a table (its LEB128 count of
//! entries, then each key and value, the keys in `Key`'s order); 1 a level
//! and 2 a field (a LEB128 length, then what `lvl:save()`, `f:save()`
//! write); 3 a random source and 4 a scheduler (a LEB128 length, then
//! `r:state()`, `s:state()`; a scheduler's actors follow, as values, in
//! `s:actors()`'s order); 5 a names generator (`natives.rs`: its options
//! and its examples, trained again when loaded); 6 a noise (its settings).
//!
//! Numbers are written by their value, so that Lua 5.4 and LuaJIT (whose
//! numbers are all doubles) write the same bytes: a number that is a whole
//! number within ±2^53 (not -0.0) is an integer, any other a float, every
//! NaN as the one quiet NaN `0x7ff8000000000000`. Lua 5.4's integers
//! beyond ±2^53 are integers (LuaJIT refuses them when loading: it cannot
//! hold them exactly), but as keys those a double holds exactly are
//! floats, as LuaJIT keys them (Lua 5.4 makes such a float key an
//! integer). A loaded string is read back only in the form written: keys
//! in order and distinct, every string written new once, numbers in their
//! form, so loading and saving again gives the same bytes.

mod bytes;
mod natives;
mod read;
mod write;

pub use bytes::{grow, MALFORMED, TRUNCATED};
pub use natives::{Native, NativeRef};
pub use read::{from_text, read, Loaded, Node, Value};
pub use write::{to_text, FnvBuild, Writer};

use std::cmp::Ordering;

pub const MAGIC: &[u8; 8] = b"MAPVALUE";
pub const VERSION: u32 = 1;
/// The text form: this prefix, then the binary form in base64.
pub const TEXT_PREFIX: &[u8] = b"mapvalue1:";
/// The magic, the version and the length.
const HEADER: usize = 16;
/// The most nodes (tables and natives) a save holds.
pub const MAX_NODES: usize = 1 << 26;
/// The longest save, in bytes (its text form is a third longer).
pub const MAX_BYTES: usize = 1 << 30;
/// 2^53: the whole numbers written as integers are within it.
const EXACT: i64 = 1 << 53;

const NIL: u8 = 0;
const FALSE: u8 = 1;
const TRUE: u8 = 2;
const INT: u8 = 3;
const FLOAT: u8 = 4;
const NEW_STRING: u8 = 5;
const STRING: u8 = 6;
const NODE: u8 = 7;

const TABLE: u8 = 0;
const LEVEL: u8 = 1;
const FIELD: u8 = 2;
const RNG: u8 = 3;
const SCHEDULER: u8 = 4;
const NAMES: u8 = 5;
const NOISE: u8 = 6;

/// The quiet NaN every NaN is written as.
pub const NAN_BITS: u64 = 0x7ff8_0000_0000_0000;

/// A Lua number as an interpreter holds it.
#[derive(Clone, Copy, Debug)]
pub enum Number {
    Int(i64),
    Float(f64),
}

/// A number as it is written: `Int` or `Float` by the rule above.
pub fn canonical(n: Number, key: bool) -> Number {
    match n {
        Number::Int(i) if key && i.unsigned_abs() > EXACT as u64 && exact_double(i) => {
            Number::Float(i as f64)
        }
        Number::Int(i) => Number::Int(i),
        Number::Float(x) if x.is_nan() => Number::Float(f64::from_bits(NAN_BITS)),
        Number::Float(x) => match whole(x) {
            Some(i) => Number::Int(i),
            None => Number::Float(x),
        },
    }
}

/// `x` as an integer if it is a whole number within ±2^53 and not -0.0.
fn whole(x: f64) -> Option<i64> {
    let negative_zero = x == 0.0 && x.is_sign_negative();
    (x.fract() == 0.0 && x.abs() <= EXACT as f64 && !negative_zero).then_some(x as i64)
}

/// Whether a double holds `i` exactly.
fn exact_double(i: i64) -> bool {
    let x = i as f64;
    x != 9_223_372_036_854_775_808.0 && x as i64 == i
}

/// A table's key as written: a boolean, a number in its written form
/// (`canonical`) or a string. Keys are written in this order: `false`,
/// `true`, the numbers by value, the strings by their bytes.
#[derive(Clone, Copy, Debug)]
pub enum Key<'a> {
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(&'a [u8]),
}

impl Key<'_> {
    fn rank(&self) -> u8 {
        match self {
            Key::Bool(_) => 0,
            Key::Int(_) | Key::Float(_) => 1,
            Key::Str(_) => 2,
        }
    }

    /// The keys' order (no key is NaN).
    pub fn order(&self, other: &Key) -> Ordering {
        match (self, other) {
            (Key::Bool(a), Key::Bool(b)) => a.cmp(b),
            (Key::Int(a), Key::Int(b)) => a.cmp(b),
            (Key::Float(a), Key::Float(b)) => a.total_cmp(b),
            (Key::Int(a), Key::Float(b)) => int_float(*a, *b),
            (Key::Float(a), Key::Int(b)) => int_float(*b, *a).reverse(),
            (Key::Str(a), Key::Str(b)) => a.cmp(b),
            _ => self.rank().cmp(&other.rank()),
        }
    }
}

/// The exact order of the integer `a` and the double `b` (not NaN).
fn int_float(a: i64, b: f64) -> Ordering {
    if b >= 9_223_372_036_854_775_808.0 {
        return Ordering::Less;
    }
    if b < -9_223_372_036_854_775_808.0 {
        return Ordering::Greater;
    }
    let t = b.trunc() as i64;
    a.cmp(&t).then(if b > t as f64 {
        Ordering::Less
    } else if b < t as f64 {
        Ordering::Greater
    } else {
        Ordering::Equal
    })
}

pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The bytes `Writer` writes for what `read` gave: the same bytes it read,
/// as every value is read only in the form written (the fuzz target
/// `graph` holds it to that).
pub fn write_again(loaded: &Loaded) -> Result<Vec<u8>, String> {
    let mut w = Writer::new();
    let value = |w: &mut Writer, v: Value| match v {
        Value::Nil => w.nil(),
        Value::Bool(b) => w.boolean(b),
        Value::Int(i) => w.number(Number::Int(i), false),
        Value::Float(x) => w.number(Number::Float(x), false),
        Value::Str(n) => w.string(loaded.string(n)).map(|_| ()),
        Value::Node(id) => w.node(id),
    };
    value(&mut w, loaded.root)?;
    for node in &loaded.nodes {
        match node {
            Node::Table(range) => {
                w.table(range.len())?;
                for &(k, v) in &loaded.pairs[range.clone()] {
                    match k {
                        Value::Int(i) => w.number(Number::Int(i), true)?,
                        other => value(&mut w, other)?,
                    }
                    value(&mut w, v)?;
                }
            }
            Node::Native(native, range) => {
                w.native(native.borrowed())?;
                for &actor in &loaded.actors[range.clone()] {
                    value(&mut w, actor)?;
                }
            }
        }
    }
    w.finish()
}

/// The memory reading a save of `bytes` bytes may use, besides what its
/// names generators' training takes (checked by each): its parts (a pair
/// of values 32 bytes for at least 2 bytes read, a node 24 for 2, a
/// string's place and its check 40 for 2), and the natives' own loads.
pub fn bound_load(bytes: usize) -> usize {
    64usize.saturating_mul(bytes) + crate::memory::FIXED
}

#[cfg(test)]
mod tests;
