//! The caller's parameters (`Params`) and their checks, with the messages
//! every front end shows: the algorithm chosen, the options it declares
//! (`generators`), `items`, and the options only other algorithms take.

use super::design::{self, Design};
use crate::generators::{self, Default, Generator, Kind, Options, Value, LIST};
use crate::input::{self, Arg};

/// The option every algorithm takes, checked by the shared code.
pub const ITEMS: generators::OptionSpec = generators::OptionSpec {
    name: "items",
    kind: Kind::Int {
        min: 0,
        max: MAX_ITEMS,
    },
    default: Default::Int(DEFAULT_ITEMS),
    doc: "items ($ or !) on distinct floor cells; more than the free floor is an error",
};
pub const DEFAULT_ITEMS: i64 = 5;
/// The most items one level may ask for: their Lua tables (about 100 bytes
/// each) stay a few MiB, where the free floor of a 2000x2000 cave (4 million)
/// made a 700 MB Lua heap.
pub const MAX_ITEMS: i64 = 10_000;

/// The parameters as given; `Missing` where the caller left one out.
#[derive(Clone, Debug, Default)]
pub struct Params<'a> {
    pub width: Arg<'a>,
    pub height: Arg<'a>,
    pub seed: Arg<'a>,
    pub algorithm: Arg<'a>,
    /// The algorithms' options given, by name (each name at most once).
    pub options: Vec<(&'static str, Arg<'a>)>,
    /// The first (bytewise) of the unknown option names given, if any: the
    /// error names it whatever order the caller's table is traversed in.
    pub unknown: Option<&'a [u8]>,
    /// `vaults`, `arrive` and `place`, read by the binding.
    pub design: Design,
    /// Names the caller takes besides (`map.level`'s `things`), listed
    /// with the options when one given is unknown.
    pub also: &'static [&'static str],
    /// The options given as arrays of rows (`rows::rows_bound`), as the
    /// front end read them: their rows joined (`rows::join`) or the error,
    /// reported in its turn among the checks.
    pub joined: Vec<(&'static str, Result<Vec<u8>, String>)>,
}

impl<'a> Params<'a> {
    /// `width`, `height` and `seed`, the positional form.
    pub fn new(width: Arg<'a>, height: Arg<'a>, seed: Arg<'a>) -> Params<'a> {
        Params {
            width,
            height,
            seed,
            ..Params::default()
        }
    }

    /// The option called `name` as given (`Missing` if it was not).
    pub fn option(&self, name: &str) -> Arg<'a> {
        self.options
            .iter()
            .find(|&&(n, _)| n == name)
            .map_or(Arg::Missing, |&(_, a)| a)
    }

    /// The text of option `name` given as rows, as the front end joined
    /// it; an error if it was given as a table the front end did not read.
    fn rows(&self, name: &str) -> Result<Value, String> {
        match self.joined.iter().find(|&&(n, _)| n == name) {
            Some((_, Ok(text))) => Ok(Value::Text(text.clone())),
            Some((_, Err(message))) => Err(message.clone()),
            None => Err(format!(
                "{name} must be a string or an array of strings (its rows), got table"
            )),
        }
    }

    /// The same parameters with one more option set.
    pub fn with(mut self, key: &'a [u8], value: Arg<'a>) -> Params<'a> {
        self.set(key, value);
        self
    }

    /// Sets one named option, as from `generate{key = value}`. Unknown names
    /// are reported by `generate`, after all options are in.
    pub fn set(&mut self, key: &'a [u8], value: Arg<'a>) {
        let slot = match key {
            b"width" => &mut self.width,
            b"height" => &mut self.height,
            b"seed" => &mut self.seed,
            b"algorithm" => &mut self.algorithm,
            _ => match option_name(key) {
                // A design option: the binding reads a table; `check` reports anything else.
                Some(name) if design::NAMES.contains(&name) => {
                    let type_name = (value != Arg::Missing).then(|| value.type_name());
                    self.design.given(name, type_name);
                    return;
                }
                Some(name) => {
                    // nil is as good as absent, as in a Lua table.
                    self.options.retain(|&(n, _)| n != name);
                    if value != Arg::Missing {
                        self.options.push((name, value));
                    }
                    return;
                }
                None => {
                    if self.unknown.is_none_or(|u| key < u) {
                        self.unknown = Some(key);
                    }
                    return;
                }
            },
        };
        *slot = value;
    }
}

/// The name as the registry spells it, if some algorithm (or the shared
/// code) takes an option so called, or it is a design option.
fn option_name(key: &[u8]) -> Option<&'static str> {
    all_options()
        .chain(design::NAMES)
        .find(|&n| n.as_bytes() == key)
}

/// Every option name, in registry order, each once.
pub fn all_options() -> impl Iterator<Item = &'static str> {
    let names = LIST
        .iter()
        .flat_map(|a| a.options.iter().map(|o| o.name))
        .chain([ITEMS.name]);
    let mut seen: Vec<&str> = Vec::new();
    names.filter(move |n| {
        let new = !seen.contains(n);
        if new {
            seen.push(n);
        }
        new
    })
}

