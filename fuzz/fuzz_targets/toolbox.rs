//! The game's toolbox under libFuzzer (`map::toolbox`): what a game's save
//! file or a player's text may hand it, and any sequence of its calls.
//!
//! The first input byte picks a mode; the rest is read with `Unstructured`.
//! Nothing may panic but an assertion that an invariant broke:
//!
//! - **texts**: any bytes as dice (`Dice::parse`: refused, or dice whose
//!   rolls stay within `count..=count * sides` plus the constant), as a
//!   random source's state (`Random::load`: refused, or one that saves back
//!   to the same text) and as a scheduler's state (`Scheduler::load`:
//!   refused, or one that saves back to the same text).
//! - **draws**: a source from any seed, then any draws (`below` of any
//!   bound, `between` of any ordered pair, `below_wide`, `float`, `normal`,
//!   `fill`), each within its range and finite; a state saved midway
//!   continues the same sequence.
//! - **scheduler**: any sequence of adds (any speed in range, as a double),
//!   turns, removes and delays (any delay in range), against a plain list
//!   (the earliest time, then the earliest add, by a scan): the same actor
//!   and time each turn, the same count; saved and loaded at the end, the
//!   same turns after.
//! - **names**: any words (bytes, as UTF-8 where they are) and options:
//!   refused with a message, or names within the bounds, no separator first,
//!   last or beside another, and none an example when `novel`.

#![no_main]

use libfuzzer_sys::arbitrary::{Result, Unstructured};
use libfuzzer_sys::fuzz_target;

use map::toolbox::names::{Names, Options, MAX_LENGTH, MAX_ORDER};
use map::toolbox::random::{Dice, Draw, Random};
use map::toolbox::scheduler::{self, Scheduler, MAX_SPEED, MIN_SPEED};

fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    let _ = match u.arbitrary::<u8>().unwrap_or(0) % 4 {
        0 => texts(&mut u),
        1 => draws(&mut u),
        2 => turns(&mut u),
        _ => names(&mut u),
    };
});

fn texts(u: &mut Unstructured) -> Result<()> {
    let bytes: Vec<u8> = u.arbitrary()?;
    if let Ok(dice) = Dice::parse(&bytes) {
        let mut r = Random::new(u.arbitrary()?);
        let low = i64::from(dice.count) + dice.bonus;
        let high = i64::from(dice.count) * i64::from(dice.sides) + dice.bonus;
        let roll = dice.roll(&mut r);
        assert!((low..=high).contains(&roll), "{dice:?}: {roll}");
    }
    if let Ok(r) = Random::load(&bytes) {
        assert_eq!(r.save().as_bytes(), &bytes[..]);
    }
    if let Ok(s) = Scheduler::load(&bytes) {
        assert_eq!(s.save().as_bytes(), &bytes[..]);
        assert_eq!(Scheduler::count_saved(&bytes), s.len());
    }
    // A real state, one byte changed: refused (the checksum), or the same.
    let mut r = Random::new(u.arbitrary()?);
    let mut text = r.save().into_bytes();
    let at = u.choose_index(text.len())?;
    text[at] = u.arbitrary()?;
    if let Ok(back) = Random::load(&text) {
        assert_eq!(back.save().into_bytes(), text);
        assert_eq!(back.clone().next_u64(), r.next_u64());
    }
    Ok(())
}

fn draws(u: &mut Unstructured) -> Result<()> {
    let mut r = Random::new(u.arbitrary()?);
    for _ in 0..u.int_in_range(0..=64)? {
        if u.ratio(1, 16)? {
            assert_eq!(Random::load(r.save().as_bytes()).unwrap(), r);
        }
        match u.int_in_range(0..=6)? {
            0 => {
                let n: u64 = u.arbitrary::<u64>()?.max(1);
                assert!(r.below(n) < n);
            }
            1 => {
                let (a, b): (i64, i64) = (u.arbitrary()?, u.arbitrary()?);
                let (lo, hi) = (a.min(b), a.max(b));
                assert!((lo..=hi).contains(&r.between(lo, hi)));
            }
            2 => {
                let n: u128 = u.arbitrary::<u128>()?.max(1);
                assert!(r.below_wide(n) < n);
            }
            3 => assert!((0.0..1.0).contains(&r.float())),
            4 => assert!(r.normal().is_finite()),
            5 => {
                let count = u.int_in_range(0..=16)?;
                let values = r.fill(count, Some((-3, 3)));
                assert_eq!(values.len(), count);
                assert!(values.iter().all(|v| matches!(v, Draw::Int(-3..=3))));
            }
            _ => assert!((0..1 << 53).contains(&r.seed())),
        }
    }
    Ok(())
}

/// The plain list: (time, order, period, id) of each actor in it.
struct Plain {
    now: u128,
    added: u64,
    actors: Vec<(u128, u64, u128, u32)>,
}

