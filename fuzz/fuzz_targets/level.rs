//! A native level (`map::native`) under libFuzzer: an arbitrary grid (raw
//! bytes or map characters, 1x1 up to 64x64, or 1x600 strips) with
//! arbitrary things moved out (`NativeLevel::with_things`), or a level of
//! any generator of `LIST` (`level::generate`, with `items`, `arrive` and
//! `place` now and then) split by `NativeLevel::from_level` with arbitrary
//! extra things; then an arbitrary sequence of up to 24 operations, each
//! checked against a plain model of the level (its terrain as a `Grid`, its
//! occupancy as one `bool` a cell, its things, a remembered flag a cell):
//!
//! - the split: the things are the cells of the thing characters in row
//!   order, the terrain floor under each (`<` at `up`), `laid()` the map
//!   made, `table()` generate's level, none without metadata;
//! - `set` a cell and `occupy`/`vacate` one: `get` and `occupied` read them
//!   back, the terrain and the occupancy bits equal the model's after every
//!   operation, the things never change, and `laid()` stays the terrain
//!   with the things over it;
//! - fov on the terrain with a window and a radius (none, small, huge), as
//!   `level:fov` makes it: `fov::visible` on the window around the origin
//!   made a `Field::flags` answers every cell of the map (`get`,
//!   `flags_at`, `value_at`, `values_in`, `flags_in`) as `fov::visible` on
//!   the whole grid does; marked into a memory (`Field::mark`), it counts
//!   the cells seen, and the memory is the union of every fov marked;
//! - distances as `level:distances` makes them: the search window of the
//!   sources and `max`, searched in the windows apart `search_parts` gives
//!   (a field in parts when several), the sources moved into each,
//!   `Limits.closed` from the occupancy when `occupied` is on, any walk
//!   (blocked set, diagonal, costs up to `MAX_COST`), start values small,
//!   past 2^31 or at
//!   `±MAX_VALUE`; `Field::values` of the result read back by `get`,
//!   `value_at`, `values_in` and `flags_in` (whole map and any rectangle)
//!   equals, cell by cell, a plain Dijkstra (`least_values` of
//!   `tests/support/oracle.rs`) on the whole grid with the occupied cells
//!   blocked, cut at `max`; 4 bytes a cell exactly when every value fits;
//! - `step::step_in` on the terrain (values read in place from a field,
//!   closed by occupancy and by a memory as `known`) equals `step::step` on
//!   the 3x3 window around the walker, and on the whole map;
//! - a batch of walkers stepped in order as `level:steps` does (each walker
//!   vacating and occupying when `occupied` is on) equals `step::step`
//!   walker by walker on the model with its occupancy updated as they move
//!   (so each sees the moves before it): every move legal and strictly
//!   down, the occupancy the model's; with `occupied` on and the walkers
//!   started apart on occupied cells, no two end on one cell;
//! - save and load: `save::save` of the level and `save::save_field` of
//!   each field kind (values in 4 bytes, in 8, flags over a window, a
//!   memory) load back equal through `save::load_saved` (and the level
//!   through `save::load`, which refuses a field), within `save::bound` /
//!   exactly `field_bound` bytes, holding at most `save::bound_load` of
//!   heap; a saved string truncated, bit-flipped, overwritten, extended,
//!   with a run inserted or deleted or a `u32` of the lists' bounds
//!   written (`shared/saved.rs`) is an error or an equal value; damaged
//!   so inside its body (or with a run of another saved string spliced
//!   in) with its length and checksum made right again, or arbitrary
//!   bytes (raw, or framed with a right checksum, or a frame with one
//!   list of up to 200,000 entries), it is an error or a value that saves
//!   back to the same bytes, within `save::bound_load`; a level loaded
//!   from damage goes on through the operations.
//!
//! Nothing may panic: any crash is a broken invariant or a panic in
//! `src/native` or `src/toolkit`.

#![no_main]

use libfuzzer_sys::arbitrary::{Result, Unstructured};
use libfuzzer_sys::fuzz_target;

#[path = "shared/draw.rs"]
mod draw;

#[path = "shared/saved.rs"]
mod saved;

