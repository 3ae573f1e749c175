//! A field: what a search or a field of view gives on a native level, kept
//! natively instead of as a table of rows. It covers a window of the map
//! (the cells a search within `max` can reach, the square a radius sees;
//! the whole map otherwise): a cell outside it holds what an unreached or
//! unseen cell holds.
//!
//! Values are kept in 4 bytes a cell when every value fits in an `i32`
//! (any search without costs or start values beyond 2^31 does), in 8
//! otherwise; flags (seen, remembered) in a byte, as the field of view
//! makes them, so that a field of view becomes a field without a pass.

use crate::grid::{Pos, Rect};
use crate::toolkit::board::BEYOND;

/// An `i32` cell that holds `false` (an unreached cell).
pub const NARROW_BEYOND: i32 = i32::MIN;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cells {
    /// Integer values, `NARROW_BEYOND` where unreached.
    Narrow(Vec<i32>),
    /// Integer values, `BEYOND` where unreached.
    Wide(Vec<i64>),
    /// Flags: a cell seen or remembered.
    Flags(Vec<bool>),
}

impl Cells {
    /// The codes of the kinds of cells in place (`Field::raw_cells`), which
    /// LuaJIT's FFI reads by these names.
    pub const NARROW: u32 = 1;
    pub const WIDE: u32 = 2;
    pub const FLAGS: u32 = 3;
}

/// What one cell of a field holds, as the table functions would give it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    /// A distance or safety value.
    Int(i64),
    /// Unreached (`false` in a table of distances).
    Unreached,
    /// Seen (`true` in `fov`'s table).
    Seen,
    /// Not seen (nil in `fov`'s table).
    Unseen,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Field {
    /// The map's size: the field answers for every cell of it.
    pub size: (usize, usize),
    /// The cells it holds; every other cell is unreached or unseen.
    pub window: Rect,
    pub cells: Cells,
}

impl Field {
    /// A distance or safety map over `window` (`values` row-major over it,
    /// `BEYOND` where unreached) of a map of `size`.
    pub fn values(size: (usize, usize), window: Rect, values: Vec<i64>) -> Field {
        let fits = |&v: &i64| v == BEYOND || (i64::from(NARROW_BEYOND) < v && v <= i32::MAX.into());
        let cells = if values.iter().all(fits) {
            Cells::Narrow(
                values
                    .iter()
                    .map(|&v| if v == BEYOND { NARROW_BEYOND } else { v as i32 })
                    .collect(),
            )
        } else {
            Cells::Wide(values)
        };
        Field {
            size,
            window,
            cells,
        }
    }

    /// Flags over `window` (`flags` row-major over it) of a map of `size`.
    pub fn flags(size: (usize, usize), window: Rect, flags: Vec<bool>) -> Field {
        Field {
            size,
            window,
            cells: Cells::Flags(flags),
        }
    }

    /// A memory of a map of `size`: flags over all of it, none set.
    pub fn memory(size: (usize, usize)) -> Field {
        Field {
            size,
            window: Rect::whole(size),
            cells: Cells::Flags(vec![false; size.0 * size.1]),
        }
    }

    pub fn is_flags(&self) -> bool {
        matches!(self.cells, Cells::Flags(_))
    }

    /// The index of `p` (a cell of the map) in the window, if inside.
    fn at(&self, p: Pos) -> Option<usize> {
        let w = self.window;
        w.contains(p).then(|| (p.y - w.y) * w.w + (p.x - w.x))
    }

    /// What cell `p` of the map holds.
    pub fn get(&self, p: Pos) -> Value {
        let i = self.at(p);
        match &self.cells {
            Cells::Flags(flags) => match i.is_some_and(|i| flags[i]) {
                true => Value::Seen,
                false => Value::Unseen,
            },
            Cells::Narrow(v) => match i.map(|i| v[i]) {
                Some(n) if n != NARROW_BEYOND => Value::Int(n.into()),
                _ => Value::Unreached,
            },
            Cells::Wide(v) => match i.map(|i| v[i]) {
                Some(n) if n != BEYOND => Value::Int(n),
                _ => Value::Unreached,
            },
        }
    }

    /// The value of cell `p`, `BEYOND` where unreached (a field of values).
    pub fn value_at(&self, p: Pos) -> i64 {
        let w = self.window;
        let (dx, dy) = (p.x.wrapping_sub(w.x), p.y.wrapping_sub(w.y));
        if dx >= w.w || dy >= w.h {
            return BEYOND;
        }
        let i = dy * w.w + dx;
        match &self.cells {
            Cells::Narrow(v) if v[i] == NARROW_BEYOND => BEYOND,
            Cells::Narrow(v) => v[i].into(),
            Cells::Wide(v) => v[i],
            Cells::Flags(_) => BEYOND,
        }
    }

    /// Whether cell `p` is set (a field of flags).
    pub fn flags_at(&self, p: Pos) -> bool {
        self.get(p) == Value::Seen
    }

