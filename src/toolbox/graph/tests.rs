use super::*;
use crate::native::NativeLevel;
use crate::toolbox::names::{Names, Options};
use crate::toolbox::random::Random;
use crate::toolbox::scheduler::Scheduler;
use crate::toolkit::noise::{Noise, Settings};

/// `{1, 2.5, "a", {"a", [true] = -0.0}, n = nan}` with a shared string.
fn sample() -> Vec<u8> {
    let mut w = Writer::new();
    w.node(0).unwrap();
    w.table(5).unwrap();
    w.key(Key::Int(1)).unwrap();
    w.number(Number::Int(1), false).unwrap();
    w.key(Key::Int(2)).unwrap();
    w.number(Number::Float(2.5), false).unwrap();
    w.key(Key::Int(3)).unwrap();
    w.string(b"a").unwrap();
    w.key(Key::Int(4)).unwrap();
    w.node(1).unwrap();
    w.key(Key::Str(b"n")).unwrap();
    w.number(Number::Float(f64::NAN), false).unwrap();
    w.table(2).unwrap();
    w.key(Key::Bool(true)).unwrap();
    w.number(Number::Float(-0.0), false).unwrap();
    w.key(Key::Int(1)).unwrap();
    w.string(b"a").unwrap();
    w.finish().unwrap()
}

#[test]
fn reads_what_it_writes() {
    let bytes = sample();
    let loaded = read(&bytes, None).unwrap();
    assert_eq!(write_again(&loaded).unwrap(), bytes);
    assert_eq!(loaded.root, Value::Node(0));
    assert_eq!(loaded.nodes.len(), 2);
    assert_eq!(loaded.pairs[0], (Value::Int(1), Value::Int(1)));
    assert_eq!(loaded.pairs[1].1, Value::Float(2.5));
    assert_eq!(loaded.string(0), b"a");
    assert_eq!(loaded.pairs[2].1, Value::Str(0));
    assert_eq!(loaded.pairs[6].1, Value::Str(0));
    let Value::Float(z) = loaded.pairs[5].1 else {
        panic!()
    };
    assert_eq!(z.to_bits(), (-0.0f64).to_bits());
}

#[test]
fn every_truncation_and_flip_is_an_error() {
    let bytes = sample();
    for n in 0..bytes.len() {
        assert!(read(&bytes[..n], None).is_err(), "{n}");
    }
    for i in 0..bytes.len() * 8 {
        let mut b = bytes.clone();
        b[i / 8] ^= 1 << (i % 8);
        assert!(read(&b, None).is_err(), "bit {i}");
    }
}

#[test]
fn numbers_are_written_by_value() {
    let c = |n, key| match canonical(n, key) {
        Number::Int(i) => format!("i{i}"),
        Number::Float(x) => format!("f{:x}", x.to_bits()),
    };
    assert_eq!(c(Number::Float(3.0), false), "i3");
    assert_eq!(
        c(Number::Float(-0.0), false),
        format!("f{:x}", (-0.0f64).to_bits())
    );
    assert_eq!(c(Number::Float(2f64.powi(53)), false), "i9007199254740992");
    assert_eq!(
        c(Number::Float(2f64.powi(54)), false),
        format!("f{:x}", 2f64.powi(54).to_bits())
    );
    assert_eq!(c(Number::Int(1 << 60), false), "i1152921504606846976");
    assert_eq!(
        c(Number::Int(1 << 60), true),
        format!("f{:x}", 2f64.powi(60).to_bits())
    );
    assert_eq!(c(Number::Int((1 << 60) + 1), true), "i1152921504606846977");
    assert_eq!(c(Number::Float(-f64::NAN), false), format!("f{NAN_BITS:x}"));
}

#[test]
fn keys_are_ordered_by_kind_then_value() {
    let keys = [
        Key::Bool(false),
        Key::Bool(true),
        Key::Float(f64::NEG_INFINITY),
        Key::Int(i64::MIN),
        Key::Float(-1.5),
        Key::Int(-1),
        Key::Float(0.5),
        Key::Int(1),
        Key::Float(9.0e18),
        Key::Int(i64::MAX),
        Key::Float(9.3e18),
        Key::Str(b""),
        Key::Str(b"a"),
        Key::Str(b"ab"),
        Key::Str(b"b"),
    ];
    for (i, a) in keys.iter().enumerate() {
        for (j, b) in keys.iter().enumerate() {
            assert_eq!(a.order(b), i.cmp(&j), "{a:?} {b:?}");
        }
    }
}

