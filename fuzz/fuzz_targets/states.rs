//! The toolbox's saved states under libFuzzer, meant to run under
//! AddressSanitizer: what a game's save file may hand `map.rng(state)` and
//! `map.scheduler(state, actors)`. (Names keep no state: a generator is
//! made again from its words.) The first input byte picks a mode; the rest
//! is read with `Unstructured`.
//!
//! A random source's state (`Random::load`) from any bytes, from
//! `maprng1:` and any 72 bytes with the checksum made right, and from a
//! real state (any seed, any number of draws) damaged (bits flipped,
//! digits overwritten in either case, truncated, extended, bytes inserted,
//! the prefix's version changed, the increment made even), its checksum
//! made right or not. A plain reading of the format (the prefix, 64
//! lowercase hex digits, an odd increment, 8 lowercase hex digits of
//! FNV-1a) says whether it must load: loaded exactly then, and then saved
//! back to the same text; its draws are a plain PCG XSL RR 128/64's from
//! the state read; it is usable (each draw within its range) and saved
//! midway loads back equal.
//!
//! A scheduler's state (`Scheduler::load`) from any bytes, from
//! `mapsched1:` and fields made of numbers at the edges (0, the periods'
//! and times' bounds and one past, `u128::MAX`, 40 digits, leading zeros,
//! a sign, empty) with the checksum made right (in lower or upper case),
//! and from a real scheduler's state (any adds, turns, removes and
//! delays) damaged (a number replaced by one of those, an actor dropped,
//! repeated or moved, bytes changed), its checksum made right or not.
//! Loading holds at most `scheduler::bound` of the actors the text names
//! (`count_saved`, what the binding checks first). A plain reading of the
//! format (canonical decimals, each period within its bounds, each time
//! from now to 2^53 turns) says whether it must load: loaded exactly then,
//! saved back to the same text, every actor's next turn and period those
//! read; then usable: up to 40 adds, removes, delays and turns against a
//! plain list of the actors (the earliest time, then the earliest added;
//! a turn or delay that would pass 2^53 turns refused with nothing
//! changed), and saved and loaded again to the same text.

#![no_main]

use libfuzzer_sys::arbitrary::{Result, Unstructured};
use libfuzzer_sys::fuzz_target;

#[path = "../../tests/support/counting.rs"]
mod counting;

use counting::peak_of;

use map::toolbox::random::{Random, STATE_LEN};
use map::toolbox::scheduler::{self, Scheduler, MAX_TURNS, UNIT};

/// PCG's 128-bit LCG multiplier (`rand_pcg`'s).
const MULTIPLIER: u128 = 0x2360_ed05_1fc6_5da4_4385_df64_9fcc_f645;
const RNG_PREFIX: &[u8] = b"maprng1:";
const SCHED_PREFIX: &str = "mapsched1:";
/// The latest time, in units; the shortest and longest periods.
const MAX_TIME: u128 = MAX_TURNS * UNIT;
const MIN_PERIOD: u128 = UNIT >> 20;
const MAX_PERIOD: u128 = UNIT << 20;

fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    let _ = match u.int_in_range(0..=7u8).unwrap_or(0) {
        0 => any_bytes(&mut u),
        1 => signed_rng(&mut u),
        2 | 3 => real_rng(&mut u),
        4 => signed_scheduler(&mut u),
        _ => real_scheduler(&mut u),
    };
});

/// FNV-1a, 32 bits: both states' checksum.
fn fnv32(bytes: &[u8]) -> u32 {
    bytes.iter().fold(0x811c_9dc5u32, |h, &b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    })
}

fn any_bytes(u: &mut Unstructured) -> Result<()> {
    let text = u.bytes(u.len())?;
    let mut rest = Unstructured::new(text);
    rng_text(&mut rest, text)?;
    let mut rest = Unstructured::new(text);
    scheduler_text(&mut rest, text)
}

// ---------------------------------------------------------------------------
// The random source.

/// The state and increment a text holds, read plainly; `None` when it is
/// not one.
fn plain_rng(text: &[u8]) -> Option<(u128, u128)> {
    let body = text.strip_prefix(RNG_PREFIX)?;
    if body.len() != 72 || !body.iter().all(|b| b"0123456789abcdef".contains(b)) {
        return None;
    }
    let hex = |s: &[u8]| {
        s.iter().fold(0u128, |v, &b| {
            v << 4 | (b as char).to_digit(16).expect("a hex digit") as u128
        })
    };
    let (state, increment, check) = (hex(&body[..32]), hex(&body[32..64]), hex(&body[64..]));
    (check == u128::from(fnv32(&body[..64])) && increment & 1 == 1).then_some((state, increment))
}

