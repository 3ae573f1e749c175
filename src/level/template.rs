//! Vault templates: checked as given, turned by a rotation. A template is
//! rows of printable ASCII: `#` wall, `.` floor, `+` door, a space keeps
//! what the generator carved, and any other byte is placed as it is and is
//! walkable. Its entrances are the walkable cells of its outer ring.
//!
//! Spaces may stand anywhere, outside the template's shape too (a round
//! vault's corners): only its own walkable cells need an entrance. A space
//! needs only a way to the template's edge through cells that are not `#`,
//! so that whatever the generator carved there can be joined from outside
//! (the vaults keep a cell apart, and `tunnels.rs` tunnels through spaces).

use crate::grid::{steps, Pos, Rect, WALL};
use crate::input::{int_in, Arg};
use crate::toolkit::flood::{walk, Step};

/// The longest side of a template.
pub const MAX_SIDE: usize = 64;
/// The most copies of one template, and of all templates together: a vault
/// cell's owner fits in a byte (`vaults::Owners`), and the work of placing
/// them stays small (docs/performance.md).
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
        let by_walking = template.reached(walkable, walkable);
        let whole =
            (0..template.cells.len()).all(|i| by_walking[i] || !walkable(template.cells[i]));
        Ok(Template { whole, ..template })
    }

    fn at(&self, x: usize, y: usize) -> u8 {
        self.cells[y * self.width + x]
    }

    /// Whether cell `i` (row-major) is on the template's outer ring.
    fn on_ring(&self, i: usize) -> bool {
        let p = Pos {
            x: i % self.width + 1,
            y: i / self.width + 1,
        };
        Rect::new(1, 1, self.width, self.height).on_edge(p)
    }

    /// How many cells hold `c`.
    pub fn holds(&self, c: u8) -> usize {
        self.cells.iter().filter(|&&v| v == c).count()
    }

    /// An error unless the template has an entrance, every walkable cell
    /// can be reached from one through cells that are not `#` (a space may
    /// be rock, which the joining tunnels through), and every space reaches
    /// the outer ring through such cells (an entrance or a space there: a
    /// space outside the shape, as a round vault's corners, needs no
    /// entrance). The first cell in row order that fails is named.
    fn check_entrances(&self, name: &str) -> Result<(), String> {
        if !(0..self.cells.len()).any(|i| self.on_ring(i) && walkable(self.cells[i])) {
            return Err(format!(
                "{name} has no entrance (no walkable cell on its outer ring)"
            ));
        }
        let from_entrances = self.reached(walkable, |c| c != WALL);
        let from_edge = self.reached(|c| c != WALL, |c| c != WALL);
        let cut_off = |i: usize| match self.cells[i] {
            WALL => false,
            KEEP => !from_edge[i],
            _ => !from_entrances[i],
        };
        let w = self.width;
        match (0..self.cells.len()).find(|&i| cut_off(i)) {
            Some(i) => Err(format!(
                "{name}: its cell ({},{}) is walled in (no entrance reaches it)",
                i % w + 1,
                i / w + 1
            )),
            None => Ok(()),
        }
    }

    /// The cells reached from the ring cells `from` accepts through cells
    /// `through` lets pass, walked on the template padded with a ring of
    /// `#` (so that no step leaves it).
    fn reached(&self, from: impl Fn(u8) -> bool, through: impl Fn(u8) -> bool) -> Vec<bool> {
        let (w, h) = (self.width, self.height);
        let stride = w + 2;
        let padded = |i: usize| (i / w + 1) * stride + i % w + 1;
        let mut cells = vec![WALL; stride * (h + 2)];
        for i in 0..w * h {
            cells[padded(i)] = self.cells[i];
        }
        let mut reached = vec![false; cells.len()];
        let mut queue: Vec<u32> = Vec::new();
        for i in (0..w * h).filter(|&i| self.on_ring(i) && from(self.cells[i])) {
            reached[padded(i)] = true;
            queue.push(padded(i) as u32);
        }
        walk(&mut queue, steps(stride), |_, j, _| {
            if !reached[j] && cells[j] != WALL && through(cells[j]) {
                reached[j] = true;
                Step::Enter
            } else {
                Step::Skip
            }
        });
        (0..w * h).map(|i| reached[padded(i)]).collect()
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

#[cfg(test)]
mod tests {
    use super::*;

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
    fn spaces_may_stand_outside_the_shape_but_not_walled_in() {
        // A round vault: its corners are spaces no entrance reaches.
        let round = template(&[" #.# ", "##.##", "#...#", "##.##", " ### "]);
        assert_eq!(round.holds(KEEP), 4);
        // A space in a corner pocket, open to the edge through spaces.
        template(&["  ###", "# #.#", "##...", "#####"]);
        assert_eq!(
            error(&["#.###", "#.# #", "#####"], Arg::Missing),
            "vaults[2]: its cell (4,2) is walled in (no entrance reaches it)"
        );
        // A walkable cell reached only through a space on the edge has no entrance.
        assert_eq!(
            error(&["#.# #", "#.#.#", "#####"], Arg::Missing),
            "vaults[2]: its cell (4,2) is walled in (no entrance reaches it)"
        );
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
}
