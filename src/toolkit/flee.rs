//! Safety maps: a distance map turned so that walking downhill leads away
//! from the sources (RogueBasin's "The Incredible Power of Dijkstra Maps").

use std::fmt;

use super::board::{Board, Limits, Source, Walk, BEYOND, MAX_VALUE, UNREACHED};
use super::distances::distances_from;
use crate::grid::{Grid, Pos};

/// The factor a game uses unless it says otherwise: a little more than -1,
/// so that running past a source to the far side pays.
pub const DEFAULT_FACTOR: f64 = -1.2;

/// The factors `flee` takes: negative, and not so large that the
/// rounding of small distances stops mattering.
pub const FACTORS: (f64, f64) = (-10.0, -0.1);

/// A scaled value beyond `±MAX_VALUE`: possible only with start values or
/// costs so large that the products would not be exact in LuaJIT's doubles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Overflow {
    pub at: Pos,
    pub value: i64,
}

impl fmt::Display for Overflow {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "distance {} at ({},{}) times factor is beyond 2^53 in magnitude",
            self.value, self.at.x, self.at.y
        )
    }
}

/// The safety map from `sources`: their distance map (`distances_from`,
/// with the same walk and limits), each reached value multiplied by
/// `factor` and rounded down (`scaled`), then rescanned: every reached
/// cell takes the least of its own scaled value and, for each legal step
/// into it from a reached cell, that cell's new value plus the cost of
/// entering it. Cells the first search did not reach stay `BEYOND`, so
/// with `max` the work stays within it.
///
/// The rescan is Dijkstra's algorithm with every reached cell a source at
/// its scaled value, the least fixed point of that rule.
pub fn flee(
    grid: &Grid,
    sources: &[Source],
    walk: &Walk,
    limits: &Limits,
    factor: f64,
) -> Result<Vec<i64>, Overflow> {
    let mut values = distances_from(grid, sources, walk, limits);
    for (i, v) in values.iter_mut().enumerate().filter(|(_, v)| **v != BEYOND) {
        let s = scaled(*v, factor);
        if s.abs() > MAX_VALUE as f64 {
            let (at, value) = (grid.pos(i), *v);
            return Err(Overflow { at, value });
        }
        *v = s as i64;
    }
    let Some(least) = values.iter().copied().filter(|&v| v != BEYOND).min() else {
        return Ok(values);
    };
    let shut: Vec<bool> = (0..values.len())
        .map(|i| values[i] == BEYOND || limits.closed.get(i) == Some(&true))
        .collect();
    let mut board = Board::new(grid, walk);
    board.close(&shut);
    drop(shut);
    let keyed: Vec<(usize, u64)> = (0..values.len())
        .filter(|&i| values[i] != BEYOND)
        .map(|i| (board.index(grid.pos(i)), (values[i] - least) as u64))
        .collect();
    board.search_keyed(&keyed);
    drop(keyed);
    for (v, d) in values.iter_mut().zip(board.distances()) {
        if d != UNREACHED {
            *v = d as i64 + least;
        }
    }
    Ok(values)
}

/// `floor(value * factor)` as Lua computes `math.floor(v * factor)`: the
/// product of two doubles rounded to the nearest double (IEEE 754), then
/// rounded down. `value` converts exactly (|value| <= 2^53), so both
/// interpreters, and a Lua program doing the same, get the same integer.
pub fn scaled(value: i64, factor: f64) -> f64 {
    (value as f64 * factor).floor()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toolkit::board::MAX_COST;

    fn at(x: usize, y: usize) -> Pos {
        Pos { x, y }
    }

    #[test]
    fn scaling_rounds_the_double_product_down() {
        assert_eq!(scaled(5, -1.2), -6.0);
        assert_eq!(scaled(1, -1.2), -2.0);
        assert_eq!(scaled(2, -1.2), -3.0);
        assert_eq!(scaled(0, -1.2), 0.0);
        assert_eq!(scaled(3, -0.5), -2.0);
        assert_eq!(scaled(-3, -0.5), 1.0);
        // The double -0.1 is a little more than 1/10 in magnitude, but the
        // product rounds to -1.0 exactly, as in Lua.
        assert_eq!(scaled(10, -0.1), -1.0);
        assert_eq!(scaled(1 << 53, -10.0), -10.0 * (1u64 << 53) as f64);
    }

    #[test]
    fn a_corridor_flees_to_the_far_end() {
        let g = Grid::from_rows(&["#######", "#.....#", "#######"]);
        let d = flee(
            &g,
            &[at(3, 2).into()],
            &Walk::new(),
            &Limits::default(),
            -1.2,
        )
        .unwrap();
        // Distances 1 0 1 2 3 scale to -2 0 -2 -3 -4; the rescan lowers
        // the source's to -1 (a step from either side).
        assert_eq!(&d[8..13], &[-2, -1, -2, -3, -4]);
        assert!(d[..8].iter().all(|&v| v == BEYOND));
    }

    #[test]
    fn the_rescan_spills_over_a_ridge_but_not_into_unreached_cells() {
        let g = Grid::from_rows(&[".....", "..#..", "....."]);
        let limits = Limits {
            max: Some(2),
            ..Limits::default()
        };
        let d = flee(&g, &[at(1, 1).into()], &Walk::new(), &limits, -2.0).unwrap();
        // Within 2: 0 1 2 / 1 2 / 2, scaled 0 -2 -4 / -2 -4 / -4.
        assert_eq!(d[..5], [-2, -3, -4, BEYOND, BEYOND]);
        assert_eq!(d[5..10], [-3, -4, BEYOND, BEYOND, BEYOND]);
        assert_eq!(d[10..], [-4, BEYOND, BEYOND, BEYOND, BEYOND]);
    }

    #[test]
    fn too_large_products_are_refused() {
        let g = Grid::new(3, 1, b'.');
        let mut cost = Box::new([1; 256]);
        cost[b'.' as usize] = MAX_COST;
        let walk = Walk {
            cost: Some(cost),
            ..Walk::new()
        };
        let source = Source {
            pos: at(1, 1),
            value: MAX_VALUE - 2 * MAX_COST as i64,
        };
        let d = flee(&g, &[source], &walk, &Limits::default(), -1.0);
        assert_eq!(
            d,
            Ok(vec![
                -source.value,
                -source.value - MAX_COST as i64,
                -MAX_VALUE
            ])
        );
        let err = flee(&g, &[source], &walk, &Limits::default(), -1.5).unwrap_err();
        assert_eq!(err.at, at(1, 1));
        let expected = format!("distance {} at (1,1) times factor", source.value);
        assert!(err.to_string().starts_with(&expected), "{err}");
    }
}
