//! Where `@` and `>` go, once the level is one walkable component (or
//! can be by filling the others: the attempts before the repair).

use super::{FixedCell, Layout, Problem};
use crate::grid::{ByteSet, Grid, Pos, FLOOR};
use crate::toolkit::board::{Walk, UNREACHED};
use crate::toolkit::distances::distances;

/// The level made of `cells`, `@` at `player`, `>` the farthest floor.
pub fn level(grid: &mut Grid, cells: Vec<u8>, player: Pos, problem: &Problem) -> Layout {
    *grid = Grid::from_cells(grid.width(), grid.height(), cells);
    let stairs = farthest(grid, player, &problem.blocked);
    Layout {
        rooms: Vec::new(),
        player,
        stairs: Some(stairs),
        blocked: Some(problem.blocking.clone()),
    }
}

/// Keeps the largest walkable component (the first in row order on a
/// tie) and fills the others with the border's character; `@`'s cell, or
/// `None` when that breaks a window or a fixed cell, or the component has
/// fewer than 2 floor cells.
pub fn connect(
    cells: &mut [u8],
    (w, h): (usize, usize),
    problem: &Problem,
    fixed: &[FixedCell],
) -> Option<Pos> {
    let (component, sizes, _) = super::repair::components(cells, (w, h), &problem.blocked);
    let largest = (0..sizes.len()).max_by_key(|&c| (sizes[c], std::cmp::Reverse(c)))? as u32;
    let mut changed = Vec::new();
    for i in 0..w * h {
        if component[i] != u32::MAX && component[i] != largest {
            cells[i] = problem.read.border;
            changed.push(i);
        }
    }
    let n = problem.patterns.n;
    if !changed.is_empty() {
        if fixed.iter().any(|&(x, y, c)| cells[y * w + x] != c) {
            return None;
        }
        // Each window touching a changed cell, checked once.
        let mut checked = vec![false; w * h];
        let mut window = vec![0u8; n * n];
        for &i in &changed {
            let (x, y) = (i % w, i / w);
            for py in y.saturating_sub(n - 1)..=y.min(h - n) {
                for px in x.saturating_sub(n - 1)..=x.min(w - n) {
                    if std::mem::replace(&mut checked[py * w + px], true) {
                        continue;
                    }
                    for dy in 0..n {
                        window[dy * n..][..n].copy_from_slice(&cells[(py + dy) * w + px..][..n]);
                    }
                    if !problem.patterns.contains(&window) {
                        return None;
                    }
                }
            }
        }
    }
    let floor: Vec<usize> = (0..w * h).filter(|&i| cells[i] == FLOOR).collect();
    if floor.len() < 2 {
        return None;
    }
    let centre = (w as i64 / 2, h as i64 / 2);
    let nearest = floor.iter().copied().min_by_key(|&i| {
        let (dx, dy) = ((i % w) as i64 - centre.0, (i / w) as i64 - centre.1);
        dx * dx + dy * dy
    })?;
    Some(Pos {
        x: nearest % w + 1,
        y: nearest / w + 1,
    })
}

/// The floor cell farthest from `from` by walking, the first in row order
/// on a tie.
fn farthest(grid: &Grid, from: Pos, blocked: &ByteSet) -> Pos {
    let mut walk = Walk::new();
    walk.blocked = *blocked;
    let dist = distances(grid, &[from], &walk);
    let cells = grid.cells();
    let mut best: Option<(u64, usize)> = None;
    for (i, &d) in dist.iter().enumerate() {
        if cells[i] == FLOOR && d != UNREACHED && best.is_none_or(|(bd, _)| d > bd) {
            best = Some((d, i));
        }
    }
    best.map_or(from, |(_, i)| grid.pos(i))
}

