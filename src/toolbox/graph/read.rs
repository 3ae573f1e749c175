//! Reading a save (`graph.rs`'s format), every part checked before it is
//! used: the frame (magic, version, length, checksum), every count
//! against the bytes left, every value in the one form `Writer` gives it,
//! every node named before its record and every record read, each native
//! by its own loader. A truncated, damaged or foreign string is an error,
//! never a wrong value.

use std::collections::HashSet;

use super::bytes::{Reader, MALFORMED, TRUNCATED};
use super::natives::{read_native, Native};
use super::{canonical, fnv1a, Key, Number, HEADER, MAGIC, MAX_NODES, NAN_BITS, VERSION};
use super::{FALSE, FLOAT, INT, NEW_STRING, NIL, NODE, STRING, TABLE, TRUE};

/// A value read: strings and nodes by number.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value {
    Nil,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(u32),
    Node(u32),
}

/// A node read: a table (its entries, a range of `Loaded::pairs`) or a
/// native (a scheduler with its actors, a range of `Loaded::actors`).
#[derive(Debug)]
pub enum Node {
    Table(std::ops::Range<usize>),
    Native(Box<Native>, std::ops::Range<usize>),
}

/// A save read: its root, nodes, entries, actors and strings.
#[derive(Debug)]
pub struct Loaded {
    pub root: Value,
    pub nodes: Vec<Node>,
    pub pairs: Vec<(Value, Value)>,
    pub actors: Vec<Value>,
    strings: Vec<(usize, usize)>,
    body: Vec<u8>,
}

impl Loaded {
    /// String number `n`'s bytes.
    pub fn string(&self, n: u32) -> &[u8] {
        let (at, len) = self.strings[n as usize];
        &self.body[at..at + len]
    }
}

/// The body of a framed save (after its header), its length and checksum
/// checked.
fn unframed(bytes: &[u8]) -> Result<&[u8], String> {
    if bytes.get(..8) != Some(MAGIC) {
        return Err("not a saved value (no MAPVALUE header)".into());
    }
    if bytes.len() < HEADER + 8 {
        return Err(TRUNCATED.into());
    }
    let version = u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]);
    if version != VERSION {
        return Err(format!(
            "saved format {version} is not supported (this module reads {VERSION})"
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
    Ok(&body[HEADER..])
}

/// The state of a read: the strings and nodes named so far.
struct State<'a> {
    r: Reader<'a>,
    strings: Vec<(usize, usize)>,
    seen: HashSet<&'a [u8]>,
    named: usize,
    /// The largest integer magnitude the interpreter holds exactly.
    max_int: Option<i64>,
}

impl State<'_> {
    fn value(&mut self) -> Result<Value, String> {
        Ok(match self.r.u8()? {
            NIL => Value::Nil,
            FALSE => Value::Bool(false),
            TRUE => Value::Bool(true),
            INT => {
                let i = self.r.int()?;
                if self.max_int.is_some_and(|m| i.unsigned_abs() > m as u64) {
                    return Err(format!(
                        "saved value holds the integer {i}, beyond 2^53: LuaJIT cannot hold it exactly"
                    ));
                }
                Value::Int(i)
            }
            FLOAT => {
                let x = self.r.f64()?;
                let nan_ok = !x.is_nan() || x.to_bits() == NAN_BITS;
                if !nan_ok || matches!(canonical(Number::Float(x), false), Number::Int(_)) {
                    return Err(MALFORMED.into());
                }
                Value::Float(x)
            }
            NEW_STRING => {
                let n = self.r.count(1)?;
                let at = self.r.at();
                let s = self.r.take(n)?;
                if !self.seen.insert(s) {
                    return Err(MALFORMED.into());
                }
                self.strings.push((at, n));
                Value::Str(self.strings.len() as u32 - 1)
            }
            STRING => {
                let n = self.r.uleb()?;
                if n >= self.strings.len() as u64 {
                    return Err(MALFORMED.into());
                }
                Value::Str(n as u32)
            }
            NODE => {
                let id = self.r.uleb()?;
                if id > self.named as u64 || id as usize >= MAX_NODES {
                    return Err(MALFORMED.into());
                }
                if id == self.named as u64 {
                    self.named += 1;
                }
                Value::Node(id as u32)
            }
            _ => return Err(MALFORMED.into()),
        })
    }

    /// `v` as a key, if it can be one in its written form.
    fn key<'b>(&self, v: Value, body: &'b [u8]) -> Result<Key<'b>, String> {
        Ok(match v {
            Value::Bool(b) => Key::Bool(b),
            Value::Int(i) => match canonical(Number::Int(i), true) {
                Number::Int(_) => Key::Int(i),
                Number::Float(_) => return Err(MALFORMED.into()),
            },
            Value::Float(x) if !x.is_nan() => Key::Float(x),
            Value::Str(n) => {
                let (at, len) = self.strings[n as usize];
                Key::Str(&body[at..at + len])
            }
            _ => return Err(MALFORMED.into()),
        })
    }
}

