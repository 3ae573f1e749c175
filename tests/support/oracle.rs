//! Reference searches, written the plain way, for the tests and the fuzz
//! targets (`fuzz/` includes this file): what the toolkit's searches must
//! agree with. They share nothing with the code they check.

#![allow(dead_code)]

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};

use map::grid::{byte_set, FLOOR};
use map::grid::{ByteSet, Grid, Pos, Rect, GOLD, PLAYER, POTION, STAIRS, WALL};
use map::level::vaults::{Template, KEEP};
use map::level::{Level, Params};
use map::toolkit::board::Walk;
use map::toolkit::fov;
use map::toolkit::fov::visible;
use map::toolkit::reach::Unreachable;

/// The eight steps in the tie order of `path`: N, E, S, W, NE, SE, SW, NW
/// (north is row `y - 1`).
pub const ORDER: [(i64, i64); 8] = [
    (0, -1),
    (1, 0),
    (0, 1),
    (-1, 0),
    (1, -1),
    (1, 1),
    (-1, 1),
    (-1, -1),
];

/// The cells one step from `p` inside the grid, in the tie order: the four
/// orthogonal ones, and the diagonal ones too with `diagonal`.
pub fn around(g: &Grid, p: Pos, diagonal: bool) -> Vec<Pos> {
    let n = if diagonal { 8 } else { 4 };
    ORDER[..n]
        .iter()
        .map(|&(dx, dy)| (p.x as i64 + dx, p.y as i64 + dy))
        .filter(|&(x, y)| x >= 1 && y >= 1)
        .map(|(x, y)| Pos {
            x: x as usize,
            y: y as usize,
        })
        .filter(|&q| g.contains(q))
        .collect()
}

/// The walk's step rule written out again: `b` is a neighbour of `a` (as
/// `around` gives them), open (or `also`), and a diagonal step passes
/// between two open cells.
pub fn legal(g: &Grid, walk: &Walk, a: Pos, b: Pos, also: Option<Pos>) -> bool {
    let open = |p: Pos| !walk.blocked[g.get(p) as usize];
    let (dx, dy) = (a.x.abs_diff(b.x), a.y.abs_diff(b.y));
    let adjacent = match dx + dy {
        1 => true,
        2 => walk.diagonal && dx == 1,
        _ => false,
    };
    let corners = dx + dy == 1 || (open(Pos { x: a.x, y: b.y }) && open(Pos { x: b.x, y: a.y }));
    adjacent && (open(b) || Some(b) == also) && corners
}

/// The cost of entering `p` under `walk`.
pub fn cost_of(g: &Grid, walk: &Walk, p: Pos) -> u64 {
    walk.cost.as_ref().map_or(1, |c| c[g.get(p) as usize])
}

/// The least value of each cell under `walk`: over the sources (a cell
/// and its start value), the start value plus the cost of the cheapest
/// walk from it by `legal` steps, written as a plain Dijkstra over a
/// binary heap. A source counts even on a blocked cell (it is left, never
/// entered). `None` where no walk leads.
pub fn least_values(g: &Grid, walk: &Walk, sources: &[(Pos, i64)]) -> Vec<Option<i64>> {
    let mut best: Vec<Option<i64>> = vec![None; g.cells().len()];
    let mut heap = BinaryHeap::new();
    for &(p, v) in sources {
        let i = g.index(p);
        if best[i].is_none_or(|b| v < b) {
            best[i] = Some(v);
            heap.push(Reverse((v, i)));
        }
    }
    while let Some(Reverse((v, i))) = heap.pop() {
        if best[i] != Some(v) {
            continue;
        }
        let p = g.pos(i);
        for q in around(g, p, walk.diagonal) {
            if !legal(g, walk, p, q, None) {
                continue;
            }
            let (j, next) = (g.index(q), v + cost_of(g, walk, q) as i64);
            if best[j].is_none_or(|b| next < b) {
                best[j] = Some(next);
                heap.push(Reverse((next, j)));
            }
        }
    }
    best
}

/// Breadth-first walking distances from `start`, 4 neighbours, into any
/// cell but `#`: the walk of a generated level. `None` where none leads.
pub fn walk_distances(g: &Grid, start: Pos) -> Vec<Option<u32>> {
    walk_distances_by(g, start, &[WALL])
}

/// `walk_distances` through every cell but those of `blocked`.
pub fn walk_distances_by(g: &Grid, start: Pos, blocked: &[u8]) -> Vec<Option<u32>> {
    let mut dist = vec![None; g.cells().len()];
    dist[g.index(start)] = Some(0);
    let mut queue = VecDeque::from([start]);
    while let Some(p) = queue.pop_front() {
        let next = dist[g.index(p)].map(|d| d + 1);
        for q in around(g, p, false) {
            let j = g.index(q);
            if dist[j].is_none() && !blocked.contains(&g.get(q)) {
                dist[j] = next;
                queue.push_back(q);
            }
        }
    }
    dist
}

