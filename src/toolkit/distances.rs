//! Dijkstra maps: the walking distance (or summed entering cost) from the
//! nearest of some sources to every cell, searched on the `Board`.

use super::board::{Board, Charges, Limits, Source, Walk, BEYOND, MAX_VALUE, UNREACHED};
use crate::grid::{Grid, Pos, Rect};

/// Steps (or summed costs) from the nearest source to every cell, row-major; UNREACHED for
/// blocked or unreachable cells. A source counts (distance 0) even on a blocked character.
/// Entering a cell costs its character's cost. With `diagonal`, a diagonal step is allowed only
/// when both orthogonal cells it passes are enterable (not blocked) — no corner cutting.
///
/// Unit costs are a breadth-first search, others Dijkstra's algorithm over a
/// radix heap, both on a padded copy of the grid (see `Board`).
pub fn distances(grid: &Grid, sources: &[Pos], walk: &Walk) -> Vec<u64> {
    let mut board = Board::new(grid, walk);
    let sources: Vec<usize> = sources.iter().map(|&p| board.index(p)).collect();
    board.search(&sources, None);
    let mut rows = board.distances();
    for &s in &sources {
        // A blocked source keeps its closed mark in the search (it is a
        // corner like any blocked cell), so its 0 is written here.
        rows[grid.index(board.pos(s))] = 0;
    }
    rows
}

/// A distance map as `map.distances` makes it: the least of `value + cost
/// of the walk` over the sources, for each cell, row-major; `BEYOND` where
/// that is more than `limits.max_value()` or no walk leads, and for cells
/// that cannot be entered (but sources, which count even when blocked or
/// closed). `limits.closed` cells cannot be entered, and are corners as
/// blocked ones are. Every value lies within `±MAX_VALUE`: start values
/// must (the binding checks them), and no farther cell is settled.
///
/// A source whose value is beyond the limit reaches nothing, not even its
/// own cell. The search settles only cells within the limit, so its work
/// grows with the area within `max`; the board is the grid's size.
pub fn distances_from(grid: &Grid, sources: &[Source], walk: &Walk, limits: &Limits) -> Vec<i64> {
    distances_charged(grid, sources, walk, limits, &Charges::none())
}

/// `distances_from` with steps charged as `charges` says
/// (`Board::charge`).
pub fn distances_charged(
    grid: &Grid,
    sources: &[Source],
    walk: &Walk,
    limits: &Limits,
    charges: &Charges,
) -> Vec<i64> {
    let max = limits.max_value();
    let mut board = Board::new(grid, walk);
    board.close(&limits.closed);
    board.charge(charges);
    let kept = || sources.iter().filter(|s| s.value <= max);
    let Some(least) = kept().map(|s| s.value).min() else {
        return vec![BEYOND; grid.cells().len()];
    };
    // Keys count from the least start value, so that they are >= 0. One
    // copy of the sources only: they may come by the million.
    let keyed: Vec<(usize, u64)> = kept()
        .map(|s| (board.index(s.pos), (s.value - least) as u64))
        .collect();
    board.set_limit((max - least) as u64);
    if walk.cost.is_none() && charges.is_none() && keyed.iter().all(|&(_, k)| k == 0) {
        let indices: Vec<usize> = keyed.iter().map(|&(i, _)| i).collect();
        board.search(&indices, None);
    } else {
        board.search_keyed(&keyed);
    }
    let mut values: Vec<i64> = board
        .distances()
        .into_iter()
        .map(|d| {
            if d == UNREACHED {
                BEYOND
            } else {
                d as i64 + least
            }
        })
        .collect();
    for &(i, k) in &keyed {
        let v = k as i64 + least;
        // A breadth-first search leaves a closed source unmarked (it is a
        // corner like any closed cell): its value is its own, or a lower
        // one given for the same cell.
        let cell = grid.index(board.pos(i));
        values[cell] = values[cell].min(v);
    }
    values
}

/// The cells a search from `sources` within `max` can settle: those within
/// `max - value` of a source along each axis (a step moves one cell at
/// most and costs at least 1); the whole map without `max`. With no
/// source within `max`, the first source's cell alone.
pub fn search_window(sources: &[Source], max: Option<i64>, size: (usize, usize)) -> Rect {
    let Some(max) = max.map(|m| m.min(MAX_VALUE)) else {
        return Rect::whole(size);
    };
    reaching(sources, Some(max))
        .map(|s| Rect::around(s.pos, (max - s.value) as usize, size))
        .reduce(|a, b| a.union(&b))
        .unwrap_or_else(|| Rect::around(sources[0].pos, 0, size))
}

