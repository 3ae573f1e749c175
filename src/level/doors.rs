//! Doors: `+` where a corridor enters a room's wall.
//!
//! A door candidate is a floor cell of a room's ring (the cells just outside
//! the room, corners excluded) that opens the wall one cell wide: walkable
//! on both sides across the wall (into the room and out of it), wall on both
//! sides along it. A corridor running along the wall, or a wider gap, gets
//! none. A door and the cell in front of it (outside the room) are its
//! threshold; candidates are taken in row order (on one cell, the first
//! room's), and one whose threshold touches, even at a corner, the threshold
//! of a door already taken is left floor. So no two doors touch, and a
//! corridor that crosses two rooms' walls back to back (`++`) or with one
//! cell between them (`+.+`) gets one door. Doors are walkable, so adding
//! them disconnects nothing.

use crate::grid::Rect;
use crate::grid::{Grid, Pos, DOOR, FLOOR, NEIGHBOURS_8, WALL};

/// Turns the doors of every room into `+` and returns them in row-major
/// order, each once (a wall between two rooms is on both rings). No cell
/// `fixed` accepts becomes a door (a vault's cells are its template's), and
/// none touches a `+` already on the grid.
pub fn add(grid: &mut Grid, rooms: &[Rect], fixed: impl Fn(usize) -> bool) -> Vec<Pos> {
    let mut candidates: Vec<(usize, usize)> = Vec::new();
    for room in rooms {
        // Each cell once per ring: the order of a ring does not matter, as
        // the candidates are sorted (stably: on one cell, the first room's).
        for p in room.ring() {
            let (cell, inward) = ((p.x as isize, p.y as isize), inward(room, p));
            if is_opening(grid, cell, inward) {
                let at = |(x, y): Cell| {
                    grid.index(Pos {
                        x: x as usize,
                        y: y as usize,
                    })
                };
                let door = at(cell);
                if !fixed(door) {
                    candidates.push((door, at((cell.0 - inward.0, cell.1 - inward.1))));
                }
            }
        }
    }
    candidates.sort_by_key(|&(door, _)| door);
    candidates.dedup_by_key(|&mut (door, _)| door);
    // Doors already there (a vault's) keep new ones away too.
    let mut near = vec![false; grid.cells().len()];
    for i in (0..grid.cells().len()).filter(|&i| grid.cells()[i] == DOOR) {
        mark_around(&mut near, grid, i);
    }
    let mut doors = Vec::new();
    for (door, front) in candidates {
        if near[door] || near[front] {
            continue;
        }
        for i in [door, front] {
            mark_around(&mut near, grid, i);
        }
        grid.set_at(door, DOOR);
        doors.push(grid.pos(door));
    }
    doors
}

/// Marks cell `i` and its 8 neighbours (those on the grid).
fn mark_around(near: &mut [bool], grid: &Grid, i: usize) {
    let p = grid.pos(i);
    near[i] = true;
    for (dx, dy) in NEIGHBOURS_8 {
        let (x, y) = (p.x as isize + dx, p.y as isize + dy);
        if on_grid(grid, x, y) {
            near[grid.index(Pos {
                x: x as usize,
                y: y as usize,
            })] = true;
        }
    }
}

/// A cell as signed `(x, y)`, so that a ring may reach past the grid.
type Cell = (isize, isize);

/// The step from ring cell `p` into `room`.
fn inward(room: &Rect, p: Pos) -> Cell {
    if p.y < room.y {
        (0, 1)
    } else if p.y >= room.y + room.h {
        (0, -1)
    } else if p.x < room.x {
        (1, 0)
    } else {
        (-1, 0)
    }
}

/// True when `cell` is floor, walkable into the room and out of it, and
/// wall on both sides along the ring.
fn is_opening(grid: &Grid, (x, y): Cell, (dx, dy): Cell) -> bool {
    let at = |dx: isize, dy: isize| cell(grid, x + dx, y + dy);
    // Along the ring is across the step: swap the step's axes.
    at(0, 0) == FLOOR
        && at(dx, dy) != WALL
        && at(-dx, -dy) != WALL
        && at(dy, dx) == WALL
        && at(-dy, -dx) == WALL
}