/// PCG XSL RR 128/64's next output from `state`, stepped.
fn pcg_next(state: &mut u128, increment: u128) -> u64 {
    *state = state.wrapping_mul(MULTIPLIER).wrapping_add(increment);
    let xsl = ((*state >> 64) as u64) ^ (*state as u64);
    xsl.rotate_right((*state >> 122) as u32)
}

/// `text` as a source's state: loaded exactly when the plain reading says
/// it is one, then the same text again, the plain generator's draws, and
/// usable.
fn rng_text(u: &mut Unstructured, text: &[u8]) -> Result<()> {
    let plain = plain_rng(text);
    let mut r = match (plain, Random::load(text)) {
        (Some(_), Ok(r)) => r,
        (None, Err(e)) => {
            assert!(e.starts_with("state is not a saved rng ("), "{e:?}");
            return Ok(());
        }
        (p, l) => panic!(
            "{:?} as a source's state: the plain reading {p:?}, load {l:?}",
            String::from_utf8_lossy(text)
        ),
    };
    let (mut state, increment) = plain.expect("read");
    assert_eq!(r.save().as_bytes(), text, "a loaded source saves otherwise");
    for _ in 0..u.int_in_range(1..=4)? {
        assert_eq!(r.next_u64(), pcg_next(&mut state, increment), "a draw");
    }
    for _ in 0..u.int_in_range(0..=8)? {
        match u.int_in_range(0..=5u8)? {
            0 => {
                let n = u.arbitrary::<u64>()?.max(1);
                assert!(r.below(n) < n);
            }
            1 => {
                let (a, b): (i64, i64) = (u.arbitrary()?, u.arbitrary()?);
                let (lo, hi) = (a.min(b), a.max(b));
                assert!((lo..=hi).contains(&r.between(lo, hi)));
            }
            2 => assert!((0.0..1.0).contains(&r.float())),
            3 => assert!(r.normal().is_finite()),
            4 => assert!((0..1 << 53).contains(&r.seed())),
            _ => {
                let n = u.arbitrary::<u128>()?.max(1);
                assert!(r.below_wide(n) < n);
            }
        }
    }
    let midway = r.save();
    let mut back = Random::load(midway.as_bytes()).expect("a saved state loads");
    assert_eq!(back, r, "saved midway");
    assert_eq!(back.next_u64(), r.next_u64());
    Ok(())
}

/// A hex digit of `v`'s lowest four bits, lower or upper case.
fn digit(v: u8, upper: bool) -> u8 {
    let d = b"0123456789abcdef"[usize::from(v & 15)];
    if upper {
        d.to_ascii_uppercase()
    } else {
        d
    }
}

/// `text` with its last 8 bytes the checksum of the 64 before them (when
/// it has the length), in lower case, or now and then upper.
fn fix_rng_checksum(u: &mut Unstructured, text: &mut [u8]) -> Result<()> {
    if text.len() == STATE_LEN {
        let sum = fnv32(&text[RNG_PREFIX.len()..RNG_PREFIX.len() + 64]);
        let upper = u.ratio(1, 8)?;
        for (i, b) in text[STATE_LEN - 8..].iter_mut().enumerate() {
            *b = digit((sum >> (28 - 4 * i)) as u8, upper);
        }
    }
    Ok(())
}

/// `maprng1:` and 72 bytes (mostly hex digits), its checksum made right.
fn signed_rng(u: &mut Unstructured) -> Result<()> {
    let mut text = RNG_PREFIX.to_vec();
    for _ in 0..72 {
        let b: u8 = u.arbitrary()?;
        text.push(match u.int_in_range(0..=15u8)? {
            0 => b,
            1 => digit(b, true),
            _ => digit(b, false),
        });
    }
    fix_rng_checksum(u, &mut text)?;
    rng_text(u, &text)
}

