//! The order in which actors take turns (`map.scheduler`): rot.js's Speed
//! scheduler with exact times. An actor added at time `t` with speed `s`
//! acts at `t + 1/s`, then every `1/s`; `delay` puts its next turn later.
//! Times are integers counted in `1/UNIT` of a turn, so that no sum ever
//! drifts: every speed or delay that is a fraction whose denominator
//! divides `UNIT` (every integer up to 40 and its fractions, 50, 100, 150,
//! 1000, 1.5, 0.8, 1/3, ...) is exact, and any other is rounded to the
//! nearest unit, far below a double's precision. Ties go to the actor
//! added first. The queue is a binary heap over slots (`next` O(log n));
//! which Lua value stands in each slot is the binding's business.

/// A turn's share the times count in: 2^10 3^6 5^5 7^2 11 13 17 19 23 29
/// 31 37, about 2^71.8 (so that 2^53 turns fit a `u128` with room to
/// spare), divisible by every integer up to 40.
pub const UNIT: u128 = 1024 * 729 * 3125 * 49 * 11 * 13 * 17 * 19 * 23 * 29 * 31 * 37;

/// The latest time, in turns: 2^53, where LuaJIT's numbers stop counting
/// every integer.
pub const MAX_TURNS: u128 = 1 << 53;
const MAX_TIME: u128 = MAX_TURNS * UNIT;

/// Speeds from 2^-20 to 2^20.
pub const MIN_SPEED: f64 = 1.0 / (1u64 << 20) as f64;
pub const MAX_SPEED: f64 = (1u64 << 20) as f64;

/// The most actors one scheduler holds: its state is saved and loaded
/// within a second at this size (docs/hardening.md, Time).
pub const MAX_ACTORS: usize = 1 << 20;

/// The most bytes a scheduler holds per actor: its entry, its node in
/// the heap and a free slot's number.
pub const BYTES_PER_ACTOR: usize =
    std::mem::size_of::<Entry>() + std::mem::size_of::<Node>() + std::mem::size_of::<u32>();

/// One actor's slot: its period and where its node is.
#[derive(Clone, Copy, Debug)]
struct Entry {
    /// Time between its turns: `UNIT / speed`.
    period: u128,
    /// Its node's index in the heap; `VACANT` for a free slot.
    at: u32,
}

/// An actor in the heap, its key inline: its next turn, and when it was
/// added among all adds (the tie rule).
#[derive(Clone, Copy, Debug)]
struct Node {
    time: u128,
    order: u64,
    slot: u32,
}

impl Node {
    fn before(&self, other: &Node) -> bool {
        (self.time, self.order) < (other.time, other.order)
    }
}

const VACANT: u32 = u32::MAX;

#[derive(Clone, Debug, Default)]
pub struct Scheduler {
    now: u128,
    next_order: u64,
    /// By slot (slot `i + 1` at `i`).
    entries: Vec<Entry>,
    free: Vec<u32>,
    /// A min-heap by (time, order).
    heap: Vec<Node>,
}

impl Scheduler {
    pub fn new() -> Scheduler {
        Scheduler::default()
    }

    pub fn len(&self) -> usize {
        self.heap.len()
    }

    pub fn is_empty(&self) -> bool {
        self.heap.is_empty()
    }

    /// The current time (the last `next`'s), in units.
    pub fn now(&self) -> u128 {
        self.now
    }

    /// The slot `add` would give.
    pub fn next_slot(&self) -> u32 {
        match self.free.last() {
            Some(&s) => s,
            None => self.entries.len() as u32 + 1,
        }
    }

    /// Whether `slot` holds an actor.
    pub fn holds(&self, slot: u32) -> bool {
        slot >= 1
            && (slot as usize) <= self.entries.len()
            && self.entries[slot as usize - 1].at != VACANT
    }

    /// Checks that an actor with this period can be added now; the bytes
    /// the scheduler will then hold, if it must grow.
    pub fn can_add(&self, period: u128) -> Result<Option<usize>, String> {
        if self.len() >= MAX_ACTORS {
            return Err(format!(
                "the scheduler holds {MAX_ACTORS} actors, the most it takes"
            ));
        }
        later(self.now, period)?;
        let grows = self.free.is_empty() && self.entries.len() == self.entries.capacity();
        Ok(grows.then(|| bound(self.entries.len() + 1)))
    }

    /// Adds an actor whose turns come every `period` units, first at
    /// now + period; its slot (`next_slot`). `can_add` must have said yes.
    pub fn add(&mut self, period: u128) -> u32 {
        self.insert(self.now + period, period)
    }

