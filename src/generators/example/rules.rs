//! Which patterns may sit next to which, read once from the patterns for
//! every solve: the lists the support counts walk, their classes (a count
//! a class) and, where the patterns fit in 64, the same as bits.

use super::patterns::Patterns;

/// Right, down, left, up.
const DIRS: [(isize, isize); 4] = [(1, 0), (0, 1), (-1, 0), (0, -1)];

/// No class: `allowed(d, p)` is empty (a pattern of the sample's edge
/// that nothing may lie beside on that side).
pub const NO_CLASS: u16 = u16::MAX;

/// Which patterns may sit next to which: `allowed(d, p)` lists those that
/// may lie one step in direction `d` of `p`.
///
/// Two patterns agree where their windows overlap, so `q` may lie in
/// direction `d` of `p` exactly when `q`'s cells on that overlap are
/// `p`'s: the lists of one direction are each pattern's overlap read off,
/// and two of them are the same list or share no pattern. Those lists are
/// the direction's classes, and a position's support count is the same
/// for every pattern of one class (each ban takes one from all of them at
/// once), so the counts are kept a class at a time (`class`).
pub struct Rules {
    starts: Vec<u32>,
    list: Vec<u16>,
    pub count: usize,
    /// Per direction `d` and pattern `p` (`d * count + p`): the class of
    /// `allowed(d, p)`, numbered over the four directions, or `NO_CLASS`.
    classes: Vec<u16>,
    /// Per class: how many patterns' lists it is, its support count at
    /// the start.
    pub supporters: Vec<u16>,
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
            classes: vec![NO_CLASS; 4 * count],
            supporters: Vec::new(),
            masks: Vec::new(),
            unsupported: [0; 4],
        };
        rules.read_classes();
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

    /// Numbers the classes of each direction's lists: a list's class is
    /// the one its first pattern was met in (the lists of a class are
    /// the same: `tests::the_lists_are_classes`).
    fn read_classes(&mut self) {
        let count = self.count;
        for d in 0..4 {
            let mut class_of = vec![NO_CLASS; count];
            for p in 0..count {
                let Some(&first) = self.allowed(d, p).first() else {
                    continue;
                };
                let class = match class_of[first as usize] {
                    NO_CLASS => {
                        let class = self.supporters.len() as u16;
                        self.supporters.push(0);
                        for &q in self.allowed(d, p) {
                            class_of[q as usize] = class;
                        }
                        class
                    }
                    class => class,
                };
                self.classes[d * count + p] = class;
                self.supporters[class as usize] += 1;
            }
        }
    }

    /// The class of `allowed(d, p)` (`NO_CLASS` where it is empty).
    pub fn class(&self, d: usize, p: usize) -> u16 {
        self.classes[d * self.count + p]
    }

    /// The patterns (as bits) that those of `here` allow one step in each
    /// direction of `DIRS`, with those nothing supports from that side;
    /// `work` counts a unit per pattern read.
    pub fn around(&self, here: u64, work: &mut u64) -> [u64; 4] {
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

    pub fn allowed(&self, d: usize, p: usize) -> &[u16] {
        let i = d * self.count + p;
        &self.list[self.starts[i] as usize..self.starts[i + 1] as usize]
    }
}

/// The first `count` (at most 64) patterns as bits.
pub fn every(count: usize) -> u64 {
    u64::MAX >> (64 - count)
}
