//! Rooms in a binary space partition, after libtcod's
//! `TCOD_bsp_split_recursive` and its BSP sample.
//!
//! The interior is split in two, then each half again, `depth` times or until
//! a part is too small to split: across a part whose length exceeds
//! `max_ratio` times its breadth, at random otherwise, at a random position
//! that leaves both halves at least `min_size` cells across. Each leaf gets
//! one room of random size and place. Then, bottom-up, the two subtrees of
//! every split are joined by an L-shaped corridor (bend chosen by a coin)
//! between the centres of the room of each nearest the split line: for a
//! vertical line, the first subtree's room reaching furthest right and the
//! second's starting furthest left (top and bottom likewise), the first in
//! depth-first order on a tie. Nearest rooms keep corridors short, and every
//! join links two connected subtrees, so the map is connected by construction.
//!
//! The parts tile the interior plus the right and bottom border lines, and a
//! room never takes its part's last column or row: that wall line keeps rooms
//! of neighbouring parts from touching, and the border does it for the last.

use super::loops::{self, LOOPS};
use super::shared::{Corridors, DOORS, MAX_ROOMS};
use super::{Default, Generator, Kind, Layout, OptionSpec, Options};
use crate::input::MAX_CELLS;
use crate::toolkit::flood::{Flood, CLOSED, OPEN, WANTED};
use crate::grid::{Grid, Pos, Rect, FLOOR, WALL};
use crate::rng::Rng;

pub const GENERATOR: Generator = Generator {
    name: "bsp",
    doc: "rooms in the leaves of a binary space partition, joined up the tree by corridors",
    // A 2x1 interior: its one part gives a 2x1 room, so @ and > differ (see
    // `MIN_MIN_SIZE`). 3x3 has a single interior cell. 3x4 would do as well
    // as 4x3, but the two minimums are independent and cannot allow both
    // without 3x3: the extra cell goes to the width, as maps are wide.
    min_width: 4,
    min_height: 3,
    options: &[DEPTH, MIN_SIZE, MAX_RATIO_OPTION, DOORS, LOOPS, super::shared::LOCKS],
    terrain: &super::ROCK,
    hides: true,
    carve: layout,
    bound: super::no_bound,
};

const DEPTH: OptionSpec = OptionSpec {
            name: "depth",
            kind: Kind::Int {
                min: 0,
                max: MAX_DEPTH,
            },
            default: Default::Int(DEFAULT_DEPTH),
            doc: "levels of splitting: at most 2^depth rooms",
        };

const MIN_SIZE: OptionSpec = OptionSpec {
            name: "min_size",
            kind: Kind::Int {
                min: MIN_MIN_SIZE,
                max: MAX_CELLS as i64,
            },
            default: Default::Int(DEFAULT_MIN_SIZE),
            doc: "the fewest cells across a part, its wall included; rooms are at least \
                  min_size - 1 across where the map allows",
        };

const MAX_RATIO_OPTION: OptionSpec = OptionSpec {
            name: "max_ratio",
            kind: Kind::Number {
                min: 1.0,
                max: MAX_RATIO,
                open_min: false,
            },
            default: Default::Number(DEFAULT_MAX_RATIO),
            doc: "a part longer than max_ratio times its breadth is always split across",
        };

/// With `depth <= 13`, at most 8192 rooms: within `MAX_ROOMS`, the bound the
/// rooms algorithm puts on the rooms a map reports. It also bounds the
/// recursion, however lopsided the splits.
pub const MAX_DEPTH: i64 = MAX_ROOMS.ilog2() as i64;

/// Up to 32 rooms; at 80x50 with the other defaults, 17 to 32 (25 on
/// average over 1000 seeds), on about half the cells.
pub const DEFAULT_DEPTH: i64 = 5;

/// A part of 3 holds a room 2 across, so every room has two cells (one of
/// them not `@`'s) on every map of at least 4x3.
pub const MIN_MIN_SIZE: i64 = 3;

pub const DEFAULT_MIN_SIZE: i64 = 7;

/// libtcod's BSP sample uses 1.5 for both of its ratios.
pub const DEFAULT_MAX_RATIO: f64 = 1.5;

/// No map is stretched further than this matters for (past it, the split
/// direction is simply random); a bound keeps the message readable.
pub const MAX_RATIO: f64 = 100.0;

/// `@` at the centre of the first room, `>` on the room cell with the
/// longest walk from it.
fn layout(grid: &mut Grid, opts: &Options, rng: &mut Rng) -> Result<Layout, String> {
    let rooms = carve(grid, Settings::read(opts), rng);
    loops::add(grid, &rooms, opts.count(&LOOPS), rng);
    let player = rooms[0].centre();
    let stairs = farthest_room_cell(grid, &rooms, player);
    Ok(Layout {
        rooms,
        player,
        stairs: Some(stairs),
        blocked: None,
    })
}

/// The options that shape the partition.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    pub depth: usize,
    pub min_size: usize,
    pub max_ratio: f64,
}

impl Settings {
    /// The options as checked, read once.
    fn read(opts: &Options) -> Settings {
        Settings {
            depth: opts.count(&DEPTH),
            min_size: opts.count(&MIN_SIZE),
            max_ratio: opts.number(&MAX_RATIO_OPTION),
        }
    }
}

/// A part of the partition (1-based top-left cell and size).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Part {
    x: usize,
    y: usize,
    w: usize,
    h: usize,
}