/// A real source's state, damaged, its checksum made right or not.
fn real_rng(u: &mut Unstructured) -> Result<()> {
    let mut r = Random::new(u.arbitrary()?);
    for _ in 0..u.int_in_range(0..=3)? {
        r.next_u64();
    }
    let real = r.save().into_bytes();
    let mut text = real.clone();
    for _ in 0..u.int_in_range(1..=3)? {
        let n = text.len();
        match u.int_in_range(0..=7u8)? {
            0 => {
                let i = u.choose_index(n)?;
                text[i] ^= 1 << u.int_in_range(0..=7)?;
            }
            1 => {
                let i = u.choose_index(n)?;
                text[i] = digit(u.arbitrary()?, u.ratio(1, 4)?);
            }
            2 => {
                let i = u.choose_index(n)?;
                text[i] = u.arbitrary()?;
            }
            3 => text.truncate(u.choose_index(n)?),
            4 => {
                let len = u.int_in_range(1..=4)?;
                text.extend(u.bytes(len)?);
            }
            5 => {
                let i = u.int_in_range(0..=n)?;
                text.insert(i, digit(u.arbitrary()?, false));
            }
            6 if n > 6 => text[6] = *u.choose(b"02a9")?,
            // The increment's last digit made even, or odd.
            _ if n > 71 => text[71] = digit(u.arbitrary()?, false),
            _ => {}
        }
    }
    if u.ratio(3, 4)? {
        fix_rng_checksum(u, &mut text)?;
    }
    if text == real {
        assert!(Random::load(&text).is_ok_and(|back| back == r));
    }
    rng_text(u, &text)
}

// ---------------------------------------------------------------------------
// The scheduler.

/// A decimal as `save` writes it: digits, no leading zero but for 0.
fn canonical(s: &str) -> Option<u128> {
    let digits = !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    (digits && (s == "0" || !s.starts_with('0')))
        .then(|| s.parse().ok())
        .flatten()
}

/// The time and the actors (period, time) a text holds, read plainly;
/// `None` when it is not one.
fn plain_scheduler(text: &[u8]) -> Option<(u128, Vec<(u128, u128)>)> {
    let text = std::str::from_utf8(text).ok()?;
    let body = text.strip_prefix(SCHED_PREFIX)?;
    let (fields, check) = body.rsplit_once(':')?;
    let signed = &text[..text.len() - check.len() - 1];
    let lower_hex = check.len() == 8 && check.bytes().all(|b| b"0123456789abcdef".contains(&b));
    if !lower_hex || u32::from_str_radix(check, 16).ok()? != fnv32(signed.as_bytes()) {
        return None;
    }
    let mut parts = fields.split(';');
    let now = canonical(parts.next()?).filter(|&t| t <= MAX_TIME)?;
    let mut actors = Vec::new();
    for part in parts {
        let (p, t) = part.split_once('/')?;
        let (period, time) = (canonical(p)?, canonical(t)?);
        if !(MIN_PERIOD..=MAX_PERIOD).contains(&period) || !(now..=MAX_TIME).contains(&time) {
            return None;
        }
        actors.push((period, time));
    }
    Some((now, actors))
}

/// The plain list: the time, how many were added, and each actor's (time,
/// order added, period, slot).
struct Plain {
    now: u128,
    added: u64,
    actors: Vec<(u128, u64, u128, u32)>,
}

/// The scheduler against the plain list, actor by actor.
fn check_plain(s: &Scheduler, plain: &Plain) {
    assert_eq!(s.len(), plain.actors.len(), "the count");
    assert_eq!(s.now(), plain.now, "the time");
    for &(time, _, period, slot) in &plain.actors {
        assert!(s.holds(slot), "slot {slot}");
        assert_eq!(s.entry(slot), (time, period), "slot {slot}'s entry");
    }
}

/// A period: at its bounds, a turn, or anywhere between.
fn period(u: &mut Unstructured) -> Result<u128> {
    Ok(match u.int_in_range(0..=5u8)? {
        0 => MIN_PERIOD,
        1 => MAX_PERIOD,
        2 => UNIT,
        3 => UNIT / u.int_in_range(1..=40)?,
        _ => u.int_in_range(MIN_PERIOD..=MAX_PERIOD)?,
    })
}

/// A delay: none, small, a turn, up to the latest time or past it.
fn delay(u: &mut Unstructured) -> Result<u128> {
    Ok(match u.int_in_range(0..=5u8)? {
        0 => 0,
        1 => u.int_in_range(1..=1000)?,
        2 => UNIT,
        3 => MAX_TIME,
        _ => u.int_in_range(0..=MAX_TIME)?,
    })
}

