//! The wfc crate's overlapping model, timed as bench/example.sh times the
//! example generator: a sample file (rows of map text), n, the symmetries
//! (none, rotations, all), the output's size and the seeds.
//!
//!   wfc_peer SAMPLE N SYMMETRY WIDTH HEIGHT FIRST_SEED COUNT once|each|kept [BLOCKING [WRAPS]]
//!
//! Prints one line: `MADE CONTRADICTIONS UNDECIDED SECONDS PATTERNS SUM`,
//! SECONDS the CPU time of the COUNT levels, UNDECIDED the collapses that
//! returned `Ok` with a cell of more than one pattern left (no level), SUM
//! a checksum of the levels made. With `once` the patterns and their rules
//! are read from the sample once, outside the timing (what a caller making
//! many levels of one sample would do); with `each`, for every level,
//! inside it (as the example generator does on every call). Each level is
//! one `collapse` from its seed with `WrapNone` (the output does not wrap),
//! and a contradiction is a failure (no retry). The crate reads the sample
//! as tiling (its windows wrap round the sample's edges), and knows nothing
//! of borders, fixed cells or connectivity: the level is the solver's
//! output alone, each cell its pattern's top-left character.
//!
//! `kept` gives the crate the example generator's contract instead (with
//! the patterns read once): the output's outer ring forbidden every
//! pattern whose top-left is not the level's border (the generator's
//! rule: the sample's edge when that is one blocking character all
//! round, else the first blocking character it has), then collapsed up to
//! 20 times (the module's `ATTEMPTS`), the seed's rng running on, until a
//! collapse makes a level whose walkable cells (those not in BLOCKING,
//! default `#`) are connected once the smaller parts are filled with the
//! border, with at least 2 floor cells, and whose every n x n window is
//! still one of the crate's patterns (the generator's `connect` and
//! `windows_hold`). WRAPS 0 (the generator's default) forbids everywhere
//! the crate's patterns that are no window of the sample read without
//! wrapping, so that both sides have the same patterns (their weights
//! still the crate's). It has nothing of the generator's repair of a
//! level cut off, nor of its inside made alone (`inside.rs`).
//! CONTRADICTIONS then counts the levels of which no collapse made one.

use std::num::NonZeroU32;

use rand::SeedableRng;
use rand_xorshift::XorShiftRng;
use wfc::orientation::{self, Orientation};
use wfc::overlapping::OverlappingPatterns;
use wfc::wrap::WrapNone;
use wfc::{Context, RunBorrow, Size, Wave};

mod kept;
use kept::Kept;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if !(9..=11).contains(&args.len()) {
        eprintln!("usage: wfc_peer SAMPLE N SYMMETRY WIDTH HEIGHT FIRST_SEED COUNT once|each|kept [BLOCKING [WRAPS]]");
        std::process::exit(2);
    }
    let text = std::fs::read_to_string(&args[1]).expect("the sample file");
    let number = |i: usize| -> u64 { args[i].parse().expect("a number") };
    let n = NonZeroU32::new(number(2) as u32).expect("n at least 1");
    let orientations: &[Orientation] = match args[3].as_str() {
        "none" => &[Orientation::Original],
        "rotations" => &[
            Orientation::Original,
            Orientation::Clockwise90,
            Orientation::Clockwise180,
            Orientation::Clockwise270,
        ],
        "all" => &orientation::ALL,
        other => panic!("symmetry {other:?}: none, rotations or all"),
    };
    let (width, height) = (number(4) as u32, number(5) as u32);
    let (first, count) = (number(6), number(7));

    let rows: Vec<&[u8]> = text.lines().map(str::as_bytes).collect();
    let size = Size::new(rows[0].len() as u32, rows.len() as u32);
    let cells: Vec<u8> = rows.concat();
    let read = || OverlappingPatterns::new(grid(size, cells.clone()), n, orientations);
    let each = match args[8].as_str() {
        "once" | "kept" => false,
        "each" => true,
        other => panic!("{other:?}: once, each or kept"),
    };
    let mut sample = read();
    let mut stats = sample.global_stats();
    let patterns = sample.pattern_descriptions().len();
    if args[8] == "kept" {
        let blocking = args.get(9).map_or("#", String::as_str).as_bytes();
        let wraps = args.get(10).is_none_or(|w| w != "0");
        let kept = Kept::new(
            &sample,
            &rows,
            (n.get() as usize, orientations),
            blocking,
            wraps,
        );
        let start = cpu_seconds();
        let (made, failed, checksum) =
            kept.levels(&sample, &stats, (width, height), (first, count));
        let seconds = cpu_seconds() - start;
        println!("{made} {failed} 0 {seconds:.6} {patterns} {checksum}");
        return;
    }

    let (mut made, mut failed, mut undecided) = (0u64, 0u64, 0u64);
    let mut checksum = 0u64;
    let start = cpu_seconds();
    for seed in first..first + count {
        if each {
            sample = read();
            stats = sample.global_stats();
        }
        let mut rng = XorShiftRng::seed_from_u64(seed);
        let mut wave = Wave::new(Size::new(width, height));
        let mut context = Context::new();
        let mut run = RunBorrow::new_wrap(&mut context, &mut wave, &stats, WrapNone, &mut rng);
        if run.collapse(&mut rng).is_err() {
            failed += 1;
            continue;
        }
        match level_sum(&sample, &wave) {
            Some(sum) => {
                made += 1;
                checksum = checksum.wrapping_add(sum);
            }
            None => undecided += 1,
        }
    }
    let seconds = cpu_seconds() - start;
    println!("{made} {failed} {undecided} {seconds:.6} {patterns} {checksum}");
}

/// The process's CPU time, what Lua's `os.clock` gives the other sides: on
/// a shared machine, wall time would count the other processes' turns.
fn cpu_seconds() -> f64 {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is a valid timespec to write; the clock id is Linux's.
    let ok = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut t) };
    assert_eq!(ok, 0, "clock_gettime");
    t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
}

fn grid(size: Size, cells: Vec<u8>) -> grid_2d::Grid<u8> {
    grid_2d::Grid::new_fn(size, |c| {
        cells[(c.y as u32 * size.width() + c.x as u32) as usize]
    })
}

/// The level's characters, each its pattern's top-left, summed: the output
/// is read (as a caller would), and the read cannot be optimised away.
/// `None` when a cell was left with more than one pattern: `collapse`
/// returns `Ok` on some such waves (seen with `WrapNone`), which are no
/// level, so a failure here.
fn level_sum(sample: &OverlappingPatterns<u8>, wave: &Wave) -> Option<u64> {
    let mut sum = 0;
    for cell in wave.grid().iter() {
        let id = cell.chosen_pattern_id().ok()?;
        sum += u64::from(*sample.pattern_top_left_value(id));
    }
    Some(sum)
}
