//! Saved strings (`map::native::save`): levels to save, strings framed and
//! damaged, and what every loaded value must keep. Shared by the fuzz
//! targets that load saved strings (`level`, `save`); each includes this
//! file with `#[path]`, beside `tests/support/counting.rs` as `counting`.

use libfuzzer_sys::arbitrary::{Result, Unstructured};

use map::generators::shared::{MAX_LOCKS, MAX_ROOMS};
use map::generators::LIST;
use map::grid::{byte_set, ByteSet, Pos, Rect};
use map::input::{Arg, MAX_SEED};
use map::level::place::{Placement, MAX_PLACED};
use map::level::template::MAX_COPIES;
use map::level::vaults::MAX_TEMPLATES;
use map::level::{generate, Level, Params, MAX_ITEMS};
use map::native::field::Field;
use map::native::save::{self, Saved};
use map::native::NativeLevel;
use map::toolkit::board::{BEYOND, MAX_VALUE};

use crate::counting::peak_of;

/// The most rooms a generated level's metadata lists: the generator's and
/// the vaults' copies.
pub const MOST_ROOMS: usize = MAX_ROOMS as usize + MAX_TEMPLATES * MAX_COPIES;
/// The most vaults (copies of templates) a generated level lists.
pub const MOST_VAULTS: usize = MAX_TEMPLATES * MAX_COPIES;

/// The characters moved out as things: none, the usual ones, or any.
pub fn things_of(u: &mut Unstructured) -> Result<ByteSet> {
    Ok(match u.int_in_range(0..=3u8)? {
        0 => [false; 256],
        1 => byte_set(b"@$!"),
        2 => byte_set(b"M"),
        _ => {
            let n = u.int_in_range(0..=4)?;
            byte_set(u.bytes(n)?)
        }
    })
}

/// A level of any generator of `LIST` at up to +40 x +25 over its minimum
/// size, now and then with `items`, `arrive` and `place`; `None` when
/// `generate` refuses the request.
pub fn generated(u: &mut Unstructured) -> Result<Option<Level>> {
    let g = LIST[u.choose_index(LIST.len())?];
    let w = g.min_width + u.int_in_range(0..=40)?;
    let h = g.min_height + u.int_in_range(0..=25)?;
    let seed = u.int_in_range(0..=(1i64 << 53))?;
    let mut p = Params::new(Arg::Int(w as i64), Arg::Int(h as i64), Arg::Int(seed))
        .with(b"algorithm", Arg::Str(g.name.as_bytes()));
    if u.ratio(1, 3)? {
        p = p.with(b"items", Arg::Int(u.int_in_range(0..=12)?));
    }
    if u.ratio(1, 3)? {
        let x = u.int_in_range(2..=w as i64 - 1)?;
        let y = u.int_in_range(2..=h as i64 - 1)?;
        p.design.arrive = Some((x, y));
    }
    for _ in 0..u.int_in_range(0..=2)? {
        p.design.place.push(Placement {
            char: *u.choose(b"kMgZ.#")?,
            count: u.int_in_range(0..=3)?,
            min: u.int_in_range(0..=6)?,
            hidden: u.arbitrary()?,
            per_room: None,
            choose: Vec::new(),
        });
    }
    Ok(generate(&p).ok())
}

/// `bytes` loaded, within `save::bound_load` of heap (what `map.load`
/// checks for before it loads).
pub fn load_measured(bytes: &[u8]) -> std::result::Result<Saved, String> {
    let (loaded, peak) = peak_of(|| save::load_saved(bytes));
    let bound = save::bound_load(bytes.len());
    assert!(
        peak <= bound,
        "loading {} bytes held {peak} bytes of heap, over the bound {bound}",
        bytes.len()
    );
    if let Err(e) = &loaded {
        assert!(!e.is_empty() && !e.contains("internal"), "message {e:?}");
    }
    loaded
}

/// Whether `metadata`'s lists are no longer than `generate` makes them
/// (`save.rs`'s bounds, written plainly): rooms at most `MOST_ROOMS`,
/// doors at most the cells, items `MAX_ITEMS`, vaults `MOST_VAULTS`,
/// placed cells `MAX_PLACED`, each room's exits at most its ring, its
/// links at most the rooms; and its seed within ±2^53.
/// `f` saved: its bytes are `field_bound` long, load back equal, and are
/// no level; the bytes and the field, for the damage to come.
pub fn saved_field(f: &Field) -> (Vec<u8>, Saved) {
    let bytes = save::save_field(f);
    assert_eq!(bytes.len(), save::field_bound(f), "field_bound");
    match load_measured(&bytes) {
        Ok(Saved::Field(back)) => assert_eq!(&back, f, "field round trip"),
        other => panic!("a saved field loads as {other:?}"),
    }
    assert!(save::load(&bytes).is_err(), "a field loaded as a level");
    (bytes, Saved::Field(f.clone()))
}

