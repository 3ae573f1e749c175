//! Placing a game's own things (`place`): each entry's `count` cells of its
//! character on distinct free floor cells, at a walking distance of at least
//! `min` from `@`, and with `hidden` out of `@`'s sight.

use std::collections::HashMap;

use crate::grid::{byte_set, steps, ByteSet, Grid, Pos, FLOOR};
use crate::input::{int_in, Arg, MAX_CELLS};
use crate::rng::Rng;
use crate::toolkit::flood::{walk, Step};
use crate::toolkit::fov;

/// The most entries one call may give.
pub const MAX_ENTRIES: usize = 100;
/// The most cells all entries together may ask for (as items: their Lua
/// tables stay a few MiB).
pub const MAX_PLACED: usize = 10_000;

/// Characters no entry may place: the map's own.
const RESERVED: &[u8] = b"#.@>+ ";

/// One entry, checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placement {
    pub char: u8,
    pub count: usize,
    pub min: usize,
    pub hidden: bool,
}

/// One placed cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placed {
    pub char: u8,
    pub pos: Pos,
}

impl Placement {
    /// Entry `n` (1-based, for messages) from the values given for its
    /// fields (`Missing`: `count` 1, `min` 0, `hidden` false; `char` is
    /// required).
    pub fn new(
        n: usize,
        char: Arg,
        count: Arg,
        min: Arg,
        hidden: Arg,
    ) -> Result<Placement, String> {
        let name = format!("place[{n}]");
        let char = match char {
            Arg::Str(&[c]) if (b'!'..=b'~').contains(&c) && !RESERVED.contains(&c) => c,
            other => {
                return Err(format!(
                    "{name}.char must be one printable ASCII character but # . @ > + and space, got {other}"
                ))
            }
        };
        let count = match count {
            Arg::Missing => 1,
            arg => int_in(&format!("{name}.count"), arg, 0, MAX_PLACED as i64)? as usize,
        };
        let min = match min {
            Arg::Missing => 0,
            arg => int_in(&format!("{name}.min"), arg, 0, MAX_CELLS as i64)? as usize,
        };
        let hidden = match hidden {
            Arg::Missing => false,
            Arg::Bool(b) => b,
            other => return Err(format!("{name}.hidden must be a boolean, got {other}")),
        };
        Ok(Placement {
            char,
            count,
            min,
            hidden,
        })
    }

    /// What its cells must be, for messages.
    fn wanted(&self) -> String {
        let mut s = String::from("free floor cells");
        if self.min > 0 {
            s += &format!(" at walking distance >= {} from @", self.min);
        }
        if self.hidden {
            s += if self.min > 0 {
                " and hidden from it"
            } else {
                " hidden from @"
            };
        }
        s
    }
}

/// A cell's distance from `@` when it cannot be walked to (distances are
/// below `MAX_CELLS`, far below this).
pub const FAR: u32 = u32::MAX >> 1;

/// Whether some entry has a `min` (and so needs `walking_distances`).
pub fn needs_distances(entries: &[Placement]) -> bool {
    entries.iter().any(|e| e.count > 0 && e.min > 0)
}
/// With a floor cell's distance: `@` sees it.
const SEEN: u32 = 1 << 31;

/// Puts every entry's cells on `grid`, entry by entry in order: its
/// candidates are the `.` cells that pass its filters, in row order, and
/// its `count` cells are a partial Fisher-Yates shuffle of them (slot `k`
/// swaps with slot `rng.range(k, candidates - 1)`), so each entry draws
/// `count` times. Distances (4-neighbour walks through every cell but `#`)
/// and sight (symmetric, unlimited, `#` and `+` opaque) are taken from
/// `start` once, before the first entry: placed cells neither block a walk
/// nor sight. `dist` holds the distances (`walking_distances` from `start`)
/// when any entry has a `min`.
pub fn place(
    grid: &mut Grid,
    start: Pos,
    entries: &[Placement],
    dist: Option<&[u32]>,
    rng: &mut Rng,
) -> Result<Vec<Placed>, String> {
    if entries.iter().all(|e| e.count == 0) {
        return Ok(Vec::new());
    }
    let seen = entries
        .iter()
        .any(|e| e.hidden)
        .then(|| fov::visible(grid, start, None, &byte_set(b"#+")));
    let mut floor = Floor::new(grid, dist, seen.as_deref());
    drop(seen);
    let mut placed = Vec::with_capacity(entries.iter().map(|e| e.count).sum());
    for (n, entry) in entries.iter().enumerate() {
        if entry.count == 0 {
            continue;
        }
        let candidates = floor.candidates(entry);
        if candidates.len() < entry.count {
            return Err(format!(
                "place[{}]: cannot place {} {}: only {} {}",
                n + 1,
                entry.count,
                crate::input::quoted(&[entry.char]),
                candidates.len(),
                entry.wanted()
            ));
        }
        // The shuffle's slots, read lazily: a slot not swapped yet holds
        // the candidate of its rank.
        let mut swapped: HashMap<usize, usize> = HashMap::with_capacity(entry.count);
        let mut taken = Vec::with_capacity(entry.count);
        for k in 0..entry.count {
            let pick = rng.range(k, candidates.len() - 1);
            let at = |slot: usize| {
                swapped
                    .get(&slot)
                    .copied()
                    .unwrap_or_else(|| candidates.nth(slot))
            };
            let (kept, moved) = (at(pick), at(k));
            swapped.insert(pick, moved);
            taken.push(kept);
            let pos = grid.pos(floor.cells[kept].0 as usize);
            grid.set(pos, entry.char);
            placed.push(Placed {
                char: entry.char,
                pos,
            });
        }
        for t in taken {
            floor.cells[t].1 = FAR;
        }
    }
    Ok(placed)
}

