//! Levels from an example: the overlapping model of wave function collapse
//! (Maxim Gumin, 2016), bounded, with fixed cells and connected.
//!
//! 1. The sample (a built-in one by name, or map text: rows of equal
//!    length) is read: its border must be one blocking character all
//!    round, which becomes the output's border, and it must have floor `.`
//!    (`@`, `>`, `$`, `!` and `<` in it are read as floor). Its n x n
//!    windows under the symmetries asked for are the patterns
//!    (`patterns.rs`).
//! 2. Sizes are refused before any work: positions x patterns past
//!    `MAX_WORK`, and the solver's memory (`wfc::bound`) asked of the
//!    allocator.
//! 3. The border, then each fixed cell, is imposed on the wave and
//!    propagated (`wfc.rs`); a fixed cell that leaves a position no pattern
//!    is an error naming it.
//! 4. Up to `ATTEMPTS` attempts, each from that state with the same rng
//!    running on: the solver collapses every position; a contradiction
//!    ends the attempt. The output's walkable components but the largest
//!    are filled with the border's character; when that breaks a window
//!    (or a fixed cell, or leaves fewer than 2 floor cells) the attempt
//!    fails too. The solver's work over all attempts is capped
//!    (`MAX_SUPPORT_UPDATES`), so no call runs long, and the error then
//!    says what failed.
//! 5. `@` on the floor cell nearest the centre, `>` on the floor cell
//!    farthest from it by walking (both the first in row order on a tie).

mod patterns;
mod samples;
pub mod wfc;

use super::{Default, Generator, Kind, Layout, OptionSpec, Options, Terrain};
use crate::grid::{byte_set, ByteSet, Grid, Pos, FLOOR};
use crate::memory;
use crate::rng::Rng;
use crate::toolkit::board::{Walk, UNREACHED};
use crate::toolkit::distances::distances;
pub use patterns::{Patterns, Sample, Symmetry};
pub use samples::SAMPLES;
use wfc::{Rules, Wave};

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
};

/// The longest text a text option takes: a 64x64 sample with its newlines.
pub const MAX_TEXT: usize = 65 * 64;
/// A sample's sides at most: the patterns are read from every window.
pub const MAX_SAMPLE_SIDE: usize = 64;
/// The most patterns (their numbers are `u16` in the solver).
pub const MAX_PATTERNS: usize = 2048;
/// Positions x patterns at most: the solver's memory and each attempt's
/// work are proportional to it (`wfc::bound`: 74 bytes each at most).
pub const MAX_WORK: usize = 3 << 20;
/// Attempts at most, and the support updates of all of them: the bound on
/// a call's time whatever the sample.
pub const ATTEMPTS: usize = 20;
pub const MAX_SUPPORT_UPDATES: u64 = 400_000_000;

const SAMPLE: OptionSpec = OptionSpec {
    name: "sample",
    kind: Kind::Text {
        max: MAX_TEXT,
        rows: true,
    },
    default: Default::Text("caves"),
    doc: "the example: a built-in sample's name (caves, caverns, rooms, dungeon, overworld) or map text, rows of equal length",
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

/// A free cell in `fixed`.
const FREE: u8 = b'?';

/// Rows of text: split at newlines (one at the end ignored, `\r` before
/// one dropped), each checked to be printable ASCII, all of one length.
fn rows<'a>(name: &str, text: &'a [u8]) -> Result<Vec<&'a [u8]>, String> {
    let text = text.strip_suffix(b"\n").unwrap_or(text);
    if text.is_empty() {
        return Err(format!("{name} is empty"));
    }
    let rows: Vec<&[u8]> = text
        .split(|&c| c == b'\n')
        .map(|r| r.strip_suffix(b"\r").unwrap_or(r))
        .collect();
    for (y, row) in rows.iter().enumerate() {
        if let Some(x) = row.iter().position(|&c| !(b'!'..=b'~').contains(&c)) {
            return Err(format!(
                "{name}: row {} column {} is not a printable character (byte {})",
                y + 1,
                x + 1,
                row[x]
            ));
        }
        if row.len() != rows[0].len() {
            return Err(format!(
                "{name}: row {} has {} characters, row 1 has {}",
                y + 1,
                row.len(),
                rows[0].len()
            ));
        }
    }
    Ok(rows)
}

/// The sample as characters, `@ > $ ! <` read as floor, with its border
/// character.
struct Read {
    width: usize,
    height: usize,
    cells: Vec<u8>,
    border: u8,
}

/// The sample's text and its blocking characters: a built-in sample's by
/// its name, else the text given and `#`; `blocking` given overrides them.
fn sample_text<'a>(text: &'a [u8], blocking: &'a [u8]) -> (&'a [u8], &'a [u8]) {
    let (text, own) = SAMPLES
        .iter()
        .find(|(name, ..)| name.as_bytes() == text)
        .map_or((text, &b"#"[..]), |(_, b, s)| (s.as_bytes(), b.as_bytes()));
    (text, if blocking.is_empty() { own } else { blocking })
}

