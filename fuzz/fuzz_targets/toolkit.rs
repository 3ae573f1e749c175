//! The toolkit under libFuzzer: `fov::visible`, `distance::distances` and
//! `path::path` on arbitrary hand-made grids (0 walls to all walls, raw bytes
//! or map characters, from 1x1 up to 64x64 or 1x2000 strips), arbitrary
//! opaque and blocked sets, both neighbourhoods, unit and arbitrary costs up
//! to `MAX_COST`, blocked and repeated sources.
//!
//! Nothing may panic; the invariants asserted:
//! - analyze: the regions hold every open cell once; chokepoints and dead
//!   ends are open, a cut smaller than the largest region;
//! - fov: the origin is visible; sight is symmetric between transparent
//!   cells; with a radius the result is the unlimited one cut to the disc,
//!   and the same when given only the window around the origin;
//! - distances: sources are 0, and the rest are exactly the shortest
//!   distances (each reached cell has a legal step from a cell exactly its
//!   cost nearer; no legal step leads anywhere cheaper than it says);
//! - path: legal steps from `from` to `to`, costing what `distances` says;
//!   `GoalBlocked` exactly for a blocked goal other than the start,
//!   `NotConnected` exactly when `distances` says unreached; and the first
//!   steps follow the tie rule (no earlier neighbour in N, E, S, W, NE, SE,
//!   SW, NW order is a legal step on a shortest path);
//! - the limits: `distances_from` with start values, closed cells and `max`
//!   is the least over the sources of value plus `distances` on the map
//!   with the closed cells blocked, cut at `max`; `path_within` is `path`
//!   on that map, or fails past `max`;
//! - `step` walks strictly down from every reached cell to a source;
//!   `flee` is the least fixed point of its rescan; `explore` ends at the
//!   nearest frontier cell; `sample` draws distinct candidates;
//! - `line` is symmetric and 8-connected; `visible` and `along` equal
//!   `fov`; `parse` reads back `render`, and any bytes give a map or an
//!   error;
//! - `autotile`: every mode, class, edge rule and `index`, against masks
//!   made neighbour by neighbour from the grid.
//! - `light`: every cell in [0, 1]; a cell is the ambient level where no
//!   light's field of view holds it, else the ambient level plus the sum of
//!   the shares of those that see it, clamped; the same from any rectangle
//!   holding the lights' windows; `noise`: any settings within the bounds
//!   and any coordinates within 2^53 give a value in [-1, 1], the same
//!   twice, and `grid` is `get` at each cell.

#![no_main]

use libfuzzer_sys::arbitrary::{Result, Unstructured};
use libfuzzer_sys::fuzz_target;

#[path = "shared/draw.rs"]
mod draw;

#[path = "../../tests/support/oracle.rs"]
mod oracle;

use oracle::{around, check_window, cost_of, legal};

use map::grid::{Grid, Pos, Rect};
use map::toolkit::analyze::analyze;
use map::toolkit::autotile::{masks, Autotile, Mode, BLOB, E, N, NE, NW, S, SE, SW, W};
use map::toolkit::board::{Limits, Source, Walk, BEYOND, UNREACHED};
use map::toolkit::distances::{distances, distances_from};
use map::toolkit::explore::explore;
use map::toolkit::flee::{flee, scaled};
use map::toolkit::fov::visible;
use map::toolkit::light::{light, Ambient, Light};
use map::toolkit::line::line;
use map::toolkit::noise::{self, Noise, Origin, Settings};
use map::toolkit::parse;
use map::toolkit::path::{path, path_within, NoPath};
use map::toolkit::sample::{sample, Filter, Near};
use map::toolkit::step::step;
use map::toolkit::visible::{along, visible as visible_between};

/// Characters a grid is usually drawn from.
const CHARS: &[u8] = b"#.~+@>$!";

fn cell(u: &mut Unstructured, g: &Grid) -> Result<Pos> {
    Ok(g.pos(u.choose_index(g.cells().len())?))
}

fn walk(u: &mut Unstructured) -> Result<Walk> {
    draw::walk(u, CHARS, |u| u.arbitrary())
}

// ---------------------------------------------------------------------------
// Field of view.

