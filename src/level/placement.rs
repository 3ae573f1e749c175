//! One entry of `place`, checked: what it places (`char`, or `choose`'s
//! characters by weight), how many (`count`, or `per_room` in each room),
//! and where (`min`, `hidden`). `place.rs` places them.

use crate::input::{int_in, quoted, Arg, MAX_CELLS};
use crate::rng::Rng;

/// The most entries one call may give.
pub const MAX_ENTRIES: usize = 100;
/// The most cells all entries together may ask for (as items: their Lua
/// tables stay a few MiB), and may place with `per_room`.
pub const MAX_PLACED: usize = 10_000;
/// The most characters one entry's `choose` may list.
pub const MAX_CHOICES: usize = 100;
/// The heaviest weight of a choice (their sum stays far within 64 bits).
pub const MAX_WEIGHT: i64 = 1_000_000;

/// Characters no entry may place: the map's own.
const RESERVED: &[u8] = b"#.@>+ ";

/// One entry, checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Placement {
    /// The character placed; without `choose`, the only one (with it, the
    /// first choice's, for messages).
    pub char: u8,
    pub count: usize,
    pub min: usize,
    pub hidden: bool,
    /// `{least, most}` cells in each of the generator's rooms, in place of
    /// `count`.
    pub per_room: Option<(usize, usize)>,
    /// `{char, weight}` pairs, each placed cell's character drawn by weight
    /// (empty: `char` alone).
    pub choose: Vec<(u8, u32)>,
}

/// `arg` as a placed character, or an error naming it `name`.
pub fn placed_char(name: &str, arg: Arg) -> Result<u8, String> {
    match arg {
        Arg::Str(&[c]) if (b'!'..=b'~').contains(&c) && !RESERVED.contains(&c) => Ok(c),
        other => Err(format!(
            "{name} must be one printable ASCII character but # . @ > + and space, got {other}"
        )),
    }
}

/// `per_room`'s `{least, most}` of entry `name`, checked.
pub fn per_room(name: &str, least: Arg, most: Arg) -> Result<(usize, usize), String> {
    let bound = |i, arg| int_in(&format!("{name}.per_room[{i}]"), arg, 0, MAX_PLACED as i64);
    let (least, most) = (bound(1, least)? as usize, bound(2, most)? as usize);
    if least > most {
        return Err(format!(
            "{name}.per_room must be {{least, most}} with least <= most, got {{{least}, {most}}}"
        ));
    }
    Ok((least, most))
}

/// Choice `i` (1-based) of entry `name`'s `choose`, `{char, weight}`, checked.
pub fn choice(name: &str, i: usize, char: Arg, weight: Arg) -> Result<(u8, u32), String> {
    let at = format!("{name}.choose[{i}]");
    let char = placed_char(&format!("{at}[1]"), char)?;
    let weight = int_in(&format!("{at}[2]"), weight, 0, MAX_WEIGHT)?;
    Ok((char, weight as u32))
}

impl Placement {
    /// Entry `n` (1-based, for messages) from the values given for its
    /// fields (`Missing`: `count` 1, `min` 0, `hidden` false; `char` is
    /// required).
    pub fn new(
        n: usize,
        char: Arg,
        count: Arg,
        min: Arg,
        hidden: Arg,
    ) -> Result<Placement, String> {
        let name = format!("place[{n}]");
        let char = placed_char(&format!("{name}.char"), char)?;
        let count = match count {
            Arg::Missing => 1,
            arg => int_in(&format!("{name}.count"), arg, 0, MAX_PLACED as i64)? as usize,
        };
        let min = match min {
            Arg::Missing => 0,
            arg => int_in(&format!("{name}.min"), arg, 0, MAX_CELLS as i64)? as usize,
        };
        let hidden = match hidden {
            Arg::Missing => false,
            Arg::Bool(b) => b,
            other => return Err(format!("{name}.hidden must be a boolean, got {other}")),
        };
        Ok(Placement {
            char,
            count,
            min,
            hidden,
            per_room: None,
            choose: Vec::new(),
        })
    }

    /// Entry `n` with `choose` (`choices` checked by `choice`) in place of
    /// `char`, and `per_room` in place of `count` when given: what `new`
    /// reads of the rest. Errors when both of a pair are given, or no
    /// choice weighs anything.
    pub fn designed(
        n: usize,
        fields: [Arg; 4],
        per_room: Option<(usize, usize)>,
        choose: Option<Vec<(u8, u32)>>,
    ) -> Result<Placement, String> {
        let [char, count, min, hidden] = fields;
        let name = format!("place[{n}]");
        let both = |a: &str, b: &str, what: &str| {
            format!("{name} gives both {a} and {b}: one of them says {what}")
        };
        if choose.is_some() && char != Arg::Missing {
            return Err(both("char", "choose", "what to place"));
        }
        if per_room.is_some() && count != Arg::Missing {
            return Err(both("count", "per_room", "how many"));
        }
        let first = choose.as_ref().and_then(|c| c.first()).map(|&(c, _)| [c]);
        let char = match &first {
            Some(c) => Arg::Str(c),
            None => char,
        };
        let mut entry = Placement::new(n, char, count, min, hidden)?;
        if let Some(choose) = choose {
            if choose.iter().all(|&(_, w)| w == 0) {
                return Err(format!(
                    "{name}.choose must hold {{char, weight}} pairs with a positive weight among them"
                ));
            }
            entry.choose = choose;
        }
        if let Some(range) = per_room {
            entry.per_room = Some(range);
            entry.count = 0;
        }
        Ok(entry)
    }

    /// Whether it may place anything (a `count`, or a `per_room` most).
    pub fn asks(&self) -> bool {
        self.count > 0 || self.per_room.is_some_and(|(_, most)| most > 0)
    }

    /// The characters it may place.
    pub fn chars(&self) -> Vec<u8> {
        match self.choose.is_empty() {
            true => vec![self.char],
            false => self.choose.iter().map(|&(c, _)| c).collect(),
        }
    }

    /// What it places, for messages: `"M"`, or `of "M", "k"`.
    pub(super) fn what(&self) -> String {
        let quoted: Vec<String> = self.chars().iter().map(|c| quoted(&[*c])).collect();
        match quoted.len() {
            1 => quoted[0].clone(),
            _ => format!("of {}", quoted.join(", ")),
        }
    }

    /// A placed cell's character: `char`, or one of `choose` drawn by
    /// weight (a draw in `0..total`, the first choice whose running sum
    /// passes it).
    pub(super) fn draw_char(&self, rng: &mut Rng) -> u8 {
        if self.choose.is_empty() {
            return self.char;
        }
        let total: usize = self.choose.iter().map(|&(_, w)| w as usize).sum();
        let mut r = rng.below(total);
        for &(c, w) in &self.choose {
            if r < w as usize {
                return c;
            }
            r -= w as usize;
        }
        unreachable!("the draw is below the total")
    }

    /// What its cells must be, for messages.
    pub(super) fn wanted(&self) -> String {
        let mut s = String::from("free floor cells");
        if self.min > 0 {
            s += &format!(" at walking distance >= {} from @", self.min);
        }
        if self.hidden {
            s += if self.min > 0 {
                " and hidden from it"
            } else {
                " hidden from @"
            };
        }
        s
    }
}
