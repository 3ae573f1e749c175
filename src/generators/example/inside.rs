//! A level from a sample whose windows cannot meet a border all round:
//! town's houses are closed rectangles, so no side of a level can be one
//! run of house; simplemaze's (n = 2) every 2x2 window holds exactly two
//! changes of character on its sides, so a uniform border needs an even
//! count of windows, (w - 1) x (h - 1), which 48x32 has not. Tried only
//! for a sample whose edge is not its border, once every attempt with the
//! border imposed has failed (`bordered`), so no level made before
//! changes. The level's inside, (w - 2) x (h - 2), is solved and repaired
//! alone, every window in it the sample's, and the border put round it:
//! the windows that hold the border are the level's own, not the sample's.

use super::rules::Rules;
use super::wfc::Wave;
use super::{impose, on_ring, repair_of, repaired, FixedCell, Problem, REPAIR_ALLOWANCE};
use crate::grid::Pos;
use crate::rng::Rng;

/// The level's cells and `@`, or why none was made.
pub fn made(
    problem: &Problem,
    rules: &Rules,
    fixed: &[FixedCell],
    (w, h): (usize, usize),
    rng: &mut Rng,
    work: &mut u64,
) -> Result<(Vec<u8>, Pos), String> {
    let patterns = &problem.patterns;
    let (n, border) = (patterns.n, problem.read.border);
    let (iw, ih) = (w - 2, h - 2);
    if iw < n || ih < n {
        return Err(format!("its inside, {iw}x{ih}, is smaller than a {n}x{n} window"));
    }
    let inner = inner_cells(fixed, (w, h), border)?;
    let mut start = Wave::new(rules, iw + 1 - n, ih + 1 - n);
    for &(x, y, c) in &inner {
        if impose(&mut start, rules, patterns, &[(x, y, c)], work).is_err() {
            return Err(format!(
                "inside the border, fixed cell ({}, {}) '{}' cannot be kept either",
                x + 2,
                y + 2,
                c as char
            ));
        }
    }
    let repair = repair_of(problem, rules, start, (iw, ih), (*work, REPAIR_ALLOWANCE, 0));
    let (cells, player) = repaired(&repair, (Vec::new(), None), rng, work, (problem, &inner))
        .map_err(|tried| format!("nor its inside alone in {tried} attempts to repair"))?;
    let mut level = vec![border; w * h];
    for y in 0..ih {
        level[(y + 1) * w + 1..][..iw].copy_from_slice(&cells[y * iw..][..iw]);
    }
    Ok((level, Pos { x: player.x + 1, y: player.y + 1 }))
}

/// The fixed cells inside the border, in the inside's coordinates; one on
/// the border must be the border's character.
fn inner_cells(fixed: &[FixedCell], (w, h): (usize, usize), border: u8) -> Result<Vec<FixedCell>, String> {
    let mut inner = Vec::new();
    for &(x, y, c) in fixed {
        if on_ring((x, y), (w, h)) {
            if c != border {
                return Err(format!(
                    "fixed cell ({}, {}) '{}' is on the border, of '{}'",
                    x + 1,
                    y + 1,
                    c as char,
                    border as char
                ));
            }
            continue;
        }
        inner.push((x - 1, y - 1, c));
    }
    Ok(inner)
}
