//! A random source a game keeps and saves (`map.rng`): the generators' PCG
//! (`rand_pcg::Pcg64`, the same sequence for the same seed, which a test
//! checks) with its state in the open, so that it can be written out and
//! read back, and the draws a game makes with it. Every draw is built from
//! the generator's 64-bit outputs with integer arithmetic and exact IEEE
//! operations only (no libm: `ln` is fdlibm's, ported), so that it is the
//! same on every platform and across releases; `spec/golden_toolbox/`
//! pins the sequences.

/// PCG's 128-bit LCG multiplier (`rand_pcg`'s `MULTIPLIER`).
const MULTIPLIER: u128 = 0x2360_ED05_1FC6_5DA4_4385_DF64_9FCC_F645;

/// The state's text: this prefix, 64 hex digits (the state, then the
/// increment), 8 hex digits of checksum.
const STATE_PREFIX: &str = "maprng1:";
pub const STATE_LEN: usize = STATE_PREFIX.len() + 64 + 8;

/// The largest seed a draw gives (`seed`): seeds are below 2^53.
const SEED_BITS: u32 = 53;

/// A value drawn: an integer, or a float of `float()`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Draw {
    Int(i64),
    Float(f64),
}

/// PCG XSL RR 128/64 with its state and increment readable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Random {
    state: u128,
    increment: u128,
}

impl Random {
    /// The source `rand_pcg::Pcg64::seed_from_u64(seed as u64)` is: its
    /// 32-byte seed made by rand_core's PCG32 expansion, then its state and
    /// stream taken from it.
    pub fn new(seed: i64) -> Random {
        let mut s = seed as u64;
        let mut bytes = [0u8; 32];
        for chunk in bytes.chunks_exact_mut(4) {
            chunk.copy_from_slice(&pcg32(&mut s));
        }
        let word = |i: usize| u128::from(u64::from_le_bytes(bytes[i..i + 8].try_into().unwrap()));
        let state = word(0) | word(8) << 64;
        let increment = (word(16) | word(24) << 64) | 1;
        let mut r = Random { state, increment };
        r.state = r.state.wrapping_add(r.increment);
        r.step();
        r
    }

    fn step(&mut self) {
        self.state = self
            .state
            .wrapping_mul(MULTIPLIER)
            .wrapping_add(self.increment);
    }

