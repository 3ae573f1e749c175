//! Reading maps: a map's size, its `blocked`, a window of its cells (from
//! a table of rows or a level's terrain), flags and values of rows (or of
//! a field), one cell; the readers of args.rs beneath them (its module
//! doc).

use std::ffi::c_int;

use mlua::ffi;

use super::args::{Args, Field, Key};
use crate::grid::{Grid, Pos, Rect};
use crate::input::{Arg, MAX_CELLS};
use crate::native::field::Field as NativeField;
use crate::native::NativeLevel;
use crate::toolkit::board::{BEYOND, MAX_VALUE};

impl Args {
    /// The field at `index` (`name` in messages), in a method of a level:
    /// one of the level's size, of flags or of values as `flags` says;
    /// `None` for anything else (a table, read as rows).
    fn field_of(
        &self,
        index: c_int,
        name: &str,
        flags: bool,
    ) -> Result<Option<&NativeField>, String> {
        let (Some(level), Some(field)) = (self.level_at(1), self.native_ref::<NativeField>(index))
        else {
            return Ok(None);
        };
        let size = (level.width(), level.height());
        if field.size != size {
            let ((w, h), (lw, lh)) = (field.size, size);
            return Err(format!(
                "{name} is a field of {w}x{h}, the level is {lw}x{lh}"
            ));
        }
        match (field.is_flags(), flags) {
            (true, false) => Err(format!(
                "{name} must be a field of values (distances, flee), got a field of flags"
            )),
            (false, true) => Err(format!(
                "{name} must be a field of flags (fov, a memory), got a field of values"
            )),
            _ => Ok(Some(field)),
        }
    }

    /// The characters that block walking on the map at `index`, where the
    /// map says (a level's, or a table's field `blocked`, a string); `None`
    /// where it says nothing (`#` alone blocks) and for anything not a
    /// table or a level (its reader reports it).
    pub fn map_blocked(&self, index: c_int) -> Result<Option<&[u8]>, String> {
        if let Some(level) = self.level_at(index) {
            return Ok(level.blocked());
        }
        match self.with_field(index, Key::Field(Field::Blocked), |a, top| a.at(top)) {
            Arg::Missing => Ok(None),
            Arg::Str(chars) => Ok(Some(chars)),
            other => Err(format!(
                "m.blocked must be a string of characters, got {}",
                other.type_name()
            )),
        }
    }

    /// The width and height of the map at `index`, checked as `grid` checks
    /// them, without reading any row but the first: `length(map)` rows of
    /// `length(row 1)` cells, at most `MAX_CELLS`.
    pub fn map_size(&self, index: c_int) -> Result<(usize, usize), String> {
        if let Some(level) = self.level_at(index) {
            return Ok((level.width(), level.height()));
        }
        let t = self.kind(index);
        if t != ffi::LUA_TTABLE {
            let got = match t {
                ffi::LUA_TNONE => "nothing",
                t => self.type_name(t),
            };
            return Err(format!("map must be a table of rows, got {got}"));
        }
        let height = self.length(index);
        if height == 0 {
            return Err("map has no rows (#map == 0)".into());
        }
        let width = self.with_index(self.absolute(index), 1, |kind, row| match kind {
            ffi::LUA_TTABLE => Ok(self.length(row)),
            other => Err(format!(
                "row 1 must be a table, got {}",
                self.type_name(other)
            )),
        })?;
        if width == 0 {
            return Err("row 1 is empty".into());
        }
        // Rows may alias one table: bound the size before copying it.
        if width.saturating_mul(height) > MAX_CELLS {
            return Err(format!(
                "map has more than {MAX_CELLS} cells ({width}x{height})"
            ));
        }
        Ok((width, height))
    }

    /// The `w` x `h` window of the map at `index` whose top-left cell is
    /// `(x0, y0)`, for a map of `width` columns (from `map_size`): each row
    /// in it checked as `grid` checks rows, but only the window's cells read.
    pub fn window(
        &self,
        index: c_int,
        (x0, y0): (usize, usize),
        (w, h): (usize, usize),
        width: usize,
    ) -> Result<Grid, String> {
        if let Some(level) = self.level_at(index) {
            return Ok(level_window(level, (x0, y0), (w, h)));
        }
        if !self.is_table(index) {
            return Err("map must be a table of rows".into());
        }
        let map = self.absolute(index);
        let mut cells = Vec::with_capacity(w * h);
        for y in y0..y0 + h {
            self.row_cells(map, y, width, x0..x0 + w, &mut cells)?;
        }
        Ok(Grid::from_cells(w, h, cells))
    }

