//! Doors: `+` where a corridor passes through a room's wall.
//!
//! A door is a floor cell of a room's ring (the cells just outside the
//! room, corners excluded) that opens the wall one cell wide: walkable on
//! both sides across the wall (into the room and out of it), wall on both
//! sides along it. A corridor running along the wall, or a wider gap, gets
//! none. Doors are walkable, so adding them disconnects nothing.

use crate::grid::{Grid, Pos, DOOR, FLOOR, WALL};
use crate::rooms::Room;

/// Turns every such opening of every room into `+`, and returns them in
/// row-major order, each once (a wall between two rooms is on both rings).
/// Meant for a freshly carved grid (only `.` and `#`).
pub fn add(grid: &mut Grid, rooms: &[Room]) -> Vec<Pos> {
    let mut doors = Vec::new();
    for room in rooms {
        for (cell, inward) in ring(room) {
            if is_opening(grid, cell, inward) {
                let p = Pos {
                    x: cell.0 as usize,
                    y: cell.1 as usize,
                };
                grid.set(p, DOOR);
                doors.push(grid.index(p));
            }
        }
    }
    // A cell is `+` after its first match, so it never matches again.
    doors.sort_unstable();
    doors.into_iter().map(|i| grid.pos(i)).collect()
}

/// A cell as signed `(x, y)`, so that a ring may reach past the grid.
type Cell = (isize, isize);

/// The ring's cells, each with the step that leads into the room: the top
/// side, the bottom, the left, the right, corners left out.
fn ring(room: &Room) -> impl Iterator<Item = (Cell, Cell)> {
    let (x, y, w, h) = (
        room.x as isize,
        room.y as isize,
        room.w as isize,
        room.h as isize,
    );
    let across = (x..x + w).flat_map(move |cx| [((cx, y - 1), (0, 1)), ((cx, y + h), (0, -1))]);
    let down = (y..y + h).flat_map(move |cy| [((x - 1, cy), (1, 0)), ((x + w, cy), (-1, 0))]);
    across.chain(down)
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
    let inside = x >= 1 && y >= 1 && (x as usize) <= grid.width() && (y as usize) <= grid.height();
    if inside {
        grid.get(Pos {
            x: x as usize,
            y: y as usize,
        })
    } else {
        WALL
    }
}
