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
use super::Problem;
use super::rules::Rules;
use super::wfc::{Propagation, Wave, UNDECIDED};
use crate::grid::{ByteSet, FLOOR};
use crate::rng::Rng;

/// Rounds (a component each) at most per solved level: `ROUNDS`, or one
/// per `POSITIONS_A_ROUND` positions on a larger level, whose parts are
/// as many more (the maze at 96x64 took about 140 rounds a level, so 64
/// rounds left nearly every level unrepaired and solved new ones).
const ROUNDS: usize = 64;
const POSITIONS_A_ROUND: usize = 16;
/// The margins (in positions) tried around the cells to change, in order.
const JOIN_MARGINS: [usize; 3] = [0, 1, 2];
const ERASE_MARGINS: [usize; 2] = [1, 2];
const REDRAW_MARGINS: [usize; 3] = [2, 4, 6];

/// What a repair reads: the level's shape, the solver's rules and the
/// state every attempt starts from (border and fixed cells imposed).
pub struct Repair<'a> {
    pub patterns: &'a Patterns,
    pub rules: &'a Rules,
    /// Propagating as fast as it can (`Propagation::Fastest`).
    pub start: Wave,
    pub blocked: &'a ByteSet,
    /// `by_cell`'s sets, for `ask`.
    pub by_cell: [Vec<Vec<u64>>; 2],
    pub border: u8,
    pub size: (usize, usize),
    /// The support updates past which no more is tried.
    pub budget: u64,
    /// The support updates past which no new level is solved to repair
    /// (at most `budget`).
    pub solves: u64,
    /// The support updates past which a level cut off is not repaired
    /// further (at most `budget`).
    pub repairs: u64,
}

/// The repair of levels of `size` solved from `start`, starting after
/// `work`: past `MAX_REPAIR_UPDATES` or `solving` more than `work` it
/// solves no new level, and past `MAX_REPAIR_UPDATES` or `repairing` more
/// than `work` it tries nothing more.
pub fn repair_of<'a>(
    problem: &'a Problem,
    rules: &'a Rules,
    start: Wave,
    size: (usize, usize),
    (work, solving, repairing): (u64, u64, u64),
) -> Repair<'a> {
    let past = |allowance: u64| super::MAX_REPAIR_UPDATES.max(work.saturating_add(allowance));
    Repair {
        patterns: &problem.patterns,
        rules,
        start: start.into_as(rules, Propagation::Fastest),
        blocked: &problem.blocked,
        by_cell: by_cell(&problem.patterns, &problem.blocked),
        border: problem.read.border,
        size,
        budget: past(solving.max(repairing)),
        solves: past(solving),
        repairs: past(repairing),
    }
}

/// Where solving a box met a contradiction: before any draw (the same
/// again whatever the rng), or solving.
pub enum Failed {
    Settling,
    Solving,
}

/// A set of cells to change and how: each must become walkable (join) or
/// blocking (erase), or nothing is asked (redraw).
enum Ask {
    Walkable,
    Blocking,
    Free,
}

/// Per cell of a window (row by row): the patterns whose character there
/// is walkable (`[0]`) or blocking (`[1]`), a bit each (64 a word).
pub fn by_cell(patterns: &Patterns, blocked: &ByteSet) -> [Vec<Vec<u64>>; 2] {
    let n = patterns.n;
    let sets = |blocking: bool| -> Vec<Vec<u64>> {
        (0..n * n)
            .map(|cell| {
                let mut set = vec![0u64; patterns.len() / 64 + 1];
                for p in 0..patterns.len() {
                    if blocked[patterns.at(p, cell % n, cell / n) as usize] == blocking {
                        set[p / 64] |= 1 << (p % 64);
                    }
                }
                set
            })
            .collect()
    };
    [sets(false), sets(true)]
}

