//! The parts a save (`graph.rs`'s format) is made of, read and written:
//! bytes, LEB128 counts, zigzag integers, floats and length-prefixed runs.
//! The values' reader (`read.rs`), the writer (`write.rs`) and the
//! natives' own forms (`natives.rs`) share them, so that the natives need
//! neither of the other two.

use super::MAX_BYTES;
use crate::memory;

pub const TRUNCATED: &str = "truncated or corrupted saved string";
pub const MALFORMED: &str = "saved value is malformed (not as map.save writes it)";

/// A reader over a body, every length checked against the bytes left.
pub struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    pub fn new(bytes: &'a [u8]) -> Reader<'a> {
        Reader { bytes, at: 0 }
    }

    /// Where the next byte is read.
    pub fn at(&self) -> usize {
        self.at
    }

    /// The bytes not read yet.
    pub fn left(&self) -> usize {
        self.bytes.len() - self.at
    }

    pub fn take(&mut self, n: usize) -> Result<&'a [u8], String> {
        if n > self.left() {
            return Err(TRUNCATED.into());
        }
        let taken = &self.bytes[self.at..self.at + n];
        self.at += n;
        Ok(taken)
    }

    pub fn u8(&mut self) -> Result<u8, String> {
        Ok(self.take(1)?[0])
    }

    /// LEB128, in as few bytes as it takes, within 64 bits.
    pub fn uleb(&mut self) -> Result<u64, String> {
        let mut v = 0u64;
        for i in 0..10 {
            let b = self.u8()?;
            if i == 9 && b > 1 {
                return Err(MALFORMED.into());
            }
            v |= u64::from(b & 0x7f) << (7 * i);
            if b & 0x80 == 0 {
                if b == 0 && i > 0 {
                    return Err(MALFORMED.into());
                }
                return Ok(v);
            }
        }
        Err(MALFORMED.into())
    }

    /// A count of entries of at least `each` bytes, within the bytes left.
    pub fn count(&mut self, each: usize) -> Result<usize, String> {
        let n = self.uleb()?;
        let left = self.left() as u64;
        if n.saturating_mul(each as u64) > left || n > u32::MAX as u64 {
            return Err(TRUNCATED.into());
        }
        Ok(n as usize)
    }

    pub fn int(&mut self) -> Result<i64, String> {
        let z = self.uleb()?;
        Ok((z >> 1) as i64 ^ -((z & 1) as i64))
    }

    pub fn f64(&mut self) -> Result<f64, String> {
        let b = self.take(8)?;
        Ok(f64::from_bits(u64::from_le_bytes(
            b.try_into().map_err(|_| TRUNCATED)?,
        )))
    }

    pub fn blob(&mut self) -> Result<&'a [u8], String> {
        let n = self.count(1)?;
        self.take(n)
    }
}

/// Bytes being written, within `MAX_BYTES`, the memory of each growth
/// checked first (`grow`).
#[derive(Default)]
pub struct Out {
    bytes: Vec<u8>,
}

impl From<Vec<u8>> for Out {
    fn from(bytes: Vec<u8>) -> Out {
        Out { bytes }
    }
}

impl Out {
    /// The bytes written so far.
    pub fn written(&self) -> &[u8] {
        &self.bytes
    }

    pub fn into_bytes(self) -> Vec<u8> {
        self.bytes
    }

    pub fn bytes(&mut self, b: &[u8]) -> Result<(), String> {
        if self.bytes.len().saturating_add(b.len()) > MAX_BYTES {
            return Err("the save would pass 1 GiB".into());
        }
        grow(&mut self.bytes, b.len())?;
        self.bytes.extend_from_slice(b);
        Ok(())
    }

    pub fn byte(&mut self, b: u8) -> Result<(), String> {
        self.bytes(&[b])
    }

    pub fn uleb(&mut self, mut v: u64) -> Result<(), String> {
        let mut buf = [0u8; 10];
        let mut n = 0;
        loop {
            let low = (v & 0x7f) as u8;
            v >>= 7;
            buf[n] = low | if v == 0 { 0 } else { 0x80 };
            n += 1;
            if v == 0 {
                break;
            }
        }
        self.bytes(&buf[..n])
    }

    /// A length-prefixed run of bytes (a native's saved form).
    pub fn blob(&mut self, b: &[u8]) -> Result<(), String> {
        self.uleb(b.len() as u64)?;
        self.bytes(b)
    }

    pub fn raw(&mut self, b: &[u8]) -> Result<(), String> {
        self.bytes(b)
    }

    pub fn int(&mut self, i: i64) -> Result<(), String> {
        self.uleb(((i << 1) ^ (i >> 63)) as u64)
    }

    pub fn f64(&mut self, x: f64) -> Result<(), String> {
        self.bytes(&x.to_bits().to_le_bytes())
    }
}

/// Room for `extra` more entries in `v`, the memory checked first: a
/// vector grows to twice its size (and holds both while it moves).
pub fn grow<T>(v: &mut Vec<T>, extra: usize) -> Result<(), String> {
    let need = v.len().saturating_add(extra);
    if need <= v.capacity() {
        return Ok(());
    }
    let size = std::mem::size_of::<T>().max(1);
    let to = need.max(2 * v.capacity()).max(64);
    if to.saturating_mul(size) > MAX_BYTES.saturating_mul(2) {
        return Err("the save would pass 1 GiB".into());
    }
    memory::check((to + v.capacity()).saturating_mul(size))?;
    v.reserve_exact(to - v.len());
    Ok(())
}
