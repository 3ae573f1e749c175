//! Movers stepping down a field on a level, in place: the work of
//! `level:steps` and `level:steps_xy` with a field and no `known` or
//! `avoid`, on both interpreters (the Lua 5.4 methods and LuaJIT's
//! `steps_batch` call it). `toolkit::step::step_in`'s rule, the field's
//! cells read by a function of their kind chosen once for all the movers.

use std::convert::Infallible;

use super::field::{Cells, Field, NARROW_BEYOND};
use super::NativeLevel;
use crate::grid::{ByteSet, Pos};
use crate::toolkit::board::{BEYOND, DIRECTIONS};
use crate::toolkit::step;

/// Where a mover stands: a cell, or (LuaJIT's buffer) its `x` and `y`.
pub trait Mover {
    fn cell(&self) -> Pos;
    fn move_to(&mut self, p: Pos);
}

impl Mover for Pos {
    fn cell(&self) -> Pos {
        *self
    }
    fn move_to(&mut self, p: Pos) {
        *self = p;
    }
}

/// Coordinates within the level, which is at most `MAX_CELLS` cells.
impl Mover for [u32; 2] {
    fn cell(&self) -> Pos {
        Pos {
            x: self[0] as usize,
            y: self[1] as usize,
        }
    }
    fn move_to(&mut self, p: Pos) {
        *self = [p.x as u32, p.y as u32];
    }
}

/// Steps each of `movers` in order down `field` (of the level's size) by
/// `rule` (the blocked characters, diagonal steps), occupied cells closed
/// if `occupied` (a mover that moves then vacating its cell and occupying
/// the new one, so the next sees it there): each that moves is given its
/// new cell and `moved` is told its index and that cell. A field of flags moves nobody.
pub fn step_movers(
    level: &mut NativeLevel,
    field: &Field,
    movers: &mut [impl Mover],
    rule: (&ByteSet, bool),
    occupied: bool,
    moved: impl FnMut(usize, Pos),
) {
    let w = field.window;
    let whole = (w.x, w.y, w.w, w.h) == (1, 1, level.width(), level.height());
    let at = move |p: Pos| {
        let (dx, dy) = (p.x.wrapping_sub(w.x), p.y.wrapping_sub(w.y));
        (dx < w.w && dy < w.h).then(|| dy * w.w + dx)
    };
    let closed = |l: &NativeLevel, p: Pos| occupied && l.occupied(p);
    match &field.cells {
        // A field over the whole level, its cells indexed as the level's.
        Cells::Narrow(v) if whole => move_all(level, movers, occupied, moved, |l, from| {
            let value = |j: usize| match v[j] {
                NARROW_BEYOND => BEYOND,
                n => n.into(),
            };
            step_whole(l, from, rule, occupied, value)
        }),
        Cells::Wide(v) if whole => move_all(level, movers, occupied, moved, |l, from| {
            step_whole(l, from, rule, occupied, |j| v[j])
        }),
        Cells::Narrow(v) => move_all(level, movers, occupied, moved, |l, from| {
            let value = |p| match at(p) {
                Some(i) if v[i] != NARROW_BEYOND => v[i].into(),
                _ => BEYOND,
            };
            step::step_in(l.terrain(), from, rule, value, |p| closed(l, p))
        }),
        Cells::Wide(v) => move_all(level, movers, occupied, moved, |l, from| {
            let value = |p| at(p).map_or(BEYOND, |i| v[i]);
            step::step_in(l.terrain(), from, rule, value, |p| closed(l, p))
        }),
        Cells::Parts(_) => move_all(level, movers, occupied, moved, |l, from| {
            let value = |p| field.value_at(p);
            step::step_in(l.terrain(), from, rule, value, |p| closed(l, p))
        }),
        Cells::Flags(_) => {}
    }
}

