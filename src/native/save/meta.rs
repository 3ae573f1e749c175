//! `generate`'s metadata of a saved level (`save.rs`'s module doc: the
//! seed, the algorithm, then its lists, and format 3's locks), written
//! and read back checked against what a generated level can hold.

use super::{In, Out, TRUNCATED};
use crate::generators::shared::{MAX_LOCKS, MAX_ROOMS};
use crate::grid::{Grid, Pos, Rect};
use crate::input::MAX_SEED;
use crate::level::items::Item;
use crate::level::locks::Lock;
use crate::level::place::Placed;
use crate::level::place::MAX_PLACED;
use crate::level::template::MAX_COPIES;
use crate::level::vaults::Vault;
use crate::level::vaults::MAX_TEMPLATES;
use crate::level::MAX_ITEMS;
use crate::level::{exits::Exits, Level};

pub(super) fn save_meta(out: &mut Out, m: &Level) {
    out.0.extend_from_slice(&m.seed.to_le_bytes());
    out.0.push(m.algorithm.len() as u8);
    out.0.extend_from_slice(m.algorithm.as_bytes());
    out.list(&m.rooms, |o, r| o.rect(*r));
    out.list(&m.doors, |o, p| o.pos(*p));
    out.pos(m.player);
    out.pos(m.stairs);
    out.list(&m.items, |o, i| {
        o.pos(i.pos);
        o.0.push(i.kind);
    });
    out.list(&m.vaults, |o, v| {
        o.u32(v.index);
        o.rect(v.rect);
        o.0.push(v.rotation);
    });
    out.list(&m.placed, |o, p| {
        o.pos(p.pos);
        o.0.push(p.char);
    });
    out.list(m.up.as_slice(), |o, p| o.pos(*p));
    out.list(&m.exits.exits, |o, e| o.list(e, |o, p| o.pos(*p)));
    out.list(&m.exits.links, |o, l| o.list(l, |o, r| o.u32(*r as usize)));
    if let Some(locks) = &m.locks {
        out.list(locks, |o, l| {
            o.pos(l.door);
            o.0.push(l.door_char);
            o.pos(l.key);
            o.0.push(l.key_char);
        });
    }
}

pub(super) fn read_meta(r: &mut In, with_locks: bool) -> Result<Level, String> {
    let seed = i64::from_le_bytes(r.take(8)?.try_into().map_err(|_| TRUNCATED)?);
    if seed.unsigned_abs() > MAX_SEED as u64 {
        return Err("level has a seed beyond 2^53".into());
    }
    let len = r.u8()? as usize;
    let name = r.take(len)?;
    let algorithm = crate::generators::find(name)
        .ok_or("level names an unknown algorithm")?
        .name;
    let rooms = r.list(16, In::rect)?;
    let doors = r.list(8, In::pos)?;
    let (player, stairs) = (r.pos()?, r.pos()?);
    let items = r.list(9, |r| {
        Ok(Item {
            pos: r.pos()?,
            kind: r.u8()?,
        })
    })?;
    let vaults = r.list(21, |r| {
        Ok(Vault {
            index: r.u32()?,
            rect: r.rect()?,
            rotation: r.u8()?,
        })
    })?;
    let placed = r.list(9, |r| {
        Ok(Placed {
            pos: r.pos()?,
            char: r.u8()?,
        })
    })?;
    let up = r.list(8, In::pos)?;
    let exits = r.list(4, |r| r.list(8, In::pos))?;
    let links = r.list(4, |r| r.list(4, In::u32))?;
    let locks = match with_locks {
        true => Some(read_locks(r)?),
        false => None,
    };
    let rooms_n = rooms.len();
    let links_ok = links.iter().flatten().all(|&l| l < rooms_n);
    if up.len() > 1 || exits.len() != rooms_n || links.len() != rooms_n || !links_ok {
        return Err("level's metadata does not fit its rooms".into());
    }
    if !within_generated(
        r.size, &rooms, &doors, &items, &vaults, &placed, &exits, &links,
    ) {
        return Err("level's metadata holds more than a generated level can".into());
    }
    Ok(Level {
        grid: Grid::new(0, 0, b'.'),
        seed,
        algorithm,
        rooms,
        doors,
        player,
        stairs,
        items,
        vaults,
        up: up.first().copied(),
        placed,
        blocked: None,
        exits: Exits {
            exits,
            links: links
                .into_iter()
                .map(|l| l.into_iter().map(|v| v as u32).collect())
                .collect(),
        },
        locks,
    })
}

/// The locks of format 3's metadata: at most `MAX_LOCKS`.
fn read_locks(r: &mut In) -> Result<Vec<Lock>, String> {
    let locks = r.list(18, |r| {
        Ok(Lock {
            door: r.pos()?,
            door_char: r.u8()?,
            key: r.pos()?,
            key_char: r.u8()?,
        })
    })?;
    match locks.len() <= MAX_LOCKS as usize {
        true => Ok(locks),
        false => Err("level's metadata holds more than a generated level can".into()),
    }
}

/// Whether the metadata's lists are no longer than `generate` makes them:
/// its rooms (the generator's and the vaults' copies), items, vaults and
/// placed cells at most their caps, its doors at most the cells, each
/// room's exits at most its ring and its links at most the rooms.
#[expect(clippy::too_many_arguments, reason = "each list the metadata holds")]
fn within_generated(
    (w, h): (usize, usize),
    rooms: &[Rect],
    doors: &[Pos],
    items: &[Item],
    vaults: &[Vault],
    placed: &[Placed],
    exits: &[Vec<Pos>],
    links: &[Vec<usize>],
) -> bool {
    let copies = MAX_TEMPLATES * MAX_COPIES;
    rooms.len() <= MAX_ROOMS as usize + copies
        && doors.len() <= w * h
        && items.len() <= MAX_ITEMS as usize
        && vaults.len() <= copies
        && placed.len() <= MAX_PLACED
        && rooms
            .iter()
            .zip(exits)
            .all(|(room, e)| e.len() <= 2 * (room.w + room.h))
        && links.iter().all(|l| l.len() <= rooms.len())
}
