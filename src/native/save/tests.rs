//! `save`'s unit tests.
use super::*;
use crate::grid::byte_set;
use crate::input::{Arg, MAX_SEED};
use crate::level::Level;
use crate::level::{generate, Params};
use crate::native::Occupant;
use crate::toolkit::board::{BEYOND, MAX_VALUE};

fn saved_level() -> NativeLevel {
    let p = Params::new(Arg::Int(30), Arg::Int(12), Arg::Int(7));
    let mut n = NativeLevel::from_level(generate(&p).unwrap(), &byte_set(b""));
    n.occupy(Pos { x: 3, y: 4 }, true);
    n
}

#[test]
fn a_saved_level_loads_back_equal() {
    let n = saved_level();
    assert_eq!(load(&save(&n)).unwrap(), n);
    let plain = NativeLevel::with_things(Grid::from_rows(&["#$#", "@.!"]), &byte_set(b"$"));
    assert_eq!(load(&save(&plain)).unwrap(), plain);
    assert!(save(&n).len() <= bound(&n));
}

/// `level` walking blocked by `chars`, its metadata's `blocked` the same,
/// as `map.level` makes such a level from a table.
fn blocked_by(level: &NativeLevel, chars: Option<&[u8]>) -> NativeLevel {
    let mut n = level.clone().with_blocked(chars);
    if let Some(meta) = &n.meta {
        let mut m = (**meta).clone();
        m.blocked = n
            .blocked
            .as_ref()
            .map(|b| String::from_utf8(b.clone()).unwrap());
        n.meta = Some(Rc::new(m));
    }
    n
}

/// A level whose generator blocks more than `#` (the overworld) keeps its
/// metadata's `blocked` (lost on load before: found by the `level` fuzz
/// target), whatever the format.
#[test]
fn the_metadata_keeps_its_blocked() {
    let p = Params {
        algorithm: Arg::Str(b"overworld"),
        ..Params::new(Arg::Int(30), Arg::Int(12), Arg::Int(7))
    };
    let level = generate(&p).unwrap();
    assert_eq!(level.blocked(), Some("#~^"));
    let mut n = NativeLevel::from_level(level, &byte_set(b""));
    let back = load(&save(&n)).unwrap();
    assert_eq!(back.meta().and_then(|m| m.blocked()), Some("#~^"));
    assert_eq!(back, n);
    n.occupy_by(Pos { x: 2, y: 2 }, 5);
    assert_eq!(load(&save(&n)).unwrap(), n, "format 4");
}

#[test]
fn every_prefix_and_every_flipped_byte_is_an_error() {
    let bytes = save(&saved_level());
    for n in 0..bytes.len() {
        assert!(load(&bytes[..n]).is_err(), "prefix {n}");
    }
    for i in 0..bytes.len() {
        for bit in [1u8, 0x80] {
            let mut bad = bytes.clone();
            bad[i] ^= bit;
            assert!(load(&bad).is_err(), "byte {i}");
        }
    }
    assert!(load(b"hello").unwrap_err().contains("not a saved level"));
    assert!(load(&save_field(&Field::memory((3, 3)))).is_err());
}

/// A level on which nothing blocks walking (`map.level{..., blocked =
/// ""}`) saves an empty list of blocked characters, and loads back
/// (refused before: found by the `save` fuzz target).
#[test]
fn a_level_where_nothing_blocks_loads_back() {
    let open = NativeLevel::from_grid(Grid::from_rows(&["#.", ".#"])).with_blocked(Some(b""));
    assert_eq!(open.blocked(), Some(&b""[..]));
    let bytes = save(&open);
    assert_eq!(
        u32::from_le_bytes(bytes[8..12].try_into().unwrap()),
        VERSION_BLOCKED
    );
    assert_eq!(load(&bytes).unwrap(), open);
    let twice = NativeLevel::from_grid(Grid::from_rows(&["#."])).with_blocked(Some(b"#~"));
    let mut bytes = save(&twice);
    let n = bytes.len();
    bytes[n - 9] = b'#';
    let sum = fnv1a(&bytes[..n - 8]);
    bytes[n - 8..].copy_from_slice(&sum.to_le_bytes());
    assert!(load(&bytes).unwrap_err().contains("distinct"));
}

/// Lists are read into vectors of exactly their count (a list of
/// 70,000 empty exits held 17 times its bytes while growing, past
/// `memory::bound_load`: found by the `level` fuzz target).
#[test]
fn lists_are_read_at_their_size() {
    let mut bytes = 1000u32.to_le_bytes().to_vec();
    bytes.extend([0u8; 4000]);
    let mut r = In {
        bytes: &bytes,
        size: (1, 1),
    };
    let lists = r.list(4, |r| r.list(8, In::pos)).unwrap();
    assert_eq!((lists.len(), lists.capacity()), (1000, 1000));
    assert!(r.bytes.is_empty());
}

