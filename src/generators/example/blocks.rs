//! A new level for the border's repair, on a sample with a blocking edge
//! whose patterns do not fit the bits, solved a block of positions at a
//! time, as Paul Merrell's model synthesis modifies in blocks: each block
//! on a small wave with a ring of one position round it, the positions
//! solved before kept, those not yet solved free (so the block agrees
//! with at least its next neighbours). A block that contradicts is tried
//! again with the rng running on, then with the positions solved before
//! within a margin of it solved again with it. The first such level
//! starts from the attempts' deepest solve that a contradiction cut off
//! (`kept`): only the blocks with positions it left open are solved.
//!
//! A level solved whole contradicts somewhere in most tries when its
//! sample has many patterns and the level is large (the overworld at
//! 96x64), and a contradiction loses the whole solve; in blocks it loses
//! one block's.

use super::repair::{Failed, Repair};
use super::rules::Rules;
use super::wfc::{Wave, UNDECIDED};
use super::Problem;
use crate::rng::Rng;

/// The work the border's repair may do solving new levels in blocks past
/// the attempts', and the call's work past which it starts no block: the
/// bound on the time they add. Each is a line past which nothing more is
/// tried, so raising them makes levels only where the lower ones ended in
/// an error: they were raised when the counts kept a class at a time made
/// the work cheaper (docs/performance.md: the overworld at 96x64, the
/// worst calls).
pub const ALLOWANCE: u64 = 160_000_000;
pub const MAX_WORK: u64 = 280_000_000;

/// Whether the border's repair solves its new levels in blocks: on a
/// sample with a blocking edge, after its attempts, where the patterns do
/// not fit the bits (a sample without a blocking edge has its levels from
/// the repair from the first, solved whole as they were made).
pub fn used(problem: &Problem, rules: &Rules) -> bool {
    problem.read.bordered && !rules.fit_bits()
}

/// A block's side in positions.
const BLOCK: usize = 16;
/// The tries of a block, in order: its margin (in positions) and how many
/// times: the block alone three times, then with the positions solved
/// around it. A try that contradicts before any draw goes on to the next
/// margin: the same again would fail the same way.
const TRIES: [(usize, usize); 4] = [(0, 3), (2, 1), (4, 1), (8, 1)];

/// Positions within this of a contradiction are solved again.
const RADIUS: usize = 3;

/// The positions a solve had decided when a contradiction at position
/// `at` cut it off, those the blocks may keep: not those within `RADIUS`
/// of it, nor any that disagrees with a neighbour (the propagation the
/// contradiction stopped was not finished).
pub fn kept(rules: &Rules, wave: &Wave, at: usize) -> Vec<u16> {
    let (pw, ph) = wave.size();
    let mut kept = wave.decided();
    let (ax, ay) = (at % pw, at / pw);
    for y in ay.saturating_sub(RADIUS)..=(ay + RADIUS).min(ph - 1) {
        for x in ax.saturating_sub(RADIUS)..=(ax + RADIUS).min(pw - 1) {
            kept[y * pw + x] = UNDECIDED;
        }
    }
    let decided = kept.clone();
    let disagree = |i: usize, j: usize, d: usize| {
        decided[i] != UNDECIDED && decided[j] != UNDECIDED && !rules.agree(d, decided[i], decided[j])
    };
    for i in 0..pw * ph {
        let (x, y) = (i % pw, i / pw);
        for (inside, j, d) in [(x + 1 < pw, i + 1, 0), (y + 1 < ph, i + pw, 1)] {
            if inside && disagree(i, j, d) {
                (kept[i], kept[j]) = (UNDECIDED, UNDECIDED);
            }
        }
    }
    kept
}

/// Every position's pattern, from those `kept` decided when given, or
/// `None` when a block failed every try or the repair's budget ran out.
pub fn solved(repair: &Repair, kept: Option<Vec<u16>>, rng: &mut Rng, work: &mut u64) -> Option<Vec<u16>> {
    let (pw, ph) = repair.start.size();
    let mut chosen = kept.unwrap_or_else(|| vec![UNDECIDED; pw * ph]);
    for y in (0..ph).step_by(BLOCK) {
        for x in (0..pw).step_by(BLOCK) {
            let block = (x, y, BLOCK.min(pw - x), BLOCK.min(ph - y));
            let rows = (y..y + block.3).map(|row| &chosen[row * pw + x..][..block.2]);
            if rows.flatten().all(|&p| p != UNDECIDED) {
                continue;
            }
            if !block_solved(repair, &mut chosen, block, rng, work) {
                return None;
            }
        }
    }
    Some(chosen)
}

/// Tries the block (its corner and size) as `TRIES` says, within the
/// repair's budget: whether one try solved it.
fn block_solved(
    repair: &Repair,
    chosen: &mut [u16],
    block: (usize, usize, usize, usize),
    rng: &mut Rng,
    work: &mut u64,
) -> bool {
    for (margin, times) in TRIES {
        for _ in 0..times {
            if *work > repair.budget {
                return false;
            }
            match tried(repair, chosen, block, margin, rng, work) {
                Ok(()) => return true,
                Err(Failed::Settling) => break,
                Err(Failed::Solving) => {}
            }
        }
    }
    false
}

/// Solves the block (its corner and size) and the positions within
/// `margin` of it, written to `chosen`.
fn tried(
    repair: &Repair,
    chosen: &mut [u16],
    (x, y, w, h): (usize, usize, usize, usize),
    margin: usize,
    rng: &mut Rng,
    work: &mut u64,
) -> Result<(), Failed> {
    let (pw, ph) = repair.start.size();
    // The positions solved: the block and its margin; the box, one more
    // all round.
    let (rx, ry) = (x.saturating_sub(margin), y.saturating_sub(margin));
    let (rx1, ry1) = ((x + w + margin).min(pw), (y + h + margin).min(ph));
    let (bx, by) = (rx.saturating_sub(1), ry.saturating_sub(1));
    let (bw, bh) = ((rx1 + 1).min(pw) - bx, (ry1 + 1).min(ph) - by);
    // The block alone redoes only its positions not decided yet (those a
    // solve cut off by a contradiction left); with a margin, all.
    let redo: Vec<bool> = (0..bw * bh)
        .map(|s| {
            let (cx, cy) = (bx + s % bw, by + s / bw);
            let inside = (rx..rx1).contains(&cx) && (ry..ry1).contains(&cy);
            inside && (margin > 0 || chosen[cy * pw + cx] == UNDECIDED)
        })
        .collect();
    *work += super::attempt_work(bw * bh, repair.patterns.len());
    let solved = repair.solve_box(chosen, (bx, by, bw, bh), &redo, |_| true, rng, work)?;
    for (s, &p) in solved.iter().enumerate().filter(|&(s, _)| redo[s]) {
        chosen[(by + s / bw) * pw + bx + s % bw] = p;
    }
    Ok(())
}
