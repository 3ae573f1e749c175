//! Levels from an example: the overlapping model of wave function collapse
//! (Maxim Gumin, 2016), bounded, with fixed cells and connected.
//!
//! 1. The sample (a built-in one by name, or map text: rows of equal
//!    length) is read: the output's border is its edge when that is one
//!    blocking character all round, else the first of its blocking
//!    characters it has; it must have floor `.`
//!    (`@`, `>`, `$`, `!` and `<` in it are read as floor). Its n x n
//!    windows under the symmetries asked for are the patterns
//!    (`patterns.rs`).
//! 2. Sizes are refused before any work: positions x patterns past
//!    `MAX_WORK`; the call's memory (`bound`: the solver's, `wfc::bound`,
//!    and the rest) is the generator's `bound`, which the level pipeline
//!    asks of the allocator with the level's before `carve` starts.
//! 3. The border, then each fixed cell, is imposed on the wave and
//!    propagated (`wfc.rs`); a fixed cell that leaves a position no pattern
//!    is an error naming it.
//! 4. Up to `ATTEMPTS` attempts, each from that state with the same rng
//!    running on: the solver collapses every position; a contradiction
//!    ends the attempt. The output's walkable components but the largest
//!    are filled with the border's character; when that breaks a window
//!    (or a fixed cell, or leaves fewer than 2 floor cells) the attempt
//!    fails too, and so does one with a window that is not the
//!    sample's (`windows_hold`: the solver's counts miss a case). The
//!    solver's work over all attempts is capped (`MAX_SOLVER_WORK`). A sample without a blocking edge (refused
//!    before the repair existed) skips these attempts.
//!
//!    Only when those all failed: the repair (`repair.rs`) on the levels
//!    cut off, then on new ones, up to `REPAIRS` and `MAX_REPAIR_UPDATES`
//!    (the levels solved up to `CUT_ALLOWANCE` past the attempts' work);
//!    on a sample with a blocking edge whose patterns do not fit the
//!    bits, the new ones solved in blocks (`blocks.rs`, up to
//!    `blocks::ALLOWANCE` past the attempts' work and `blocks::MAX_WORK`
//!    in all), the first from the attempts' deepest solve a
//!    contradiction cut off; the error then says what failed. Every level
//!    made before the repair existed came out of step 4 with the same
//!    draws, so it is unchanged.
//! 5. Only when that failed too, and the sample's edge is not its border:
//!    the level's inside alone (`inside.rs`), the border put round it.
//! 6. `@` on the floor cell nearest the centre, `>` on the floor cell
//!    farthest from it by walking (both the first in row order on a tie).

mod blocks;
mod inside;
mod patterns;
mod place;
mod queue;
mod read;
mod repair;
mod rules;
mod samples;
pub mod wfc;

use super::{Default, Generator, Kind, Layout, OptionSpec, Options, Terrain};
use crate::grid::{byte_set, ByteSet, Grid, Pos};
use crate::memory;
use crate::rng::Rng;
pub use patterns::{Patterns, Sample, Symmetry};
pub use samples::SAMPLES;
use place::{connect, level};
use read::{read_sample, rows, sample_text, Read};
use repair::{repair_of, Repair};
use rules::Rules;
use wfc::Wave;

/// Any printable character a sample has, `#` blocking and the border on
/// the default sample (the registry's contract holds it to this); a
/// sample's own `blocking` and border are each level's. Not `ROCK`: vaults
/// and `arrive` dig tunnels, which would break the sample's windows.
pub const TERRAIN: Terrain = Terrain {
    chars: b"!\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~",
    blocked: "#",
    border: crate::grid::WALL,
};

pub const GENERATOR: Generator = Generator {
    name: "example",
    doc: "a level like an example map: wave function collapse (the overlapping model), fixed cells kept, connected",
    // The registry's promise: every map of 12x9 or more is made (on the
    // default sample, whose walls need room for its windows).
    min_width: 12,
    min_height: 9,
    options: &[SAMPLE, N, SYMMETRY, WRAPS, BLOCKING, FIXED, FIXED_X, FIXED_Y],
    terrain: &TERRAIN,
    hides: false,
    carve,
    bound: declared,
};