/// The walkable components of `cells`: each cell's (`u32::MAX` when
/// blocking), and their sizes and first cells (in row order, as their
/// numbers).
pub fn components(cells: &[u8], (w, h): (usize, usize), blocked: &ByteSet) -> (Vec<u32>, Vec<usize>, Vec<usize>) {
    // Unnumbered walkable cells are `NEW`, blocking ones `u32::MAX`.
    const NEW: u32 = u32::MAX - 1;
    let mut component: Vec<u32> = cells.iter().map(|&c| if blocked[c as usize] { u32::MAX } else { NEW }).collect();
    let (mut sizes, mut firsts) = (Vec::new(), Vec::new());
    // Cells as (x, y): no division per cell taken.
    let mut stack: Vec<(usize, usize)> = Vec::new();
    for i in 0..w * h {
        if component[i] != NEW {
            continue;
        }
        let id = sizes.len() as u32;
        let mut size = 0;
        component[i] = id;
        stack.push((i % w, i / w));
        while let Some((x, y)) = stack.pop() {
            size += 1;
            let j = y * w + x;
            let beside = [
                (x > 0, j.wrapping_sub(1), x.wrapping_sub(1), y),
                (x + 1 < w, j + 1, x + 1, y),
                (y > 0, j.wrapping_sub(w), x, y.wrapping_sub(1)),
                (y + 1 < h, j + w, x, y + 1),
            ];
            for (inside, k, kx, ky) in beside {
                if inside && component[k] == NEW {
                    component[k] = id;
                    stack.push((kx, ky));
                }
            }
        }
        sizes.push(size);
        firsts.push(i);
    }
    (component, sizes, firsts)
}

