//! The options by which a designer directs a level, for every algorithm:
//! `vaults` (hand-drawn templates, `vaults.rs`), `arrive` (where `@` comes
//! down from the level above) and `place` (a game's own things,
//! `place.rs`). They are tables, so they are not in the registry of
//! options; the binding reads them (`lua/shared/design.rs`) with the checks each
//! part makes (`Template::new`, `Placement::new`), and `check` here makes
//! the checks that need them all, or the map's size.

use super::place::{Placement, MAX_ENTRIES, MAX_PLACED};
use super::tunnels::Digger;
use super::vaults::{self, Stamped, Template, Vault, MAX_COPIES, MAX_TEMPLATES};
use crate::generators::{Generator, Layout};
use crate::grid::{Grid, Pos, DOOR, FLOOR, PLAYER, STAIRS};
use crate::input::INTERNAL_ERROR;
use crate::memory;
use crate::rng::Rng;

/// Their names, as options of `generate`.
pub const NAMES: [&str; 3] = ["vaults", "arrive", "place"];

/// What each of them must be, for the message when it is not a table (and
/// `map.describe`).
pub const SHAPES: [&str; 3] = [
    "an array of templates {rows=, count=, rotate=, required=}",
    "a position {x=, y=}",
    "an array of {char=, count=, min=, hidden=, per_room=, choose=}",
];

/// What each of them does, for `map.describe` (docs/levels.md has the rest).
pub const DOCS: [&str; 3] = [
    "hand-drawn templates stamped on the level and joined to it by the shortest tunnels",
    "where @ starts, on an up staircase (the > of the level above)",
    "a game's own characters on free floor cells, at a walking distance min from @ and hidden from its sight; per_room = {least, most} in each room, choose = {{char, weight}, ...} by weight",
];

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Design {
    pub vaults: Vec<Template>,
    /// `(x, y)` as given: whether it is inside the border is checked
    /// against the map's size.
    pub arrive: Option<(i64, i64)>,
    pub place: Vec<Placement>,
    /// Those given as something other than a table: name and Lua type.
    pub not_tables: Vec<(&'static str, &'static str)>,
}

impl Design {
    /// Notes option `name` (one of `NAMES`) given as a value of Lua type
    /// `type_name` (`None`: nil, as good as absent).
    pub fn given(&mut self, name: &'static str, type_name: Option<&'static str>) {
        self.not_tables.retain(|&(n, _)| n != name);
        if let Some(t) = type_name.filter(|&t| t != "table") {
            self.not_tables.push((name, t));
        }
    }

    /// Whether any of them asks for anything.
    pub fn is_empty(&self) -> bool {
        self.vaults.is_empty() && self.arrive.is_none() && self.place.is_empty()
    }

    /// An error when an entry of `place` asks `algorithm` for hidden cells
    /// (`hidden = true` and a `count`) and it does not declare that its
    /// levels hide any from `@` (`Generator::hides`): refused before
    /// anything is made, rather than "only 0 ... hidden from @" after.
    pub fn check_hidden(&self, algorithm: &Generator) -> Result<(), String> {
        if algorithm.hides {
            return Ok(());
        }
        match self.place.iter().position(|p| p.hidden && p.asks()) {
            Some(i) => Err(format!(
                "place[{}].hidden applies only to algorithms that hide cells from @, not to \"{}\" \
                 (its levels may keep every cell in sight)",
                i + 1,
                algorithm.name
            )),
            None => Ok(()),
        }
    }

    /// The checks that take them together, and the size of the map.
    pub fn check(&self, width: usize, height: usize) -> Result<(), String> {
        for (name, shape) in NAMES.iter().zip(SHAPES) {
            if let Some(&(_, t)) = self.not_tables.iter().find(|g| g.0 == *name) {
                return Err(format!("{name} must be {shape}, got {t}"));
            }
        }
        at_most(self.vaults.len(), MAX_TEMPLATES, too_many_templates)?;
        let copies: usize = self.vaults.iter().map(|t| t.count).sum();
        at_most(copies, MAX_COPIES, |n| {
            format!("vaults ask for {n} copies in all, at most {MAX_COPIES}")
        })?;
        for (c, what) in [(PLAYER, "@"), (STAIRS, ">")] {
            let held: usize = self.vaults.iter().map(|t| t.holds(c) * t.count).sum();
            if held > 1 {
                return Err(format!(
                    "vaults hold {held} {what} in all (copies counted), at most one"
                ));
            }
        }
        if let Some((x, y)) = self.arrive {
            if self.vaults.iter().any(|t| t.holds(PLAYER) > 0) {
                return Err("arrive and a vault's @ both say where @ starts".into());
            }
            let inside = |v: i64, side: usize| v >= 2 && v < side as i64;
            if !(inside(x, width) && inside(y, height)) {
                return Err(format!(
                    "arrive must be inside the border (x from 2 to {}, y from 2 to {}), got ({x},{y})",
                    width - 1,
                    height - 1
                ));
            }
        }
        at_most(self.place.len(), MAX_ENTRIES, too_many_entries)?;
        let asked: usize = self.place.iter().map(|p| p.count).sum();
        at_most(asked, MAX_PLACED, |n| {
            format!("place asks for {n} cells in all, at most {MAX_PLACED}")
        })?;
        Ok(())
    }