/// The longest text a text option takes: a 64x64 sample with its newlines.
pub const MAX_TEXT: usize = 65 * 64;
/// A sample's sides at most: the patterns are read from every window.
pub const MAX_SAMPLE_SIDE: usize = 64;
/// The most patterns (their numbers are `u16` in the solver).
pub const MAX_PATTERNS: usize = 2048;
/// Positions x patterns at most: the solver's memory and each attempt's
/// work are proportional to it (`wfc::bound`: 78 bytes each at most).
pub const MAX_WORK: usize = 3 << 20;
/// Attempts at most, and the work of all of them (`attempt_work` each and
/// the support updates): past `MAX_SOLVER_WORK` no attempt starts, the
/// bound on a call's time whatever the sample (docs/performance.md).
pub const ATTEMPTS: usize = 20;
pub const MAX_SOLVER_WORK: u64 = 120_000_000;
/// Attempts of the repair (`repair.rs`) at most, and the support updates
/// of the whole call past which it tries nothing more (checked before
/// each solve and each part solved again): with the refusal below, the
/// bound on a call's time from a sample the repair works on
/// (docs/performance.md).
pub const REPAIRS: usize = 20;
pub const MAX_REPAIR_UPDATES: u64 = 60_000_000;
/// The work the inside's repair (`inside.rs`) may do past the border's
/// attempts and repair before it, which may have passed
/// `MAX_REPAIR_UPDATES` already. The border's own repair solves no new
/// level past `MAX_REPAIR_UPDATES`: an allowance there let the maze at
/// 110x110 run past 1 s.
pub const REPAIR_ALLOWANCE: u64 = 20_000_000;
/// The work the border's repair may do past the attempts' on the levels
/// already solved, the attempts' cut-off ones first: no new level is
/// solved past `MAX_REPAIR_UPDATES`. The overworld's attempts reach
/// `MAX_SOLVER_WORK` and left their first cut-off level no budget;
/// repairing it took at most 2.4M over seeds 1-1000 at 48x32
/// (docs/performance.md).
pub const CUT_ALLOWANCE: u64 = 4_000_000;

/// Positions x patterns at most for a sample without a blocking edge
/// (`MAX_WORK` is kept for the others, whose levels it allowed before).
pub const MAX_REPAIRED_WORK: usize = 2_600_000;

const SAMPLE: OptionSpec = OptionSpec {
    name: "sample",
    kind: Kind::Text {
        max: MAX_TEXT,
        rows: true,
    },
    default: Default::Text("caves"),
    doc: "the example: a built-in sample's name (caves, caverns, rooms, dungeon, overworld, maze) or map text, rows of equal length",
};

const N: OptionSpec = OptionSpec {
    name: "n",
    kind: Kind::Int { min: 2, max: 4 },
    default: Default::Int(3),
    doc: "the windows' size: each n x n window of the level is one of the sample's",
};

const SYMMETRY: OptionSpec = OptionSpec {
    name: "symmetry",
    kind: Kind::Text {
        max: 16,
        rows: false,
    },
    default: Default::Text("all"),
    doc: "the sample's symmetries that count: none, rotations, or all (rotations and reflections)",
};

const WRAPS: OptionSpec = OptionSpec {
    name: "wraps",
    kind: Kind::Bool,
    default: Default::Bool(false),
    doc: "whether the sample's windows wrap round its edges (the level's never do)",
};

const BLOCKING: OptionSpec = OptionSpec {
    name: "blocking",
    kind: Kind::Text {
        max: 95,
        rows: false,
    },
    default: Default::Text(""),
    doc: "the sample's characters that block walking, the level's blocked (empty: a built-in sample's own, else #)",
};

const FIXED: OptionSpec = OptionSpec {
    name: "fixed",
    kind: Kind::Text {
        max: MAX_TEXT,
        rows: true,
    },
    default: Default::Text(""),
    doc: "rows the level keeps exactly, placed at fixed_x, fixed_y (? a free cell)",
};

