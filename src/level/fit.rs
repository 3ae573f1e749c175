//! Where a vault fits: the top-left cells it may take, counted and drawn
//! without visiting the map.

use crate::grid::{Pos, Rect};
use crate::rng::Rng;

/// The top-left cells where a `w` x `h` vault fits on a `width` x `height`
/// map: `x` from 3 to `width - 1 - w` (its last column at most `width -
/// 2`), `y` likewise, outside every `taken` rectangle (a vault grown by
/// one, or a kept cell). Counted and indexed by bands of rows between the
/// taken rectangles' edges, so the work grows with their number squared,
/// not with the map.
pub struct Fit {
    xs: (i64, i64),
    ys: (i64, i64),
    /// Each taken rectangle as the top-left cells it rules out, clipped:
    /// `(x0, x1, y0, y1)`, inclusive.
    blocked: Vec<(i64, i64, i64, i64)>,
}

/// Rows `top..bottom` of top-left cells whose blocked columns are the same:
/// `(top, bottom, blocked intervals, merged and in order)`.
type Band = (i64, i64, Vec<(i64, i64)>);

impl Fit {
    pub fn new(width: usize, height: usize, (w, h): (usize, usize), taken: &[Rect]) -> Fit {
        let (w, h) = (w as i64, h as i64);
        let xs = (3, width as i64 - 1 - w);
        let ys = (3, height as i64 - 1 - h);
        let blocked = taken
            .iter()
            .map(|r| {
                let (x, y) = (r.x as i64, r.y as i64);
                (
                    (x - w + 1).max(xs.0),
                    (x + r.w as i64 - 1).min(xs.1),
                    (y - h + 1).max(ys.0),
                    (y + r.h as i64 - 1).min(ys.1),
                )
            })
            .filter(|&(x0, x1, y0, y1)| x0 <= x1 && y0 <= y1)
            .collect();
        Fit { xs, ys, blocked }
    }

    /// The bands of rows, top to bottom.
    fn bands(&self) -> Vec<Band> {
        let (y0, y1) = self.ys;
        if self.xs.0 > self.xs.1 || y0 > y1 {
            return Vec::new();
        }
        let mut edges: Vec<i64> = vec![y0, y1 + 1];
        for &(_, _, by0, by1) in &self.blocked {
            edges.push(by0);
            edges.push(by1 + 1);
        }
        edges.sort_unstable();
        edges.dedup();
        edges
            .windows(2)
            .map(|pair| {
                let (top, bottom) = (pair[0], pair[1]);
                let mut spans: Vec<(i64, i64)> = self
                    .blocked
                    .iter()
                    .filter(|b| b.2 <= top && top <= b.3)
                    .map(|b| (b.0, b.1))
                    .collect();
                spans.sort_unstable();
                let mut merged: Vec<(i64, i64)> = Vec::with_capacity(spans.len());
                for (a, b) in spans {
                    match merged.last_mut() {
                        Some(last) if a <= last.1 + 1 => last.1 = last.1.max(b),
                        _ => merged.push((a, b)),
                    }
                }
                (top, bottom, merged)
            })
            .collect()
    }

    /// The free columns of a row whose blocked intervals are `merged`.
    fn free(&self, merged: &[(i64, i64)]) -> i64 {
        let blocked: i64 = merged.iter().map(|&(a, b)| b - a + 1).sum();
        self.xs.1 - self.xs.0 + 1 - blocked
    }

    /// How many top-left cells are free.
    fn count(&self, bands: &[Band]) -> u64 {
        bands
            .iter()
            .map(|(top, bottom, merged)| (self.free(merged) * (bottom - top)) as u64)
            .sum()
    }

    /// A free top-left cell drawn uniformly (one draw), or `None` (no draw)
    /// when there is none.
    pub fn nth_draw(&self, rng: &mut Rng) -> Option<Pos> {
        let bands = self.bands();
        let count = self.count(&bands);
        if count == 0 {
            return None;
        }
        let mut k = rng.below(count as usize) as i64;
        for (top, bottom, merged) in &bands {
            let free = self.free(merged);
            let here = free * (bottom - top);
            if k >= here {
                k -= here;
                continue;
            }
            let y = top + k / free;
            let mut x = self.xs.0 + k % free;
            // Skip the blocked intervals at or before x, in order.
            for &(a, b) in merged {
                if a <= x {
                    x += b - a + 1;
                }
            }
            return Some(Pos {
                x: x as usize,
                y: y as usize,
            });
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fit_counts_and_indexes_every_free_cell_in_row_order() {
        let taken = [
            Rect {
                x: 5,
                y: 4,
                w: 3,
                h: 2,
            },
            Rect {
                x: 12,
                y: 9,
                w: 1,
                h: 1,
            },
            Rect {
                x: 6,
                y: 5,
                w: 4,
                h: 4,
            },
        ];
        for (w, h) in [(1, 1), (2, 3), (4, 1), (9, 9), (13, 2)] {
            let fit = Fit::new(20, 15, (w, h), &taken);
            let brute: Vec<Pos> = (3..=15 - 1 - h as i64)
                .flat_map(|y| (3..=20 - 1 - w as i64).map(move |x| (x, y)))
                .filter(|&(x, y)| {
                    taken.iter().all(|r| {
                        let (rx, ry) = (r.x as i64, r.y as i64);
                        x + w as i64 <= rx
                            || rx + r.w as i64 <= x
                            || y + h as i64 <= ry
                            || ry + r.h as i64 <= y
                    })
                })
                .map(|(x, y)| Pos {
                    x: x as usize,
                    y: y as usize,
                })
                .collect();
            let mut sorted = brute.clone();
            sorted.sort_by_key(|p| (p.y, p.x));
            let bands = fit.bands();
            assert_eq!(fit.count(&bands), sorted.len() as u64, "{w}x{h}");
            for seed in 0..50 {
                let mut a = Rng::new(seed);
                let mut b = Rng::new(seed);
                let got = fit.nth_draw(&mut a);
                let want = (!sorted.is_empty()).then(|| sorted[b.below(sorted.len())]);
                assert_eq!(got, want, "{w}x{h} seed {seed}");
            }
        }
    }
}
