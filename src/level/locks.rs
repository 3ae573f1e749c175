//! Keys and locks (`locks`): locked doors on chokepoints, each with its key
//! on `@`'s side of it, so that the level is solvable by construction.
//!
//! Doors go only on the level's own chokepoints (`analyze`'s, all doors
//! open), so that each closes something off whatever the others. They are
//! chosen from the goal back towards `@`. The first closes a cell every
//! walk from `@` to `>` passes (`analyze::separators`), the next one a cell
//! every walk to the first passes, and so on, spread along the way; where
//! no such cell will do, any chokepoint still on `@`'s side, which then
//! closes off a side part. Each door must leave a floor cell on `@`'s side
//! and, but the first, one in the part it closes off (itself aside): the
//! key of the door chosen before it goes in that part, and the key of the
//! last one chosen on `@`'s side. So, with `R_k` the cells `@` reaches with
//! the first `k` doors chosen closed, door `k`'s key lies in `R_k` but not
//! in `R_(k+1)` (past door `k+1`, which opens first): each key is reached
//! with the keys of the doors nearer `@` and never lies behind its own
//! door. Letters follow the order the doors open in: `A` (key `a`) first.

use super::design::Design;
use crate::generators::shared::MAX_LOCKS;
use crate::grid::{byte_set, steps, Grid, Pos, FLOOR};
use crate::rng::Rng;
use crate::toolkit::analyze::{self, separators};
use crate::toolkit::board::Walk;
use crate::toolkit::flood::{walk, Step};

/// The first door's and the first key's characters.
const FIRST_DOOR: u8 = b'A';
const FIRST_KEY: u8 = b'a';

/// The characters `n` locks use, doors then keys: for the collision checks.
pub fn chars(n: usize) -> impl Iterator<Item = u8> {
    let n = n.min(MAX_LOCKS as usize) as u8;
    (FIRST_DOOR..FIRST_DOOR + n).chain(FIRST_KEY..FIRST_KEY + n)
}

/// An error when the `n` locks asked for would use a character the level
/// holds for something else: a `place` entry's or a vault's (then a door or
/// key could not be told from it).
pub fn check_chars(n: usize, design: &Design) -> Result<(), String> {
    let mine = byte_set(&chars(n).collect::<Vec<u8>>());
    let needs = || {
        let (last_door, last_key) = (FIRST_DOOR + n as u8 - 1, FIRST_KEY + n as u8 - 1);
        format!(
            "locks = {n} needs the characters {}-{} and {}-{}",
            FIRST_DOOR as char, last_door as char, FIRST_KEY as char, last_key as char
        )
    };
    for (i, p) in design.place.iter().enumerate() {
        if let Some(c) = p.chars().into_iter().find(|&c| mine[c as usize]) {
            let says = if p.choose.is_empty() {
                "char is"
            } else {
                "choose holds"
            };
            let c = c as char;
            return Err(format!("{}, but place[{}].{says} \"{c}\"", needs(), i + 1));
        }
    }
    for (i, t) in design.vaults.iter().enumerate() {
        if let Some(&c) = t.cells.iter().find(|&&c| mine[c as usize]) {
            let c = c as char;
            return Err(format!("{}, but vaults[{}] holds \"{c}\"", needs(), i + 1));
        }
    }
    Ok(())
}

/// One lock: its door and the key that opens it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lock {
    pub door: Pos,
    pub door_char: u8,
    pub key: Pos,
    pub key_char: u8,
}

/// The memory `place` may use beside the level on a map of `size`: the
/// level's own chokepoints found once (`analyze::bound`), then per cell at
/// most seven flags (closed, chokepoints, region, zones, the next region,
/// the closed cells with a door more and the flood's marks), the flood's
/// queue (a `u32`), and `separators`' search: per padded cell its open
/// flag and three `u32`s, per cell its stack (two `u32`s) and path (one),
/// all within `analyze::bound`'s per-cell share.
pub fn bound(size: (usize, usize)) -> usize {
    let cells = size.0 * size.1;
    analyze::bound(size, 0, 0) + 12 * cells
}

/// Candidates tried for each lock, from each list (separators, then any
/// chokepoint), before giving up: a flood each.
const TRIES: usize = 16;