/// The cell with the longest walk from `start` among those `wanted`, the
/// first in row order on a tie; `start` when no other wanted cell is
/// farther (the rule for `>`).
pub fn farthest(g: &Grid, start: Pos, wanted: impl Fn(Pos) -> bool) -> Pos {
    let dist = walk_distances(g, start);
    let mut best = (0, start);
    for (i, d) in dist.iter().enumerate() {
        let p = g.pos(i);
        if let Some(d) = *d {
            if wanted(p) && d > best.0 {
                best = (d, p);
            }
        }
    }
    best.1
}

/// `reach::check` done the plain way: can the first `@` walk to every
/// `>`, `$` and `!`?
pub fn reachability(g: &Grid) -> Result<(), Unreachable> {
    let cells = g.cells();
    let start = cells
        .iter()
        .position(|&c| c == PLAYER)
        .ok_or(Unreachable::NoPlayer)?;
    let dist = walk_distances(g, g.pos(start));
    let targets: Vec<(u8, Pos)> = (0..cells.len())
        .filter(|&i| matches!(cells[i], STAIRS | GOLD | POTION) && dist[i].is_none())
        .map(|i| (cells[i], g.pos(i)))
        .collect();
    if targets.is_empty() {
        Ok(())
    } else {
        Err(Unreachable::Cut {
            player: g.pos(start),
            targets,
        })
    }
}

/// The `(2r+1)x(2r+1)` window around `origin`, clipped to the grid (what
/// the binding hands `fov` with a radius), the origin's position in it,
/// and its top-left corner's offset.
pub fn window(g: &Grid, origin: Pos, r: usize) -> (Grid, Pos, (usize, usize)) {
    let (x0, y0) = (
        origin.x.saturating_sub(r).max(1),
        origin.y.saturating_sub(r).max(1),
    );
    let (x1, y1) = (
        origin.x.saturating_add(r).min(g.width()),
        origin.y.saturating_add(r).min(g.height()),
    );
    let mut cells = Vec::new();
    for y in y0..=y1 {
        for x in x0..=x1 {
            cells.push(g.get(Pos { x, y }));
        }
    }
    let w = Grid::from_cells(x1 - x0 + 1, y1 - y0 + 1, cells);
    let o = Pos {
        x: origin.x - x0 + 1,
        y: origin.y - y0 + 1,
    };
    (w, o, (x0 - 1, y0 - 1))
}

/// Whether two rooms keep a wall between them: a gap of at least one
/// column or one row.
pub fn apart(a: &Rect, b: &Rect) -> bool {
    a.x + a.w < b.x || b.x + b.w < a.x || a.y + a.h < b.y || b.y + b.h < a.y
}

/// Asserts that `fov` with radius `r` on the window around `origin` (what
/// the binding hands it) sees what `on_the_map` says, the same call on the
/// whole grid.
pub fn check_window(
    g: &Grid,
    origin: Pos,
    r: usize,
    opaque: &ByteSet,
    on_the_map: &[bool],
    case: &str,
) {
    let (w, o, (ox, oy)) = window(g, origin, r);
    let small = visible(&w, o, Some(r), opaque);
    for (i, &s) in small.iter().enumerate() {
        let p = w.pos(i);
        let q = Pos {
            x: p.x + ox,
            y: p.y + oy,
        };
        assert_eq!(
            s,
            on_the_map[g.index(q)],
            "{case}: window, radius {r}: {q:?}"
        );
    }
}

/// The cell of `t` at `(x, y)` of its copy turned by `rotation`, by the
/// documented rule written out case by case (0-3 quarter turns clockwise,
/// 4-7 the same after a mirror left to right).
pub fn turned(t: &Template, rotation: u8, x: usize, y: usize) -> u8 {
    let (w, h) = (t.width, t.height);
    let (sx, sy) = match rotation {
        0 => (x, y),
        1 => (y, h - 1 - x),
        2 => (w - 1 - x, h - 1 - y),
        3 => (w - 1 - y, x),
        4 => (w - 1 - x, y),
        5 => (w - 1 - y, h - 1 - x),
        6 => (x, h - 1 - y),
        _ => (y, x),
    };
    t.cells[sy * w + sx]
}

/// No two doors touch; every room's exits are its walkable ring cells in row
/// order; links are symmetric, ascending, other rooms.
pub fn check_doors_and_exits(level: &Level, case: &str) {
    let g = &level.grid;
    for (i, a) in level.doors.iter().enumerate() {
        for b in &level.doors[i + 1..] {
            let touch = a.x.abs_diff(b.x) <= 1 && a.y.abs_diff(b.y) <= 1;
            assert!(!touch, "{case}: doors {a:?} and {b:?} touch");
        }
    }
    let n = level.rooms.len();
    assert_eq!(level.exits.exits.len(), n, "{case}: exits per room");
    for (r, room) in level.rooms.iter().enumerate() {
        let mut ring = Vec::new();
        for y in room.y - 1..=room.y + room.h {
            for x in room.x - 1..=room.x + room.w {
                let across = (room.x..room.x + room.w).contains(&x);
                let down = (room.y..room.y + room.h).contains(&y);
                let p = Pos { x, y };
                if across != down && g.get(p) != WALL {
                    ring.push(p);
                }
            }
        }
        assert_eq!(level.exits.exits[r], ring, "{case}: room {r}'s exits");
        let links = &level.exits.links[r];
        assert!(links.windows(2).all(|l| l[0] < l[1]), "{case}: links order");
        for &l in links {
            assert!(
                (l as usize) < n && l as usize != r,
                "{case}: link {l} of {r}"
            );
            assert!(
                level.exits.links[l as usize].contains(&(r as u32)),
                "{case}: {r} links {l}, not back"
            );
        }
    }
}

