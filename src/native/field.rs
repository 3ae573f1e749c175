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
//! A search within `max` from sources far apart keeps its values in parts,
//! one window each (`Cells::Parts`), so that it holds and costs the cells
//! near its sources, not the box round them all.

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
    /// Values in windows apart, each a field of values (`Narrow` or
    /// `Wide`) of the same map inside the field's window.
    Parts(Vec<Field>),
}

impl Cells {
    /// The codes of the kinds of cells in place (`Field::raw_cells`), which
    /// LuaJIT's FFI reads by these names.
    pub const NARROW: u32 = 1;
    pub const WIDE: u32 = 2;
    pub const FLAGS: u32 = 3;
    /// Parts: nothing in place to read (LuaJIT asks the C methods).
    pub const PARTS: u32 = 4;
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

    /// Values in `parts` (fields of values of the same map, their windows
    /// apart) inside `window`, which answers as one field of values over
    /// `window` with every cell outside the parts unreached.
    pub fn parts(size: (usize, usize), window: Rect, parts: Vec<Field>) -> Field {
        Field {
            size,
            window,
            cells: Cells::Parts(parts),
        }
    }

    /// A field of values in one window answering as this one does (a
    /// field in parts made one: how it is saved).
    pub fn in_one_window(&self) -> Field {
        Field::values(self.size, self.window, self.values_in(self.window))
    }

    /// The part holding `p`, of a field in parts.
    fn part_at(parts: &[Field], p: Pos) -> Option<&Field> {
        parts.iter().find(|f| f.window.contains(p))
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

    /// Whether `rect` (a rectangle of the map) lies inside the window.
    fn holds(&self, rect: Rect) -> bool {
        let w = self.window;
        rect.x >= w.x
            && rect.y >= w.y
            && rect.x + rect.w <= w.x + w.w
            && rect.y + rect.h <= w.y + w.h
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
            Cells::Parts(parts) => Field::part_at(parts, p).map_or(Value::Unreached, |f| f.get(p)),
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
            Cells::Parts(parts) => Field::part_at(parts, p).map_or(BEYOND, |f| f.value_at(p)),
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
                Cells::Flags(_) | Cells::Parts(_) => {}
            }
        }
        if let Cells::Parts(parts) = &self.cells {
            return Field::parts_in(parts, rect);
        }
        let mut out = Vec::with_capacity(rect.w * rect.h);
        out.extend(rect.cells().map(|p| match self.get(p) {
            Value::Int(v) => v,
            Value::Seen => 0,
            Value::Unreached | Value::Unseen => BEYOND,
        }));
        out
    }

    /// `values_in` of a field in `parts`: each part's cells copied row by
    /// row, not a search of the parts for every cell.
    fn parts_in(parts: &[Field], rect: Rect) -> Vec<i64> {
        let mut out = vec![BEYOND; rect.w * rect.h];
        for part in parts {
            let w = part.window;
            let (x0, x1) = (w.x.max(rect.x), (w.x + w.w).min(rect.x + rect.w));
            for y in w.y.max(rect.y)..(w.y + w.h).min(rect.y + rect.h) {
                for x in x0..x1 {
                    out[(y - rect.y) * rect.w + x - rect.x] = part.value_at(Pos { x, y });
                }
            }
        }
        out
    }

    /// Whether each cell of `rect` is set (flags) or reached (values), row-major.
    pub fn flags_in(&self, rect: Rect) -> Vec<bool> {
        match &self.cells {
            Cells::Parts(parts) => {
                let values = Field::parts_in(parts, rect);
                return values.into_iter().map(|v| v != BEYOND).collect();
            }
            // Inside the window, a row of flags at a time.
            Cells::Flags(flags) if self.holds(rect) => {
                let w = self.window;
                let mut out = Vec::with_capacity(rect.w * rect.h);
                for y in rect.y..rect.y + rect.h {
                    let start = (y - w.y) * w.w + rect.x - w.x;
                    out.extend_from_slice(&flags[start..start + rect.w]);
                }
                return out;
            }
            _ => {}
        }
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
            Cells::Parts(_) => (std::ptr::null_mut(), Cells::PARTS),
        }
    }

    /// The bytes its cells take.
    pub fn bytes(&self) -> usize {
        match &self.cells {
            Cells::Narrow(v) => v.len() * 4,
            Cells::Wide(v) => v.len() * 8,
            Cells::Flags(f) => f.len(),
            Cells::Parts(parts) => parts.iter().map(Field::bytes).sum(),
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
        // Every rectangle, inside the window or not, reads cell by cell.
        for field in [&seen, &memory] {
            for (x, y, w, h) in
                (1..=4)
                    .flat_map(|x| (1..=3).map(move |y| (x, y)))
                    .flat_map(|(x, y)| {
                        (1..=5 - x).flat_map(move |w| (1..=4 - y).map(move |h| (x, y, w, h)))
                    })
            {
                let rect = Rect::new(x, y, w, h);
                let cell_by_cell: Vec<bool> = rect.cells().map(|p| field.flags_at(p)).collect();
                assert_eq!(field.flags_in(rect), cell_by_cell, "{rect:?}");
            }
        }
    }

    #[test]
    fn a_field_in_parts_answers_as_one_window_of_values() {
        let size = (9, 6);
        let left = Field::values(size, Rect::new(1, 1, 2, 2), vec![0, 1, BEYOND, 2]);
        let right = Field::values(
            size,
            Rect::new(6, 4, 3, 2),
            vec![5, 1 << 40, 3, BEYOND, 4, 0],
        );
        let window = Rect::new(1, 1, 8, 5);
        let parts = Field::parts(size, window, vec![left.clone(), right.clone()]);
        let one = parts.in_one_window();
        assert_eq!(one.window, window);
        assert!(
            matches!(one.cells, Cells::Wide(_)),
            "a part's wide value makes it wide"
        );
        for p in Rect::whole(size).cells() {
            let from = if left.window.contains(p) {
                &left
            } else {
                &right
            };
            assert_eq!(parts.get(p), from.get(p), "{p:?}");
            assert_eq!(parts.get(p), one.get(p), "{p:?}");
            assert_eq!(parts.value_at(p), one.value_at(p), "{p:?}");
        }
        for rect in [window, Rect::whole(size), Rect::new(2, 2, 6, 4)] {
            assert_eq!(parts.values_in(rect), one.values_in(rect));
            assert_eq!(parts.flags_in(rect), one.flags_in(rect));
        }
        assert_eq!(parts.bytes(), left.bytes() + right.bytes());
        assert_eq!(
            parts.clone().raw_cells(),
            (std::ptr::null_mut(), Cells::PARTS)
        );
    }
}
