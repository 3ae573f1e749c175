//! The save parser (`map::native::save`) under libFuzzer, meant to run
//! under AddressSanitizer: what `map.load` may be handed. The first input
//! byte picks a mode; the rest is read with `Unstructured`.
//!
//! - **bytes**: any bytes, raw or framed (`MAPLEVEL` format 1 or 2,
//!   `MAPFIELD`, or any version) with a right length and checksum, so that
//!   arbitrary bodies reach the parser's deeper checks.
//! - **generated** and **drawn**: a level of any generator of `LIST`
//!   (`NativeLevel::from_level` with arbitrary extra things) or a drawn
//!   grid (raw bytes or map characters, up to 64x64 or 1x600 strips, with
//!   arbitrary things, occupancy and `blocked`), with fields of its size
//!   (values in 4 and 8 bytes, flags over a window, a memory); each saved
//!   string loads back equal, within `save::bound`/exactly `field_bound`
//!   bytes; then damaged one to three times (truncated, bits flipped,
//!   overwritten, extended, runs inserted or deleted, a `u32` of the
//!   lists' bounds written, or a run of another of the strings spliced
//!   in). Damage left undisguised is an error or the same value; damage
//!   made inside the body and framed again with a right length and
//!   checksum is an error or a value that keeps its invariants and saves
//!   back to the same bytes.
//! - **fields**: fields of any size and window, values anywhere in
//!   ±2^53 (and unreached), flags, memories marked; then as above.
//! - **crafted**: a level whose metadata is made by hand (not by
//!   `generate`): its lists of rooms, doors, items, vaults, placed cells,
//!   each room's exits and links each empty, short, at its bound or one
//!   past it; its seed anywhere in 64 bits, at ±2^53 or one past. The
//!   saved string must load (equal) exactly when a plain reading of the
//!   bounds says it is within them (`saved::within_generated`), and be
//!   refused otherwise. Likewise a field of 8-byte values anywhere in 64
//!   bits (`i64::MIN` among them) loads exactly when each is unreached or
//!   within ±2^53.
//!
//! Every load holds at most `save::bound_load` of heap (a counting
//! allocator); every level loaded keeps `saved::check_level` (things in
//! order on the map, metadata on the map, lists within what `generate`
//! makes, seed within ±2^53) and every field `saved::check_field_shape`
//! (window on the map, values within ±2^53); each is then used: its cells,
//! things and table read, cells set and occupied (a memory marked), saved
//! and loaded again equal.

#![no_main]

use libfuzzer_sys::arbitrary::{Result, Unstructured};
use libfuzzer_sys::fuzz_target;

// Its grids only (walks and costs are the searches').
#[path = "shared/draw.rs"]
#[allow(dead_code)]
mod draw;
#[path = "shared/saved.rs"]
mod saved;

#[path = "../../tests/support/counting.rs"]
mod counting;

use saved::{
    check_field_shape, check_level, damaged, framed, load_measured, same, saved_field, saves_back,
    things_of, within_generated, MOST_ROOMS, MOST_VAULTS,
};

use map::generators::shared::MAX_LOCKS;
use map::generators::LIST;
use map::grid::{Grid, Pos, Rect};
use map::input::MAX_SEED;
use map::level::exits::Exits;
use map::level::items::Item;
use map::level::locks::Lock;
use map::level::place::{Placed, MAX_PLACED};
use map::level::vaults::Vault;
use map::level::{Level, MAX_ITEMS};
use map::native::field::{Cells, Field, Value};
use map::native::save::{self, Saved, FIELD_MAGIC, MAGIC, VERSION, VERSION_BLOCKED, VERSION_LOCKS};
use map::native::NativeLevel;
use map::toolkit::board::{BEYOND, MAX_VALUE};

/// Characters a grid is usually drawn from.
const CHARS: &[u8] = b"#.~+@>$!<M";

fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    let _ = match u.int_in_range(0..=15u8).unwrap_or(0) {
        0..=2 => bytes(&mut u),
        3..=5 => generated(&mut u),
        6..=8 => drawn(&mut u),
        9 | 10 => fields(&mut u),
        11..=13 => crafted_level(&mut u),
        _ => crafted_field(&mut u),
    };
});

// ---------------------------------------------------------------------------
// Arbitrary parts.

fn cell(u: &mut Unstructured, size: (usize, usize)) -> Result<Pos> {
    let i = u.choose_index(size.0 * size.1)?;
    Ok(Pos {
        x: i % size.0 + 1,
        y: i / size.0 + 1,
    })
}

