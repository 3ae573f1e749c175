//! Vaults: hand-drawn templates stamped onto a generated level.
//!
//! A template is rows of printable ASCII: `#` wall, `.` floor, `+` door, a
//! space keeps what the generator carved, and any other byte is placed as
//! it is and is walkable. Its entrances are the walkable cells of its outer
//! ring. Each copy takes a rotation (0-7, see `rotate`), then a place drawn
//! uniformly from every top-left cell where it fits (`Fit`): inside the
//! border with a cell to spare, and a cell apart from every vault placed
//! before it (so the cells outside the vaults stay one connected region:
//! every entrance has rock or floor in front of it that a tunnel can go
//! through), never over the cells the level keeps (`@`, `>`, `arrive`).
//! Joining the entrances to the level is `tunnels.rs`'s work.

use crate::args::{int_in, Arg};
use crate::grid::{Grid, Pos, Rect, WALL};
use crate::rng::Rng;

/// The longest side of a template.
pub const MAX_SIDE: usize = 64;
/// The most templates one call may give.
pub const MAX_TEMPLATES: usize = 100;
/// The most copies of one template, and of all templates together: a vault
/// cell's owner fits in a byte (`Owners`), and the work of placing them
/// stays small (docs/performance.md).
pub const MAX_COPIES: usize = 100;

/// A cell a template leaves to the generator.
pub const KEEP: u8 = b' ';

/// One template as the caller gave it, checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Template {
    pub width: usize,
    pub height: usize,
    /// Row-major, as given.
    pub cells: Vec<u8>,
    pub count: usize,
    pub rotate: bool,
    pub required: bool,
    /// Whether its walkable cells reach its entrances through walkable
    /// cells alone (no space between).
    pub whole: bool,
}

/// Whether a template cell can be walked on once stamped.
pub fn walkable(c: u8) -> bool {
    c != WALL && c != KEEP
}

impl Template {
    /// Template number `n` (1-based, for messages) from its rows and the
    /// values given for `count`, `rotate` and `required` (`Missing`: the
    /// defaults 1, false, true). Every message names the template as
    /// `vaults[n]`.
    pub fn new(
        n: usize,
        rows: &[&[u8]],
        count: Arg,
        rotate: Arg,
        required: Arg,
    ) -> Result<Template, String> {
        let name = format!("vaults[{n}]");
        let (width, height) = (rows.first().map_or(0, |r| r.len()), rows.len());
        if height == 0 {
            return Err(format!("{name}.rows is empty"));
        }
        if height > MAX_SIDE {
            return Err(too_many_rows(n, height));
        }
        let mut cells = Vec::with_capacity(width.min(MAX_SIDE) * height);
        for (y, row) in rows.iter().enumerate() {
            check_row(n, y + 1, row, width)?;
            cells.extend_from_slice(row);
        }
        let template = Template {
            width,
            height,
            cells,
            count: match count {
                Arg::Missing => 1,
                arg => int_in(&format!("{name}.count"), arg, 1, MAX_COPIES as i64)? as usize,
            },
            rotate: flag(&name, "rotate", rotate, false)?,
            required: flag(&name, "required", required, true)?,
            whole: false,
        };
        template.check_entrances(&name)?;
        let by_walking = template.reached(walkable);
        let whole =
            (0..template.cells.len()).all(|i| by_walking[i] || !walkable(template.cells[i]));
        Ok(Template { whole, ..template })
    }

    fn at(&self, x: usize, y: usize) -> u8 {
        self.cells[y * self.width + x]
    }

    fn on_ring(&self, x: usize, y: usize) -> bool {
        x == 0 || y == 0 || x + 1 == self.width || y + 1 == self.height
    }

    /// How many cells hold `c`.
    pub fn holds(&self, c: u8) -> usize {
        self.cells.iter().filter(|&&v| v == c).count()
    }