/// Up to 40 adds, removes, delays and turns, each checked against the
/// plain list.
fn run(u: &mut Unstructured, s: &mut Scheduler, plain: &mut Plain) -> Result<()> {
    for _ in 0..u.int_in_range(0..=40)? {
        match u.int_in_range(0..=3u8)? {
            0 => {
                let period = period(u)?;
                let fits = plain.now + period <= MAX_TIME;
                assert_eq!(s.can_add(period).is_ok(), fits, "can_add {period}");
                if fits {
                    let slot = s.next_slot();
                    assert!(!s.holds(slot), "the next slot {slot} is taken");
                    assert_eq!(s.add(period), slot, "add's slot");
                    plain
                        .actors
                        .push((plain.now + period, plain.added, period, slot));
                    plain.added += 1;
                }
            }
            1 if !plain.actors.is_empty() => {
                let i = u.choose_index(plain.actors.len())?;
                let slot = plain.actors.swap_remove(i).3;
                s.remove(slot);
                assert!(!s.holds(slot), "slot {slot} removed");
            }
            2 if !plain.actors.is_empty() => {
                let i = u.choose_index(plain.actors.len())?;
                let by = delay(u)?;
                let a = &mut plain.actors[i];
                let fits = a.0 + by <= MAX_TIME;
                assert_eq!(s.delay(a.3, by).is_ok(), fits, "delay by {by}");
                if fits {
                    a.0 += by;
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
                        assert_eq!((slot, time), (a.3, a.0), "the turn");
                        assert!(a.0 + a.2 <= MAX_TIME, "a turn past 2^53 turns");
                        plain.now = a.0;
                        a.0 += a.2;
                    }
                    (Err(_), Some(i)) => {
                        let a = plain.actors[i];
                        assert!(a.0 + a.2 > MAX_TIME, "a turn refused: {a:?}");
                    }
                    (got, want) => panic!("{got:?}, the list: {want:?}"),
                }
            }
        }
        check_plain(s, plain);
    }
    Ok(())
}

/// `text` as a scheduler's state: loaded within the memory its count of
/// actors allows, exactly when the plain reading says it is one, then the
/// same text again, its actors those read, and usable.
fn scheduler_text(u: &mut Unstructured, text: &[u8]) -> Result<()> {
    let named = Scheduler::count_saved(text);
    let (loaded, peak) = peak_of(|| Scheduler::load(text));
    let bound = scheduler::bound(named);
    assert!(peak <= bound, "loading held {peak} bytes, over {bound}");
    let plain = plain_scheduler(text);
    let mut s = match (plain.is_some(), loaded) {
        (true, Ok(s)) => s,
        (false, Err(e)) => {
            assert!(e.starts_with("state is not a saved scheduler ("), "{e:?}");
            return Ok(());
        }
        (_, l) => panic!(
            "{:?} as a scheduler's state: the plain reading {plain:?}, load {:?}",
            String::from_utf8_lossy(text),
            l.map(|s| s.save())
        ),
    };
    let (now, actors) = plain.expect("read");
    assert_eq!(
        s.save().as_bytes(),
        text,
        "a loaded scheduler saves otherwise"
    );
    assert_eq!(s.len(), named, "count_saved");
    let mut plain = Plain {
        now,
        added: actors.len() as u64,
        actors: actors
            .iter()
            .enumerate()
            .map(|(i, &(period, time))| (time, i as u64, period, i as u32 + 1))
            .collect(),
    };
    check_plain(&s, &plain);
    run(u, &mut s, &mut plain)?;
    let again = s.save();
    let back = Scheduler::load(again.as_bytes()).expect("a saved scheduler loads");
    assert_eq!(back.save(), again, "saved after use");
    Ok(())
}

/// Numbers a crafted state is likely to get wrong, as text.
fn number(u: &mut Unstructured, now: u128) -> Result<String> {
    let n = match u.int_in_range(0..=15u8)? {
        0 => 0,
        1 => MIN_PERIOD - 1,
        2 => MIN_PERIOD,
        3 => MAX_PERIOD,
        4 => MAX_PERIOD + 1,
        5 => MAX_TIME,
        6 => MAX_TIME + 1,
        7 => now.saturating_sub(1),
        8 => now,
        9 => u128::MAX,
        10 => u.arbitrary()?,
        11 => UNIT,
        _ => u.int_in_range(0..=MAX_TIME)?,
    };
    Ok(match u.int_in_range(0..=15u8)? {
        0 => format!("0{n}"),
        1 => format!("+{n}"),
        2 => String::new(),
        3 => format!("{n}0"),
        4 => "9".repeat(u.int_in_range(38..=40)?),
        5 => format!(" {n}"),
        _ => n.to_string(),
    })
}

