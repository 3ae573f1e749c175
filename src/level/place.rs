//! Placing a game's own things (`place`): each entry's `count` cells (or
//! `per_room` cells in each room) of its character (or one of `choose`,
//! drawn by weight) on distinct free floor cells, at a walking distance of
//! at least `min` from `@`, and with `hidden` out of `@`'s sight.

use std::collections::HashMap;

use crate::grid::{byte_set, steps, ByteSet, Grid, Pos, Rect, FLOOR};
use crate::rng::Rng;
use crate::toolkit::flood::{walk, Step};
use crate::toolkit::fov;

pub use super::placement::{
    choice, per_room, placed_char, Placement, MAX_CHOICES, MAX_ENTRIES, MAX_PLACED, MAX_WEIGHT,
};

/// One placed cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placed {
    pub char: u8,
    pub pos: Pos,
}

/// A cell's distance from `@` when it cannot be walked to (distances are
/// below `MAX_CELLS`, far below this).
pub const FAR: u32 = u32::MAX >> 1;

/// Whether some entry has a `min` (and so needs `walking_distances`).
pub fn needs_distances(entries: &[Placement]) -> bool {
    entries.iter().any(|e| e.asks() && e.min > 0)
}

/// An error when an entry asks for `per_room` cells on a level of no rooms
/// (`algorithm`'s).
pub fn check_rooms(entries: &[Placement], rooms: usize, algorithm: &str) -> Result<(), String> {
    match entries.iter().position(|e| e.per_room.is_some()) {
        Some(i) if rooms == 0 => Err(format!(
            "place[{}].per_room applies only to algorithms whose levels have rooms (m.rooms), \
             not to \"{algorithm}\"",
            i + 1
        )),
        _ => Ok(()),
    }
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
///
/// An entry with `per_room` does the same in each of `rooms` in turn, its
/// candidates those inside the room: first a draw of the room's count in
/// `least..=most`, then its cells. With `choose`, each cell's position is
/// followed by a draw of its character. Entries without either draw as
/// they always did.
pub fn place(
    grid: &mut Grid,
    start: Pos,
    entries: &[Placement],
    rooms: &[Rect],
    dist: Option<&[u32]>,
    rng: &mut Rng,
) -> Result<Vec<Placed>, String> {
    if !entries.iter().any(Placement::asks) {
        return Ok(Vec::new());
    }
    let seen = entries
        .iter()
        .any(|e| e.hidden)
        .then(|| fov::visible(grid, start, None, &byte_set(b"#+")));
    let mut floor = Floor::new(grid, dist, seen.as_deref());
    drop(seen);
    let asked: usize = entries.iter().map(|e| e.count).sum();
    let mut placed = Vec::with_capacity(asked);
    let starts = match entries.iter().any(|e| e.per_room.is_some()) {
        true => floor.row_starts(rooms),
        false => Vec::new(),
    };
    for (n, entry) in entries.iter().enumerate() {
        match entry.per_room {
            None if entry.count > 0 => {
                let candidates = floor.candidates(entry);
                let chosen = Chosen::new(entry, n, None, candidates.len())?;
                let taken = shuffle(
                    &chosen,
                    |k| candidates.nth(k),
                    grid,
                    &floor,
                    &mut placed,
                    rng,
                );
                floor.take(taken);
            }
            None => {}
            Some((least, most)) => {
                let mut row = 0;
                for (r, room) in rooms.iter().enumerate() {
                    let count = rng.range(least, most);
                    let inside = floor.inside(entry, room, &starts[row..row + room.h]);
                    row += room.h;
                    let chosen = Chosen::new(entry, n, Some((r, count)), inside.len())?;
                    let taken = shuffle(&chosen, |k| inside[k], grid, &floor, &mut placed, rng);
                    floor.take(taken);
                    if placed.len() > MAX_PLACED {
                        return Err(format!(
                            "place[{}].per_room: more than {MAX_PLACED} cells placed in all",
                            n + 1
                        ));
                    }
                }
            }
        }
    }
    Ok(placed)
}

/// One draw of an entry's cells: the entry and how many.
struct Chosen<'a> {
    entry: &'a Placement,
    count: usize,
    candidates: usize,
}

impl<'a> Chosen<'a> {
    /// Entry `n`'s (0-based) `count` cells, or `room`'s (index, count),
    /// among `candidates`: an error counting them when they are too few.
    fn new(
        entry: &'a Placement,
        n: usize,
        room: Option<(usize, usize)>,
        candidates: usize,
    ) -> Result<Chosen<'a>, String> {
        let (count, where_) = match room {
            None => (entry.count, String::new()),
            Some((r, count)) => (count, format!(" in room {}", r + 1)),
        };
        if candidates < count {
            return Err(format!(
                "place[{}]: cannot place {count} {}{where_}: only {candidates} {}",
                n + 1,
                entry.what(),
                entry.wanted()
            ));
        }
        Ok(Chosen {
            entry,
            count,
            candidates,
        })
    }
}