fn rect_of(u: &mut Unstructured, size: (usize, usize)) -> Result<Rect> {
    let a = cell(u, size)?;
    let b = cell(u, size)?;
    let (x0, x1) = (a.x.min(b.x), a.x.max(b.x));
    let (y0, y1) = (a.y.min(b.y), a.y.max(b.y));
    Ok(Rect::new(x0, y0, x1 - x0 + 1, y1 - y0 + 1))
}

/// A value of a field of values: mostly small, or at the edges of 32 bits
/// and of ±2^53, or unreached.
fn value(u: &mut Unstructured) -> Result<i64> {
    Ok(match u.int_in_range(0..=7u8)? {
        0..=2 => u.int_in_range(-20..=200)?,
        3 => BEYOND,
        4 => *u.choose(&[
            i64::from(i32::MAX),
            i64::from(i32::MIN),
            i64::from(i32::MIN) + 1,
            MAX_VALUE,
            -MAX_VALUE,
            MAX_VALUE - 1,
        ])?,
        _ => u.int_in_range(-MAX_VALUE..=MAX_VALUE)?,
    })
}

/// Fields of a map of `size`: of values over a window (4 or 8 bytes a
/// cell, as `Field::values` chooses), of flags over a window, a memory
/// with windows marked.
fn fields_of(u: &mut Unstructured, size: (usize, usize)) -> Result<Vec<Field>> {
    let mut out = Vec::new();
    for _ in 0..u.int_in_range(0..=3)? {
        let window = match u.ratio(1, 4)? {
            true => Rect::whole(size),
            false => rect_of(u, size)?,
        };
        let n = window.w * window.h;
        let field = match u.int_in_range(0..=2u8)? {
            0 => {
                let mut values = Vec::with_capacity(n);
                for _ in 0..n {
                    values.push(value(u)?);
                }
                Field::values(size, window, values)
            }
            1 => {
                let mut flags = Vec::with_capacity(n);
                for _ in 0..n {
                    flags.push(u.arbitrary()?);
                }
                Field::flags(size, window, flags)
            }
            _ => {
                let mut memory = Field::memory(size);
                for _ in 0..u.int_in_range(0..=2)? {
                    let w = rect_of(u, size)?;
                    let mut seen = Vec::with_capacity(w.w * w.h);
                    for _ in 0..w.w * w.h {
                        seen.push(u.ratio(1, 2)?);
                    }
                    memory.mark(w, &seen);
                }
                memory
            }
        };
        out.push(field);
    }
    Ok(out)
}

// ---------------------------------------------------------------------------
// Using what loaded.

/// A loaded level is usable: its things on their cells of `laid()`, its
/// table the map laid, cells set and occupied, saved and loaded again
/// equal.
fn use_level(u: &mut Unstructured, mut level: NativeLevel) -> Result<()> {
    let size = (level.width(), level.height());
    let laid = level.laid();
    for &t in level.things() {
        let p = level.thing_pos(t);
        assert!(p.x <= size.0 && p.y <= size.1, "a thing off the map");
        assert_eq!(laid.get(p), t.char, "a thing not laid at {p:?}");
    }
    match level.table() {
        Some(table) => assert!(table.grid == laid, "the table's map"),
        None => assert!(level.meta().is_none()),
    }
    for _ in 0..u.int_in_range(0..=4)? {
        let p = cell(u, size)?;
        match u.arbitrary()? {
            true => {
                let c = u.arbitrary()?;
                level.set(p, c);
                assert_eq!(level.get(p), c);
            }
            false => {
                let on = u.arbitrary()?;
                level.occupy(p, on);
                assert_eq!(level.occupied(p), on);
            }
        }
    }
    let bytes = save::save(&level);
    assert!(bytes.len() <= save::bound(&level), "save::bound");
    match load_measured(&bytes) {
        Ok(Saved::Level(back)) => assert!(back == level, "a used level's round trip"),
        other => panic!("a used level loads as {other:?}"),
    }
    Ok(())
}