const FIXED_X: OptionSpec = OptionSpec {
    name: "fixed_x",
    kind: Kind::Int { min: 1, max: 1 << 20 },
    default: Default::Int(1),
    doc: "the column of fixed's first character",
};

const FIXED_Y: OptionSpec = OptionSpec {
    name: "fixed_y",
    kind: Kind::Int { min: 1, max: 1 << 20 },
    default: Default::Int(1),
    doc: "the row of fixed's first row",
};

/// A cell the level keeps: 0-based column and row, and its character.
type FixedCell = (usize, usize, u8);

/// A free cell in `fixed`.
const FREE: u8 = b'?';

fn symmetry(opts: &Options) -> Result<Symmetry, String> {
    match opts.text(&SYMMETRY) {
        b"none" => Ok(Symmetry::None),
        b"rotations" => Ok(Symmetry::Rotations),
        b"all" => Ok(Symmetry::All),
        other => Err(format!(
            "symmetry must be \"none\", \"rotations\" or \"all\", got \"{}\"",
            String::from_utf8_lossy(other)
        )),
    }
}

/// The fixed cells, 0-based, with their characters: the border's, then
/// `fixed`'s (but `?`), each inside the map and one of the sample's.
fn fixed_cells(
    opts: &Options,
    (w, h): (usize, usize),
    read: &Read,
) -> Result<Vec<FixedCell>, String> {
    let mut cells = Vec::new();
    let text = opts.text(&FIXED);
    if text.is_empty() {
        return Ok(cells);
    }
    let rows = rows("fixed", text)?;
    let (x0, y0) = (opts.count(&FIXED_X) - 1, opts.count(&FIXED_Y) - 1);
    if x0 + rows[0].len() > w || y0 + rows.len() > h {
        return Err(format!(
            "fixed is {}x{} at ({}, {}): past the {w}x{h} map",
            rows[0].len(),
            rows.len(),
            x0 + 1,
            y0 + 1
        ));
    }
    let mut known = [false; 256];
    for &c in &read.cells {
        known[c as usize] = true;
    }
    for (dy, row) in rows.iter().enumerate() {
        for (dx, &c) in row.iter().enumerate() {
            let (x, y) = (x0 + dx, y0 + dy);
            if c == FREE {
                continue;
            }
            if !known[c as usize] {
                return Err(format!(
                    "fixed cell ({}, {}) '{}' is not a character of the sample",
                    x + 1,
                    y + 1,
                    c as char
                ));
            }
            cells.push((x, y, c));
        }
    }
    Ok(cells)
}

/// What reading the sample may hold (checked before it is read): its rows
/// and cells (a few KiB), and for each of at most `MAX_PATTERNS` patterns
/// its cells and weight (20 bytes, x 3 while they grow) and its entry in
/// the map that finds it (a 24-byte key holding 16 bytes, a number, a
/// control byte, in a table of up to twice as many slots, x 1.5 while it
/// grows).
pub const READ_BOUND: usize = 512 << 10;

/// Per position besides the solver's: the chosen patterns of the attempts
/// kept for the repair (2 x `ATTEMPTS`), the repair's list of windows
/// filled (16 x 3) and its marks (2); the deepest solve cut off kept, and
/// a deeper one and its copy while they are checked (2 x 3), and a
/// block's marks and patterns (1 + 2).
const PER_POSITION: usize = 2 * ATTEMPTS + 16 * 3 + 2 + 2 * 3 + 3;
/// Per cell: the level's cells, and the connection's and the repair's
/// lists over them at once (the components (4), their sizes, the search's
/// stack, the cells changed, the floor cells, the way's parents and queue:
/// `usize` lists, x 3 while they grow).
const PER_CELL: usize = 128;

/// The memory a call on a `cells`-cell map with `positions` positions over
/// `patterns` patterns may use besides the level's (`level::bound`): the
/// sample read, the solver (`wfc::bound`), the attempts kept, the
/// connection and the repair.
pub fn bound(positions: usize, patterns: usize, cells: usize) -> usize {
    wfc::bound(positions, patterns)
        .saturating_add(positions.saturating_mul(PER_POSITION))
        .saturating_add(cells.saturating_mul(PER_CELL))
        .saturating_add(READ_BOUND)
}

