//! The solver of the overlapping model: arc consistency kept by support
//! counts (AC-4, as in mxgmn's WaveFunctionCollapse), the next position by
//! the fewest patterns left (ties by a key drawn per position), a pattern
//! by its weight. Everything that decides is integer: the draws are
//! `Rng::below` on integer weights, so a seed gives one result everywhere.
//!
//! A position is the top-left corner of an n x n window of the output; the
//! output does not wrap, so a `w` x `h` map has `(w - n + 1) x (h - n + 1)`
//! positions, and two neighbouring positions must agree where their
//! windows overlap (which, position by position, makes every window's
//! cells agree).

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::patterns::Patterns;
use crate::rng::Rng;

/// Right, down, left, up: `OPPOSITE[d]` is `d` turned round.
const DIRS: [(isize, isize); 4] = [(1, 0), (0, 1), (-1, 0), (0, -1)];
const OPPOSITE: [usize; 4] = [2, 3, 0, 1];

/// The bytes a solver of `positions` positions over `patterns` patterns
/// holds at most. A vector that grows by doubling holds 3 times its
/// length while it moves (the old block and the new one twice as large),
/// hence the factors of 3 below.
///
/// - Per position and pattern: a flag and four `u16` support counts in
///   two waves at once (the start and an attempt's copy, or the repair's
///   small wave: 18); at most one ban each on the stacks (8 x 3: the
///   start's left over and an attempt's together hold at most every ban
///   once); and one entry of the lazy queue for each ban (12 x 3).
/// - Per position: `left` and `dirty` in two waves (10), the positions
///   narrowed by a propagation (8 x 3), the draws' keys (4), the chosen
///   patterns (2), and the queue's first entry (12 x 3).
/// - The rules: a `u16` per pair of patterns and direction (8 x 3), and
///   their starts and first counts (24 per pattern).
pub fn bound(positions: usize, patterns: usize) -> usize {
    let per_pair = 18 + 24 + 36;
    let per_position = 10 + 24 + 4 + 2 + 36;
    let rules = patterns
        .saturating_mul(patterns)
        .saturating_mul(24)
        .saturating_add(patterns.saturating_mul(24));
    positions
        .saturating_mul(patterns)
        .saturating_mul(per_pair)
        .saturating_add(positions.saturating_mul(per_position))
        .saturating_add(rules)
}

/// Which patterns may sit next to which: `allowed(d, p)` lists those that
/// may lie one step in direction `d` of `p`.
pub struct Rules {
    starts: Vec<u32>,
    list: Vec<u16>,
    count: usize,
}

impl Rules {
    pub fn new(patterns: &Patterns) -> Rules {
        let count = patterns.len();
        let mut starts = Vec::with_capacity(4 * count + 1);
        let mut list = Vec::new();
        for (dx, dy) in DIRS {
            for p in 0..count {
                starts.push(list.len() as u32);
                list.extend((0..count).filter(|&q| patterns.agree(p, q, dx, dy)).map(|q| q as u16));
            }
        }
        starts.push(list.len() as u32);
        Rules {
            starts,
            list,
            count,
        }
    }

    fn allowed(&self, d: usize, p: usize) -> &[u16] {
        let i = d * self.count + p;
        &self.list[self.starts[i] as usize..self.starts[i + 1] as usize]
    }
}

/// The state of every position; `Clone` for the snapshot taken after the
/// fixed cells, which each attempt starts from.
#[derive(Clone)]
pub struct Wave {
    pw: usize,
    ph: usize,
    count: usize,
    /// Per position and pattern: still possible.
    possible: Vec<bool>,
    /// Per position, direction and pattern (the patterns of one position
    /// and direction side by side: a ban counts down one of those lists):
    /// how many patterns of the neighbour that way still support it.
    support: Counts,
    left: Vec<u32>,
    stack: Vec<(u32, u16)>,
    /// Per position: listed in `touched` already (one queue entry per
    /// position narrowed, not one per ban).
    dirty: Vec<bool>,
}

/// The support counts, a byte each where every count fits one (a pattern
/// of n >= 2 has few patterns beside it: the samples' largest count is in
/// the tens), which halves the memory the solver walks, else two bytes.
#[derive(Clone)]
enum Counts {
    Narrow(Vec<u8>),
    Wide(Vec<u16>),
}

/// A support count, counted down.
trait Count: Copy {
    /// One supporter fewer: whether none is left.
    fn down(&mut self) -> bool;
}

impl Count for u8 {
    fn down(&mut self) -> bool {
        *self -= 1;
        *self == 0
    }
}

impl Count for u16 {
    fn down(&mut self) -> bool {
        *self -= 1;
        *self == 0
    }
}

/// A position left with no pattern: the position.
#[derive(Debug)]
pub struct Contradiction(pub usize);

impl Wave {
    /// Every pattern possible everywhere on `pw` x `ph` positions.
    pub fn new(rules: &Rules, pw: usize, ph: usize) -> Wave {
        let count = rules.count;
        let mut one = vec![0u16; 4 * count];
        for d in 0..4 {
            for p in 0..count {
                // Supporters of p from direction d: the neighbour that way
                // holds q with p allowed opposite of it.
                one[d * count + p] = rules.allowed(OPPOSITE[d], p).len() as u16;
            }
        }
        let positions = pw * ph;
        let support = match one.iter().map(|&c| u8::try_from(c)).collect::<Result<Vec<u8>, _>>() {
            Ok(narrow) => Counts::Narrow(narrow.repeat(positions)),
            Err(_) => Counts::Wide(one.repeat(positions)),
        };
        // Support from off the edge is never taken away, so a count there
        // never reaches zero: no marking needed.
        Wave {
            pw,
            ph,
            count,
            possible: vec![true; positions * count],
            support,
            left: vec![count as u32; positions],
            stack: Vec::new(),
            dirty: vec![false; positions],
        }
    }