/// A loaded field is usable: its window's values and flags read alike
/// cell by cell, a few cells of the map read, a memory marked, saved and
/// loaded again equal.
fn use_field(u: &mut Unstructured, mut field: Field) -> Result<()> {
    let window = field.window;
    let values = field.values_in(window);
    let flags = field.flags_in(window);
    for (i, p) in window.cells().enumerate().take(4096) {
        if !field.is_flags() {
            assert_eq!(field.value_at(p), values[i], "value_at {p:?}");
        }
        let set = matches!(field.get(p), Value::Int(_) | Value::Seen);
        assert_eq!(set, flags[i], "flags_in at {p:?}");
    }
    for _ in 0..u.int_in_range(0..=4)? {
        let p = cell(u, field.size)?;
        let _ = (field.get(p), field.value_at(p), field.flags_at(p));
    }
    if field.is_flags() && window == Rect::whole(field.size) {
        let w = rect_of(u, field.size)?;
        let seen = vec![true; w.w * w.h];
        assert_eq!(field.mark(w, &seen), w.w * w.h, "mark's count");
        assert!(field.flags_in(w).iter().all(|&f| f), "marked");
    }
    let bytes = save::save_field(&field);
    assert_eq!(bytes.len(), save::field_bound(&field), "field_bound");
    match load_measured(&bytes) {
        Ok(Saved::Field(back)) => assert!(back == field, "a used field's round trip"),
        other => panic!("a used field loads as {other:?}"),
    }
    Ok(())
}

fn use_value(u: &mut Unstructured, value: Saved) -> Result<()> {
    match value {
        Saved::Level(level) => use_level(u, level),
        Saved::Field(field) => use_field(u, field),
    }
}

// ---------------------------------------------------------------------------
// The modes.

/// Any bytes: raw, or framed with a right length and checksum.
fn bytes(u: &mut Unstructured) -> Result<()> {
    let framing = u.int_in_range(0..=5u8)?;
    let (version, magic) = match u.arbitrary()? {
        true => (u.arbitrary()?, MAGIC),
        false => (u.arbitrary()?, FIELD_MAGIC),
    };
    let body = u.bytes(u.len())?;
    let loaded = match framing {
        0 => saves_back(body),
        1 => saves_back(&framed(MAGIC, VERSION, body)),
        2 => saves_back(&framed(MAGIC, VERSION_BLOCKED, body)),
        3 => saves_back(&framed(FIELD_MAGIC, VERSION, body)),
        4 => saves_back(&framed(MAGIC, VERSION_LOCKS, body)),
        _ => saves_back(&framed(magic, version, body)),
    };
    if let Some(value) = loaded {
        let _ = use_value(&mut Unstructured::new(body), value);
    }
    Ok(())
}

/// `level` and `fields` saved and loaded back equal, then damaged.
fn round_trip(u: &mut Unstructured, level: Option<&NativeLevel>, fields: &[Field]) -> Result<()> {
    let mut saved: Vec<(Vec<u8>, Saved)> = Vec::new();
    if let Some(level) = level {
        check_level(level);
        let bytes = save::save(level);
        assert!(bytes.len() <= save::bound(level), "save::bound");
        match load_measured(&bytes) {
            Ok(Saved::Level(back)) => assert!(&back == level, "level round trip"),
            other => panic!("a saved level loads as {other:?}"),
        }
        saved.push((bytes, Saved::Level(level.clone())));
    }
    for f in fields {
        check_field_shape(f);
        saved.push(saved_field(f));
    }
    if saved.is_empty() {
        return Ok(());
    }
    let donors: Vec<&[u8]> = saved.iter().map(|(b, _)| b.as_slice()).collect();
    for _ in 0..u.int_in_range(1..=6)? {
        let (bytes, value) = &saved[u.choose_index(saved.len())?];
        let (bad, disguised) = damaged(u, bytes, &donors)?;
        if !disguised {
            if let Ok(back) = load_measured(&bad) {
                assert!(
                    same(&back, value),
                    "undisguised damage loads as another value"
                );
            }
        } else if let Some(back) = saves_back(&bad) {
            use_value(u, back)?;
        }
    }
    Ok(())
}

fn generated(u: &mut Unstructured) -> Result<()> {
    let Some(made) = saved::generated(u)? else {
        return Ok(());
    };
    let size = (made.grid.width(), made.grid.height());
    let extra = things_of(u)?;
    let mut level = NativeLevel::from_level(made, &extra);
    for _ in 0..u.int_in_range(0..=3)? {
        let p = cell(u, size)?;
        level.occupy(p, true);
    }
    let fields = fields_of(u, size)?;
    round_trip(u, Some(&level), &fields)
}