    /// Puts an actor in the queue at `time`, in the next slot.
    fn insert(&mut self, time: u128, period: u128) -> u32 {
        let order = self.next_order;
        self.next_order += 1;
        let slot = self.next_slot();
        let entry = Entry {
            period,
            at: self.heap.len() as u32,
        };
        if self.free.pop().is_some() {
            self.entries[slot as usize - 1] = entry;
        } else {
            self.entries.push(entry);
        }
        self.heap.push(Node { time, order, slot });
        self.sift_up(self.heap.len() - 1);
        slot
    }

    /// The actor whose turn it is and its time; its next turn is then a
    /// period later. None when no actor is left; an error when that next
    /// turn would pass `MAX_TURNS` (nothing changes then).
    pub fn next_turn(&mut self) -> Result<Option<(u32, u128)>, String> {
        let Some(top) = self.heap.first_mut() else {
            return Ok(None);
        };
        let (slot, time) = (top.slot, top.time);
        top.time = later(time, self.entries[slot as usize - 1].period)?;
        self.now = time;
        self.sift_down(0);
        Ok(Some((slot, time)))
    }

    /// The actor in `slot` (which holds one) leaves; its slot is free.
    pub fn remove(&mut self, slot: u32) {
        let at = self.entries[slot as usize - 1].at as usize;
        let last = self
            .heap
            .pop()
            .expect("a slot that holds an actor is in the heap");
        self.entries[slot as usize - 1].at = VACANT;
        self.free.push(slot);
        if at < self.heap.len() {
            self.heap[at] = last;
            self.entries[last.slot as usize - 1].at = at as u32;
            self.sift_down(at);
            let at = self.entries[last.slot as usize - 1].at as usize;
            self.sift_up(at);
        }
    }

    /// The next turn of the actor in `slot` comes `by` units later.
    pub fn delay(&mut self, slot: u32, by: u128) -> Result<(), String> {
        let at = self.entries[slot as usize - 1].at as usize;
        let node = &mut self.heap[at];
        node.time = later(node.time, by)?;
        self.sift_down(at);
        Ok(())
    }

    /// The actor in `slot`'s next turn and period.
    pub fn entry(&self, slot: u32) -> (u128, u128) {
        let e = &self.entries[slot as usize - 1];
        (self.heap[e.at as usize].time, e.period)
    }

    /// The slots of the actors, in the order they were added.
    pub fn by_order(&self) -> Vec<u32> {
        let mut nodes = self.heap.clone();
        nodes.sort_unstable_by_key(|n| n.order);
        nodes.iter().map(|n| n.slot).collect()
    }

    /// The scheduler as text: `mapsched1:`, the time, then each actor in
    /// the order added (`period/time`, in units, decimal), then a checksum.
    pub fn save(&self) -> String {
        use std::fmt::Write as _;
        // An actor is at most 1 + 39 + 1 + 39 bytes: made at its size.
        let mut text = String::with_capacity(60 + 80 * self.len());
        let _ = write!(text, "mapsched1:{}", self.now);
        for slot in self.by_order() {
            let (time, period) = self.entry(slot);
            let _ = write!(text, ";{period}/{time}");
        }
        let check = checksum(text.as_bytes());
        let _ = write!(text, ":{check:08x}");
        text
    }

    /// How many actors a `save` text names, checked only for its shape, so
    /// that a caller can count what it must provide before loading it.
    pub fn count_saved(text: &[u8]) -> usize {
        text.iter().filter(|&&b| b == b';').count()
    }