pub fn within_generated(m: &Level, size: (usize, usize)) -> bool {
    m.rooms.len() <= MOST_ROOMS
        && m.doors.len() <= size.0 * size.1
        && m.items.len() <= MAX_ITEMS as usize
        && m.vaults.len() <= MOST_VAULTS
        && m.placed.len() <= MAX_PLACED
        && m.locks
            .as_ref()
            .is_none_or(|l| l.len() <= MAX_LOCKS as usize)
        && m.rooms
            .iter()
            .zip(&m.exits.exits)
            .all(|(r, e)| e.len() <= 2 * (r.w + r.h))
        && m.exits.links.iter().all(|l| l.len() <= m.rooms.len())
        && m.seed.unsigned_abs() <= MAX_SEED as u64
}

/// What every level keeps, which a loaded one must too: things in
/// strictly increasing row order on the map, every cell and rectangle of
/// its metadata on the map, an exit list and a link list a room, links to
/// rooms, lists no longer than `generate` makes and a seed within ±2^53.
pub fn check_level(level: &NativeLevel) {
    let size = (level.width(), level.height());
    let n = size.0 * size.1;
    assert!(n >= 1 && level.terrain().cells().len() == n, "size");
    let things = level.things();
    assert!(
        things.windows(2).all(|t| t[0].index < t[1].index)
            && things.last().is_none_or(|t| (t.index as usize) < n),
        "things out of order or off the map"
    );
    if let Some(b) = level.blocked() {
        assert!(
            b.len() <= 256 && map::native::distinct(b) == b,
            "blocked {b:?}"
        );
    }
    let Some(m) = level.meta() else { return };
    let on = |p: &Pos| (1..=size.0).contains(&p.x) && (1..=size.1).contains(&p.y);
    let fits = |r: &Rect| {
        r.w >= 1
            && r.h >= 1
            && on(&Pos { x: r.x, y: r.y })
            && on(&Pos {
                x: r.x + r.w - 1,
                y: r.y + r.h - 1,
            })
    };
    assert!(m.rooms.iter().all(fits), "rooms off the map");
    assert!(m.vaults.iter().all(|v| fits(&v.rect)), "vaults off the map");
    let cells = m
        .doors
        .iter()
        .chain([&m.player, &m.stairs])
        .chain(m.up.iter());
    let cells = cells
        .chain(m.items.iter().map(|i| &i.pos))
        .chain(m.placed.iter().map(|p| &p.pos))
        .chain(m.exits.exits.iter().flatten());
    assert!(cells.into_iter().all(on), "a cell off the map");
    let rooms = m.rooms.len();
    assert_eq!(m.exits.exits.len(), rooms, "exits a room");
    assert_eq!(m.exits.links.len(), rooms, "links a room");
    assert!(
        m.exits
            .links
            .iter()
            .flatten()
            .all(|&l| (l as usize) < rooms),
        "a link to no room"
    );
    assert!(
        within_generated(m, size),
        "metadata past what generate makes: {} rooms, {} doors, {} items, {} vaults, {} placed, seed {}",
        rooms,
        m.doors.len(),
        m.items.len(),
        m.vaults.len(),
        m.placed.len(),
        m.seed
    );
    assert!(
        map::generators::find(m.algorithm.as_bytes()).is_some(),
        "algorithm {:?}",
        m.algorithm
    );
}

/// What every field keeps: its window on its map, a cell a window cell,
/// values within ±`MAX_VALUE` (or unreached).
pub fn check_field_shape(f: &Field) {
    let (w, h) = f.size;
    let r = f.window;
    assert!(w >= 1 && h >= 1 && r.w >= 1 && r.h >= 1, "empty field");
    assert!(
        r.x >= 1 && r.y >= 1 && r.x + r.w - 1 <= w && r.y + r.h - 1 <= h,
        "window off the map"
    );
    let values = f.values_in(r);
    assert_eq!(values.len(), r.w * r.h);
    assert!(
        values
            .iter()
            .all(|&v| v == BEYOND || v.unsigned_abs() <= MAX_VALUE as u64),
        "a value past MAX_VALUE: {:?}",
        values
            .iter()
            .find(|&&v| v != BEYOND && v.unsigned_abs() > MAX_VALUE as u64)
    );
}

/// Loaded `bytes`, if they load, keep every invariant and save back to
/// the same bytes.
pub fn saves_back(bytes: &[u8]) -> Option<Saved> {
    let loaded = load_measured(bytes).ok()?;
    match &loaded {
        Saved::Level(level) => check_level(level),
        Saved::Field(field) => check_field_shape(field),
    }
    let again = match &loaded {
        Saved::Level(level) => save::save(level),
        Saved::Field(field) => save::save_field(field),
    };
    assert!(again == bytes, "a loaded string saves back otherwise");
    Some(loaded)
}