#[path = "../../tests/support/counting.rs"]
mod counting;
#[path = "../../tests/support/oracle.rs"]
mod oracle;

use oracle::{least_values, legal};
use saved::{
    check_field_shape, check_level, damaged, framed, load_measured, same, saved_field, saves_back,
    things_of,
};

use map::generators::LIST;
use map::grid::{byte_set, ByteSet, Grid, Pos, Rect, FLOOR, PLAYER};
use map::level::Level;
use map::native::field::{Field, Value};
use map::native::save::{self, Saved, FIELD_MAGIC, MAGIC, VERSION};
use map::native::steps::step_movers;
use map::native::{Bits, NativeLevel, Thing, UP};
use map::toolkit::board::{Limits, Source, Walk, BEYOND, MAX_VALUE};
use map::toolkit::distances::{distances_from, search_parts, search_window, within};
use map::toolkit::fov::visible;
use map::toolkit::step::{step, step_in};

/// Characters a grid is usually drawn from.
const CHARS: &[u8] = b"#.~+@>$!<";

/// Fields kept for the operations that read one (steps, saves).
const KEEP_FIELDS: usize = 4;

// ---------------------------------------------------------------------------
// Arbitrary parts.

fn cell(u: &mut Unstructured, size: (usize, usize)) -> Result<Pos> {
    let i = u.choose_index(size.0 * size.1)?;
    Ok(Pos {
        x: i % size.0 + 1,
        y: i / size.0 + 1,
    })
}

fn walk(u: &mut Unstructured, costs: bool) -> Result<Walk> {
    draw::walk(u, CHARS, |u| Ok(costs && u.ratio(1, 3)?))
}

fn start_value(u: &mut Unstructured) -> Result<i64> {
    Ok(match u.int_in_range(0..=7u8)? {
        0..=3 => 0,
        4 => u.int_in_range(-20..=20)?,
        5 => *u.choose(&[
            i64::from(i32::MAX),
            i64::from(i32::MIN),
            i64::from(i32::MIN) + 1,
            1 << 40,
            -(1 << 40),
            MAX_VALUE,
            -MAX_VALUE,
            MAX_VALUE - 3,
        ])?,
        _ => u.int_in_range(-MAX_VALUE..=MAX_VALUE)?,
    })
}

fn rect_of(u: &mut Unstructured, size: (usize, usize)) -> Result<Rect> {
    let a = cell(u, size)?;
    let b = cell(u, size)?;
    let (x0, x1) = (a.x.min(b.x), a.x.max(b.x));
    let (y0, y1) = (a.y.min(b.y), a.y.max(b.y));
    Ok(Rect::new(x0, y0, x1 - x0 + 1, y1 - y0 + 1))
}

/// The cells of `window` of `g`, as the binding cuts a window.
fn cut(g: &Grid, window: Rect) -> Grid {
    let cells = window.cells().map(|p| g.get(p)).collect();
    Grid::from_cells(window.w, window.h, cells)
}

// ---------------------------------------------------------------------------
// The level and its model.

/// The level as the harness expects it to be.
struct Model {
    terrain: Grid,
    occupied: Vec<bool>,
    things: Vec<Thing>,
    /// `generate`'s level, for `table()` (its grid the map laid).
    meta: Option<Level>,
    /// The union of every fov marked into `State::memory`.
    remembered: Vec<bool>,
}

struct State {
    level: NativeLevel,
    model: Model,
    memory: Field,
    fields: Vec<Field>,
}

impl State {
    fn size(&self) -> (usize, usize) {
        (self.level.width(), self.level.height())
    }

    fn keep(&mut self, field: Field) {
        if self.fields.len() == KEEP_FIELDS {
            self.fields.remove(0);
        }
        self.fields.push(field);
    }

    /// A state for `level`, its model read from it (a level loaded from
    /// damaged bytes, whose content the operations then check).
    fn adopt(level: NativeLevel) -> State {
        let n = level.terrain().cells().len();
        let size = (level.width(), level.height());
        let model = Model {
            terrain: level.terrain().clone(),
            occupied: (0..n).map(|i| level.occupancy().get(i)).collect(),
            things: level.things().to_vec(),
            meta: level.table(),
            remembered: vec![false; n],
        };
        State {
            level,
            model,
            memory: Field::memory(size),
            fields: Vec::new(),
        }
    }
}