    /// An error unless the template has an entrance and every cell that is
    /// not `#` can be reached from one through cells that are not `#` (a
    /// space may be rock, which the joining tunnels through).
    fn check_entrances(&self, name: &str) -> Result<(), String> {
        let w = self.width;
        if !(0..self.cells.len()).any(|i| self.on_ring(i % w, i / w) && walkable(self.cells[i])) {
            return Err(format!(
                "{name} has no entrance (no walkable cell on its outer ring)"
            ));
        }
        let reached = self.reached(|c| c != WALL);
        match (0..self.cells.len()).find(|&i| !reached[i] && self.cells[i] != WALL) {
            Some(i) => Err(format!(
                "{name}: its cell ({},{}) is walled in (no entrance reaches it)",
                i % w + 1,
                i / w + 1
            )),
            None => Ok(()),
        }
    }

    /// The cells reached from the entrances through cells `through` lets pass.
    fn reached(&self, through: impl Fn(u8) -> bool) -> Vec<bool> {
        let (w, h) = (self.width, self.height);
        let mut reached = vec![false; w * h];
        let mut stack: Vec<usize> = (0..w * h)
            .filter(|&i| self.on_ring(i % w, i / w) && walkable(self.cells[i]))
            .collect();
        for &i in &stack {
            reached[i] = true;
        }
        while let Some(i) = stack.pop() {
            let (x, y) = (i % w, i / w);
            let steps = [
                (y > 0).then(|| i - w),
                (x > 0).then(|| i - 1),
                (x + 1 < w).then(|| i + 1),
                (y + 1 < h).then(|| i + w),
            ];
            for j in steps.into_iter().flatten() {
                if !reached[j] && through(self.cells[j]) {
                    reached[j] = true;
                    stack.push(j);
                }
            }
        }
        reached
    }

    /// The template turned by `rotation` (see `rotate`): its size and cells.
    pub fn rotated(&self, rotation: u8) -> (usize, usize, Vec<u8>) {
        let (w, h) = rotated_size(self.width, self.height, rotation);
        let mut cells = vec![0; w * h];
        for y in 0..self.height {
            for x in 0..self.width {
                let (rx, ry) = rotate(rotation, (self.width, self.height), (x, y));
                cells[ry * w + rx] = self.at(x, y);
            }
        }
        (w, h, cells)
    }
}

/// The message for a template of `height` rows.
pub fn too_many_rows(n: usize, height: usize) -> String {
    format!("vaults[{n}].rows has more than {MAX_SIDE} rows ({height})")
}

/// The message for row `y` of template `n`, `len` bytes long.
pub fn row_too_long(n: usize, y: usize, len: usize) -> String {
    format!("vaults[{n}].rows[{y}] is longer than {MAX_SIDE} characters ({len})")
}

fn check_row(n: usize, y: usize, row: &[u8], width: usize) -> Result<(), String> {
    if row.is_empty() {
        return Err(format!("vaults[{n}].rows[{y}] is empty"));
    }
    if row.len() > MAX_SIDE {
        return Err(row_too_long(n, y, row.len()));
    }
    if row.len() != width {
        return Err(format!(
            "vaults[{n}].rows[{y}] has {} characters, rows[1] has {width}",
            row.len()
        ));
    }
    match row.iter().position(|&c| !(b' '..=b'~').contains(&c)) {
        Some(x) => Err(format!(
            "vaults[{n}].rows[{y}] has byte {} at column {}: only printable ASCII (32 to 126)",
            row[x],
            x + 1
        )),
        None => Ok(()),
    }
}

fn flag(name: &str, field: &str, arg: Arg, default: bool) -> Result<bool, String> {
    match arg {
        Arg::Missing => Ok(default),
        Arg::Bool(b) => Ok(b),
        other => Err(format!("{name}.{field} must be a boolean, got {other}")),
    }
}

/// The size of a `w` x `h` template after `rotation`.
pub fn rotated_size(w: usize, h: usize, rotation: u8) -> (usize, usize) {
    if rotation % 2 == 1 {
        (h, w)
    } else {
        (w, h)
    }
}