/// Puts at most `n` locks and their keys on `.` cells of `grid`, which
/// holds `@` at `player` and `>` at `stairs`; fewer when no candidate
/// qualifies. Returns them in the order their doors open. Draws nothing
/// when `n` is 0.
pub fn place(grid: &mut Grid, player: Pos, stairs: Pos, n: usize, rng: &mut Rng) -> Vec<Lock> {
    if n == 0 {
        return Vec::new();
    }
    let mut closed = vec![false; grid.cells().len()];
    // Doors go on the level's own chokepoints: each, with every other door
    // open, still closes something off.
    let mut chokepoint = closed.clone();
    for c in analyze::analyze(grid, &Walk::new(), &[], None).chokepoints {
        chokepoint[grid.index(c.pos)] = true;
    }
    let mut region = reach(grid, player, &closed);
    // zone[i] = k: cell i is in R_(k-1) but not R_k (R_0: every cell
    // reached); 0: not yet.
    let mut zone = vec![0u8; closed.len()];
    let mut doors: Vec<usize> = Vec::new();
    let mut target = grid.index(stairs);
    while doors.len() < n {
        let left = n - doors.len();
        let Some((door, next)) = choose(
            grid,
            (player, target),
            left,
            (&closed, &chokepoint),
            &region,
            rng,
        ) else {
            break;
        };
        doors.push(door);
        closed[door] = true;
        let k = doors.len() as u8;
        for (z, (&was, &is)) in zone.iter_mut().zip(region.iter().zip(&next)) {
            if was && !is {
                *z = k;
            }
        }
        region = next;
        target = door;
    }
    let last = doors.len() as u8 + 1;
    for (z, &r) in zone.iter_mut().zip(&region) {
        if r {
            *z = last;
        }
    }
    for &d in &doors {
        zone[d] = 0;
    }
    lay(grid, &doors, &zone, rng)
}

/// The doors and their keys on `grid`: door `doors[k]` (0-based, chosen
/// `k + 1`-th) opens `doors.len() - k`-th, and its key is a random `.` cell
/// of zone `k + 2` (the part the next door chosen closes off, or `@`'s
/// side after the last). Keys are drawn from `@`'s side outwards.
fn lay(grid: &mut Grid, doors: &[usize], zone: &[u8], rng: &mut Rng) -> Vec<Lock> {
    let m = doors.len();
    let mut locks = Vec::with_capacity(m);
    for (k, &door) in doors.iter().enumerate().rev() {
        let wanted = k as u8 + 2;
        let floor: Vec<usize> = (0..zone.len())
            .filter(|&i| zone[i] == wanted && grid.cells()[i] == FLOOR)
            .collect();
        // `choose` kept a floor cell in every zone.
        let key = floor[rng.below(floor.len())];
        let letter = (m - 1 - k) as u8;
        let lock = Lock {
            door: grid.pos(door),
            door_char: FIRST_DOOR + letter,
            key: grid.pos(key),
            key_char: FIRST_KEY + letter,
        };
        grid.set(lock.door, lock.door_char);
        grid.set(lock.key, lock.key_char);
        locks.push(lock);
    }
    locks
}

/// The next door, of `left` still to place: one of the separators of `@`
/// and `target` (the cells every walk between them passes, in the order a
/// walk meets them) in the last `1 / left` of them, so that the doors
/// spread along the way; else one of the others; else any cell of `@`'s
/// `region` that is a `chokepoint` of the level (all doors open). Only
/// those are doors at all, so that each closes something off whatever the
/// other doors. Each group is tried in a random order,
/// at most `TRIES` of it; the door comes with the cells `@` reaches once it
/// is closed. The first door chosen need close off no floor (`>` may be
/// all it keeps).
fn choose(
    grid: &Grid,
    (player, target): (Pos, usize),
    left: usize,
    (closed, chokepoint): (&[bool], &[bool]),
    region: &[bool],
    rng: &mut Rng,
) -> Option<(usize, Vec<bool>)> {
    let walk = Walk::new();
    let first = !closed.contains(&true);
    let usable = |p: &Pos| {
        let i = grid.index(*p);
        grid.get(*p) == FLOOR && region[i] && chokepoint[i]
    };
    let indices = |cells: Vec<Pos>| -> Vec<usize> {
        cells
            .iter()
            .filter(|p| usable(p))
            .map(|&p| grid.index(p))
            .collect()
    };
    let mut way = indices(separators(grid, &walk, closed, player, grid.pos(target)));
    let near = way.len() - way.len() / left;
    let far = way.split_off(near);
    let sides = || {
        (0..grid.cells().len())
            .filter(|&i| usable(&grid.pos(i)))
            .collect()
    };
    let groups: [&dyn Fn() -> Vec<usize>; 3] = [&|| far.clone(), &|| way.clone(), &sides];
    for group in groups {
        let mut list = group();
        for t in 0..list.len().min(TRIES) {
            let pick = rng.range(t, list.len() - 1);
            list.swap(t, pick);
            let door = list[t];
            let next = reach(grid, player, &with(closed, door));
            if qualifies(grid, region, &next, door, first) {
                return Some((door, next));
            }
        }
    }
    None
}