    /// The next 64 bits.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.step();
        let rot = (self.state >> 122) as u32;
        let xsl = ((self.state >> 64) as u64) ^ (self.state as u64);
        xsl.rotate_right(rot)
    }

    /// A uniform integer in `0..n`, `n > 0`: Lemire's multiply-and-reject,
    /// unbiased, the same draws as the generators' `Rng::below`.
    #[inline]
    pub fn below(&mut self, n: u64) -> u64 {
        debug_assert!(n > 0);
        let mut product = u128::from(self.next_u64()) * u128::from(n);
        if (product as u64) < n {
            let threshold = n.wrapping_neg() % n;
            while (product as u64) < threshold {
                product = u128::from(self.next_u64()) * u128::from(n);
            }
        }
        (product >> 64) as u64
    }

    /// A uniform integer in `0..n`, `n > 0`, of up to 128 bits: the low
    /// bits of one or two outputs, redrawn until below `n` (fewer than two
    /// tries on average).
    pub fn below_wide(&mut self, n: u128) -> u128 {
        debug_assert!(n > 0);
        let bits = 128 - (n - 1).leading_zeros();
        let mask = if bits == 128 {
            u128::MAX
        } else {
            (1u128 << bits) - 1
        };
        loop {
            let mut v = u128::from(self.next_u64());
            if bits > 64 {
                v |= u128::from(self.next_u64()) << 64;
            }
            let v = v & mask;
            if v < n {
                return v;
            }
        }
    }

    /// A uniform integer in `lo..=hi` (`lo <= hi`, a span of at most 2^64).
    pub fn between(&mut self, lo: i64, hi: i64) -> i64 {
        let span = hi.wrapping_sub(lo) as u64;
        match span.checked_add(1) {
            Some(n) => lo.wrapping_add(self.below(n) as i64),
            None => self.next_u64() as i64,
        }
    }

    /// A float in [0, 1): 53 random bits, times 2^-53 (exact).
    #[inline]
    pub fn float(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// A standard normal deviate (mean 0, deviation 1): Marsaglia's polar
    /// method on two uniforms in [-1, 1) of 53 bits each, one of the pair
    /// kept, so that the state is the generator's alone.
    pub fn normal(&mut self) -> f64 {
        loop {
            let u = (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 52) as f64) - 1.0;
            let v = (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 52) as f64) - 1.0;
            let s = u * u + v * v;
            if s < 1.0 && s > 0.0 {
                return u * (-2.0 * ln(s) / s).sqrt();
            }
        }
    }

    /// `count` draws: floats of `float()`, or integers in `lo..=hi`.
    pub fn fill(&mut self, count: usize, range: Option<(i64, i64)>) -> Vec<Draw> {
        (0..count)
            .map(|_| match range {
                None => Draw::Float(self.float()),
                Some((lo, hi)) => Draw::Int(self.between(lo, hi)),
            })
            .collect()
    }

    /// A seed for the generators, in `0..2^53`.
    pub fn seed(&mut self) -> i64 {
        (self.next_u64() >> (64 - SEED_BITS)) as i64
    }

    /// The state as text: `maprng1:`, the state and increment in hex, a
    /// checksum of them.
    pub fn save(&self) -> String {
        let digits = format!("{:032x}{:032x}", self.state, self.increment);
        format!("{STATE_PREFIX}{digits}{:08x}", checksum(digits.as_bytes()))
    }

    /// The source a `save` text holds, or why it is not one.
    pub fn load(text: &[u8]) -> Result<Random, String> {
        let damaged = |why: &str| Err(format!("state is not a saved rng ({why})"));
        if !text.starts_with(STATE_PREFIX.as_bytes()) {
            if text.starts_with(b"maprng") {
                return damaged("a version this module does not read");
            }
            return damaged("no maprng1: prefix");
        }
        if text.len() != STATE_LEN {
            return damaged(&format!("{} bytes, not {STATE_LEN}", text.len()));
        }
        let body = &text[STATE_PREFIX.len()..];
        let hex = |s: &[u8]| -> Option<u128> {
            let s = std::str::from_utf8(s).ok()?;
            if !s
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
            {
                return None;
            }
            u128::from_str_radix(s, 16).ok()
        };
        let (Some(state), Some(increment), Some(check)) =
            (hex(&body[..32]), hex(&body[32..64]), hex(&body[64..]))
        else {
            return damaged("not lowercase hex digits");
        };
        if check != u128::from(checksum(&body[..64])) {
            return damaged("checksum mismatch: damaged");
        }
        if increment & 1 == 0 {
            return damaged("an even increment");
        }
        Ok(Random { state, increment })
    }
}

/// rand_core's `seed_from_u64` expansion: PCG32 steps of `state`.
fn pcg32(state: &mut u64) -> [u8; 4] {
    const MUL: u64 = 6364136223846793005;
    const INC: u64 = 11634580027462260723;
    *state = state.wrapping_mul(MUL).wrapping_add(INC);
    let s = *state;
    let xorshifted = (((s >> 18) ^ s) >> 27) as u32;
    let rot = (s >> 59) as u32;
    xorshifted.rotate_right(rot).to_le_bytes()
}

/// FNV-1a, 32 bits.
fn checksum(bytes: &[u8]) -> u32 {
    bytes.iter().fold(0x811c_9dc5u32, |h, &b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    })
}

