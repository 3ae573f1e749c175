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
//!   SW, NW order is a legal step on a shortest path).

#![no_main]

use libfuzzer_sys::arbitrary::{Result, Unstructured};
use libfuzzer_sys::fuzz_target;

#[path = "../../tests/support/oracle.rs"]
mod oracle;

use oracle::{around, check_window, cost_of, legal};

use map::grid::{byte_set, ByteSet, Grid, Pos};
use map::toolkit::board::{Walk, MAX_COST, UNREACHED};
use map::toolkit::distances::distances;
use map::toolkit::fov::visible;
use map::toolkit::path::{path, NoPath};

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

fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    let Ok(g) = grid(&mut u) else { return };
    let _ = if u.arbitrary().unwrap_or(false) {
        check_fov(&mut u, &g)
    } else {
        check_walks(&mut u, &g)
    };
});
