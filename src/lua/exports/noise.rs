//! `map.noise{seed =, kind =, octaves =, frequency =, persistence =,
//! lacunarity =}`: a noise source (its kind and methods: `natives/noise.rs`).

use crate::input::{self, Arg};
use crate::lua::shared::options::read_options;
use crate::lua::stack::call::function;
use crate::lua::stack::{Args, Export, Fresh};
use crate::toolkit::noise::{self, Noise, Settings};

pub const EXPORT: Export = Export {
    name: "noise",
    function: new_noise,
    method: None,
    #[cfg(feature = "luajit")]
    helpers: &[],
};

function!(new_noise, "map.noise", |args: &Args| {
    Ok(Fresh::new(Noise::new(settings(args)?)))
});

/// The options of `map.noise`.
const OPTIONS: &[&str] = &[
    "frequency",
    "kind",
    "lacunarity",
    "octaves",
    "persistence",
    "seed",
];

/// A number option in `[min, max]` (or `(min, max]` when `open`).
fn number_in(name: &str, value: Arg, (min, max): (f64, f64), open: bool) -> Result<f64, String> {
    let x = match value {
        Arg::Int(i) => i as f64,
        Arg::Float(x) => x,
        _ => f64::NAN,
    };
    if (x > min || (!open && x == min)) && x <= max {
        return Ok(x);
    }
    let bracket = if open { "(" } else { "[" };
    Err(format!(
        "{name} must be a number in {bracket}{min}, {max}], got {value}"
    ))
}

/// `map.noise{...}`'s settings.
fn settings(args: &Args) -> Result<Settings, String> {
    args.at_most(1)?;
    let mut s = Settings::DEFAULT;
    let mut seed = Arg::Missing;
    read_options(args, 1, OPTIONS, |name, value| {
        match name {
            "seed" => seed = value,
            "kind" => {
                s.kind = match value {
                    Arg::Str(b"simplex") => noise::Kind::Simplex,
                    Arg::Str(b"perlin") => noise::Kind::Perlin,
                    other => {
                        return Err(format!(
                            r#"kind must be "simplex" or "perlin", got {other}"#
                        ))
                    }
                }
            }
            "octaves" => {
                s.octaves = input::int_in(name, value, 1, noise::MAX_OCTAVES as i64)? as usize
            }
            "frequency" => s.frequency = number_in(name, value, (0.0, noise::MAX_FREQUENCY), true)?,
            "persistence" => {
                s.persistence = number_in(name, value, (0.0, noise::MAX_PERSISTENCE), false)?
            }
            _ => s.lacunarity = number_in(name, value, (1.0, noise::MAX_LACUNARITY), false)?,
        }
        Ok(())
    })?;
    s.seed = input::seed(seed)?;
    Ok(s)
}