/// The things of `grid` by `chars`, in row order, and the terrain under
/// them (floor, `<` at `up`): the split written plainly.
fn split(grid: &Grid, chars: &ByteSet, up: Option<Pos>) -> (Grid, Vec<Thing>) {
    let mut terrain = grid.clone();
    let mut things = Vec::new();
    for (i, &c) in grid.cells().iter().enumerate() {
        if chars[c as usize] {
            things.push(Thing {
                char: c,
                index: i as u32,
            });
            let under = if up.is_some_and(|p| grid.index(p) == i) {
                UP
            } else {
                FLOOR
            };
            terrain.set_at(i, under);
        }
    }
    (terrain, things)
}

fn from_grid(u: &mut Unstructured) -> Result<State> {
    let g = draw::grid(u, CHARS, 600)?;
    let n = g.cells().len();
    let chars = things_of(u)?;
    let plain = u.ratio(1, 4)?;
    let level = match plain {
        true => NativeLevel::from_grid(g.clone()),
        false => NativeLevel::with_things(g.clone(), &chars),
    };
    let (terrain, things) = match plain {
        true => (g.clone(), Vec::new()),
        false => split(&g, &chars, None),
    };
    assert_eq!(level.terrain(), &terrain, "terrain after the split");
    assert_eq!(level.things(), &things[..], "things after the split");
    assert_eq!(level.laid(), g, "things laid back");
    assert!(level.meta().is_none() && level.table().is_none());
    let size = (g.width(), g.height());
    Ok(State {
        level,
        model: Model {
            terrain,
            occupied: vec![false; n],
            things,
            meta: None,
            remembered: vec![false; n],
        },
        memory: Field::memory(size),
        fields: Vec::new(),
    })
}

fn from_generated(u: &mut Unstructured) -> Result<Option<State>> {
    let Some(made) = saved::generated(u)? else {
        return Ok(None);
    };
    let (w, h) = (made.grid.width(), made.grid.height());
    let extra = things_of(u)?;
    let level = NativeLevel::from_level(made.clone(), &extra);
    let mut chars = extra;
    for c in [PLAYER, b'$', b'!'] {
        chars[c as usize] = true;
    }
    made.placed
        .iter()
        .for_each(|p| chars[p.char as usize] = true);
    let (terrain, things) = split(&made.grid, &chars, made.up);
    assert_eq!(level.terrain(), &terrain, "terrain after the split");
    assert_eq!(level.things(), &things[..], "things after the split");
    assert_eq!(level.laid(), made.grid, "things laid back");
    assert_eq!(level.table().as_ref(), Some(&made), "table()");
    let n = terrain.cells().len();
    Ok(Some(State {
        level,
        model: Model {
            terrain,
            occupied: vec![false; n],
            things,
            meta: Some(made),
            remembered: vec![false; n],
        },
        memory: Field::memory((w, h)),
        fields: Vec::new(),
    }))
}

/// The level equals its model: terrain, occupancy bits (none past the
/// map), things, the map laid and the table.
fn check_model(s: &State) {
    let (level, model) = (&s.level, &s.model);
    check_level(level);
    assert_eq!(level.terrain(), &model.terrain, "terrain");
    assert_eq!(
        level.occupancy(),
        &Bits::from_flags(&model.occupied),
        "occupancy"
    );
    assert_eq!(level.things(), &model.things[..], "things");
    let mut laid = model.terrain.clone();
    model
        .things
        .iter()
        .for_each(|t| laid.set_at(t.index as usize, t.char));
    assert_eq!(level.laid(), laid, "laid");
    let table = model.meta.as_ref().map(|m| Level {
        grid: laid,
        ..m.clone()
    });
    assert_eq!(level.table(), table, "table");
}

// ---------------------------------------------------------------------------
// The operations.

