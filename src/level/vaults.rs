//! Vaults: hand-drawn templates stamped onto a generated level.
//!
//! A template (`template.rs`: rows of `#`, `.`, `+`, spaces that keep what
//! the generator carved, and any other byte) is checked as given. Each copy
//! takes a rotation (0-7, see `rotate`), then a place drawn
//! uniformly from every top-left cell where it fits (`Fit`): inside the
//! border with a cell to spare, and a cell apart from every vault placed
//! before it (so the cells outside the vaults stay one connected region:
//! every entrance has rock or floor in front of it that a tunnel can go
//! through), never over the cells the level keeps (`@`, `>`, `arrive`).
//! Joining the entrances to the level is `tunnels.rs`'s work.

use super::fit::Fit;
pub use super::template::{
    rotate, rotated_size, row_too_long, too_many_rows, walkable, Template, KEEP, MAX_COPIES,
    MAX_SIDE,
};
use crate::grid::{Grid, Pos, Rect, WALL};
use crate::rng::Rng;

/// The most templates one call may give.
pub const MAX_TEMPLATES: usize = 100;

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
            if rect.on_edge(p) && walkable(c) {
                entrances.push(i);
            }
        }
    }
    stamped.entrances.push(entrances);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{FLOOR, WALL};
    use crate::input::Arg;

    fn template(rows: &[&str]) -> Template {
        let rows: Vec<&[u8]> = rows.iter().map(|r| r.as_bytes()).collect();
        Template::new(1, &rows, Arg::Missing, Arg::Missing, Arg::Missing).unwrap()
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