pub fn same(a: &Saved, b: &Saved) -> bool {
    match (a, b) {
        (Saved::Level(a), Saved::Level(b)) => a == b,
        (Saved::Field(a), Saved::Field(b)) => a == b,
        _ => false,
    }
}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// A frame around `body`: a magic, the version, the length and a right
/// checksum.
pub fn framed(magic: &[u8; 8], version: u32, body: &[u8]) -> Vec<u8> {
    let mut out = magic.to_vec();
    out.extend(version.to_le_bytes());
    out.extend(((body.len() + 8) as u32).to_le_bytes());
    out.extend(body);
    let sum = fnv1a(&out);
    out.extend(sum.to_le_bytes());
    out
}

/// Counts and coordinates a crafted string is likely to get wrong: the
/// edges of the lists' bounds, of a small map and of 32 bits.
const INTERESTING: &[u32] = &[
    0,
    1,
    2,
    3,
    4,
    8,
    255,
    256,
    257,
    10_000,
    10_001,
    20_000,
    20_001,
    0x7fff_ffff,
    0x8000_0000,
    u32::MAX - 1,
    u32::MAX,
];

/// One change to `bytes`: truncated, bits flipped, bytes overwritten,
/// bytes added at the end, a run inserted or deleted, a little-endian
/// `u32` of `INTERESTING` written, or (when `splice`) a run of a donor's
/// bytes written over a run of these.
fn mutate(u: &mut Unstructured, bad: &mut Vec<u8>, donors: &[&[u8]], splice: bool) -> Result<()> {
    let n = bad.len();
    match u.int_in_range(0..=7u8)? {
        0 => bad.truncate(u.choose_index(n)?),
        1 => {
            for _ in 0..u.int_in_range(1..=4)? {
                let i = u.choose_index(n)?;
                bad[i] ^= 1 << u.int_in_range(0..=7)?;
            }
        }
        2 => {
            let i = u.choose_index(n)?;
            let len = u.int_in_range(1..=16)?.min(n - i);
            let with = u.bytes(len)?;
            bad[i..i + with.len()].copy_from_slice(with);
        }
        3 => {
            let len = u.int_in_range(1..=16)?;
            bad.extend(u.bytes(len)?);
        }
        4 => {
            let i = u.int_in_range(0..=n)?;
            let len = u.int_in_range(1..=16)?;
            let run = u.bytes(len)?.to_vec();
            bad.splice(i..i, run);
        }
        5 => {
            let i = u.choose_index(n)?;
            let len = u.int_in_range(1..=16)?.min(n - i);
            bad.drain(i..i + len);
        }
        6 if n >= 4 => {
            let i = u.int_in_range(0..=n - 4)?;
            let v = match u.ratio(3, 4)? {
                true => *u.choose(INTERESTING)?,
                false => u.arbitrary()?,
            };
            bad[i..i + 4].copy_from_slice(&v.to_le_bytes());
        }
        _ if splice && !donors.is_empty() => {
            let donor = donors[u.choose_index(donors.len())?];
            let from = u.choose_index(donor.len())?;
            let len = u.int_in_range(1..=donor.len() - from)?;
            let at = u.int_in_range(0..=n)?;
            let over = u.int_in_range(0..=n - at)?;
            bad.splice(at..at + over, donor[from..from + len].iter().copied());
        }
        _ => bad.truncate(u.choose_index(n)?),
    }
    Ok(())
}

/// `bytes` (a saved string) damaged by one to three changes; whether the
/// damage is disguised: made inside the body, then framed again with a
/// right length and checksum (the version kept, or now and then another),
/// so that the parser's deeper checks are reached. Only disguised damage
/// splices in runs of `donors` (other saved strings).
pub fn damaged(u: &mut Unstructured, bytes: &[u8], donors: &[&[u8]]) -> Result<(Vec<u8>, bool)> {
    let n = bytes.len();
    let disguised = n > 24 && u.ratio(1, 2)?;
    let mut bad = match disguised {
        true => bytes[16..n - 8].to_vec(),
        false => bytes.to_vec(),
    };
    for _ in 0..u.int_in_range(1..=3)? {
        if mutate(u, &mut bad, donors, disguised).is_err() {
            break;
        }
    }
    if disguised {
        let magic: [u8; 8] = bytes[..8].try_into().expect("8 bytes");
        let version = match u.ratio(1, 8)? {
            true => u.int_in_range(0..=3)?,
            false => u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes")),
        };
        bad = framed(&magic, version, &bad);
    }
    Ok((bad, disguised))
}
