//! Repair of a solved level whose walkable cells are cut into several
//! components, by local changes that keep every window one of the
//! sample's and every cell the start fixed (the border, `fixed`):
//!
//! - fill: a cut-off component becomes the border's character, when every
//!   window it touches is then still a pattern allowed there;
//! - join: the shortest way from it to another component, through
//!   blocking cells, is made walkable, and the positions around that way
//!   are solved again (`resolve`);
//! - erase: its cells are made blocking, the positions around solved again;
//! - redraw: the positions around it solved again, free.
//!
//! Solving again is done on a small wave over the positions to redo and a
//! ring of positions kept as they were (their chosen pattern alone), so
//! the rest of the level stays as it is and agrees with the new part.
//! The component worked on is the smallest (the first in row order on a
//! tie); a round that cannot change it ends the repair (`None`: the caller
//! solves again).

use super::patterns::Patterns;
use super::wfc::{Rules, Wave};
use crate::grid::{ByteSet, FLOOR};
use crate::rng::Rng;

/// Rounds (a component each) at most per solved level.
const ROUNDS: usize = 64;
/// The margins (in positions) tried around the cells to change, in order.
const JOIN_MARGINS: [usize; 3] = [0, 1, 2];
const ERASE_MARGINS: [usize; 2] = [1, 2];
const REDRAW_MARGINS: [usize; 3] = [2, 4, 6];

/// What a repair reads: the level's shape, the solver's rules and the
/// state every attempt starts from (border and fixed cells imposed).
pub struct Repair<'a> {
    pub patterns: &'a Patterns,
    pub rules: &'a Rules,
    pub start: &'a Wave,
    pub blocked: &'a ByteSet,
    pub border: u8,
    pub size: (usize, usize),
    /// The support updates past which no more is tried.
    pub budget: u64,
    /// The support updates past which no new level is solved to repair
    /// (at most `budget`).
    pub solves: u64,
}

/// A set of cells to change and how: each must become walkable (join) or
/// blocking (erase), or nothing is asked (redraw).
enum Ask {
    Walkable,
    Blocking,
    Free,
}

/// The walkable components of `cells`: each cell's (`u32::MAX` when
/// blocking) and their sizes.
pub fn components(cells: &[u8], (w, h): (usize, usize), blocked: &ByteSet) -> (Vec<u32>, Vec<usize>) {
    let open = |c: u8| !blocked[c as usize];
    let mut component = vec![u32::MAX; w * h];
    let mut sizes: Vec<usize> = Vec::new();
    let mut stack = Vec::new();
    for i in 0..w * h {
        if !open(cells[i]) || component[i] != u32::MAX {
            continue;
        }
        let id = sizes.len() as u32;
        let mut size = 0;
        component[i] = id;
        stack.push(i);
        while let Some(j) = stack.pop() {
            size += 1;
            for k in around(j, (w, h)).into_iter().flatten() {
                if open(cells[k]) && component[k] == u32::MAX {
                    component[k] = id;
                    stack.push(k);
                }
            }
        }
        sizes.push(size);
    }
    (component, sizes)
}

/// The four neighbours of cell `i`, those inside.
fn around(i: usize, (w, h): (usize, usize)) -> [Option<usize>; 4] {
    let (x, y) = (i % w, i / w);
    [
        (x > 0).then(|| i - 1),
        (x + 1 < w).then_some(i + 1),
        (y > 0).then(|| i - w),
        (y + 1 < h).then_some(i + w),
    ]
}

