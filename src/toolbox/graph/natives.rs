//! The module's natives inside a save (`graph.rs`'s records 1 to 6): each
//! written in its own saved form where it has one (a level's, a field's,
//! a source's and a scheduler's, read back by their own checked loaders),
//! a names generator as what it was trained on (trained again when read),
//! a noise as its settings (made again).

use super::bytes::{Out, Reader, MALFORMED};
use super::{FIELD, LEVEL, NAMES, NOISE, RNG, SCHEDULER};
use crate::input::MAX_SEED;
use crate::memory;
use crate::native::field::Field;
use crate::native::{save, NativeLevel};
use crate::toolbox::names::{self, Names, Options};
use crate::toolbox::random::Random;
use crate::toolbox::scheduler::Scheduler;
use crate::toolkit::noise::{self, Kind, Noise, Settings};

/// A native to write.
#[derive(Clone, Copy)]
pub enum NativeRef<'a> {
    Level(&'a NativeLevel),
    Field(&'a Field),
    Rng(&'a Random),
    Scheduler(&'a Scheduler),
    Names(&'a Names),
    Noise(&'a Noise),
}

/// A native read back.
#[derive(Debug)]
pub enum Native {
    Level(NativeLevel),
    Field(Field),
    Rng(Random),
    Scheduler(Scheduler),
    Names(Names),
    Noise(Noise),
}

impl Native {
    pub fn borrowed(&self) -> NativeRef<'_> {
        match self {
            Native::Level(v) => NativeRef::Level(v),
            Native::Field(v) => NativeRef::Field(v),
            Native::Rng(v) => NativeRef::Rng(v),
            Native::Scheduler(v) => NativeRef::Scheduler(v),
            Native::Names(v) => NativeRef::Names(v),
            Native::Noise(v) => NativeRef::Noise(v),
        }
    }
}

impl NativeRef<'_> {
    pub(super) fn write(self, w: &mut Out) -> Result<(), String> {
        match self {
            NativeRef::Level(level) => {
                memory::check(save::bound(level))?;
                w.byte(LEVEL)?;
                w.blob(&save::save(level))
            }
            NativeRef::Field(field) => {
                memory::check(save::field_bound(field))?;
                w.byte(FIELD)?;
                w.blob(&save::save_field(field))
            }
            NativeRef::Rng(r) => {
                w.byte(RNG)?;
                w.blob(r.save().as_bytes())
            }
            NativeRef::Scheduler(s) => {
                memory::check(crate::toolbox::scheduler::bound_state(s.len()))?;
                w.byte(SCHEDULER)?;
                w.blob(s.save().as_bytes())
            }
            NativeRef::Names(n) => write_names(w, n),
            NativeRef::Noise(n) => {
                let s = n.settings();
                w.byte(NOISE)?;
                w.raw(&[u8::from(s.kind == Kind::Perlin)])?;
                w.int(s.seed)?;
                w.raw(&[s.octaves as u8])?;
                w.f64(s.frequency)?;
                w.f64(s.persistence)?;
                w.f64(s.lacunarity)
            }
        }
    }
}

/// A names generator: its order, length bounds and `novel`, then its
/// distinct examples in order, each with how many times it was given.
fn write_names(w: &mut Out, names: &Names) -> Result<(), String> {
    memory::check(names.bytes().saturating_mul(2))?;
    let (options, examples) = names.training();
    w.byte(NAMES)?;
    w.raw(&[options.order as u8])?;
    w.uleb(options.min.unwrap_or(0) as u64)?;
    w.uleb(options.max.unwrap_or(0) as u64)?;
    w.raw(&[u8::from(options.novel)])?;
    w.uleb(examples.len() as u64)?;
    for (word, times) in &examples {
        w.blob(word.as_bytes())?;
        w.uleb(u64::from(*times))?;
    }
    Ok(())
}

/// The native of kind `kind` at `r` (its record after the kind byte).
pub(super) fn read_native(kind: u8, r: &mut Reader) -> Result<Native, String> {
    Ok(match kind {
        LEVEL => Native::Level(save::load(r.blob()?).map_err(|e| format!("a saved level: {e}"))?),
        FIELD => match save::load_saved(r.blob()?).map_err(|e| format!("a saved field: {e}"))? {
            save::Saved::Field(f) => Native::Field(f),
            save::Saved::Level(_) => return Err("a saved field holds a level".into()),
        },
        RNG => Native::Rng(Random::load(r.blob()?)?),
        SCHEDULER => Native::Scheduler(Scheduler::load(r.blob()?)?),
        NAMES => Native::Names(read_names(r)?),
        NOISE => Native::Noise(read_noise(r)?),
        other => return Err(format!("a node of an unknown kind ({other})")),
    })
}

fn read_names(r: &mut Reader) -> Result<Names, String> {
    let order = r.u8()? as usize;
    let (min, max) = (r.count(0)?, r.count(0)?);
    let novel = match r.u8()? {
        0 => false,
        1 => true,
        _ => return Err(MALFORMED.into()),
    };
    let distinct = r.count(2)?;
    let mut examples: Vec<(&str, usize)> = Vec::with_capacity(distinct);
    let (mut chars, mut count) = (0usize, 0usize);
    for _ in 0..distinct {
        let word = std::str::from_utf8(r.blob()?)
            .map_err(|_| "a saved names generator's example is not UTF-8")?;
        let times = r.count(0)?;
        if word.is_empty() || times == 0 {
            return Err(MALFORMED.into());
        }
        chars = chars.saturating_add(word.chars().count().saturating_mul(times));
        count = count.saturating_add(times);
        if chars > names::MAX_TEXT {
            return Err("a saved names generator's examples pass 1,000,000 characters".into());
        }
        examples.push((word, times));
    }
    if !(1..=names::MAX_ORDER).contains(&order) {
        return Err(MALFORMED.into());
    }
    memory::check(names::bound(chars, count, order))?;
    let words: Vec<&str> = examples
        .iter()
        .flat_map(|&(w, times)| std::iter::repeat_n(w, times))
        .collect();
    let options = Options {
        order,
        min: Some(min),
        max: Some(max),
        novel,
    };
    let names = Names::new(&words, options).map_err(|e| format!("a saved names generator: {e}"))?;
    // Only the form `write_names` gives: distinct examples in order.
    let (again, trained) = names.training();
    let same = trained.len() == examples.len()
        && trained
            .iter()
            .zip(&examples)
            .all(|((a, n), (b, m))| a == b && *n as usize == *m);
    if again != options || !same {
        return Err(MALFORMED.into());
    }
    Ok(names)
}

fn read_noise(r: &mut Reader) -> Result<Noise, String> {
    let kind = match r.u8()? {
        0 => Kind::Simplex,
        1 => Kind::Perlin,
        _ => return Err(MALFORMED.into()),
    };
    let seed = r.int()?;
    let octaves = r.u8()? as usize;
    let (frequency, persistence, lacunarity) = (r.f64()?, r.f64()?, r.f64()?);
    let fits = seed.unsigned_abs() <= MAX_SEED as u64
        && (1..=noise::MAX_OCTAVES).contains(&octaves)
        && frequency > 0.0
        && frequency <= noise::MAX_FREQUENCY
        && (0.0..=noise::MAX_PERSISTENCE).contains(&persistence)
        && (1.0..=noise::MAX_LACUNARITY).contains(&lacunarity);
    if !fits {
        return Err("a saved noise has settings map.noise refuses".into());
    }
    Ok(Noise::new(Settings {
        seed,
        kind,
        octaves,
        frequency,
        persistence,
        lacunarity,
    }))
}
