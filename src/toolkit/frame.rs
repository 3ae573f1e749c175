//! A frame: what a camera rectangle of a map shows, the characters to draw
//! and each cell's state, from the terrain, what is visible, what is
//! remembered and the things standing on it (`map.frame`, `lvl:frame`).
//!
//! A cell is visible (state 2), remembered (1) or unknown (0, and every
//! cell off the map): a visible cell shows its terrain with an item and
//! then a thing over it, a remembered one its terrain with an item over it
//! (what was seen lying there), an unknown one the blank. Without a field
//! of what is visible every cell of the map is.
//!
//! Not fuzzed: it reads only cells it has bounded to the map and the
//! camera (each index checked by the slices), and its spec compares it
//! cell by cell with a pure-Lua reference over random cameras and fields.

use crate::grid::{Grid, Pos, Rect};

/// A cell's state in a frame.
pub const UNKNOWN: u8 = 0;
pub const REMEMBERED: u8 = 1;
pub const VISIBLE: u8 = 2;

/// Flags over a rectangle of the map (a field of view's or a memory's
/// cells), row-major; every cell outside it unset.
#[derive(Clone, Copy)]
pub struct Flags<'a> {
    pub window: Rect,
    pub cells: &'a [bool],
}

impl Flags<'_> {
    /// The flags of row `y` within columns `x0 .. x0 + len`, and the
    /// offset of the first from `x0`; none where the window has none.
    fn row(&self, y: usize, x0: usize, len: usize) -> Option<(&[bool], usize)> {
        let w = self.window;
        if y < w.y || y >= w.y + w.h {
            return None;
        }
        let first = x0.max(w.x);
        let end = (x0 + len).min(w.x + w.w);
        if first >= end {
            return None;
        }
        let at = (y - w.y) * w.w + (first - w.x);
        Some((&self.cells[at..at + end - first], first - x0))
    }
}

/// The camera: its top-left cell (which may lie off the map, as may any
/// of its cells) and its size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Camera {
    pub x: i64,
    pub y: i64,
    pub w: usize,
    pub h: usize,
}

/// A character at a cell of the map (a thing or an item).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mark {
    pub at: Pos,
    pub char: u8,
}

/// What to draw from.
pub struct Scene<'a> {
    pub terrain: &'a Grid,
    /// The map cell of `terrain`'s top-left cell (a window of the map
    /// holding at least the camera's cells on the map).
    pub corner: Pos,
    /// The map's size.
    pub size: (usize, usize),
    pub visible: Option<Flags<'a>>,
    pub memory: Option<Flags<'a>>,
    /// Drawn where visible, over the items, the later over the earlier.
    pub things: &'a [Mark],
    /// Drawn where visible or remembered.
    pub items: &'a [Mark],
    pub blank: u8,
}

/// The frame: `w * h` characters and states, row-major over the camera.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Frame {
    pub w: usize,
    pub h: usize,
    pub chars: Vec<u8>,
    pub states: Vec<u8>,
}

/// The bytes a frame of `cells` holds while it is made: a table's cells
/// under the camera (a copy), its characters and states, a light byte and
/// the 4 bytes a cell of the byte form (the rows' form holds a digit a
/// cell in their place).
pub fn bound(cells: usize) -> usize {
    cells.saturating_mul(8)
}

/// The frame of `scene` the `camera` shows.
pub fn frame(scene: &Scene, camera: Camera) -> Frame {
    let cells = camera.w * camera.h;
    let mut chars = vec![scene.blank; cells];
    let mut states = vec![UNKNOWN; cells];
    let (width, height) = (scene.size.0 as i64, scene.size.1 as i64);
    // The camera's columns and rows on the map, as offsets into the frame.
    let cols = overlap(camera.x, camera.w, width);
    let mut rows = overlap(camera.y, camera.h, height);
    if cols.is_empty() {
        rows = 0..0;
    }
    let x0 = (camera.x + cols.start as i64) as usize;
    let tw = scene.terrain.width();
    for r in rows {
        let y = (camera.y + r as i64) as usize;
        let at = r * camera.w;
        let out = at + cols.start..at + cols.end;
        mark_states(scene, &mut states[out.clone()], x0, y);
        let ty = (y - scene.corner.y) * tw;
        let tx = ty + x0 - scene.corner.x;
        let terrain = &scene.terrain.cells()[tx..tx + cols.len()];
        for ((c, &s), &t) in chars[out.clone()].iter_mut().zip(&states[out]).zip(terrain) {
            *c = if s == UNKNOWN { scene.blank } else { t };
        }
    }
    let mut out = Frame {
        w: camera.w,
        h: camera.h,
        chars,
        states,
    };
    lay(&mut out, camera, scene.items, REMEMBERED);
    lay(&mut out, camera, scene.things, VISIBLE);
    out
}

