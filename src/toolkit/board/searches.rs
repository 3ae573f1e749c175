//! The board's searches (`board.rs`): breadth-first for unit costs, from
//! sources at 0 or at their own keys, and Dijkstra's algorithm over a radix
//! heap for costs.

use super::{Board, REACHED, UNREACHED, UNSEEN};
use crate::toolkit::radix_heap::RadixHeap;

impl Board {
    /// Dijkstra's algorithm for unit costs without a heap: the sources in
    /// the order of their keys, merged with the queue of the cells reached
    /// from them, which grows in the order of distance too (each step costs
    /// 1). So the cells are settled in order of distance, each once, when
    /// first given one, and a source's key no lower than its cell's distance
    /// is skipped: the distances `dijkstra` finds, in O(cells + sources log
    /// sources). The same cells are entered as there (open, not barred).
    pub(super) fn keyed_breadth_first(&mut self, sources: &[(usize, u64)]) {
        let sorted = by_key(sources);
        let mut d = vec![UNREACHED; self.cells.len()];
        let mut queue: Vec<u32> = Vec::with_capacity(self.open + 1);
        let (mut next, mut head) = (0, 0);
        let n = if self.diagonal { 8 } else { 4 };
        loop {
            // The lower of the next source and the queue's head; on a tie
            // the source, so that a cell is never queued at its own key.
            let source = match (sorted.get(next), queue.get(head)) {
                (Some(&(k, _)), Some(&q)) => k <= d[q as usize],
                (Some(_), None) => true,
                (None, Some(_)) => false,
                (None, None) => break,
            };
            let (i, g) = if source {
                let (k, s) = sorted[next];
                next += 1;
                if k >= d[s as usize] || k > self.limit {
                    continue;
                }
                d[s as usize] = k;
                (s as usize, k)
            } else {
                let q = queue[head] as usize;
                head += 1;
                (q, d[q])
            };
            let g = g + 1;
            if g > self.limit {
                continue;
            }
            for k in 0..n {
                let enters = |j| self.is_open(j) && self.barred.get(j) != Some(&true);
                if let Some(j) = self.step(i, k, enters) {
                    if g < d[j] {
                        d[j] = g;
                        queue.push(j as u32);
                    }
                }
            }
        }
        self.costs = d;
    }

    /// The distance `search` found to `i`, or `UNREACHED`. (Not for a
    /// blocked cell found as the backward start: `search` returned that.)
    pub(crate) fn distance(&self, i: usize) -> u64 {
        if !self.costs.is_empty() {
            self.costs[i]
        } else if self.cells[i] >= REACHED {
            u64::from(self.cells[i] - REACHED)
        } else {
            UNREACHED
        }
    }

    /// Every cell's `distance`, row-major over the grid.
    pub(crate) fn distances(&self) -> Vec<u64> {
        let mut rows = Vec::with_capacity(self.width * self.height);
        for y in 1..=self.height {
            let start = y * self.stride + 1;
            rows.extend((start..start + self.width).map(|i| self.distance(i)));
        }
        rows
    }

    /// Unit costs, level by level: a distance is final when first written,
    /// so a backward search stops as soon as the start gets one. The level
    /// is counted, not read from the cell expanded, so a blocked source
    /// keeps its closed mark.
    pub(super) fn breadth_first<const DIRECTIONS: usize>(
        &mut self,
        sources: &[usize],
        backward: Option<usize>,
    ) -> u64 {
        let start = backward.unwrap_or(usize::MAX);
        // Each open cell enters the queue once, and each source (a blocked
        // one once per time it is given), so it never grows.
        let mut queue: Vec<u32> = Vec::with_capacity(sources.len() + self.open + 1);
        for &s in sources {
            if self.cells[s] != REACHED {
                queue.push(s as u32);
                if self.cells[s] == UNSEEN {
                    self.cells[s] = REACHED;
                }
            }
        }
        let (mut head, mut level) = (0, REACHED);
        while head < queue.len() {
            let end = queue.len();
            level += 1;
            if u64::from(level - REACHED) > self.limit {
                break;
            }
            for q in head..end {
                let i = queue[q] as usize;
                for k in 0..DIRECTIONS {
                    let enters = |j| (self.cells[j] == UNSEEN) | (j == start);
                    if let Some(j) = self.step(i, k, enters) {
                        if j == start {
                            return u64::from(level - REACHED);
                        }
                        self.cells[j] = level;
                        queue.push(j as u32);
                    }
                }
            }
            head = end;
        }
        UNREACHED
    }

    /// Dijkstra's algorithm over a radix heap that holds each cell at most
    /// once (a cell whose distance drops is moved in it), from sources that
    /// start at their own keys; nothing past `limit` is settled.
    pub(super) fn dijkstra(
        &mut self,
        sources: impl IntoIterator<Item = (usize, u64)>,
        backward: Option<usize>,
    ) -> u64 {
        let start = backward.unwrap_or(usize::MAX);
        let mut d = vec![UNREACHED; self.cells.len()];
        let mut heap = RadixHeap::new(self.cells.len());
        for (s, key) in sources {
            if key < d[s] && key <= self.limit {
                let queued = (d[s] != UNREACHED).then_some(d[s]);
                d[s] = key;
                heap.push(s as u32, key, queued);
            }
        }
        let n = if self.diagonal { 8 } else { 4 };
        while let Some(i) = heap.pop(&d) {
            let (i, g) = (i as usize, d[i as usize]);
            if i == start {
                break;
            }
            for k in 0..n {
                let enters =
                    |j| (self.is_open(j) && self.barred.get(j) != Some(&true)) | (j == start);
                if let Some(j) = self.step(i, k, enters) {
                    // Backwards, the walker coming the other way enters `i`
                    // by the same kind of step (straight or diagonal).
                    let next = if backward.is_some() {
                        g + self.step_cost(i, k)
                    } else {
                        g + self.step_cost(j, k)
                    };
                    if next < d[j] && next <= self.limit {
                        // A finite distance that can still drop is queued:
                        // a settled cell's is at most `g`.
                        let queued = (d[j] != UNREACHED).then_some(d[j]);
                        d[j] = next;
                        heap.push(j as u32, next, queued);
                    }
                }
            }
        }
        let reached = d.get(start).copied().unwrap_or(UNREACHED);
        self.costs = d;
        reached
    }
}

/// `sources` as (key, cell) in the order of their keys: by counting when
/// the keys span no more than a few times as many values as there are
/// sources (a safety map's scaled distances), else by sorting.
fn by_key(sources: &[(usize, u64)]) -> Vec<(u64, u32)> {
    let least = sources.iter().map(|s| s.1).min().unwrap_or(0);
    let span = sources.iter().map(|s| s.1 - least).max().unwrap_or(0);
    if span > 4 * sources.len() as u64 + 64 {
        let mut sorted: Vec<(u64, u32)> = sources.iter().map(|&(s, k)| (k, s as u32)).collect();
        sorted.sort_unstable();
        return sorted;
    }
    let mut starts = vec![0usize; span as usize + 2];
    sources
        .iter()
        .for_each(|s| starts[(s.1 - least) as usize + 1] += 1);
    for k in 1..starts.len() {
        starts[k] += starts[k - 1];
    }
    let mut sorted = vec![(0, 0); sources.len()];
    for &(s, k) in sources {
        let at = &mut starts[(k - least) as usize];
        sorted[*at] = (k, s as u32);
        *at += 1;
    }
    sorted
}