/// The floor cells (row order) with a key each: the distance from `@`
/// (`FAR` when none leads there, or once a cell is placed on), with `SEEN`
/// added when `@` sees it.
struct Floor {
    cells: Vec<(u32, u32)>,
}

/// A block of floor cells counted at once by `Candidates`.
const BLOCK: usize = 256;

/// One entry's candidates: how many pass its filter before each block of
/// the floor, so that the one of rank `k` is found without listing them.
struct Candidates<'a> {
    floor: &'a [(u32, u32)],
    entry: Placement,
    before: Vec<usize>,
}

impl Floor {
    fn new(grid: &Grid, dist: Option<&[u32]>, seen: Option<&[bool]>) -> Floor {
        let cells = grid.cells();
        let mut floor = Vec::with_capacity(cells.iter().filter(|&&c| c == FLOOR).count());
        for (i, _) in cells.iter().enumerate().filter(|&(_, &c)| c == FLOOR) {
            let d = dist.map_or(0, |d| d[i]);
            let s = seen.is_some_and(|s| s[i]);
            floor.push((i as u32, d | if s { SEEN } else { 0 }));
        }
        Floor { cells: floor }
    }

    fn candidates(&self, entry: &Placement) -> Candidates<'_> {
        let mut before = Vec::with_capacity(self.cells.len() / BLOCK + 2);
        let mut total = 0;
        before.push(0);
        for block in self.cells.chunks(BLOCK) {
            total += block.iter().filter(|&&(_, key)| passes(entry, key)).count();
            before.push(total);
        }
        Candidates {
            floor: &self.cells,
            entry: *entry,
            before,
        }
    }
}

/// Whether a floor cell of `key` is a candidate for `entry`: at least
/// `min` steps away, seen or not as `hidden` asks, not placed on.
fn passes(entry: &Placement, key: u32) -> bool {
    let k = if entry.hidden { key } else { key & !SEEN };
    k >= entry.min as u32 && k < FAR
}

impl Candidates<'_> {
    fn len(&self) -> usize {
        *self.before.last().expect("one count at least")
    }

    /// The position in the floor of the candidate of rank `k` (row order).
    fn nth(&self, k: usize) -> usize {
        let block = self.before.partition_point(|&n| n <= k) - 1;
        let start = block * BLOCK;
        let rank = k - self.before[block];
        let (offset, _) = self.floor[start..]
            .iter()
            .enumerate()
            .filter(|&(_, &(_, key))| passes(&self.entry, key))
            .nth(rank)
            .expect("the block holds it");
        start + offset
    }
}

/// Steps from `start` to every cell, through every cell but `#`; `FAR`
/// where none lead. The border must be wall (as on every level made), so
/// that no step from a walkable cell leaves the grid.
pub fn walking_distances(grid: &Grid, start: Pos) -> Vec<u32> {
    walking_distances_by(grid, start, &byte_set(b"#"))
}

/// `walking_distances` through every cell but those of `blocked`, which
/// the border's cells must be.
pub fn walking_distances_by(grid: &Grid, start: Pos, blocked: &ByteSet) -> Vec<u32> {
    let (cells, n) = (grid.cells(), grid.cells().len());
    let mut dist = vec![FAR; n];
    let mut queue: Vec<u32> = Vec::with_capacity(n);
    let first = grid.index(start);
    dist[first] = 0;
    queue.push(first as u32);
    walk(&mut queue, steps(grid.width()), |from, j, _| {
        if dist[j] == FAR && !blocked[cells[j] as usize] {
            dist[j] = dist[from] + 1;
            Step::Enter
        } else {
            Step::Skip
        }
    });
    dist
}