fn set_cell(u: &mut Unstructured, s: &mut State) -> Result<()> {
    let p = cell(u, s.size())?;
    let c = match u.ratio(3, 4)? {
        true => *u.choose(CHARS)?,
        false => u.arbitrary()?,
    };
    s.level.set(p, c);
    s.model.terrain.set(p, c);
    assert_eq!(s.level.get(p), c, "get after set at {p:?}");
    Ok(())
}

fn occupy(u: &mut Unstructured, s: &mut State) -> Result<()> {
    let p = cell(u, s.size())?;
    let on = u.arbitrary()?;
    s.level.occupy(p, on);
    let i = s.model.terrain.index(p);
    s.model.occupied[i] = on;
    assert_eq!(s.level.occupied(p), on, "occupied after occupy at {p:?}");
    Ok(())
}

/// Every cell of the map as `field` answers it, against `want` (what a
/// table would hold there).
fn check_field(field: &Field, size: (usize, usize), want: &[Value], u: &mut Unstructured) {
    let whole = Rect::whole(size);
    let number = |v: &Value| match *v {
        Value::Int(n) => n,
        Value::Seen if field.is_flags() => 0,
        _ => BEYOND,
    };
    for (i, p) in whole.cells().enumerate() {
        assert_eq!(field.get(p), want[i], "get at {p:?}");
        assert_eq!(field.flags_at(p), want[i] == Value::Seen, "flags_at {p:?}");
        let value = match want[i] {
            Value::Int(n) => n,
            _ => BEYOND,
        };
        assert_eq!(field.value_at(p), value, "value_at {p:?}");
    }
    let values: Vec<i64> = want.iter().map(number).collect();
    let reached: Vec<bool> = want
        .iter()
        .map(|v| matches!(v, Value::Int(_) | Value::Seen))
        .collect();
    assert_eq!(field.values_in(whole), values, "values_in");
    assert_eq!(field.flags_in(whole), reached, "flags_in");
    if let Ok(r) = rect_of(u, size) {
        let index = |p: Pos| (p.y - 1) * size.0 + p.x - 1;
        let part: Vec<i64> = r.cells().map(|p| values[index(p)]).collect();
        let flags: Vec<bool> = r.cells().map(|p| reached[index(p)]).collect();
        assert_eq!(field.values_in(r), part, "values_in {r:?}");
        assert_eq!(field.flags_in(r), flags, "flags_in {r:?}");
    }
}

fn fov(u: &mut Unstructured, s: &mut State) -> Result<()> {
    let size = s.size();
    let origin = cell(u, size)?;
    let radius: Option<usize> = match u.int_in_range(0..=4u8)? {
        0 => None,
        1 => Some(u.int_in_range(0..=3)?),
        2 => Some(u.int_in_range(0..=40)?),
        3 => Some(size.0 + size.1),
        _ => Some(*u.choose(&[usize::MAX, usize::MAX / 2, 1 << 32])?),
    };
    let opaque = draw::byte_set_of(u, CHARS)?;
    // As `level:fov` reads it: the window within the radius.
    let window = Rect::around(origin, radius.unwrap_or(usize::MAX), size);
    let seen = visible(
        &cut(s.level.terrain(), window),
        window.inside(origin),
        radius,
        &opaque,
    );
    let field = Field::flags(size, window, seen.clone());
    let full = visible(s.level.terrain(), origin, radius, &opaque);
    let want: Vec<Value> = full
        .iter()
        .map(|&f| if f { Value::Seen } else { Value::Unseen })
        .collect();
    check_field(&field, size, &want, u);
    if u.arbitrary()? {
        let count = s.memory.mark(window, &seen);
        assert_eq!(count, full.iter().filter(|&&f| f).count(), "mark's count");
        s.model
            .remembered
            .iter_mut()
            .zip(&full)
            .for_each(|(r, &f)| *r |= f);
        let union: Vec<Value> = s
            .model
            .remembered
            .iter()
            .map(|&f| if f { Value::Seen } else { Value::Unseen })
            .collect();
        check_field(&s.memory, size, &union, u);
    }
    check_field_shape(&field);
    s.keep(field);
    Ok(())
}

