//! The solver of the overlapping model: arc consistency kept by support
//! counts (AC-4, as in mxgmn's WaveFunctionCollapse), or for the repair on
//! bits where the patterns fit in 64 (the same states), the next position by
//! the fewest patterns left (ties by a key drawn per position), a pattern
//! by its weight. Everything that decides is integer: the draws are
//! `Rng::below` on integer weights, so a seed gives one result everywhere.
//!
//! A position is the top-left corner of an n x n window of the output; the
//! output does not wrap, so a `w` x `h` map has `(w - n + 1) x (h - n + 1)`
//! positions, and two neighbouring positions must agree where their
//! windows overlap (which, position by position, makes every window's
//! cells agree).

use super::patterns::Patterns;
use super::queue::Queue;
use crate::rng::Rng;

/// A position no pattern is chosen for yet; `MAX_PATTERNS` is far below
/// it.
pub const UNDECIDED: u16 = u16::MAX;

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
///   once); and one entry of the lazy queue for each ban (8 x 3, counted
///   as 12 x 3 as released).
/// - Per position: `left` and `dirty` in two waves (10), the positions
///   narrowed by a propagation (8 x 3), the draws' keys (4), the chosen
///   patterns (2), the queue's first entry (8 x 3, counted as 12 x 3),
///   and a wave on bits (`Support::Bits`: a word, a mark and a queue
///   entry, 8 + 1 + 4 x 3).
/// - Per pattern: the rules, a `u16` per pair of patterns and direction
///   (8 x 3), their starts and first counts (24) and bits (32); and the
///   queue's heap for that count of patterns left (24).
pub fn bound(positions: usize, patterns: usize) -> usize {
    let per_pair = 18 + 24 + 36;
    let per_position = 10 + 24 + 4 + 2 + 36 + 21;
    let rules = patterns
        .saturating_mul(patterns)
        .saturating_mul(24)
        .saturating_add(patterns.saturating_mul(24 + 32 + 24));
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
    /// Where the patterns fit in 64 (`Support::Bits`): per pattern `p`,
    /// `allowed(d, p)` as bits for each direction `d`; empty otherwise.
    masks: Vec<[u64; 4]>,
    /// Per direction `d`: the patterns in no `allowed(d, p)`, which the
    /// support counts never ban from that side (they start at zero), so
    /// the bits keep them too.
    unsupported: [u64; 4],
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
        let mut rules = Rules {
            starts,
            list,
            count,
            masks: Vec::new(),
            unsupported: [0; 4],
        };
        if count <= 64 {
            rules.masks = (0..count)
                .map(|p| [0, 1, 2, 3].map(|d| rules.allowed(d, p).iter().fold(0, |m, &q| m | 1 << q)))
                .collect();
            for d in 0..4 {
                let supported = rules.masks.iter().fold(0, |m, b| m | b[d]);
                rules.unsupported[d] = every(count) & !supported;
            }
        }
        rules
    }

    /// The patterns (as bits) that those of `here` allow one step in each
    /// direction of `DIRS`, with those nothing supports from that side;
    /// `work` counts a unit per pattern read.
    fn around(&self, here: u64, work: &mut u64) -> [u64; 4] {
        let mut found = self.unsupported;
        let mut left = here;
        while left != 0 {
            let masks = &self.masks[left.trailing_zeros() as usize];
            for d in 0..4 {
                found[d] |= masks[d];
            }
            left &= left - 1;
        }
        *work += u64::from(here.count_ones()) + 1;
        found
    }

    /// Whether the patterns fit in 64, so that `Propagation::Fastest`
    /// is on bits.
    pub fn fit_bits(&self) -> bool {
        !self.masks.is_empty()
    }

    /// Whether `q` may lie one step right (`d` 0) or down (1) of `p`.
    pub fn agree(&self, d: usize, p: u16, q: u16) -> bool {
        self.allowed(d, p as usize).binary_search(&q).is_ok()
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
    /// Per position and pattern: still possible (empty on bits, which
    /// hold it: `Bits::words`).
    possible: Vec<bool>,
    /// Per position, direction and pattern (the patterns of one position
    /// and direction side by side: a ban counts down one of those lists):
    /// how many patterns of the neighbour that way still support it; or
    /// each position's patterns as bits.
    support: Support,
    left: Vec<u32>,
    stack: Vec<(u32, u16)>,
    /// Per position: listed in `touched` already (one queue entry per
    /// position narrowed, not one per ban).
    dirty: Vec<bool>,
}