/// `saved_level()` with its metadata changed by `change`, saved.
fn saved_with(change: impl FnOnce(&mut Level)) -> Vec<u8> {
    let mut n = saved_level();
    let mut meta = n.meta().unwrap().clone();
    change(&mut meta);
    n.meta = Some(Rc::new(meta));
    save(&n)
}

/// A save is not trusted: its lists are no longer than `generate`
/// makes them (a 30x12 level with 400,000 rooms loaded, and every read
/// of a property copied them all), its seed within ±2^53 (read alike on
/// both interpreters).
#[test]
fn metadata_past_what_generate_makes_is_an_error() {
    let many = 400_000;
    let bytes = saved_with(|meta| {
        meta.rooms = vec![Rect::new(1, 1, 1, 1); many];
        meta.exits.exits = vec![Vec::new(); many];
        meta.exits.links = vec![Vec::new(); many];
    });
    let err = load(&bytes).unwrap_err();
    assert!(err.contains("more than a generated level can"), "{err}");
    for seed in [MAX_SEED + 1, -MAX_SEED - 1, i64::MAX, i64::MIN] {
        let err = load(&saved_with(|meta| meta.seed = seed)).unwrap_err();
        assert!(err.contains("seed beyond 2^53"), "{seed}: {err}");
    }
    for seed in [MAX_SEED, -MAX_SEED] {
        assert!(load(&saved_with(|meta| meta.seed = seed)).is_ok());
    }
}

/// A level with `locks` saves in format 3 and loads back equal, with
/// `blocked` too; every damaged byte is an error; more locks than a level
/// holds is one; a level without them saves as before (format 1).
#[test]
fn a_locked_level_saves_in_format_3_and_loads_back() {
    let p = Params {
        algorithm: Arg::Str(b"maze"),
        ..Params::new(Arg::Int(31), Arg::Int(15), Arg::Int(2))
    };
    let level = generate(&p.with(b"locks", Arg::Int(3))).unwrap();
    assert_eq!(level.locks.as_ref().map(Vec::len), Some(3));
    let version = |bytes: &[u8]| u32::from_le_bytes(bytes[8..12].try_into().unwrap());
    for blocked in [None, Some(&b"#A"[..])] {
        let n = blocked_by(
            &NativeLevel::from_level(level.clone(), &byte_set(b"")),
            blocked,
        );
        let bytes = save(&n);
        assert_eq!(version(&bytes), VERSION_LOCKS);
        assert!(bytes.len() <= bound(&n));
        assert_eq!(load(&bytes).unwrap(), n);
        for i in 0..bytes.len() {
            let mut bad = bytes.clone();
            bad[i] ^= 1;
            assert!(load(&bad).is_err(), "byte {i}");
        }
    }
    assert_eq!(version(&save(&saved_level())), VERSION);
    let cell = Pos { x: 2, y: 2 };
    let lock = crate::level::locks::Lock {
        door: cell,
        door_char: b'A',
        key: cell,
        key_char: b'a',
    };
    let too_many = saved_with(|meta| meta.locks = Some(vec![lock; 27]));
    let err = load(&too_many).unwrap_err();
    assert!(err.contains("more than a generated level can"), "{err}");
}

/// A field's values are within ±2^53: -2^63, whose `abs` overflows,
/// once loaded and read back as -9223372036854775808.
#[test]
fn field_values_past_2_pow_53_are_an_error() {
    let window = Rect::new(2, 1, 2, 1);
    for v in [i64::MIN, i64::MIN + 1, MAX_VALUE + 1, -MAX_VALUE - 1] {
        let bytes = save_field(&Field::values((4, 3), window, vec![0, v]));
        assert!(load_saved(&bytes).is_err(), "{v}");
    }
    let bytes = save_field(&Field::values((4, 3), window, vec![MAX_VALUE, -MAX_VALUE]));
    assert!(load_saved(&bytes).is_ok());
}

#[test]
fn a_field_in_parts_is_saved_as_its_one_window() {
    let size = (9, 6);
    for far in [7, 1 << 40] {
        let parts = vec![
            Field::values(size, Rect::new(1, 1, 2, 2), vec![0, 1, BEYOND, 2]),
            Field::values(size, Rect::new(6, 4, 3, 2), vec![5, far, 3, BEYOND, 4, 0]),
        ];
        let f = Field::parts(size, Rect::new(1, 1, 8, 5), parts);
        let one = f.in_one_window();
        let bytes = save_field(&f);
        assert_eq!(bytes, save_field(&one));
        assert_eq!(bytes.len(), field_bound(&f));
        match load_saved(&bytes).unwrap() {
            Saved::Field(g) => assert_eq!(g, one),
            Saved::Level(_) => panic!("a field loaded as a level"),
        }
    }
}