    /// Positions across and down.
    pub fn size(&self) -> (usize, usize) {
        (self.pw, self.ph)
    }

    /// Whether pattern `p` is still possible at position `i`.
    pub fn allows(&self, i: usize, p: usize) -> bool {
        self.possible[i * self.count + p]
    }

    pub fn positions(&self) -> usize {
        self.pw * self.ph
    }

    /// The positions beside `i` in the directions of `DIRS`, those inside.
    fn neighbours(&self, i: usize) -> [Option<usize>; 4] {
        let (x, y) = (i % self.pw, i / self.pw);
        [
            (x + 1 < self.pw).then_some(i + 1),
            (y + 1 < self.ph).then_some(i + self.pw),
            (x > 0).then(|| i - 1),
            (y > 0).then(|| i - self.pw),
        ]
    }

    /// Rules out pattern `p` at position `i` (if still possible), to be
    /// propagated.
    pub fn ban(&mut self, i: usize, p: usize) -> Result<(), Contradiction> {
        let k = i * self.count + p;
        if !self.possible[k] {
            return Ok(());
        }
        self.possible[k] = false;
        self.left[i] -= 1;
        self.stack.push((i as u32, p as u16));
        if self.left[i] == 0 {
            return Err(Contradiction(i));
        }
        Ok(())
    }

    /// `propagate` before solving (the fixed cells): nothing is queued yet.
    pub fn settle(&mut self, rules: &Rules, work: &mut u64) -> Result<(), Contradiction> {
        let mut touched = Vec::new();
        let settled = self.propagate(rules, work, &mut touched);
        for j in touched {
            self.dirty[j] = false;
        }
        settled
    }

    /// Takes every ban to its consequences, listing in `touched` each
    /// position it narrowed; `work` counts the support updates, the
    /// solver's unit of time.
    fn propagate(
        &mut self,
        rules: &Rules,
        work: &mut u64,
        touched: &mut Vec<usize>,
    ) -> Result<(), Contradiction> {
        let mut support = std::mem::replace(&mut self.support, Counts::Wide(Vec::new()));
        let settled = match &mut support {
            Counts::Narrow(counts) => self.propagate_with(counts, rules, work, touched),
            Counts::Wide(counts) => self.propagate_with(counts, rules, work, touched),
        };
        self.support = support;
        settled
    }

    /// `propagate` with the support counts taken out of `self`.
    fn propagate_with<C: Count>(
        &mut self,
        support: &mut [C],
        rules: &Rules,
        work: &mut u64,
        touched: &mut Vec<usize>,
    ) -> Result<(), Contradiction> {
        while let Some((i, p)) = self.stack.pop() {
            let (i, p) = (i as usize, p as usize);
            for (d, j) in self.neighbours(i).into_iter().enumerate() {
                let Some(j) = j else {
                    continue;
                };
                let allowed = rules.allowed(d, p);
                *work += allowed.len() as u64;
                let counts = (j * 4 + d) * self.count;
                for &q in allowed {
                    let q = q as usize;
                    // A banned pattern's count is never read again, but
                    // it is counted down too, sparing the loop a branch
                    // per pattern (it never passes 0: it counts its
                    // supporters, each banned once).
                    if support[counts + q].down() && self.possible[j * self.count + q] {
                        self.ban(j, q)?;
                        if !self.dirty[j] {
                            self.dirty[j] = true;
                            touched.push(j);
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// Collapses every position: the one with the fewest patterns left
    /// next (ties by a key drawn per position), a pattern by its weight.
    /// Returns each position's pattern.
    pub fn solve(
        &mut self,
        rules: &Rules,
        weights: &[u32],
        rng: &mut Rng,
        work: &mut u64,
    ) -> Result<Vec<u16>, Contradiction> {
        let positions = self.positions();
        let keys: Vec<u32> = (0..positions).map(|_| rng.below(1 << 32) as u32).collect();
        // A lazy queue: an entry is stale once its count is not the
        // position's; every ban of an undecided position pushes a fresh one.
        let mut queue: BinaryHeap<Reverse<(u32, u32, u32)>> = (0..positions)
            .filter(|&i| self.left[i] > 1)
            .map(|i| Reverse((self.left[i], keys[i], i as u32)))
            .collect();
        let mut touched = Vec::new();
        while let Some(Reverse((left, _, i))) = queue.pop() {
            let i = i as usize;
            if left != self.left[i] || left <= 1 {
                continue;
            }
            let row = &self.possible[i * self.count..(i + 1) * self.count];
            let total: u64 = (0..self.count)
                .filter(|&p| row[p])
                .map(|p| u64::from(weights[p]))
                .sum();
            let mut r = rng.below(total as usize) as u64;
            let mut chosen = 0;
            for p in (0..self.count).filter(|&p| row[p]) {
                chosen = p;
                if r < u64::from(weights[p]) {
                    break;
                }
                r -= u64::from(weights[p]);
            }
            for p in 0..self.count {
                if p != chosen {
                    self.ban(i, p)?;
                }
            }
            self.propagate(rules, work, &mut touched)?;
            for j in touched.drain(..) {
                self.dirty[j] = false;
                if self.left[j] > 1 {
                    queue.push(Reverse((self.left[j], keys[j], j as u32)));
                }
            }
        }
        Ok((0..positions)
            .map(|i| {
                let row = &self.possible[i * self.count..(i + 1) * self.count];
                row.iter().position(|&b| b).unwrap_or(0) as u16
            })
            .collect())
    }
}
