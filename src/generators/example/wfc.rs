//! The solver of the overlapping model: arc consistency kept by support
//! counts (AC-4, as in mxgmn's WaveFunctionCollapse, a count a class of
//! patterns: `Rules`), or for the repair on bits where the patterns fit in
//! 64 (the same states), the next position by the fewest patterns left
//! (ties by a key drawn per position), a pattern by its weight. Everything that decides is integer: the draws are
//! `Rng::below` on integer weights, so a seed gives one result everywhere.
//!
//! A position is the top-left corner of an n x n window of the output; the
//! output does not wrap, so a `w` x `h` map has `(w - n + 1) x (h - n + 1)`
//! positions, and two neighbouring positions must agree where their
//! windows overlap (which, position by position, makes every window's
//! cells agree).

use super::queue::Queue;
use super::rules::{every, Rules, NO_CLASS};
use crate::rng::Rng;

/// A position no pattern is chosen for yet; `MAX_PATTERNS` is far below
/// it.
pub const UNDECIDED: u16 = u16::MAX;

/// The bytes a solver of `positions` positions over `patterns` patterns
/// holds at most. A vector that grows by doubling holds 3 times its
/// length while it moves (the old block and the new one twice as large),
/// hence the factors of 3 below.
///
/// - Per position and pattern: a flag and four `u16` support counts in
///   two waves at once (the start and an attempt's copy, or the repair's
///   small wave: 18; counted as released, now a bit and at most four
///   counts, one a class of a side, each class a pattern at least); at
///   most one ban each on the stacks (8 x 3: the start's left over and an
///   attempt's together hold at most every ban once); and one entry of
///   the lazy queue for each ban (8 x 3, counted as 12 x 3 as released).
/// - Per position: `left` and `dirty` in two waves (10), the positions
///   narrowed by a propagation (8 x 3), the draws' keys (4), the chosen
///   patterns (2), the queue's first entry (8 x 3, counted as 12 x 3),
///   and a wave on bits (`Support::Bits`: a word, a mark and a queue
///   entry, 8 + 1 + 4 x 3).
/// - Per pattern: the rules, a `u16` per pair of patterns and direction
///   (8 x 3), their starts, classes and the classes' first counts (16 +
///   8 + 8) and bits (32); and the queue's heap for that count of
///   patterns left (24).
pub fn bound(positions: usize, patterns: usize) -> usize {
    let per_pair = 18 + 24 + 36;
    let per_position = 10 + 24 + 4 + 2 + 36 + 21;
    let rules = patterns
        .saturating_mul(patterns)
        .saturating_mul(24)
        .saturating_add(patterns.saturating_mul(32 + 32 + 24));
    positions
        .saturating_mul(patterns)
        .saturating_mul(per_pair)
        .saturating_add(positions.saturating_mul(per_position))
        .saturating_add(rules)
}

/// The state of every position; `Clone` for the snapshot taken after the
/// fixed cells, which each attempt starts from.
#[derive(Clone)]
pub struct Wave {
    pw: usize,
    ph: usize,
    count: usize,
    /// Per position, `stride` words: its patterns still possible, a bit
    /// each (a class's patterns, looked at when its count reaches zero,
    /// lie in the position's few words).
    possible: Vec<u64>,
    stride: usize,
    /// Per position and class (`Rules`: the classes of a position side
    /// by side): how many patterns of the neighbour on the class's side
    /// still support its patterns; or none, on bits.
    support: Support,
    left: Vec<u32>,
    stack: Vec<(u32, u16)>,
    /// Per position: listed in `touched` already (one queue entry per
    /// position narrowed, not one per ban).
    dirty: Vec<bool>,
}