#[test]
fn fields_load_back_equal_and_damage_is_an_error() {
    let window = Rect::new(2, 1, 2, 2);
    let fields = [
        Field::values((4, 3), window, vec![0, 1, BEYOND, -7]),
        Field::values((4, 3), window, vec![0, 1 << 40, BEYOND, -7]),
        Field::flags((4, 3), window, vec![true, false, false, true]),
        Field::memory((70, 2)),
    ];
    for f in fields {
        let bytes = save_field(&f);
        assert_eq!(bytes.len(), field_bound(&f));
        match load_saved(&bytes).unwrap() {
            Saved::Field(g) => assert_eq!(g, f),
            Saved::Level(_) => panic!("a field loaded as a level"),
        }
        for n in 0..bytes.len() {
            assert!(load_saved(&bytes[..n]).is_err(), "prefix {n}");
        }
        for i in 0..bytes.len() {
            let mut bad = bytes.clone();
            bad[i] ^= 0x10;
            assert!(load_saved(&bad).is_err(), "byte {i}");
        }
    }
}

/// `bytes` with its checksum made again, so that a change reaches the
/// reader's own checks.
fn resummed(mut bytes: Vec<u8>) -> Vec<u8> {
    let n = bytes.len();
    let sum = fnv1a(&bytes[..n - 8]);
    bytes[n - 8..].copy_from_slice(&sum.to_le_bytes());
    bytes
}

/// A level with occupants' ids saves in format 4 and loads back equal, on
/// every combination of metadata, locks and `blocked`; without ids it
/// saves in its old format, byte for byte as before the ids existed.
#[test]
fn a_level_with_ids_saves_in_format_4_and_loads_back() {
    let version = |bytes: &[u8]| u32::from_le_bytes(bytes[8..12].try_into().unwrap());
    let p = Params {
        algorithm: Arg::Str(b"maze"),
        ..Params::new(Arg::Int(31), Arg::Int(15), Arg::Int(2))
    };
    let plain = generate(&p).unwrap();
    let locked = generate(&p.with(b"locks", Arg::Int(3))).unwrap();
    let grid = Grid::from_rows(&["#.#.", "...."]);
    let levels = [
        NativeLevel::from_level(locked, &byte_set(b"")),
        NativeLevel::from_level(plain, &byte_set(b"")),
        NativeLevel::from_grid(grid.clone()),
    ];
    for level in levels {
        for blocked in [None, Some(&b"#A"[..])] {
            let mut n = blocked_by(&level, blocked);
            n.occupy(Pos { x: 2, y: 1 }, true);
            let old = save(&n);
            assert_ne!(version(&old), VERSION_IDS);
            n.occupy_by(Pos { x: 1, y: 2 }, 1);
            n.occupy_by(Pos { x: 4, y: 2 }, MAX_ID);
            let bytes = save(&n);
            assert_eq!(version(&bytes), VERSION_IDS);
            assert!(bytes.len() <= bound(&n));
            let back = load(&bytes).unwrap();
            assert_eq!(back, n);
            assert_eq!(back.occupant(Pos { x: 4, y: 2 }), Occupant::Id(MAX_ID));
            for at in [Pos { x: 1, y: 2 }, Pos { x: 4, y: 2 }] {
                n.occupy(at, false);
            }
            assert_eq!(save(&n), old, "without ids, the old bytes");
        }
    }
}

/// Format 4's own checks: ids out of order, on a free cell, past 2^53 or
/// none at all, and flags it does not know, each an error though the
/// checksum is right.
#[test]
fn damaged_ids_are_an_error() {
    let mut n = NativeLevel::from_grid(Grid::from_rows(&["....", "...."]));
    n.occupy_by(Pos { x: 1, y: 1 }, 5);
    n.occupy_by(Pos { x: 3, y: 1 }, 6);
    let bytes = save(&n);
    let len = bytes.len();
    // The ids: count, then (index, id) twice, before the checksum.
    let first = len - 8 - 24;
    let with = |at: usize, value: &[u8]| {
        let mut b = bytes.clone();
        b[at..at + value.len()].copy_from_slice(value);
        load(&resummed(b))
    };
    assert!(load(&resummed(bytes.clone())).is_ok());
    let swapped = with(first, &2u32.to_le_bytes()).unwrap_err();
    assert!(swapped.contains("out of order"), "{swapped}");
    let free = with(first, &1u32.to_le_bytes()).unwrap_err();
    assert!(free.contains("occupied"), "{free}");
    let outside = with(first, &8u32.to_le_bytes()).unwrap_err();
    assert!(outside.contains("occupied"), "{outside}");
    for id in [0i64, -1, MAX_ID + 1] {
        let err = with(first + 4, &id.to_le_bytes()).unwrap_err();
        assert!(err.contains("outside 1 to 2^53"), "{id}: {err}");
    }
    assert!(with(first - 4, &0u32.to_le_bytes()).is_err(), "count 0");
    // The flags byte follows the terrain, the bits and the (empty) things.
    let flags = HEADER + 8 + 8 + 8 + 4;
    for bad in [2u8, 8, 0x80] {
        assert!(with(flags, &[bad]).is_err(), "flags {bad}");
    }
}
