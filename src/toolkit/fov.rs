//! Field of view: Albert Ford's symmetric shadowcasting
//! (<https://www.albertford.com/shadowcasting/>), step for step, in exact
//! integer arithmetic.
//!
//! Each quadrant is scanned row by row away from the origin; a row is the
//! span of columns between a start and an end slope, and each run of
//! see-through cells in it lights the part of the next row behind it. The
//! reference uses `Fraction` slopes; here a slope is a pair of integers,
//! compared by cross-multiplying and rounded by floor division, so no float
//! can break the symmetry.

use crate::grid::{ByteSet, Grid, Pos};

/// Visible cells from `origin` on `grid`, row-major over the grid (len = width*height).
/// Cells outside the grid are opaque. `radius`: None = unlimited; Some(r): only cells with
/// dx*dx + dy*dy <= r*(r+1) are visible, and the result equals the unlimited result restricted
/// to that disc. With a radius the work must be O(r^2), never O(grid): the binding will pass
/// a grid that is only the (2r+1)x(2r+1) window around the origin (clipped to the map), so
/// scanning rows to depth r only is required (depth <= r covers the disc).
///
/// As in Ford's reference: the origin is always visible; a transparent cell
/// is visible when its centre lies within the row's slopes (which makes
/// sight symmetric between transparent cells); an opaque cell is visible
/// whenever any part of it is in the lit span (walls are expansive). An
/// opaque origin sees like a transparent one.
pub fn visible(grid: &Grid, origin: Pos, radius: Option<usize>, opaque: &ByteSet) -> Vec<bool> {
    assert!(grid.contains(origin), "origin {origin:?} outside the grid");
    let mut seen = vec![false; grid.cells().len()];
    let out = Out {
        flags: &mut seen,
        width: grid.width(),
        corner: (1, 1),
    };
    scan(grid, origin, radius, opaque, out);
    seen
}

/// Where a scan marks what it sees: `flags`, row-major over a map
/// `width` wide, in which the grid scanned is the window whose top-left
/// cell is `corner` (1-based).
pub struct Out<'a> {
    pub flags: &'a mut [bool],
    pub width: usize,
    pub corner: (usize, usize),
}

/// `visible`'s cells marked straight into `out` (a memory: what it holds
/// already stays), with no buffer of the window's size; returns how many
/// cells are visible (each once, whether or not it was marked before).
pub fn mark(
    grid: &Grid,
    origin: Pos,
    radius: Option<usize>,
    opaque: &ByteSet,
    out: Out<'_>,
) -> usize {
    assert!(grid.contains(origin), "origin {origin:?} outside the grid");
    let (x, y) = (
        out.corner.0 + grid.width() - 1,
        out.corner.1 + grid.height() - 1,
    );
    assert!(
        out.corner.0 >= 1
            && out.corner.1 >= 1
            && x <= out.width
            && y * out.width <= out.flags.len(),
        "the window is not within the memory"
    );
    scan(grid, origin, radius, opaque, out)
}

/// The scan `visible` and `mark` share: marks `out`, returns the count.
fn scan(grid: &Grid, origin: Pos, radius: Option<usize>, opaque: &ByteSet, out: Out<'_>) -> usize {
    // A radius past the far corner is no limit (and keeps r*(r+1) small).
    let reach = grid.width() + grid.height();
    let radius = radius.filter(|&r| r < reach).unwrap_or(reach) as i64;
    let at = Pos {
        x: origin.x + out.corner.0 - 1,
        y: origin.y + out.corner.1 - 1,
    };
    out.flags[(at.y - 1) * out.width + at.x - 1] = true;
    let mut scan = Scan {
        cells: grid.cells(),
        opaque,
        seen: out.flags,
        limit: radius * (radius + 1),
        rows: Vec::new(),
        count: 1,
        diagonals: vec![false; 4 * (radius as usize + 1)],
    };
    for quadrant in Quadrant::all(grid, origin, (out.width, at)) {
        scan.quadrant(&quadrant, radius);
    }
    scan.count
}

/// A slope `num / den` with `den > 0`: a column per unit of depth.
#[derive(Clone, Copy, Debug)]
struct Slope {
    num: i64,
    den: i64,
}

impl Slope {
    const fn whole(n: i64) -> Slope {
        Slope { num: n, den: 1 }
    }

    /// Ford's `slope(tile)`: through the middle of the tile's left edge,
    /// `(col - 1/2) / depth`.
    fn of_tile(depth: i64, col: i64) -> Slope {
        Slope {
            num: 2 * col - 1,
            den: 2 * depth,
        }
    }
}