/// Where cell `(x, y)` (0-based) of a `w` x `h` template goes under
/// `rotation`: 0 as given, 1, 2, 3 turned a quarter clockwise that many
/// times; 4 to 7 mirrored left to right first (`x` becomes `w - 1 - x`),
/// then turned `rotation - 4` quarters clockwise (so 6 is the template
/// flipped top to bottom). A quarter turn clockwise takes `(x, y)` of a
/// `W` x `H` grid to `(H - 1 - y, x)`.
pub fn rotate(rotation: u8, (w, h): (usize, usize), (x, y): (usize, usize)) -> (usize, usize) {
    let (mut x, mut y, mut w, mut h) = (x, y, w, h);
    if rotation >= 4 {
        x = w - 1 - x;
    }
    for _ in 0..rotation % 4 {
        (x, y) = (h - 1 - y, x);
        (w, h) = (h, w);
    }
    (x, y)
}

/// One placed copy: which template (0-based), where, turned how.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Vault {
    pub index: usize,
    /// Its cells on the map (top-left cell, size after rotation).
    pub rect: Rect,
    pub rotation: u8,
}

/// Which vault each cell belongs to: 0 for none, else the vault's place in
/// the placement order plus 1, with `SPACE` set where its template keeps
/// the generator's cell.
pub struct Owners {
    pub cells: Vec<u8>,
    pub width: usize,
}

/// The bit of an owner byte that marks a template's space.
pub const SPACE: u8 = 0x80;

impl Owners {
    pub fn of(&self, i: usize) -> u8 {
        self.cells[i]
    }

    /// Whether cell `i` belongs to a vault and is not one of its spaces:
    /// what no tunnel may carve.
    pub fn fixed(&self, i: usize) -> bool {
        self.cells[i] != 0 && self.cells[i] & SPACE == 0
    }
}

/// The placed vaults, their entrances (map indices, by vault, in row
/// order), and who owns each cell.
pub struct Stamped {
    pub vaults: Vec<Vault>,
    pub entrances: Vec<Vec<usize>>,
    pub owners: Owners,
    /// The cells of a vault's `@` and `>`, if one has them.
    pub player: Option<Pos>,
    pub stairs: Option<Pos>,
    /// Whether every vault went onto rock (nothing walkable in it or the
    /// ring around it) and is whole: then its entrances' tunnels alone keep
    /// the level joined (see `tunnels.rs`).
    pub on_rock: bool,
}

/// Places every copy of every template in order and stamps them on `grid`:
/// for each copy, a rotation (`rng.below(8)`, only if the template rotates),
/// then a place (`rng.below(fits)`: the `k`th top-left cell where it fits, in
/// row order). `keep` lists the cells no vault may cover. A copy that does
/// not fit is an error if its template is `required`, else it is skipped.
pub fn stamp(
    grid: &mut Grid,
    templates: &[Template],
    keep: &[Pos],
    rng: &mut Rng,
) -> Result<Stamped, String> {
    let mut stamped = Stamped {
        vaults: Vec::new(),
        entrances: Vec::new(),
        owners: Owners {
            cells: vec![0; grid.cells().len()],
            width: grid.width(),
        },
        player: None,
        stairs: None,
        on_rock: true,
    };
    let mut taken: Vec<Rect> = keep
        .iter()
        .map(|p| Rect {
            x: p.x,
            y: p.y,
            w: 1,
            h: 1,
        })
        .collect();
    for (index, template) in templates.iter().enumerate() {
        for copy in 0..template.count {
            let rotation = if template.rotate {
                rng.below(8) as u8
            } else {
                0
            };
            let (w, h, cells) = template.rotated(rotation);
            let fit = Fit::new(grid.width(), grid.height(), (w, h), &taken);
            let Some(spot) = fit.nth_draw(rng) else {
                if template.required {
                    let which = if template.count > 1 {
                        format!(" (copy {} of {})", copy + 1, template.count)
                    } else {
                        String::new()
                    };
                    return Err(format!(
                        "vault {}{which} does not fit in {}x{}",
                        index + 1,
                        grid.width(),
                        grid.height()
                    ));
                }
                continue;
            };
            let rect = Rect {
                x: spot.x,
                y: spot.y,
                w,
                h,
            };
            // Later vaults keep a cell away: their rect may not meet this one grown by 1.
            let grown = Rect {
                x: rect.x - 1,
                y: rect.y - 1,
                w: w + 2,
                h: h + 2,
            };
            stamped.on_rock &= template.whole && grown.cells().all(|p| grid.get(p) == WALL);
            taken.push(grown);
            put(grid, &mut stamped, rect, &cells);
            stamped.vaults.push(Vault {
                index,
                rect,
                rotation,
            });
        }
    }
    Ok(stamped)
}