/// The algorithm asked for; the first in the list when none is.
pub fn chosen(arg: Arg) -> Result<&'static Generator, String> {
    match arg {
        Arg::Missing => Some(LIST[0]),
        Arg::Str(name) => generators::find(name),
        _ => None,
    }
    .ok_or_else(|| {
        let names: Vec<String> = LIST.iter().map(|a| format!("\"{}\"", a.name)).collect();
        format!("algorithm must be {}, got {arg}", listed(&names, "or"))
    })
}

/// An error naming the first option given (in registry order) that only
/// other algorithms take, unless its value asks for nothing
/// (`OptionSpec::nothing`: `doors = false` on a cave is accepted, and
/// ignored: the map is the one made without it).
pub(super) fn foreign_options(algorithm: &Generator, params: &Params) -> Result<(), String> {
    if params.options.is_empty() {
        return Ok(());
    }
    let takes = |name: &str| name == ITEMS.name || algorithm.options.iter().any(|o| o.name == name);
    let refused = |name: &str| {
        let given = params.option(name);
        !takes(name) && given != Arg::Missing && !asks_for_nothing(name, given)
    };
    if let Some(name) = all_options().find(|&n| refused(n)) {
        let owners: Vec<String> = LIST
            .iter()
            .filter(|a| a.options.iter().any(|o| o.name == name))
            .map(|a| format!("\"{}\"", a.name))
            .collect();
        let s = if owners.len() == 1 { "" } else { "s" };
        return Err(format!(
            "option {name} applies only to algorithm{s} {}",
            listed(&owners, "and")
        ));
    }
    Ok(())
}

/// Whether `arg` is the value of option `name` that asks for nothing, as
/// the first algorithm declaring it checks it (`loops = 0.0` is `loops = 0`).
fn asks_for_nothing(name: &str, arg: Arg) -> bool {
    let spec = LIST
        .iter()
        .flat_map(|a| a.options.iter())
        .find(|o| o.name == name);
    spec.is_some_and(|spec| {
        spec.nothing()
            .is_some_and(|nothing| check(name, spec.kind, arg).ok() == Some(nothing))
    })
}

/// "a", "a and b", "a, b and c" (or another conjunction).
fn listed(words: &[String], conjunction: &str) -> String {
    match words.split_last() {
        Some((last, rest)) if !rest.is_empty() => {
            format!("{} {conjunction} {last}", rest.join(", "))
        }
        Some((last, _)) => last.clone(),
        None => String::new(),
    }
}

/// The algorithm's options and `items`, in declaration order, each the
/// value given or its default.
pub(super) fn checked(
    algorithm: &Generator,
    given: &Params,
    shorter_side: usize,
) -> Result<Options, String> {
    let specs = algorithm.options.iter().chain([&ITEMS]);
    let mut values = Vec::with_capacity(algorithm.options.len() + 1);
    for spec in specs {
        let arg = given.option(spec.name);
        let value = match (arg, spec.kind) {
            (Arg::Missing, _) => spec.default.value(shorter_side),
            (Arg::Other("table"), Kind::Text { rows: true, .. }) => given.rows(spec.name)?,
            _ => check(spec.name, spec.kind, arg)?,
        };
        values.push((spec.name, value));
    }
    Ok(Options::new(values))
}

/// One given value against its kind, with the message every front end shows.
fn check(name: &str, kind: Kind, arg: Arg) -> Result<Value, String> {
    match kind {
        Kind::Int { min, max } => input::int_in(name, arg, min, max).map(Value::Int),
        Kind::Number { min, max, open_min } => {
            let x = match arg {
                Arg::Int(i) => Some(i as f64),
                Arg::Float(x) => Some(x),
                _ => None,
            };
            match x {
                Some(x) if (x > min || (!open_min && x == min)) && x <= max => Ok(Value::Number(x)),
                _ => {
                    let open = if open_min { "(" } else { "[" };
                    Err(format!(
                        "{name} must be a number in {open}{min}, {max}], got {arg}"
                    ))
                }
            }
        }
        Kind::Bool => match arg {
            Arg::Bool(b) => Ok(Value::Bool(b)),
            _ => Err(format!("{name} must be a boolean, got {arg}")),
        },
        // The length is checked before the text is copied.
        Kind::Text { max, rows } => match arg {
            Arg::Str(t) if t.len() <= max => Ok(Value::Text(t.to_vec())),
            Arg::Str(t) => Err(format!(
                "{name} must be a string of at most {max} bytes, got {} bytes",
                t.len()
            )),
            _ if rows => Err(format!(
                "{name} must be a string or an array of strings (its rows), got {arg}"
            )),
            _ => Err(format!("{name} must be a string, got {arg}")),
        },
    }
}
