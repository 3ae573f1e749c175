use super::*;

fn speed(s: f64) -> u128 {
    units(s, true).unwrap()
}

#[test]
fn times_are_the_nearest_doubles() {
    for d in 1..=60u32 {
        for n in 0..200u32 {
            let (n, d) = (u128::from(n), u128::from(d));
            assert_eq!(ratio(n, d).0, n as f64 / d as f64, "{n}/{d}");
            assert_eq!(turns(n * UNIT / d), n as f64 / d as f64, "{n}/{d}");
        }
    }
    assert_eq!(ratio(MAX_TIME, UNIT), (2f64.powi(53), true));
    assert_eq!(ratio((1 << 53) + 1, 1), (2f64.powi(53), false));
    assert_eq!(ratio((1 << 53) + 3, 1), (2f64.powi(53) + 4.0, false));
    assert_eq!(ratio(1, 3 << 70).0, 1.0 / 3.0 / 2f64.powi(70));
    assert_eq!(ratio(3, 4), (0.75, true));
    assert_eq!(whole_turns(7 * UNIT), Some(7));
    assert_eq!(whole_turns(7 * UNIT + 1), None);
    assert_eq!(whole_turns(UNIT / 2), None);
    assert_eq!(whole_turns(0), Some(0));
    // Against IEEE division, correctly rounded, on values of 53 bits,
    // and the same scaled up to 2^120 (a power of two changes nothing).
    let mut r = crate::toolbox::random::Random::new(8);
    for _ in 0..100_000 {
        let n = u128::from(r.next_u64() >> (11 + r.below(40)));
        let d = u128::from((r.next_u64() >> (11 + r.below(40))) | 1);
        let (x, exact) = ratio(n, d);
        assert_eq!(x, n as f64 / d as f64, "{n}/{d}");
        // d is odd: n / d is a double exactly when d divides n.
        assert_eq!(exact, n % d == 0, "{n}/{d}");
        let k = r.below(64) as u32;
        assert_eq!(ratio(n << k, d << k).0, x, "{n}/{d} << {k}");
    }
}

#[test]
fn simple_speeds_and_delays_are_exact() {
    for n in 1..=40u32 {
        assert_eq!(speed(f64::from(n)) * u128::from(n), UNIT, "speed {n}");
        assert_eq!(
            speed(1.0 / f64::from(n)),
            UNIT * u128::from(n),
            "speed 1/{n}"
        );
        for k in 1..n {
            let x = f64::from(k) / f64::from(n);
            let (p, q) = simplest(x).unwrap();
            assert_eq!(p * u128::from(n), q * u128::from(k), "{k}/{n}");
            assert_eq!(
                units(x, false).unwrap() * u128::from(n),
                UNIT * u128::from(k)
            );
        }
    }
    for (s, p, q) in [
        (0.8, 4, 5),
        (1.5, 3, 2),
        (0.1, 1, 10),
        (1.1, 11, 10),
        (100.0, 100, 1),
    ] {
        assert_eq!(simplest(s), Some((p, q)), "{s}");
    }
    for s in [50.0, 150.0, 1000.0, 10000.0, 0.3, 2.5, 1.2, 0.75] {
        let (p, q) = simplest(s).unwrap();
        assert_eq!(speed(s) * p, UNIT * q, "{s}");
    }
}

#[test]
fn any_speed_is_within_a_doubles_precision() {
    let mut r = crate::toolbox::random::Random::new(4);
    for _ in 0..10_000 {
        let s = MIN_SPEED + r.float() * (MAX_SPEED - MIN_SPEED) * r.float() * r.float();
        let period = speed(s) as f64;
        let exact = UNIT as f64 / s;
        assert!(
            (period - exact).abs() <= exact * 1e-15,
            "{s}: {period} {exact}"
        );
        let (p, q) = simplest(s).unwrap();
        assert_eq!(p as f64 / q as f64, s, "{s}: {p}/{q}");
    }
    assert!(units(MIN_SPEED, true).unwrap() <= max_period());
    assert!(units(MAX_SPEED, true).unwrap() >= min_period());
    assert_eq!(units(2f64.powi(53), false), Some(MAX_TIME));
}

#[test]
fn speeds_alternate_by_their_ratio_and_ties_go_to_the_first_added() {
    let mut s = Scheduler::new();
    let fast = s.add(speed(2.0));
    let slow = s.add(speed(1.0));
    let turns: Vec<u32> = (0..6).map(|_| s.next_turn().unwrap().unwrap().0).collect();
    // times: fast .5, fast 1 (tie: fast first), slow 1, fast 1.5, fast 2, slow 2
    assert_eq!(turns, [fast, fast, slow, fast, fast, slow]);
    assert_eq!(turns_of(s.now()), 2.0);
}

fn turns_of(u: u128) -> f64 {
    turns(u)
}