/// `step_movers` with each mover's step given by `step`.
fn move_all(
    level: &mut NativeLevel,
    movers: &mut [impl Mover],
    occupied: bool,
    moved: impl FnMut(usize, Pos),
    step: impl Fn(&NativeLevel, Pos) -> Option<Pos>,
) {
    let done = try_move_all(level, movers, occupied, moved, |l, from| {
        Ok::<_, Infallible>(step(l, from))
    });
    done.unwrap_or_else(|never| match never {})
}

/// Moves each of `movers` in order to the cell `step` gives it (`None`:
/// it stays), on `level` as it is then: each that moves is given its new
/// cell and, with `occupied`, vacates its cell and occupies the new one,
/// so the next sees it there; `moved` is told its index and that cell.
/// Stops at `step`'s first error (the movers before it moved). The loop
/// of `step_movers` and of `level:steps` with `known` or `avoid`.
pub fn try_move_all<E>(
    level: &mut NativeLevel,
    movers: &mut [impl Mover],
    occupied: bool,
    mut moved: impl FnMut(usize, Pos),
    mut step: impl FnMut(&NativeLevel, Pos) -> Result<Option<Pos>, E>,
) -> Result<(), E> {
    for (i, mover) in movers.iter_mut().enumerate() {
        let from = mover.cell();
        let Some(to) = step(level, from)? else {
            continue;
        };
        if occupied {
            level.move_occupant(from, to);
        }
        mover.move_to(to);
        moved(i, to);
    }
    Ok(())
}