impl Repair<'_> {
    fn positions(&self) -> (usize, usize) {
        self.start.size()
    }

    fn output(&self, chosen: &[u16]) -> Vec<u8> {
        super::output(self.patterns, chosen, self.size, self.positions())
    }

    /// Repairs the level `chosen` makes into one walkable component with
    /// floor: its cells, or `None`.
    pub fn run(&self, chosen: &mut [u16], rng: &mut Rng, work: &mut u64) -> Option<Vec<u8>> {
        for _ in 0..ROUNDS {
            if *work > self.budget {
                return None;
            }
            // The round's read-out, components and search for a way, 4
            // units a cell as an attempt's (`attempt_work`): uncounted,
            // a large level's rounds ran a call past 1 s.
            let (w, h) = self.size;
            *work += 4 * (w * h) as u64;
            let cells = self.output(chosen);
            let (component, sizes) = components(&cells, self.size, self.blocked);
            if sizes.len() <= 1 {
                let floor = cells.iter().filter(|&&c| c == FLOOR).count();
                return (sizes.len() == 1 && floor >= 2).then_some(cells);
            }
            let target = (0..sizes.len()).min_by_key(|&c| (sizes[c], c))? as u32;
            let mine: Vec<usize> = (0..cells.len()).filter(|&i| component[i] == target).collect();
            if self.fill(&cells, &mine, chosen) {
                continue;
            }
            let way = self.way(&component, target);
            let tries = way.iter().flat_map(|way| JOIN_MARGINS.map(|m| (way.as_slice(), Ask::Walkable, m)));
            let tries = tries
                .chain(ERASE_MARGINS.map(|m| (mine.as_slice(), Ask::Blocking, m)))
                .chain(REDRAW_MARGINS.map(|m| (mine.as_slice(), Ask::Free, m)));
            let mut changed = false;
            for (cells, ask, margin) in tries {
                if *work > self.budget {
                    return None;
                }
                let ok = self.resolve(chosen, cells, &ask, margin, rng, work);
                if ok {
                    changed = true;
                    break;
                }
            }
            if !changed {
                return None;
            }
        }
        None
    }

    /// The windows touching `mine` once it is the border's character: each
    /// position's new pattern when every one is a pattern the start allows
    /// there (which keeps the border and the fixed cells), written to
    /// `chosen`.
    fn fill(&self, cells: &[u8], mine: &[usize], chosen: &mut [u16]) -> bool {
        let (w, _) = self.size;
        let (pw, ph) = self.positions();
        let n = self.patterns.n;
        let mut filled = cells.to_vec();
        for &i in mine {
            filled[i] = self.border;
        }
        let mut redone: Vec<(usize, u16)> = Vec::new();
        let mut seen = vec![false; pw * ph];
        let mut window = vec![0u8; n * n];
        for &i in mine {
            let (x, y) = (i % w, i / w);
            for py in y.saturating_sub(n - 1)..=y.min(ph - 1) {
                for px in x.saturating_sub(n - 1)..=x.min(pw - 1) {
                    let k = py * pw + px;
                    if std::mem::replace(&mut seen[k], true) {
                        continue;
                    }
                    for dy in 0..n {
                        window[dy * n..][..n].copy_from_slice(&filled[(py + dy) * w + px..][..n]);
                    }
                    match self.patterns.find(&window) {
                        Some(p) if self.start.allows(k, p) => redone.push((k, p as u16)),
                        _ => return false,
                    }
                }
            }
        }
        for (k, p) in redone {
            chosen[k] = p;
        }
        true
    }

    /// The shortest way (4 neighbours, not through the level's outer ring)
    /// from component `from` to a cell of another: the cells between,
    /// the first way found in row order of the cells of `from`.
    fn way(&self, component: &[u32], from: u32) -> Option<Vec<usize>> {
        let (w, h) = self.size;
        let inner = |i: usize| {
            let (x, y) = (i % w, i / w);
            x > 0 && y > 0 && x + 1 < w && y + 1 < h
        };
        let mut parent = vec![usize::MAX; w * h];
        let mut queue = std::collections::VecDeque::new();
        for i in (0..w * h).filter(|&i| component[i] == from) {
            parent[i] = i;
            queue.push_back(i);
        }
        while let Some(i) = queue.pop_front() {
            for j in around(i, (w, h)).into_iter().flatten() {
                if parent[j] != usize::MAX || !inner(j) {
                    continue;
                }
                parent[j] = i;
                if component[j] != u32::MAX {
                    let mut way = Vec::new();
                    let mut k = i;
                    while component[k] != from {
                        way.push(k);
                        k = parent[k];
                    }
                    return Some(way);
                }
                queue.push_back(j);
            }
        }
        None
    }

    /// Solves again the positions covering `cells`, and those within
    /// `margin` of them, the cells made as `ask` says, the positions
    /// around kept as `chosen` has them; writes the new patterns to
    /// `chosen` when that solves.
    fn resolve(
        &self,
        chosen: &mut [u16],
        cells: &[usize],
        ask: &Ask,
        margin: usize,
        rng: &mut Rng,
        work: &mut u64,
    ) -> bool {
        let (w, _) = self.size;
        let (pw, ph) = self.positions();
        let n = self.patterns.n;
        let count = self.patterns.len();
        // The positions to redo, and their box with one more all round.
        let mut redo = vec![false; pw * ph];
        let (mut x0, mut y0, mut x1, mut y1) = (pw, ph, 0, 0);
        for &i in cells {
            let (x, y) = (i % w, i / w);
            let (lx, ly) = ((x + 1).saturating_sub(n + margin), (y + 1).saturating_sub(n + margin));
            let (hx, hy) = ((x + margin).min(pw - 1), (y + margin).min(ph - 1));
            for py in ly..=hy {
                redo[py * pw + lx..=py * pw + hx].fill(true);
            }
            (x0, y0, x1, y1) = (x0.min(lx), y0.min(ly), x1.max(hx), y1.max(hy));
        }
        let (bx, by) = (x0.saturating_sub(1), y0.saturating_sub(1));
        let (bw, bh) = ((x1 + 1).min(pw - 1) + 1 - bx, (y1 + 1).min(ph - 1) + 1 - by);
        let mut wave = Wave::new(self.rules, bw, bh);
        for sy in 0..bh {
            for sx in 0..bw {
                let (k, s) = ((by + sy) * pw + bx + sx, sy * bw + sx);
                for p in 0..count {
                    let keep = match redo[k] {
                        true => self.start.allows(k, p),
                        false => p == chosen[k] as usize,
                    };
                    if !keep && wave.ban(s, p).is_err() {
                        return false;
                    }
                }
            }
        }
        if !self.ask(&mut wave, cells, ask, (bx, by)) || wave.settle(self.rules, work).is_err() {
            return false;
        }
        let Ok(solved) = wave.solve(self.rules, &self.patterns.weights, rng, work) else {
            return false;
        };
        // The same patterns again (the region forced by what is kept):
        // nothing repaired, the next try has a larger margin.
        let same = (0..bh).all(|sy| (0..bw).all(|sx| chosen[(by + sy) * pw + bx + sx] == solved[sy * bw + sx]));
        if same {
            return false;
        }
        for sy in 0..bh {
            for sx in 0..bw {
                chosen[(by + sy) * pw + bx + sx] = solved[sy * bw + sx];
            }
        }
        true
    }

    /// Bans, at every position of the small wave covering each of `cells`,
    /// the patterns whose character there is not as `ask` says.
    fn ask(&self, wave: &mut Wave, cells: &[usize], ask: &Ask, (bx, by): (usize, usize)) -> bool {
        let wanted_blocked = match ask {
            Ask::Walkable => false,
            Ask::Blocking => true,
            Ask::Free => return true,
        };
        let (w, _) = self.size;
        let (bw, bh) = wave.size();
        let n = self.patterns.n;
        for &i in cells {
            let (x, y) = (i % w, i / w);
            for sy in (y + 1).saturating_sub(n).max(by) - by..=(y - by).min(bh - 1) {
                for sx in (x + 1).saturating_sub(n).max(bx) - bx..=(x - bx).min(bw - 1) {
                    let (dx, dy) = (x - bx - sx, y - by - sy);
                    for p in 0..self.patterns.len() {
                        let c = self.patterns.at(p, dx, dy);
                        if self.blocked[c as usize] != wanted_blocked && wave.ban(sy * bw + sx, p).is_err() {
                            return false;
                        }
                    }
                }
            }
        }
        true
    }
}