fn check_fov(u: &mut Unstructured, g: &Grid) -> Result<()> {
    let opaque = draw::byte_set_of(u, CHARS)?;
    let origin = cell(u, g)?;
    let full = visible(g, origin, None, &opaque);
    assert_eq!(full.len(), g.cells().len());
    assert!(full[g.index(origin)], "origin not visible");

    // Symmetry among a few transparent cells (the origin among them if it is).
    let mut cells = vec![origin];
    for _ in 0..u.int_in_range(0..=6)? {
        cells.push(cell(u, g)?);
    }
    cells.retain(|&p| !opaque[g.get(p) as usize]);
    let seen: Vec<Vec<bool>> = cells
        .iter()
        .map(|&p| visible(g, p, None, &opaque))
        .collect();
    for (a, &pa) in cells.iter().enumerate() {
        for (b, &pb) in cells.iter().enumerate() {
            assert_eq!(
                seen[a][g.index(pb)],
                seen[b][g.index(pa)],
                "{pa:?} and {pb:?} disagree"
            );
        }
    }

    let r: usize = match u.int_in_range(0..=3u8)? {
        0 => u.int_in_range(0..=3)?,
        1 => u.int_in_range(0..=40)?,
        2 => *u.choose(&[usize::MAX, usize::MAX / 2, 1 << 32, 4000])?,
        _ => u.arbitrary()?,
    };
    let cut = visible(g, origin, Some(r), &opaque);
    for (i, (&c, &f)) in cut.iter().zip(&full).enumerate() {
        let p = g.pos(i);
        let (dx, dy) = (
            p.x.abs_diff(origin.x) as u128,
            p.y.abs_diff(origin.y) as u128,
        );
        let inside = dx * dx + dy * dy <= r as u128 * (r as u128 + 1);
        assert_eq!(c, f && inside, "radius {r}: {p:?}");
    }
    if r <= 64 {
        check_window(g, origin, r, &opaque, &cut, "fuzz");
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// Distances and paths.

fn open(g: &Grid, w: &Walk, p: Pos) -> bool {
    !w.blocked[g.get(p) as usize]
}

/// `d` is exactly the shortest distances from `sources`.
fn check_distances(g: &Grid, w: &Walk, sources: &[Pos], d: &[u64]) {
    assert_eq!(d.len(), g.cells().len());
    for &s in sources {
        assert_eq!(d[g.index(s)], 0, "source {s:?}");
    }
    for i in 0..d.len() {
        let v = g.pos(i);
        if d[i] != UNREACHED && d[i] > 0 {
            assert!(open(g, w, v), "blocked {v:?} reached");
            let from = around(g, v, w.diagonal).into_iter().any(|u| {
                let du = d[g.index(u)];
                du != UNREACHED && legal(g, w, u, v, None) && du + cost_of(g, w, v) == d[i]
            });
            assert!(from, "{v:?} at {} with no step from a nearer cell", d[i]);
        }
        if d[i] == UNREACHED {
            continue;
        }
        for u in around(g, v, w.diagonal) {
            if legal(g, w, v, u, None) {
                let du = d[g.index(u)];
                assert!(
                    du != UNREACHED && du <= d[i] + cost_of(g, w, u),
                    "{u:?} at {du} after {v:?} at {}",
                    d[i]
                );
            }
        }
    }
}

fn check_walks(u: &mut Unstructured, g: &Grid) -> Result<()> {
    let w = walk(u)?;
    let mut sources = Vec::new();
    for _ in 0..u.int_in_range(0..=3)? {
        sources.push(cell(u, g)?);
    }
    if !sources.is_empty() && u.arbitrary()? {
        sources.push(sources[0]);
    }
    let d = distances(g, &sources, &w);
    check_distances(g, &w, &sources, &d);

    let (from, to) = (cell(u, g)?, cell(u, g)?);
    let d = distances(g, &[from], &w);
    let goal = d[g.index(to)];
    match path(g, from, to, &w) {
        Ok(cells) => {
            assert_eq!((cells[0], cells[cells.len() - 1]), (from, to));
            let mut total = 0;
            for pair in cells.windows(2) {
                assert!(
                    around(g, pair[0], w.diagonal).contains(&pair[1]),
                    "{pair:?}"
                );
                assert!(legal(g, &w, pair[0], pair[1], None), "{pair:?}");
                total += cost_of(g, &w, pair[1]);
            }
            assert_eq!(total, goal, "path cost");
            check_ties(g, &w, &cells);
        }
        Err(NoPath::GoalBlocked { goal }) => {
            assert!(goal == to && to != from && !open(g, &w, to));
        }
        Err(NoPath::NotConnected { from: f, to: t }) => {
            assert!((f, t) == (from, to) && open(g, &w, to));
            assert_eq!(goal, UNREACHED);
        }
    }
    Ok(())
}

/// The first steps of `cells` take the first neighbour, in the tie order,
/// that is a legal step on a shortest path to the goal.
fn check_ties(g: &Grid, w: &Walk, cells: &[Pos]) {
    let goal = cells[cells.len() - 1];
    let to_goal = |p: Pos| distances(g, &[p], w)[g.index(goal)];
    for pair in cells.windows(2).take(3) {
        let (v, next) = (pair[0], pair[1]);
        let left = to_goal(v);
        let first = around(g, v, w.diagonal).into_iter().find(|&u| {
            legal(g, w, v, u, None) && {
                let rest = to_goal(u);
                rest != UNREACHED && rest + cost_of(g, w, u) == left
            }
        });
        assert_eq!(first, Some(next), "tie rule at {v:?}");
    }
}

// ---------------------------------------------------------------------------
// The limits, and what a game does every turn.

/// The walk with some byte blocked, and the grid with the closed cells set
/// to it: a map on which `distances` and `path` see the limits.
fn reduced(g: &Grid, walk: &Walk, closed: &[bool]) -> (Grid, Walk) {
    let mut walk = walk.clone();
    let wall = (0..=255u8).find(|&b| walk.blocked[b as usize]).unwrap_or(0);
    walk.blocked[wall as usize] = true;
    let cells = (0..g.cells().len())
        .map(|i| if closed[i] { wall } else { g.cells()[i] })
        .collect();
    (Grid::from_cells(g.width(), g.height(), cells), walk)
}

fn check_limits(u: &mut Unstructured, g: &Grid) -> Result<()> {
    let w = walk(u)?;
    let n = g.cells().len();
    let density: u8 = u.int_in_range(0..=100)?;
    let mut closed = Vec::with_capacity(n);
    for _ in 0..n {
        closed.push(u.int_in_range(0..=99u8)? < density);
    }
    let max = if u.arbitrary()? {
        Some(u.int_in_range(0..=40)?)
    } else {
        None
    };
    let limits = Limits {
        closed: closed.clone(),
        max,
    };
    let mut sources = Vec::new();
    for _ in 0..u.int_in_range(1..=3)? {
        sources.push(Source {
            pos: cell(u, g)?,
            value: u.int_in_range(-20..=20)?,
        });
    }
    let (small, walk2) = reduced(g, &w, &closed);
    let d = distances_from(g, &sources, &walk2, &limits);
    let top = limits.max_value();
    for (i, &v) in d.iter().enumerate() {
        let want = sources
            .iter()
            .filter(|s| s.value <= top)
            .map(|s| distances(&small, &[s.pos], &walk2)[i])
            .zip(sources.iter().filter(|s| s.value <= top))
            .filter(|&(e, _)| e != UNREACHED)
            .map(|(e, s)| e as i64 + s.value)
            .filter(|&v| v <= top)
            .min()
            .unwrap_or(BEYOND);
        assert_eq!(v, want, "{:?}", g.pos(i));
    }
    let (from, to) = (cell(u, g)?, cell(u, g)?);
    let plain = path(&small, from, to, &walk2);
    let within = path_within(g, from, to, &walk2, &limits);
    match &plain {
        Ok(cells)
            if cells
                .iter()
                .skip(1)
                .map(|&p| cost_of(&small, &walk2, p))
                .sum::<u64>()
                > top as u64 =>
        {
            assert!(within.is_err())
        }
        _ => assert_eq!(within, plain),
    }
    // step: strictly down from every reached cell, to a cell no step leaves.
    for i in (0..n).filter(|&i| d[i] != BEYOND) {
        let mut at = g.pos(i);
        let mut steps = 0;
        while let Some(next) = step(g, &d, at, &walk2, &closed) {
            assert!(legal(&small, &walk2, at, next, None) && d[g.index(next)] < d[g.index(at)]);
            at = next;
            steps += 1;
            assert!(steps <= n);
        }
    }
    // flee: the least fixed point of the rescan.
    let factor = *u.choose(&[-1.2, -0.1, -10.0, -2.5])?;
    let f = flee(g, &sources, &walk2, &limits, factor).expect("small values");
    for i in 0..n {
        if d[i] == BEYOND {
            assert_eq!(f[i], BEYOND);
            continue;
        }
        let c = g.pos(i);
        let stepped = around(g, c, walk2.diagonal)
            .into_iter()
            .filter(|&q| f[g.index(q)] != BEYOND && legal(&small, &walk2, q, c, None))
            .map(|q| f[g.index(q)] + cost_of(g, &walk2, c) as i64)
            .min();
        let own = scaled(d[i], factor) as i64;
        assert!(
            f[i] <= own && (f[i] == own || stepped == Some(f[i])),
            "flee at {c:?}"
        );
    }
    Ok(())
}

fn check_turns(u: &mut Unstructured, g: &Grid) -> Result<()> {
    let mut w = walk(u)?;
    w.cost = None;
    let opaque = draw::byte_set_of(u, CHARS)?;
    let (from, to) = (cell(u, g)?, cell(u, g)?);
    let radius = if u.arbitrary()? {
        Some(u.int_in_range(0..=30)?)
    } else {
        None
    };
    let seen = visible(g, from, radius, &opaque)[g.index(to)];
    assert_eq!(
        visible_between(g, from, to, radius, &opaque),
        seen,
        "{from:?} {to:?}"
    );
    if !opaque[g.get(to) as usize] {
        assert_eq!(
            along(from, to, radius, &opaque, |p| Ok::<u8, ()>(g.get(p))),
            Ok(seen)
        );
    }
    // explore: the nearest frontier cell, first in row order.
    let known = visible(g, from, Some(u.int_in_range(0..=12)?), &opaque);
    let n = g.cells().len();
    let closed: Vec<bool> = known.iter().map(|&k| !k).collect();
    let (small, walk2) = reduced(g, &w, &closed);
    let d = distances(&small, &[from], &walk2);
    let frontier = |i: usize| {
        let p = g.pos(i);
        known[i]
            && !walk2.blocked[g.get(p) as usize]
            && around(g, p, true)
                .into_iter()
                .filter(|q| walk2.diagonal || q.x == p.x || q.y == p.y)
                .any(|q| !known[g.index(q)])
    };
    let target = (0..n)
        .filter(|&i| d[i] != UNREACHED && frontier(i))
        .min_by_key(|&i| (d[i], i));
    let got = explore(g, &known, from, &walk2, &[]);
    assert_eq!(
        got.as_ref().and_then(|p| p.last().copied()),
        target.map(|i| g.pos(i))
    );
    // sample: distinct candidates.
    let filter = Filter {
        chars: draw::byte_set_of(u, CHARS)?,
        from: Some(Near {
            pos: from,
            walk: w.clone(),
            min: u.int_in_range(0..=5)?,
            max: None,
        }),
        hidden: if u.arbitrary()? { Some(opaque) } else { None },
        excluded: Vec::new(),
    };
    let count = u.int_in_range(0..=8)?;
    if let Ok(cells) = sample(g, count, u.arbitrary()?, &filter) {
        let mut idx: Vec<usize> = cells.iter().map(|&p| g.index(p)).collect();
        assert!(idx.iter().all(|&i| filter.chars[g.cells()[i] as usize]));
        idx.sort_unstable();
        idx.dedup();
        assert_eq!(idx.len(), count);
    }
    // line: symmetric and 8-connected.
    let a: (i64, i64) = (u.int_in_range(-1000..=1000)?, u.int_in_range(-1000..=1000)?);
    let b: (i64, i64) = (u.int_in_range(-1000..=1000)?, u.int_in_range(-1000..=1000)?);
    let cells = line(a, b);
    let mut back = line(b, a);
    back.reverse();
    assert_eq!(cells, back);
    assert!(cells
        .windows(2)
        .all(|p| (p[0].0 - p[1].0).abs().max((p[0].1 - p[1].1).abs()) == 1));
    // parse: render read back (a grid of printable cells: a cell `\n`
    // would draw another map); any bytes a map or an error.
    if g.cells().iter().all(|b| (b' '..=b'~').contains(b)) {
        let text = g.render();
        let size = parse::size(&text).expect("printable cells read back");
        assert_eq!(parse::parse(&text, size).grid, *g);
    }
    let len = u.int_in_range(0..=64)?;
    let bytes = u.bytes(len)?;
    if let Ok(size) = parse::size(bytes) {
        let p = parse::parse(bytes, size);
        assert_eq!(p.grid.render(), bytes.strip_suffix(b"\n").unwrap_or(bytes));
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// Autotile masks.

/// The neighbours' offsets in bit order (N = 1 ... NW = 128), north being
/// the row above.
const COMPASS: [(isize, isize); 8] = [
    (0, -1),
    (1, -1),
    (1, 0),
    (1, 1),
    (0, 1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
];

/// `masks` against a mask made neighbour by neighbour from the grid (off
/// the map: `edge`), then cut by the mode: the four sides alone, or a
/// corner kept only between two set sides, whose 47 masks `BLOB` lists in
/// order (`index`: the rank in it).
fn check_autotile(u: &mut Unstructured, g: &Grid) -> Result<()> {
    let tile = Autotile {
        class: draw::byte_set_of(u, CHARS)?,
        mode: *u.choose(&[Mode::Blob, Mode::Eight, Mode::Four])?,
        edge: u.arbitrary()?,
        index: u.arbitrary()?,
    };
    let got = masks(g, &tile);
    assert_eq!(got.len(), g.cells().len());
    let (w, h) = (g.width() as isize, g.height() as isize);
    let in_class = |x: isize, y: isize| {
        if (1..=w).contains(&x) && (1..=h).contains(&y) {
            tile.class[g.get(Pos {
                x: x as usize,
                y: y as usize,
            }) as usize]
        } else {
            tile.edge
        }
    };
    for (i, &mask) in got.iter().enumerate() {
        let p = g.pos(i);
        let (x, y) = (p.x as isize, p.y as isize);
        if !in_class(x, y) {
            assert_eq!(mask, None, "{p:?} is not of the class");
            continue;
        }
        let all = (0..8)
            .filter(|&bit| in_class(x + COMPASS[bit].0, y + COMPASS[bit].1))
            .fold(0u8, |m, bit| m | 1 << bit);
        let sides = all & (N | E | S | W);
        let want = match tile.mode {
            Mode::Eight => all,
            Mode::Four => sides,
            Mode::Blob => {
                let corners = [(NE, N, E), (SE, S, E), (SW, S, W), (NW, N, W)];
                let blob = corners.iter().fold(sides, |m, &(corner, a, b)| {
                    let joined = all & corner != 0 && sides & a != 0 && sides & b != 0;
                    m | if joined { corner } else { 0 }
                });
                let rank = BLOB.iter().position(|&m| m == blob);
                let rank = rank.expect("a blob mask is one of the 47") as u8;
                if tile.index {
                    rank
                } else {
                    blob
                }
            }
        };
        assert_eq!(mask, Some(want), "{p:?} {tile:?}");
    }
    Ok(())
}

// Light and noise.

fn check_light(u: &mut Unstructured, g: &Grid) -> Result<()> {
    let size = (g.width(), g.height());
    let opaque = draw::byte_set_of(u, CHARS)?;
    let mut lights = Vec::new();
    for _ in 0..u.int_in_range(0..=5)? {
        let radius = match u.int_in_range(0..=2u8)? {
            0 => u.int_in_range(0..=12)?,
            1 => *u.choose(&[u64::MAX, 1 << 53, 4000])?,
            _ => u.arbitrary()?,
        };
        let color = match u.arbitrary::<bool>()? {
            true => Some([u.int_in_range(0..=10u8)?, 3, 10].map(|c| f64::from(c) / 10.0)),
            false => None,
        };
        lights.push(Light {
            pos: cell(u, g)?,
            radius,
            intensity: f64::from(u.int_in_range(0..=40u8)?) / 10.0,
            color,
        });
    }
    let ambient = Ambient::Grey(f64::from(u.int_in_range(0..=10u8)?) / 10.0);
    let whole = Rect::whole(size);
    let lit = light(size, g, whole, &lights, &opaque, ambient);
    let Ambient::Grey(base) = ambient else {
        unreachable!()
    };
    for (k, channel) in lit.iter().enumerate() {
        for (i, &v) in channel.iter().enumerate() {
            let p = g.pos(i);
            assert!((0.0..=1.0).contains(&v), "{v} at {p:?}");
            let mut want = base;
            for l in &lights {
                let r = l.radius.min((size.0 + size.1) as u64) as usize;
                if visible(g, l.pos, Some(r), &opaque)[i] {
                    let (dx, dy) = (p.x.abs_diff(l.pos.x), p.y.abs_diff(l.pos.y));
                    let share = l.share(((dx * dx + dy * dy) as f64).sqrt());
                    want += match (lit.len(), l.color) {
                        (3, Some(c)) => share * c[k],
                        _ => share,
                    };
                }
            }
            assert_eq!(v, want.min(1.0), "{p:?} channel {k}");
        }
    }
    if let Some(area) = lights
        .iter()
        .map(|l| l.window(size))
        .reduce(|a, b| a.union(&b))
    {
        let mut cells = Vec::new();
        for y in area.y..area.y + area.h {
            let start = g.index(Pos { x: area.x, y });
            cells.extend_from_slice(&g.cells()[start..start + area.w]);
        }
        let part = Grid::from_cells(area.w, area.h, cells);
        assert_eq!(light(size, &part, area, &lights, &opaque, ambient), lit);
    }
    Ok(())
}

fn check_noise(u: &mut Unstructured) -> Result<()> {
    let settings = Settings {
        seed: u.arbitrary()?,
        kind: *u.choose(&[noise::Kind::Simplex, noise::Kind::Perlin])?,
        octaves: u.int_in_range(1..=noise::MAX_OCTAVES)?,
        frequency: f64::from(u.int_in_range(1..=1u32 << 20)?)
            / f64::from(u.int_in_range(1..=4096u32)?),
        persistence: f64::from(u.int_in_range(0..=100u8)?) / 100.0,
        lacunarity: f64::from(u.int_in_range(100..=1600u16)?) / 100.0,
    };
    let n = Noise::new(settings);
    let coordinate = |u: &mut Unstructured| -> Result<f64> {
        let c: f64 = u.arbitrary()?;
        Ok(if c.is_finite() && c.abs() <= noise::MAX_COORDINATE {
            c
        } else {
            0.5
        })
    };
    for _ in 0..8 {
        let (x, y) = (coordinate(u)?, coordinate(u)?);
        let v = n.get(x, y);
        assert!((-1.0..=1.0).contains(&v), "{v} at ({x}, {y})");
        assert_eq!(v.to_bits(), n.get(x, y).to_bits());
    }
    let (x0, y0) = (
        Origin::Float(coordinate(u)?),
        Origin::Int(u.int_in_range(-1000..=1000)?),
    );
    let (w, h) = (u.int_in_range(1..=8)?, u.int_in_range(1..=8)?);
    let g = n.grid(w, h, x0, y0);
    for y in 1..=h {
        for x in 1..=w {
            assert_eq!(
                g[(y - 1) * w + x - 1].to_bits(),
                n.get(x0.at(x), y0.at(y)).to_bits()
            );
        }
    }
    Ok(())
}

/// `analyze` on any grid and walk: the regions hold every open cell once,
/// a chokepoint is open and cuts off fewer cells than its region holds, a
/// dead end is open, and `@`'s farthest cell is in its region.
fn check_analyze(u: &mut Unstructured, g: &Grid) -> Result<()> {
    let w = walk(u)?;
    let a = analyze(g, &w, &[], None);
    let open_cells = g
        .cells()
        .iter()
        .filter(|&&c| !w.blocked[c as usize])
        .count();
    assert_eq!(a.regions.iter().map(|r| r.size).sum::<usize>(), open_cells);
    let largest = a.regions.iter().map(|r| r.size).max().unwrap_or(0);
    for c in &a.chokepoints {
        assert!(open(g, &w, c.pos) && c.cut < largest);
    }
    assert!(a.dead_ends.iter().all(|&p| open(g, &w, p)));
    assert_eq!(a.farthest.is_some(), a.player_region.is_some());
    Ok(())
}

fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    let Ok(g) = draw::grid(&mut u, CHARS, 2000) else {
        return;
    };
    let _ = match u.int_in_range(0..=7u8).unwrap_or(0) {
        0 => check_fov(&mut u, &g),
        1 => check_walks(&mut u, &g),
        2 => check_limits(&mut u, &g),
        3 => check_autotile(&mut u, &g),
        4 => check_light(&mut u, &g),
        5 => check_noise(&mut u),
        6 => check_analyze(&mut u, &g),
        _ => check_turns(&mut u, &g),
    };
});