/// How a ban reaches the neighbours: support counts, a byte each where
/// every count fits one (a pattern of n >= 2 has few patterns beside it:
/// the samples' largest count is in the tens), which halves the memory the
/// solver walks, else two bytes; or bits.
#[derive(Clone)]
enum Support {
    Narrow(Vec<u8>),
    Wide(Vec<u16>),
    /// No counts: each position's patterns as the bits of a word, its
    /// neighbours narrowed to what those patterns allow beside them (AC-3
    /// on bits), where the patterns fit in 64. It reaches the state the
    /// counts reach (the largest arc-consistent one, the patterns the
    /// counts never ban kept: `Rules::unsupported`), so the same draws
    /// solve to the same patterns, for a fraction of the work: a position
    /// narrowed costs its patterns left per side, not its bans' supporters.
    Bits(Bits),
}

#[derive(Clone)]
struct Bits {
    /// Per position: its patterns still possible.
    words: Vec<u64>,
    /// The positions narrowed and not yet taken to their neighbours.
    queue: Vec<u32>,
    queued: Vec<bool>,
}

/// How a wave takes a ban to the neighbours.
#[derive(Clone, Copy, PartialEq)]
pub enum Propagation {
    /// Support counts: the attempts', whose work decides when a call
    /// stops (`MAX_SOLVER_WORK`), kept as released.
    Counts,
    /// Bits where the patterns fit in 64, else counts: the repair's,
    /// new since 0.2.0.
    Fastest,
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
    /// Every pattern possible everywhere on `pw` x `ph` positions, with
    /// support counts.
    pub fn new(rules: &Rules, pw: usize, ph: usize) -> Wave {
        Wave::new_as(rules, pw, ph, Propagation::Counts)
    }