#[test]
fn thirds_stay_exact_over_millions_of_turns() {
    let mut s = Scheduler::new();
    let third = s.add(speed(3.0));
    let one = s.add(speed(1.0));
    let mut count = [0u32; 2];
    for _ in 0..4_000_000 {
        let (slot, _) = s.next_turn().unwrap().unwrap();
        count[usize::from(slot == one)] += 1;
    }
    assert_eq!(count, [3_000_000, 1_000_000]);
    assert_eq!(s.now(), 1_000_000 * UNIT);
    assert_eq!(turns(s.now()), 1e6);
    let _ = third;
}

#[test]
fn remove_and_delay_keep_the_heap() {
    let mut s = Scheduler::new();
    let slots: Vec<u32> = (1..=50).map(|i| s.add(speed(f64::from(i)))).collect();
    for &slot in slots.iter().step_by(3) {
        s.remove(slot);
    }
    s.delay(slots[1], UNIT * 10).unwrap();
    let mut last = (0, 0);
    for _ in 0..1000 {
        let (slot, time) = s.next_turn().unwrap().unwrap();
        let order = s.heap[s.entries[slot as usize - 1].at as usize].order;
        assert!((time, order) > last);
        last = (time, order);
        assert!(slot % 3 != 1, "a removed actor acted");
    }
    // The last slot freed is given first.
    assert_eq!(s.next_slot(), 49);
}

#[test]
fn a_saved_scheduler_loads_back_the_same() {
    let mut s = Scheduler::new();
    for i in 1..=20 {
        s.add(speed(f64::from(i) / 7.0));
    }
    for _ in 0..333 {
        s.next_turn().unwrap();
    }
    s.remove(4);
    s.add(speed(2.5));
    let text = s.save();
    let mut back = Scheduler::load(text.as_bytes()).unwrap();
    assert_eq!(back.save(), text);
    assert_eq!(Scheduler::count_saved(text.as_bytes()), 20);
    let order = s.by_order();
    for _ in 0..1000 {
        let (a, ta) = s.next_turn().unwrap().unwrap();
        let (b, tb) = back.next_turn().unwrap().unwrap();
        assert_eq!(ta, tb);
        assert_eq!(order[b as usize - 1], a);
    }
    let mut bytes = text.into_bytes();
    bytes[12] ^= 1;
    assert!(Scheduler::load(&bytes).is_err());
    assert!(Scheduler::load(b"mapsched1:0:00000000").is_err());
    assert!(Scheduler::load(b"mapsched9:0").is_err());
}

#[test]
fn time_past_2_53_turns_is_an_error_that_changes_nothing() {
    let mut s = Scheduler::new();
    let slot = s.add(speed(MIN_SPEED));
    let (time, period) = s.entry(slot);
    s.delay(slot, MAX_TIME - period - time).unwrap();
    assert_eq!(s.next_turn().unwrap(), Some((slot, MAX_TIME - period)));
    let before = s.save();
    assert!(s
        .next_turn()
        .unwrap_err()
        .contains("pass 9007199254740992 turns"));
    assert_eq!(s.save(), before);
}

/// Only what `save` writes loads: a leading zero or a checksum in upper
/// case (or `+` and 7 digits) loaded and then saved back otherwise (found
/// by the `states` fuzz target: `mapsched1:00;...:534CC46F`).
#[test]
fn a_state_save_never_writes_is_refused() {
    let signed = |body: &str, check: &dyn Fn(u32) -> String| {
        format!("{body}:{}", check(checksum(body.as_bytes())))
    };
    let lower = |c: u32| format!("{c:08x}");
    let period = UNIT.to_string();
    let good = format!("mapsched1:0;{period}/{period}");
    let text = signed(&good, &lower);
    assert_eq!(Scheduler::load(text.as_bytes()).unwrap().save(), text);
    for body in [
        format!("mapsched1:00;{period}/{period}"),
        format!("mapsched1:0;0{period}/{period}"),
        format!("mapsched1:0;{period}/0{period}"),
    ] {
        let text = signed(&body, &lower);
        let e = Scheduler::load(text.as_bytes()).unwrap_err();
        assert!(
            e.contains("a bad time") || e.contains("not period/time"),
            "{text}: {e}"
        );
    }
    let upper = |c: u32| format!("{c:08X}");
    let plus = |c: u32| format!("+{c:07x}");
    let text = signed(&good, &upper);
    if text != signed(&good, &lower) {
        assert!(Scheduler::load(text.as_bytes()).is_err(), "{text}");
    }
    // `+` and 7 digits reads as the checksum when it is below 2^28.
    let body = (0..)
        .map(|i| format!("mapsched1:{i}"))
        .find(|b| checksum(b.as_bytes()) < 1 << 28)
        .unwrap();
    assert!(u32::from_str_radix(&plus(checksum(body.as_bytes())), 16).is_ok());
    assert!(Scheduler::load(signed(&body, &plus).as_bytes()).is_err());
    assert!(Scheduler::load(signed(&body, &lower).as_bytes()).is_ok());
}