    /// The values of the cells of `rect` (a rectangle of the map), row-major,
    /// `BEYOND` where unreached; flags read as 0 where set, `BEYOND` where not.
    pub fn values_in(&self, rect: Rect) -> Vec<i64> {
        if rect == self.window {
            match &self.cells {
                Cells::Narrow(v) => {
                    let wide = |&n: &i32| if n == NARROW_BEYOND { BEYOND } else { n.into() };
                    return v.iter().map(wide).collect();
                }
                Cells::Wide(v) => return v.clone(),
                Cells::Flags(_) => {}
            }
        }
        let mut out = Vec::with_capacity(rect.w * rect.h);
        out.extend(rect.cells().map(|p| match self.get(p) {
            Value::Int(v) => v,
            Value::Seen => 0,
            Value::Unreached | Value::Unseen => BEYOND,
        }));
        out
    }

    /// Whether each cell of `rect` is set (flags) or reached (values), row-major.
    pub fn flags_in(&self, rect: Rect) -> Vec<bool> {
        let mut out = Vec::with_capacity(rect.w * rect.h);
        out.extend(
            rect.cells()
                .map(|p| matches!(self.get(p), Value::Int(_) | Value::Seen)),
        );
        out
    }

    /// Sets the flags of `window`'s cells that `seen` marks (row-major over
    /// `window`, a rectangle of the map); `self` holds flags over the whole
    /// map (a memory). Returns how many cells `seen` marks.
    pub fn mark(&mut self, window: Rect, seen: &[bool]) -> usize {
        let width = self.size.0;
        let Cells::Flags(flags) = &mut self.cells else {
            return 0;
        };
        let mut count = 0;
        for (i, _) in seen.iter().enumerate().filter(|(_, &s)| s) {
            let p = window.outside(Pos {
                x: i % window.w + 1,
                y: i / window.w + 1,
            });
            flags[(p.y - 1) * width + p.x - 1] = true;
            count += 1;
        }
        count
    }

    /// Its cells in place and their kind (`Cells::NARROW`: values in 4
    /// bytes, `WIDE`: in 8, `FLAGS`: flags), for LuaJIT's FFI: they keep
    /// their address for the field's life.
    pub fn raw_cells(&mut self) -> (*mut u8, u32) {
        match &mut self.cells {
            Cells::Narrow(v) => (v.as_mut_ptr().cast(), Cells::NARROW),
            Cells::Wide(v) => (v.as_mut_ptr().cast(), Cells::WIDE),
            Cells::Flags(f) => (f.as_mut_ptr().cast(), Cells::FLAGS),
        }
    }

    /// The bytes its cells take.
    pub fn bytes(&self) -> usize {
        match &self.cells {
            Cells::Narrow(v) => v.len() * 4,
            Cells::Wide(v) => v.len() * 8,
            Cells::Flags(f) => f.len(),
        }
    }
}

/// The memory a memory (`map.field`, `level:field()`) of `cells` cells
/// takes: a byte a cell.
pub fn bound_memory(cells: usize) -> usize {
    cells + crate::memory::FIXED
}

/// The memory a field's `table()` of a window of `cells` cells may use:
/// its values (8 bytes a cell) or flags (1).
pub fn bound_rows(cells: usize) -> usize {
    9 * cells + crate::memory::FIXED
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(x: usize, y: usize) -> Pos {
        Pos { x, y }
    }

    #[test]
    fn values_answer_for_the_whole_map_narrow_when_they_fit() {
        let f = Field::values((5, 4), Rect::new(2, 2, 2, 2), vec![0, 1, BEYOND, 3]);
        assert!(matches!(f.cells, Cells::Narrow(_)));
        assert_eq!(f.get(at(2, 2)), Value::Int(0));
        assert_eq!(f.get(at(3, 3)), Value::Int(3));
        assert_eq!(f.get(at(2, 3)), Value::Unreached);
        assert_eq!(f.get(at(1, 1)), Value::Unreached);
        assert_eq!(f.get(at(5, 4)), Value::Unreached);
        let wide = Field::values((2, 1), Rect::whole((2, 1)), vec![1 << 40, -(1 << 40)]);
        assert!(matches!(wide.cells, Cells::Wide(_)));
        assert_eq!(wide.get(at(2, 1)), Value::Int(-(1 << 40)));
        let edge = Field::values((2, 1), Rect::whole((2, 1)), vec![i32::MIN.into(), 0]);
        assert!(
            matches!(edge.cells, Cells::Wide(_)),
            "i32::MIN is the sentinel"
        );
        assert_eq!(
            f.values_in(Rect::new(1, 2, 3, 1)),
            vec![BEYOND, 0, 1],
            "outside the window reads as unreached"
        );
    }

    #[test]
    fn flags_and_memory_mark_and_count() {
        let seen = Field::flags(
            (4, 3),
            Rect::new(2, 1, 2, 2),
            vec![true, false, false, true],
        );
        assert_eq!(seen.get(at(2, 1)), Value::Seen);
        assert_eq!(seen.get(at(3, 1)), Value::Unseen);
        assert_eq!(seen.get(at(3, 2)), Value::Seen);
        assert_eq!(seen.get(at(4, 3)), Value::Unseen);
        let mut memory = Field::memory((4, 3));
        assert_eq!(
            memory.mark(Rect::new(2, 1, 2, 2), &[true, false, false, true]),
            2
        );
        assert_eq!(
            memory.flags_in(Rect::whole((4, 3))),
            seen.flags_in(Rect::whole((4, 3)))
        );
        assert_eq!(memory.bytes(), 12);
    }
}
