//! Dijkstra's queue: a radix heap over the cells of a board, each cell in
//! it at most once, so that its memory is fixed before the search starts.
//!
//! Keys popped never decrease, so a cell only needs to be ordered against
//! the last key popped. Bucket `b > 0` holds the cells whose key's highest
//! bit differing from `last` is bit `b - 1`, bucket 0 those equal to it;
//! popping empties bucket 0, else takes the lowest non-empty bucket's least
//! key as `last` and spreads that bucket over lower ones. Each cell moves
//! down at most 64 times, usually a few, and no comparison sort runs.
//! Buckets are doubly linked lists threaded through two arrays indexed by
//! cell, so a cell whose key drops is moved, not queued again.

/// The end of a list.
const NONE: u32 = u32::MAX;

pub(crate) struct RadixHeap {
    last: u64,
    /// The first cell of each bucket, or `NONE`.
    heads: [u32; 65],
    /// Per bucket, at most its least key: the least key linked into it
    /// since it was last empty. A cell moved out may have held it; then
    /// spreading starts from a lower `last`, still no higher than any key
    /// queued and, as no higher bucket is spread while this one holds a
    /// cell, with the same bits above the bucket's.
    least: [u64; 65],
    /// Per cell, the next and the previous cell in its bucket.
    next: Vec<u32>,
    prev: Vec<u32>,
}

impl RadixHeap {
    /// An empty heap for cells `0..cells`.
    pub(crate) fn new(cells: usize) -> RadixHeap {
        RadixHeap {
            last: 0,
            heads: [NONE; 65],
            least: [u64::MAX; 65],
            next: vec![NONE; cells],
            prev: vec![NONE; cells],
        }
    }

    fn bucket(&self, key: u64) -> usize {
        (u64::BITS - (key ^ self.last).leading_zeros()) as usize
    }

    fn link(&mut self, cell: u32, key: u64) {
        let b = self.bucket(key);
        self.least[b] = self.least[b].min(key);
        let head = self.heads[b];
        self.next[cell as usize] = head;
        self.prev[cell as usize] = NONE;
        if head != NONE {
            self.prev[head as usize] = cell;
        }
        self.heads[b] = cell;
    }

    fn unlink(&mut self, cell: u32, b: usize) {
        let (next, prev) = (self.next[cell as usize], self.prev[cell as usize]);
        if prev == NONE {
            self.heads[b] = next;
            if next == NONE {
                // Empty: the next cell linked here may be one of a later
                // `last`, for which an old least key would be wrong.
                self.least[b] = u64::MAX;
            }
        } else {
            self.next[prev as usize] = next;
        }
        if next != NONE {
            self.prev[next as usize] = prev;
        }
    }

    /// Queues `cell` at `key`, which must not be below the last key popped.
    /// `queued_at`: the key it is queued at already, if it is.
    pub(crate) fn push(&mut self, cell: u32, key: u64, queued_at: Option<u64>) {
        debug_assert!(key >= self.last);
        if let Some(old) = queued_at {
            self.unlink(cell, self.bucket(old));
        }
        self.link(cell, key);
    }

    /// A cell with the least key, `keys` holding each queued cell's key.
    pub(crate) fn pop(&mut self, keys: &[u64]) -> Option<u32> {
        while self.heads[0] == NONE {
            let b = self.heads.iter().position(|&h| h != NONE)?;
            self.spread(b, keys);
        }
        let cell = self.heads[0];
        self.unlink(cell, 0);
        Some(cell)
    }

    /// Moves the cells of bucket `b`, the lowest non-empty one, to lower
    /// buckets, `last` being its least key (or less: see `least`).
    fn spread(&mut self, b: usize, keys: &[u64]) {
        self.last = std::mem::replace(&mut self.least[b], u64::MAX);
        let mut cell = std::mem::replace(&mut self.heads[b], NONE);
        while cell != NONE {
            let next = self.next[cell as usize];
            self.link(cell, keys[cell as usize]);
            cell = next;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;
    use crate::toolkit::board::MAX_COST;

    #[test]
    fn cells_pop_in_key_order_and_a_lowered_key_moves_its_cell() {
        const CELLS: usize = 64;
        let mut rng = Rng::new(9);
        let mut heap = RadixHeap::new(CELLS);
        let mut keys = [u64::MAX; CELLS];
        let mut queued = [false; CELLS];
        let mut last = 0;
        for _ in 0..200_000 {
            let cell = rng.below(CELLS);
            let step = [0, 1, 7, 1000, MAX_COST, 1 << 45][rng.below(6)];
            let key = last + step * rng.below(3) as u64 + rng.below(4) as u64;
            // A queued cell only ever gets a lower key (Dijkstra's relaxation).
            if !queued[cell] || key < keys[cell] {
                let at = queued[cell].then_some(keys[cell]);
                heap.push(cell as u32, key, at);
                keys[cell] = key;
                queued[cell] = true;
            }
            if rng.coin() {
                let least = (0..CELLS).filter(|&c| queued[c]).map(|c| keys[c]).min();
                let popped = heap.pop(&keys);
                assert_eq!(popped.map(|c| keys[c as usize]), least);
                if let Some(c) = popped {
                    assert!(queued[c as usize]);
                    queued[c as usize] = false;
                    last = keys[c as usize];
                }
            }
        }
        while let Some(c) = heap.pop(&keys) {
            assert!(queued[c as usize] && keys[c as usize] >= last);
            last = keys[c as usize];
            queued[c as usize] = false;
        }
        assert!(queued.iter().all(|&q| !q));
    }
}