    /// The cells `xs` of row `y` of the map at `map` (absolute), appended
    /// to `cells`: the row must be a table of which `width` is a border
    /// (`row[width]` present, `row[width + 1]` nil, two reads whatever the
    /// row holds), and each cell read a one-byte string.
    fn row_cells(
        &self,
        map: c_int,
        y: usize,
        width: usize,
        xs: std::ops::Range<usize>,
        cells: &mut Vec<u8>,
    ) -> Result<(), String> {
        self.with_index(map, y, |kind, row| {
            if kind != ffi::LUA_TTABLE {
                return Err(format!(
                    "row {y} must be a table, got {}",
                    self.type_name(kind)
                ));
            }
            if !self.present(row, width) || self.present(row, width + 1) {
                let len = self.length(row);
                return Err(format!("row {y} has {len} cells, row 1 has {width}"));
            }
            xs.into_iter().try_for_each(|x| {
                cells.push(self.cell(row, x).map_err(|got| cell_message(y, x, &got))?);
                Ok(())
            })
        })
    }

    /// Cell `x` of the row at `row` (absolute), or what it is instead of a
    /// one-byte string.
    fn cell(&self, row: c_int, x: usize) -> Result<u8, String> {
        self.with_index(row, x, |kind, top| match kind {
            ffi::LUA_TSTRING => match self.string(top) {
                &[c] => Ok(c),
                bytes => Err(format!("a {}-byte string", bytes.len())),
            },
            other => Err(self.type_name(other).to_string()),
        })
    }

    /// Rows `y0 .. y0+h` of the table of rows at `index` (`name` in
    /// messages), cells `x0 .. x0+w` of each: whether each is truthy (not
    /// nil or false), row-major. A row may be nil (nothing in it is);
    /// anything else but a table is an error naming it.
    pub fn flags(
        &self,
        index: c_int,
        name: &str,
        corner: (usize, usize),
        size: (usize, usize),
    ) -> Result<Vec<bool>, String> {
        if let Some(field) = self.field_of(index, name, true)? {
            return Ok(field.flags_in(Rect::new(corner.0, corner.1, size.0, size.1)));
        }
        let truthy = |v: Arg, _, _| Ok(!matches!(v, Arg::Missing | Arg::Bool(false)));
        self.cells_of_rows(index, name, corner, size, Some(false), truthy)
    }

    /// The cells `(x0, y0) + (w, h)` of the table of rows of values at
    /// `index` (`name` in messages), row-major: each `false` (read as
    /// `BEYOND`, higher than any value) or an integer within `±MAX_VALUE`;
    /// the first that is not (in row order) is the error, naming it.
    pub fn values(
        &self,
        index: c_int,
        name: &str,
        corner: (usize, usize),
        size: (usize, usize),
    ) -> Result<Vec<i64>, String> {
        if let Some(field) = self.field_of(index, name, false)? {
            return Ok(field.values_in(Rect::new(corner.0, corner.1, size.0, size.1)));
        }
        let value = |v: Arg, x, y| match (v, v.integer()) {
            (Arg::Bool(false), _) => Ok(BEYOND),
            (_, Some(i)) if i.unsigned_abs() <= MAX_VALUE as u64 => Ok(i),
            _ => Err(format!(
                "{name}[{y}][{x}] must be false or an integer with |v| <= 2^53, got {v}"
            )),
        };
        self.cells_of_rows(index, name, corner, size, None, value)
    }