/// The cell at `(x, y)`; wall outside the grid.
fn cell(grid: &Grid, x: isize, y: isize) -> u8 {
    if on_grid(grid, x, y) {
        grid.get(Pos {
            x: x as usize,
            y: y as usize,
        })
    } else {
        WALL
    }
}

fn on_grid(grid: &Grid, x: isize, y: isize) -> bool {
    x >= 1 && y >= 1 && (x as usize) <= grid.width() && (y as usize) <= grid.height()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generators::bsp;
    use crate::rng::Rng;
    use crate::toolkit::board::Walk;
    use crate::toolkit::distances::distances;

    fn at(x: usize, y: usize) -> Pos {
        Pos { x, y }
    }

    #[test]
    fn a_corridor_through_a_wall_makes_a_door() {
        let mut g = Grid::from_rows(&[
            "#########",
            "#....####",
            "#....####",
            "#........",
            "###.#####",
            "###.#####",
            "#########",
        ]);
        let doors = add(&mut g, &[Rect::new(2, 2, 4, 3)], |_| false);
        assert_eq!(doors, vec![at(6, 4), at(4, 5)], "row-major");
        assert_eq!(g.get(at(6, 4)), DOOR);
        assert_eq!(g.get(at(4, 5)), DOOR);
    }

    #[test]
    fn a_wall_between_two_rooms_gets_one_door() {
        let mut g = Grid::from_rows(&[
            "#########",
            "#...#...#",
            "#.......#",
            "#...#...#",
            "#########",
        ]);
        let doors = add(
            &mut g,
            &[Rect::new(2, 2, 3, 3), Rect::new(6, 2, 3, 3)],
            |_| false,
        );
        assert_eq!(doors, vec![at(5, 3)]);
    }

    #[test]
    fn no_door_in_a_wide_gap_a_notch_along_a_wall_or_at_a_corner() {
        let small = Rect::new(3, 3, 3, 2);
        for (rows, r) in [
            // Two cells open side by side.
            (
                vec!["#######", "#######", "##.....", "##.....", "#######"],
                small,
            ),
            // A notch: floor in the wall, wall beyond it.
            (
                vec!["#######", "#######", "##....#", "##...##", "#######"],
                small,
            ),
            // A corridor running along the top wall.
            (
                vec!["#######", "#......", "##...##", "##...##", "#######"],
                small,
            ),
            // A corner cell with a way through it (a door if it counted as
            // part of the top wall).
            (
                vec![
                    "########", "##.#####", "##.#####", "##.....#", "###...##", "########",
                ],
                Rect::new(4, 4, 3, 2),
            ),
        ] {
            let mut g = Grid::from_rows(&rows);
            assert_eq!(add(&mut g, &[r], |_| false), vec![], "{rows:?}");
        }
    }

    #[test]
    fn beyond_the_grid_counts_as_wall() {
        let mut g = Grid::from_rows(&["#.#", "#.#", "#.#"]);
        assert_eq!(
            add(&mut g, &[Rect::new(2, 2, 1, 1)], |_| false),
            vec![],
            "open up and down"
        );
        let mut g = Grid::from_rows(&["..", ".."]);
        assert_eq!(add(&mut g, &[Rect::new(1, 1, 2, 2)], |_| false), vec![]);
    }

    /// The step into `room` when `p` is on its ring, corners excluded.
    fn inward(room: &Rect, p: Pos) -> Option<(isize, isize)> {
        let in_x = (room.x..room.x + room.w).contains(&p.x);
        let in_y = (room.y..room.y + room.h).contains(&p.y);
        match (in_x, in_y) {
            (true, false) if p.y + 1 == room.y => Some((0, 1)),
            (true, false) if p.y == room.y + room.h => Some((0, -1)),
            (false, true) if p.x + 1 == room.x => Some((1, 0)),
            (false, true) if p.x == room.x + room.w => Some((-1, 0)),
            _ => None,
        }
    }

    /// The definition, cell by cell: the candidates are the floor ring
    /// cells of some room, open into the room and out of it, walled along
    /// the ring, each with the cell in front of it (for the first room that
    /// has it); then, in row order, each is a door unless its threshold
    /// touches an earlier door's. (Each cell is tested against the rooms
    /// whose ring box holds it, to keep it quick.)
    fn expected(before: &Grid, rooms: &[Rect]) -> Vec<Pos> {
        let mut near: Vec<Vec<Rect>> = vec![Vec::new(); before.cells().len()];
        for r in rooms {
            for y in r.y - 1..=r.y + r.h {
                for x in r.x - 1..=r.x + r.w {
                    near[before.index(at(x, y))].push(*r);
                }
            }
        }
        let candidates: Vec<(Pos, Pos)> = (0..near.len())
            .map(|i| before.pos(i))
            .filter(|&p| before.get(p) == FLOOR)
            .filter_map(|p| {
                let get = |dx: isize, dy: isize| cell(before, p.x as isize + dx, p.y as isize + dy);
                near[before.index(p)]
                    .iter()
                    .filter_map(|r| inward(r, p))
                    .find(|&(dx, dy)| {
                        get(dx, dy) != WALL
                            && get(-dx, -dy) != WALL
                            && get(dy, dx) == WALL
                            && get(-dy, -dx) == WALL
                    })
                    .map(|(dx, dy)| {
                        let front = at((p.x as isize - dx) as usize, (p.y as isize - dy) as usize);
                        (p, front)
                    })
            })
            .collect();
        let touch = |a: Pos, b: Pos| a.x.abs_diff(b.x) <= 1 && a.y.abs_diff(b.y) <= 1;
        let mut doors: Vec<(Pos, Pos)> = Vec::new();
        for (d, f) in candidates {
            let clear = doors
                .iter()
                .all(|&(e, g)| !touch(d, e) && !touch(d, g) && !touch(f, e) && !touch(f, g));
            if clear {
                doors.push((d, f));
            }
        }
        doors.into_iter().map(|(d, _)| d).collect()
    }

    /// Doors exactly where the definition puts them, nothing else changed,
    /// the same doors when recomputed, and the same cells reachable.
    fn check(before: &Grid, rooms: &[Rect]) -> usize {
        let mut after = before.clone();
        let doors = add(&mut after, rooms, |_| false);
        assert_eq!(doors, expected(before, rooms));
        for (i, (&b, &a)) in before.cells().iter().zip(after.cells()).enumerate() {
            let door = doors.contains(&before.pos(i));
            assert_eq!(a, if door { DOOR } else { b });
        }
        for (i, a) in doors.iter().enumerate() {
            for b in &doors[i + 1..] {
                let touch = a.x.abs_diff(b.x) <= 1 && a.y.abs_diff(b.y) <= 1;
                assert!(!touch, "doors {a:?} and {b:?} touch");
            }
        }
        let undone: Vec<u8> = after
            .cells()
            .iter()
            .map(|&c| if c == DOOR { FLOOR } else { c })
            .collect();
        let mut undone = Grid::from_cells(before.width(), before.height(), undone);
        assert_eq!(add(&mut undone, rooms, |_| false), doors, "recomputed");
        let start = rooms[0].centre();
        let walk = Walk::new();
        assert_eq!(
            distances(before, &[start], &walk),
            distances(&after, &[start], &walk)
        );
        doors.len()
    }

    #[test]
    fn doors_on_rooms_layouts() {
        let mut total = 0;
        for seed in 0..60 {
            for (w, h) in [(6, 5), (7, 9), (30, 12), (60, 20), (120, 40)] {
                let mut g = Grid::new(w, h, WALL);
                let rooms = crate::generators::rooms::carve(&mut g, 10, &mut Rng::new(seed));
                total += check(&g, &rooms);
            }
        }
        assert!(total > 0);
    }

    #[test]
    fn doors_on_bsp_layouts() {
        let mut total = 0;
        for seed in 0..20 {
            for (w, h) in [(4, 3), (9, 7), (30, 12), (80, 50), (300, 40), (5, 300)] {
                for min_size in [3, 7] {
                    let mut g = Grid::new(w, h, WALL);
                    let settings = bsp::Settings {
                        depth: bsp::MAX_DEPTH as usize,
                        min_size,
                        max_ratio: bsp::DEFAULT_MAX_RATIO,
                    };
                    let rooms = bsp::carve(&mut g, settings, &mut Rng::new(seed));
                    total += check(&g, &rooms);
                }
            }
        }
        assert!(total > 0);
    }
}