/// The states of the cells of row `y` from column `x0` on, one a slot of
/// `states` (all unknown): a run of a row at a time, not a cell at a time.
fn mark_states(scene: &Scene, states: &mut [u8], x0: usize, y: usize) {
    let Some(visible) = &scene.visible else {
        states.fill(VISIBLE);
        return;
    };
    for (flags, state) in [(&scene.memory, REMEMBERED), (&Some(*visible), VISIBLE)] {
        let Some(f) = flags else { continue };
        let Some((row, first)) = f.row(y, x0, states.len()) else {
            continue;
        };
        for (s, &on) in states[first..first + row.len()].iter_mut().zip(row) {
            if on {
                *s = state;
            }
        }
    }
}

/// The offsets `0..len` of a camera's axis starting at `start` that fall
/// on a map axis of `size` cells (1..=size).
fn overlap(start: i64, len: usize, size: i64) -> std::ops::Range<usize> {
    let first = (1 - start).clamp(0, len as i64);
    let end = (size + 1 - start).clamp(first, len as i64);
    first as usize..end as usize
}

/// Lays `marks` on the frame's cells whose state is at least `least`.
fn lay(frame: &mut Frame, camera: Camera, marks: &[Mark], least: u8) {
    for mark in marks {
        let c = mark.at.x as i64 - camera.x;
        let r = mark.at.y as i64 - camera.y;
        if (0..camera.w as i64).contains(&c) && (0..camera.h as i64).contains(&r) {
            let i = r as usize * camera.w + c as usize;
            if frame.states[i] >= least {
                frame.chars[i] = mark.char;
            }
        }
    }
}

/// The frame as one string of 4 bytes a cell: the character, the state,
/// the light (`light`, a byte a cell, or 255 where none is given) and 0.
pub fn bytes(frame: &Frame, light: Option<&[u8]>) -> Vec<u8> {
    let mut out = Vec::with_capacity(frame.chars.len() * 4);
    for i in 0..frame.chars.len() {
        let lit = light.map_or(255, |l| l[i]);
        out.extend_from_slice(&[frame.chars[i], frame.states[i], lit, 0]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(text: &str) -> Grid {
        let rows: Vec<&[u8]> = text.lines().map(str::as_bytes).collect();
        let cells = rows.concat();
        Grid::from_cells(rows[0].len(), rows.len(), cells)
    }

    fn scene<'a>(
        terrain: &'a Grid,
        visible: Option<Flags<'a>>,
        memory: Option<Flags<'a>>,
    ) -> Scene<'a> {
        Scene {
            terrain,
            corner: Pos { x: 1, y: 1 },
            size: (terrain.width(), terrain.height()),
            visible,
            memory,
            things: &[],
            items: &[],
            blank: b' ',
        }
    }

    #[test]
    fn a_camera_past_the_map_is_blank_there() {
        let g = grid("#.#\n...");
        for (x, y) in [(-9, 1), (4, 1), (1, -9), (1, 3), (4, 3)] {
            let off = frame(&scene(&g, None, None), Camera { x, y, w: 2, h: 2 });
            assert_eq!(off.chars, b"    ".to_vec());
        }
        let f = frame(
            &scene(&g, None, None),
            Camera {
                x: 0,
                y: 0,
                w: 5,
                h: 4,
            },
        );
        assert_eq!(
            f.chars,
            [&b"     "[..], b" #.# ", b" ... ", b"     "].concat()
        );
        assert_eq!(f.states.iter().filter(|&&s| s == VISIBLE).count(), 6);
    }

    #[test]
    fn visible_over_remembered_over_unknown() {
        let g = grid("#..\n...");
        let v = [true, false, false, false, false, false];
        let m = [true, true, false, false, false, true];
        let whole = Rect::new(1, 1, 3, 2);
        let s = scene(
            &g,
            Some(Flags {
                window: whole,
                cells: &v,
            }),
            Some(Flags {
                window: whole,
                cells: &m,
            }),
        );
        let f = frame(
            &s,
            Camera {
                x: 1,
                y: 1,
                w: 3,
                h: 2,
            },
        );
        assert_eq!(f.states, vec![2, 1, 0, 0, 0, 1]);
        assert_eq!(f.chars, b"#.   .".to_vec());
    }

    #[test]
    fn things_only_where_visible_items_where_remembered() {
        let g = grid("....");
        let v = [true, false, false, false];
        let m = [true, true, true, false];
        let whole = Rect::new(1, 1, 4, 1);
        let things = [
            Mark {
                at: Pos { x: 1, y: 1 },
                char: b'@',
            },
            Mark {
                at: Pos { x: 2, y: 1 },
                char: b'g',
            },
        ];
        let items = [
            Mark {
                at: Pos { x: 1, y: 1 },
                char: b'$',
            },
            Mark {
                at: Pos { x: 3, y: 1 },
                char: b'!',
            },
        ];
        let mut s = scene(
            &g,
            Some(Flags {
                window: whole,
                cells: &v,
            }),
            Some(Flags {
                window: whole,
                cells: &m,
            }),
        );
        s.things = &things;
        s.items = &items;
        let f = frame(
            &s,
            Camera {
                x: 1,
                y: 1,
                w: 4,
                h: 1,
            },
        );
        assert_eq!(f.chars, b"@.! ".to_vec());
        assert_eq!(bytes(&f, None)[..4], [b'@', 2, 255, 0]);
    }
}