/// `floor(a / b)` for `b > 0`, exactly: in 32 bits when both fit (every
/// map up to tens of thousands of cells a side), a division several
/// times cheaper than the 64-bit one, which the rest take.
fn floor_div(a: i64, b: i64) -> i64 {
    let small = |v: i64| (0..=i64::from(u32::MAX)).contains(&v);
    match (small(a), small(-a), small(b)) {
        (true, _, true) => i64::from(a as u32 / b as u32),
        (_, true, true) => -i64::from(((-a) as u32).div_ceil(b as u32)),
        _ => a.div_euclid(b),
    }
}

/// One row of a quadrant: its depth and the slopes that bound the lit span.
#[derive(Clone, Copy, Debug)]
struct Row {
    depth: i64,
    start: Slope,
    end: Slope,
}

impl Row {
    /// Ford's `round_ties_up(depth * start)`, `floor(x + 1/2)`, exactly.
    fn min_col(&self) -> i64 {
        let Slope { num, den } = self.start;
        floor_div(2 * self.depth * num + den, 2 * den)
    }

    /// Ford's `round_ties_down(depth * end)`, `ceil(x - 1/2)`, exactly.
    fn max_col(&self) -> i64 {
        let Slope { num, den } = self.end;
        -floor_div(den - 2 * self.depth * num, 2 * den)
    }

    /// Ford's `is_symmetric`: the tile's centre lies between the slopes.
    fn is_symmetric(&self, col: i64) -> bool {
        col * self.start.den >= self.depth * self.start.num
            && col * self.end.den <= self.depth * self.end.num
    }

    /// The row behind this one, its span ending at `end`.
    fn next(&self, end: Slope) -> Row {
        Row {
            depth: self.depth + 1,
            start: self.start,
            end,
        }
    }
}

/// One quadrant laid on the grid: tile `(depth, col)` is the cell at index
/// `origin + depth * along + col * across`, for `col` in `cols` (the grid's
/// extent across) and `depth` up to `depth` (its extent along); in the
/// flags marked, at `out.0 + depth * out.1 + col * out.2`. Its two
/// diagonals (`col = -depth` and `col = depth`) are each shared with the
/// next quadrant: `diagonals` names them (0 north-east, 1 north-west, 2
/// south-east, 3 south-west), so that a cell seen from both counts once.
#[derive(Debug)]
struct Quadrant {
    origin: isize,
    along: isize,
    across: isize,
    out: (isize, isize, isize),
    cols: (i64, i64),
    depth: i64,
    diagonals: [usize; 2],
}

impl Quadrant {
    /// North, east, south and west of `origin`; `marked` is the width of
    /// the flags marked and the origin's cell in them.
    fn all(grid: &Grid, origin: Pos, marked: (usize, Pos)) -> [Quadrant; 4] {
        let (w, h) = (grid.width() as i64, grid.height() as i64);
        let (x, y) = (origin.x as i64 - 1, origin.y as i64 - 1);
        let o = grid.index(origin) as isize;
        let row = w as isize;
        let (mw, at) = (marked.0 as isize, marked.1);
        let mo = (at.y as isize - 1) * mw + at.x as isize - 1;
        let quadrant = |along, across, out: (isize, isize), cols, depth, diagonals| Quadrant {
            origin: o,
            along,
            across,
            out: (mo, out.0, out.1),
            cols,
            depth,
            diagonals,
        };
        [
            quadrant(-row, 1, (-mw, 1), (-x, w - 1 - x), y, [1, 0]),
            quadrant(1, row, (1, mw), (-y, h - 1 - y), w - 1 - x, [0, 2]),
            quadrant(row, 1, (mw, 1), (-x, w - 1 - x), h - 1 - y, [3, 2]),
            quadrant(-1, row, (-1, mw), (-y, h - 1 - y), x, [1, 3]),
        ]
    }
}

/// The state of one call: what it reads, what it marks, and the rows still
/// to scan (an explicit stack, not recursion: a tall map is thousands deep).
struct Scan<'a> {
    cells: &'a [u8],
    opaque: &'a ByteSet,
    seen: &'a mut [bool],
    /// `r * (r + 1)`: the squared distance a visible cell may have.
    limit: i64,
    rows: Vec<Row>,
    /// The cells seen so far, each once: within a quadrant no cell is in
    /// two rows (sibling spans are at least a cell apart at every depth
    /// past the one that split them), so only the shared diagonals, noted
    /// in `diagonals` (4 per depth), could count twice.
    count: usize,
    diagonals: Vec<bool>,
}