    /// `new`, propagating as `how` says.
    pub fn new_as(rules: &Rules, pw: usize, ph: usize, how: Propagation) -> Wave {
        let count = rules.count;
        let positions = pw * ph;
        if how == Propagation::Fastest && rules.fit_bits() {
            return Wave {
                pw,
                ph,
                count,
                possible: Vec::new(),
                support: Support::Bits(Bits {
                    words: vec![every(count); positions],
                    queue: Vec::new(),
                    queued: vec![false; positions],
                }),
                left: vec![count as u32; positions],
                stack: Vec::new(),
                dirty: vec![false; positions],
            };
        }
        let mut one = vec![0u16; 4 * count];
        for d in 0..4 {
            for p in 0..count {
                // Supporters of p from direction d: the neighbour that way
                // holds q with p allowed opposite of it.
                one[d * count + p] = rules.allowed(OPPOSITE[d], p).len() as u16;
            }
        }
        let support = match one.iter().map(|&c| u8::try_from(c)).collect::<Result<Vec<u8>, _>>() {
            Ok(narrow) => Support::Narrow(narrow.repeat(positions)),
            Err(_) => Support::Wide(one.repeat(positions)),
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

    /// This settled wave propagating as `how` says.
    pub fn into_as(self, rules: &Rules, how: Propagation) -> Wave {
        if how == Propagation::Counts || !rules.fit_bits() || matches!(self.support, Support::Bits(_)) {
            return self;
        }
        let words = self
            .possible
            .chunks(self.count)
            .map(|row| row.iter().enumerate().fold(0, |m, (p, &b)| m | u64::from(b) << p))
            .collect();
        Wave {
            possible: Vec::new(),
            support: Support::Bits(Bits {
                words,
                queue: Vec::new(),
                queued: vec![false; self.positions()],
            }),
            ..self
        }
    }

    /// Each position's pattern where one is left, else `UNDECIDED`.
    pub fn decided(&self) -> Vec<u16> {
        (0..self.positions())
            .map(|i| if self.left[i] == 1 { self.first(i) } else { UNDECIDED })
            .collect()
    }

    /// Positions across and down.
    pub fn size(&self) -> (usize, usize) {
        (self.pw, self.ph)
    }

    /// Whether pattern `p` is still possible at position `i`.
    pub fn allows(&self, i: usize, p: usize) -> bool {
        match &self.support {
            Support::Bits(bits) => bits.words[i] >> p & 1 == 1,
            _ => self.possible[i * self.count + p],
        }
    }

    /// Draws one of the patterns possible at position `i` by weight.
    fn draw(&self, i: usize, weights: &[u32], rng: &mut Rng) -> usize {
        match &self.support {
            Support::Bits(bits) => drawn(ones(bits.words[i]), weights, rng),
            _ => {
                let row = &self.possible[i * self.count..(i + 1) * self.count];
                drawn((0..self.count).filter(|&p| row[p]), weights, rng)
            }
        }
    }

    /// The first pattern possible at position `i` (0 where none is).
    fn first(&self, i: usize) -> u16 {
        match &self.support {
            Support::Bits(bits) => ones(bits.words[i]).next().unwrap_or(0) as u16,
            _ => {
                let row = &self.possible[i * self.count..(i + 1) * self.count];
                row.iter().position(|&b| b).unwrap_or(0) as u16
            }
        }
    }

    /// Rules out every pattern at position `i` but `p`, to be propagated.
    pub fn keep(&mut self, i: usize, p: usize) -> Result<(), Contradiction> {
        self.narrow(i, |q| q == p, |word| word & 1 << p)
    }

    /// Rules out every pattern at position `i` that `allowed` refuses, to
    /// be propagated.
    pub fn limit(&mut self, i: usize, allowed: impl Fn(usize) -> bool) -> Result<(), Contradiction> {
        let word = |word| ones(word).filter(|&p| allowed(p)).fold(0, |m, p| m | 1 << p);
        self.narrow(i, &allowed, word)
    }

    /// Rules out at position `i` every pattern not in `set` (a bit per
    /// pattern, 64 a word), to be propagated.
    pub fn limit_to(&mut self, i: usize, set: &[u64]) -> Result<(), Contradiction> {
        self.narrow(i, |p| set[p / 64] >> (p % 64) & 1 == 1, |word| word & set[0])
    }

    /// Rules out at position `i` every pattern `other` has ruled out at
    /// its position `k`, to be propagated.
    pub fn limit_as(&mut self, i: usize, other: &Wave, k: usize) -> Result<(), Contradiction> {
        match &other.support {
            Support::Bits(theirs) => self.narrow(i, |p| other.allows(k, p), |word| word & theirs.words[k]),
            _ => self.limit(i, |p| other.allows(k, p)),
        }
    }

    /// Rules out at position `i` the patterns `allowed` refuses: with the
    /// counts, each in turn (as many bans); on bits, the word left by
    /// `word` at once, queued once.
    fn narrow(
        &mut self,
        i: usize,
        allowed: impl Fn(usize) -> bool,
        word: impl Fn(u64) -> u64,
    ) -> Result<(), Contradiction> {
        let Support::Bits(bits) = &mut self.support else {
            return (0..self.count).filter(|&q| !allowed(q)).try_for_each(|q| self.ban(i, q));
        };
        let (old, new) = (bits.words[i], word(bits.words[i]));
        if new != old {
            bits.words[i] = new;
            self.left[i] = new.count_ones();
            self.stack.push((i as u32, 0));
        }
        match new {
            0 => Err(Contradiction(i)),
            _ => Ok(()),
        }
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
    /// propagated: with the support counts (on bits, `narrow`).
    fn ban(&mut self, i: usize, p: usize) -> Result<(), Contradiction> {
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
        let mut support = std::mem::replace(&mut self.support, Support::Wide(Vec::new()));
        let settled = match &mut support {
            Support::Narrow(counts) => self.propagate_with(counts, rules, work, touched),
            Support::Wide(counts) => self.propagate_with(counts, rules, work, touched),
            Support::Bits(bits) => self.propagate_bits(bits, rules, work, touched),
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

    /// `propagate` on bits: each position narrowed narrows its
    /// neighbours to the patterns its own allow beside them (or that
    /// nothing supports from that side), until none changes; `work` counts
    /// a unit per position taken and pattern read (`Rules::around`).
    fn propagate_bits(
        &mut self,
        bits: &mut Bits,
        rules: &Rules,
        work: &mut u64,
        touched: &mut Vec<usize>,
    ) -> Result<(), Contradiction> {
        for (i, _) in self.stack.drain(..) {
            if !std::mem::replace(&mut bits.queued[i as usize], true) {
                bits.queue.push(i);
            }
        }
        while let Some(i) = bits.queue.pop() {
            let i = i as usize;
            bits.queued[i] = false;
            let allowed = rules.around(bits.words[i], work);
            for (d, j) in self.neighbours(i).into_iter().enumerate() {
                let Some(j) = j else {
                    continue;
                };
                let old = bits.words[j];
                let new = old & allowed[d];
                if new == old {
                    continue;
                }
                bits.words[j] = new;
                self.left[j] = new.count_ones();
                if new == 0 {
                    for k in bits.queue.drain(..) {
                        bits.queued[k as usize] = false;
                    }
                    return Err(Contradiction(j));
                }
                if !std::mem::replace(&mut self.dirty[j], true) {
                    touched.push(j);
                }
                if !std::mem::replace(&mut bits.queued[j], true) {
                    bits.queue.push(j as u32);
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
        let mut queue = Queue::new(self.count);
        for i in (0..positions).filter(|&i| self.left[i] > 1) {
            queue.push(self.left[i], keys[i], i);
        }
        let mut touched = Vec::new();
        while let Some((left, i)) = queue.pop() {
            if left != self.left[i] || left <= 1 {
                continue;
            }
            let chosen = self.draw(i, weights, rng);
            self.keep(i, chosen)?;
            self.propagate(rules, work, &mut touched)?;
            for j in touched.drain(..) {
                self.dirty[j] = false;
                if self.left[j] > 1 {
                    queue.push(self.left[j], keys[j], j);
                }
            }
        }
        Ok((0..positions).map(|i| self.first(i)).collect())
    }
}

/// The first `count` (at most 64) patterns as bits.
fn every(count: usize) -> u64 {
    u64::MAX >> (64 - count)
}

/// The patterns whose bits are set in `word`, in order.
fn ones(mut word: u64) -> impl Iterator<Item = usize> + Clone {
    std::iter::from_fn(move || {
        let p = (word != 0).then(|| word.trailing_zeros() as usize);
        word &= word.wrapping_sub(1);
        p
    })
}

/// One of `patterns` drawn by weight: `rng.below` their total, walked in
/// order.
fn drawn(patterns: impl Iterator<Item = usize> + Clone, weights: &[u32], rng: &mut Rng) -> usize {
    let total: u64 = patterns.clone().map(|p| u64::from(weights[p])).sum();
    let mut r = rng.below(total as usize) as u64;
    let mut chosen = 0;
    for p in patterns {
        chosen = p;
        if r < u64::from(weights[p]) {
            break;
        }
        r -= u64::from(weights[p]);
    }
    chosen
}