fn drawn(u: &mut Unstructured) -> Result<()> {
    let g = draw::grid(u, CHARS, 600)?;
    let size = (g.width(), g.height());
    let mut level = match u.ratio(1, 4)? {
        true => NativeLevel::from_grid(g),
        false => NativeLevel::with_things(g, &things_of(u)?),
    };
    if u.ratio(1, 3)? {
        let n = u.int_in_range(0..=8)?;
        level = level.with_blocked(Some(u.bytes(n)?));
    }
    for _ in 0..u.int_in_range(0..=6)? {
        let p = cell(u, size)?;
        level.occupy(p, true);
    }
    let fields = fields_of(u, size)?;
    round_trip(u, Some(&level), &fields)
}

fn fields(u: &mut Unstructured) -> Result<()> {
    let size = match u.int_in_range(0..=7u8)? {
        0 => (1, u.int_in_range(1..=2000)?),
        1 => (u.int_in_range(1..=2000)?, 1),
        _ => (u.int_in_range(1..=40)?, u.int_in_range(1..=40)?),
    };
    let fields = fields_of(u, size)?;
    round_trip(u, None, &fields)
}

/// A list's length: mostly short (none when the input has run out), now
/// and then at `bound`, one under or one past it, while `budget` (the
/// entries left for the level's lists) allows.
/// Locks at crafted cells with crafted bytes, now and then more than a
/// level can hold.
fn locks_of(u: &mut Unstructured, size: (usize, usize), budget: &mut usize) -> Result<Vec<Lock>> {
    let mut locks = Vec::new();
    for _ in 0..length(u, MAX_LOCKS as usize, budget)? {
        locks.push(Lock {
            door: cell(u, size)?,
            door_char: u.arbitrary()?,
            key: cell(u, size)?,
            key_char: u.arbitrary()?,
        });
    }
    Ok(locks)
}

fn length(u: &mut Unstructured, bound: usize, budget: &mut usize) -> Result<usize> {
    let n = match u.int_in_range(0..=63u8)? {
        60 => bound,
        61 => bound + 1,
        62 => bound.saturating_sub(1),
        63 => u.int_in_range(0..=bound + 2)?,
        _ => u.int_in_range(0..=3)?.min(bound + 1),
    };
    let n = if n > *budget { n.min(3) } else { n };
    *budget = budget.saturating_sub(n);
    Ok(n)
}

/// The most entries a crafted level's lists hold in all: one list of
/// rooms past its bound fits, or one of any other kind (so that a run
/// spends its time on many levels rather than on long lists).
const BUDGET: usize = 21_000;

