//! A field (`level:fov`, `level:distances`, `level:flee`, `map.field`):
//! its kind, methods and properties.

#![deny(unsafe_op_in_unsafe_fn)]

use std::ffi::c_int;

use mlua::ffi::{self, lua_State};

use crate::lua::shared::cells::{after_cell, cell};
use crate::lua::stack::block::{methods, native_method, reads, Kind, Native, View};
use crate::lua::stack::push::{self, Rows};
use crate::lua::stack::{Fresh, Method, Reply};
use crate::memory;
use crate::native::field::{self, Cells, Field, Value};
use crate::native::save;

static KIND: Kind = Kind::new("field", "field", "a", b"mapfield");

impl Native for Field {
    fn kind() -> &'static Kind {
        &KIND
    }
    const METHODS: &'static [Method] = METHODS;
    type Property = i64;
    const HAS_PROPERTIES: bool = true;
    /// `field.width`, `field.height` (the map's); nil for any other key.
    fn property(&self, key: &[u8]) -> Option<i64> {
        match key {
            b"width" => Some(self.size.0 as i64),
            b"height" => Some(self.size.1 as i64),
            _ => None,
        }
    }
    fn text(&self) -> String {
        format!(": {}x{}", self.size.0, self.size.1)
    }
    fn bytes(&self) -> usize {
        Field::bytes(self)
    }
    fn view(&mut self) -> View {
        let ((width, height), w) = (self.size, self.window);
        let (cells, kind) = self.raw_cells();
        View {
            cells,
            bits: std::ptr::null_mut(),
            kind,
            width: width as u32,
            height: height as u32,
            window: [w.x, w.y, w.w, w.h].map(|v| v as u32),
            ids: std::ptr::null(),
        }
    }
}

methods! {
    "field", native_method::<Field, _>, reads::<Field, _, _>;
    get => |args, field: &Field| {
        args.at_most(after_cell(args, 2) - 1)?;
        Ok(Cell(field.get(cell(args, 2, ("x", "y"), "cell", field.size)?)))
    },
    table => |args, field: &Field| {
        args.at_most(1)?;
        memory::check(field::bound_rows(field.window.w * field.window.h))?;
        Ok(Table(field.clone()))
    },
    save => |args, field: &Field| {
        args.at_most(1)?;
        memory::check(save::field_bound(field))?;
        Ok(save::save_field(field))
    },
}

/// A memory (a field of flags, none set) of a map of `size`: `map.field`,
/// `lvl:field()`.
pub fn new_memory(size: (usize, usize)) -> Result<Fresh<Field>, String> {
    memory::check(field::bound_memory(size.0 * size.1))?;
    Ok(Fresh::new(Field::memory(size)))
}

/// One cell of a field as the table would hold it: an integer, `false`,
/// `true` or nil.
struct Cell(Value);

impl Reply for Cell {
    unsafe fn push_on(&self, l: *mut lua_State) -> c_int {
        // SAFETY: as `push_plain`'s.
        unsafe { self.push_plain_on(l) }.unwrap_or(0)
    }
    unsafe fn push_plain_on(&self, l: *mut lua_State) -> Option<c_int> {
        // SAFETY: one slot, nothing allocated.
        unsafe {
            match self.0 {
                Value::Int(n) => ffi::lua_pushinteger(l, n as ffi::lua_Integer),
                Value::Unreached => ffi::lua_pushboolean(l, 0),
                Value::Seen => ffi::lua_pushboolean(l, 1),
                Value::Unseen => ffi::lua_pushnil(l),
            }
        }
        Some(1)
    }
}

/// `field:table()`: flags as `fov`'s rows, values as `distances`' rows.
struct Table(Field);

impl Reply for Table {
    unsafe fn push_on(&self, l: *mut lua_State) -> c_int {
        let field = &self.0;
        let (size, w) = (field.size, field.window);
        // SAFETY: the pushers' own contracts, which make their room.
        unsafe {
            match &field.cells {
                Cells::Flags(_) => {
                    let seen = field.flags_in(w);
                    push::push_visible(l, size.1, (w.x, w.y), w.w, &seen)
                }
                _ => push::push_rows_of_integers(
                    l,
                    &Rows {
                        size,
                        window: w,
                        values: field.values_in(w),
                    },
                ),
            }
        }
    }
}
