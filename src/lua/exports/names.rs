//! `map.names(examples [, options])`: a generator of names trained on the
//! words of `examples`, with `order`, `min`, `max` and `novel` (its kind
//! and method: `natives/names.rs`).

use crate::input::{self, Arg};
use crate::lua::shared::options::read_options;
use crate::lua::stack::call::function;
use crate::lua::stack::{Args, Export, Fresh, Key};
use crate::memory;
use crate::toolbox::names::{self, Names, Options, MAX_LENGTH, MAX_ORDER, MAX_TEXT};

pub const EXPORT: Export = Export {
    name: "names",
    function: new_names,
    method: None,
    #[cfg(feature = "luajit")]
    helpers: &[],
};

function!(new_names, "map.names", |args: &Args| {
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
    memory::check(names::bound(chars, n, options.order))?;
    let words: Vec<&str> = (1..=n)
        .map(|i| {
            args.with_field(1, Key::Index(i), |a, top| match a.at(top) {
                Arg::Str(s) => std::str::from_utf8(s).unwrap_or(""),
                _ => "",
            })
        })
        .collect();
    let names = Names::new(&words, options)?;
    Ok(Fresh::new(names))
});

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
