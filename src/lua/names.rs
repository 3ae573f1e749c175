//! `map.names` (docs/api.md#mapnamesexamples--options): a generator of
//! names as a userdata and its method `name` (toolbox/names.rs).

use std::ffi::c_int;

use mlua::ffi::{self, lua_State};

use super::calling::call;
use super::native::{self, Fresh, Kind, Metatable};
use super::options::read_options;
use super::read::{Args, Key};
use super::toolbox::Out;
use super::Reply;
use crate::input::{self, Arg};
use crate::memory;
use crate::toolbox::names::{Names, Options, MAX_LENGTH, MAX_ORDER, MAX_TEXT};
use crate::toolbox::random::Random;

pub const METATABLE: Metatable = Metatable {
    kind: Kind::Names,
    methods: METHODS,
    tostring,
    metamethods: &[],
};

const METHODS: &[(&str, ffi::lua_CFunction)] = &[("name", name)];

/// `g:name([r | seed])`: a name drawn with the source `r` (which then
/// moves on past the draws; an error leaves it as it was), with a new
/// source from `seed`, or from a fresh seed.
///
/// # Safety
/// Lua calls it as a method, with the upvalues of `Upvalues::register`.
unsafe extern "C-unwind" fn name(state: *mut lua_State) -> c_int {
    // SAFETY: Lua called this function with a valid state.
    unsafe {
        call(state, "names:name", |args| {
            args.at_most(2)?;
            let names = native::this::<Names>(args)?;
            let drawn = match (args.get(2), args.native(2, Kind::Rng)) {
                (_, Some(source)) => {
                    // SAFETY: argument 2 holds the source during the call,
                    // in which no Lua code runs; it is not `self`.
                    let source = &mut *source.cast::<Random>();
                    let mut after = source.clone();
                    let drawn = names.name(&mut after)?;
                    *source = after;
                    drawn
                }
                (arg @ (Arg::Missing | Arg::Int(_) | Arg::Float(_)), None) => {
                    names.name(&mut Random::new(input::seed(arg)?))?
                }
                (_, None) => {
                    return Err(format!(
                        "expected a random source (map.rng) or a seed, got {}",
                        native::what(args, 2)
                    ))
                }
            };
            Ok(Reply::Text(drawn.into_bytes()))
        })
    }
}

/// `tostring(g)`: `map.names: 5 to 10 characters`.
///
/// # Safety
/// A Lua C function with the upvalues of `Upvalues::register`.
unsafe extern "C-unwind" fn tostring(state: *mut lua_State) -> c_int {
    // SAFETY: Lua called this function with a valid state.
    unsafe {
        native::tostring::<Names>(state, |g| {
            let (min, max) = g.bounds();
            format!(": {min} to {max} characters")
        })
    }
}

/// `map.names(examples [, options])`: a generator trained on the words of
/// `examples`, with `order`, `min`, `max` and `novel`.
///
/// # Safety
/// See `EXPORTS` (mod.rs).
pub unsafe extern "C-unwind" fn new_names(state: *mut lua_State) -> c_int {
    // SAFETY: Lua called this function with a valid state.
    unsafe {
        call(state, "map.names", |args| {
            args.at_most(2)?;
            let options = options(args)?;
            if !args.is_table(1) {
                return Err(format!(
                    "examples must be an array of words (strings), got {}",
                    args.get(1).type_name()
                ));
            }
            let n = args.length(1);
            // The words as read: each a string the array holds.
            let mut chars = 0usize;
            for i in 1..=n {
                let word = args.with_field(1, Key::Index(i), |a, top| match a.at(top) {
                    Arg::Str(s) => std::str::from_utf8(s)
                        .map_err(|_| format!("examples[{i}] is not UTF-8 text")),
                    other => Err(format!(
                        "examples[{i}] must be a string, got {}",
                        other.type_name()
                    )),
                })?;
                chars += word.chars().count();
                if chars > MAX_TEXT {
                    return Err(format!("examples hold more than {MAX_TEXT} characters"));
                }
            }
            memory::check(memory::bound_names(chars, n, options.order))?;
            let words: Vec<&str> = (1..=n)
                .map(|i| {
                    args.with_field(1, Key::Index(i), |a, top| match a.at(top) {
                        Arg::Str(s) => std::str::from_utf8(s).unwrap_or(""),
                        _ => "",
                    })
                })
                .collect();
            let names = Names::new(&words, options)?;
            Ok(Reply::Toolbox(Out::NewNames(Fresh::new(names))))
        })
    }
}

/// The options at argument 2.
fn options(args: &Args) -> Result<Options, String> {
    let mut options = Options::default();
    let length = |name: &str, value: Arg| {
        input::int_in(name, value, 1, MAX_LENGTH as i64).map(|v| Some(v as usize))
    };
    read_options(args, 2, &["max", "min", "novel", "order"], |name, value| {
        match name {
            "order" => options.order = input::int_in(name, value, 1, MAX_ORDER as i64)? as usize,
            "min" => options.min = length(name, value)?,
            "max" => options.max = length(name, value)?,
            _ => match value {
                Arg::Bool(b) => options.novel = b,
                other => return Err(format!("novel must be a boolean, got {other}")),
            },
        }
        Ok(())
    })?;
    Ok(options)
}