/// `signed` (a state without its checksum) with a checksum: right, in
/// lower case mostly, else upper case, with a sign, or wrong.
fn signed(u: &mut Unstructured, signed: &str) -> Result<Vec<u8>> {
    let sum = fnv32(signed.as_bytes());
    let check = match u.int_in_range(0..=15u8)? {
        0 => format!("{sum:08X}"),
        1 => format!("+{sum:07x}"),
        2 => format!("{:08x}", sum ^ 1),
        3 => format!("{sum:09x}"),
        _ => format!("{sum:08x}"),
    };
    Ok(format!("{signed}:{check}").into_bytes())
}

/// `mapsched1:`, a time and up to 8 actors of edge numbers, or bytes, with
/// a checksum.
fn signed_scheduler(u: &mut Unstructured) -> Result<()> {
    let mut text = String::from(SCHED_PREFIX);
    let now = match u.ratio(1, 2)? {
        true => 0,
        false => u.int_in_range(0..=MAX_TIME)?,
    };
    text += &match u.ratio(7, 8)? {
        true => now.to_string(),
        false => number(u, now)?,
    };
    for _ in 0..u.int_in_range(0..=8)? {
        text.push(';');
        match u.int_in_range(0..=15u8)? {
            0 => {
                let n = u.int_in_range(0..=6)?;
                text += &String::from_utf8_lossy(u.bytes(n)?);
            }
            1 => text += &number(u, now)?,
            _ => {
                let p = match u.ratio(1, 2)? {
                    true => period(u)?.to_string(),
                    false => number(u, now)?,
                };
                let t = match u.ratio(1, 2)? {
                    true => u.int_in_range(now..=MAX_TIME)?.to_string(),
                    false => number(u, now)?,
                };
                text += &format!("{p}/{t}");
            }
        }
    }
    let bytes = signed(u, &text)?;
    scheduler_text(u, &bytes)
}

/// A real scheduler's state, damaged, its checksum made right or not.
fn real_scheduler(u: &mut Unstructured) -> Result<()> {
    let mut s = Scheduler::new();
    let mut plain = Plain {
        now: 0,
        added: 0,
        actors: Vec::new(),
    };
    run(u, &mut s, &mut plain)?;
    let real = s.save();
    let (body, _) = real.rsplit_once(':').expect("a checksum");
    let mut fields: Vec<String> = body[SCHED_PREFIX.len()..]
        .split(';')
        .map(String::from)
        .collect();
    for _ in 0..u.int_in_range(1..=3)? {
        let i = u.choose_index(fields.len())?;
        match u.int_in_range(0..=6u8)? {
            // A number replaced: the time, or an actor's period or time.
            0 | 1 => {
                let n = number(u, s.now())?;
                fields[i] = match (i, fields[i].split_once('/')) {
                    (0, _) | (_, None) => n,
                    (_, Some((_, t))) if u.arbitrary()? => format!("{n}/{t}"),
                    (_, Some((p, _))) => format!("{p}/{n}"),
                };
            }
            2 if i > 0 => drop(fields.remove(i)),
            3 if i > 0 => {
                let f = fields[i].clone();
                fields.insert(u.int_in_range(1..=fields.len())?, f);
            }
            4 if i > 0 => {
                let f = fields.remove(i);
                fields.insert(u.int_in_range(1..=fields.len())?, f);
            }
            5 => {
                let mut b = fields[i].clone().into_bytes();
                if !b.is_empty() {
                    let j = u.choose_index(b.len())?;
                    b[j] = *u.choose(b"0123456789/;: x")?;
                }
                fields[i] = String::from_utf8(b).expect("ASCII");
            }
            _ => fields.push(format!("{}/{}", period(u)?, u.arbitrary::<u64>()?)),
        }
    }
    let text = format!("{SCHED_PREFIX}{}", fields.join(";"));
    let bytes = match u.ratio(3, 4)? {
        true => signed(u, &text)?,
        false => format!("{text}:{:08x}", fnv32(body.as_bytes())).into_bytes(),
    };
    if bytes == real.as_bytes() {
        assert!(Scheduler::load(&bytes).is_ok_and(|b| b.save() == real));
    }
    scheduler_text(u, &bytes)
}