/// The generator's `bound`: the sample read (after checking that its
/// reading fits), the sizes refused, and `bound` for its patterns.
fn declared(opts: &Options, (w, h): (usize, usize)) -> Result<usize, String> {
    memory::check(READ_BOUND)?;
    let problem = problem(opts, (w, h))?;
    let n = problem.patterns.n;
    let positions = (w + 1 - n) * (h + 1 - n);
    Ok(bound(positions, problem.patterns.len(), w * h))
}

/// Everything checked and read before the solver starts.
struct Problem {
    read: Read,
    patterns: Patterns,
    blocked: ByteSet,
    blocking: String,
}

fn problem(opts: &Options, (w, h): (usize, usize)) -> Result<Problem, String> {
    let (text, blocking) = sample_text(opts.text(&SAMPLE), opts.text(&BLOCKING));
    if blocking.iter().any(|c| !(b'!'..=b'~').contains(c)) {
        return Err("blocking must be printable characters".into());
    }
    let blocked = byte_set(blocking);
    let n = opts.count(&N);
    let read = read_sample(text, n, blocking)?;
    let sample = Sample {
        width: read.width,
        height: read.height,
        cells: &read.cells,
    };
    let patterns = Patterns::read(&sample, n, symmetry(opts)?, opts.flag(&WRAPS), MAX_PATTERNS)
        .ok_or_else(|| format!("sample has more than {MAX_PATTERNS} patterns of {n}x{n}"))?;
    let positions = (w + 1 - n) * (h + 1 - n);
    let most = if read.bordered { MAX_WORK } else { MAX_REPAIRED_WORK };
    if positions.saturating_mul(patterns.len()) > most {
        return Err(format!(
            "a {w}x{h} map from this sample is too large: {positions} positions x {} patterns, at most {most} (a smaller map, n or sample)",
            patterns.len()
        ));
    }
    Ok(Problem {
        read,
        patterns,
        blocked,
        blocking: String::from_utf8_lossy(blocking).into_owned(),
    })
}

fn carve(grid: &mut Grid, opts: &Options, rng: &mut Rng) -> Result<Layout, String> {
    let (w, h) = (grid.width(), grid.height());
    let problem = problem(opts, (w, h))?;
    let fixed = fixed_cells(opts, (w, h), &problem.read)?;
    let rules = Rules::new(&problem.patterns);
    let mut work = 0u64;
    let (cells, player) = match bordered(&problem, &rules, &fixed, (w, h), rng, &mut work) {
        // Only where the border failed, on a sample whose edge is not
        // its border (`inside.rs`): no level made before changes.
        Err(e) if !problem.read.bordered => {
            inside::made(&problem, &rules, &fixed, (w, h), rng, &mut work).map_err(|why| format!("{e}; {why}"))
        }
        made => made,
    }?;
    Ok(level(grid, cells, player, &problem))
}

