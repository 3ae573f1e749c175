//! The `kept` mode of `wfc_peer`: the crate given the example generator's
//! contract and patterns (main.rs says what that is).

use std::cell::Cell;
use std::collections::HashSet;

use rand::SeedableRng;
use rand_xorshift::XorShiftRng;
use wfc::orientation::Orientation;
use wfc::overlapping::OverlappingPatterns;
use wfc::wrap::WrapNone;
use wfc::{Context, ForbidInterface, ForbidPattern, PatternId, RunBorrow, Size, Wave};

/// The example generator's contract (the `kept` mode): border, attempts,
/// connection and the windows checked.
pub struct Kept {
    /// Every n x n window of the sample (wrapping or not) under the
    /// symmetries, and the crate's patterns that are none of them.
    windows: HashSet<Vec<u8>>,
    foreign: Vec<PatternId>,
    n: usize,
    blocked: [bool; 256],
    /// The level's border (the generator's rule: the sample's edge when
    /// that is one blocking character all round, else the first blocking
    /// character it has) and the patterns whose top-left is not it,
    /// forbidden on the ring.
    border: u8,
    not_border: Vec<PatternId>,
}

const ATTEMPTS: usize = 20;

impl Kept {
    pub fn new(
        sample: &OverlappingPatterns<u8>,
        rows: &[&[u8]],
        (n, orientations): (usize, &[Orientation]),
        blocking: &[u8],
        wraps: bool,
    ) -> Kept {
        let (sw, sh) = (rows[0].len(), rows.len());
        let ids = sample.pattern_descriptions().len();
        let (xs, ys) = match wraps {
            true => (sw, sh),
            false => (sw + 1 - n, sh + 1 - n),
        };
        let mut windows = HashSet::new();
        for y in 0..ys {
            for x in 0..xs {
                let mut window: Vec<u8> = (0..n * n)
                    .map(|k| rows[(y + k / n) % sh][(x + k % n) % sw])
                    .collect();
                // The rotations, then (for all 8) each reflected: the same
                // set whichever order the crate's `Orientation`s take.
                for turn in 0..orientations.len() {
                    if turn == 4 {
                        window = (0..n * n)
                            .map(|k| window[(k / n) * n + n - 1 - k % n])
                            .collect();
                    }
                    windows.insert(window.clone());
                    window = (0..n * n)
                        .map(|k| window[(n - 1 - k % n) * n + k / n])
                        .collect();
                }
            }
        }
        let mut blocked = [false; 256];
        for &c in blocking {
            blocked[c as usize] = true;
        }
        let edge = rows[0][0];
        let on_edge = |x: usize, y: usize| x == 0 || y == 0 || x + 1 == sw || y + 1 == sh;
        let whole = (0..sh).all(|y| (0..sw).all(|x| !on_edge(x, y) || rows[y][x] == edge));
        let border = match whole && blocked[edge as usize] {
            true => edge,
            false => *blocking
                .iter()
                .find(|c| rows.iter().any(|row| row.contains(c)))
                .expect("a blocking character in the sample"),
        };
        let not_border = (0..ids as PatternId)
            .filter(|&p| *sample.pattern_top_left_value(p) != border)
            .collect();
        let patterns = crate_patterns(sample, rows, n, orientations);
        // Read right, every pattern has one set of cells, and the windows
        // are the crate's patterns (wrapping) or some of them (not).
        assert_eq!(patterns.len(), ids, "one set of cells a pattern");
        let foreign: Vec<PatternId> = patterns
            .into_iter()
            .filter(|(_, window)| !windows.contains(window))
            .map(|(p, _)| p)
            .collect();
        assert_eq!(
            windows.len() + foreign.len(),
            ids,
            "the windows among the crate's patterns"
        );
        Kept {
            windows,
            foreign,
            n,
            blocked,
            border,
            not_border,
        }
    }

    /// Made, failed and a checksum of the levels made, over the seeds.
    pub fn levels(
        &self,
        sample: &OverlappingPatterns<u8>,
        stats: &wfc::GlobalStats,
        (width, height): (u32, u32),
        (first, count): (u64, u64),
    ) -> (u64, u64, u64) {
        let (mut made, mut failed, mut checksum) = (0, 0, 0u64);
        let mut context = Context::new();
        for seed in first..first + count {
            let mut rng = XorShiftRng::seed_from_u64(seed);
            let level = (0..ATTEMPTS).find_map(|_| {
                let mut wave = Wave::new(Size::new(width, height));
                let broken = Cell::new(false);
                let forbid = Ring(&self.not_border, &self.foreign, &broken);
                let mut run = RunBorrow::new_wrap_forbid(
                    &mut context,
                    &mut wave,
                    stats,
                    WrapNone,
                    forbid,
                    &mut rng,
                );
                if broken.get() {
                    return None;
                }
                run.collapse(&mut rng).ok()?;
                let mut cells = Vec::with_capacity((width * height) as usize);
                for cell in wave.grid().iter() {
                    cells.push(*sample.pattern_top_left_value(cell.chosen_pattern_id().ok()?));
                }
                self.connect(&mut cells, (width as usize, height as usize))
                    .then_some(cells)
            });
            match level {
                Some(cells) => {
                    made += 1;
                    checksum = cells
                        .iter()
                        .fold(checksum, |sum, &c| sum.wrapping_add(u64::from(c)));
                }
                None => failed += 1,
            }
        }
        (made, failed, checksum)
    }

