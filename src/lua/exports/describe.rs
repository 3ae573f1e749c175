//! `map.describe(name)`: a generator's doc, minimum size and options, for
//! the CLI, the server's form and the docs to read.

#![deny(unsafe_op_in_unsafe_fn)]

use std::ffi::c_int;

use mlua::ffi::{self, lua_State};

use crate::generators::{Default, Generator, Kind, OptionSpec};
use crate::level::{self, design, ITEMS};
use crate::lua::stack::call::function;
use crate::lua::stack::push::{make_room, set_int, set_number, set_str};
use crate::lua::stack::{Args, Export, Reply};

pub const EXPORT: Export = Export {
    name: "describe",
    function: describe,
    method: None,
    #[cfg(feature = "luajit")]
    helpers: &[],
};

function!(describe, "map.describe", |args: &Args| {
    args.at_most(1)?;
    Ok(Description(level::chosen(args.get(1))?))
});

/// A generator's description.
struct Description(&'static Generator);

impl Reply for Description {
    unsafe fn push_on(&self, l: *mut lua_State) -> c_int {
        // SAFETY: the pushers' contract.
        unsafe { push_description(l, self.0) }
    }
}

/// `map.describe`'s table: `{name, doc, min_width, min_height, blocked,
/// chars, hides, options, design}`, `options` an array of `{name, type, min, max, open_min,
/// default, default_text, doc}` in the order the algorithm checks them,
/// `items` last; `design` the options every algorithm takes as tables
/// (`vaults`, `arrive`, `place`), each `{name, type = "table", shape, doc}`.
///
/// # Safety
/// The pushers' contract (`stack/push.rs`).
unsafe fn push_description(l: *mut lua_State, algorithm: &Generator) -> c_int {
    // SAFETY: `make_room` above made the slots it uses; each nested table is
    // set in `t` before the next is made.
    unsafe {
        make_room(l, 8);
        ffi::lua_createtable(l, 0, 9);
        let t = ffi::lua_gettop(l);
        set_str(l, t, c"name", algorithm.name);
        set_str(l, t, c"doc", algorithm.doc);
        set_int(l, t, c"min_width", algorithm.min_width as i64);
        set_int(l, t, c"min_height", algorithm.min_height as i64);
        set_str(l, t, c"blocked", algorithm.terrain.blocked);
        ffi::lua_pushboolean(l, c_int::from(algorithm.hides));
        ffi::lua_setfield(l, t, c"hides".as_ptr());
        let chars = algorithm.terrain.chars;
        ffi::lua_pushlstring(l, chars.as_ptr().cast(), chars.len());
        ffi::lua_setfield(l, t, c"chars".as_ptr());
        let specs: Vec<&OptionSpec> = algorithm.options.iter().chain([&ITEMS]).collect();
        ffi::lua_createtable(l, specs.len() as c_int, 0);
        for (i, spec) in specs.iter().enumerate() {
            push_option(l, spec);
            ffi::lua_rawseti(l, -2, i as ffi::lua_Integer + 1);
        }
        ffi::lua_setfield(l, t, c"options".as_ptr());
        // Off rock, `vaults` and `arrive` are refused (level/mod.rs).
        let taken: Vec<usize> = (0..design::NAMES.len())
            .filter(|&i| algorithm.carves_rock() || design::NAMES[i] == "place")
            .collect();
        ffi::lua_createtable(l, taken.len() as c_int, 0);
        for (k, &i) in taken.iter().enumerate() {
            let name = design::NAMES[i];
            ffi::lua_createtable(l, 0, 4);
            let entry = ffi::lua_gettop(l);
            set_str(l, entry, c"name", name);
            set_str(l, entry, c"type", "table");
            set_str(l, entry, c"shape", design::SHAPES[i]);
            set_str(l, entry, c"doc", design::DOCS[i]);
            ffi::lua_rawseti(l, -2, k as ffi::lua_Integer + 1);
        }
        ffi::lua_setfield(l, t, c"design".as_ptr());
        1
    }
}

/// # Safety
/// The pushers' contract, with two slots free.
unsafe fn push_option(l: *mut lua_State, spec: &OptionSpec) {
    // SAFETY: the caller made room (8 slots) and each value is set in `t` at
    // once.
    unsafe {
        ffi::lua_createtable(l, 0, 8);
        let t = ffi::lua_gettop(l);
        set_str(l, t, c"name", spec.name);
        set_str(l, t, c"doc", spec.doc);
        match spec.kind {
            Kind::Int { min, max } => {
                set_str(l, t, c"type", "integer");
                set_int(l, t, c"min", min);
                set_int(l, t, c"max", max);
            }
            Kind::Number { min, max, open_min } => {
                set_str(l, t, c"type", "number");
                set_number(l, t, c"min", min);
                set_number(l, t, c"max", max);
                ffi::lua_pushboolean(l, c_int::from(open_min));
                ffi::lua_setfield(l, t, c"open_min".as_ptr());
            }
            Kind::Bool => set_str(l, t, c"type", "boolean"),
            Kind::Text { max, rows } => {
                set_str(l, t, c"type", "string");
                set_int(l, t, c"max", max as i64);
                if rows {
                    ffi::lua_pushboolean(l, 1);
                    ffi::lua_setfield(l, t, c"rows".as_ptr());
                }
            }
        }
        match spec.default {
            Default::Int(i) => set_int(l, t, c"default", i),
            Default::Number(x) => set_number(l, t, c"default", x),
            Default::Bool(b) => {
                ffi::lua_pushboolean(l, c_int::from(b));
                ffi::lua_setfield(l, t, c"default".as_ptr());
            }
            Default::Text(text) => set_str(l, t, c"default", text),
            Default::ShorterSide => {}
        }
        set_str(l, t, c"default_text", &spec.default.to_string());
    }
}