/// `closed` with `door` closed too.
fn with(closed: &[bool], door: usize) -> Vec<bool> {
    let mut closed = closed.to_vec();
    closed[door] = true;
    closed
}

/// Whether closing `door` leaves a floor cell on `@`'s side (`next`), for
/// a key, and (unless it is the `first` door) one in the part of `region`
/// it closes off, itself aside, for the key of the door chosen before it.
fn qualifies(grid: &Grid, region: &[bool], next: &[bool], door: usize, first: bool) -> bool {
    let floor = |i: usize| grid.cells()[i] == FLOOR;
    let kept = (0..next.len()).any(|i| next[i] && floor(i));
    let cut = || (0..next.len()).any(|i| region[i] && !next[i] && i != door && floor(i));
    kept && (first || cut())
}

/// The cells reached from `from` by 4-neighbour steps through every cell
/// but `#` and those `closed` marks.
fn reach(grid: &Grid, from: Pos, closed: &[bool]) -> Vec<bool> {
    let cells = grid.cells();
    let mut seen = closed.to_vec();
    let start = grid.index(from);
    seen[start] = true;
    let mut queue = vec![start as u32];
    walk(&mut queue, steps(grid.width()), |_, to, _| {
        if seen[to] || cells[to] == crate::grid::WALL {
            return Step::Skip;
        }
        seen[to] = true;
        Step::Enter
    });
    let mut reached = vec![false; cells.len()];
    for &i in &queue {
        reached[i as usize] = true;
    }
    reached
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(rows: &[&str]) -> Grid {
        let cells = rows.iter().flat_map(|r| r.bytes()).collect();
        Grid::from_cells(rows[0].len(), rows.len(), cells)
    }

    fn text(g: &Grid) -> Vec<String> {
        g.rows()
            .map(|r| String::from_utf8(r.to_vec()).unwrap())
            .collect()
    }

    #[test]
    fn a_corridor_gets_a_chain_of_locks_in_order() {
        let rows = [
            "################",
            "#@.............#",
            "##############>#",
            "################",
        ];
        let (p, s) = (Pos { x: 2, y: 2 }, Pos { x: 15, y: 3 });
        let mut most = 0;
        for seed in 0..50 {
            let mut g = grid(&rows);
            let locks = place(&mut g, p, s, 3, &mut Rng::new(seed));
            most = most.max(locks.len());
            // Along the corridor from @: key a, door A, key b, door B, ...
            let row: Vec<u8> = text(&g)[1]
                .bytes()
                .filter(u8::is_ascii_alphabetic)
                .collect();
            assert_eq!(row, &b"aAbBcC"[..2 * locks.len()], "seed {seed}");
            for (i, l) in locks.iter().enumerate() {
                assert_eq!((l.door_char, l.key_char), (b'A' + i as u8, b'a' + i as u8));
                assert!(l.key.x < l.door.x);
            }
        }
        assert_eq!(most, 3);
    }

    #[test]
    fn too_few_chokepoints_give_fewer_locks_and_zero_draws_nothing() {
        let rows = ["######", "#@...#", "#....#", "#...>#", "######"];
        let (p, s) = (Pos { x: 2, y: 2 }, Pos { x: 5, y: 4 });
        let mut g = grid(&rows);
        assert!(place(&mut g, p, s, 5, &mut Rng::new(1)).is_empty());
        assert_eq!(text(&g), rows);
        let mut rng = Rng::new(9);
        assert!(place(&mut g, p, s, 0, &mut rng).is_empty());
        assert_eq!(rng.below(1000), Rng::new(9).below(1000));
    }

    #[test]
    fn chars_are_the_first_letters() {
        assert_eq!(chars(2).collect::<Vec<_>>(), b"ABab");
        assert_eq!(chars(26).count(), 52);
    }
}