fn read_sample(text: &[u8], n: usize, blocked: &ByteSet) -> Result<Read, String> {
    let rows = rows("sample", text)?;
    let (width, height) = (rows[0].len(), rows.len());
    if width > MAX_SAMPLE_SIDE || height > MAX_SAMPLE_SIDE {
        return Err(format!(
            "sample is {width}x{height}: at most {MAX_SAMPLE_SIDE}x{MAX_SAMPLE_SIDE}"
        ));
    }
    if width < n || height < n {
        return Err(format!(
            "sample is {width}x{height}, smaller than its {n}x{n} windows"
        ));
    }
    let cells: Vec<u8> = rows
        .concat()
        .into_iter()
        .map(|c| match c {
            b'@' | b'>' | b'<' | b'$' | b'!' => FLOOR,
            c => c,
        })
        .collect();
    let border = cells[0];
    let on_border = |i: usize| {
        let (x, y) = (i % width, i / width);
        x == 0 || y == 0 || x + 1 == width || y + 1 == height
    };
    if !blocked[border as usize] || (0..cells.len()).any(|i| on_border(i) && cells[i] != border) {
        return Err(format!(
            "sample's border must be one blocking character all round (its corner is '{}', blocking is {:?})",
            border as char,
            blocked_text(blocked)
        ));
    }
    if !cells.contains(&FLOOR) || blocked[FLOOR as usize] {
        return Err("sample must have floor '.' (not blocking), for @ and >".into());
    }
    Ok(Read {
        width,
        height,
        cells,
        border,
    })
}

