use super::*;
use rand::{Rng as _, SeedableRng};

#[test]
fn the_sequence_is_the_generators_pcg() {
    for seed in [0, 1, 42, -7, i64::MAX, i64::MIN, 1 << 53, -(1 << 53)] {
        let mut ours = Random::new(seed);
        let mut theirs = rand_pcg::Pcg64::seed_from_u64(seed as u64);
        for _ in 0..1000 {
            assert_eq!(ours.next_u64(), theirs.next_u64(), "seed {seed}");
        }
        let mut ours = Random::new(seed);
        let mut gen = crate::rng::Rng::new(seed);
        for n in 1..500usize {
            assert_eq!(ours.below(n as u64) as usize, gen.below(n), "seed {seed}");
        }
    }
}

#[test]
fn a_saved_state_continues_the_sequence() {
    let mut r = Random::new(42);
    for _ in 0..17 {
        r.next_u64();
    }
    let text = r.save();
    assert_eq!(text.len(), STATE_LEN);
    let mut back = Random::load(text.as_bytes()).unwrap();
    for _ in 0..100 {
        assert_eq!(r.next_u64(), back.next_u64());
    }
}

#[test]
fn a_damaged_state_is_refused() {
    let text = Random::new(1).save();
    let mut bytes = text.clone().into_bytes();
    for i in 0..bytes.len() {
        let was = bytes[i];
        for other in [b'0', b'7', b'f', b'g', b'A', b':'] {
            if other == was {
                continue;
            }
            bytes[i] = other;
            assert!(
                Random::load(&bytes).is_err(),
                "{}",
                String::from_utf8_lossy(&bytes)
            );
        }
        bytes[i] = was;
    }
    assert!(Random::load(&bytes[..bytes.len() - 1]).is_err());
    assert!(Random::load(b"").is_err());
    assert_eq!(
        Random::load(b"maprng2:00").unwrap_err(),
        "state is not a saved rng (a version this module does not read)"
    );
}

#[test]
fn ln_is_within_an_ulp_of_std() {
    let mut r = Random::new(3);
    for _ in 0..200_000 {
        let x = f64::from_bits((r.next_u64() >> 2) | 1 << 52).max(f64::MIN_POSITIVE);
        let (a, b) = (ln(x), x.ln());
        let ulp = f64::from_bits(b.abs().to_bits() + 1) - b.abs();
        assert!((a - b).abs() <= ulp, "ln({x:e}) = {a:e}, std {b:e}");
    }
    for x in [1.0, 2.0, 0.5, 1e-300, 0.999_999_999, 1.000_000_1] {
        let (a, b) = (ln(x), x.ln());
        assert!(
            (a - b).abs() <= 2.0 * f64::EPSILON * b.abs().max(1e-300),
            "{x}"
        );
    }
    assert_eq!(ln(1.0), 0.0);
}

#[test]
fn draws_are_pinned() {
    // If one of these changes, every saved game's sequence changes.
    let mut r = Random::new(42);
    let got: Vec<u64> = (0..6).map(|_| r.below(1000)).collect();
    assert_eq!(got, [226, 239, 760, 527, 970, 375]);
    let mut r = Random::new(42);
    let (f, n) = (r.float(), r.normal());
    assert_eq!(f.to_bits(), 0x3fcc_fe5c_b851_800c);
    assert_eq!(n.to_bits(), 0xbfe8_f4ca_060a_c6cc);
}

#[test]
fn wide_draws_cover_their_range_without_bias() {
    let mut r = Random::new(5);
    let n = 3u128 << 100;
    let mut thirds = [0u32; 3];
    for _ in 0..30_000 {
        let v = r.below_wide(n);
        assert!(v < n);
        thirds[(v >> 100) as usize] += 1;
    }
    assert!(
        thirds.iter().all(|&c| (9_000..11_000).contains(&c)),
        "{thirds:?}"
    );
    assert_eq!(r.below_wide(1), 0);
    assert!(r.below_wide(u128::MAX) < u128::MAX);
}

#[test]
fn between_takes_every_span() {
    let mut r = Random::new(9);
    for _ in 0..1000 {
        let v = r.between(-3, 3);
        assert!((-3..=3).contains(&v));
    }
    let _ = r.between(i64::MIN, i64::MAX);
    assert_eq!(r.between(5, 5), 5);
}

#[test]
fn dice_read_and_refuse() {
    let ok = |t: &str, c, s, b| {
        assert_eq!(
            Dice::parse(t.as_bytes()).unwrap(),
            Dice {
                count: c,
                sides: s,
                bonus: b
            },
            "{t}"
        )
    };
    ok("3d6+2", 3, 6, 2);
    ok("d20", 1, 20, 0);
    ok(" 2D8 - 1 ", 2, 8, -1);
    ok("d%", 1, 100, 0);
    ok("4d%+0", 4, 100, 0);
    ok(
        "1000d2147483647-2147483647",
        1000,
        MAX_SIDES,
        -(MAX_SIDES as i64),
    );
    for bad in [
        "",
        "3",
        "3d",
        "d",
        "3x6",
        "3d6+",
        "3d6++2",
        "3d6+2+1",
        "3 d6",
        "3d 6",
        "-3d6",
        "3d6 x",
        "3d-6",
        "3.5d6",
        "99999999999d6",
        "3d6+99999999999",
        "0d6",
        "3d0",
        "1001d6",
        "1d2147483648",
        "1d6+2147483648",
    ] {
        assert!(Dice::parse(bad.as_bytes()).is_err(), "{bad:?}");
    }
    assert_eq!(
        Dice::parse(b"3x6").unwrap_err(),
        "\"3x6\" is not dice (no d): NdS, NdS+K or NdS-K, like \"3d6+2\" or \"d%\""
    );
    assert_eq!(
        Dice::parse(b"0d6").unwrap_err(),
        "\"0d6\": the number of dice must be from 1 to 1000, got 0"
    );
}

#[test]
fn weights_keep_integer_ratios_and_scale_floats() {
    let w = Weights::for_largest(7.0);
    assert_eq!(w.scaled(7.0), 7 << 61);
    assert_eq!(w.scaled(1.0), 1 << 61);
    assert_eq!(w.scaled(0.0), 0);
    let w = Weights::for_largest(0.75);
    assert_eq!(w.scaled(0.75), 3 << 62);
    assert_eq!(w.scaled(0.25), 1 << 62);
    let w = Weights::for_largest(f64::MAX);
    assert_eq!(w.scaled(f64::MIN_POSITIVE), 0);
    assert!(w.scaled(f64::MAX) >= 1 << 63);
    let w = Weights::for_largest(5e-324);
    assert_eq!(w.scaled(5e-324), 1 << 63);
}
