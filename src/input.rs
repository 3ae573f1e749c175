//! What a caller may ask for, checked once, with messages a Lua user can read.
//!
//! Values arrive as `Arg`s so that every front end (the Lua binding, the HTTP
//! server through it) reports a bad value in the same words.

use std::fmt;

/// What an internal error's message carries after the function's name: a
/// bug in the module, not in the arguments. Exported as `map.INTERNAL_ERROR`
/// so that the CLI and the server find it without copying the text.
pub const INTERNAL_ERROR: &str = "internal error (please report)";

/// The most cells one map may have: a 2000x2000 map fits, and the Lua table
/// for it (about 64 MiB on Lua 5.4) stays far from exhausting a host.
pub const MAX_CELLS: usize = 4_000_000;

/// Seeds are integers with `|seed| <= 2^53`, the range a double holds exactly,
/// so a seed survives LuaJIT numbers and JSON unchanged.
pub const MAX_SEED: i64 = 1 << 53;

/// One argument as the caller gave it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum Arg<'a> {
    #[default]
    Missing,
    Int(i64),
    Float(f64),
    Str(&'a [u8]),
    Bool(bool),
    /// Any other value, described by its type name ("table", "boolean", ...).
    Other(&'static str),
}

impl fmt::Display for Arg<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Arg::Missing => f.write_str("nil"),
            Arg::Int(i) => write!(f, "{i}"),
            Arg::Float(x) if x.is_nan() => f.write_str("nan"),
            Arg::Float(x) if x.is_infinite() => f.write_str(if x > 0.0 { "inf" } else { "-inf" }),
            // Integral floats that fit an i64 print exactly, as LuaJIT's
            // integers do (its numbers are all floats): `2^62` reads the
            // same on both interpreters, and -0.0 as 0.
            Arg::Float(x) if Arg::Float(x).integer().is_some() => write!(f, "{}", x as i64),
            // Huge or tiny ones in exponent form, so that no message holds
            // hundreds of digits (1e308 has 309).
            Arg::Float(x) => {
                let plain = x.to_string();
                if plain.len() <= 40 {
                    f.write_str(&plain)
                } else {
                    write!(f, "{x:e}")
                }
            }
            Arg::Str(s) => write!(f, "string {}", quoted(s)),
            Arg::Bool(_) => f.write_str("boolean"),
            Arg::Other(type_name) => f.write_str(type_name),
        }
    }
}

/// `bytes` in double quotes, cut to 40 bytes (then `...`), so that a huge
/// value never makes a huge message.
pub fn quoted(bytes: &[u8]) -> String {
    let shown = String::from_utf8_lossy(&bytes[..bytes.len().min(40)]);
    let more = if bytes.len() > 40 { "..." } else { "" };
    format!("{:?}", format!("{shown}{more}"))
}

impl Arg<'_> {
    /// The value as an integer if it is one exactly (`42.0` is, `42.5` is not).
    pub fn integer(&self) -> Option<i64> {
        match *self {
            Arg::Int(i) => Some(i),
            // The range test excludes 2^63, which `as` would saturate.
            Arg::Float(x) if x.fract() == 0.0 && x >= -(2f64.powi(63)) && x < 2f64.powi(63) => {
                Some(x as i64)
            }
            _ => None,
        }
    }
}

impl Arg<'_> {
    /// The value's type as Lua names it.
    pub fn type_name(&self) -> &'static str {
        match *self {
            Arg::Missing => "nil",
            Arg::Int(_) | Arg::Float(_) => "number",
            Arg::Str(_) => "string",
            Arg::Bool(_) => "boolean",
            Arg::Other(name) => name,
        }
    }
}

/// An integer argument within `min..=max`, or a message naming it.
pub fn int_in(name: &str, arg: Arg, min: i64, max: i64) -> Result<i64, String> {
    match arg.integer() {
        Some(i) if (min..=max).contains(&i) => Ok(i),
        _ if max == i64::MAX => Err(format!("{name} must be an integer >= {min}, got {arg}")),
        _ => Err(format!(
            "{name} must be an integer from {min} to {max}, got {arg}"
        )),
    }
}