fn blocked_text(blocked: &ByteSet) -> String {
    (0u8..=255)
        .filter(|&c| blocked[c as usize])
        .map(char::from)
        .collect()
}

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
) -> Result<Vec<(usize, usize, u8)>, String> {
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

/// The solver's memory bound (`wfc::bound`) for a `w` x `h` map from the
/// built-in sample `name` at the default symmetries: what a call may use
/// besides the level's own bound (`level::bound`), for tests/memory.rs.
pub fn solver_bound(name: &str, n: usize, (w, h): (usize, usize)) -> usize {
    let (text, blocking) = sample_text(name.as_bytes(), b"");
    let read = read_sample(text, n, &byte_set(blocking)).expect("a built-in sample");
    let sample = Sample {
        width: read.width,
        height: read.height,
        cells: &read.cells,
    };
    let patterns = Patterns::read(&sample, n, Symmetry::All, false, MAX_PATTERNS).expect("patterns");
    wfc::bound((w + 1 - n) * (h + 1 - n), patterns.len())
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
    let read = read_sample(text, n, &blocked)?;
    let sample = Sample {
        width: read.width,
        height: read.height,
        cells: &read.cells,
    };
    let patterns = Patterns::read(&sample, n, symmetry(opts)?, opts.flag(&WRAPS), MAX_PATTERNS)
        .ok_or_else(|| format!("sample has more than {MAX_PATTERNS} patterns of {n}x{n}"))?;
    let positions = (w + 1 - n) * (h + 1 - n);
    if positions.saturating_mul(patterns.len()) > MAX_WORK {
        return Err(format!(
            "a {w}x{h} map from this sample is too large: {positions} positions x {} patterns, at most {MAX_WORK} (a smaller map, n or sample)",
            patterns.len()
        ));
    }
    memory::check(wfc::bound(positions, patterns.len()))?;
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
    let patterns = &problem.patterns;
    let n = patterns.n;
    let (pw, ph) = (w + 1 - n, h + 1 - n);
    let rules = Rules::new(patterns);
    let mut start = Wave::new(&rules, pw, ph);
    let mut work = 0u64;
    let border = problem.read.border;
    let ring = (0..w * h).filter(|&i| {
        let (x, y) = (i % w, i / w);
        x == 0 || y == 0 || x + 1 == w || y + 1 == h
    });
    let ring: Vec<(usize, usize, u8)> = ring.map(|i| (i % w, i / w, border)).collect();
    if impose(&mut start, &rules, patterns, &ring, &mut work).is_err() {
        return Err(format!(
            "the sample cannot make a {w}x{h} level with a border of '{}' all round",
            border as char
        ));
    }
    for &cell in &fixed {
        if impose(&mut start, &rules, patterns, &[cell], &mut work).is_err() {
            return Err(format!(
                "fixed cell ({}, {}) '{}' cannot be kept: no window of the sample fits around it with the cells fixed before it",
                cell.0 + 1,
                cell.1 + 1,
                cell.2 as char
            ));
        }
    }
    let (mut contradictions, mut cut_off) = (0, 0);
    for _ in 0..ATTEMPTS {
        if work > MAX_SUPPORT_UPDATES {
            break;
        }
        let mut wave = start.clone();
        let Ok(chosen) = wave.solve(&rules, &patterns.weights, rng, &mut work) else {
            contradictions += 1;
            continue;
        };
        let mut cells = output(patterns, &chosen, (w, h), (pw, ph));
        match connect(&mut cells, (w, h), &problem, &fixed) {
            Some(player) => {
                *grid = Grid::from_cells(w, h, cells);
                let stairs = farthest(grid, player, &problem.blocked);
                return Ok(Layout {
                    rooms: Vec::new(),
                    player,
                    stairs: Some(stairs),
                    blocked: Some(problem.blocking.clone()),
                });
            }
            None => cut_off += 1,
        }
    }
    Err(format!(
        "no level from this sample in {} attempts ({contradictions} contradictions, {cut_off} cut off or without floor): another seed, a larger map or a smaller n may do",
        contradictions + cut_off
    ))
}

/// Bans at every position covering each cell the patterns that do not
/// have its character there, and propagates.
fn impose(
    wave: &mut Wave,
    rules: &Rules,
    patterns: &Patterns,
    cells: &[(usize, usize, u8)],
    work: &mut u64,
) -> Result<(), wfc::Contradiction> {
    let n = patterns.n;
    let (pw, ph) = wave.size();
    for &(x, y, c) in cells {
        for py in y.saturating_sub(n - 1)..=y.min(ph - 1) {
            for px in x.saturating_sub(n - 1)..=x.min(pw - 1) {
                for p in 0..patterns.len() {
                    if patterns.at(p, x - px, y - py) != c {
                        wave.ban(py * pw + px, p)?;
                    }
                }
            }
        }
    }
    wave.settle(rules, work)
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

/// Keeps the largest walkable component (the first in row order on a
/// tie) and fills the others with the border's character; `@`'s cell, or
/// `None` when that breaks a window or a fixed cell, or the component has
/// fewer than 2 floor cells.
fn connect(
    cells: &mut [u8],
    (w, h): (usize, usize),
    problem: &Problem,
    fixed: &[(usize, usize, u8)],
) -> Option<Pos> {
    let open = |c: u8| !problem.blocked[c as usize];
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
            let (x, y) = (j % w, j / w);
            let around = [
                (x > 0).then(|| j - 1),
                (x + 1 < w).then_some(j + 1),
                (y > 0).then(|| j - w),
                (y + 1 < h).then_some(j + w),
            ];
            for k in around.into_iter().flatten() {
                if open(cells[k]) && component[k] == u32::MAX {
                    component[k] = id;
                    stack.push(k);
                }
            }
        }
        sizes.push(size);
    }
    let largest = (0..sizes.len()).max_by_key(|&c| (sizes[c], std::cmp::Reverse(c)))? as u32;
    let mut changed = Vec::new();
    for i in 0..w * h {
        if component[i] != u32::MAX && component[i] != largest {
            cells[i] = problem.read.border;
            changed.push(i);
        }
    }
    let n = problem.patterns.n;
    if !changed.is_empty() {
        if fixed.iter().any(|&(x, y, c)| cells[y * w + x] != c) {
            return None;
        }
        // Each window touching a changed cell, checked once.
        let mut checked = vec![false; w * h];
        let mut window = vec![0u8; n * n];
        for &i in &changed {
            let (x, y) = (i % w, i / w);
            for py in y.saturating_sub(n - 1)..=y.min(h - n) {
                for px in x.saturating_sub(n - 1)..=x.min(w - n) {
                    if std::mem::replace(&mut checked[py * w + px], true) {
                        continue;
                    }
                    for dy in 0..n {
                        window[dy * n..][..n].copy_from_slice(&cells[(py + dy) * w + px..][..n]);
                    }
                    if !problem.patterns.contains(&window) {
                        return None;
                    }
                }
            }
        }
    }
    let floor: Vec<usize> = (0..w * h).filter(|&i| cells[i] == FLOOR).collect();
    if floor.len() < 2 {
        return None;
    }
    let centre = (w as i64 / 2, h as i64 / 2);
    let nearest = floor.iter().copied().min_by_key(|&i| {
        let (dx, dy) = ((i % w) as i64 - centre.0, (i / w) as i64 - centre.1);
        dx * dx + dy * dy
    })?;
    Some(Pos {
        x: nearest % w + 1,
        y: nearest / w + 1,
    })
}

/// The floor cell farthest from `from` by walking, the first in row order
/// on a tie.
fn farthest(grid: &Grid, from: Pos, blocked: &ByteSet) -> Pos {
    let mut walk = Walk::new();
    walk.blocked = *blocked;
    let dist = distances(grid, &[from], &walk);
    let cells = grid.cells();
    let mut best: Option<(u64, usize)> = None;
    for (i, &d) in dist.iter().enumerate() {
        if cells[i] == FLOOR && d != UNREACHED && best.is_none_or(|(bd, _)| d > bd) {
            best = Some((d, i));
        }
    }
    best.map_or(from, |(_, i)| grid.pos(i))
}

#[cfg(test)]
mod tests;
