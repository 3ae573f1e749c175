//! Rooms that know their exits and the rooms they lead to.
//!
//! A room's ring is the cells just outside its rectangle that touch it
//! edge-on (its corners left out: no step leads from the room into them).
//! Its exits are the walkable cells of its ring, doors included, in row
//! order. A cell belongs to the last room whose rectangle holds it (only
//! vaults, listed after the generator's rooms, overlap another room);
//! the walkable cells that belong to no room are corridor cells, and a
//! corridor is a 4-connected set of them. Two rooms are linked when an exit
//! of one belongs to the other, or an exit of each lies in one corridor:
//! one reaches the other through corridor cells without entering a third
//! room. Links are symmetric, and listed ascending, each once.
//!
//! On a map of thousands of rooms one corridor web may touch them all, and
//! every room would list every other (10^8 links for `rooms = 10000`). So
//! a room linked to more than `MAX_LINKS` rooms lists its `MAX_LINKS`
//! nearest (by the walk between centres, `|dx| + |dy|`, the lower index on
//! a tie), and with them every room that lists it among its own nearest:
//! links stay symmetric, and exact wherever no room has more than
//! `MAX_LINKS`.

use crate::generators::touches::Lists;
pub use crate::generators::touches::Touches;
use crate::grid::Pos;
#[cfg(test)]
use crate::grid::{Grid, Rect};

/// Each room's exits and links (0-based room indices).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Exits {
    pub exits: Vec<Vec<Pos>>,
    pub links: Vec<Vec<u32>>,
}

/// The most links a room lists in full.
pub const MAX_LINKS: usize = 16;

impl Touches {
    /// Every room's links (see the module's doc for rooms linked to more
    /// than `MAX_LINKS`).
    fn links_by_room(&self) -> Vec<Vec<u32>> {
        let n = self.centres.len();
        // The rooms whose exits belong to each room (the other way round
        // from `self.rooms`), and the rooms of each corridor (corridor `g`
        // is label `n + 1 + g`); for the corridors of more than
        // MAX_LINKS + 1 rooms, those rooms in order along the longer axis.
        let from_rooms = self.rooms.transposed(n, 0);
        let corridors = self.next as usize - n - 1;
        let members = self.corridors.transposed(corridors, n as u32 + 1);
        let lines: Vec<Vec<(usize, u32)>> = (0..corridors)
            .map(|g| {
                let rooms = members.get(g);
                if rooms.len() <= MAX_LINKS + 1 {
                    return Vec::new();
                }
                let mut line: Vec<(usize, u32)> =
                    rooms.iter().map(|&r| (self.along(r as usize), r)).collect();
                line.sort_unstable();
                line
            })
            .collect();
        // Each room's own choice; a link is listed by both its rooms when
        // either chose it.
        let mut chosen = Lists::with_capacity(n, self.exits.iter().map(Vec::len).sum());
        let mut pool: Vec<u32> = Vec::new();
        // The room whose pool last took each room: each is taken once, so
        // a pool holds no repeats to sort away.
        let mut taken = vec![u32::MAX; n];
        let mut capped = false;
        for a in 0..n {
            pool.clear();
            let mut take = |b: u32| {
                if taken[b as usize] != a as u32 && b as usize != a {
                    taken[b as usize] = a as u32;
                    pool.push(b);
                }
            };
            self.rooms.get(a).iter().for_each(|&b| take(b));
            from_rooms.get(a).iter().for_each(|&b| take(b));
            let mut crowded = false;
            for &c in self.corridors.get(a) {
                let g = (c as usize) - n - 1;
                if lines[g].is_empty() {
                    members.get(g).iter().for_each(|&b| take(b));
                } else {
                    crowded = true;
                    self.nearest_on(&lines[g], a)
                        .into_iter()
                        .for_each(&mut take);
                }
            }
            pool.sort_unstable();
            if crowded || pool.len() > MAX_LINKS {
                capped = true;
                let from = self.centres[a];
                pool.sort_by_key(|&b| (walk(from, self.centres[b as usize]), b));
                pool.truncate(MAX_LINKS);
            }
            pool.iter().for_each(|&b| chosen.push(b));
            chosen.end_sorted();
        }
        // Uncapped, the choices are the links, both ways already.
        if !capped {
            return (0..n).map(|a| chosen.get(a).to_vec()).collect();
        }
        let chosen_by = chosen.transposed(n, 0);
        (0..n)
            .map(|a| {
                let (mine, theirs) = (chosen.get(a), chosen_by.get(a));
                let mut links = Vec::with_capacity(mine.len() + theirs.len());
                links.extend_from_slice(mine);
                links.extend_from_slice(theirs);
                links.sort_unstable();
                links.dedup();
                links
            })
            .collect()
    }

