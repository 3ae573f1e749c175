//! The random source of every generator.
//!
//! Maps must stay byte-identical across releases, so the draws are defined
//! here rather than through `rand`'s distributions, whose value stability is
//! not promised across versions. PCG64 itself is a fixed algorithm.

use rand::{Rng as _, SeedableRng};
use rand_pcg::Pcg64;

pub struct Rng(Pcg64);

impl Rng {
    pub fn new(seed: i64) -> Rng {
        Rng(Pcg64::seed_from_u64(seed as u64))
    }

    /// A uniform integer in `0..n` (Lemire's multiply-and-reject, unbiased).
    pub fn below(&mut self, n: usize) -> usize {
        assert!(n > 0, "Rng::below(0)");
        let n = n as u64;
        let mut product = u128::from(self.0.next_u64()) * u128::from(n);
        // The threshold is below n, so a low half >= n always passes: the
        // division is needed only in the rare other case (same draws).
        if (product as u64) < n {
            let threshold = n.wrapping_neg() % n;
            while (product as u64) < threshold {
                product = u128::from(self.0.next_u64()) * u128::from(n);
            }
        }
        (product >> 64) as usize
    }

    /// A uniform integer in `lo..=hi`.
    pub fn range(&mut self, lo: usize, hi: usize) -> usize {
        lo + self.below(hi - lo + 1)
    }

    pub fn coin(&mut self) -> bool {
        self.below(2) == 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_draws() {
        let (mut a, mut b) = (Rng::new(42), Rng::new(42));
        for n in 1..200 {
            assert_eq!(a.below(n), b.below(n));
        }
    }

    #[test]
    fn draws_stay_in_range_and_cover_it() {
        let mut rng = Rng::new(-7);
        let mut seen = [false; 7];
        for _ in 0..1000 {
            let v = rng.range(3, 9);
            assert!((3..=9).contains(&v));
            seen[v - 3] = true;
        }
        assert!(seen.iter().all(|&s| s));
    }

    #[test]
    fn draws_are_stable_across_releases() {
        // Pinned values: if this fails, every golden map changes too.
        let mut rng = Rng::new(42);
        let got: Vec<usize> = (0..6).map(|_| rng.below(1000)).collect();
        assert_eq!(got, PINNED_42);
    }

    const PINNED_42: [usize; 6] = [226, 239, 760, 527, 970, 375];
}