impl Scan<'_> {
    /// Ford's `scan` over every row of `q` to depth `radius`. A row's order
    /// among the others does not matter (each is fixed when pushed, and
    /// marking is a union), so a stack does what the recursion did.
    ///
    /// Tiles outside the grid are walls, never marked; the span is clipped
    /// to the grid instead of visiting them, and that changes nothing. The
    /// grid's edge is a fixed column (`lo <= 0 <= hi`), so the slope Ford
    /// takes from the first tile outside, `(lo - 1/2) / d` or
    /// `(hi + 1/2) / d`, leans away from the grid: at depth `d` and beyond
    /// it passes outside every tile in the grid, so as a start or end slope
    /// it hides none of them, as the slope it would replace did not.
    /// `tests/toolkit.rs` checks this against the reference, which visits
    /// every tile.
    fn quadrant(&mut self, q: &Quadrant, radius: i64) {
        // The fields in locals: the loop below is the whole call's cost,
        // and through `self` they are reloaded from memory at every cell.
        let Scan {
            cells,
            opaque,
            seen,
            limit,
            rows,
            count,
            diagonals,
        } = self;
        let (cells, opaque, limit): (&[u8], &ByteSet, i64) = (cells, opaque, *limit);
        let seen: &mut [bool] = seen;
        let (across, out_across) = (q.across, q.out.2);
        let max_depth = q.depth.min(radius);
        let mut marked = 0;
        rows.push(Row {
            depth: 1,
            start: Slope::whole(-1),
            end: Slope::whole(1),
        });
        while let Some(mut row) = rows.pop() {
            let depth = row.depth;
            if depth > max_depth {
                continue;
            }
            let lo = row.min_col().max(q.cols.0);
            let hi = row.max_col().min(q.cols.1);
            if lo > hi {
                continue;
            }
            let base = q.origin + depth as isize * q.along;
            let out = q.out.0 + depth as isize * q.out.1;
            let room = limit - depth * depth;
            // `Some(is_wall)` of the previous tile, `None` before the first.
            let mut prev = None;
            for col in lo..=hi {
                let wall = opaque[cells[(base + col as isize * across) as usize] as usize];
                if (wall || row.is_symmetric(col)) && col * col <= room {
                    seen[(out + col as isize * out_across) as usize] = true;
                    marked += 1;
                    if col.abs() == depth {
                        // A diagonal another quadrant shares: counted once.
                        let d = q.diagonals[usize::from(col > 0)];
                        let noted = &mut diagonals[4 * depth as usize + d];
                        marked -= usize::from(std::mem::replace(noted, true));
                    }
                }
                if prev == Some(true) && !wall {
                    row.start = Slope::of_tile(depth, col);
                }
                if prev == Some(false) && wall {
                    rows.push(row.next(Slope::of_tile(depth, col)));
                }
                prev = Some(wall);
            }
            if prev == Some(false) {
                rows.push(row.next(row.end));
            }
        }
        *count += marked;
    }
}

/// The memory `fov` over a window of `cells` cells may use: its copy, the
/// visible flags, and on LuaJIT the flags as bytes (measured: 2 besides
/// the copy).
pub fn bound(cells: usize) -> usize {
    4 * cells + crate::memory::FIXED
}

#[cfg(test)]
mod floor_div_tests {
    use super::floor_div;