/// A map size: each side at least its minimum, and at most `MAX_CELLS` cells.
pub fn size(
    width: Arg,
    height: Arg,
    min_width: i64,
    min_height: i64,
) -> Result<(usize, usize), String> {
    let w = int_in("width", width, min_width, i64::MAX)?;
    let h = int_in("height", height, min_height, i64::MAX)?;
    match w.checked_mul(h) {
        Some(cells) if cells <= MAX_CELLS as i64 => Ok((w as usize, h as usize)),
        _ => Err(format!(
            "width*height must be at most {MAX_CELLS} cells, got {w}x{h}"
        )),
    }
}

/// The seed to use: the caller's, or a fresh one when none was given.
pub fn seed(arg: Arg) -> Result<i64, String> {
    match arg {
        Arg::Missing => Ok(fresh_seed()),
        _ => int_in("seed", arg, -MAX_SEED, MAX_SEED)
            .map_err(|_| format!("seed must be an integer with |seed| <= 2^53, got {arg}")),
    }
}

/// A seed from the clock and the process's random hash keys, in `0..2^53`.
fn fresh_seed() -> i64 {
    use std::collections::hash_map::RandomState;
    use std::hash::{BuildHasher, Hasher};
    use std::time::{SystemTime, UNIX_EPOCH};

    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let mut hasher = RandomState::new().build_hasher();
    hasher.write_u64(nanos);
    (hasher.finish() & ((1 << 53) - 1)) as i64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers_and_integral_floats_are_integers() {
        assert_eq!(Arg::Int(-3).integer(), Some(-3));
        assert_eq!(Arg::Float(42.0).integer(), Some(42));
        assert_eq!(Arg::Float(4.5).integer(), None);
        assert_eq!(Arg::Float(f64::NAN).integer(), None);
        assert_eq!(Arg::Float(f64::INFINITY).integer(), None);
        assert_eq!(Arg::Float(2f64.powi(63)).integer(), None);
        assert_eq!(Arg::Float(-(2f64.powi(63))).integer(), Some(i64::MIN));
        assert_eq!(Arg::Str(b"1").integer(), None);
    }

    #[test]
    fn messages_name_the_argument_and_the_value() {
        assert_eq!(
            size(Arg::Float(4.5), Arg::Int(5), 6, 5).unwrap_err(),
            "width must be an integer >= 6, got 4.5"
        );
        assert_eq!(
            size(Arg::Int(6), Arg::Str(b"x"), 6, 5).unwrap_err(),
            "height must be an integer >= 5, got string \"x\""
        );
        assert_eq!(
            int_in("rooms", Arg::Float(f64::NAN), 1, 9).unwrap_err(),
            "rooms must be an integer from 1 to 9, got nan"
        );
        assert_eq!(
            seed(Arg::Other("table")).unwrap_err(),
            "seed must be an integer with |seed| <= 2^53, got table"
        );
    }

    #[test]
    fn integral_floats_print_exactly() {
        assert_eq!(Arg::Float(2f64.powi(62)).to_string(), "4611686018427387904");
        assert_eq!(Arg::Float(-0.0).to_string(), "0");
        assert_eq!(Arg::Float(4.5).to_string(), "4.5");
        // Past i64 both interpreters pass a float: shortest round-trip digits.
        assert_eq!(Arg::Float(2f64.powi(63)).to_string(), "9223372036854776000");
        // Past 40 bytes, in exponent form.
        assert_eq!(Arg::Float(1e308).to_string(), "1e308");
        assert_eq!(Arg::Float(-1.5e300).to_string(), "-1.5e300");
        assert_eq!(Arg::Float(1e-300).to_string(), "1e-300");
        assert_eq!(
            Arg::Float(1.5e30).to_string(),
            "1500000000000000000000000000000"
        );
    }

    #[test]
    fn size_is_bounded_without_overflow() {
        assert_eq!(size(Arg::Int(2000), Arg::Int(2000), 1, 1), Ok((2000, 2000)));
        assert!(size(Arg::Int(2001), Arg::Int(2000), 1, 1).is_err());
        assert!(size(Arg::Int(i64::MAX), Arg::Int(i64::MAX), 1, 1).is_err());
    }

    #[test]
    fn seed_range_is_inclusive() {
        assert_eq!(seed(Arg::Int(MAX_SEED)), Ok(MAX_SEED));
        assert_eq!(seed(Arg::Float(-(2f64.powi(53)))), Ok(-MAX_SEED));
        assert!(seed(Arg::Int(MAX_SEED + 1)).is_err());
        let fresh = seed(Arg::Missing).unwrap();
        assert!((0..MAX_SEED).contains(&fresh));
    }
}