/// The sources a search within `max` starts from: those whose start
/// value is within it (`MAX_VALUE` at most, as `Limits::max_value`).
pub fn reaching(sources: &[Source], max: Option<i64>) -> impl Iterator<Item = &Source> {
    let max = max.map_or(MAX_VALUE, |m| m.min(MAX_VALUE));
    sources.iter().filter(move |s| s.value <= max)
}

/// The sources inside `window`, as cells of it (in place, from a vector).
pub fn within(sources: impl IntoIterator<Item = Source>, window: Rect) -> Vec<Source> {
    let inside = sources.into_iter().filter(|s| window.contains(s.pos));
    inside
        .map(|s| Source {
            pos: window.inside(s.pos),
            ..s
        })
        .collect()
}

/// The most sources whose windows `search_parts` keeps apart; past it a
/// search has one window. Merging is quadratic in the sources.
pub const MAX_PART_SOURCES: usize = 256;

/// The windows apart that hold every cell a search from `sources` within
/// `max` can settle: each source's as `search_window` has it, those that
/// share or touch a cell merged until none does. A cell within `max` of a
/// source is in its window alone, so a search over each window gives the
/// values a search over `search_window`'s gives (the windows' union); no
/// step joins two windows, so `flee`'s rescan of each gives the same too.
/// One window, `search_window`'s, without `max` or a source within it, or
/// with more than `MAX_PART_SOURCES` within it.
pub fn search_parts(sources: &[Source], max: Option<i64>, size: (usize, usize)) -> Vec<Rect> {
    let whole = || vec![search_window(sources, max, size)];
    let Some(max) = max.map(|m| m.min(MAX_VALUE)) else {
        return whole();
    };
    let count = reaching(sources, Some(max)).count();
    if count == 0 || count > MAX_PART_SOURCES {
        return whole();
    }
    let mut parts: Vec<Rect> = Vec::new();
    for s in reaching(sources, Some(max)) {
        let mut part = Rect::around(s.pos, (max - s.value) as usize, size);
        while let Some(i) = parts.iter().position(|p| p.crowds(&part)) {
            part = part.union(&parts.swap_remove(i));
        }
        parts.push(part);
    }
    parts
}

/// The memory `distances` from `sources` sources over a window of `size`
/// may use (`weighted`: by Dijkstra's algorithm, for costs or start
/// values): the window's copy, its closed cells and the `known` flags read
/// (a byte each), the search, the sources as read and as board indices
/// with their keys (56 bytes each), the distances (a `u64` a cell) and, on
/// LuaJIT, the same again as bytes.
pub fn bound(size: (usize, usize), sources: usize, weighted: bool) -> usize {
    let cells = size.0 * size.1;
    // The window's copy, its closed cells, the `known` flags read and the
    // cells an `occupied` cost charges: a byte each.
    4 * cells
        + super::board::search_bytes(size, sources, weighted)
        + 56 * sources
        + 16 * cells
        + crate::memory::FIXED
}

