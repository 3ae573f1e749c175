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

use crate::grid::{Grid, Pos, Rect, WALL};

/// Each room's exits and links (0-based room indices).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Exits {
    pub exits: Vec<Vec<Pos>>,
    pub links: Vec<Vec<u32>>,
}

/// The most links a room lists in full.
pub const MAX_LINKS: usize = 16;

/// What each room touches: the corridors its exits lie in, and the rooms
/// its exits belong to, each ascending.
pub struct Touches {
    pub corridors: Vec<Vec<u32>>,
    pub rooms: Vec<Vec<u32>>,
    pub exits: Vec<Vec<Pos>>,
    centres: Vec<Pos>,
    /// Whether the rooms spread further down than across.
    tall: bool,
}

impl Touches {
    /// Labels the cells that matter (a `u32` each: 0 none, `1..=rooms` a
    /// room, above that a corridor: only those an exit lies in are flooded)
    /// and reads each room's ring. The border must be wall (as on every
    /// level made), so that no step from a walkable cell leaves the grid.
    pub fn of(grid: &Grid, rooms: &[Rect]) -> Touches {
        let (cells, n) = (grid.cells(), grid.cells().len());
        let w = grid.width() as isize;
        let mut label = vec![0u32; n];
        for (r, room) in rooms.iter().enumerate() {
            for y in room.y..room.y + room.h {
                let start = grid.index(Pos { x: room.x, y });
                label[start..start + room.w].fill(r as u32 + 1);
            }
        }
        let exits: Vec<Vec<Pos>> = rooms
            .iter()
            .map(|room| {
                ring(room)
                    .filter(|&p| grid.contains(p) && grid.get(p) != WALL)
                    .collect()
            })
            .collect();
        let mut next = rooms.len() as u32 + 1;
        let mut stack: Vec<u32> = Vec::new();
        for &p in exits.iter().flatten() {
            let i = grid.index(p);
            if label[i] != 0 {
                continue;
            }
            label[i] = next;
            stack.push(i as u32);
            while let Some(c) = stack.pop() {
                for step in [-w, -1, 1, w] {
                    let j = (c as usize).wrapping_add_signed(step);
                    if label[j] == 0 && cells[j] != WALL {
                        label[j] = next;
                        stack.push(j as u32);
                    }
                }
            }
            next += 1;
        }
        let mut touches = Touches {
            corridors: Vec::with_capacity(rooms.len()),
            rooms: Vec::with_capacity(rooms.len()),
            exits: Vec::with_capacity(rooms.len()),
            centres: rooms.iter().map(Rect::centre).collect(),
            tall: false,
        };
        let (xs, ys) = touches
            .centres
            .iter()
            .fold((0, 0), |(x, y), c| (x.max(c.x), y.max(c.y)));
        touches.tall = ys > xs;
        for (r, exits) in exits.into_iter().enumerate() {
            let mut corridors = Vec::new();
            let mut others = Vec::new();
            for &p in &exits {
                match label[grid.index(p)] {
                    l if l as usize > rooms.len() => corridors.push(l),
                    l if l as usize != r + 1 => others.push(l - 1),
                    _ => {}
                }
            }
            corridors.sort_unstable();
            corridors.dedup();
            others.sort_unstable();
            others.dedup();
            touches.corridors.push(corridors);
            touches.rooms.push(others);
            touches.exits.push(exits);
        }
        touches
    }

    /// Whether rooms `a` and `b` are linked.
    pub fn linked(&self, a: usize, b: usize) -> bool {
        let shared = |x: &[u32], y: &[u32]| {
            let (mut i, mut j) = (0, 0);
            while i < x.len() && j < y.len() {
                match x[i].cmp(&y[j]) {
                    std::cmp::Ordering::Equal => return true,
                    std::cmp::Ordering::Less => i += 1,
                    std::cmp::Ordering::Greater => j += 1,
                }
            }
            false
        };
        let direct = |from: usize, to: usize| self.rooms[from].binary_search(&(to as u32)).is_ok();
        direct(a, b) || direct(b, a) || shared(&self.corridors[a], &self.corridors[b])
    }

    /// Every room's links (see the module's doc for rooms linked to more
    /// than `MAX_LINKS`).
    fn links_by_room(&self) -> Vec<Vec<u32>> {
        let n = self.rooms.len();
        let mut direct: Vec<Vec<u32>> = self.rooms.clone();
        for r in 0..n {
            for &o in &self.rooms[r] {
                direct[o as usize].push(r as u32);
            }
        }
        // The rooms of each corridor, and for the corridors of more than
        // MAX_LINKS + 1 rooms, those rooms in order along the longer axis.
        let mut by_corridor: Vec<(u32, u32)> = self
            .corridors
            .iter()
            .enumerate()
            .flat_map(|(r, cs)| cs.iter().map(move |&c| (c, r as u32)))
            .collect();
        by_corridor.sort_unstable();
        let groups: Vec<(u32, Vec<u32>)> = by_corridor
            .chunk_by(|a, b| a.0 == b.0)
            .map(|g| (g[0].0, g.iter().map(|&(_, r)| r).collect()))
            .collect();
        let lines: Vec<Vec<(usize, u32)>> = groups
            .iter()
            .map(|(_, members)| {
                if members.len() <= MAX_LINKS + 1 {
                    return Vec::new();
                }
                let mut line: Vec<(usize, u32)> = members
                    .iter()
                    .map(|&r| (self.along(r as usize), r))
                    .collect();
                line.sort_unstable();
                line
            })
            .collect();
        let mut links: Vec<Vec<u32>> = vec![Vec::new(); n];
        let mut pool: Vec<u32> = Vec::new();
        for a in 0..n {
            pool.clear();
            pool.extend_from_slice(&direct[a]);
            let mut crowded = false;
            for c in &self.corridors[a] {
                let g = groups
                    .binary_search_by_key(c, |g| g.0)
                    .expect("a corridor of room a");
                if lines[g].is_empty() {
                    pool.extend(groups[g].1.iter().filter(|&&b| b as usize != a));
                } else {
                    crowded = true;
                    pool.extend(self.nearest_on(&lines[g], a));
                }
            }
            pool.sort_unstable();
            pool.dedup();
            if crowded || pool.len() > MAX_LINKS {
                let from = self.centres[a];
                pool.sort_by_key(|&b| (walk(from, self.centres[b as usize]), b));
                pool.truncate(MAX_LINKS);
            }
            for &b in &pool {
                links[a].push(b);
                links[b as usize].push(a as u32);
            }
        }
        for l in &mut links {
            l.sort_unstable();
            l.dedup();
        }
        links
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

/// The ring of `room` in row order: the row above, then each row's left
/// and right neighbours, then the row below (corners left out).
fn ring(room: &Rect) -> impl Iterator<Item = Pos> + '_ {
    let row = move |y: usize| (room.x..room.x + room.w).map(move |x| Pos { x, y });
    let sides = (room.y..room.y + room.h).flat_map(move |y| {
        [
            Pos { x: room.x - 1, y },
            Pos {
                x: room.x + room.w,
                y,
            },
        ]
    });
    row(room.y - 1).chain(sides).chain(row(room.y + room.h))
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