    /// Room `r`'s centre along the longer axis of the rooms' spread (how
    /// far right or down the farthest centre lies).
    fn along(&self, r: usize) -> usize {
        let c = self.centres[r];
        if self.tall {
            c.y
        } else {
            c.x
        }
    }

    /// The `MAX_LINKS` rooms of `line` (rooms with their place along the
    /// longer axis, in order) nearest room `a`, which is on it: walking out
    /// both ways from `a`, each way until the distance along the axis alone
    /// exceeds the farthest kept.
    fn nearest_on(&self, line: &[(usize, u32)], a: usize) -> Vec<u32> {
        let from = self.centres[a];
        let at = self.along(a);
        let mut best: Vec<(usize, u32)> = Vec::with_capacity(MAX_LINKS + 1);
        let keep = |b: u32, best: &mut Vec<(usize, u32)>| {
            let key = (walk(from, self.centres[b as usize]), b);
            let k = best.partition_point(|&e| e < key);
            if k < MAX_LINKS {
                best.insert(k, key);
                best.truncate(MAX_LINKS);
            }
        };
        let done = |best: &Vec<(usize, u32)>, gap: usize| {
            best.len() == MAX_LINKS && gap > best[MAX_LINKS - 1].0
        };
        let mid = line.partition_point(|&e| e < (at, a as u32));
        for &(pos, b) in &line[mid..] {
            if done(&best, pos - at) {
                break;
            }
            if b as usize != a {
                keep(b, &mut best);
            }
        }
        for &(pos, b) in line[..mid].iter().rev() {
            if done(&best, at - pos) {
                break;
            }
            keep(b, &mut best);
        }
        best.into_iter().map(|(_, b)| b).collect()
    }

    pub fn into_exits(self) -> Exits {
        Exits {
            links: self.links_by_room(),
            exits: self.exits,
        }
    }
}

/// The walk between two cells, `|dx| + |dy|`.
fn walk(a: Pos, b: Pos) -> usize {
    a.x.abs_diff(b.x) + a.y.abs_diff(b.y)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exits_in_row_order_and_links_through_corridors() {
        // Rooms 0 and 1 share a one-cell corridor (a door); room 1 has a
        // second exit into a corridor that leads nowhere else; room 2 has
        // no exit.
        let g = Grid::from_rows(&[
            "##############",
            "#...#...#.####",
            "#...+...#.####",
            "#...#...#.#..#",
            "#####.###.#..#",
            "#####.....#..#",
            "##############",
        ]);
        let rooms = [
            Rect::new(2, 2, 3, 3),
            Rect::new(6, 2, 3, 3),
            Rect::new(12, 4, 2, 3),
        ];
        let e = Touches::of(&g, &rooms).into_exits();
        assert_eq!(e.exits[0], vec![Pos { x: 5, y: 3 }]);
        assert_eq!(e.exits[1], vec![Pos { x: 5, y: 3 }, Pos { x: 6, y: 5 }]);
        assert_eq!(e.exits[2], vec![]);
        assert_eq!(e.links, vec![vec![1], vec![0], vec![]]);
    }

    #[test]
    fn a_room_reached_through_a_junction_is_linked_to_every_room_there() {
        let g = Grid::from_rows(&[
            "###########",
            "#..#...#..#",
            "#..#...#..#",
            "###.....###",
            "#####.#####",
            "####...####",
            "###########",
        ]);
        let rooms = [
            Rect::new(2, 2, 2, 2),
            Rect::new(5, 2, 3, 2),
            Rect::new(9, 2, 2, 2),
            Rect::new(5, 6, 3, 1),
        ];
        let t = Touches::of(&g, &rooms);
        assert!(t.linked(1, 3) && t.linked(3, 1));
        assert!(!t.linked(0, 3) && !t.linked(2, 1) && !t.linked(0, 2));
        let e = t.into_exits();
        // Room 1 opens straight into the corridor below it; 0 and 2 through
        // their corners only, which are not exits.
        assert_eq!(e.exits[0], vec![]);
        assert_eq!(e.links[1], vec![3]);
        assert_eq!(e.links[3], vec![1]);
    }

    #[test]
    fn a_vault_over_a_room_takes_its_cells_and_links_both_ways() {
        let g = Grid::from_rows(&[
            "##########",
            "#........#",
            "#........#",
            "#........#",
            "##########",
        ]);
        let rooms = [Rect::new(2, 2, 8, 3), Rect::new(4, 3, 2, 1)];
        let e = Touches::of(&g, &rooms).into_exits();
        assert_eq!(e.links, vec![vec![1], vec![0]]);
        assert_eq!(e.exits[1].len(), 6);
    }
}