impl Part {
    /// The parts either side of the line through column (`vertical`) or row
    /// `at`, which starts the second.
    fn cut(self, vertical: bool, at: usize) -> (Part, Part) {
        if vertical {
            let first = Part {
                w: at - self.x,
                ..self
            };
            let second = Part {
                x: at,
                w: self.x + self.w - at,
                ..self
            };
            (first, second)
        } else {
            let first = Part {
                h: at - self.y,
                ..self
            };
            let second = Part {
                y: at,
                h: self.y + self.h - at,
                ..self
            };
            (first, second)
        }
    }
}

/// The rooms of a subtree nearest each of its sides, as indices into the
/// room list: the candidates for a corridor to a sibling on that side.
#[derive(Clone, Copy, Debug)]
struct Ends {
    left: usize,
    right: usize,
    top: usize,
    bottom: usize,
}

/// Partitions the solid `grid` (at least 4x3), carves a room per leaf and
/// the corridors, and returns the rooms, leaves in depth-first order (first
/// halves first: left before right, top before bottom).
pub fn carve(grid: &mut Grid, settings: Settings, rng: &mut Rng) -> Vec<Rect> {
    let whole = Part {
        x: 2,
        y: 2,
        w: grid.width() - 1,
        h: grid.height() - 1,
    };
    let mut bsp = Bsp {
        grid,
        rng,
        settings,
        rooms: Vec::new(),
        corridors: Corridors::default(),
    };
    bsp.partition(whole, settings.depth);
    bsp.rooms
}

struct Bsp<'a> {
    grid: &'a mut Grid,
    rng: &'a mut Rng,
    settings: Settings,
    rooms: Vec<Rect>,
    corridors: Corridors,
}

impl Bsp<'_> {
    /// Splits `part` up to `depth` more times, carves its rooms and joins
    /// them; returns its rooms nearest each side.
    fn partition(&mut self, part: Part, depth: usize) -> Ends {
        let Some((first, second, vertical)) = self.split(part, depth) else {
            return self.leaf(part);
        };
        let a = self.partition(first, depth - 1);
        let b = self.partition(second, depth - 1);
        let (from, to) = if vertical {
            (a.right, b.left)
        } else {
            (a.bottom, b.top)
        };
        let (from, to) = (self.rooms[from].centre(), self.rooms[to].centre());
        self.corridors.carve(self.grid, from, to, self.rng);
        self.merge(a, b)
    }

    /// libtcod's choice: no split at depth 0 or when neither side holds two
    /// parts of `min_size`; across the length of a part stretched beyond
    /// `max_ratio` (or too short the other way); otherwise a coin. The cut
    /// leaves `min_size` or more on each side. `true`: a vertical cut line.
    fn split(&mut self, part: Part, depth: usize) -> Option<(Part, Part, bool)> {
        let Settings {
            min_size: min,
            max_ratio,
            ..
        } = self.settings;
        let (fits_w, fits_h) = (part.w >= 2 * min, part.h >= 2 * min);
        if depth == 0 || !(fits_w || fits_h) {
            return None;
        }
        let (w, h) = (part.w as f64, part.h as f64);
        let vertical = if !fits_h || w > h * max_ratio {
            true
        } else if !fits_w || h > w * max_ratio {
            false
        } else {
            self.rng.coin()
        };
        let (start, length) = if vertical {
            (part.x, part.w)
        } else {
            (part.y, part.h)
        };
        let at = self.rng.range(start + min, start + length - min);
        let (first, second) = part.cut(vertical, at);
        Some((first, second, vertical))
    }

    /// Carves a room in `part` short of its last column and row: each side
    /// from `min_size - 1` (or all there is) up to all there is, at a random
    /// place.
    fn leaf(&mut self, part: Part) -> Ends {
        let least = self.settings.min_size - 1;
        let (room_w, room_h) = (part.w - 1, part.h - 1);
        let w = self.rng.range(least.min(room_w), room_w);
        let h = self.rng.range(least.min(room_h), room_h);
        let x = self.rng.range(part.x, part.x + room_w - w);
        let y = self.rng.range(part.y, part.y + room_h - h);
        self.grid.fill(Pos { x, y }, w, h, FLOOR);
        let i = self.rooms.len();
        self.rooms.push(Rect { x, y, w, h });
        Ends {
            left: i,
            right: i,
            top: i,
            bottom: i,
        }
    }

    /// The ends of two sibling subtrees taken together; on a tie, the room
    /// of `a`, the first subtree (so the first room in depth-first order).
    fn merge(&self, a: Ends, b: Ends) -> Ends {
        let r = &self.rooms;
        let pick = |a: usize, b: usize, b_nearer: bool| if b_nearer { b } else { a };
        Ends {
            left: pick(a.left, b.left, r[b.left].x < r[a.left].x),
            right: pick(
                a.right,
                b.right,
                r[b.right].x + r[b.right].w > r[a.right].x + r[a.right].w,
            ),
            top: pick(a.top, b.top, r[b.top].y < r[a.top].y),
            bottom: pick(
                a.bottom,
                b.bottom,
                r[b.bottom].y + r[b.bottom].h > r[a.bottom].y + r[a.bottom].h,
            ),
        }
    }
}

/// The room cell with the longest walk from `player`, the first in row
/// order on a tie. Rooms are at least two cells, so it is never `player`'s.
fn farthest_room_cell(grid: &Grid, rooms: &[Rect], player: Pos) -> Pos {
    let mut flood = Flood::new(grid, |c| if c == WALL { CLOSED } else { OPEN });
    for room in rooms {
        for y in room.y..room.y + room.h {
            flood.mark_run(Pos { x: room.x, y }, room.w, WANTED);
        }
    }
    flood.farthest(player)
}

#[cfg(test)]
mod tests;