    /// The scheduler a `save` text holds, its actors in slots 1, 2, ... in
    /// the order they were added; or why the text is not one.
    pub fn load(text: &[u8]) -> Result<Scheduler, String> {
        let damaged = |why: &str| Err(format!("state is not a saved scheduler ({why})"));
        let Ok(text) = std::str::from_utf8(text) else {
            return damaged("not text");
        };
        let Some(body) = text.strip_prefix("mapsched1:") else {
            if text.starts_with("mapsched") {
                return damaged("a version this module does not read");
            }
            return damaged("no mapsched1: prefix");
        };
        let Some((fields, check)) = body.rsplit_once(':') else {
            return damaged("no checksum");
        };
        let signed = &text[..text.len() - check.len() - 1];
        // Only what `save` writes, so that a loaded state saves back to the
        // same text: 8 lowercase hex digits (not `+` and 7, nor upper case),
        // decimals without a leading zero (found by the `states` fuzz target).
        let lower_hex = |b: u8| b.is_ascii_digit() || (b'a'..=b'f').contains(&b);
        if check.len() != 8
            || !check.bytes().all(lower_hex)
            || u32::from_str_radix(check, 16).ok() != Some(checksum(signed.as_bytes()))
        {
            return damaged("checksum mismatch: damaged");
        }
        let number = |s: &str| -> Option<u128> {
            let canonical = s == "0" || !s.starts_with('0');
            (!s.is_empty() && s.len() <= 39 && canonical && s.bytes().all(|b| b.is_ascii_digit()))
                .then(|| s.parse().ok())
                .flatten()
        };
        let mut parts = fields.split(';');
        let Some(now) = parts.next().and_then(number).filter(|&t| t <= MAX_TIME) else {
            return damaged("a bad time");
        };
        let mut s = Scheduler {
            now,
            ..Scheduler::default()
        };
        for (i, part) in parts.enumerate() {
            let pair = part.split_once('/');
            let (Some(period), Some(time)) = (
                pair.and_then(|(p, _)| number(p)),
                pair.and_then(|(_, t)| number(t)),
            ) else {
                return damaged(&format!("actor {} is not period/time", i + 1));
            };
            if !(min_period()..=max_period()).contains(&period) || time < now || time > MAX_TIME {
                return damaged(&format!("actor {} is out of range", i + 1));
            }
            if s.len() >= MAX_ACTORS {
                return damaged("too many actors");
            }
            s.insert(time, period);
        }
        Ok(s)
    }

    /// Moves the node at `at` up to its place.
    fn sift_up(&mut self, at: usize) {
        self.rise(self.heap[at], at, 0);
    }

    /// Puts `node` at `hole` or above it, no higher than `top`: parents
    /// after it come down one by one, and it is written once.
    fn rise(&mut self, node: Node, mut hole: usize, top: usize) {
        while hole > top {
            let parent = (hole - 1) / 2;
            if !node.before(&self.heap[parent]) {
                break;
            }
            self.put(hole, self.heap[parent]);
            hole = parent;
        }
        self.put(hole, node);
    }

    /// Moves the node at `at` down to its place: Floyd's way, as a node
    /// whose time grew by its period mostly belongs near the bottom. The
    /// hole goes down along the earlier child to a leaf (one comparison a
    /// level), then the node goes up from there to its place.
    fn sift_down(&mut self, at: usize) {
        let n = self.heap.len();
        let node = self.heap[at];
        let mut hole = at;
        loop {
            let left = 2 * hole + 1;
            if left >= n {
                break;
            }
            let right = left + 1;
            let child = left + usize::from(right < n && self.heap[right].before(&self.heap[left]));
            self.put(hole, self.heap[child]);
            hole = child;
        }
        self.rise(node, hole, at);
    }

    /// Writes `node` at `at` in the heap, and where it is in its entry.
    fn put(&mut self, at: usize, node: Node) {
        self.heap[at] = node;
        self.entries[node.slot as usize - 1].at = at as u32;
    }
}

/// `time + by`, or the error of passing `MAX_TURNS`.
fn later(time: u128, by: u128) -> Result<u128, String> {
    match time.checked_add(by) {
        Some(t) if t <= MAX_TIME => Ok(t),
        _ => Err(format!("the time would pass {MAX_TURNS} turns")),
    }
}

fn min_period() -> u128 {
    UNIT >> 20
}

fn max_period() -> u128 {
    UNIT << 20
}

/// FNV-1a, 32 bits.
fn checksum(bytes: &[u8]) -> u32 {
    bytes.iter().fold(0x811c_9dc5u32, |h, &b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    })
}

/// A time in units as a number of turns: the double nearest to it (ties
/// to even), so that a time of 1/7 of a turn is the double `1 / 7` is.
pub fn turns(units: u128) -> f64 {
    ratio(units, UNIT).0
}

/// A time in units as a whole number of turns, if it is one.
pub fn whole_turns(units: u128) -> Option<u64> {
    match ratio(units, UNIT) {
        (x, true) if x.fract() == 0.0 => Some(x as u64),
        _ => None,
    }
}

