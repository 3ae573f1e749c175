//! Random cells for spawning: distinct cells of some characters, far enough
//! from a cell and out of its sight if asked, drawn by a seed.

use std::fmt;

use super::board::{Limits, Walk, BEYOND};
use super::distances::distances_from;
use super::fov;
use crate::grid::{ByteSet, Grid, Pos};
use crate::rng::Rng;

/// Which cells may be drawn.
#[derive(Clone, Debug)]
pub struct Filter {
    /// The characters a cell drawn may hold.
    pub chars: ByteSet,
    /// Only cells whose walking distance from a cell lies in a range.
    pub from: Option<Near>,
    /// Only cells not visible from `from`'s cell, by `fov` without a
    /// radius, with these characters opaque.
    pub hidden: Option<ByteSet>,
    /// Cells never drawn, row-major (a level's occupied cells); empty: none.
    pub excluded: Vec<bool>,
}

/// A walking distance from `pos` (`distances`' rule under `walk`) from
/// `min` to `max` (`None`: no limit).
#[derive(Clone, Debug)]
pub struct Near {
    pub pos: Pos,
    pub walk: Walk,
    pub min: i64,
    pub max: Option<i64>,
}

/// Fewer candidates than cells asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooFew {
    pub count: usize,
    pub candidates: usize,
}

impl fmt::Display for TooFew {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = if self.candidates == 1 { "" } else { "s" };
        write!(
            f,
            "count is {} but only {} cell{s} can be drawn",
            self.count, self.candidates
        )
    }
}

/// `count` distinct cells passing `filter`, in the order drawn: the
/// candidates are listed in row order, then the first `count` places of a
/// Fisher-Yates shuffle drawn with `Rng::new(seed)` (place `i` takes the
/// candidate at a uniform index from `i` on) are the result. The same grid,
/// count, seed and filter give the same cells on every run and release.
///
/// With `filter.from`, a cell counts only when it is reached (the distance
/// map does not say `BEYOND`), so no cell walled off from `from` is drawn.
pub fn sample(grid: &Grid, count: usize, seed: i64, filter: &Filter) -> Result<Vec<Pos>, TooFew> {
    let near = filter.from.as_ref().map(|near| {
        let limits = Limits {
            closed: Vec::new(),
            max: near.max,
        };
        (
            near,
            distances_from(grid, &[near.pos.into()], &near.walk, &limits),
        )
    });
    let seen = match (&filter.from, &filter.hidden) {
        (Some(near), Some(opaque)) => fov::visible(grid, near.pos, None, opaque),
        _ => Vec::new(),
    };
    let mut candidates: Vec<u32> = (0..grid.cells().len())
        .filter(|&i| filter.chars[grid.cells()[i] as usize])
        .filter(|&i| {
            near.as_ref()
                .is_none_or(|(n, d)| d[i] != BEYOND && d[i] >= n.min)
        })
        .filter(|&i| seen.is_empty() || !seen[i])
        .filter(|&i| filter.excluded.get(i) != Some(&true))
        .map(|i| i as u32)
        .collect();
    drop((near, seen));
    let n = candidates.len();
    if count > n {
        return Err(TooFew {
            count,
            candidates: n,
        });
    }
    let mut rng = Rng::new(seed);
    for i in 0..count {
        let j = i + rng.below(n - i);
        candidates.swap(i, j);
    }
    Ok(candidates[..count]
        .iter()
        .map(|&i| grid.pos(i as usize))
        .collect())
}

/// The memory `sample` may use: the map's copy, the distances from `from`,
/// the visible cells (a byte each), the candidates (a `u32` each) and the
/// cells drawn (a position each, at most every cell).
pub fn bound(size: (usize, usize)) -> usize {
    let cells = size.0 * size.1;
    super::distances::bound(size, 1, false) + 5 * cells + 16 * cells
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::byte_set;

    fn at(x: usize, y: usize) -> Pos {
        Pos { x, y }
    }

    fn floor() -> Filter {
        Filter {
            chars: byte_set(b"."),
            from: None,
            hidden: None,
            excluded: Vec::new(),
        }
    }

    #[test]
    fn draws_distinct_cells_of_the_characters_the_same_for_a_seed() {
        let g = Grid::from_rows(&["#....#", "#.$..#", "######"]);
        let a = sample(&g, 7, 9, &floor()).unwrap();
        assert_eq!(a.len(), 7);
        let mut sorted: Vec<usize> = a.iter().map(|&p| g.index(p)).collect();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), 7);
        assert!(a.iter().all(|&p| g.get(p) == b'.'));
        assert_eq!(a, sample(&g, 7, 9, &floor()).unwrap());
        assert_ne!(a, sample(&g, 7, 10, &floor()).unwrap());
        assert_eq!(sample(&g, 0, 9, &floor()), Ok(vec![]));
        let err = sample(&g, 8, 9, &floor()).unwrap_err();
        assert_eq!(err.to_string(), "count is 8 but only 7 cells can be drawn");
    }

    #[test]
    fn keeps_to_the_walking_distance_and_out_of_sight() {
        let g = Grid::from_rows(&["......", "####.#", "......"]);
        let near = |min, max| Near {
            pos: at(1, 1),
            walk: Walk::new(),
            min,
            max,
        };
        let filter = Filter {
            from: Some(near(6, Some(7))),
            ..floor()
        };
        // (5,2) is 5 away, (5,3) 6 and (4,3) and (6,3) 7.
        let mut cells = sample(&g, 3, 1, &filter).unwrap();
        cells.sort_by_key(|&p| g.index(p));
        assert_eq!(cells, [at(4, 3), at(5, 3), at(6, 3)]);
        assert_eq!(sample(&g, 4, 1, &filter).unwrap_err().candidates, 3);
        let hidden = Filter {
            from: Some(near(0, None)),
            hidden: Some(byte_set(b"#")),
            ..floor()
        };
        let seen = fov::visible(&g, at(1, 1), None, &byte_set(b"#"));
        let out_of_sight = (0..18)
            .filter(|&i| g.cells()[i] == b'.' && !seen[i])
            .count();
        // Row 3, and (5,2): the wall (4,2) hides it from (1,1).
        assert_eq!(out_of_sight, 7);
        let err = sample(&g, 18, 3, &hidden).unwrap_err();
        assert_eq!(err.candidates, out_of_sight);
        let cells = sample(&g, out_of_sight, 3, &hidden).unwrap();
        assert!(cells.iter().all(|&p| !seen[g.index(p)]));
    }
}
