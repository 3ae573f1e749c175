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
    rescan(
        grid,
        distances_from(grid, sources, walk, limits),
        walk,
        limits,
        factor,
    )
}

/// `flee`'s second half: the safety map from `values`, a distance map
/// over `grid` (`BEYOND` where unreached) that a game already has, scaled
/// and rescanned under `walk` and `limits.closed`.
pub fn rescan(
    grid: &Grid,
    mut values: Vec<i64>,
    walk: &Walk,
    limits: &Limits,
    factor: f64,
) -> Result<Vec<i64>, Overflow> {
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
    // The rescan enters reached cells only; an unreached cell that can be
    // entered (beyond `max`) is still no corner for a diagonal step.
    let unreached: Vec<bool> = values.iter().map(|&v| v == BEYOND).collect();
    let mut board = Board::new(grid, walk);
    board.close(&limits.closed);
    board.bar(&unreached);
    drop(unreached);
    // Row by row: a cell's board index without a division.
    let stride = grid.width() + 2;
    let mut keyed: Vec<(usize, u64)> = Vec::with_capacity(values.len());
    for (y, row) in values.chunks(grid.width()).enumerate() {
        let base = (y + 1) * stride + 1;
        for (x, &v) in row.iter().enumerate().filter(|(_, &v)| v != BEYOND) {
            keyed.push((base + x, (v - least) as u64));
        }
    }
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
    let x = value as f64 * factor;
    // `floor`, without libm's call: |x| < 2^57, so the cast is exact for
    // every integral x and truncates toward zero otherwise.
    let t = x as i64 as f64;
    if t > x {
        t - 1.0
    } else {
        t
    }
}

/// The memory `flee` may use: `distances`' bound, then the rescan over its
/// scaled values: the cells it may not enter (a byte a cell, then a byte a
/// padded cell), a second board and Dijkstra's search, every reached cell
/// as a source with its key (16 bytes) and the new distances (8).
pub fn bound(size: (usize, usize), sources: usize, weighted: bool) -> usize {
    let cells = size.0 * size.1;
    super::distances::bound(size, sources, weighted)
        + super::board::search_bytes(size, cells, true)
        + 25 * cells
        + super::board::padded(size)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::toolkit::board::MAX_COST;

    fn at(x: usize, y: usize) -> Pos {
        Pos { x, y }
    }

    #[test]
    fn scaling_is_floor_of_the_double_product() {
        let mut v: i64 = 1;
        for factor in [-10.0, -7.3, -1.2, -1.0, -0.5, -0.1, -0.333] {
            for value in [
                0,
                1,
                2,
                3,
                7,
                99,
                12345,
                -5,
                -77,
                1 << 40,
                (1 << 53) - 1,
                -(1 << 52),
            ] {
                let x = value as f64 * factor;
                assert_eq!(scaled(value, factor), x.floor(), "{value} * {factor}");
            }
            v = v
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let value = (v >> 11) % (1 << 53);
            assert_eq!(scaled(value, factor), (value as f64 * factor).floor());
        }
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
    fn a_cell_beyond_max_is_no_corner_of_the_rescan() {
        // `=` costs 2 and `~` 9: from (1,2) within 2, `~` is unreached but
        // can be entered, so the diagonal step from `=` to (2,2) passes it
        // as the first search's steps do (found by the toolkit fuzz target).
        let g = Grid::from_rows(&["=~", ".."]);
        let mut cost = Box::new([1; 256]);
        cost[b'=' as usize] = 2;
        cost[b'~' as usize] = 9;
        let walk = Walk {
            diagonal: true,
            cost: Some(cost),
            ..Walk::new()
        };
        let limits = Limits {
            max: Some(2),
            ..Limits::default()
        };
        let d = flee(&g, &[at(1, 2).into()], &walk, &limits, -10.0).unwrap();
        // Distances 2 - / 0 1, scaled -20 - / 0 -10; (1,2) takes -20 + 1,
        // and (2,2) -20 + 1 too, diagonally from (1,1).
        assert_eq!(d, [-20, BEYOND, -19, -19]);
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