/// Whether `p` is in one of the vaults of `level`.
pub fn in_vault(level: &Level, p: Pos) -> bool {
    level.vaults.iter().any(|v| v.rect.cells().any(|q| q == p))
}

pub fn check_vaults(level: &Level, params: &Params, case: &str) {
    let g = &level.grid;
    let (w, h) = (g.width(), g.height());
    let copies: usize = params.design.vaults.iter().map(|t| t.count).sum();
    assert!(
        level.vaults.len() <= copies,
        "{case}: more vaults than copies"
    );
    let first = level.rooms.len() - level.vaults.len();
    for (k, v) in level.vaults.iter().enumerate() {
        let r = v.rect;
        assert_eq!(
            level.rooms[first + k],
            r,
            "{case}: vault {k} is not its room"
        );
        assert!(
            r.x >= 3 && r.y >= 3 && r.x + r.w < w && r.y + r.h < h,
            "{case}: {r:?} not a cell inside the border"
        );
        for other in &level.vaults[k + 1..] {
            assert!(apart(&r, &other.rect), "{case}: vaults touch");
        }
        let t = &params.design.vaults[v.index];
        assert!(
            v.rotation < 8 && (t.rotate || v.rotation == 0),
            "{case}: rotation"
        );
        let (tw, th) = if v.rotation % 2 == 1 {
            (t.height, t.width)
        } else {
            (t.width, t.height)
        };
        assert_eq!((r.w, r.h), (tw, th), "{case}: vault size");
        for y in 0..r.h {
            for x in 0..r.w {
                let want = turned(t, v.rotation, x, y);
                let got = g.get(Pos {
                    x: r.x + x,
                    y: r.y + y,
                });
                assert!(
                    want == KEEP || want == got,
                    "{case}: vault {k} cell ({x},{y}) is {} not {}",
                    got as char,
                    want as char
                );
            }
        }
    }
}

/// The placed cells: their characters, distinct cells of the floor outside
/// the vaults, far enough from `@` and out of its sight where asked.
pub fn check_placed(level: &Level, params: &Params, dist: &[Option<u32>], case: &str) {
    let g = &level.grid;
    let seen = fov::visible(g, level.player, None, &byte_set(b"#+"));
    let wanted: usize = params.design.place.iter().map(|p| p.count).sum();
    assert_eq!(level.placed.len(), wanted, "{case}: placed count");
    let mut taken: Vec<usize> = level.items.iter().map(|i| g.index(i.pos)).collect();
    taken.extend([g.index(level.player), g.index(level.stairs)]);
    let mut k = 0;
    for entry in &params.design.place {
        for p in &level.placed[k..k + entry.count] {
            let i = g.index(p.pos);
            assert_eq!((p.char, g.get(p.pos)), (entry.char, entry.char), "{case}");
            assert!(!in_vault(level, p.pos), "{case}: {p:?} in a vault");
            assert!(!taken.contains(&i), "{case}: {p:?} on a taken cell");
            assert!(
                dist[i].unwrap() as usize >= entry.min,
                "{case}: {p:?} too near"
            );
            assert!(!entry.hidden || !seen[i], "{case}: {p:?} in sight");
            taken.push(i);
        }
        k += entry.count;
    }
}

/// `>`: a vault's, or on the floor outside the vaults farthest from `@`
/// (the first in row order on a tie), or the generator's own.
pub fn check_stairs(level: &Level, params: &Params, dist: &[Option<u32>], case: &str) {
    let g = &level.grid;
    if in_vault(level, level.stairs) || params.design.arrive.is_none() {
        return;
    }
    let placed: Vec<Pos> = level.placed.iter().map(|p| p.pos).collect();
    let was_floor = |i: usize| {
        let p = g.pos(i);
        !in_vault(level, p)
            && (matches!(g.cells()[i], FLOOR | GOLD | POTION | STAIRS) || placed.contains(&p))
    };
    let best = (0..g.cells().len())
        .filter(|&i| was_floor(i) && dist[i].is_some())
        .max_by_key(|&i| (dist[i], std::cmp::Reverse(i)))
        .map(|i| g.pos(i));
    assert_eq!(
        best,
        Some(level.stairs),
        "{case}: > is not the farthest floor"
    );
}