/// An entry of `place`, for the tests.
#[cfg(test)]
pub(crate) fn entry(char: u8, count: usize, min: usize, hidden: bool) -> Placement {
    Placement {
        char,
        count,
        min,
        hidden,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::WALL;

    #[test]
    fn entries_are_checked() {
        let p = |c: Arg, n: Arg, m: Arg, h: Arg| Placement::new(3, c, n, m, h);
        let one = |c: Arg| p(c, Arg::Missing, Arg::Missing, Arg::Missing);
        assert_eq!(one(Arg::Str(b"M")), Ok(entry(b'M', 1, 0, false)));
        for bad in [
            &b"#"[..],
            b".",
            b"@",
            b">",
            b"+",
            b" ",
            b"MM",
            b"",
            b"\t",
            b"\x7f",
        ] {
            assert!(one(Arg::Str(bad))
                .unwrap_err()
                .starts_with("place[3].char must be one printable ASCII character"));
        }
        assert_eq!(
            one(Arg::Missing).unwrap_err(),
            "place[3].char must be one printable ASCII character but # . @ > + and space, got nil"
        );
        let m = Arg::Str(b"M");
        assert_eq!(
            p(m, Arg::Int(10_001), Arg::Missing, Arg::Missing).unwrap_err(),
            "place[3].count must be an integer from 0 to 10000, got 10001"
        );
        assert_eq!(
            p(m, Arg::Missing, Arg::Int(-1), Arg::Missing).unwrap_err(),
            "place[3].min must be an integer from 0 to 4000000, got -1"
        );
        assert_eq!(
            p(m, Arg::Missing, Arg::Missing, Arg::Int(1)).unwrap_err(),
            "place[3].hidden must be a boolean, got 1"
        );
    }

    #[test]
    fn filters_distance_and_sight() {
        // @ at (2,2) sees along row 2 and into the room; the corridor behind
        // the door and its end are hidden.
        let g = Grid::from_rows(&[
            "##########",
            "#@.......#",
            "#........#",
            "#####+####",
            "#####.####",
            "#####....#",
            "##########",
        ]);
        for seed in 0..50 {
            let mut m = g.clone();
            let entries = [entry(b'M', 3, 0, true), entry(b'k', 2, 8, false)];
            let dist = walking_distances(&g, Pos { x: 2, y: 2 });
            let placed = place(
                &mut m,
                Pos { x: 2, y: 2 },
                &entries,
                Some(&dist),
                &mut Rng::new(seed),
            )
            .unwrap();
            assert_eq!(placed.len(), 5);
            let seen = fov::visible(&g, Pos { x: 2, y: 2 }, None, &byte_set(b"#+"));
            for p in &placed {
                let i = g.index(p.pos);
                assert_eq!(m.get(p.pos), p.char);
                assert_eq!(g.get(p.pos), FLOOR);
                if p.char == b'M' {
                    assert!(!seen[i], "{p:?} is in sight");
                } else {
                    assert!(dist[i] >= 8, "{p:?} is near");
                }
            }
            let mut cells: Vec<usize> = placed.iter().map(|p| g.index(p.pos)).collect();
            cells.sort_unstable();
            cells.dedup();
            assert_eq!(cells.len(), 5);
        }
        let dist = walking_distances(&g, Pos { x: 2, y: 2 });
        let err = place(
            &mut g.clone(),
            Pos { x: 2, y: 2 },
            &[entry(b'M', 6, 2, true)],
            Some(&dist),
            &mut Rng::new(1),
        );
        assert_eq!(
            err.unwrap_err(),
            "place[1]: cannot place 6 \"M\": only 5 free floor cells at walking distance >= 2 from @ \
             and hidden from it"
        );
    }

    /// The shuffle as first written: every candidate listed, then swapped.
    fn listed(grid: &mut Grid, start: Pos, entries: &[Placement], rng: &mut Rng) -> Vec<Placed> {
        let dist = walking_distances(grid, start);
        let seen = fov::visible(grid, start, None, &byte_set(b"#+"));
        let mut placed = Vec::new();
        for entry in entries {
            let mut candidates: Vec<usize> = (0..grid.cells().len())
                .filter(|&i| {
                    grid.cells()[i] == FLOOR
                        && dist[i] != FAR
                        && dist[i] as usize >= entry.min
                        && !(entry.hidden && seen[i])
                })
                .collect();
            for k in 0..entry.count {
                let pick = rng.range(k, candidates.len() - 1);
                candidates.swap(k, pick);
                let pos = grid.pos(candidates[k]);
                grid.set(pos, entry.char);
                placed.push(Placed {
                    char: entry.char,
                    pos,
                });
            }
        }
        placed
    }

    #[test]
    fn the_lazy_shuffle_draws_what_a_listed_one_draws() {
        // Pillars to hide behind, over many blocks of floor.
        let mut g = Grid::new(90, 70, FLOOR);
        for i in 0..g.cells().len() {
            let p = g.pos(i);
            if p.x == 1
                || p.y == 1
                || p.x == 90
                || p.y == 70
                || (p.x.is_multiple_of(7) && p.y.is_multiple_of(3))
            {
                g.set_at(i, WALL);
            }
        }
        let start = Pos { x: 2, y: 2 };
        let entries = [
            entry(b'M', 300, 20, true),
            entry(b'k', 1, 0, false),
            entry(b'g', 500, 60, false),
            entry(b'M', 40, 3, true),
        ];
        for seed in 0..20 {
            let (mut a, mut b) = (g.clone(), g.clone());
            let dist = walking_distances(&g, start);
            let lazy = place(&mut a, start, &entries, Some(&dist), &mut Rng::new(seed)).unwrap();
            assert_eq!(lazy, listed(&mut b, start, &entries, &mut Rng::new(seed)));
            assert_eq!(a, b);
        }
    }
}