/// `step::step_in` on a field whose window is the whole level, over
/// row-major indices: the value of cell `j` is `value(j)`, and a cell is
/// closed if blocked or (with `occupied`) occupied. The same rule (the
/// tests compare them): the least value strictly below `from`'s, ties in
/// the order N, E, S, W, NE, SE, SW, NW, no diagonal step cutting a corner.
fn step_whole(
    level: &NativeLevel,
    from: Pos,
    (blocked, diagonal): (&ByteSet, bool),
    occupied: bool,
    value: impl Fn(usize) -> i64,
) -> Option<Pos> {
    let (w, h) = (level.width(), level.height());
    let cells = level.terrain.cells();
    let open = |j: usize| !(blocked[cells[j] as usize] || occupied && level.occupied.get(j));
    let i = (from.y - 1) * w + from.x - 1;
    let (n, e, s, west) = (from.y > 1, from.x < w, from.y < h, from.x > 1);
    // The best so far: its value and its direction (an index in
    // `DIRECTIONS`, whose order is the tie order), so that the cell is
    // found from `from` without dividing its index.
    let mut best = (value(i), usize::MAX);
    let mut consider = |go: bool, j: usize, k: usize| {
        if go {
            let v = value(j);
            if v < best.0 && open(j) {
                best = (v, k);
            }
        }
    };
    let (up, right, down, left) = (i.wrapping_sub(w), i + 1, i + w, i.wrapping_sub(1));
    consider(n, up, 0);
    consider(e, right, 1);
    consider(s, down, 2);
    consider(west, left, 3);
    if diagonal {
        // A diagonal step needs both cells beside it open.
        consider(n && e && open(right) && open(up), up.wrapping_add(1), 4);
        consider(s && e && open(right) && open(down), down + 1, 5);
        consider(
            s && west && open(left) && open(down),
            down.wrapping_sub(1),
            6,
        );
        consider(n && west && open(left) && open(up), up.wrapping_sub(1), 7);
    }
    let (dx, dy) = *DIRECTIONS.get(best.1)?;
    Some(Pos {
        x: from.x.wrapping_add_signed(dx),
        y: from.y.wrapping_add_signed(dy),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::grid::{byte_set, Grid, Rect};
    use crate::rng::Rng;

    /// A random level of at most 6x6 (floors, walls, doors), some cells
    /// occupied, and a field over all of it (some cells unreached; wide
    /// values beyond 32 bits when `wide`).
    fn random(rng: &mut Rng, wide: bool) -> (NativeLevel, Vec<i64>) {
        let (w, h) = (1 + rng.below(6), 1 + rng.below(6));
        let cells = (0..w * h).map(|_| b"..#+"[rng.below(4)]).collect();
        let mut level = NativeLevel::from_grid(Grid::from_cells(w, h, cells));
        for y in 1..=h {
            for x in 1..=w {
                if rng.below(5) == 0 {
                    level.occupy(Pos { x, y }, true);
                }
            }
        }
        let scale = if wide { 1 << 40 } else { 1 };
        let values = (0..w * h)
            .map(|_| match rng.below(6) {
                0 => BEYOND,
                _ => rng.below(7) as i64 * scale,
            })
            .collect();
        (level, values)
    }

    fn rule(rng: &mut Rng) -> (ByteSet, bool) {
        let blocked = byte_set(if rng.below(2) == 0 { b"#" } else { b"#+" });
        (blocked, rng.below(2) == 0)
    }

    /// `step_whole` over row-major indices is `step::step_in` over cells,
    /// with and without diagonals, blocked doors and occupied cells closed.
    #[test]
    fn step_whole_is_step_in() {
        let mut rng = Rng::new(7);
        for _ in 0..30_000 {
            let (level, values) = random(&mut rng, false);
            let (blocked, diagonal) = rule(&mut rng);
            let occupied = rng.below(2) == 0;
            let (w, h) = (level.width(), level.height());
            let from = Pos {
                x: 1 + rng.below(w),
                y: 1 + rng.below(h),
            };
            let index = |p: Pos| (p.y - 1) * w + p.x - 1;
            let r = (&blocked, diagonal);
            let whole = step_whole(&level, from, r, occupied, |j| values[j]);
            let direct = step::step_in(
                level.terrain(),
                from,
                r,
                |p| values[index(p)],
                |p| occupied && level.occupied(p),
            );
            assert_eq!(
                whole,
                direct,
                "{:?} {values:?} {from:?} diagonal {diagonal} occupied {occupied}",
                level.terrain()
            );
        }
    }

    /// `step_movers` on a field over the whole level (narrow or wide
    /// cells) moves the movers as `step::step_in` does, one after the
    /// other, each that moves vacating and occupying with `occupied`.
    #[test]
    fn step_movers_is_step_in_in_turn() {
        let mut rng = Rng::new(11);
        for round in 0..10_000 {
            let (mut level, values) = random(&mut rng, round % 3 == 0);
            let (blocked, diagonal) = rule(&mut rng);
            let occupied = rng.below(2) == 0;
            let (w, h) = (level.width(), level.height());
            let field = Field::values((w, h), Rect::whole((w, h)), values.clone());
            let movers: Vec<Pos> = (0..rng.below(6))
                .map(|_| Pos {
                    x: 1 + rng.below(w),
                    y: 1 + rng.below(h),
                })
                .collect();
            let r = (&blocked, diagonal);
            // The reference: each mover in turn by `step_in`.
            let mut expected_level = level.clone();
            let mut expected = movers.clone();
            let mut expected_moves = Vec::new();
            for (i, m) in expected.iter_mut().enumerate() {
                let l = &expected_level;
                let to = step::step_in(
                    l.terrain(),
                    *m,
                    r,
                    |p| values[(p.y - 1) * w + p.x - 1],
                    |p| occupied && l.occupied(p),
                );
                if let Some(to) = to {
                    if occupied {
                        expected_level.move_occupant(*m, to);
                    }
                    *m = to;
                    expected_moves.push((i, to));
                }
            }
            let mut got = movers.clone();
            let mut moves = Vec::new();
            step_movers(&mut level, &field, &mut got, r, occupied, |i, p| {
                moves.push((i, p))
            });
            assert_eq!(got, expected, "{:?} {values:?} {movers:?}", level.terrain());
            assert_eq!(moves, expected_moves);
            assert_eq!(
                level.occupancy().words(),
                expected_level.occupancy().words()
            );
        }
    }
}