/// The natural logarithm of a positive normal `x`: fdlibm's `e_log.c`
/// (Sun Microsystems, 1993), whose arithmetic is IEEE's basic operations
/// only, so that it gives the same bits everywhere (within 1 ulp of the
/// true value). Not for zero, negative, subnormal or non-finite values.
pub fn ln(x: f64) -> f64 {
    let ln2_hi = f64::from_bits(0x3fe6_2e42_fee0_0000);
    let ln2_lo = f64::from_bits(0x3dea_39ef_3579_3c76);
    let lg1 = f64::from_bits(0x3fe5_5555_5555_5593);
    let lg2 = f64::from_bits(0x3fd9_9999_9997_fa04);
    let lg3 = f64::from_bits(0x3fd2_4924_9422_9359);
    let lg4 = f64::from_bits(0x3fcc_71c5_1d8e_78af);
    let lg5 = f64::from_bits(0x3fc7_4664_96cb_03de);
    let lg6 = f64::from_bits(0x3fc3_9a09_d078_c69f);
    let lg7 = f64::from_bits(0x3fc2_f112_df3e_5244);

    let bits = x.to_bits();
    let mut hx = (bits >> 32) as i32;
    let lx = bits as u32;
    let mut k = (hx >> 20) - 1023;
    hx &= 0x000f_ffff;
    let i = (hx + 0x95f64) & 0x10_0000;
    // x normalized to [sqrt(2)/2, sqrt(2)), its exponent in k.
    let x = f64::from_bits((u64::from((hx | (i ^ 0x3ff0_0000)) as u32) << 32) | u64::from(lx));
    k += i >> 20;
    let f = x - 1.0;
    let dk = f64::from(k);
    if (0x000f_ffff & (2 + hx)) < 3 {
        // |f| < 2^-20
        if f == 0.0 {
            return if k == 0 {
                0.0
            } else {
                dk * ln2_hi + dk * ln2_lo
            };
        }
        let r = f * f * (0.5 - f64::from_bits(0x3fd5_5555_5555_5555) * f);
        return if k == 0 {
            f - r
        } else {
            dk * ln2_hi - ((r - dk * ln2_lo) - f)
        };
    }
    let s = f / (2.0 + f);
    let z = s * s;
    let mut i = hx - 0x6147a;
    let w = z * z;
    let j = 0x6b851 - hx;
    let t1 = w * (lg2 + w * (lg4 + w * lg6));
    let t2 = z * (lg1 + w * (lg3 + w * (lg5 + w * lg7)));
    i |= j;
    let r = t2 + t1;
    if i > 0 {
        let hfsq = 0.5 * f * f;
        if k == 0 {
            f - (hfsq - s * (hfsq + r))
        } else {
            dk * ln2_hi - ((hfsq - (s * (hfsq + r) + dk * ln2_lo)) - f)
        }
    } else if k == 0 {
        f - s * (f - r)
    } else {
        dk * ln2_hi - ((s * (f - r) - dk * ln2_lo) - f)
    }
}

/// Dice as `"3d6+2"` reads them: `count` dice of `sides` sides, plus
/// `bonus`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dice {
    pub count: u32,
    pub sides: u32,
    pub bonus: i64,
}

/// The most dice one text may roll.
pub const MAX_DICE: u32 = 1000;
/// The most sides a die may have, and the largest constant: 2^31 - 1.
pub const MAX_SIDES: u32 = i32::MAX as u32;

impl Dice {
    /// `NdS`, `NdS+K` or `NdS-K` (`N` 1 by default, `d%` a die of 100
    /// sides, `D` for `d`, spaces at the ends and around the sign), or why
    /// the text is not dice.
    pub fn parse(text: &[u8]) -> Result<Dice, String> {
        let shown = crate::input::quoted(text);
        let bad = |why: &str| {
            Err(format!(
                "{shown} is not dice ({why}): NdS, NdS+K or NdS-K, like \"3d6+2\" or \"d%\""
            ))
        };
        let mut rest = trim(text);
        let count = match digits(&mut rest) {
            Digits::None => 1,
            Digits::Value(n) => n,
            Digits::TooLong => return bad("a number too long"),
        };
        match rest.first() {
            Some(b'd' | b'D') => rest = &rest[1..],
            _ => return bad("no d"),
        }
        let sides = if rest.first() == Some(&b'%') {
            rest = &rest[1..];
            100
        } else {
            match digits(&mut rest) {
                Digits::None => return bad("no sides after d"),
                Digits::Value(n) => n,
                Digits::TooLong => return bad("a number too long"),
            }
        };
        rest = trim(rest);
        let bonus = match rest.first() {
            None => 0,
            Some(&sign @ (b'+' | b'-')) => {
                rest = trim(&rest[1..]);
                let k = match digits(&mut rest) {
                    Digits::Value(k) => i64::from(k),
                    Digits::None => return bad("no number after the sign"),
                    Digits::TooLong => return bad("a number too long"),
                };
                if !rest.is_empty() {
                    return bad("text after the constant");
                }
                if sign == b'-' {
                    -k
                } else {
                    k
                }
            }
            Some(_) => return bad("text after the dice"),
        };
        if count == 0 || count > MAX_DICE {
            return Err(format!(
                "{shown}: the number of dice must be from 1 to {MAX_DICE}, got {count}"
            ));
        }
        if sides == 0 || sides > MAX_SIDES {
            return Err(format!(
                "{shown}: the sides must be from 1 to {MAX_SIDES}, got {sides}"
            ));
        }
        if bonus.unsigned_abs() > u64::from(MAX_SIDES) {
            return Err(format!(
                "{shown}: the constant must be at most {MAX_SIDES}, got {}",
                bonus.unsigned_abs()
            ));
        }
        Ok(Dice {
            count,
            sides,
            bonus,
        })
    }

