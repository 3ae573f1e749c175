//! `rng = r` in the options of `generate` and `sample`: a seed drawn from
//! a random source (`map.rng`), kept aside until the call it seeds has
//! succeeded, so that a call that fails leaves the source as it was.

use std::ffi::c_int;
use std::ptr::NonNull;

use crate::input::Arg;
use crate::lua::stack::block::what;
use mlua::ffi::lua_State;

use crate::lua::stack::{Args, Field, Key, Native, Reply};
use crate::toolbox::random::Random;

/// A seed drawn from a source, kept aside until the call it seeds has
/// succeeded, its result pushed (`Seeded`): a call that fails leaves the
/// source as it was.
#[derive(Default)]
pub struct SeedDraw(Option<(NonNull<Random>, Random)>);

impl SeedDraw {
    /// The source at `source` (an argument of the call), to be `after`.
    pub fn moved(source: NonNull<Random>, after: Random) -> SeedDraw {
        SeedDraw(Some((source, after)))
    }
}

/// A reply, and the draw its seed came from, made when the reply is pushed.
pub struct Seeded<R>(pub R, pub SeedDraw);

impl<R: Reply> Reply for Seeded<R> {
    unsafe fn push_on(&self, l: *mut lua_State) -> c_int {
        // SAFETY: the pushers' contract.
        unsafe { self.0.push_on(l) }
    }
    unsafe fn push_plain_on(&self, l: *mut lua_State) -> Option<c_int> {
        // SAFETY: as the caller's.
        unsafe { self.0.push_plain_on(l) }
    }
    fn carried(&self) -> &'static [c_int] {
        self.0.carried()
    }
    unsafe fn commit(&self) {
        // SAFETY: as the caller's.
        unsafe { self.0.commit() };
        if let Some((source, after)) = &self.1 .0 {
            // SAFETY: the source is a userdata the call's arguments hold
            // (`seed_option`), alive; nothing else refers to it now.
            unsafe { *source.as_ptr() = after.clone() };
        }
    }
    unsafe fn undo(&self, l: *mut lua_State) {
        // SAFETY: as the caller's.
        unsafe { self.0.undo(l) }
    }
}

/// The seed that the options table at `options_at` gives with `rng = r`
/// (`given`: the option was there), unless `seed` is given too; `seed`
/// itself when not.
pub fn seed_option<'a>(
    args: &Args,
    options_at: c_int,
    given: bool,
    seed: Arg<'a>,
) -> Result<(Arg<'a>, SeedDraw), String> {
    if !given {
        return Ok((seed, SeedDraw::default()));
    }
    if seed != Arg::Missing {
        return Err("seed and rng are exclusive: give one".into());
    }
    let source = args.with_field(options_at, Key::Field(Field::Rng), |a, top| {
        a.native(top, Random::kind()).ok_or_else(|| {
            format!(
                "rng must be a random source (map.rng), got {}",
                what(a, top)
            )
        })
    })?;
    let source = NonNull::new(source.cast::<Random>()).ok_or(crate::input::INTERNAL_ERROR)?;
    // SAFETY: as `SeedDraw::commit`'s.
    let mut after = unsafe { source.as_ref() }.clone();
    let seed = after.seed();
    Ok((Arg::Int(seed), SeedDraw(Some((source, after)))))
}
