//! `generate`'s metadata read back from a map table (`map.level(m)`): a
//! table that names its `algorithm` carries it, and every field of it that
//! `generate`'s table holds is read, raw, and checked (`seed`, `algorithm`,
//! `player` and `stairs` required; the lists empty when nil; `up` and
//! `locks` as given; positions inside the map). A game that changed a
//! generated table keeps what it changed; a field that is not what
//! `generate` makes is an error naming it. Keys a game added inside the
//! entries (`room.visited`) are left alone.
//!
//! Each list is counted (walked, nothing allocated) and bounded before it
//! is read, and the memory for it checked: what is copied is proportional
//! to the table the caller already holds.

use std::ffi::c_int;

use crate::generators::{self, shared::MAX_LOCKS, shared::MAX_ROOMS, LIST};
use crate::grid::{Grid, Pos, Rect, FLOOR};
use crate::input::{int_in, Arg, MAX_SEED};
use crate::level::exits::Exits;
use crate::level::items::Item;
use crate::level::locks::Lock;
use crate::level::place::{Placed, MAX_PLACED};
use crate::level::template::MAX_COPIES;
use crate::level::vaults::{Vault, MAX_TEMPLATES};
use crate::level::{Level, MAX_ITEMS};
use crate::lua::shared::design::array_len;
use crate::lua::stack::{Args, Field, Key};
use crate::memory;

/// The metadata of the map table at `t` of `size` whose walking `blocked`
/// (already read) says, if it names its `algorithm`; `None` if it does not.
pub fn read(
    args: &Args,
    t: c_int,
    size: (usize, usize),
    blocked: Option<&[u8]>,
) -> Result<Option<Level>, String> {
    let r = Reader { args, size };
    let field = |f| args.with_field(t, Key::Field(f), |a, v| a.at(v));
    let algorithm = match field(Field::Algorithm) {
        Arg::Missing => return Ok(None),
        Arg::Str(name) => generators::find(name),
        _ => None,
    };
    let Some(algorithm) = algorithm else {
        let names: Vec<String> = LIST.iter().map(|g| format!("\"{}\"", g.name)).collect();
        return Err(format!(
            "m.algorithm must name an algorithm ({}), got {}",
            names.join(", "),
            field(Field::Algorithm)
        ));
    };
    let seed = int_in("m.seed", field(Field::Seed), -MAX_SEED, MAX_SEED)?;
    let cell = |f: Field| {
        args.with_field(t, Key::Field(f), |_, v| {
            r.pos(v, &format!("m.{}", f.name()))
        })
    };
    let (player, stairs) = (cell(Field::Player)?, cell(Field::Stairs)?);
    let up = match field(Field::Up) {
        Arg::Missing => None,
        _ => Some(cell(Field::Up)?),
    };
    let copies = MAX_TEMPLATES * MAX_COPIES;
    let (rooms, exits) = r.rooms(t, MAX_ROOMS as usize + copies)?;
    let doors = r.list(t, Field::Doors, "m.doors", size.0 * size.1, |v, name| {
        r.pos(v, name)
    })?;
    let items = r.list(t, Field::Items, "m.items", MAX_ITEMS as usize, |v, name| {
        let (pos, kind) = r.marked(v, name, Field::Kind)?;
        Ok(Item { pos, kind })
    })?;
    let vaults = r.list(t, Field::Vaults, "m.vaults", copies, |v, name| {
        r.vault(v, name)
    })?;
    let placed = r.list(t, Field::Placed, "m.placed", MAX_PLACED, |v, name| {
        let (pos, char) = r.marked(v, name, Field::Char)?;
        Ok(Placed { pos, char })
    })?;
    let locks = match field(Field::Locks) {
        Arg::Missing => None,
        _ => Some(
            r.list(t, Field::Locks, "m.locks", MAX_LOCKS as usize, |v, name| {
                r.lock(v, name)
            })?,
        ),
    };
    let blocked =
        match blocked {
            None => None,
            Some(chars) => Some(String::from_utf8(crate::native::distinct(chars)).map_err(
                |_| "m.blocked must be text (UTF-8) on a table with generate's metadata",
            )?),
        };
    Ok(Some(Level {
        grid: Grid::new(0, 0, FLOOR),
        seed,
        algorithm: algorithm.name,
        rooms,
        doors,
        player,
        stairs,
        items,
        vaults,
        up,
        placed,
        exits,
        blocked,
        locks,
    }))
}

/// The readers of the metadata's parts, on a map of `size`.
struct Reader<'a> {
    args: &'a Args,
    size: (usize, usize),
}