    /// The dice rolled one by one, in order, then the constant added.
    pub fn roll(&self, r: &mut Random) -> i64 {
        let mut sum = self.bonus;
        for _ in 0..self.count {
            sum += r.below(u64::from(self.sides)) as i64 + 1;
        }
        sum
    }
}

enum Digits {
    None,
    Value(u32),
    TooLong,
}

/// The decimal digits at the start of `rest`, taken off it (at most 10;
/// more, or above `u32::MAX`, is too long).
fn digits(rest: &mut &[u8]) -> Digits {
    let n = rest.iter().take_while(|b| b.is_ascii_digit()).count();
    let (number, after) = rest.split_at(n);
    *rest = after;
    if n == 0 {
        return Digits::None;
    }
    if n > 10 {
        return Digits::TooLong;
    }
    let value = number
        .iter()
        .fold(0u64, |v, &d| v * 10 + u64::from(d - b'0'));
    u32::try_from(value).map_or(Digits::TooLong, Digits::Value)
}

fn trim(mut s: &[u8]) -> &[u8] {
    while let [b' ', rest @ ..] = s {
        s = rest;
    }
    while let [rest @ .., b' '] = s {
        s = rest;
    }
    s
}

/// Non-negative weights made integers for an exact draw: each weight times
/// the power of two that puts the largest in `[2^63, 2^64)`, rounded down
/// (a weight below 2^-64 of the largest becomes 0, never drawn). Integers
/// and the weights within 64 bits of the largest keep their ratios exactly.
pub struct Weights {
    /// The power of two the weights are multiplied by.
    shift: i32,
}

impl Weights {
    /// The scale for weights whose largest is `max` (positive, finite).
    pub fn for_largest(max: f64) -> Weights {
        let (_, exponent) = decompose(max);
        // max = mantissa * 2^exponent, mantissa in [2^52, 2^53): times 2^shift
        // it lies in [2^63, 2^64).
        Weights {
            shift: 11 - exponent,
        }
    }

    /// `w` (non-negative, finite, at most the largest) as an integer.
    pub fn scaled(&self, w: f64) -> u64 {
        if w == 0.0 {
            return 0;
        }
        let (mantissa, exponent) = decompose(w);
        let e = exponent + self.shift;
        if e >= 0 {
            mantissa << e
        } else if e > -64 {
            mantissa >> -e
        } else {
            0
        }
    }
}

/// A positive finite `x` as `mantissa * 2^exponent`, the mantissa in
/// `[2^52, 2^53)` (subnormals normalized).
pub fn decompose(x: f64) -> (u64, i32) {
    let bits = x.to_bits();
    let biased = ((bits >> 52) & 0x7ff) as i32;
    let fraction = bits & ((1 << 52) - 1);
    if biased == 0 {
        let shift = fraction.leading_zeros() as i32 - 11;
        (fraction << shift, -1074 - shift)
    } else {
        (fraction | 1 << 52, biased - 1075)
    }
}

/// The memory `rng:fill` of `count` values may use: 16 bytes each, and
/// the binding's list of the keys it added to the table (4 bytes each).
pub fn bound_fill(count: usize) -> usize {
    20 * count + crate::memory::FIXED
}

#[cfg(test)]
mod tests;