/// The level with the border imposed on the wave: its cells and `@`.
fn bordered(
    problem: &Problem,
    rules: &Rules,
    fixed: &[FixedCell],
    (w, h): (usize, usize),
    rng: &mut Rng,
    work: &mut u64,
) -> Result<(Vec<u8>, Pos), String> {
    let patterns = &problem.patterns;
    let n = patterns.n;
    let (pw, ph) = (w + 1 - n, h + 1 - n);
    let mut start = Wave::new(rules, pw, ph);
    let border = problem.read.border;
    if impose(&mut start, rules, patterns, &ring((w, h), border), work).is_err() {
        return Err(format!(
            "the sample cannot make a {w}x{h} level with a border of '{}' all round",
            border as char
        ));
    }
    for &cell in fixed {
        if impose(&mut start, rules, patterns, &[cell], work).is_err() {
            return Err(format!(
                "fixed cell ({}, {}) '{}' cannot be kept: no window of the sample fits around it with the cells fixed before it",
                cell.0 + 1,
                cell.1 + 1,
                cell.2 as char
            ));
        }
    }
    let (mut contradictions, mut cut_off) = (0, 0);
    let mut cut: Vec<Vec<u16>> = Vec::new();
    // The solve a contradiction cut off after the most work: its positions
    // decided, for the repair's blocks (`blocks::kept`).
    let in_blocks = blocks::used(problem, rules);
    let mut deepest: Option<(u64, Vec<u16>)> = None;
    // A sample without a blocking edge made no level before the repair
    // existed: its attempts are the repair's from the first.
    let attempts = if problem.read.bordered { ATTEMPTS } else { 0 };
    for _ in 0..attempts {
        if *work > MAX_SOLVER_WORK {
            break;
        }
        *work += attempt_work(pw * ph, patterns.len());
        let mut wave = start.clone();
        let before = *work;
        let chosen = match wave.solve(rules, &patterns.weights, rng, work) {
            Ok(chosen) => chosen,
            Err(wfc::Contradiction(at)) => {
                contradictions += 1;
                if in_blocks && deepest.as_ref().is_none_or(|(done, _)| *done < *work - before) {
                    deepest = Some((*work - before, blocks::kept(rules, &wave, at)));
                }
                continue;
            }
        };
        let mut cells = output(patterns, &chosen, (w, h), (pw, ph));
        match connect(&mut cells, (w, h), problem, fixed) {
            Some(player) if windows_hold(patterns, &cells, (w, h), &chosen) => {
                return Ok((cells, player));
            }
            // The solver's output broke a window (`windows_hold`): a
            // contradiction it did not see.
            Some(_) => contradictions += 1,
            None => {
                cut_off += 1;
                cut.push(chosen);
            }
        }
    }
    // Only where every attempt above failed: a call that made a level
    // before the repair existed ran no further than the loop above, with
    // the same rng draws, so it makes the same level.
    let solving = match in_blocks {
        true => blocks::ALLOWANCE.min(blocks::MAX_WORK.saturating_sub(*work)),
        false => 0,
    };
    let repair = repair_of(problem, rules, start, (w, h), (*work, solving, CUT_ALLOWANCE));
    let tried = |repaired| {
        format!(
            "no level from this sample in {} attempts ({contradictions} contradictions, {cut_off} cut off or without floor) and {repaired} attempts to repair: another seed, a larger map or a smaller n may do",
            contradictions + cut_off
        )
    };
    let deepest = deepest.map(|(_, kept)| kept);
    repaired(&repair, (cut, deepest), rng, work, (problem, fixed)).map_err(tried)
}

/// The repair's attempts: the levels cut off above first, then new ones
/// solved, until one is repaired (its cells and `@`), `REPAIRS` are
/// tried or the work passes the repair's budget, or its budget for
/// solving when no level cut off is left (`Err`: how many were tried).
fn repaired(
    repair: &Repair,
    (cut, mut deepest): (Vec<Vec<u16>>, Option<Vec<u16>>),
    rng: &mut Rng,
    work: &mut u64,
    (problem, fixed): (&Problem, &[FixedCell]),
) -> Result<(Vec<u8>, Pos), usize> {
    let mut cut = cut.into_iter();
    let mut tried = 0;
    while tried < REPAIRS && *work <= repair.budget && (cut.len() > 0 || *work <= repair.solves) {
        tried += 1;
        // A level cut off keeps its repair's budget; a new one may use the
        // whole.
        let (mut chosen, limit) = match cut.next() {
            Some(chosen) => (chosen, repair.repairs),
            None if blocks::used(problem, repair.rules) => match blocks::solved(repair, deepest.take(), rng, work) {
                Some(chosen) => (chosen, repair.budget),
                None => continue,
            },
            None => {
                let (pw, ph) = repair.start.size();
                *work += attempt_work(pw * ph, repair.patterns.len());
                let mut wave = repair.start.clone();
                match wave.solve(repair.rules, &repair.patterns.weights, rng, work) {
                    Ok(chosen) => (chosen, repair.budget),
                    Err(_) => continue,
                }
            }
        };
        if let Some(mut cells) = repair.run(&mut chosen, limit, rng, work) {
            if let Some(player) = connect(&mut cells, repair.size, problem, fixed) {
                if windows_hold(repair.patterns, &cells, repair.size, &chosen) {
                    return Ok((cells, player));
                }
            }
        }
    }
    Err(tried)
}