/// How a ban reaches the neighbours: support counts, a byte each where
/// every count fits one (a class has few supporters: the samples' largest
/// count is in the tens), which halves the memory the solver walks, else
/// two bytes; or bits.
#[derive(Clone)]
enum Support {
    Narrow(Vec<u8>),
    Wide(Vec<u16>),
    /// No counts: each position's patterns in one word, its
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
        let stride = count.div_ceil(64);
        let row: Vec<u64> = (0..stride).map(|k| every((count - 64 * k).min(64))).collect();
        let wave = |support| Wave {
            pw,
            ph,
            count,
            possible: row.repeat(positions),
            stride,
            support,
            left: vec![count as u32; positions],
            stack: Vec::new(),
            dirty: vec![false; positions],
        };
        if how == Propagation::Fastest && rules.fit_bits() {
            return wave(Support::Bits(Bits {
                queue: Vec::new(),
                queued: vec![false; positions],
            }));
        }
        let one = &rules.supporters;
        let support = match one.iter().map(|&c| u8::try_from(c)).collect::<Result<Vec<u8>, _>>() {
            Ok(narrow) => Support::Narrow(narrow.repeat(positions)),
            Err(_) => Support::Wide(one.repeat(positions)),
        };
        // Support from off the edge is never taken away, so a count there
        // never reaches zero: no marking needed.
        wave(support)
    }

    /// This settled wave propagating as `how` says.
    pub fn into_as(self, rules: &Rules, how: Propagation) -> Wave {
        if how == Propagation::Counts || !rules.fit_bits() || matches!(self.support, Support::Bits(_)) {
            return self;
        }
        Wave {
            support: Support::Bits(Bits {
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
        self.possible[i * self.stride + p / 64] >> (p % 64) & 1 == 1
    }

    /// The patterns possible at position `i`, in order.
    fn possible_at(&self, i: usize) -> impl Iterator<Item = usize> + Clone + '_ {
        let row = &self.possible[i * self.stride..(i + 1) * self.stride];
        row.iter().enumerate().flat_map(|(k, &word)| ones(word).map(move |p| 64 * k + p))
    }

    /// Draws one of the patterns possible at position `i` by weight.
    fn draw(&self, i: usize, weights: &[u32], rng: &mut Rng) -> usize {
        drawn(self.possible_at(i), weights, rng)
    }

    /// The first pattern possible at position `i` (0 where none is).
    fn first(&self, i: usize) -> u16 {
        self.possible_at(i).next().unwrap_or(0) as u16
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
            Support::Bits(_) => self.narrow(i, |p| other.allows(k, p), |word| word & other.possible[k]),
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
        if !matches!(self.support, Support::Bits(_)) {
            return (0..self.count).filter(|&q| !allowed(q)).try_for_each(|q| self.ban(i, q));
        }
        let (old, new) = (self.possible[i], word(self.possible[i]));
        if new != old {
            self.possible[i] = new;
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
        let (k, bit) = (i * self.stride + p / 64, 1 << (p % 64));
        if self.possible[k] & bit == 0 {
            return Ok(());
        }
        self.possible[k] &= !bit;
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
        let classes = rules.supporters.len();
        while let Some((i, p)) = self.stack.pop() {
            let (i, p) = (i as usize, p as usize);
            // Per side inside: the neighbour and the count of the class of
            // patterns `p` supports there.
            let around = self.neighbours(i);
            let sides: [Option<(usize, usize)>; 4] = std::array::from_fn(|d| {
                let (j, class) = (around[d]?, rules.class(d, p));
                (class != NO_CLASS).then_some((j, j * classes + class as usize))
            });
            // Every side's count first, so that their reads overlap; then
            // the bans side by side, in the order the counts were taken
            // in one by one (a ban changes no count).
            let emptied = sides.map(|side| side.is_some_and(|(_, k)| support[k].down()));
            for (d, side) in sides.into_iter().enumerate() {
                let Some((j, _)) = side else {
                    continue;
                };
                // The work counts an update per pattern of the list, as
                // when each pattern had its own count.
                let allowed = rules.allowed(d, p);
                *work += allowed.len() as u64;
                // The class's count reaches 0 when its last supporter is
                // banned (it never passes 0: each is banned once), and its
                // patterns still possible are banned in order.
                if !emptied[d] {
                    continue;
                }
                for &q in allowed {
                    let q = q as usize;
                    if self.allows(j, q) {
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
            let allowed = rules.around(self.possible[i], work);
            for (d, j) in self.neighbours(i).into_iter().enumerate() {
                let Some(j) = j else {
                    continue;
                };
                let old = self.possible[j];
                let new = old & allowed[d];
                if new == old {
                    continue;
                }
                self.possible[j] = new;
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