#[test]
fn natives_go_and_come_back() {
    let level = NativeLevel::from_grid(crate::grid::Grid::new(4, 3, b'.'));
    let mut rng = Random::new(7);
    rng.next_u64();
    let mut s = Scheduler::new();
    s.add(crate::toolbox::scheduler::units(1.0, true).unwrap());
    let names = Names::new(
        &["Bree", "Bree", "Hobbiton", "Bywater", "Michel"],
        Options {
            order: 2,
            ..Options::default()
        },
    );
    let names = names.unwrap();
    let noise = Noise::new(Settings {
        octaves: 3,
        ..Settings::DEFAULT
    });
    let mut w = Writer::new();
    w.node(0).unwrap();
    w.table(5).unwrap();
    for i in 1..=5 {
        w.key(Key::Int(i)).unwrap();
        w.node(i as u32).unwrap();
    }
    w.native(NativeRef::Level(&level)).unwrap();
    w.native(NativeRef::Rng(&rng)).unwrap();
    w.native(NativeRef::Scheduler(&s)).unwrap();
    w.string(b"hero").unwrap();
    w.native(NativeRef::Names(&names)).unwrap();
    w.native(NativeRef::Noise(&noise)).unwrap();
    let bytes = w.finish().unwrap();
    let loaded = read(&bytes, None).unwrap();
    let native = |i: usize| match &loaded.nodes[i] {
        Node::Native(n, _) => n,
        Node::Table(_) => panic!(),
    };
    assert!(matches!(&**native(1), Native::Level(l) if l.terrain() == level.terrain()));
    assert!(matches!(&**native(2), Native::Rng(r) if r.save() == rng.save()));
    assert!(matches!(&**native(3), Native::Scheduler(x) if x.save() == s.save()));
    assert_eq!(loaded.actors, vec![Value::Str(0)]);
    let Native::Names(again) = &**native(4) else {
        panic!()
    };
    assert_eq!(again.training(), names.training());
    let (mut a, mut b) = (Random::new(3), Random::new(3));
    assert_eq!(again.name(&mut a), names.name(&mut b));
    assert!(matches!(&**native(5), Native::Noise(n) if *n == noise));
    assert_eq!(write_again(&loaded).unwrap(), bytes);
    for n in 0..bytes.len() {
        assert!(read(&bytes[..n], None).is_err(), "{n}");
    }
}

#[test]
fn refuses_what_the_writer_never_writes() {
    let framed = |body: &[u8]| {
        let mut out = MAGIC.to_vec();
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&((body.len() + 8) as u32).to_le_bytes());
        out.extend_from_slice(body);
        let sum = fnv1a(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        out
    };
    assert_eq!(read(&framed(&[NIL]), None).unwrap().root, Value::Nil);
    let bad: &[&[u8]] = &[
        &[NIL, NIL],                                   // bytes after the end
        &[INT, 0x80, 0x00],                            // an overlong integer
        &[FLOAT, 0, 0, 0, 0, 0, 0, 0x08, 0x40],        // 3.0 as a float
        &[STRING, 0],                                  // a string never written
        &[NODE, 1],                                    // a node out of order
        &[NODE, 0],                                    // a node with no record
        &[NODE, 0, TABLE, 1, NEW_STRING, 0, NIL],      // a nil value
        &[NODE, 0, TABLE, 1, NODE, 0, TRUE],           // a table as a key
        &[NODE, 0, TABLE, 2, TRUE, TRUE, FALSE, TRUE], // keys out of order
        &[NODE, 0, TABLE, 2, TRUE, TRUE, TRUE, TRUE],  // a key twice
        &[NEW_STRING, 1, b'a', NODE, 0],               // unused: trailing bytes
        &[NODE, 0, 9],                                 // an unknown kind
    ];
    for body in bad {
        assert!(read(&framed(body), None).is_err(), "{body:?}");
    }
    let big = framed(&[INT, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x40]);
    assert_eq!(read(&big, None).map(|l| l.root), Ok(Value::Int(1 << 54)));
    assert!(read(&big, Some(1 << 53))
        .unwrap_err()
        .contains("beyond 2^53"));
    assert_eq!(
        read(b"MAPLEVEL", None).unwrap_err(),
        "not a saved value (no MAPVALUE header)"
    );
}

#[test]
fn text_form_round_trips() {
    let bytes = sample();
    let text = to_text(&bytes).unwrap();
    assert!(text.starts_with(TEXT_PREFIX));
    assert_eq!(from_text(&text).unwrap(), bytes);
    assert!(from_text(b"mapvalue1:!!").is_err());
}