/// The partial Fisher-Yates shuffle of `chosen`'s candidates, each found
/// by rank with `nth` (a position in `floor`), its slots read lazily: a
/// slot not swapped yet holds the candidate of its rank. Sets each cell on
/// `grid`, lists it in `placed`, and returns the positions in `floor` taken.
fn shuffle(
    chosen: &Chosen,
    nth: impl Fn(usize) -> usize,
    grid: &mut Grid,
    floor: &Floor,
    placed: &mut Vec<Placed>,
    rng: &mut Rng,
) -> Vec<usize> {
    let mut swapped: HashMap<usize, usize> = HashMap::with_capacity(chosen.count);
    let mut taken = Vec::with_capacity(chosen.count);
    for k in 0..chosen.count {
        let pick = rng.range(k, chosen.candidates - 1);
        let at = |slot: usize| swapped.get(&slot).copied().unwrap_or_else(|| nth(slot));
        let (kept, moved) = (at(pick), at(k));
        swapped.insert(pick, moved);
        taken.push(kept);
        let pos = grid.pos(floor.cells[kept].0 as usize);
        let char = chosen.entry.draw_char(rng);
        grid.set(pos, char);
        placed.push(Placed { char, pos });
    }
    taken
}

/// The floor cells (row order) with a key each: the distance from `@`
/// (`FAR` when none leads there, or once a cell is placed on), with `SEEN`
/// added when `@` sees it.
struct Floor {
    cells: Vec<(u32, u32)>,
    /// The grid's width, to find a room's rows.
    width: usize,
}

/// A block of floor cells counted at once by `Candidates`.
const BLOCK: usize = 256;

/// One entry's candidates: how many pass its filter before each block of
/// the floor, so that the one of rank `k` is found without listing them.
struct Candidates<'a> {
    floor: &'a [(u32, u32)],
    entry: &'a Placement,
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
        Floor {
            cells: floor,
            width: grid.width(),
        }
    }

    /// Marks the cells at `taken` (positions in `cells`) placed on.
    fn take(&mut self, taken: Vec<usize>) {
        for t in taken {
            self.cells[t].1 = FAR;
        }
    }

    /// Where each row of each room starts in `cells`, the rooms' rows one
    /// after another (at most 2 bytes a cell: a room row is 2 cells or
    /// more): found once by a binary search a row, and kept for every
    /// entry with `per_room`.
    fn row_starts(&self, rooms: &[Rect]) -> Vec<u32> {
        let rows = rooms
            .iter()
            .flat_map(|r| (r.y..r.y + r.h).map(move |y| (r, y)));
        rows.map(|(room, y)| {
            let first = ((y - 1) * self.width + room.x - 1) as u32;
            self.cells.partition_point(|&(i, _)| i < first) as u32
        })
        .collect()
    }

    /// The positions in `cells` of `entry`'s candidates inside `room`
    /// (whose rows start at `starts`), in row order.
    fn inside(&self, entry: &Placement, room: &Rect, starts: &[u32]) -> Vec<usize> {
        let width = room.w;
        let mut found = Vec::new();
        for (y, &from) in (room.y..room.y + room.h).zip(starts) {
            let first = ((y - 1) * self.width + room.x - 1) as u32;
            let from = from as usize;
            let row = self.cells[from..]
                .iter()
                .take_while(|&&(i, _)| i < first + width as u32)
                .enumerate()
                .filter(|&(_, &(_, key))| passes(entry, key))
                .map(|(j, _)| from + j);
            found.extend(row);
        }
        found
    }

    fn candidates<'a>(&'a self, entry: &'a Placement) -> Candidates<'a> {
        let mut before = Vec::with_capacity(self.cells.len() / BLOCK + 2);
        let mut total = 0;
        before.push(0);
        for block in self.cells.chunks(BLOCK) {
            total += block.iter().filter(|&&(_, key)| passes(entry, key)).count();
            before.push(total);
        }
        Candidates {
            floor: &self.cells,
            entry,
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
            .filter(|&(_, &(_, key))| passes(self.entry, key))
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
        per_room: None,
        choose: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::WALL;
    use crate::input::Arg;

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
                &[],
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
            &[],
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
            let lazy = place(
                &mut a,
                start,
                &entries,
                &[],
                Some(&dist),
                &mut Rng::new(seed),
            )
            .unwrap();
            assert_eq!(lazy, listed(&mut b, start, &entries, &mut Rng::new(seed)));
            assert_eq!(a, b);
        }
    }
}