/// The value `bytes` holds (binary), checked. `max_int`: the largest
/// integer magnitude the interpreter holds (LuaJIT: 2^53). The caller
/// bounds the memory by `super::bound_load` first.
pub fn read(bytes: &[u8], max_int: Option<i64>) -> Result<Loaded, String> {
    let body = unframed(bytes)?;
    let mut s = State {
        r: Reader::new(body),
        strings: Vec::new(),
        seen: HashSet::new(),
        named: 0,
        max_int,
    };
    let root = s.value()?;
    let (mut nodes, mut actors) = (Vec::new(), Vec::new());
    let mut pairs: Vec<(Value, Value)> = Vec::new();
    while nodes.len() < s.named {
        let node = match s.r.u8()? {
            TABLE => {
                let n = s.r.count(2)?;
                let start = pairs.len();
                pairs.reserve(n);
                for i in 0..n {
                    let (k, v) = (s.value()?, s.value()?);
                    if v == Value::Nil {
                        return Err(MALFORMED.into());
                    }
                    let key = s.key(k, body)?;
                    if i > 0 {
                        let before = s.key(pairs[start + i - 1].0, body)?;
                        if before.order(&key) != std::cmp::Ordering::Less {
                            return Err(MALFORMED.into());
                        }
                    }
                    pairs.push((k, v));
                }
                Node::Table(start..pairs.len())
            }
            kind => {
                let native = read_native(kind, &mut s.r)?;
                let start = actors.len();
                if let Native::Scheduler(sched) = &native {
                    read_actors(&mut s, sched.len(), &mut actors)?;
                }
                Node::Native(Box::new(native), start..actors.len())
            }
        };
        nodes.push(node);
    }
    if s.r.at() != body.len() {
        return Err(TRUNCATED.into());
    }
    let strings = s.strings;
    Ok(Loaded {
        root,
        nodes,
        pairs,
        actors,
        strings,
        body: body.to_vec(),
    })
}

/// A scheduler's `count` actors: values a table can key, each once.
fn read_actors(s: &mut State, count: usize, actors: &mut Vec<Value>) -> Result<(), String> {
    if count > s.r.left() {
        return Err(TRUNCATED.into());
    }
    let mut distinct: HashSet<(u8, u64)> = HashSet::with_capacity(count);
    for _ in 0..count {
        let v = s.value()?;
        let id = match v {
            Value::Nil => return Err(MALFORMED.into()),
            Value::Float(x) if x.is_nan() => return Err(MALFORMED.into()),
            Value::Bool(b) => (0, u64::from(b)),
            Value::Int(i) => (1, i as u64),
            Value::Float(x) => (2, x.to_bits()),
            Value::Str(n) => (3, u64::from(n)),
            Value::Node(n) => (4, u64::from(n)),
        };
        if !distinct.insert(id) {
            return Err("a saved scheduler holds an actor twice".into());
        }
        actors.push(v);
    }
    Ok(())
}

/// The binary form of a save in its text form (`mapvalue1:` and base64).
pub fn from_text(text: &[u8]) -> Result<Vec<u8>, String> {
    use base64::Engine;
    let encoded = &text[super::TEXT_PREFIX.len()..];
    crate::memory::check(encoded.len())?;
    base64::engine::general_purpose::STANDARD
        .decode(encoded)
        .map_err(|_| "not a saved value (mapvalue1: not followed by base64)".into())
}
