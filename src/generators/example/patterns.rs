//! The overlapping model's patterns: every n x n window of the sample (of
//! the sample wrapped round, when it wraps), under the symmetries asked
//! for, each once, weighted by how often it occurs.

use std::collections::HashMap;

/// Which of the sample's symmetries count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Symmetry {
    None,
    Rotations,
    /// Rotations and reflections: the 8 symmetries of the square.
    All,
}

impl Symmetry {
    fn variants(self) -> usize {
        match self {
            Symmetry::None => 1,
            Symmetry::Rotations => 4,
            Symmetry::All => 8,
        }
    }
}

/// The sample, a grid of characters (`rows` of equal length).
pub struct Sample<'a> {
    pub width: usize,
    pub height: usize,
    pub cells: &'a [u8],
}

pub struct Patterns {
    pub n: usize,
    /// Pattern `p`'s cells, row by row: `cells[p * n * n..][..n * n]`.
    cells: Vec<u8>,
    pub weights: Vec<u32>,
}

impl Patterns {
    /// The patterns of `sample`, in the order they are first met (windows
    /// in row order, each window's variants in a fixed order): the order is
    /// part of what a seed gives. `limit` stops the reading at that many
    /// patterns (`None` then: too many).
    pub fn read(
        sample: &Sample,
        n: usize,
        symmetry: Symmetry,
        wraps: bool,
        limit: usize,
    ) -> Option<Patterns> {
        let (w, h) = (sample.width, sample.height);
        let (xs, ys) = match wraps {
            true => (w, h),
            false => (w + 1 - n, h + 1 - n),
        };
        let mut index: HashMap<Vec<u8>, usize> = HashMap::new();
        let mut patterns = Patterns {
            n,
            cells: Vec::new(),
            weights: Vec::new(),
        };
        let mut window = vec![0u8; n * n];
        for y in 0..ys {
            for x in 0..xs {
                for dy in 0..n {
                    for dx in 0..n {
                        window[dy * n + dx] = sample.cells[(y + dy) % h * w + (x + dx) % w];
                    }
                }
                for v in 0..symmetry.variants() {
                    let variant = transformed(&window, n, v);
                    if let Some(&p) = index.get(&variant) {
                        patterns.weights[p] += 1;
                        continue;
                    }
                    if patterns.weights.len() == limit {
                        return None;
                    }
                    index.insert(variant.clone(), patterns.weights.len());
                    patterns.cells.extend_from_slice(&variant);
                    patterns.weights.push(1);
                }
            }
        }
        Some(patterns)
    }

    pub fn len(&self) -> usize {
        self.weights.len()
    }

    /// Never, once read: a sample of at least n x n has a window.
    pub fn is_empty(&self) -> bool {
        self.weights.is_empty()
    }

    /// Pattern `p`'s character at (`dx`, `dy`) of its window.
    pub fn at(&self, p: usize, dx: usize, dy: usize) -> u8 {
        self.cells[p * self.n * self.n + dy * self.n + dx]
    }

    /// Whether `q` may lie at (`dx`, `dy`) from `p`: the two agree where
    /// they overlap.
    pub fn agree(&self, p: usize, q: usize, dx: isize, dy: isize) -> bool {
        let n = self.n as isize;
        let (x0, x1) = (dx.max(0), (n + dx).min(n));
        let (y0, y1) = (dy.max(0), (n + dy).min(n));
        (y0..y1).all(|y| {
            (x0..x1).all(|x| {
                self.at(p, x as usize, y as usize) == self.at(q, (x - dx) as usize, (y - dy) as usize)
            })
        })
    }

    /// Whether `window` (n x n, row by row) is one of the patterns.
    pub fn contains(&self, window: &[u8]) -> bool {
        self.find(window).is_some()
    }

    /// The pattern `window` (n x n, row by row) is, if one.
    pub fn find(&self, window: &[u8]) -> Option<usize> {
        let size = self.n * self.n;
        self.cells.chunks_exact(size).position(|c| c == window)
    }
}

/// `window` under symmetry `v` of 8: 0-3 turns by a quarter, 4-7 the same
/// after a mirror.
fn transformed(window: &[u8], n: usize, v: usize) -> Vec<u8> {
    let mut out = vec![0u8; n * n];
    for y in 0..n {
        for x in 0..n {
            let (mut sx, mut sy) = if v >= 4 { (n - 1 - x, y) } else { (x, y) };
            for _ in 0..v % 4 {
                (sx, sy) = (sy, n - 1 - sx);
            }
            out[y * n + x] = window[sy * n + sx];
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_eight_symmetries_are_distinct_on_an_asymmetric_window() {
        let w = b"abcdefghi";
        let all: Vec<Vec<u8>> = (0..8).map(|v| transformed(w, 3, v)).collect();
        for i in 0..8 {
            for j in 0..i {
                assert_ne!(all[i], all[j], "{i} {j}");
            }
        }
        assert_eq!(all[0], w.to_vec());
        let four = (0..4).fold(w.to_vec(), |acc, _| transformed(&acc, 3, 1));
        assert_eq!(four, w.to_vec());
    }

    #[test]
    fn windows_are_counted_and_a_limit_stops_the_reading() {
        let cells = b"#####...#####";
        let sample = Sample {
            width: 13,
            height: 1,
            cells,
        };
        let p = Patterns::read(&sample, 1, Symmetry::None, false, 10).unwrap();
        assert_eq!(p.weights, [10, 3]);
        assert!(Patterns::read(&sample, 1, Symmetry::None, false, 1).is_none());
        assert!(p.agree(0, 1, 1, 0));
    }
}
