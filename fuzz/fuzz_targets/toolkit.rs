//! The toolkit under libFuzzer: `fov::visible`, `distance::distances` and
//! `path::path` on arbitrary hand-made grids (0 walls to all walls, raw bytes
//! or map characters, from 1x1 up to 64x64 or 1x2000 strips), arbitrary
//! opaque and blocked sets, both neighbourhoods, unit and arbitrary costs up
//! to `MAX_COST`, blocked and repeated sources.
//!
//! Nothing may panic; the invariants asserted:
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
//!   error.

#![no_main]

use libfuzzer_sys::arbitrary::{Result, Unstructured};
use libfuzzer_sys::fuzz_target;

#[path = "../../tests/support/oracle.rs"]
mod oracle;

use oracle::{around, check_window, cost_of, legal};

use map::grid::{byte_set, ByteSet, Grid, Pos};
use map::toolkit::board::{Limits, Source, Walk, BEYOND, MAX_COST, UNREACHED};
use map::toolkit::distances::{distances, distances_from};
use map::toolkit::explore::explore;
use map::toolkit::flee::{flee, scaled};
use map::toolkit::fov::visible;
use map::toolkit::line::line;
use map::toolkit::parse;
use map::toolkit::path::{path, path_within, NoPath};
use map::toolkit::sample::{sample, Filter, Near};
use map::toolkit::step::step;
use map::toolkit::visible::{along, visible as visible_between};

/// Characters a grid is usually drawn from.
const CHARS: &[u8] = b"#.~+@>$!";

fn grid(u: &mut Unstructured) -> Result<Grid> {
    let (w, h) = match u.int_in_range(0..=9u8)? {
        0 => (1, u.int_in_range(1..=2000)?),
        1 => (u.int_in_range(1..=2000)?, 1),
        2..=4 => (u.int_in_range(1..=8)?, u.int_in_range(1..=8)?),
        _ => (u.int_in_range(1..=64)?, u.int_in_range(1..=64)?),
    };
    let raw = u.ratio(1, 8)?;
    let walls: u8 = u.int_in_range(0..=100)?;
    let mut cells = Vec::with_capacity(w * h);
    for _ in 0..w * h {
        let b: u8 = u.arbitrary().unwrap_or(0);
        cells.push(if raw {
            b
        } else if u32::from(b) * 100 < u32::from(walls) * 256 {
            b'#'
        } else {
            CHARS[1 + b as usize % (CHARS.len() - 1)]
        });
    }
    Ok(Grid::from_cells(w, h, cells))
}

fn byte_set_of(u: &mut Unstructured) -> Result<ByteSet> {
    Ok(match u.int_in_range(0..=3u8)? {
        0 => byte_set(b"#"),
        1 => [false; 256],
        2 => {
            let mut set = byte_set(b"#");
            for &c in &CHARS[1..] {
                set[c as usize] = u.ratio(1, 4)?;
            }
            set
        }
        _ => {
            let n = u.int_in_range(0..=8)?;
            byte_set(u.bytes(n)?)
        }
    })
}

fn cell(u: &mut Unstructured, g: &Grid) -> Result<Pos> {
    Ok(g.pos(u.choose_index(g.cells().len())?))
}

fn walk(u: &mut Unstructured) -> Result<Walk> {
    let blocked = byte_set_of(u)?;
    let diagonal = u.arbitrary()?;
    let cost = if u.arbitrary()? {
        let mut cost = Box::new([1; 256]);
        let big = u.ratio(1, 4)?;
        for c in cost.iter_mut() {
            *c = if big {
                u.int_in_range(1..=MAX_COST)?
            } else {
                u.int_in_range(1..=9)?
            };
        }
        Some(cost)
    } else {
        None
    };
    Ok(Walk {
        blocked,
        diagonal,
        cost,
    })
}

// ---------------------------------------------------------------------------
// Field of view.

fn check_fov(u: &mut Unstructured, g: &Grid) -> Result<()> {
    let opaque = byte_set_of(u)?;
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
    let opaque = byte_set_of(u)?;
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
        chars: byte_set_of(u)?,
        from: Some(Near {
            pos: from,
            walk: w.clone(),
            min: u.int_in_range(0..=5)?,
            max: None,
        }),
        hidden: if u.arbitrary()? { Some(opaque) } else { None },
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

fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    let Ok(g) = grid(&mut u) else { return };
    let _ = match u.int_in_range(0..=3u8).unwrap_or(0) {
        0 => check_fov(&mut u, &g),
        1 => check_walks(&mut u, &g),
        2 => check_limits(&mut u, &g),
        _ => check_turns(&mut u, &g),
    };
});