/// `g` with the `closed` cells made a byte `walk` blocks, and the walk
/// that blocks it: the grid on which a plain search sees the limits.
fn blocked_map(g: &Grid, walk: &Walk, closed: &[bool]) -> (Grid, Walk) {
    let mut walk = walk.clone();
    let used = byte_set(g.cells());
    let wall = (0..=255u8)
        .find(|&b| walk.blocked[b as usize])
        .or_else(|| (0..=255u8).find(|&b| !used[b as usize]))
        .unwrap_or(0);
    walk.blocked[wall as usize] = true;
    let cells = g
        .cells()
        .iter()
        .zip(closed)
        .map(|(&c, &x)| if x { wall } else { c })
        .collect();
    (Grid::from_cells(g.width(), g.height(), cells), walk)
}

fn distances(u: &mut Unstructured, s: &mut State) -> Result<()> {
    let size = s.size();
    let mut w = walk(u, true)?;
    let mut sources = Vec::new();
    for _ in 0..u.int_in_range(1..=3)? {
        sources.push(Source {
            pos: cell(u, size)?,
            value: start_value(u)?,
        });
    }
    let max = match u.int_in_range(0..=3u8)? {
        0 | 1 => None,
        2 => Some(u.int_in_range(0..=40)?),
        _ => Some(u.int_in_range(0..=i64::MAX)?),
    };
    let occupied: bool = u.arbitrary()?;
    // As `level:distances` reads it: the window round the sources, searched
    // in the windows apart `search_parts` gives (a field in parts) when
    // there are several.
    let window = search_window(&sources, max, size);
    let parts = search_parts(&sources, max, size);
    let full_closed: Vec<bool> = match occupied {
        true => s.model.occupied.clone(),
        false => vec![false; size.0 * size.1],
    };
    let (reduced, walk2) = blocked_map(&s.model.terrain, &w, &full_closed);
    let used = byte_set(s.model.terrain.cells());
    if (0..256).any(|b| walk2.blocked[b] && !w.blocked[b] && used[b]) {
        // Every byte is on the map and none is blocked: the closed cells
        // are walled with a byte of the map, so search with it blocked.
        w = walk2.clone();
    }
    let searched = |part: Rect| {
        let inside = within(sources.iter().copied(), part);
        let closed: Vec<bool> = match occupied {
            true => part.cells().map(|p| s.level.occupied(p)).collect(),
            false => Vec::new(),
        };
        let limits = Limits { closed, max };
        let values = distances_from(&cut(s.level.terrain(), part), &inside, &w, &limits);
        Field::values(size, part, values)
    };
    let field = match parts[..] {
        [whole] => searched(whole),
        _ => Field::parts(size, window, parts.iter().map(|&p| searched(p)).collect()),
    };
    let limits = Limits {
        closed: Vec::new(),
        max,
    };
    // The oracle: the least over the sources on the whole map with the
    // occupied cells blocked, cut at `max`.
    let top = limits.max_value();
    let kept: Vec<(Pos, i64)> = sources
        .iter()
        .filter(|src| src.value <= top)
        .map(|src| (src.pos, src.value))
        .collect();
    let want: Vec<Value> = least_values(&reduced, &walk2, &kept)
        .into_iter()
        .map(|v| match v {
            Some(v) if v <= top => Value::Int(v),
            _ => Value::Unreached,
        })
        .collect();
    check_field(&field, size, &want, u);
    // Each part 4 bytes a cell exactly when each of its values fits.
    let fits = |p: Pos| match want[(p.y - 1) * size.0 + p.x - 1] {
        Value::Int(n) => i64::from(i32::MIN) < n && n <= i64::from(i32::MAX),
        _ => true,
    };
    let width = |part: &Rect| if part.cells().all(fits) { 4 } else { 8 };
    let bytes: usize = parts.iter().map(|p| p.w * p.h * width(p)).sum();
    assert_eq!(field.bytes(), bytes, "cell width");
    check_field_shape(&field);
    s.keep(field);
    Ok(())
}