    /// Fills every walkable part but the largest with the border: whether that
    /// leaves at least 2 floor cells and every window one of the sample's.
    fn connect(&self, cells: &mut [u8], (w, h): (usize, usize)) -> bool {
        let mut part = vec![usize::MAX; w * h];
        let mut sizes = Vec::new();
        for i in 0..w * h {
            if self.blocked[cells[i] as usize] || part[i] != usize::MAX {
                continue;
            }
            let (id, mut stack, mut size) = (sizes.len(), vec![i], 0);
            part[i] = id;
            while let Some(j) = stack.pop() {
                size += 1;
                let (x, y) = (j % w, j / w);
                let around = [
                    (x > 0, j.wrapping_sub(1)),
                    (x + 1 < w, j + 1),
                    (y > 0, j.wrapping_sub(w)),
                    (y + 1 < h, j + w),
                ];
                for (inside, k) in around {
                    if inside && !self.blocked[cells[k] as usize] && part[k] == usize::MAX {
                        part[k] = id;
                        stack.push(k);
                    }
                }
            }
            sizes.push(size);
        }
        let Some(largest) = (0..sizes.len()).max_by_key(|&c| (sizes[c], std::cmp::Reverse(c)))
        else {
            return false;
        };
        for i in 0..w * h {
            if part[i] != usize::MAX && part[i] != largest {
                cells[i] = self.border;
            }
        }
        let n = self.n;
        let floor = cells.iter().filter(|&&c| c == b'.').count();
        let mut window = vec![0u8; n * n];
        floor >= 2
            && (0..=h - n).all(|y| {
                (0..=w - n).all(|x| {
                    for dy in 0..n {
                        window[dy * n..][..n].copy_from_slice(&cells[(y + dy) * w + x..][..n]);
                    }
                    self.windows.contains(&window)
                })
            })
    }
}

/// Forbids on the output's outer ring every pattern whose top-left is not
/// the border's character (the border all round), and everywhere the
/// patterns foreign to the sample as the generator reads it. A
/// contradiction there (after which the crate resets the wave) is kept in
/// the flag: a failed attempt.
struct Ring<'a>(&'a [PatternId], &'a [PatternId], &'a Cell<bool>);

impl ForbidPattern for Ring<'_> {
    fn forbid<W: wfc::wrap::Wrap, R: rand::Rng>(
        &mut self,
        fi: &mut ForbidInterface<W>,
        rng: &mut R,
    ) {
        let size = fi.wave_size();
        let (w, h) = (size.width() as i32, size.height() as i32);
        for y in 0..h {
            for x in 0..w {
                let on_ring = x == 0 || y == 0 || x + 1 == w || y + 1 == h;
                let ring: &[PatternId] = if on_ring { self.0 } else { &[] };
                for &p in ring.iter().chain(self.1) {
                    if fi.forbid_pattern(wfc::Coord::new(x, y), p, rng).is_err() {
                        self.2.set(true);
                        return;
                    }
                }
            }
        }
    }
}

/// Each of the crate's patterns with its cells (row-major), read as the
/// crate reads them: its `TiledGridSlice` of the sample, each cell at the
/// slice's offset plus `Orientation::transform_coord`, wrapping.
fn crate_patterns(
    sample: &OverlappingPatterns<u8>,
    rows: &[&[u8]],
    n: usize,
    orientations: &[Orientation],
) -> Vec<(PatternId, Vec<u8>)> {
    let (sw, sh) = (rows[0].len() as i32, rows.len() as i32);
    let m = n as i32 - 1;
    let ids = sample.id_grid();
    let mut found = Vec::new();
    for y in 0..sh {
        for x in 0..sw {
            for &o in orientations {
                let Some(&id) = ids.get_checked(wfc::Coord::new(x, y)).get(o) else {
                    continue;
                };
                let cell = |k: i32| {
                    let (cx, cy) = (k % n as i32, k / n as i32);
                    let (tx, ty) = match o {
                        Orientation::Original => (cx, cy),
                        Orientation::Clockwise90 => (cy, m - cx),
                        Orientation::Clockwise180 => (m - cx, m - cy),
                        Orientation::Clockwise270 => (m - cy, cx),
                        Orientation::DiagonallyFlipped => (cy, cx),
                        Orientation::DiagonallyFlippedClockwise90 => (m - cx, cy),
                        Orientation::DiagonallyFlippedClockwise180 => (m - cy, m - cx),
                        Orientation::DiagonallyFlippedClockwise270 => (cx, m - cy),
                    };
                    rows[((y + ty) % sh) as usize][((x + tx) % sw) as usize]
                };
                found.push((id, (0..(n * n) as i32).map(cell).collect()));
            }
        }
    }
    found.sort();
    found.dedup();
    found
}