/// A level whose metadata is made by hand, each list near its bound, its
/// seed anywhere: loaded exactly when within what `generate` makes.
fn crafted_level(u: &mut Unstructured) -> Result<()> {
    let size = (u.int_in_range(1..=12)?, u.int_in_range(1..=12)?);
    let mut cells = Vec::with_capacity(size.0 * size.1);
    for _ in 0..size.0 * size.1 {
        cells.push(*u.choose(CHARS)?);
    }
    let grid = Grid::from_cells(size.0, size.1, cells);
    let seed = match u.int_in_range(0..=3u8)? {
        0 => *u.choose(&[
            0,
            MAX_SEED,
            -MAX_SEED,
            MAX_SEED + 1,
            -MAX_SEED - 1,
            i64::MIN,
            i64::MIN + 1,
            i64::MAX,
        ])?,
        1 => u.arbitrary()?,
        _ => u.int_in_range(-MAX_SEED..=MAX_SEED)?,
    };
    let mut left = BUDGET;
    let budget = &mut left;
    let mut rooms = Vec::new();
    for _ in 0..length(u, MOST_ROOMS, budget)? {
        rooms.push(rect_of(u, size)?);
    }
    let mut doors = Vec::new();
    for _ in 0..length(u, size.0 * size.1, budget)? {
        doors.push(cell(u, size)?);
    }
    let mut items = Vec::new();
    for _ in 0..length(u, MAX_ITEMS as usize, budget)? {
        items.push(Item {
            pos: cell(u, size)?,
            kind: *u.choose(b"$!?")?,
        });
    }
    let mut vaults = Vec::new();
    for _ in 0..length(u, MOST_VAULTS, budget)? {
        vaults.push(Vault {
            index: u.int_in_range(0..=u32::MAX as usize)?,
            rect: rect_of(u, size)?,
            rotation: u.int_in_range(0..=3)?,
        });
    }
    let mut placed = Vec::new();
    for _ in 0..length(u, MAX_PLACED, budget)? {
        placed.push(Placed {
            char: *u.choose(b"kMg")?,
            pos: cell(u, size)?,
        });
    }
    let mut exits = Vec::with_capacity(rooms.len());
    let mut links = Vec::with_capacity(rooms.len());
    for r in &rooms {
        let mut e = Vec::new();
        for _ in 0..length(u, 2 * (r.w + r.h), budget)? {
            e.push(cell(u, size)?);
        }
        exits.push(e);
        let mut l = Vec::new();
        for _ in 0..length(u, rooms.len(), budget)? {
            // Now and then one past the last room.
            l.push(u.int_in_range(0..=rooms.len() as u32)?);
        }
        links.push(l);
    }
    match u.int_in_range(0..=15u8)? {
        0 => exits.push(Vec::new()),
        1 => drop(links.pop()),
        _ => {}
    }
    let level = Level {
        grid,
        seed,
        algorithm: LIST[u.choose_index(LIST.len())?].name,
        rooms,
        doors,
        player: cell(u, size)?,
        stairs: cell(u, size)?,
        items,
        vaults,
        up: if u.arbitrary()? {
            Some(cell(u, size)?)
        } else {
            None
        },
        placed,
        exits: Exits { exits, links },
        blocked: None,
        locks: match u.arbitrary()? {
            true => Some(locks_of(u, size, budget)?),
            false => None,
        },
    };
    let fits = level.exits.exits.len() == level.rooms.len()
        && level.exits.links.len() == level.rooms.len()
        && level
            .exits
            .links
            .iter()
            .flatten()
            .all(|&l| (l as usize) < level.rooms.len());
    let within = fits && within_generated(&level, size);
    let native = NativeLevel::from_level(level, &things_of(u)?);
    let bytes = save::save(&native);
    assert!(bytes.len() <= save::bound(&native), "save::bound");
    match (within, load_measured(&bytes)) {
        (true, Ok(Saved::Level(back))) => {
            assert!(back == native, "crafted level round trip");
            check_level(&back);
            use_level(u, back)?;
        }
        (false, Err(e)) => assert!(
            e.contains("metadata") || e.contains("seed"),
            "a crafted level refused as {e:?}"
        ),
        (true, other) => panic!("a level within the bounds loads as {other:?}"),
        (false, other) => {
            let m = native.meta().expect("metadata");
            panic!(
                "a level past the bounds loads as {:?}: {} rooms, {} doors, {} items, {} vaults, {} placed, seed {}",
                other.map(|_| ()),
                m.rooms.len(),
                m.doors.len(),
                m.items.len(),
                m.vaults.len(),
                m.placed.len(),
                m.seed
            )
        }
    }
    Ok(())
}

/// A field of values made by hand, in 4 bytes a cell (any `i32`) or 8 (any
/// `i64`): loaded exactly when every value is unreached or within ±2^53.
fn crafted_field(u: &mut Unstructured) -> Result<()> {
    let size = (u.int_in_range(1..=16)?, u.int_in_range(1..=16)?);
    let window = rect_of(u, size)?;
    let n = window.w * window.h;
    let (cells, within) = match u.int_in_range(0..=3u8)? {
        0 => {
            let mut v = Vec::with_capacity(n);
            for _ in 0..n {
                v.push(u.arbitrary()?);
            }
            (Cells::Narrow(v), true)
        }
        _ => {
            let mut v = Vec::with_capacity(n);
            for _ in 0..n {
                v.push(match u.int_in_range(0..=7u8)? {
                    0 => *u.choose(&[
                        i64::MIN,
                        i64::MIN + 1,
                        -MAX_VALUE - 1,
                        -MAX_VALUE,
                        MAX_VALUE,
                        MAX_VALUE + 1,
                        BEYOND - 1,
                        BEYOND,
                    ])?,
                    1 => u.arbitrary()?,
                    _ => value(u)?,
                });
            }
            let within = v
                .iter()
                .all(|&x| x == BEYOND || x.unsigned_abs() <= MAX_VALUE as u64);
            (Cells::Wide(v), within)
        }
    };
    let field = Field {
        size,
        window,
        cells,
    };
    let bytes = save::save_field(&field);
    assert_eq!(bytes.len(), save::field_bound(&field), "field_bound");
    match (within, load_measured(&bytes)) {
        (true, Ok(Saved::Field(back))) => {
            assert!(back == field, "crafted field round trip");
            check_field_shape(&back);
            use_field(u, back)?;
        }
        (false, Err(e)) => assert!(e.contains("2^53"), "a crafted field refused as {e:?}"),
        (_, other) => panic!(
            "a field {} the bounds loads as {:?}",
            if within { "within" } else { "past" },
            other.map(|_| ())
        ),
    }
    Ok(())
}