/// A field of values for the walkers: one made by `distances`, or any.
fn values_field(u: &mut Unstructured, s: &State) -> Result<Field> {
    let made: Vec<&Field> = s.fields.iter().filter(|f| !f.is_flags()).collect();
    if !made.is_empty() && u.ratio(2, 3)? {
        return Ok(made[u.choose_index(made.len())?].clone());
    }
    let size = s.size();
    let window = match u.arbitrary()? {
        true => Rect::whole(size),
        false => rect_of(u, size)?,
    };
    let wide = u.ratio(1, 4)?;
    let mut values = Vec::with_capacity(window.w * window.h);
    for _ in 0..window.w * window.h {
        values.push(match u.int_in_range(0..=9u8)? {
            0 => BEYOND,
            _ if wide => u.int_in_range(-MAX_VALUE..=MAX_VALUE)?,
            _ => u.int_in_range(0..=12)?,
        });
    }
    Ok(Field::values(size, window, values))
}

/// The closed cells of the whole map: occupied ones (with `occupied`)
/// and those not in the memory (with `known`).
fn closed_now(s: &State, occupied: bool, known: bool) -> Vec<bool> {
    s.model
        .occupied
        .iter()
        .zip(&s.model.remembered)
        .map(|(&o, &r)| occupied && o || known && !r)
        .collect()
}

fn step_one(u: &mut Unstructured, s: &mut State) -> Result<()> {
    let size = s.size();
    let field = values_field(u, s)?;
    let from = cell(u, size)?;
    let w = walk(u, false)?;
    let (occupied, known): (bool, bool) = (u.arbitrary()?, u.ratio(1, 4)?);
    let (level, memory) = (&s.level, &s.memory);
    let got = step_in(
        level.terrain(),
        from,
        (&w.blocked, w.diagonal),
        |p| field.value_at(p),
        |p| occupied && level.occupied(p) || known && !memory.flags_at(p),
    );
    // `step` on the 3x3 window, as `map.step` reads it.
    let window = Rect::around(from, 1, size);
    let closed = closed_now(s, occupied, known);
    let index = |p: Pos| (p.y - 1) * size.0 + p.x - 1;
    let near: Vec<bool> = window.cells().map(|p| closed[index(p)]).collect();
    let want = step(
        &cut(&s.model.terrain, window),
        &field.values_in(window),
        window.inside(from),
        &w,
        &near,
    )
    .map(|q| window.outside(q));
    assert_eq!(got, want, "step_in against step on the window at {from:?}");
    let whole = Rect::whole(size);
    let on_map = step(&s.model.terrain, &field.values_in(whole), from, &w, &closed);
    assert_eq!(got, on_map, "step_in against step on the map at {from:?}");
    Ok(())
}

/// `legal` with the `closed` cells neither entered nor passed between.
fn legal_closed(g: &Grid, walk: &Walk, closed: &[bool], a: Pos, b: Pos) -> bool {
    let open = |p: Pos| !closed[g.index(p)];
    let corners =
        a.x == b.x || a.y == b.y || open(Pos { x: a.x, y: b.y }) && open(Pos { x: b.x, y: a.y });
    legal(g, walk, a, b, None) && open(b) && corners
}