/// The cells of the level's outer ring, each of `border`.
fn ring((w, h): (usize, usize), border: u8) -> Vec<FixedCell> {
    let cells = (0..w * h).map(|i| (i % w, i / w));
    cells.filter(|&cell| on_ring(cell, (w, h))).map(|(x, y)| (x, y, border)).collect()
}

/// Whether cell `(x, y)` is on the outer ring of a `w` x `h` level.
fn on_ring((x, y): (usize, usize), (w, h): (usize, usize)) -> bool {
    x == 0 || y == 0 || x + 1 == w || y + 1 == h
}

/// An attempt's work besides its support updates, in their unit: the
/// wave copied and each collapse's scan of its patterns (a unit per
/// position and pattern), the level read out and connected (4 per
/// position). Without it a sample of few patterns at the largest size
/// (one pattern: no support update at all) ran 20 attempts past 1 s.
fn attempt_work(positions: usize, patterns: usize) -> u64 {
    (positions * patterns + 4 * positions) as u64
}

/// Rules out at every position covering each cell the patterns that do not
/// have its character there, and propagates.
fn impose(
    wave: &mut Wave,
    rules: &Rules,
    patterns: &Patterns,
    cells: &[FixedCell],
    work: &mut u64,
) -> Result<(), wfc::Contradiction> {
    let n = patterns.n;
    let (pw, ph) = wave.size();
    for &(x, y, c) in cells {
        for py in y.saturating_sub(n - 1)..=y.min(ph - 1) {
            for px in x.saturating_sub(n - 1)..=x.min(pw - 1) {
                wave.limit(py * pw + px, |p| patterns.at(p, x - px, y - py) == c)?;
            }
        }
    }
    wave.settle(rules, work)
}

/// Whether every n x n window of `cells` is a pattern: the window at each
/// position is its chosen pattern, or else found among them (a cell the
/// connection filled).
///
/// The solver's counts cannot see everything: a pattern that no pattern
/// may lie beside on one side (the sample's edge windows: a corridor's
/// `#.#` column, whose right needs a column of floor the sample lacks)
/// has no support there to lose, so it is never banned. Two such patterns
/// facing each other both stay, and the level breaks a window. Banning
/// them before solving would change which position each draw collapses,
/// and so every level made before; checking the output leaves every level
/// that held the property as it was, and makes the one that did not a
/// failed attempt.
fn windows_hold(patterns: &Patterns, cells: &[u8], (w, h): (usize, usize), chosen: &[u16]) -> bool {
    let n = patterns.n;
    let pw = w + 1 - n;
    let mut window = vec![0u8; n * n];
    (0..=h - n).all(|y| {
        (0..pw).all(|x| {
            for dy in 0..n {
                window[dy * n..][..n].copy_from_slice(&cells[(y + dy) * w + x..][..n]);
            }
            let p = chosen[y * pw + x] as usize;
            (0..n * n).all(|k| patterns.at(p, k % n, k / n) == window[k]) || patterns.contains(&window)
        })
    })
}

/// The map the chosen patterns make: each cell from the position nearest
/// its top-left that covers it.
fn output(
    patterns: &Patterns,
    chosen: &[u16],
    (w, h): (usize, usize),
    (pw, ph): (usize, usize),
) -> Vec<u8> {
    let mut cells = vec![0u8; w * h];
    for y in 0..h {
        for x in 0..w {
            let (px, py) = (x.min(pw - 1), y.min(ph - 1));
            cells[y * w + x] = patterns.at(chosen[py * pw + px] as usize, x - px, y - py);
        }
    }
    cells
}

#[cfg(test)]
mod tests;