    /// The cells `(x0, y0) + (w, h)` of the table of rows of numbers at
    /// `index` (`name` in messages; a light map), row-major: each a number
    /// from 0 to 1; the first that is not (in row order) is the error.
    pub fn numbers(
        &self,
        index: c_int,
        name: &str,
        corner: (usize, usize),
        size: (usize, usize),
    ) -> Result<Vec<f64>, String> {
        let number = |v: Arg, x, y| match v {
            Arg::Int(i) if (0..=1).contains(&i) => Ok(i as f64),
            Arg::Float(f) if (0.0..=1.0).contains(&f) => Ok(f),
            _ => Err(format!(
                "{name}[{y}][{x}] must be a number from 0 to 1, got {v}"
            )),
        };
        self.cells_of_rows(index, name, corner, size, None, number)
    }

    /// Cells `x0 .. x0+w` of rows `y0 .. y0+h` of the table of rows at
    /// `index` (`name` in messages), each read raw and turned by `cell`
    /// (given it and its `x, y`), row-major; a row that is nil gives
    /// `nil_row` for each of its cells, or, without one, is an error, as
    /// is a row of any other type. The first error in row order is the one
    /// returned. Only the window is read: no length is asked of any table.
    fn cells_of_rows<T: Clone>(
        &self,
        index: c_int,
        name: &str,
        (x0, y0): (usize, usize),
        (w, h): (usize, usize),
        nil_row: Option<T>,
        mut cell: impl FnMut(Arg, usize, usize) -> Result<T, String>,
    ) -> Result<Vec<T>, String> {
        if !self.is_table(index) {
            return Err(format!("{name} must be a table of rows"));
        }
        let t = self.absolute(index);
        let mut out = Vec::with_capacity(w * h);
        for y in y0..y0 + h {
            self.with_index(t, y, |kind, row| match (kind, &nil_row) {
                (ffi::LUA_TTABLE, _) => (x0..x0 + w).try_for_each(|x| {
                    // A string stays alive while the row holds it.
                    let v = self.with_index(row, x, |_, top| self.at(top));
                    out.push(cell(v, x, y)?);
                    Ok(())
                }),
                (ffi::LUA_TNIL, Some(none)) => {
                    out.extend(std::iter::repeat_n(none.clone(), w));
                    Ok(())
                }
                (other, _) => {
                    let or_nil = if nil_row.is_some() { " or nil" } else { "" };
                    let got = self.type_name(other);
                    Err(format!("{name}[{y}] must be a table{or_nil}, got {got}"))
                }
            })?;
        }
        Ok(out)
    }

    /// Cell `(x, y)` of the map at `index`, of `width` columns (from
    /// `map_size`): its row checked as `grid` checks rows (in O(1): see
    /// `row_cells`), the cell read.
    pub fn cell_at(
        &self,
        index: c_int,
        (x, y): (usize, usize),
        width: usize,
    ) -> Result<u8, String> {
        if let Some(level) = self.level_at(index) {
            return Ok(level.get(Pos { x, y }));
        }
        if !self.is_table(index) {
            return Err("map must be a table of rows".into());
        }
        let mut cell = Vec::with_capacity(1);
        self.row_cells(self.absolute(index), y, width, x..x + 1, &mut cell)?;
        Ok(cell[0])
    }

    /// The map table at `index`, of the `size` `map_size` gave, copied into
    /// a grid: every row `1..=height` read, each a table of which `width`
    /// is a border and whose cells are one-byte strings; metatables are
    /// ignored.
    pub fn grid(&self, index: c_int, (width, height): (usize, usize)) -> Result<Grid, String> {
        self.window(index, (1, 1), (width, height), width)
    }
}

/// The `w` x `h` window of `level`'s terrain whose top-left cell is `(x0, y0)`.
fn level_window(level: &NativeLevel, (x0, y0): (usize, usize), (w, h): (usize, usize)) -> Grid {
    let terrain = level.terrain();
    if (x0, y0, w, h) == (1, 1, terrain.width(), terrain.height()) {
        return terrain.clone();
    }
    let mut cells = Vec::with_capacity(w * h);
    for row in terrain.rows().skip(y0 - 1).take(h) {
        cells.extend_from_slice(&row[x0 - 1..x0 - 1 + w]);
    }
    Grid::from_cells(w, h, cells)
}

fn cell_message(y: usize, x: usize, got: &str) -> String {
    format!("cell [{y}][{x}] must be a one-character string, got {got}")
}