fn turns(u: &mut Unstructured) -> Result<()> {
    let mut s = Scheduler::new();
    let mut plain = Plain {
        now: 0,
        added: 0,
        actors: Vec::new(),
    };
    // The game's actors: slot by id.
    let mut slots: Vec<Option<u32>> = vec![None; 16];
    for _ in 0..u.int_in_range(0..=200)? {
        let id = u.int_in_range(0..=15u32)?;
        match u.int_in_range(0..=3)? {
            0 if slots[id as usize].is_none() => {
                let speed = MIN_SPEED
                    + u.int_in_range(0..=u32::MAX)? as f64 / f64::from(u32::MAX)
                        * (MAX_SPEED - MIN_SPEED);
                let speed = if u.ratio(1, 2)? {
                    speed.round().clamp(1.0, 40.0)
                } else {
                    speed
                };
                let period = scheduler::units(speed, true).expect("a speed in range has a period");
                assert!(period > 0);
                if s.can_add(period).is_err() {
                    continue;
                }
                let slot = s.add(period);
                slots[id as usize] = Some(slot);
                plain.added += 1;
                plain
                    .actors
                    .push((plain.now + period, plain.added, period, id));
            }
            1 => {
                if let Some(slot) = slots[id as usize].take() {
                    s.remove(slot);
                    plain.actors.retain(|a| a.3 != id);
                }
            }
            2 => {
                if let Some(slot) = slots[id as usize] {
                    let t = u.int_in_range(0..=u32::MAX)? as f64 / 1e6;
                    let by = if t > 0.0 {
                        scheduler::units(t, false).expect("a delay in range")
                    } else {
                        0
                    };
                    if s.delay(slot, by).is_ok() {
                        plain
                            .actors
                            .iter_mut()
                            .filter(|a| a.3 == id)
                            .for_each(|a| a.0 += by);
                    }
                }
            }
            _ => {
                let next = plain
                    .actors
                    .iter()
                    .enumerate()
                    .min_by_key(|(_, a)| (a.0, a.1))
                    .map(|(i, _)| i);
                match (s.next_turn(), next) {
                    (Ok(None), None) => {}
                    (Ok(Some((slot, time))), Some(i)) => {
                        let a = &mut plain.actors[i];
                        assert_eq!((time, Some(slot)), (a.0, slots[a.3 as usize]));
                        plain.now = a.0;
                        a.0 += a.2;
                        assert_eq!(plain.now, s.now());
                        assert!(scheduler::turns(time).is_finite());
                    }
                    (Err(_), Some(_)) => return Ok(()),
                    (got, want) => panic!("{got:?}, the list: {want:?}"),
                }
            }
        }
        assert_eq!(s.len(), plain.actors.len());
    }
    let text = s.save();
    let mut back = Scheduler::load(text.as_bytes()).unwrap();
    assert_eq!(back.save(), text);
    let order = s.by_order();
    for _ in 0..20 {
        match (s.next_turn(), back.next_turn()) {
            (Ok(Some((a, t))), Ok(Some((b, tb)))) => {
                assert_eq!(t, tb);
                assert_eq!(order[b as usize - 1], a);
            }
            (Ok(None), Ok(None)) | (Err(_), Err(_)) => break,
            (x, y) => panic!("{x:?} against {y:?} after loading"),
        }
    }
    Ok(())
}

fn names(u: &mut Unstructured) -> Result<()> {
    let count = u.int_in_range(0..=12)?;
    let mut words = Vec::with_capacity(count);
    for _ in 0..count {
        let bytes: Vec<u8> = u.arbitrary()?;
        // Mostly letters and separators, so that most inputs train.
        let word: String = match u.ratio(3, 4)? {
            true => bytes
                .iter()
                .map(|b| b"abcdeAB '-zy\xc3"[usize::from(b % 13)] as char)
                .collect(),
            false => String::from_utf8_lossy(&bytes).into_owned(),
        };
        words.push(word);
    }
    let refs: Vec<&str> = words.iter().map(String::as_str).collect();
    let options = Options {
        order: u.int_in_range(0..=MAX_ORDER + 1)?,
        min: if u.ratio(1, 2)? {
            Some(u.int_in_range(0..=12)?)
        } else {
            None
        },
        max: if u.ratio(1, 2)? {
            Some(u.int_in_range(0..=MAX_LENGTH + 1)?)
        } else {
            None
        },
        novel: u.arbitrary()?,
    };
    let Ok(g) = Names::new(&refs, options) else {
        return Ok(());
    };
    let (min, max) = g.bounds();
    let mut r = Random::new(u.arbitrary()?);
    for _ in 0..u.int_in_range(1..=8)? {
        let Ok(name) = g.name(&mut r) else {
            continue;
        };
        let chars: Vec<char> = name.chars().collect();
        assert!((min..=max).contains(&chars.len()), "{name:?}");
        let sep = |c: &char| matches!(c, '\'' | '-' | ' ');
        assert!(!sep(&chars[0]) && !sep(chars.last().unwrap()), "{name:?}");
        assert!(
            chars.windows(2).all(|w| !(sep(&w[0]) && sep(&w[1]))),
            "{name:?}"
        );
        if options.novel {
            assert!(!words.contains(&name), "{name:?}");
        }
    }
    Ok(())
}
