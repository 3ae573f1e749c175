//! LuaJIT probe builds only: `map._mirror(rule, ...)`, the verdict of the
//! Rust function that each reading rule of `rules.lua` mirrors
//! (`rules.MIRRORS`), on the same input and in the rule's own shape, for
//! spec/luajit_rules_spec.lua to compare with the rule's.

#![deny(unsafe_op_in_unsafe_fn)]

use std::ffi::c_int;

use mlua::ffi::{self, lua_State};

use crate::input::{int_in, Arg};
use crate::lua::natives::{noise, rng};
use crate::lua::shared::cells::{after_cell, cell, position};
use crate::lua::stack::call::function;
use crate::lua::stack::{Args, Reply};

function!(
    /// `mirror(rule, ...)`: the verdict of the Rust twin of `rule` on the
    /// arguments after it.
    mirror,
    "map._mirror",
    |args: &Args| {
        let rule = match args.get(1) {
            Arg::Str(rule) => rule,
            other => return Err(format!("rule must be a string, got {other}")),
        };
        verdict(args, rule)
    }
);

/// What a Rust reader answers, in the shape of its rule's answer.
enum Value {
    Nil,
    Bool(bool),
    Int(i64),
    Bytes(Vec<u8>),
}

/// The values a rule answers.
struct Values(Vec<Value>);

impl Reply for Values {
    unsafe fn push_on(&self, l: *mut lua_State) -> c_int {
        // SAFETY: the pushers' contract; a few values, each one slot.
        unsafe {
            for v in &self.0 {
                match v {
                    Value::Nil => ffi::lua_pushnil(l),
                    Value::Bool(b) => ffi::lua_pushboolean(l, c_int::from(*b)),
                    Value::Int(n) => ffi::lua_pushinteger(l, *n as ffi::lua_Integer),
                    Value::Bytes(b) => {
                        ffi::lua_pushlstring(l, b.as_ptr().cast(), b.len());
                    }
                }
            }
        }
        self.0.len() as c_int
    }
}

/// An integer argument the spec gives (a size or a corner).
fn int(args: &Args, index: c_int) -> usize {
    args.get(index).integer().unwrap_or(0).max(0) as usize
}

/// The verdict of `rule`'s twin; the rule's arguments start at 2.
fn verdict(args: &Args, rule: &[u8]) -> Result<Values, String> {
    use Value::{Bool, Bytes, Int, Nil};
    let one = |v| Ok(Values(vec![v]));
    match rule {
        b"length" => one(Int(args.length(2) as i64)),
        b"size" => match args.map_size(2) {
            Ok((w, h)) => Ok(Values(vec![Int(h as i64), Int(w as i64)])),
            Err(_) => one(Nil),
        },
        b"walks_by_walls" => one(Bool(matches!(args.map_blocked(2), Ok(None)))),
        // (m, x0, y0, ww, wh, h, w, newlines)
        b"read_window" => {
            let (corner, size) = ((int(args, 3), int(args, 4)), (int(args, 5), int(args, 6)));
            let (h, w) = (int(args, 7), int(args, 8));
            let newlines = args.get(9) == Arg::Bool(true);
            if args.map_size(2) != Ok((w, h)) {
                return one(Nil);
            }
            one(match args.window(2, corner, size, w) {
                Ok(grid) if newlines => Bytes(grid.render()),
                Ok(grid) => Bytes(grid.cells().to_vec()),
                Err(_) => Nil,
            })
        }
        // (known, x0, y0, ww, wh)
        b"read_known" => {
            let (corner, size) = ((int(args, 3), int(args, 4)), (int(args, 5), int(args, 6)));
            one(match args.flags(2, "known", corner, size) {
                Ok(flags) => Bytes(flags.into_iter().map(u8::from).collect()),
                Err(_) => Nil,
            })
        }
        // (w, h, a cell's arguments): the index after the cell (from 1),
        // and its x, y where it is one of a w x h map.
        b"cell_at" => {
            let size = (int(args, 2), int(args, 3));
            let next = Int(i64::from(after_cell(args, 4) - 3));
            Ok(Values(match cell(args, 4, ("x", "y"), "cell", size) {
                Ok(p) => vec![next, Int(p.x as i64), Int(p.y as i64)],
                Err(_) => vec![next],
            }))
        }
        // (x, y, w, h)
        b"is_cell" => {
            let (w, h) = (int(args, 4), int(args, 5));
            one(Bool(
                position(args.get(2), args.get(3), ("x", "y"), w, h).is_ok(),
            ))
        }
        // (w, h, a method's cell arguments, and nothing after them)
        b"xy" => {
            let size = (int(args, 2), int(args, 3));
            let taken = args.at_most(after_cell(args, 4) - 1).is_ok();
            Ok(Values(match cell(args, 4, ("x", "y"), "cell", size) {
                Ok(p) if taken => vec![Int(p.x as i64), Int(p.y as i64)],
                _ => vec![Nil],
            }))
        }
        b"is_size" => one(Bool(int_in("width", args.get(2), 1, i64::MAX).is_ok())),
        b"is_coordinate" => one(Bool(noise::coordinate(args.get(2), &String::new).is_ok())),
        b"integer" => one(Bool(rng::bound(args.get(2)).is_some())),
        _ => Err(format!("no rule {}", crate::input::quoted(rule))),
    }
}