/// The memory the sources of a search take as read (a position and a
/// value, 24 bytes each), before the window they decide is known.
pub fn bound_sources(sources: usize) -> usize {
    24 * sources + crate::memory::FIXED
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::byte_set;
    use crate::toolkit::board::{MAX_COST, UNREACHED};

    const U: u64 = UNREACHED;

    fn at(x: usize, y: usize) -> Pos {
        Pos { x, y }
    }

    fn costs(pairs: &[(u8, u64)]) -> Walk {
        let mut cost = Box::new([1; 256]);
        for &(c, v) in pairs {
            cost[c as usize] = v;
        }
        Walk {
            cost: Some(cost),
            ..Walk::new()
        }
    }

    #[test]
    fn corridor_counts_steps() {
        let g = Grid::from_rows(&["#####", "#...#", "#####"]);
        let d = distances(&g, &[at(2, 2)], &Walk::new());
        assert_eq!(&d[5..10], &[U, 0, 1, 2, U]);
        assert!(d[..5].iter().all(|&v| v == U));
    }

    #[test]
    fn walks_around_a_pillar() {
        let g = Grid::from_rows(&["...", ".#.", "..."]);
        let d = distances(&g, &[at(1, 1)], &Walk::new());
        assert_eq!(d, vec![0, 1, 2, 1, U, 3, 2, 3, 4]);
        let d = distances(&g, &[at(1, 1)], &Walk::diagonal());
        assert_eq!(d, vec![0, 1, 2, 1, U, 3, 2, 3, 4], "corners are not cut");
    }

    #[test]
    fn open_room_with_diagonals_is_chebyshev() {
        let g = Grid::new(7, 5, b'.');
        let d = distances(&g, &[at(4, 3)], &Walk::diagonal());
        for (i, &v) in d.iter().enumerate() {
            let p = g.pos(i);
            assert_eq!(v as usize, p.x.abs_diff(4).max(p.y.abs_diff(3)));
        }
    }

    #[test]
    fn no_border_and_one_cell_grids() {
        let g = Grid::from_rows(&["..", ".."]);
        assert_eq!(distances(&g, &[at(2, 2)], &Walk::new()), vec![2, 1, 1, 0]);
        assert_eq!(
            distances(&Grid::from_rows(&["#"]), &[at(1, 1)], &Walk::new()),
            vec![0]
        );
        assert_eq!(
            distances(&Grid::from_rows(&["."]), &[], &Walk::new()),
            vec![U]
        );
    }

    #[test]
    fn nearest_of_several_sources_and_duplicates() {
        let g = Grid::from_rows(&["......."]);
        let d = distances(&g, &[at(1, 1), at(7, 1), at(7, 1)], &Walk::new());
        assert_eq!(d, vec![0, 1, 2, 3, 2, 1, 0]);
    }

    #[test]
    fn a_blocked_source_counts_and_can_be_left() {
        let g = Grid::from_rows(&[".#.", "###"]);
        let d = distances(&g, &[at(2, 1)], &Walk::new());
        assert_eq!(d, vec![1, 0, 1, U, U, U]);
        // Another blocked cell is still never entered.
        let g = Grid::from_rows(&["#.#"]);
        assert_eq!(distances(&g, &[at(1, 1)], &Walk::new()), vec![0, 1, U]);
    }

    #[test]
    fn diagonal_steps_need_both_corners_open_even_from_a_source() {
        let g = Grid::from_rows(&[".#", ".."]);
        let d = distances(&g, &[at(1, 1)], &Walk::diagonal());
        assert_eq!(d, vec![0, U, 1, 2]);
        let g = Grid::from_rows(&["..", ".."]);
        assert_eq!(
            distances(&g, &[at(1, 1)], &Walk::diagonal()),
            vec![0, 1, 1, 1]
        );
        let g = Grid::from_rows(&["#.", ".."]);
        let d = distances(&g, &[at(2, 1)], &Walk::diagonal());
        assert_eq!(d, vec![U, 0, 2, 1]);
        // Out of a blocked source: the same rule.
        let g = Grid::from_rows(&["#.", "#."]);
        let d = distances(&g, &[at(1, 1)], &Walk::diagonal());
        assert_eq!(d, vec![0, 1, U, 2]);
        let g = Grid::from_rows(&["#.", ".."]);
        let d = distances(&g, &[at(1, 1)], &Walk::diagonal());
        assert_eq!(d, vec![0, 1, 1, 1]);
    }

    #[test]
    fn weighted_costs_charge_the_cell_entered() {
        let g = Grid::from_rows(&["@~~>", "@..."]);
        let walk = costs(&[(b'~', 5), (b'>', 2)]);
        let d = distances(&g, &[at(1, 1)], &walk);
        assert_eq!(d, vec![0, 5, 8, 6, 1, 2, 3, 4]);
        // A blocked source charges nothing to leave.
        let walk = Walk {
            blocked: byte_set(b"@"),
            ..costs(&[(b'.', 7)])
        };
        let d = distances(&g, &[at(1, 2)], &walk);
        assert_eq!(d, vec![U, 8, 9, 10, 0, 7, 14, 17]);
    }

    #[test]
    fn weighted_with_diagonals() {
        let g = Grid::from_rows(&["...", ".~.", "..."]);
        let mut walk = costs(&[(b'~', 10)]);
        walk.diagonal = true;
        let d = distances(&g, &[at(1, 1)], &walk);
        assert_eq!(d, vec![0, 1, 2, 1, 10, 2, 2, 2, 3]);
    }

    #[test]
    fn nothing_blocked_and_any_character_walks() {
        let walk = Walk {
            blocked: [false; 256],
            ..Walk::new()
        };
        let d = distances(&Grid::from_rows(&["#\0\u{7f}"]), &[at(1, 1)], &walk);
        assert_eq!(d, vec![0, 1, 2]);
    }

    #[test]
    #[should_panic(expected = "outside 1..=1073741824")]
    fn a_free_step_is_refused() {
        distances(&Grid::from_rows(&["."]), &[at(1, 1)], &costs(&[(b'x', 0)]));
    }

    #[test]
    fn the_largest_costs_sum_exactly() {
        let g = Grid::new(1000, 1, b'.');
        let walk = costs(&[(b'.', MAX_COST)]);
        let d = distances(&g, &[at(1, 1)], &walk);
        assert_eq!(d[999], 999 * MAX_COST);
    }

    /// The values over `window` of a search within `max` over it (every
    /// source given as a cell of the map), as cells of the map: the
    /// distances and `flee`'s safety map.
    fn over(
        grid: &Grid,
        window: Rect,
        sources: &[Source],
        walk: &Walk,
        max: i64,
    ) -> Vec<(Pos, (i64, i64))> {
        let cells: Vec<u8> = window.cells().map(|p| grid.get(p)).collect();
        let part = Grid::from_cells(window.w, window.h, cells);
        let inside = within(sources.iter().copied(), window);
        let limits = Limits {
            closed: Vec::new(),
            max: Some(max),
        };
        let values = distances_charged(&part, &inside, walk, &limits, &Charges::none());
        let safety = super::super::flee::flee(&part, &inside, walk, &limits, -1.2).unwrap();
        window.cells().zip(values.into_iter().zip(safety)).collect()
    }

    #[test]
    fn a_search_in_parts_gives_the_values_of_one_search_round_them_all() {
        let mut rng = crate::rng::Rng::new(35);
        let mut split = 0;
        for case in 0..400 {
            let (w, h) = (1 + rng.below(60), 1 + rng.below(40));
            let cells = (0..w * h)
                .map(|_| if rng.below(4) == 0 { b'#' } else { b'.' })
                .collect();
            let grid = Grid::from_cells(w, h, cells);
            let mut walk = if case % 3 == 0 {
                costs(&[(b'.', 2)])
            } else {
                Walk::new()
            };
            walk.diagonal = case % 2 == 0;
            let max = rng.below(12) as i64;
            let sources: Vec<Source> = (0..1 + rng.below(8))
                .map(|_| Source {
                    pos: at(1 + rng.below(w), 1 + rng.below(h)),
                    value: rng.below(14) as i64 - 2,
                })
                .collect();
            let whole = search_window(&sources, Some(max), (w, h));
            let parts = search_parts(&sources, Some(max), (w, h));
            split += usize::from(parts.len() > 1);
            for (i, a) in parts.iter().enumerate() {
                assert!(
                    parts[i + 1..].iter().all(|b| !a.crowds(b)),
                    "case {case}: parts touch"
                );
                assert_eq!(
                    a.union(&whole),
                    whole,
                    "case {case}: a part outside the window"
                );
            }
            let union = parts.iter().skip(1).fold(parts[0], |u, p| u.union(p));
            assert_eq!(union, whole, "case {case}: the parts' box is the window");
            let mut by_parts = vec![(BEYOND, BEYOND); w * h];
            for &part in &parts {
                for (p, v) in over(&grid, part, &sources, &walk, max) {
                    by_parts[grid.index(p)] = v;
                }
            }
            for (p, v) in over(&grid, whole, &sources, &walk, max) {
                assert_eq!(by_parts[grid.index(p)], v, "case {case}: cell {p:?}");
            }
        }
        assert!(split > 100, "only {split} cases in parts");
    }

    #[test]
    fn one_part_without_max_or_past_the_most_sources() {
        let size = (1000, 1000);
        let far = |n: usize| {
            (0..n).map(|i| Source {
                pos: at(1 + 7 * (i % 140), 1 + 7 * (i / 140)),
                value: 0,
            })
        };
        let sources: Vec<Source> = far(MAX_PART_SOURCES).collect();
        assert_eq!(
            search_parts(&sources, Some(2), size).len(),
            MAX_PART_SOURCES
        );
        let sources: Vec<Source> = far(MAX_PART_SOURCES + 1).collect();
        assert_eq!(
            search_parts(&sources, Some(2), size),
            vec![search_window(&sources, Some(2), size)]
        );
        assert_eq!(search_parts(&sources, None, size), vec![Rect::whole(size)]);
        let out_of_reach = [Source {
            pos: at(5, 5),
            value: 9,
        }];
        assert_eq!(
            search_parts(&out_of_reach, Some(3), size),
            vec![Rect::around(at(5, 5), 0, size)]
        );
    }
}