/// `n / d` (`0 < d < 2^126`, the quotient below 2^64) correctly rounded
/// to a double, and whether it is exact: `n` shifted to 127 bits is
/// divided once, which leaves at least 55 bits of quotient for a divisor
/// such as `UNIT` (long division adds more for a larger one); they are
/// rounded to 53 (to even), the remainder and the bits below deciding.
fn ratio(n: u128, d: u128) -> (f64, bool) {
    if n == 0 {
        return (0.0, true);
    }
    let mut shift = (n.leading_zeros() - 1) as i32;
    let mut q = (n << shift) / d;
    let mut r = (n << shift) - q * d;
    // Fewer than 54 bits (a divisor above 2^72): long division for more.
    while q.leading_zeros() > 128 - 54 {
        r <<= 1;
        q = q << 1 | u128::from(r >= d);
        if r >= d {
            r -= d;
        }
        shift += 1;
    }
    // q's value is q * 2^-shift; keep its top 54 bits (53 and a round bit).
    let drop = 128 - q.leading_zeros() - 54;
    let kept = q >> drop;
    let sticky = r != 0 || q & ((1 << drop) - 1) != 0;
    let (round, mut mantissa) = (kept & 1 == 1, (kept >> 1) as u64);
    let mut e = drop as i32 + 1 - shift;
    if round && (sticky || mantissa & 1 == 1) {
        mantissa += 1;
        if mantissa == 1 << 53 {
            mantissa >>= 1;
            e += 1;
        }
    }
    // mantissa in [2^52, 2^53): the value is mantissa * 2^e, normal.
    let exponent = (e + 52 + 1023) as u64;
    let x = f64::from_bits(exponent << 52 | (mantissa & ((1 << 52) - 1)));
    (x, !round && !sticky)
}

/// `UNIT * x` (or `UNIT / x` when `invert`) for a positive finite `x`, in
/// units: `x` is taken as the simplest fraction that rounds to it as a
/// double (0.8 is 4/5, 1/3 is 1/3), so that every such fraction whose
/// denominator divides `UNIT` is exact; the product rounded to the nearest
/// unit. None when it does not fit.
pub fn units(x: f64, invert: bool) -> Option<u128> {
    let (p, q) = simplest(x).unwrap_or_else(|| {
        // Too small or too large for the fraction: the double itself.
        let (m, e) = super::random::decompose(x);
        if e >= 0 {
            (u128::from(m) << e.min(60), 1)
        } else {
            (u128::from(m), 1u128 << (-e).min(120))
        }
    });
    let (num, den) = if invert { (q, p) } else { (p, q) };
    let scaled = UNIT.checked_mul(num)?;
    Some(scaled / den + u128::from(scaled % den >= den - scaled % den))
}

/// The fraction with the smallest denominator strictly inside the interval
/// of reals that round to `x` (positive, finite), as (numerator,
/// denominator); None when the interval's ends do not fit 128 bits.
pub fn simplest(x: f64) -> Option<(u128, u128)> {
    let (m, e) = super::random::decompose(x);
    if !(-120..=60).contains(&e) {
        return None;
    }
    // The neighbours are half an ulp away, a quarter below a power of two.
    let (m, e) = (u128::from(m) * 4, e - 2);
    let below = if m == 4 << 52 { m - 1 } else { m - 2 };
    let above = m + 2;
    let (lo, hi) = if e >= 0 {
        ((below << e, 1), (above << e, 1))
    } else {
        ((below, 1u128 << -e), (above, 1u128 << -e))
    };
    simplest_between(lo, hi)
}

/// The simplest fraction strictly between `a/b` and `c/d` (`0 <= a/b <
/// c/d`, `d` may be 0 for infinity): continued fractions.
fn simplest_between((a, b): (u128, u128), (c, d): (u128, u128)) -> Option<(u128, u128)> {
    let whole = a / b;
    // The least integer above a/b, if it is below c/d.
    let next = whole + 1;
    if d == 0 || next.checked_mul(d)? < c {
        return Some((next, 1));
    }
    // Both ends within [whole, whole + 1]: the fractional parts, inverted.
    let (ra, rc) = (a - whole * b, c - whole * d);
    // 1 / (the simplest between d/rc and b/ra), ra = 0 making b/ra infinite.
    let (p, q) = simplest_between((d, rc), (b, ra))?;
    Some((whole.checked_mul(p)?.checked_add(q)?, p))
}

/// The memory a scheduler of `actors` actors may use
/// (`map.scheduler(state, actors)`, or one grown by `add` to as many): each
/// actor's entry, heap node and free slot; a vector's capacity is at most
/// twice its length, and while it grows it holds the old block too
/// (measured: at most 140 B an actor, 68 of them held).
pub fn bound(actors: usize) -> usize {
    4 * actors * BYTES_PER_ACTOR + crate::memory::FIXED
}

/// The memory a scheduler's `state()` may use: at most 80 bytes an actor,
/// and the order of its actors (its heap's nodes copied and sorted, 32
/// bytes each, then a slot each).
pub fn bound_state(actors: usize) -> usize {
    (80 + 40) * actors + crate::memory::FIXED
}

#[cfg(test)]
mod tests;
