//! The generator's properties by brute force: every window of every output
//! one of the sample's, fixed cells kept, the level connected; and the
//! success rates over seeds 1-1000 at 48x32 on every built-in sample.

use super::wfc::Propagation;
use super::*;
use crate::generators::testing::check_terrain_contract;
use crate::generators::Value;
use crate::grid::{FLOOR, WALL};

fn options(sample: &str, extra: &[(&'static str, Value)]) -> Options {
    let mut values: Vec<(&'static str, Value)> = GENERATOR
        .options
        .iter()
        .map(|o| (o.name, o.default.value(10)))
        .collect();
    values[0].1 = Value::Text(sample.as_bytes().to_vec());
    for (name, v) in extra {
        let slot = values.iter_mut().find(|(n, _)| n == name).unwrap();
        slot.1 = v.clone();
    }
    Options::new(values)
}

fn run(opts: &Options, (w, h): (usize, usize), seed: i64) -> Result<(Grid, Layout), String> {
    let mut grid = Grid::new(w, h, WALL);
    let layout = carve(&mut grid, opts, &mut Rng::new(seed))?;
    Ok((grid, layout))
}

/// The first n x n window of `grid` `margin` cells or more inside its edge
/// that is not a window of the sample under its symmetries, found by
/// reading the sample again (not the solver's list).
fn window_not_held(grid: &Grid, opts: &Options, margin: usize) -> Option<(usize, usize)> {
    let problem = problem(opts, (grid.width(), grid.height())).unwrap();
    let n = problem.patterns.n;
    let (w, h) = (grid.width(), grid.height());
    let cells = grid.cells();
    let mut window = vec![0u8; n * n];
    for y in margin..=h - n - margin {
        for x in margin..=w - n - margin {
            for dy in 0..n {
                window[dy * n..][..n].copy_from_slice(&cells[(y + dy) * w + x..][..n]);
            }
            if !problem.patterns.contains(&window) {
                return Some((x + 1, y + 1));
            }
        }
    }
    None
}

/// Every window of `grid` is the sample's; or, for a sample whose edge is
/// not its border (`inside.rs`), every window inside the border.
fn check_windows(grid: &Grid, opts: &Options) {
    let bordered = problem(opts, (grid.width(), grid.height())).unwrap().read.bordered;
    let broken = match window_not_held(grid, opts, 0) {
        Some(_) if !bordered => window_not_held(grid, opts, 1),
        broken => broken,
    };
    if let Some((x, y)) = broken {
        panic!(
            "window at ({x}, {y}) not in the sample:\n{}",
            String::from_utf8_lossy(&grid.render())
        );
    }
}

#[test]
fn every_sample_makes_levels_whose_windows_are_the_samples() {
    for (name, ..) in SAMPLES.iter() {
        let opts = options(name, &[]);
        for seed in 1..=20 {
            let (grid, layout) = run(&opts, (48, 32), seed).unwrap();
            check_windows(&grid, &opts);
            let blocked = layout.blocked.clone().unwrap();
            let terrain = Terrain {
                chars: TERRAIN.chars,
                blocked: Box::leak(blocked.into_boxed_str()),
                border: grid.cells()[0],
            };
            check_terrain_contract(&grid, &layout, &terrain);
        }
    }
}

/// Every property of a level made: windows, border, connected, `@`, `>`.
fn check_level(grid: &Grid, layout: &Layout, opts: &Options) {
    check_windows(grid, opts);
    let blocked = layout.blocked.clone().unwrap();
    let terrain = Terrain {
        chars: TERRAIN.chars,
        blocked: Box::leak(blocked.into_boxed_str()),
        border: grid.cells()[0],
    };
    check_terrain_contract(grid, layout, &terrain);
    assert_eq!(grid.get(layout.stairs.unwrap()), FLOOR);
}

/// Levels made of `seeds` at `size`, each checked whole (a level made
/// with a property broken fails the test), and the slowest call.
fn rate(opts: &Options, size: (usize, usize), seeds: std::ops::RangeInclusive<i64>) -> (usize, std::time::Duration) {
    let mut ok = 0;
    let mut worst = std::time::Duration::ZERO;
    for seed in seeds {
        let t = std::time::Instant::now();
        let made = run(opts, size, seed);
        worst = worst.max(t.elapsed());
        if let Ok((grid, layout)) = made {
            check_level(&grid, &layout, opts);
            ok += 1;
        }
    }
    (ok, worst)
}

/// The CI-sized check: seeds 1-100 at 48x32 on every built-in sample, at
/// least 99 made (the 1000 seeds: `success_rates`, every sample 1000).
#[test]
fn the_built_in_samples_make_99_of_100_levels() {
    for (name, ..) in SAMPLES {
        let (ok, _) = rate(&options(name, &[]), (48, 32), 1..=100);
        assert!(ok >= 99, "{name}: {ok}/100");
    }
}

/// The real samples (mxgmn's, converted: /work/shared/example's README)
/// with their samples.xml settings: (file, n, blocking).
const REAL: &[(&str, i64, &str)] = &[
    ("cave", 3, "#"),
    ("rooms", 3, "#"),
    ("dungeon", 3, "#"),
    ("simplemaze", 2, "#"),
    ("sewers", 3, "#"),
    ("lake", 3, "#~"),
    ("maze", 3, "#"),
    ("sewers-water", 3, "#~"),
    ("town", 3, "#"),
];

const SEEDS: i64 = 1000;

/// `cargo test --release --lib success_rates -- --ignored --nocapture`:
/// the built-in samples, and the real ones read from the directory
/// `EXAMPLE_SAMPLES` names when set (`SEEDS_TO` fewer seeds).
#[test]
#[ignore]
fn success_rates() {
    let size = match std::env::var("SIZE").as_deref() {
        Ok("49x33") => (49, 33),
        _ => (48, 32),
    };
    let seeds = std::env::var("SEEDS_TO").map_or(SEEDS, |s| s.parse().unwrap());
    let mut cases: Vec<(String, Options)> = SAMPLES
        .iter()
        .map(|(name, ..)| (name.to_string(), options(name, &[])))
        .collect();
    if let Ok(dir) = std::env::var("EXAMPLE_SAMPLES") {
        for &(file, n, blocking) in REAL {
            let text = std::fs::read_to_string(format!("{dir}/{file}.txt")).unwrap();
            let extra = [
                ("n", Value::Int(n)),
                ("blocking", Value::Text(blocking.into())),
                ("wraps", Value::Bool(true)),
                ("symmetry", Value::Text(b"all".to_vec())),
            ];
            cases.push((file.to_string(), options(&text, &extra)));
        }
    }
    let only = std::env::var("ONLY").unwrap_or_default();
    for (name, opts) in cases.iter().filter(|(name, _)| only.is_empty() || only.split(',').any(|o| o == name)) {
        let t = std::time::Instant::now();
        let (ok, worst) = rate(opts, size, 1..=seeds);
        println!(
            "{name}: {ok}/{seeds} in {:?} (worst {worst:?}), {} patterns",
            t.elapsed(),
            problem(opts, size).unwrap().patterns.len()
        );
    }
}


/// The fuzz target's corridor sample (tests/example_found.rs), whose edge
/// patterns have nothing beside them on one side: the solver kept two
/// such facing each other and made 3x3 blocks of wall. A level made is
/// checked whole; a refusal must be the attempts' error (every seed here
/// is refused now, each having made a broken level or none before).
#[test]
fn a_corridor_sample_is_refused_not_broken() {
    let opts = options("#############\n##..........#\n#############", &[]);
    for size in [(12, 9), (13, 11), (20, 15)] {
        for seed in 0..20 {
            match run(&opts, size, seed) {
                Ok((grid, layout)) => check_level(&grid, &layout, &opts),
                Err(e) => assert!(e.starts_with("no level from this sample"), "{e}"),
            }
        }
    }
}

/// This thread's CPU time (Linux's `/proc/thread-self/schedstat`), which
/// the other processes of a shared machine do not inflate as they do the
/// wall clock's.
fn cpu() -> std::time::Duration {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").unwrap_or_default();
    let ns = stat.split_whitespace().next().and_then(|t| t.parse().ok()).unwrap_or(0);
    std::time::Duration::from_nanos(ns)
}

/// A sample of `side` x `side` cells of `chars` drawn by a hash (many
/// patterns; its edge not one blocking character all round).
fn hashed_sample(side: usize, chars: &[u8]) -> String {
    (0..side)
        .map(|y| {
            (0..side)
                .map(|x| {
                    let v = (x.wrapping_mul(2_654_435_761) ^ y.wrapping_mul(40_503)).wrapping_mul(2_246_822_519);
                    chars[(v >> 13) % chars.len()] as char
                })
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A sample of pluses of floor round a wall, and one cell of floor.
const PLUSES: &str = "#####\n#+++#\n#+#.#\n#+++#\n#+++#\n#+++#\n#####";

/// A worst call: its name, sample, n, size and whether the sample wraps.
type WorstCase = (&'static str, String, i64, (usize, usize), bool);

/// `cargo test --release --lib worst_calls -- --ignored --nocapture`: the
/// slowest of a few seeds at the largest sizes each sample is accepted at
/// (positions x patterns just within `MAX_WORK` or `MAX_REPAIRED_WORK`),
/// built-in and hostile (docs/performance.md).
#[test]
#[ignore]
fn worst_calls() {
    let ring = "###\n#.#\n###".to_string();
    let corridor = "#############\n##..........#\n#############".to_string();
    let mut cases: Vec<WorstCase> = vec![
        ("caves", "caves".into(), 3, (144, 144), false),
        ("caverns", "caverns".into(), 3, (161, 161), false),
        ("rooms", "rooms".into(), 3, (145, 145), false),
        ("dungeon", "dungeon".into(), 3, (190, 190), false),
        ("overworld", "overworld".into(), 3, (87, 87), false),
        // No blocking edge (its entrance open): `MAX_REPAIRED_WORK`.
        ("maze", "maze".into(), 3, (230, 230), false),
        ("ring (1 pattern)", ring, 3, (2000, 1500), false),
        ("corridor (cannot tile)", corridor, 3, (550, 550), false),
        ("hashed 16x16 n=3", hashed_sample(16, b"#."), 3, (45, 45), false),
        ("hashed 18x18 n=4", hashed_sample(18, b"#."), 4, (43, 43), false),
        // The fuzz target's slowest input for its size (a 37x20 map),
        // at the largest square its 101 patterns are accepted at.
        ("pluses (wrapping)", PLUSES.into(), 3, (177, 177), true),
    ];
    // The real samples whose levels may be made inside the border alone
    // (`inside.rs`), wrapping, at their largest accepted square.
    if let Ok(dir) = std::env::var("EXAMPLE_SAMPLES") {
        for &(file, n, _) in REAL.iter().filter(|r| r.0 == "simplemaze" || r.0 == "town") {
            let text = std::fs::read_to_string(format!("{dir}/{file}.txt")).unwrap();
            let opts = options(&text, &[("n", Value::Int(n)), ("wraps", Value::Bool(true))]);
            let patterns = problem(&opts, (48, 32)).unwrap().patterns.len();
            let side = (MAX_REPAIRED_WORK / patterns).isqrt() + n as usize - 1;
            cases.push((file, text, n, (side, side), true));
        }
    }
    let only = std::env::var("ONLY").unwrap_or_default();
    for (name, sample, n, size, wraps) in cases.iter().filter(|c| only.is_empty() || c.0.starts_with(only.as_str())) {
        let opts = options(sample, &[("n", Value::Int(*n)), ("wraps", Value::Bool(*wraps))]);
        let patterns = problem(&opts, *size).map(|p| p.patterns.len());
        let mut worst = (std::time::Duration::ZERO, String::new());
        for seed in 1..=3 {
            let t = cpu();
            let made = run(&opts, *size, seed);
            let took = cpu() - t;
            if took > worst.0 {
                let what = made.map_or_else(|e| e.chars().take(70).collect(), |_| "made".into());
                worst = (took, what);
            }
        }
        println!("WORST {name} {}x{} {patterns:?} patterns: {:?} of CPU ({})", size.0, size.1, worst.0, worst.1);
    }
}

/// The solver on bits (`Propagation::Fastest`, the repair's) solves as the
/// support counts do: from the same settled start, after the same position
/// kept to one pattern and its neighbour limited as the repair asks, the
/// same patterns possible everywhere and, with
/// the same draws, the same level or both a contradiction. The samples
/// have at most 64 patterns; the corridor's have patterns that nothing
/// supports on a side, which the counts never ban.
#[test]
fn the_bits_solve_as_the_counts_do() {
    let corridor = "#############\n##..........#\n#############".to_string();
    let samples = [
        ("maze".to_string(), 3),
        (corridor, 3),
        (hashed_sample(8, b"#."), 2),
        (hashed_sample(5, b"#.~"), 2),
        (PLUSES.to_string(), 2),
    ];
    let mut solved = 0;
    for (sample, n) in &samples {
        let opts = options(sample, &[("n", Value::Int(*n))]);
        for size in [(12, 9), (23, 14), (31, 17)] {
            let problem = problem(&opts, size).unwrap();
            let patterns = &problem.patterns;
            assert!(patterns.len() <= 64, "{} patterns", patterns.len());
            let rules = Rules::new(patterns);
            let (pw, ph) = (size.0 + 1 - patterns.n, size.1 + 1 - patterns.n);
            let mut start = Wave::new(&rules, pw, ph);
            let mut work = 0;
            let corner = [(0, 0, problem.read.border)];
            if impose(&mut start, &rules, patterns, &corner, &mut work).is_err() {
                continue;
            }
            for seed in 1..=20 {
                let mut counts = start.clone().into_as(&rules, Propagation::Counts);
                let mut bits = start.clone().into_as(&rules, Propagation::Fastest);
                let middle = pw * ph / 2;
                let kept = (0..patterns.len()).filter(|&p| start.allows(middle, p)).nth(seed as usize % 3);
                // The repair's asks: one cell walkable or blocking.
                let asked = &super::repair::by_cell(patterns, &problem.blocked)[seed as usize % 2][0];
                if let Some(p) = kept {
                    let a = counts.keep(middle, p).and_then(|_| counts.limit_to(middle + 1, asked));
                    let b = bits.keep(middle, p).and_then(|_| bits.limit_to(middle + 1, asked));
                    let a = a.and_then(|_| counts.settle(&rules, &mut work));
                    let b = b.and_then(|_| bits.settle(&rules, &mut work));
                    assert_eq!(a.is_ok(), b.is_ok(), "settled, seed {seed}");
                    if a.is_err() {
                        continue;
                    }
                }
                for i in 0..pw * ph {
                    for p in 0..patterns.len() {
                        assert_eq!(counts.allows(i, p), bits.allows(i, p), "position {i}, pattern {p}, seed {seed}");
                    }
                }
                let a = counts.solve(&rules, &patterns.weights, &mut Rng::new(seed), &mut work);
                let b = bits.solve(&rules, &patterns.weights, &mut Rng::new(seed), &mut work);
                assert_eq!(a.ok(), b.ok(), "{}x{} seed {seed}", size.0, size.1);
                solved += 1;
            }
        }
    }
    assert!(solved > 120, "{solved} compared");
}

/// The start of every attempt on the overworld at `size`: the border
/// imposed all round.
fn overworld_start(size: (usize, usize)) -> (Problem, Rules, Wave) {
    let problem = problem(&options("overworld", &[]), size).unwrap();
    let rules = Rules::new(&problem.patterns);
    let n = problem.patterns.n;
    let mut start = Wave::new(&rules, size.0 + 1 - n, size.1 + 1 - n);
    let ring = ring(size, problem.read.border);
    impose(&mut start, &rules, &problem.patterns, &ring, &mut 0).unwrap();
    (problem, rules, start)
}

/// Whether every position of `chosen` has a pattern the start allows
/// there and every two side by side agree (so every window is the
/// sample's).
fn agrees(chosen: &[u16], rules: &Rules, start: &Wave) -> Result<(), String> {
    let (pw, ph) = start.size();
    for i in 0..pw * ph {
        let p = chosen[i];
        if p == wfc::UNDECIDED || !start.allows(i, p as usize) {
            return Err(format!("position {i}: pattern {p}"));
        }
        let (x, y) = (i % pw, i / pw);
        if (x + 1 < pw && !rules.agree(0, p, chosen[i + 1])) || (y + 1 < ph && !rules.agree(1, p, chosen[i + pw])) {
            return Err(format!("position {i} and a neighbour disagree"));
        }
    }
    Ok(())
}

/// Blocks solve a whole level from nothing, on the overworld's 426
/// patterns (support counts), every position agreeing with its
/// neighbours and the border; `kept` leaves positions round the
/// contradiction open and keeps only positions that agree, and blocks
/// solve the rest around them.
#[test]
fn blocks_solve_a_level_and_one_a_contradiction_cut_off() {
    let size = (40, 24);
    let (problem, rules, start) = overworld_start(size);
    let (pw, ph) = start.size();
    let mut contradicted = 0;
    for seed in 1..=4 {
        let mut work = 0;
        let repair = repair_of(&problem, &rules, start.clone(), size, (0, blocks::ALLOWANCE, 0));
        let mut rng = Rng::new(seed);
        let chosen = blocks::solved(&repair, None, &mut rng, &mut work).expect("solved in blocks");
        agrees(&chosen, &rules, &start).unwrap();
        let mut wave = start.clone();
        let Err(wfc::Contradiction(at)) = wave.solve(&rules, &problem.patterns.weights, &mut rng, &mut work) else {
            continue;
        };
        contradicted += 1;
        let kept = blocks::kept(&rules, &wave, at);
        let (ax, ay) = (at % pw, at / pw);
        assert_eq!(kept[at], wfc::UNDECIDED);
        assert_eq!(kept[ay.saturating_sub(3) * pw + ax.saturating_sub(3)], wfc::UNDECIDED);
        for i in (0..pw * ph).filter(|&i| kept[i] != wfc::UNDECIDED) {
            let (x, y) = (i % pw, i / pw);
            let right = x + 1 < pw && kept[i + 1] != wfc::UNDECIDED && !rules.agree(0, kept[i], kept[i + 1]);
            let down = y + 1 < ph && kept[i + pw] != wfc::UNDECIDED && !rules.agree(1, kept[i], kept[i + pw]);
            assert!(!right && !down, "kept position {i} disagrees");
        }
        let decided = kept.iter().filter(|&&p| p != wfc::UNDECIDED).count();
        assert!(decided > 0 && decided < pw * ph, "{decided} kept");
        let chosen = blocks::solved(&repair, Some(kept), &mut rng, &mut work).expect("the rest solved in blocks");
        agrees(&chosen, &rules, &start).unwrap();
    }
    assert!(contradicted > 0, "no solve was cut off: nothing kept was tried");
}

/// The lists of one side are classes, as the counts kept a class at a
/// time need (`Rules`): the patterns whose lists are of one class have
/// the same list, no pattern is in two classes' lists, and a class's first
/// count is each of its patterns' count of supporters, the neighbours on
/// that side that allow it.
#[test]
fn the_lists_are_classes() {
    let mut samples: Vec<(String, i64)> = SAMPLES.iter().map(|s| (s.0.to_string(), 3)).collect();
    samples.extend([(hashed_sample(12, b"#.~"), 3), (hashed_sample(8, b"#."), 4), (PLUSES.to_string(), 2)]);
    for (sample, n) in &samples {
        let problem = problem(&options(sample, &[("n", Value::Int(*n))]), (48, 32)).unwrap();
        let rules = Rules::new(&problem.patterns);
        let count = problem.patterns.len();
        let mut lists: Vec<Option<&[u16]>> = vec![None; rules.supporters.len()];
        for d in 0..4 {
            let mut class_of = vec![None; count];
            for p in 0..count {
                let (class, allowed) = (rules.class(d, p), rules.allowed(d, p));
                assert_eq!(class == rules::NO_CLASS, allowed.is_empty(), "{sample}: side {d}, pattern {p}");
                if allowed.is_empty() {
                    continue;
                }
                let list = lists[class as usize].get_or_insert(allowed);
                assert_eq!(*list, allowed, "{sample}: side {d}, class {class}");
                for &q in allowed {
                    let q = q as usize;
                    assert!(class_of[q].is_none_or(|c| c == class), "{sample}: pattern {q} in two classes");
                    class_of[q] = Some(class);
                    let supporters = rules.allowed((d + 2) % 4, q).len();
                    assert_eq!(usize::from(rules.supporters[class as usize]), supporters, "{sample}: class {class}");
                }
            }
        }
    }
}