fn steps(u: &mut Unstructured, s: &mut State) -> Result<()> {
    let size = s.size();
    let field = values_field(u, s)?;
    let w = walk(u, false)?;
    let (occupied, known): (bool, bool) = (u.arbitrary()?, u.ratio(1, 4)?);
    let mut movers = Vec::new();
    for _ in 0..u.int_in_range(0..=16)? {
        movers.push(cell(u, size)?);
    }
    // A game occupies its walkers' cells; now and then they are not.
    let placed = u.ratio(3, 4)?;
    if placed {
        for &p in &movers {
            s.level.occupy(p, true);
            let i = s.model.terrain.index(p);
            s.model.occupied[i] = true;
        }
    }
    let apart = {
        let mut cells: Vec<Pos> = movers.clone();
        cells.sort_by_key(|p| (p.y, p.x));
        cells.dedup();
        cells.len() == movers.len()
    };
    // As `level:steps` moves them: in order, in place; without `known`,
    // by `native::steps::step_movers`, as the methods do.
    let mut moved = Vec::new();
    if !known && !field.is_flags() {
        let mut cells = movers.clone();
        let rule = (&w.blocked, w.diagonal);
        step_movers(&mut s.level, &field, &mut cells, rule, occupied, |i, to| {
            moved.push((i, to))
        });
    } else {
        let (level, memory) = (&mut s.level, &s.memory);
        for (i, &from) in movers.iter().enumerate() {
            let to = step_in(
                level.terrain(),
                from,
                (&w.blocked, w.diagonal),
                |p| field.value_at(p),
                |p| occupied && level.occupied(p) || known && !memory.flags_at(p),
            );
            if let Some(to) = to {
                if occupied {
                    level.occupy(from, false);
                    level.occupy(to, true);
                }
                moved.push((i, to));
            }
        }
    }
    // The model: `step` on the whole map, walker by walker, each seeing
    // the moves before it.
    let values = field.values_in(Rect::whole(size));
    let mut want = Vec::new();
    let mut at = movers.clone();
    for (i, &from) in movers.iter().enumerate() {
        let closed = closed_now(s, occupied, known);
        if let Some(to) = step(&s.model.terrain, &values, from, &w, &closed) {
            let (a, b) = (s.model.terrain.index(from), s.model.terrain.index(to));
            assert!(
                legal_closed(&s.model.terrain, &w, &closed, from, to) && values[b] < values[a],
                "walker {i}: {from:?} to {to:?} is not a legal step down"
            );
            if occupied {
                s.model.occupied[a] = false;
                s.model.occupied[b] = true;
            }
            want.push((i, to));
            at[i] = to;
        }
    }
    assert_eq!(moved, want, "the batch against step walker by walker");
    if occupied && placed && apart {
        let mut cells = at.clone();
        cells.sort_by_key(|p| (p.y, p.x));
        cells.dedup();
        assert_eq!(cells.len(), at.len(), "two walkers on one cell: {at:?}");
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// Saving and loading.

fn save_and_load(u: &mut Unstructured, s: &mut State) -> Result<()> {
    let bytes = save::save(&s.level);
    assert!(bytes.len() <= save::bound(&s.level), "save::bound");
    match load_measured(&bytes) {
        Ok(Saved::Level(back)) => assert!(back == s.level, "level round trip"),
        other => panic!("a saved level loads as {other:?}"),
    }
    assert!(save::load(&bytes).is_ok_and(|l| l == s.level));
    let mut saved: Vec<(Vec<u8>, Saved)> = vec![(bytes, Saved::Level(s.level.clone()))];
    let fields = s.fields.iter().chain([&s.memory]);
    for f in fields {
        saved.push(saved_field(f));
    }
    let donors: Vec<&[u8]> = saved.iter().map(|(b, _)| b.as_slice()).collect();
    for _ in 0..u.int_in_range(0..=3)? {
        let (bytes, value) = &saved[u.choose_index(saved.len())?];
        let (bad, disguised) = damaged(u, bytes, &donors)?;
        if !disguised {
            match load_measured(&bad) {
                Ok(back) => assert!(same(&back, value), "damage loads as another value"),
                Err(e) => assert!(!e.is_empty()),
            }
        } else if let Some(Saved::Level(level)) = saves_back(&bad) {
            if u.ratio(1, 2)? {
                *s = State::adopt(level);
            }
        }
    }
    Ok(())
}

/// Arbitrary bytes: raw, or framed with a right checksum.
fn fuzz_bytes(u: &mut Unstructured) -> Result<()> {
    let framing = u.int_in_range(0..=3u8)?;
    let len = u.int_in_range(0..=4096)?;
    let body = u.bytes(len)?;
    match framing {
        0 => {
            let _ = load_measured(body);
        }
        1 => {
            let _ = saves_back(&framed(MAGIC, VERSION, body));
        }
        2 => {
            let _ = saves_back(&framed(FIELD_MAGIC, VERSION, body));
        }
        _ => {
            let version = u.arbitrary()?;
            let magic = if u.arbitrary()? { MAGIC } else { FIELD_MAGIC };
            let _ = load_measured(&framed(magic, version, body));
        }
    }
    Ok(())
}

/// A saved level of a small map with one list (of its metadata, or its
/// things) of up to 200,000 entries, each entry right or
/// arbitrary: what a crafted string can make `load` allocate.
fn fuzz_long_list(u: &mut Unstructured) -> Result<()> {
    let count: u32 = match u.int_in_range(0..=3u8)? {
        0 => u.int_in_range(0..=64)?,
        1 => u.int_in_range(0..=5000)?,
        _ => u.int_in_range(0..=200_000)?,
    };
    // In saved order: rooms, doors, items, vaults, placed, up, exits,
    // links; 8 the level's things.
    let list = u.int_in_range(0..=8u8)?;
    let (w, h) = (u.int_in_range(1..=4u32)?, u.int_in_range(1..=4u32)?);
    let pos = |o: &mut Vec<u8>| {
        o.extend(1u32.to_le_bytes());
        o.extend(1u32.to_le_bytes());
    };
    // One entry of the list, right (exits and links: an empty list;
    // things: all at cell 0, so out of order once there are two).
    let entry: Vec<u8> = match u.ratio(3, 4)? {
        true => {
            let mut e = Vec::new();
            match list {
                0 => [1u32, 1, 1, 1]
                    .iter()
                    .for_each(|v| e.extend(v.to_le_bytes())),
                1 | 5 => pos(&mut e),
                2 | 4 => {
                    pos(&mut e);
                    e.push(b'$');
                }
                3 => {
                    e.extend(0u32.to_le_bytes());
                    [1u32, 1, 1, 1]
                        .iter()
                        .for_each(|v| e.extend(v.to_le_bytes()));
                    e.push(0);
                }
                6 | 7 => e.extend(0u32.to_le_bytes()),
                _ => {
                    e.extend(0u32.to_le_bytes());
                    e.push(b'M');
                }
            }
            e
        }
        false => {
            let n = u.int_in_range(1..=24)?;
            u.bytes(n)?.to_vec()
        }
    };
    let lists = |o: &mut Vec<u8>, at: u8| {
        o.extend(if list == at { count } else { 0 }.to_le_bytes());
        if list == at {
            for _ in 0..count {
                o.extend(&entry);
            }
        }
    };
    let mut body = Vec::new();
    body.extend(w.to_le_bytes());
    body.extend(h.to_le_bytes());
    body.extend(std::iter::repeat_n(b'.', (w * h) as usize));
    body.extend(0u64.to_le_bytes());
    lists(&mut body, 8);
    body.push(1);
    body.extend(7i64.to_le_bytes());
    let name = LIST[0].name.as_bytes();
    body.push(name.len() as u8);
    body.extend(name);
    lists(&mut body, 0);
    lists(&mut body, 1);
    pos(&mut body);
    pos(&mut body);
    for at in 2..=7 {
        lists(&mut body, at);
    }
    let bytes = framed(MAGIC, VERSION, &body);
    let _ = saves_back(&bytes);
    Ok(())
}

fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    let start = match u.int_in_range(0..=15u8).unwrap_or(0) {
        0 => {
            let _ = fuzz_bytes(&mut u);
            return;
        }
        1 => {
            let _ = fuzz_long_list(&mut u);
            return;
        }
        2..=5 => from_generated(&mut u).ok().flatten(),
        _ => None,
    };
    let mut s = match start {
        Some(s) => s,
        None => match from_grid(&mut u) {
            Ok(s) => s,
            Err(_) => return,
        },
    };
    let ops = u.int_in_range(1..=24u8).unwrap_or(1);
    for _ in 0..ops {
        let done = match u.int_in_range(0..=11u8) {
            Ok(0 | 1) => set_cell(&mut u, &mut s),
            Ok(2 | 3) => occupy(&mut u, &mut s),
            Ok(4 | 5) => fov(&mut u, &mut s),
            Ok(6 | 7) => distances(&mut u, &mut s),
            Ok(8) => step_one(&mut u, &mut s),
            Ok(9 | 10) => steps(&mut u, &mut s),
            Ok(_) => save_and_load(&mut u, &mut s),
            Err(_) => break,
        };
        check_model(&s);
        if done.is_err() {
            break;
        }
    }
    let _ = save_and_load(&mut u, &mut s);
});