    #[test]
    fn is_euclid_division_for_a_positive_divisor() {
        let edges = [
            0,
            1,
            2,
            3,
            7,
            1 << 31,
            (1 << 32) - 1,
            1 << 32,
            (1 << 40) + 3,
        ];
        for a in edges.iter().flat_map(|&a| [a, -a, a + 1, -a - 1]) {
            for b in [1, 2, 3, 5, 1 << 20, (1 << 32) - 1, 1 << 32, (1 << 33) + 1] {
                assert_eq!(floor_div(a, b), a.div_euclid(b), "{a} / {b}");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::byte_set;

    fn at(x: usize, y: usize) -> Pos {
        Pos { x, y }
    }

    /// The visible cells as rows of `*` (seen) and `-` (not).
    fn picture(g: &Grid, origin: Pos, radius: Option<usize>) -> Vec<String> {
        let seen = visible(g, origin, radius, &byte_set(b"#"));
        seen.chunks(g.width())
            .map(|row| row.iter().map(|&s| if s { '*' } else { '-' }).collect())
            .collect()
    }

    #[test]
    fn an_open_room_is_all_visible() {
        let g = Grid::from_rows(&["#####", "#...#", "#...#", "#####"]);
        assert!(picture(&g, at(2, 2), None).iter().all(|r| r == "*****"));
    }

    #[test]
    fn no_border_and_one_cell() {
        assert_eq!(picture(&Grid::from_rows(&["."]), at(1, 1), None), ["*"]);
        assert_eq!(picture(&Grid::from_rows(&["#"]), at(1, 1), None), ["*"]);
        let g = Grid::new(3, 2, b'.');
        assert_eq!(picture(&g, at(3, 2), None), ["***", "***"]);
    }

    // The expected pictures below are what Ford's Python reference draws.

    #[test]
    fn a_pillar_casts_a_shadow() {
        let g = Grid::from_rows(&[
            "...........",
            "...........",
            "....#......",
            "...........",
            "...........",
        ]);
        assert_eq!(
            picture(&g, at(2, 3), None),
            [
                "***********",
                "********---",
                "*****------",
                "********---",
                "***********",
            ]
        );
    }

    #[test]
    fn a_corridor_shows_its_walls_but_not_round_the_corner() {
        let g = Grid::from_rows(&[
            "#######", //
            "#.....#", //
            "###.###", //
            "###.###", //
            "#######",
        ]);
        assert_eq!(
            picture(&g, at(4, 4), None),
            ["--***--", "--***--", "--***--", "--***--", "--***--"]
        );
        assert_eq!(
            picture(&g, at(4, 3), None),
            ["*******", "-*****-", "--***--", "--***--", "--***--"]
        );
    }

    #[test]
    fn the_radius_cuts_a_disc() {
        let g = Grid::new(9, 9, b'.');
        let r2 = picture(&g, at(5, 5), Some(2));
        assert_eq!(
            r2,
            [
                "---------",
                "---------",
                "---***---",
                "--*****--",
                "--*****--",
                "--*****--",
                "---***---",
                "---------",
                "---------",
            ]
        );
        assert_eq!(
            picture(&g, at(5, 5), Some(0)).concat().matches('*').count(),
            1
        );
        assert_eq!(
            picture(&g, at(5, 5), Some(usize::MAX)),
            picture(&g, at(5, 5), None)
        );
    }

    #[test]
    fn an_opaque_origin_still_sees() {
        let g = Grid::from_rows(&["...", ".#.", "..."]);
        assert!(picture(&g, at(2, 2), None).iter().all(|r| r == "***"));
    }

    /// `mark` on windows of random maps laid in a larger memory marks
    /// exactly `visible`'s cells there (and nothing else) and counts them.
    #[test]
    fn mark_is_visible_in_place_and_counts_each_cell_once() {
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = |n: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n as u64) as usize
        };
        for _ in 0..400 {
            let (w, h) = (1 + next(24), 1 + next(24));
            let walls = next(60);
            let rows: Vec<String> = (0..h)
                .map(|_| {
                    (0..w)
                        .map(|_| if next(100) < walls { '#' } else { '.' })
                        .collect()
                })
                .collect();
            let g = Grid::from_rows(&rows.iter().map(String::as_str).collect::<Vec<_>>());
            let origin = at(1 + next(w), 1 + next(h));
            let radius = [None, Some(next(12))][next(2)];
            let seen = visible(&g, origin, radius, &byte_set(b"#"));
            let (mw, mh) = (w + next(5), h + next(5));
            let corner = (1 + next(mw - w + 1), 1 + next(mh - h + 1));
            let mut memory = vec![false; mw * mh];
            let out = Out {
                flags: &mut memory,
                width: mw,
                corner,
            };
            let count = mark(&g, origin, radius, &byte_set(b"#"), out);
            assert_eq!(
                count,
                seen.iter().filter(|&&s| s).count(),
                "{rows:?} {origin:?} {radius:?}"
            );
            for (i, &m) in memory.iter().enumerate() {
                let (x, y) = (i % mw + 1, i / mw + 1);
                let inside =
                    (corner.0..corner.0 + w).contains(&x) && (corner.1..corner.1 + h).contains(&y);
                let want = inside && seen[(y - corner.1) * w + x - corner.0];
                assert_eq!(m, want, "{rows:?} {origin:?} {radius:?} at {x},{y}");
            }
        }
    }

    #[test]
    fn a_deep_map_needs_no_deep_recursion() {
        let g = Grid::new(3, 5000, b'.');
        let seen = visible(&g, at(2, 1), None, &byte_set(b"#"));
        assert!(seen.iter().all(|&s| s));
    }
}
