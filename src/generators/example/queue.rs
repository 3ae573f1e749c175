//! The solver's queue of positions to collapse.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// The positions to collapse, the fewest patterns left first, then by
/// key, then by position: a heap for each count of patterns left, so that
/// a heap compares one number, (key, position) packed, among fewer.
pub struct Queue {
    heaps: Vec<BinaryHeap<Reverse<u64>>>,
    /// A bit per count whose heap holds an entry.
    held: Vec<u64>,
}

impl Queue {
    pub fn new(count: usize) -> Queue {
        Queue {
            heaps: (0..=count).map(|_| BinaryHeap::new()).collect(),
            held: vec![0; count / 64 + 1],
        }
    }

    pub fn push(&mut self, left: u32, key: u32, i: usize) {
        let left = left as usize;
        self.heaps[left].push(Reverse(u64::from(key) << 32 | i as u64));
        self.held[left / 64] |= 1 << (left % 64);
    }

    /// The first entry: its count of patterns left and position.
    pub fn pop(&mut self) -> Option<(u32, usize)> {
        let word = self.held.iter().position(|&bits| bits != 0)?;
        let left = word * 64 + self.held[word].trailing_zeros() as usize;
        let Reverse(entry) = self.heaps[left].pop()?;
        if self.heaps[left].is_empty() {
            self.held[word] &= !(1 << (left % 64));
        }
        Some((left as u32, entry as u32 as usize))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    /// Pops in the order of one heap of (left, key, position), as the
    /// solver's queue was before, whatever is pushed.
    #[test]
    fn pops_as_one_heap_of_the_three() {
        let mut rng = Rng::new(7);
        for count in [1, 12, 64, 65, 426] {
            let (mut queue, mut heap) = (Queue::new(count), BinaryHeap::new());
            for round in 0..2000 {
                if round % 3 == 2 {
                    let popped = heap.pop().map(|Reverse((left, _, i))| (left, i));
                    assert_eq!(queue.pop(), popped);
                    continue;
                }
                let left = 1 + rng.below(count) as u32;
                let (key, i) = (rng.below(1 << 32) as u32, rng.below(5000));
                queue.push(left, key, i);
                heap.push(Reverse((left, key, i)));
            }
            while let Some(Reverse((left, _, i))) = heap.pop() {
                assert_eq!(queue.pop(), Some((left, i)));
            }
            assert_eq!(queue.pop(), None);
        }
    }
}