impl Reader<'_> {
    /// The integer field `f` of the table at `v` (called `name`), in `lo..=hi`.
    fn int(&self, v: c_int, name: &str, f: Field, lo: usize, hi: usize) -> Result<usize, String> {
        let arg = self.args.with_field(v, Key::Field(f), |a, x| a.at(x));
        let name = format!("{name}.{}", f.name());
        Ok(int_in(&name, arg, lo as i64, hi as i64)? as usize)
    }

    /// An error unless the value at `v`, called `name`, is a table of `shape`.
    fn table(&self, v: c_int, name: &str, shape: &str) -> Result<(), String> {
        match self.args.is_table(v) {
            true => Ok(()),
            false => Err(format!(
                "{name} must be {shape}, got {}",
                self.args.at(v).type_name()
            )),
        }
    }

    /// A cell `{x=, y=}` inside the map.
    fn pos(&self, v: c_int, name: &str) -> Result<Pos, String> {
        self.table(v, name, "a position {x=, y=}")?;
        let (w, h) = self.size;
        Ok(Pos {
            x: self.int(v, name, Field::X, 1, w)?,
            y: self.int(v, name, Field::Y, 1, h)?,
        })
    }

    /// A cell with a one-character field `f`: `{x=, y=, kind=}`.
    fn marked(&self, v: c_int, name: &str, f: Field) -> Result<(Pos, u8), String> {
        let pos = self.pos(v, name)?;
        match self.args.with_field(v, Key::Field(f), |a, c| a.at(c)) {
            Arg::Str(&[c]) => Ok((pos, c)),
            other => Err(format!(
                "{name}.{} must be a one-character string, got {other}",
                f.name()
            )),
        }
    }

    /// A rectangle `{x=, y=, w=, h=}` inside the map.
    fn rect(&self, v: c_int, name: &str, shape: &str) -> Result<Rect, String> {
        self.table(v, name, shape)?;
        let (w, h) = self.size;
        let x = self.int(v, name, Field::X, 1, w)?;
        let y = self.int(v, name, Field::Y, 1, h)?;
        Ok(Rect {
            x,
            y,
            w: self.int(v, name, Field::W, 1, w + 1 - x)?,
            h: self.int(v, name, Field::H, 1, h + 1 - y)?,
        })
    }

    fn vault(&self, v: c_int, name: &str) -> Result<Vault, String> {
        let shape = "a vault {index=, x=, y=, w=, h=, rotation=}";
        let rect = self.rect(v, name, shape)?;
        Ok(Vault {
            index: self.int(v, name, Field::Index, 1, MAX_TEMPLATES)? - 1,
            rect,
            rotation: self.int(v, name, Field::Rotation, 0, 7)? as u8,
        })
    }

    fn lock(&self, v: c_int, name: &str) -> Result<Lock, String> {
        self.table(v, name, "a lock {door=, key=}")?;
        let part = |f: Field| {
            let name = format!("{name}.{}", f.name());
            self.args
                .with_field(v, Key::Field(f), |_, c| self.marked(c, &name, Field::Char))
        };
        let ((door, door_char), (key, key_char)) = (part(Field::Door)?, part(Field::KeyCell)?);
        Ok(Lock {
            door,
            door_char,
            key,
            key_char,
        })
    }

    /// The rooms, each `{x=, y=, w=, h=, exits=, links=}` (`exits` and
    /// `links` empty when nil), with their exits and links.
    fn rooms(&self, t: c_int, max: usize) -> Result<(Vec<Rect>, Exits), String> {
        let (mut exits, mut links) = (Vec::new(), Vec::new());
        let each = std::mem::size_of::<Rect>() + 2 * std::mem::size_of::<Vec<Pos>>();
        let n = self.count(t, Field::Rooms, "m.rooms", max, each)?;
        let rooms = self.list(t, Field::Rooms, "m.rooms", max, |v, name| {
            let rect = self.rect(v, name, "a room {x=, y=, w=, h=, exits=, links=}")?;
            let ring = 2 * (rect.w + rect.h);
            let exits_name = format!("{name}.exits");
            exits.push(self.list(v, Field::Exits, &exits_name, ring, |c, name| {
                self.pos(c, name)
            })?);
            let links_name = format!("{name}.links");
            links.push(self.list(v, Field::Links, &links_name, n, |c, name| {
                let arg = self.args.at(c);
                Ok(int_in(name, arg, 1, n as i64)? as u32 - 1)
            })?);
            Ok(rect)
        })?;
        Ok((rooms, Exits { exits, links }))
    }

    /// How many entries the array field `f` of the table at `t`, called
    /// `name`, holds (0 when nil), at most `max`, with the memory for
    /// `each` bytes an entry.
    fn count(
        &self,
        t: c_int,
        f: Field,
        name: &str,
        max: usize,
        each: usize,
    ) -> Result<usize, String> {
        self.args.with_field(t, Key::Field(f), |a, v| {
            if a.at(v) == Arg::Missing {
                return Ok(0);
            }
            self.table(v, name, "an array")?;
            let n = array_len(a, v, name)?;
            if n > max {
                return Err(format!("{name} has {n} entries, at most {max}"));
            }
            memory::check(n.saturating_mul(each))?;
            Ok(n)
        })
    }

    /// The array field `f` of the table at `t`, called `name`, each entry
    /// read by `each` (given its stack slot and its name, `m.doors[3]`);
    /// empty when nil.
    fn list<T>(
        &self,
        t: c_int,
        f: Field,
        name: &str,
        max: usize,
        mut each: impl FnMut(c_int, &str) -> Result<T, String>,
    ) -> Result<Vec<T>, String> {
        let n = self.count(t, f, name, max, std::mem::size_of::<T>())?;
        let mut out = Vec::with_capacity(n);
        for i in 1..=n {
            let entry = format!("{name}[{i}]");
            out.push(self.args.with_field(t, Key::Field(f), |a, v| {
                a.with_field(v, Key::Index(i), |_, e| each(e, &entry))
            })?);
        }
        Ok(out)
    }
}