    /// The memory the design may need beside `level::bound`: the per-cell
    /// share, the templates as copied from Lua, the copies placed and the
    /// cells placed (24 bytes each; the draws' map of an entry's swapped
    /// slots, at most `MAX_PLACED` of them, falls within `memory::FIXED`).
    pub fn bound(&self, cells: usize) -> usize {
        if self.is_empty() {
            return 0;
        }
        let template_cells: usize = self.vaults.iter().map(|t| t.cells.len()).sum();
        let copies: usize = self.vaults.iter().map(|t| t.count).sum();
        let placed = match self.place.iter().any(|p| p.per_room.is_some()) {
            true => MAX_PLACED,
            false => self.place.iter().map(|p| p.count).sum(),
        };
        DESIGN_PER_CELL * cells + template_cells + COPY_BYTES * copies + 24 * placed + memory::FIXED
    }

    /// The arrival cell (after `check`).
    pub fn arrival(&self) -> Option<Pos> {
        self.arrive.map(|(x, y)| Pos {
            x: x as usize,
            y: y as usize,
        })
    }
}

/// `message(n)` as the error when `n` is above `max`.
pub fn at_most(n: usize, max: usize, message: impl FnOnce(usize) -> String) -> Result<(), String> {
    match n > max {
        true => Err(message(n)),
        false => Ok(()),
    }
}

pub fn too_many_templates(n: usize) -> String {
    format!("vaults has {n} templates, at most {MAX_TEMPLATES}")
}

pub fn too_many_entries(n: usize) -> String {
    format!("place has {n} entries, at most {MAX_ENTRIES}")
}

/// A vault's floor while `@`, `>`, items and placed cells go down: walkable,
/// but not `.`, so that nothing lands on it.
const COVERED: u8 = 0;

/// The level as the design left it before `@` and `>` go down.
pub struct Shaped {
    /// Where `@` starts: `arrive`, a vault's `@`, or the generator's.
    pub player: Pos,
    /// A vault's `>`, if one has it.
    pub stairs: Option<Pos>,
    stamped: Option<Stamped>,
}

/// Stamps the vaults (keeping off the generator's `@` and `>` and the
/// arrival cell), joins each vault's entrances, then `arrive`, then, when a
/// vault went over carved cells, everything the vaults cut off, all by
/// tunnels (`tunnels.rs`). Without vaults and `arrive` it changes nothing
/// and draws nothing.
pub fn shape(
    grid: &mut Grid,
    layout: &Layout,
    design: &Design,
    rng: &mut Rng,
) -> Result<Shaped, String> {
    let arrive = design.arrival();
    let stamped = match design.vaults.is_empty() {
        true => None,
        false => {
            let keep: Vec<Pos> = [Some(layout.player), layout.stairs, arrive]
                .into_iter()
                .flatten()
                .collect();
            Some(vaults::stamp(grid, &design.vaults, &keep, rng)?)
        }
    };
    let player = arrive
        .or_else(|| stamped.as_ref().and_then(|s| s.player))
        .unwrap_or(layout.player);
    if stamped.is_some() || arrive.is_some() {
        let mut digger = Digger::new(grid, stamped.as_ref().map(|s| &s.owners));
        if let Some(s) = &stamped {
            digger.join_entrances(s);
        }
        if let Some(p) = arrive {
            digger.join_cell(p);
        }
        let cut = stamped.as_ref().is_some_and(|s| !s.on_rock);
        if cut && !digger.join_all(player) {
            return Err(format!(
                "{INTERNAL_ERROR}: a part of the level could not be joined"
            ));
        }
    }
    Ok(Shaped {
        player,
        stairs: stamped.as_ref().and_then(|s| s.stairs),
        stamped,
    })
}

impl Shaped {
    pub fn vaults(&self) -> &[Vault] {
        self.stamped.as_ref().map_or(&[], |s| &s.vaults)
    }

    /// Whether cell `i` is a vault's (a space included).
    pub fn in_vault(&self, i: usize) -> bool {
        self.stamped.as_ref().is_some_and(|s| s.owners.of(i) != 0)
    }

    fn swap(&self, grid: &mut Grid, from: u8, to: u8) {
        for v in self.vaults() {
            for p in v.rect.cells() {
                if grid.get(p) == from {
                    grid.set(p, to);
                }
            }
        }
    }

    /// Covers the vaults' floor (spaces included) from `>`, items and `place`.
    pub fn cover(&self, grid: &mut Grid) {
        self.swap(grid, FLOOR, COVERED);
    }

    pub fn uncover(&self, grid: &mut Grid) {
        self.swap(grid, COVERED, FLOOR);
    }

    /// Adds the vaults' `+` cells to `doors`, keeping row order.
    pub fn add_doors(&self, grid: &Grid, doors: &mut Vec<Pos>) {
        let before = doors.len();
        for v in self.vaults() {
            doors.extend(v.rect.cells().filter(|&p| grid.get(p) == DOOR));
        }
        if doors.len() > before {
            doors.sort_by_key(|&p| grid.index(p));
        }
    }
}

/// Per cell, at most, for what `vaults`, `arrive` and `place` add while a
/// level is made: the vaults' owners (a byte), the tunnels' marks (two
/// bytes) and queue (a `u32`) with, while the join checks the level, the
/// toolkit's flood (a byte and a `u32`); or the walking distances and
/// their queue (two `u32`s), sight (a byte) and the floor cells listed
/// with their distance (two `u32`s, and a count for each block of 256).
/// Measured: at most 17 B/cell in all, `level::bound`'s share included.
const DESIGN_PER_CELL: usize = 16;

/// Each placed vault: its template turned (at most 64x64 bytes) and its
/// entrances (at most 4 x 64, a `usize` each).
const COPY_BYTES: usize = 64 * 64 + 4 * 64 * 8;