/// The cells of component `id`, whose first cell is `first`, in row order.
fn cells_of(component: &[u32], id: u32, first: usize, size: (usize, usize)) -> Vec<usize> {
    let mut cells = vec![first];
    let mut seen = std::collections::HashSet::from([first]);
    let mut k = 0;
    while let Some(&i) = cells.get(k) {
        k += 1;
        for j in around(i, size).into_iter().flatten() {
            if component[j] == id && seen.insert(j) {
                cells.push(j);
            }
        }
    }
    cells.sort_unstable();
    cells
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
    pub fn run(&self, chosen: &mut [u16], limit: u64, rng: &mut Rng, work: &mut u64) -> Option<Vec<u8>> {
        let (pw, ph) = self.positions();
        for _ in 0..ROUNDS.max(pw * ph / POSITIONS_A_ROUND) {
            if *work > limit {
                return None;
            }
            // The round's read-out, components and search for a way, 4
            // units a cell as an attempt's (`attempt_work`): uncounted,
            // a large level's rounds ran a call past 1 s.
            let (w, h) = self.size;
            *work += 4 * (w * h) as u64;
            let cells = self.output(chosen);
            let (component, sizes, firsts) = components(&cells, self.size, self.blocked);
            if sizes.len() <= 1 {
                let floor = cells.iter().filter(|&&c| c == FLOOR).count();
                return (sizes.len() == 1 && floor >= 2).then_some(cells);
            }
            let target = (0..sizes.len()).min_by_key(|&c| (sizes[c], c))? as u32;
            let mine = cells_of(&component, target, firsts[target as usize], self.size);
            if self.fill(&cells, &mine, chosen) {
                continue;
            }
            let way = self.way(&component, &mine);
            let tries = way.iter().flat_map(|way| JOIN_MARGINS.map(|m| (way.as_slice(), Ask::Walkable, m)));
            let tries = tries
                .chain(ERASE_MARGINS.map(|m| (mine.as_slice(), Ask::Blocking, m)))
                .chain(REDRAW_MARGINS.map(|m| (mine.as_slice(), Ask::Free, m)));
            let mut changed = false;
            for (cells, ask, margin) in tries {
                if *work > limit {
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
    /// from the component whose cells are `mine` (in row order) to a cell
    /// of another: the cells between, the first way found.
    fn way(&self, component: &[u32], mine: &[usize]) -> Option<Vec<usize>> {
        let from = component[mine[0]];
        let (w, h) = self.size;
        let inner = |i: usize| {
            let (x, y) = (i % w, i / w);
            x > 0 && y > 0 && x + 1 < w && y + 1 < h
        };
        let mut parent = vec![usize::MAX; w * h];
        let mut queue = std::collections::VecDeque::new();
        for &i in mine {
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
        // The positions to redo (those within `margin` of a window
        // covering a cell), and their box with one more all round.
        let reach = |i: usize| {
            let (x, y) = (i % w, i / w);
            let (lx, ly) = ((x + 1).saturating_sub(n + margin), (y + 1).saturating_sub(n + margin));
            (lx, ly, (x + margin).min(pw - 1), (y + margin).min(ph - 1))
        };
        let (mut x0, mut y0, mut x1, mut y1) = (pw, ph, 0, 0);
        for &i in cells {
            let (lx, ly, hx, hy) = reach(i);
            (x0, y0, x1, y1) = (x0.min(lx), y0.min(ly), x1.max(hx), y1.max(hy));
        }
        let (bx, by) = (x0.saturating_sub(1), y0.saturating_sub(1));
        let (bw, bh) = ((x1 + 1).min(pw - 1) + 1 - bx, (y1 + 1).min(ph - 1) + 1 - by);
        let mut redo = vec![false; bw * bh];
        for &i in cells {
            let (lx, ly, hx, hy) = reach(i);
            for sy in ly - by..=hy - by {
                redo[sy * bw + lx - bx..=sy * bw + hx - bx].fill(true);
            }
        }
        let ask = |wave: &mut Wave| self.ask(wave, cells, ask, (bx, by));
        let Ok(solved) = self.solve_box(chosen, (bx, by, bw, bh), &redo, ask, rng, work) else {
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

    /// Solves a box of positions (its corner and size) on a small wave:
    /// those `redo` marks (box row by row) from the start's patterns, the
    /// others kept as `chosen` has them (or from the start's where
    /// `chosen` has none yet: `UNDECIDED`), once `ask` has limited the
    /// wave. The box's patterns, or where a contradiction came.
    pub fn solve_box(
        &self,
        chosen: &[u16],
        (bx, by, bw, bh): (usize, usize, usize, usize),
        redo: &[bool],
        ask: impl FnOnce(&mut Wave) -> bool,
        rng: &mut Rng,
        work: &mut u64,
    ) -> Result<Vec<u16>, Failed> {
        let (pw, _) = self.positions();
        let mut wave = Wave::new_as(self.rules, bw, bh, Propagation::Fastest);
        for sy in 0..bh {
            for sx in 0..bw {
                let (k, s) = ((by + sy) * pw + bx + sx, sy * bw + sx);
                let kept = match redo[s] || chosen[k] == UNDECIDED {
                    true => wave.limit_as(s, &self.start, k),
                    false => wave.keep(s, chosen[k] as usize),
                };
                kept.map_err(|_| Failed::Settling)?;
            }
        }
        if !ask(&mut wave) || wave.settle(self.rules, work).is_err() {
            return Err(Failed::Settling);
        }
        wave.solve(self.rules, &self.patterns.weights, rng, work).map_err(|_| Failed::Solving)
    }

    /// Rules out, at every position of the small wave covering each of
    /// `cells`, the patterns whose character there is not as `ask` says.
    fn ask(&self, wave: &mut Wave, cells: &[usize], ask: &Ask, (bx, by): (usize, usize)) -> bool {
        let sets = match ask {
            Ask::Walkable => &self.by_cell[0],
            Ask::Blocking => &self.by_cell[1],
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
                    if wave.limit_to(sy * bw + sx, &sets[dy * n + dx]).is_err() {
                        return false;
                    }
                }
            }
        }
        true
    }
}