/// Writes the cells of the vault about to be pushed onto `grid`, marks its
/// owners and lists its entrances.
fn put(grid: &mut Grid, stamped: &mut Stamped, rect: Rect, cells: &[u8]) {
    let owner = stamped.vaults.len() as u8 + 1;
    let mut entrances = Vec::new();
    for dy in 0..rect.h {
        for dx in 0..rect.w {
            let c = cells[dy * rect.w + dx];
            let p = Pos {
                x: rect.x + dx,
                y: rect.y + dy,
            };
            let i = grid.index(p);
            if c == KEEP {
                stamped.owners.cells[i] = owner | SPACE;
                continue;
            }
            stamped.owners.cells[i] = owner;
            grid.set_at(i, c);
            match c {
                b'@' => stamped.player = Some(p),
                b'>' => stamped.stairs = Some(p),
                _ => {}
            }
            let ring = dx == 0 || dy == 0 || dx + 1 == rect.w || dy + 1 == rect.h;
            if ring && walkable(c) {
                entrances.push(i);
            }
        }
    }
    stamped.entrances.push(entrances);
}

/// The top-left cells where a `w` x `h` vault fits on a `width` x `height`
/// map: `x` from 3 to `width - 1 - w` (its last column at most `width -
/// 2`), `y` likewise, outside every `taken` rectangle (a vault grown by
/// one, or a kept cell). Counted and indexed by bands of rows between the
/// taken rectangles' edges, so the work grows with their number squared,
/// not with the map.
struct Fit {
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
    fn new(width: usize, height: usize, (w, h): (usize, usize), taken: &[Rect]) -> Fit {
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
    fn nth_draw(&self, rng: &mut Rng) -> Option<Pos> {
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
    use crate::grid::FLOOR;

    fn template(rows: &[&str]) -> Template {
        let rows: Vec<&[u8]> = rows.iter().map(|r| r.as_bytes()).collect();
        Template::new(1, &rows, Arg::Missing, Arg::Missing, Arg::Missing).unwrap()
    }

    fn error(rows: &[&str], count: Arg) -> String {
        let rows: Vec<&[u8]> = rows.iter().map(|r| r.as_bytes()).collect();
        Template::new(2, &rows, count, Arg::Missing, Arg::Missing).unwrap_err()
    }

    #[test]
    fn templates_are_checked() {
        assert_eq!(error(&[], Arg::Missing), "vaults[2].rows is empty");
        assert_eq!(
            error(&["#.#", "#"], Arg::Missing),
            "vaults[2].rows[2] has 1 characters, rows[1] has 3"
        );
        assert_eq!(
            error(&["#.#", ""], Arg::Missing),
            "vaults[2].rows[2] is empty"
        );
        assert_eq!(
            error(&["#.\t"], Arg::Missing),
            "vaults[2].rows[1] has byte 9 at column 3: only printable ASCII (32 to 126)"
        );
        assert_eq!(
            error(&["###", "#.#", "###"], Arg::Missing),
            "vaults[2] has no entrance (no walkable cell on its outer ring)"
        );
        assert_eq!(
            error(&["#.###", "#.#.#", "#####"], Arg::Missing),
            "vaults[2]: its cell (4,2) is walled in (no entrance reaches it)"
        );
        assert_eq!(
            error(&["."], Arg::Int(0)),
            "vaults[2].count must be an integer from 1 to 100, got 0"
        );
        assert_eq!(
            error(&["."], Arg::Int(101)),
            "vaults[2].count must be an integer from 1 to 100, got 101"
        );
        let long = ".".repeat(65);
        assert_eq!(
            error(&[&long], Arg::Missing),
            "vaults[2].rows[1] is longer than 64 characters (65)"
        );
        let tall = vec!["."; 65];
        assert_eq!(
            error(&tall, Arg::Missing),
            "vaults[2].rows has more than 64 rows (65)"
        );
        let t = template(&["#.#", "# #", "#.#"]);
        assert_eq!(
            (t.width, t.height, t.count, t.rotate, t.required),
            (3, 3, 1, false, true)
        );
        // A space may be rock; the joining tunnels through it.
        assert!(t.cells.contains(&KEEP));
    }

    #[test]
    fn the_eight_rotations() {
        let t = template(&["ab.", "cd."]);
        let turned: Vec<String> = (0..8)
            .map(|r| {
                let (w, _, cells) = t.rotated(r);
                cells
                    .chunks(w)
                    .map(|row| String::from_utf8(row.to_vec()).unwrap())
                    .collect::<Vec<_>>()
                    .join("/")
            })
            .collect();
        assert_eq!(
            turned,
            [
                "ab./cd.",  // as given
                "ca/db/..", // a quarter clockwise
                ".dc/.ba",  // half a turn
                "../bd/ac", // three quarters
                ".ba/.dc",  // mirrored left to right
                "../db/ca", // mirrored, a quarter
                "cd./ab.",  // mirrored, half: flipped top to bottom
                "ac/bd/..", // mirrored, three quarters: the transpose
            ]
        );
    }

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

    #[test]
    fn vaults_keep_apart_inside_the_border_and_off_kept_cells() {
        let t = Template {
            count: 30,
            rotate: true,
            required: false,
            ..template(&["#.#", "...", "#+#", "# #"])
        };
        for seed in 0..100 {
            let mut g = Grid::new(40, 20, FLOOR);
            let keep = [Pos { x: 10, y: 10 }, Pos { x: 30, y: 5 }];
            let s = stamp(&mut g, std::slice::from_ref(&t), &keep, &mut Rng::new(seed)).unwrap();
            assert!(!s.vaults.is_empty());
            for (i, v) in s.vaults.iter().enumerate() {
                let r = v.rect;
                assert!(
                    r.x >= 3 && r.y >= 3 && r.x + r.w <= 39 && r.y + r.h <= 19,
                    "{r:?}"
                );
                assert!(keep.iter().all(|p| !r.cells().any(|q| q == *p)));
                for other in &s.vaults[i + 1..] {
                    let o = other.rect;
                    let apart =
                        r.x + r.w < o.x || o.x + o.w < r.x || r.y + r.h < o.y || o.y + o.h < r.y;
                    assert!(apart, "{r:?} {o:?}");
                }
                let (w, h, cells) = t.rotated(v.rotation);
                assert_eq!((w, h), (r.w, r.h));
                for (k, p) in r.cells().enumerate() {
                    let want = if cells[k] == KEEP { FLOOR } else { cells[k] };
                    assert_eq!(g.get(p), want);
                }
            }
        }
        let mut g = Grid::new(8, 8, WALL);
        let big = template(&["....."]);
        let err = stamp(&mut g, std::slice::from_ref(&big), &[], &mut Rng::new(1));
        assert_eq!(err.err().unwrap(), "vault 1 does not fit in 8x8");
        let two = Template {
            count: 2,
            ..template(&["..", ".."])
        };
        let err = stamp(&mut g, std::slice::from_ref(&two), &[], &mut Rng::new(1));
        assert_eq!(
            err.err().unwrap(),
            "vault 1 (copy 2 of 2) does not fit in 8x8"
        );
    }
}
